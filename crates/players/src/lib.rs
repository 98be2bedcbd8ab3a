//! Automated 2048 players. Each one looks at a bitboard and chooses a move; none of them ever
//! chooses a move that changes nothing while one that changes something exists. Every random
//! choice comes from the player's own seeded stream, so a game replays exactly.
//!
//! The players know nothing of the FBD engine: `fbd autoplay` feeds them the board the FBD
//! program shows and sends their move through the program's selector.

mod expectimax;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use ref2048::{Board, Dir, make_move};

pub use expectimax::{DEEP_CUTOFF, DEEP_DEPTH, Expectimax, FAST_CUTOFF, FAST_DEPTH};

/// A player.
pub trait Player: Send {
    /// The player's name (`random`, `greedy`, ...).
    fn name(&self) -> &'static str;
    /// The move to play, or `None` when no move changes the board (game over).
    fn choose(&mut self, board: Board) -> Option<Dir>;
}

/// The moves that change the board, in the order up, right, down, left.
pub fn legal_moves(b: Board) -> impl Iterator<Item = (Dir, Board, u32)> {
    Dir::ALL.into_iter().filter_map(move |d| {
        let (m, g) = make_move(b, d);
        (m != b).then_some((d, m, g))
    })
}

/// Uniformly random among the moves that change the board.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player with its own stream.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &'static str {
        "random"
    }
    fn choose(&mut self, b: Board) -> Option<Dir> {
        let moves: Vec<Dir> = legal_moves(b).map(|(d, _, _)| d).collect();
        if moves.is_empty() {
            return None;
        }
        Some(moves[(self.rng.next_u64() % moves.len() as u64) as usize])
    }
}

/// The largest immediate score ("X" of seed 001); ties go to the first in up, right, down, left.
pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    fn name(&self) -> &'static str {
        "greedy"
    }
    fn choose(&mut self, b: Board) -> Option<Dir> {
        let mut best: Option<(u32, Dir)> = None;
        for (d, _, g) in legal_moves(b) {
            if best.is_none_or(|(bg, _)| g > bg) {
                best = Some((g, d));
            }
        }
        best.map(|(_, d)| d)
    }
}

/// A fixed corner pattern ("Y", the "rote moves"): alternate down and left to keep the big
/// tiles in the bottom-left corner; right when neither moves; up only as the last resort.
pub struct PatternPlayer {
    turn: u64,
}

impl PatternPlayer {
    /// A pattern player.
    pub fn new() -> PatternPlayer {
        PatternPlayer { turn: 0 }
    }
}

impl Default for PatternPlayer {
    fn default() -> Self {
        PatternPlayer::new()
    }
}

impl Player for PatternPlayer {
    fn name(&self) -> &'static str {
        "pattern"
    }
    fn choose(&mut self, b: Board) -> Option<Dir> {
        let order = if self.turn.is_multiple_of(2) {
            [Dir::Down, Dir::Left, Dir::Right, Dir::Up]
        } else {
            [Dir::Left, Dir::Down, Dir::Right, Dir::Up]
        };
        self.turn += 1;
        order.into_iter().find(|&d| make_move(b, d).0 != b)
    }
}

/// Monte-Carlo ("Z"): for each move, `playouts` random games to the end; the move with the best
/// mean final score wins.
pub struct MonteCarloPlayer {
    rng: ChaCha8Rng,
    /// Random playouts per legal move (seed 001 uses 200).
    pub playouts: u32,
}

impl MonteCarloPlayer {
    /// A Monte-Carlo player.
    pub fn new(seed: u64, playouts: u32) -> MonteCarloPlayer {
        MonteCarloPlayer { rng: ChaCha8Rng::seed_from_u64(seed), playouts: playouts.max(1) }
    }

    fn playout(&mut self, mut b: Board) -> u64 {
        let mut score = 0u64;
        loop {
            // A random move that changes the board, found by trying the four from a random start.
            let start = (self.rng.next_u32() % 4) as usize;
            let mut moved = false;
            for k in 0..4 {
                let d = Dir::ALL[(start + k) % 4];
                let (m, g) = make_move(b, d);
                if m != b {
                    score += g as u64;
                    b = ref2048::spawn(m, &mut self.rng);
                    moved = true;
                    break;
                }
            }
            if !moved {
                return score;
            }
        }
    }
}

impl Player for MonteCarloPlayer {
    fn name(&self) -> &'static str {
        "montecarlo"
    }
    fn choose(&mut self, b: Board) -> Option<Dir> {
        let mut best: Option<(f64, Dir)> = None;
        let moves: Vec<(Dir, Board, u32)> = legal_moves(b).collect();
        for (d, m, g) in moves {
            let mut total = 0u64;
            for _ in 0..self.playouts {
                let start = ref2048::spawn(m, &mut self.rng);
                total += g as u64 + self.playout(start);
            }
            let mean = total as f64 / self.playouts as f64;
            if best.is_none_or(|(bm, _)| mean > bm) {
                best = Some((mean, d));
            }
        }
        best.map(|(_, d)| d)
    }
}

/// The players `fbd autoplay --player` knows.
pub const NAMES: [&str; 6] = ["random", "greedy", "pattern", "montecarlo", "expectimax", "expectimax-deep"];

/// Builds a player by name, seeded, with a search depth cap for `expectimax` (moves ahead; `None`
/// for the fast mode's) and a number of playouts for `montecarlo` (the depth, if given).
pub fn by_name_with(name: &str, seed: u64, depth: Option<u32>) -> Option<Box<dyn Player>> {
    match (name, depth) {
        ("expectimax", Some(d)) => Some(Box::new(Expectimax::with_depth(d))),
        ("expectimax-deep" | "deep", Some(d)) => {
            let mut e = Expectimax::deep();
            e.max_depth = d.max(1);
            Some(Box::new(e))
        }
        ("montecarlo" | "monte-carlo" | "mc", Some(n)) => Some(Box::new(MonteCarloPlayer::new(seed, n))),
        _ => by_name(name, seed),
    }
}

/// Builds a player by name, seeded.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Player>> {
    Some(match name {
        "random" => Box::new(RandomPlayer::new(seed)),
        "greedy" => Box::new(GreedyPlayer),
        "pattern" => Box::new(PatternPlayer::new()),
        "montecarlo" | "monte-carlo" | "mc" => Box::new(MonteCarloPlayer::new(seed, 200)),
        "expectimax" => Box::new(Expectimax::fast()),
        "expectimax-deep" | "deep" => Box::new(Expectimax::deep()),
        _ => return None,
    })
}
