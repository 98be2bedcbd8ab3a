//! `fbd latency`: scans per command over many random games (the design's latency table), and
//! spawn statistics.

use std::process::ExitCode;

use fbd2048_game::{Latency, measure_latency, measure_spawns, summarize};

use crate::error::Error;
use crate::game::Source;

/// Arguments of `fbd latency`.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    source: Source,
    /// Measure the three embedded wirings side by side.
    #[arg(long)]
    all: bool,
    /// Games of random moves per program.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the moves and of the runtime.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = 100_000)]
    max_moves: u64,
    /// Moves whose spawn is recorded for the spawn statistics (0: none, the columns say `-`).
    #[arg(long, default_value_t = 20_000)]
    spawns: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `fbd latency`.
pub(crate) fn run(a: Args) -> Result<ExitCode, Error> {
    // No game measures nothing: a row of zeros read as a measurement.
    if a.games == 0 {
        return Err("--games 0: the latency is measured over at least 1 game".into());
    }
    let plans = a.source.plans(a.all)?;
    let mut rows: Vec<(String, Latency, Option<fbd2048_game::SpawnStats>)> = Vec::new();
    for (name, plan) in plans {
        let t = std::time::Instant::now();
        let lat = measure_latency(&plan, a.games, a.seed, a.max_moves).map_err(|e| format!("{name}: {e}"))?;
        let spawns = (a.spawns > 0)
            .then(|| measure_spawns(&plan, a.spawns, a.seed))
            .transpose()
            .map_err(|e| format!("{name}: {e}"))?;
        eprintln!("{name}: {} games in {:.1} s", lat.games, t.elapsed().as_secs_f64());
        rows.push((name, lat, spawns));
    }
    let mismatches: u64 = rows.iter().map(|r| r.1.mismatches).sum();
    if a.json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|(name, l, s)| {
                let m = summarize(&l.moves);
                serde_json::json!({
                    "diagram": name, "games": l.games, "moves": m.count, "cycle_ms": l.cycle_ms,
                    "scans_mean": m.mean, "scans_p50": m.p50, "scans_p99": m.p99, "scans_max": m.max,
                    "ms_mean": m.mean * l.cycle_ms, "ms_p99": m.p99 as f64 * l.cycle_ms, "ms_max": m.max as f64 * l.cycle_ms,
                    "no_op_scans_mean": summarize(&l.no_ops).mean, "start_scans_mean": summarize(&l.starts).mean,
                    "mismatches": l.mismatches, "spawn_four_share": s.as_ref().map(|s| s.four_share()),
                    "spawn_chi_square": s.as_ref().map(|s| s.chi_square()),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        println!(
            "scans per move that changed the board (processing + spawn, until the lockout releases), random play:"
        );
        println!(
            "{:<32} {:>6} {:>9} {:>7} {:>5} {:>5} {:>5} {:>8} {:>8} {:>8} {:>6} {:>7} {:>6}",
            "diagram",
            "games",
            "moves",
            "mean",
            "p50",
            "p99",
            "max",
            "mean ms",
            "p99 ms",
            "max ms",
            "4s %",
            "chi²",
            "diff"
        );
        for (name, l, s) in &rows {
            let m = summarize(&l.moves);
            println!(
                "{:<32} {:>6} {:>9} {:>7.2} {:>5} {:>5} {:>5} {:>8.1} {:>8.1} {:>8.1} {:>6} {:>7} {:>6}",
                name,
                l.games,
                m.count,
                m.mean,
                m.p50,
                m.p99,
                m.max,
                m.mean * l.cycle_ms,
                m.p99 as f64 * l.cycle_ms,
                m.max as f64 * l.cycle_ms,
                s.as_ref().map_or("-".into(), |s| format!("{:.2}", 100.0 * s.four_share())),
                s.as_ref().map_or("-".into(), |s| format!("{:.1}", s.chi_square())),
                l.mismatches
            );
        }
        println!(
            "(4s % and chi² come from a separate run of {} spawns (--spawns; --games does not change them): the spawn cells against uniform-among-empty, 15 d.f., 37.7 is the 0.1 % line; diff = mismatches with ref2048)",
            a.spawns
        );
        for (name, l, _) in &rows {
            if let Some(m) = &l.first_mismatch {
                println!("{name}: first mismatch: {m}");
            }
        }
    }
    Ok(if mismatches == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
