//! `fbd play` and `fbd latency`: 2048 through an FBD program.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use fbd_engine::ScanPlan;
use fbd2048_game::{Command, FbdGame, Latency, Wiring, check_command, measure_latency, measure_spawns, summarize};
use ref2048::Dir;

/// Which program: a file, or an embedded wiring.
#[derive(Args)]
pub struct Source {
    /// A 2048 diagram (default: the embedded diagrams/2048.json).
    file: Option<PathBuf>,
    /// An embedded wiring instead of a file: upd1, original, smart-spawn.
    #[arg(long, conflicts_with = "file")]
    wiring: Option<String>,
}

impl Source {
    fn plans(&self, all: bool) -> Result<Vec<(String, ScanPlan)>, String> {
        if all {
            return Wiring::ALL
                .iter()
                .map(|w| w.compile().map(|p| (format!("diagrams/{}", w.file_name()), p)).map_err(|e| e.to_string()))
                .collect();
        }
        if let Some(f) = &self.file {
            let p = crate::source::compile_file(f).map_err(|e| e.to_string())?;
            return Ok(vec![(f.display().to_string(), p)]);
        }
        let w = match &self.wiring {
            Some(s) => {
                Wiring::parse(s).ok_or_else(|| format!("unknown wiring `{s}`; use upd1, original or smart-spawn"))?
            }
            None => Wiring::Upd1,
        };
        Ok(vec![(format!("diagrams/{}", w.file_name()), w.compile().map_err(|e| e.to_string())?)])
    }
}

/// Arguments of `fbd play`.
#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    source: Source,
    /// Runtime seed (RANDOM blocks).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Moves to play: letters U, R, D, L (e.g. ULDRUL); none: only the new game (or --board).
    #[arg(long, default_value = "", hide_default_value = true)]
    moves: String,
    /// Start from this board instead of a new game: 16 values, row-major, comma-separated.
    #[arg(long, value_delimiter = ',')]
    board: Vec<u32>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Record the run (every command, a state hash every 100 scans) for `fbd replay`.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// Runs `fbd play`.
pub fn play(a: PlayArgs) -> ExitCode {
    match play_inner(a) {
        Ok(code) => code,
        Err(e) => {
            crate::out::error(&e.to_string());
            ExitCode::FAILURE
        }
    }
}

fn play_inner(a: PlayArgs) -> Result<ExitCode, String> {
    // Every move letter is checked before the game starts (one that was not a move stopped the
    // game halfway, after the moves before it were played and printed), each bad one named.
    let letters: Vec<(usize, char)> =
        a.moves.chars().enumerate().filter(|(_, c)| !c.is_whitespace() && *c != ',').collect();
    let bad: Vec<String> = letters
        .iter()
        .filter(|(_, c)| Dir::from_char(*c).is_none())
        .map(|(i, c)| format!("`{c}` (character {})", i + 1))
        .collect();
    if !bad.is_empty() {
        return Err(format!(
            "--moves: {} not U, R, D or L",
            bad.join(", ") + if bad.len() == 1 { " is" } else { " are" }
        ));
    }
    let moves: Vec<Dir> = letters.iter().filter_map(|(_, c)| Dir::from_char(*c)).collect();
    let (name, plan) = a.source.plans(false)?.remove(0);
    if a.seed != 0 && !plan.uses_seed() {
        crate::run::seed_warning(a.seed, &name);
    }
    let mut g = FbdGame::new(plan, a.seed).map_err(|e| format!("{name}: {e}"))?;
    if let Some(path) = &a.record {
        crate::record::check_destination(path)?;
        g.rt.start_recording(100);
    }
    let mut log = Vec::new();
    if a.board.is_empty() {
        let n = g.command(Command::Start).map_err(|e| e.to_string())?;
        log.push(serde_json::json!({"command": "start", "scans": n}));
    } else {
        let v: [u32; 16] =
            a.board.clone().try_into().map_err(|_| format!("--board needs 16 values, got {}", a.board.len()))?;
        let b = ref2048::from_values(&v).ok_or("--board values must be 0 or powers of two from 2 to 32768")?;
        g.set_board(b).map_err(|e| e.to_string())?;
    }
    let mut mismatches = 0;
    for dir in moves {
        let before = g.board().map_err(|e| e.to_string())?;
        let s0 = g.score();
        let n = g.command(Command::Move(dir)).map_err(|e| e.to_string())?;
        let after = g.board().map_err(|e| e.to_string())?;
        let verdict = check_command(before, dir, after, g.score() - s0, g.game_over());
        if verdict.is_err() {
            mismatches += 1;
        }
        log.push(serde_json::json!({
            "command": dir.letter().to_string(), "scans": n, "changed": after != before,
            "reference": verdict.as_ref().map(|_| "ok".to_string()).unwrap_or_else(|m| m.why.clone()),
        }));
    }
    if let Some(path) = &a.record {
        let project = crate::source::project(a.source.file.as_deref(), a.source.wiring.as_deref())?;
        crate::record::finish(&mut g.rt, &project, path)?;
    }
    let board = g.board().map_err(|e| e.to_string())?;
    if a.json {
        let v = serde_json::json!({
            "diagram": name, "seed": a.seed, "board": ref2048::to_values(board), "score": g.score(), "best": g.best(),
            "game_over": g.game_over(), "win": g.win(), "scans": g.rt.scan_count(), "commands": log, "mismatches": mismatches,
        });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        print!("{}", ref2048::render(board));
        println!("score {}  best {}  game over {}  win {}", g.score(), g.best(), g.game_over(), g.win());
        let scans: Vec<String> =
            log.iter().map(|c| format!("{}:{}", c["command"].as_str().unwrap_or("?"), c["scans"])).collect();
        println!("scans per command: {}", scans.join(" "));
        println!(
            "{} scans, {} ms simulated; {mismatches} mismatch(es) with the reference",
            g.rt.scan_count(),
            g.rt.clock_us() / 1000
        );
    }
    Ok(if mismatches == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Arguments of `fbd latency`.
#[derive(Args)]
pub struct LatencyArgs {
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
pub fn latency(a: LatencyArgs) -> ExitCode {
    // No game measures nothing: a row of zeros read as a measurement.
    if a.games == 0 {
        crate::out::error("--games 0: the latency is measured over at least 1 game");
        return ExitCode::FAILURE;
    }
    let plans = match a.source.plans(a.all) {
        Ok(p) => p,
        Err(e) => {
            crate::out::error(&e.to_string());
            return ExitCode::FAILURE;
        }
    };
    let mut rows: Vec<(String, Latency, Option<fbd2048_game::SpawnStats>)> = Vec::new();
    for (name, plan) in plans {
        let t = std::time::Instant::now();
        let lat = match measure_latency(&plan, a.games, a.seed, a.max_moves) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let spawns = match (a.spawns > 0).then(|| measure_spawns(&plan, a.spawns, a.seed)).transpose() {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                return ExitCode::FAILURE;
            }
        };
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
    if mismatches == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
