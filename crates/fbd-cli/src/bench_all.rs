//! `fbd bench --all`: the 2048 benchmark table (native reference, each wiring's scan time and
//! moves/s, expectimax), the interpreter at scale, and, when their builds are given, the peers
//! side by side (`crate::peers`).

use std::process::ExitCode;

use crate::error::Error;
use std::time::{Duration, Instant};

use fbd_engine::{Runtime, ScanPlan};
use fbd2048_game::{Command, FbdGame, Wiring};
use players::by_name;
use ref2048::{Board, Dir, Game};

/// Boards from real play, for the native move benchmark.
fn sample_boards(n: usize) -> Vec<Board> {
    let mut out = Vec::with_capacity(n);
    let mut seed = 0;
    while out.len() < n {
        let mut g = Game::new(seed);
        let mut p = by_name("random", seed).expect("random");
        while let Some(d) = p.choose(g.board) {
            out.push(g.board);
            g.play(d);
        }
        seed += 1;
    }
    out.truncate(n);
    out
}

/// Native table-lookup moves per second (each of 4 directions on real boards, board only).
fn native_moves_per_second() -> f64 {
    let boards = sample_boards(1 << 14);
    let mut acc = 0u64;
    let mut n = 0u64;
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(800) {
        for &b in &boards {
            for d in Dir::ALL {
                acc = acc.wrapping_add(ref2048::move_board(std::hint::black_box(b), d));
            }
        }
        n += boards.len() as u64 * 4;
    }
    std::hint::black_box(acc);
    n as f64 / t.elapsed().as_secs_f64()
}

/// Native game steps per second: move, spawn, and the game-over check, as a player loop needs.
fn native_game_steps_per_second() -> f64 {
    let t = Instant::now();
    let mut steps = 0u64;
    let mut seed = 0;
    while t.elapsed() < Duration::from_millis(800) {
        let mut g = Game::new(seed);
        let mut k = seed;
        while !g.over() {
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            g.play(Dir::ALL[(k >> 62) as usize]);
            steps += 1;
        }
        seed += 1;
    }
    steps as f64 / t.elapsed().as_secs_f64()
}

fn scan_stats(plan: &ScanPlan) -> (f64, f64) {
    let mut rt = Runtime::new(plan.clone());
    rt.step_n(1000);
    let mut ns: Vec<f64> = (0..20_000)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..8 {
                rt.step();
            }
            t.elapsed().as_nanos() as f64 / 8.0
        })
        .collect();
    ns.sort_by(f64::total_cmp);
    (ns[ns.len() / 2], ns[ns.len() * 99 / 100])
}

