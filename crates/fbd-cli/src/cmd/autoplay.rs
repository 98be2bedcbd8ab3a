//! `fbd autoplay`: players playing through the FBD program (or natively, for comparison), and
//! `fbd bench --all`: the side-by-side benchmark table.

use std::process::ExitCode;

use crate::error::Error;
use std::time::{Duration, Instant};

use fbd_engine::ScanPlan;
use fbd2048_game::{Command, FbdGame, Wiring, check_command};
use players::{NAMES, by_name};
use ref2048::{Game, max_tile};

/// Arguments of `fbd autoplay`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The player: random, greedy, pattern, montecarlo, expectimax (fast mode), expectimax-deep.
    #[arg(long, default_value = "greedy")]
    player: String,
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    games: u64,
    /// A 2048 diagram (default: the embedded diagrams/2048.json), as for `play` and `latency`.
    file: Option<std::path::PathBuf>,
    /// The earlier spelling of FILE.
    #[arg(long, hide = true, conflicts_with = "file")]
    diagram: Option<std::path::PathBuf>,
    /// An embedded wiring instead of a file: upd1, original, smart-spawn.
    #[arg(long, conflicts_with_all = ["file", "diagram"])]
    wiring: Option<String>,
    /// Seed of the games (game k uses seed + k for the player and the runtime).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Play on the native reference alone instead of through the FBD program.
    #[arg(long)]
    native: bool,
    /// Stop a game after this many moves.
    #[arg(long, default_value_t = 1_000_000)]
    max_moves: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Expectimax: search depth cap in moves ahead (default 6 fast, 10 deep).
    #[arg(long)]
    depth: Option<u32>,
    /// Monte-Carlo: random playouts per move (default 200).
    #[arg(long)]
    playouts: Option<u32>,
    /// Record the run (every game, one program) for `fbd replay`.
    #[arg(long, value_name = "FILE", conflicts_with = "native")]
    record: Option<std::path::PathBuf>,
}

impl Args {
    /// The player's one parameter: the depth of expectimax or the playouts of Monte-Carlo.
    fn param(&self) -> Result<Option<u32>, String> {
        let mc = matches!(self.player.as_str(), "montecarlo" | "monte-carlo" | "mc");
        match (self.depth, self.playouts) {
            (Some(_), _) if !self.player.starts_with("expectimax") => {
                Err(format!("--depth is the search depth of expectimax; `{}` has none", self.player))
            }
            (_, Some(_)) if !mc => Err(format!("--playouts is for montecarlo; `{}` plays none", self.player)),
            // The players count 0 as 1: said, not done silently.
            (Some(0), _) => Err("--depth 0: expectimax looks at least 1 move ahead".into()),
            (_, Some(0)) => Err("--playouts 0: montecarlo needs at least 1 playout per move".into()),
            (d, p) => Ok(d.or(p)),
        }
    }
}

/// The outcome of a series of games.
#[derive(Default)]
struct Outcome {
    scores: Vec<u64>,
    max_tiles: Vec<u32>,
    moves: u64,
    mismatches: u64,
    first_mismatch: Option<String>,
    elapsed: Duration,
}

const TILES: [u32; 7] = [512, 1024, 2048, 4096, 8192, 16384, 32768];

fn plan_for(a: &Args) -> Result<(String, ScanPlan), String> {
    if let Some(f) = a.file.as_ref().or(a.diagram.as_ref()) {
        let p = crate::source::compile_file(f).map_err(|e| e.to_string())?;
        return Ok((f.display().to_string(), p));
    }
    let w = match &a.wiring {
        Some(s) => {
            Wiring::parse(s).ok_or_else(|| format!("unknown wiring `{s}`; use upd1, original or smart-spawn"))?
        }
        None => Wiring::Upd1,
    };
    Ok((format!("diagrams/{}", w.file_name()), w.compile().map_err(|e| e.to_string())?))
}

fn play_native(name: &str, seed: u64, depth: Option<u32>, max_moves: u64) -> (u64, u32, u64) {
    let mut p = players::by_name_with(name, seed, depth).expect("checked");
    let mut g = Game::new(seed);
    while g.moves < max_moves {
        match p.choose(g.board) {
            Some(d) => {
                g.play(d);
            }
            None => break,
        }
    }
    (g.score, max_tile(g.board), g.moves)
}

