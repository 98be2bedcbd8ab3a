//! `fbd bench`: scan-time statistics of a diagram, or of synthetic diagrams of given sizes.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use fbd_engine::{CompileOptions, Runtime, ScanPlan, synth};

/// Arguments of `fbd bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// The diagram to measure (omit with --synthetic).
    file: Option<PathBuf>,
    /// Measure synthetic diagrams of these sizes instead, e.g. 1000,10000,100000.
    #[arg(long, value_delimiter = ',')]
    synthetic: Vec<usize>,
    /// The synthetic shapes: chain (a deep random DAG), wide (independent 8-block nets with
    /// feedback, like the 2048 cells), modchain (`x := (x + 7 - 3) MOD 1021` repeated: the
    /// IronPLC comparison), or several.
    #[arg(long, value_delimiter = ',', default_value = "chain")]
    shape: Vec<String>,
    /// Also compile each synthetic plan to C (`cc -O2`) and time that: the native lower bound.
    #[arg(long)]
    native_c: bool,
    /// Scans to time (default: about one second's worth).
    #[arg(long)]
    scans: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// The 2048 benchmark table: native reference, each wiring's scan time and moves/s, expectimax.
    #[arg(long)]
    all: bool,
    /// With --all: also run nneonneo/2048-ai's moves (this program, running the workload on
    /// their execute_move: tools/peers/README.md) pair by pair with ours.
    #[arg(long, requires = "all")]
    nneonneo_moves: Option<PathBuf>,
    /// With --all: also run IronPLC's VM (the directory holding its `ironplcc` and `ironplcvm`,
    /// built from their source) pair by pair with our interpreter.
    #[arg(long, requires = "all")]
    ironplc: Option<PathBuf>,
    /// With --all: pairs per peer.
    #[arg(long, default_value_t = 5, requires = "all", value_parser = clap::value_parser!(u32).range(1..=100))]
    pairs: u32,
}

pub(crate) struct Row {
    name: String,
    blocks: usize,
    compile_ms: f64,
    /// How far the resident size rose while loading and compiling (Linux), in bytes.
    peak_bytes: Option<u64>,
    scans: u64,
    median_ns: f64,
    p99_ns: f64,
    pub(crate) mean_ns: f64,
    /// ns per scan of the same plan compiled to C, if measured.
    native_ns: Option<f64>,
}

/// Times `scans` scans one by one (batches of `batch` scans for tiny plans, where the clock's
/// own cost would dominate) and returns (median, p99, mean) of ns per scan.
fn measure(plan: ScanPlan, scans: Option<u64>) -> (u64, f64, f64, f64) {
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

/// Runs `fbd bench`.
pub fn bench(args: BenchArgs) -> ExitCode {
    if args.all {
        let peers = crate::peers::Peers {
            nneonneo_moves: args.nneonneo_moves,
            ironplc: args.ironplc,
            pairs: args.pairs as usize,
        };
        return crate::bench_all::bench_all(args.json, &peers);
    }
    let mut rows = Vec::new();
    if let Some(f) = &args.file {
        let base = crate::mem::reset_peak();
        let t = Instant::now();
        let plan = match crate::source::compile_file(f) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        let compile_ms = t.elapsed().as_secs_f64() * 1e3;
        let blocks = plan.stats.blocks;
        let (scans, median_ns, p99_ns, mean_ns) = measure(plan, args.scans);
        rows.push(Row {
            name: f.display().to_string(),
            blocks,
            compile_ms,
            peak_bytes: crate::mem::peak_above(base),
            scans,
            median_ns,
            p99_ns,
            mean_ns,
            native_ns: None,
        });
    }
    // The compiler refuses more than 2,000,000 blocks anyway; checking first keeps a typo such
    // as 100000000000 from trying to allocate the text of a diagram that size.
    if let Some(&n) = args.synthetic.iter().find(|&&n| n as u64 > CompileOptions::default().max_blocks) {
        eprintln!(
            "error: --synthetic {n}: the compiler accepts at most {} blocks",
            CompileOptions::default().max_blocks
        );
        return ExitCode::FAILURE;
    }
    // A per-block figure of no blocks is a division by nothing (it printed 11 ns/block).
    if args.synthetic.contains(&0) {
        eprintln!("error: --synthetic 0: a synthetic diagram has at least 1 block");
        return ExitCode::FAILURE;
    }
    for shape in &args.shape {
        if !matches!(shape.as_str(), "chain" | "wide" | "modchain") {
            eprintln!("error: --shape {shape}: use chain, wide, modchain or several (chain,wide)");
            return ExitCode::FAILURE;
        }
        for &n in &args.synthetic {
            match synthetic_row(shape, n, args.native_c, args.scans) {
                Ok(r) => rows.push(r),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    if rows.is_empty() {
        eprintln!("error: give a diagram file or --synthetic SIZES (e.g. --synthetic 1000,10000,100000)");
        return ExitCode::FAILURE;
    }
    if args.json {
        let v: Vec<serde_json::Value> = rows.iter().map(row_json).collect();
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        print_table(&rows);
    }
    ExitCode::SUCCESS
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
