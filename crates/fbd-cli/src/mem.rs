//! Peak memory of one step, from Linux's accounting: `reset_peak` (writes 5 to
//! `/proc/self/clear_refs`, which resets the high-water mark) before, `peak_above` after. Other
//! systems report nothing (the benchmark prints `-`).

/// A field of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`).
fn status_bytes(field: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Resets the peak resident size to the current one; returns the current resident size.
pub fn reset_peak() -> Option<u64> {
    std::fs::write("/proc/self/clear_refs", "5").ok()?;
    status_bytes("VmRSS:")
}

/// How far the peak resident size rose above `base` since [`reset_peak`].
pub fn peak_above(base: Option<u64>) -> Option<u64> {
    Some(status_bytes("VmHWM:")?.saturating_sub(base?))
}
