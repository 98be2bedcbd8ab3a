//! `fbd play`: a game of 2048 through an FBD program, judged move by move by the reference.

use std::path::PathBuf;
use std::process::ExitCode;

use fbd2048_game::{Command, FbdGame, check_command};
use ref2048::Dir;

use crate::error::Error;
use crate::game::Source;

/// Arguments of `fbd play`.
#[derive(clap::Args)]
pub(crate) struct Args {
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
pub(crate) fn run(a: Args) -> Result<ExitCode, Error> {
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
        )
        .into());
    }
    let moves: Vec<Dir> = letters.iter().filter_map(|(_, c)| Dir::from_char(*c)).collect();
    let (name, plan) = a.source.plans(false)?.remove(0);
    if a.seed != 0 && !plan.uses_seed() {
        crate::source::seed_warning(a.seed, &name);
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
