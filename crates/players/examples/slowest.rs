//! Finds the slowest expectimax decisions of a game: `cargo run --release -p players --example slowest -- SEED MOVES`.
use players::Player;
fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (seed, moves) = (args.first().copied().unwrap_or(5), args.get(1).copied().unwrap_or(3000));
    let mut e = players::Expectimax::new();
    let mut g = ref2048::Game::new(seed);
    let mut worst: Vec<(f64, u64, u64, u64)> = Vec::new();
    for _ in 0..moves {
        let n0 = e.nodes;
        let t = std::time::Instant::now();
        let Some(d) = e.choose(g.board) else { break };
        worst.push((t.elapsed().as_secs_f64() * 1e3, g.moves, g.board, e.nodes - n0));
        g.play(d);
    }
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = worst.iter().map(|w| w.0).sum();
    println!("{} moves, {:.0} ms total", worst.len(), total);
    for w in worst.iter().take(5) {
        println!(
            "{:.1} ms at move {} ({} nodes, {} empty)\n{}",
            w.0,
            w.1,
            w.3,
            ref2048::count_empty(w.2),
            ref2048::render(w.2)
        );
    }
}
