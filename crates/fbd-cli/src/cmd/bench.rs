//! `fbd bench`: scan-time statistics of a diagram, or of synthetic diagrams of given sizes
//! (the rows of `crate::bench`), or the 2048 benchmark table (`--all`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use fbd_engine::CompileOptions;

use crate::bench::{Row, measure, print_table, row_json, synthetic_row};
use crate::error::Error;

/// Arguments of `fbd bench`.
#[derive(clap::Args)]
pub(crate) struct Args {
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

/// Runs `fbd bench`.
pub(crate) fn run(args: Args) -> Result<ExitCode, Error> {
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
        let plan = crate::source::compile_file(f)?;
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
        return Err(format!(
            "--synthetic {n}: the compiler accepts at most {} blocks",
            CompileOptions::default().max_blocks
        )
        .into());
    }
    // A per-block figure of no blocks is a division by nothing (it printed 11 ns/block).
    if args.synthetic.contains(&0) {
        return Err("--synthetic 0: a synthetic diagram has at least 1 block".into());
    }
    for shape in &args.shape {
        if !matches!(shape.as_str(), "chain" | "wide" | "modchain") {
            return Err(format!("--shape {shape}: use chain, wide, modchain or several (chain,wide)").into());
        }
        for &n in &args.synthetic {
            rows.push(synthetic_row(shape, n, args.native_c, args.scans)?);
        }
    }
    if rows.is_empty() {
        return Err("give a diagram file or --synthetic SIZES (e.g. --synthetic 1000,10000,100000)".into());
    }
    if args.json {
        let v: Vec<serde_json::Value> = rows.iter().map(row_json).collect();
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        print_table(&rows);
    }
    Ok(ExitCode::SUCCESS)
}
