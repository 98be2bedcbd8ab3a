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
    /// feedback, like the 2048 cells), or both.
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
}

struct Row {
    name: String,
    blocks: usize,
    compile_ms: f64,
    scans: u64,
    median_ns: f64,
    p99_ns: f64,
    mean_ns: f64,
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
        return crate::autoplay::bench_all(args.json);
    }
    let mut rows = Vec::new();
    if let Some(f) = &args.file {
        let t = Instant::now();
        let plan = match fbd_plcopen::compile_any(f) {
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
    for shape in &args.shape {
        if !matches!(shape.as_str(), "chain" | "wide") {
            eprintln!("error: --shape {shape}: use chain, wide or both (chain,wide)");
            return ExitCode::FAILURE;
        }
        for &n in &args.synthetic {
            let text = if shape == "wide" { synth::wide(n, 1) } else { synth::diagram(n, 1) };
            let t = Instant::now();
            let plan = match fbd_engine::compile(&text) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("synthetic diagram of {n} blocks: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let compile_ms = t.elapsed().as_secs_f64() * 1e3;
            let blocks = plan.stats.blocks;
            let native = if args.native_c {
                match crate::bench_c::time_native(&plan) {
                    Ok(ns) => Some(ns),
                    Err(e) => {
                        eprintln!("error: the C lower bound of synthetic-{shape}-{n}: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            } else {
                None
            };
            let (scans, median_ns, p99_ns, mean_ns) = measure(plan, args.scans);
            let name = if shape == "chain" { format!("synthetic-{n}") } else { format!("synthetic-{shape}-{n}") };
            rows.push(Row { name, blocks, compile_ms, scans, median_ns, p99_ns, mean_ns, native_ns: native });
        }
    }
    if rows.is_empty() {
        eprintln!("error: give a diagram file or --synthetic SIZES (e.g. --synthetic 1000,10000,100000)");
        return ExitCode::FAILURE;
    }
    if args.json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "name": r.name, "blocks": r.blocks, "load_compile_ms": r.compile_ms, "scans": r.scans,
                    "scan_median_ns": r.median_ns, "scan_p99_ns": r.p99_ns, "scan_mean_ns": r.mean_ns,
                    "ns_per_block": r.median_ns / r.blocks.max(1) as f64,
                    "native_c_scan_ns": r.native_ns,
                    "native_c_ns_per_block": r.native_ns.map(|n| n / r.blocks.max(1) as f64),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        println!(
            "{:<28} {:>8} {:>12} {:>10} {:>12} {:>12} {:>10} {:>12}",
            "diagram", "blocks", "compile ms", "scans", "median µs", "p99 µs", "ns/block", "C ns/block"
        );
        for r in &rows {
            println!(
                "{:<28} {:>8} {:>12.2} {:>10} {:>12.3} {:>12.3} {:>10.2} {:>12}",
                r.name,
                r.blocks,
                r.compile_ms,
                r.scans,
                r.median_ns / 1e3,
                r.p99_ns / 1e3,
                r.median_ns / r.blocks.max(1) as f64,
                r.native_ns.map_or("-".to_string(), |n| format!("{:.2}", n / r.blocks.max(1) as f64))
            );
        }
    }
    ExitCode::SUCCESS
}
