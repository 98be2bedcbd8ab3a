//! Scan-time statistics (the rows `fbd bench` prints): of a diagram, of synthetic diagrams of
//! given sizes, and the table they print as.

use std::time::Instant;

use fbd_engine::{Runtime, ScanPlan, synth};

pub(crate) struct Row {
    pub(crate) name: String,
    pub(crate) blocks: usize,
    pub(crate) compile_ms: f64,
    /// How far the resident size rose while loading and compiling (Linux), in bytes.
    pub(crate) peak_bytes: Option<u64>,
    pub(crate) scans: u64,
    pub(crate) median_ns: f64,
    pub(crate) p99_ns: f64,
    pub(crate) mean_ns: f64,
    /// ns per scan of the same plan compiled to C, if measured.
    pub(crate) native_ns: Option<f64>,
}

/// Times `scans` scans one by one (batches of `batch` scans for tiny plans, where the clock's
/// own cost would dominate) and returns (median, p99, mean) of ns per scan.
pub(crate) fn measure(plan: ScanPlan, scans: Option<u64>) -> (u64, f64, f64, f64) {
    let mut rt = Runtime::new(plan);
    // Warm up and size the batch so one sample is at least ~2 µs.
    let t = Instant::now();
    let mut warm = 0u64;
    while t.elapsed().as_millis() < 100 {
        rt.step();
        warm += 1;
    }
    let per_scan = t.elapsed().as_nanos() as f64 / warm as f64;
    let batch = ((2000.0 / per_scan).ceil() as u64).max(1);
    let total = scans.unwrap_or(((1e9 / per_scan) as u64).clamp(50, 5_000_000));
    let samples = (total / batch).max(10);
    let mut ns = Vec::with_capacity(samples as usize);
    for _ in 0..samples {
        let t = Instant::now();
        for _ in 0..batch {
            rt.step();
        }
        ns.push(t.elapsed().as_nanos() as f64 / batch as f64);
    }
    ns.sort_by(f64::total_cmp);
    let median = ns[ns.len() / 2];
    let p99 = ns[((ns.len() as f64 * 0.99) as usize).min(ns.len() - 1)];
    let mean = ns.iter().sum::<f64>() / ns.len() as f64;
    (samples * batch, median, p99, mean)
}

/// One synthetic diagram (`shape`: chain, wide or modchain) of `n` blocks: generated, loaded
/// and compiled (timed, with the peak memory), optionally compiled to C and timed, then scanned.
pub(crate) fn synthetic_row(shape: &str, n: usize, native_c: bool, scans: Option<u64>) -> Result<Row, String> {
    let text = synthetic_text(shape, n);
    let base = crate::mem::reset_peak();
    let t = Instant::now();
    let plan = fbd_engine::compile(&text).map_err(|e| format!("synthetic diagram of {n} blocks: {e}"))?;
    let compile_ms = t.elapsed().as_secs_f64() * 1e3;
    let peak_bytes = crate::mem::peak_above(base);
    drop(text);
    let blocks = plan.stats.blocks;
    let name = if shape == "chain" { format!("synthetic-{n}") } else { format!("synthetic-{shape}-{n}") };
    let native_ns = if native_c {
        Some(crate::bench_c::time_native(&plan).map_err(|e| format!("the C version of {name}: {e}"))?)
    } else {
        None
    };
    let (scans, median_ns, p99_ns, mean_ns) = measure(plan, scans);
    Ok(Row { name, blocks, compile_ms, peak_bytes, scans, median_ns, p99_ns, mean_ns, native_ns })
}

/// The synthetic diagram of `shape` (chain, wide, modchain) with `n` blocks, as measured.
pub(crate) fn synthetic_text(shape: &str, n: usize) -> String {
    match shape {
        "wide" => synth::wide(n, 1),
        "modchain" => synth::mod_chain(n),
        _ => synth::diagram(n, 1),
    }
}

/// A row as the JSON `fbd bench --json` and `fbd bench --all --json` print.
pub(crate) fn row_json(r: &Row) -> serde_json::Value {
    let per_block = |x: f64| x / r.blocks.max(1) as f64;
    serde_json::json!({
        "name": r.name, "blocks": r.blocks, "load_compile_ms": r.compile_ms, "scans": r.scans,
        "load_compile_peak_bytes": r.peak_bytes,
        "load_compile_peak_bytes_per_block": r.peak_bytes.map(|b| per_block(b as f64)),
        "scan_median_ns": r.median_ns, "scan_p99_ns": r.p99_ns, "scan_mean_ns": r.mean_ns,
        "ns_per_block": per_block(r.median_ns),
        "native_c_scan_ns": r.native_ns,
        "native_c_ns_per_block": r.native_ns.map(per_block),
    })
}

/// The rows as the table `fbd bench` and `fbd bench --all` print.
pub(crate) fn print_table(rows: &[Row]) {
    println!(
        "{:<28} {:>8} {:>12} {:>12} {:>10} {:>12} {:>12} {:>10} {:>12}",
        "diagram", "blocks", "compile ms", "peak B/block", "scans", "median µs", "p99 µs", "ns/block", "C ns/block"
    );
    for r in rows {
        let per_block = |x: f64| x / r.blocks.max(1) as f64;
        println!(
            "{:<28} {:>8} {:>12.2} {:>12} {:>10} {:>12.3} {:>12.3} {:>10.2} {:>12}",
            r.name,
            r.blocks,
            r.compile_ms,
            r.peak_bytes.map_or("-".to_string(), |b| format!("{:.0}", per_block(b as f64))),
            r.scans,
            r.median_ns / 1e3,
            r.p99_ns / 1e3,
            per_block(r.median_ns),
            r.native_ns.map_or("-".to_string(), |n| format!("{:.2}", per_block(n)))
        );
    }
}
