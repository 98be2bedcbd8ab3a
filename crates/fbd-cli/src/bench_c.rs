//! `fbd bench --native-c`: the plan compiled to C (`fbd_engine::cgen`) with `cc -O2` and timed,
//! after checking that it computes the executor's state: the native lower bound per block.

use std::process::Command;

use fbd_engine::{Runtime, ScanPlan};

/// Scans of the C program per timing (enough for about a second on large plans).
fn scans_for(plan: &ScanPlan) -> u64 {
    (200_000_000 / plan.stats.blocks.max(1) as u64).clamp(100, 1_000_000)
}

/// Compiles `plan` to C, checks its state after 50 scans against the executor's, and returns
/// its time per scan in ns (the fastest of three runs).
pub fn time_native(plan: &ScanPlan) -> Result<f64, String> {
    let c = fbd_engine::cgen::emit(plan)?;
    // Removed with the source and the program when `dir` drops, on every return path.
    let dir = tempfile::Builder::new()
        .prefix("fbd-native-c-")
        .tempdir()
        .map_err(|e| format!("cannot make a directory for the C program: {e}"))?;
    let src = dir.path().join("plan.c");
    let exe = dir.path().join("plan");
    std::fs::write(&src, c).map_err(|e| format!("{}: {e}", src.display()))?;
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .map_err(|e| format!("cannot run `{cc}` ({e}); set CC to a C compiler"))?;
    if !out.status.success() {
        return Err(format!("{cc} failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let run = |scans: u64| -> Result<(f64, u64), String> {
        let o = Command::new(&exe).arg(scans.to_string()).output().map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        let mut f = text.split_whitespace();
        let ns = f.next().and_then(|x| x.parse().ok()).ok_or_else(|| format!("unexpected output `{text}`"))?;
        let h = f.next().and_then(|x| u64::from_str_radix(x, 16).ok()).ok_or("no checksum")?;
        Ok((ns, h))
    };
    let mut rt = Runtime::new(plan.clone());
    rt.step_n(50);
    let want = fbd_engine::cgen::state_checksum(&rt.state().ints, &rt.state().bools);
    let (_, got) = run(50)?;
    if got != want {
        return Err(format!(
            "the C program's state differs from the executor's after 50 scans ({got:016x} vs {want:016x})"
        ));
    }
    let scans = scans_for(plan);
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        best = best.min(run(scans)?.0);
    }
    Ok(best)
}