fn play_fbd(g: &mut FbdGame, a: &Args, seed: u64, out: &mut Outcome) -> Result<(), String> {
    let (name, max_moves) = (a.player.as_str(), a.max_moves);
    let mut p = players::by_name_with(name, seed, a.param().expect("checked")).expect("checked");
    g.command(Command::Start).map_err(|e| e.to_string())?;
    let mut moves = 0;
    let mut board = g.board().map_err(|e| e.to_string())?;
    while moves < max_moves {
        let Some(d) = p.choose(board) else { break };
        let s0 = g.score();
        g.command(Command::Move(d)).map_err(|e| e.to_string())?;
        let after = g.board().map_err(|e| e.to_string())?;
        if let Err(m) = check_command(board, d, after, g.score() - s0, g.game_over()) {
            out.mismatches += 1;
            out.first_mismatch.get_or_insert_with(|| m.to_string());
        }
        board = after;
        moves += 1;
    }
    out.scores.push(g.score().max(0) as u64);
    out.max_tiles.push(max_tile(board));
    out.moves += moves;
    Ok(())
}

/// Runs `fbd autoplay`.
pub(crate) fn run(a: Args) -> Result<ExitCode, Error> {
    if by_name(&a.player, 0).is_none() {
        return Err(format!("unknown player `{}`; players: {}", a.player, NAMES.join(", ")).into());
    }
    a.param()?;
    if a.games == 0 {
        return Err("--games 0: at least 1 game (no game reports rates of nothing)".into());
    }
    // Game k is seeded with seed + k; past the largest seed that overflowed (a panic in a debug
    // build, the same games again in release).
    if a.seed.checked_add(a.games.saturating_sub(1)).is_none() {
        return Err(format!(
            "--seed {} with --games {}: the games' seeds ({0} + game number) pass {}",
            a.seed,
            a.games,
            u64::MAX
        )
        .into());
    }
    if let Some(path) = a.record.as_deref() {
        crate::record::check_destination(path)?;
    }
    let (name, plan) = plan_for(&a)?;
    let bar = indicatif::ProgressBar::new(a.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} games ({elapsed})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(format!("{} {}", a.player, if a.native { "native".to_string() } else { name.clone() }));
    let mut out = Outcome::default();
    let t = Instant::now();
    let mut game = if a.native { None } else { Some(FbdGame::new(plan.clone(), a.seed).map_err(|e| e.to_string())) };
    if a.record.is_some()
        && let Some(Ok(g)) = &mut game
    {
        g.rt.start_recording(100);
    }
    for k in 0..a.games {
        let seed = a.seed + k;
        match &mut game {
            None => {
                let (s, m, n) = play_native(&a.player, seed, a.param().expect("checked"), a.max_moves);
                out.scores.push(s);
                out.max_tiles.push(m);
                out.moves += n;
            }
            Some(Ok(g)) => {
                if let Err(e) = play_fbd(g, &a, seed, &mut out) {
                    bar.finish_and_clear();
                    return Err(format!("{name}: {e}").into());
                }
            }
            Some(Err(e)) => return Err(format!("{name}: {e}").into()),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    out.elapsed = t.elapsed();
    if let (Some(path), Some(Ok(g))) = (&a.record, &mut game) {
        let project = crate::source::project(a.file.as_deref().or(a.diagram.as_deref()), a.wiring.as_deref());
        project.and_then(|p| crate::record::finish(&mut g.rt, &p, path))?;
    }
    report(&a, if a.native { "native (ref2048)" } else { &name }, &out);
    Ok(if out.mismatches == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn report(a: &Args, name: &str, o: &Outcome) {
    let n = o.scores.len().max(1) as f64;
    let mean = o.scores.iter().sum::<u64>() as f64 / n;
    let mut sorted = o.scores.clone();
    sorted.sort_unstable();
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0);
    let reach: Vec<(u32, f64)> =
        TILES.iter().map(|&t| (t, o.max_tiles.iter().filter(|&&m| m >= t).count() as f64 / n * 100.0)).collect();
    let mps = o.moves as f64 / o.elapsed.as_secs_f64().max(1e-9);
    if a.json {
        let r: serde_json::Map<String, serde_json::Value> =
            reach.iter().map(|(t, p)| (t.to_string(), (*p).into())).collect();
        let v = serde_json::json!({
            "player": a.player, "depth": a.depth, "playouts": a.playouts, "diagram": name, "games": o.scores.len(), "seed": a.seed, "mean_score": mean,
            "median_score": median, "reached_percent": r, "moves": o.moves, "moves_per_second": mps,
            "mismatches": o.mismatches,
        });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return;
    }
    println!("player {} on {name}: {} games, seed {}", a.player, o.scores.len(), a.seed);
    println!("  mean score {mean:.0}, median {median}");
    let r: Vec<String> = reach.iter().map(|(t, p)| format!("{t}: {p:.0}%")).collect();
    println!("  reached     {}", r.join("  "));
    println!("  moves       {} ({mps:.0} moves/s)", o.moves);
    if !a.native {
        // Natively there is no FBD board to compare.
        println!("  mismatches  {} (FBD board vs reference)", o.mismatches);
    }
    if let Some(m) = &o.first_mismatch {
        println!("first mismatch: {m}");
    }
}