fn fbd_moves_per_second(plan: &ScanPlan) -> (f64, f64) {
    let mut g = FbdGame::new(plan.clone(), 1).expect("2048 interface");
    let mut p = by_name("random", 1).expect("random");
    let _ = g.command(Command::Start);
    let t = Instant::now();
    let (mut moves, scans0) = (0u64, g.rt.scan_count());
    while t.elapsed() < Duration::from_millis(1500) {
        let b = g.board().expect("tiles");
        match p.choose(b) {
            Some(d) => {
                let _ = g.command(Command::Move(d));
                moves += 1;
            }
            None => {
                let _ = g.command(Command::Start);
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    (moves as f64 / secs, (g.rt.scan_count() - scans0) as f64 / moves.max(1) as f64)
}

/// Moves and nodes per second of an expectimax mode over `seconds` of games from seed 5
/// (the early and middle game, where most moves are), and its depth cap.
fn expectimax_rate(mut e: players::Expectimax, seconds: u64) -> (f64, f64, u32) {
    let mut g = Game::new(5);
    let mut moves = 0u64;
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(seconds) {
        match players::Player::choose(&mut e, g.board) {
            Some(d) => {
                g.play(d);
                moves += 1;
            }
            // Count every game's moves, not only the last one's.
            None => g = Game::new(moves + 6),
        }
    }
    let secs = t.elapsed().as_secs_f64();
    (moves as f64 / secs, e.nodes as f64 / secs, e.max_depth)
}

/// `fbd bench --all`: everything side by side.
pub(crate) fn bench_all(json: bool, peers: &crate::peers::Peers) -> Result<ExitCode, Error> {
    // The peers first: a missing build fails at once, not after a minute of our own figures.
    let compared = crate::peers::run(peers)?;
    let native = native_moves_per_second();
    let steps = native_game_steps_per_second();
    let mut rows = Vec::new();
    for w in Wiring::ALL {
        let plan = w.compile()?;
        let (median, p99) = scan_stats(&plan);
        let (mps, scans_per_move) = fbd_moves_per_second(&plan);
        rows.push((w, plan.stats.blocks, median, p99, mps, scans_per_move));
    }
    let modes = [
        ("fast", expectimax_rate(players::Expectimax::fast(), 3)),
        ("deep", expectimax_rate(players::Expectimax::deep(), 5)),
    ];
    // The interpreter at scale: the three synthetic shapes at 100k blocks.
    let mut synthetic = Vec::new();
    for shape in ["chain", "wide", "modchain"] {
        synthetic.push(crate::bench::synthetic_row(shape, 100_000, false, None)?);
    }
    if json {
        let v = serde_json::json!({
            "native_moves_per_second": native,
            "native_game_steps_per_second": steps,
            "wirings": rows.iter().map(|(w, b, m, p, mps, spm)| serde_json::json!({
                "diagram": format!("diagrams/{}", w.file_name()), "blocks": b, "scan_median_ns": m, "scan_p99_ns": p,
                "fbd_moves_per_second": mps, "scans_per_move": spm, "ratio_to_native_moves": mps / native,
                "ratio_to_native_game_steps": mps / steps,
            })).collect::<Vec<_>>(),
            "expectimax": modes.iter().map(|(name, (mps, nps, depth))| serde_json::json!({
                "mode": name, "depth_cap": depth, "moves_per_second": mps, "nodes_per_second": nps,
            })).collect::<Vec<_>>(),
            "synthetic": synthetic.iter().map(crate::bench::row_json).collect::<Vec<_>>(),
            "peers": compared.iter().map(|c| (c.name.to_string(), c.json())).collect::<serde_json::Map<_, _>>(),
        });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(ExitCode::SUCCESS);
    }
    println!("native reference (ref2048 bitboard, row tables):");
    println!("  moves/s (table lookup, 4 directions on real boards)  {:>14.0}", native);
    println!("  game steps/s (move + spawn + game-over check)        {:>14.0}", steps);
    println!();
    println!(
        "{:<32} {:>6} {:>11} {:>11} {:>12} {:>11} {:>13} {:>13}",
        "FBD wiring", "blocks", "scan med", "scan p99", "FBD moves/s", "scans/move", "÷ native mv", "÷ game step"
    );
    for (w, b, m, p, mps, spm) in &rows {
        println!(
            "{:<32} {:>6} {:>9.2}µs {:>9.2}µs {:>12.0} {:>11.2} {:>13} {:>13}",
            format!("diagrams/{}", w.file_name()),
            b,
            m / 1e3,
            p / 1e3,
            mps,
            spm,
            format!("1/{:.0}", native / mps),
            format!("1/{:.0}", steps / mps)
        );
    }
    println!();
    for (name, (mps, nps, depth)) in &modes {
        println!("expectimax {name} (depth cap {depth}, native): {mps:.0} moves/s, {nps:.0} nodes/s");
    }
    println!();
    crate::bench::print_table(&synthetic);
    if !compared.is_empty() {
        println!();
        println!("peers, pair by pair in this run:");
        for c in &compared {
            println!("  {}", c.line());
        }
    }
    Ok(ExitCode::SUCCESS)
}
