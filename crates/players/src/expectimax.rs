//! Expectimax on the bitboard: max nodes over the moves, chance nodes over every empty cell
//! (2 with 0.9, 4 with 0.1), a depth limit that grows with the number of distinct tiles, a
//! cumulative-probability cutoff, a transposition cache, and a heuristic of empty cells, merge
//! opportunities, monotonicity and tile sums evaluated per row from a 65,536-entry table (the
//! approach of nneonneo's well-known 2048 AI, written anew here). Two modes: fast (a coarser
//! cut-off, depth at most 6; thousands of moves per second) and deep (nneonneo's depth rule up
//! to 10, a finer cut-off). The root moves are searched on both cores, each with its own cache,
//! so a game is the same on any number of cores.

use std::sync::OnceLock;

use ref2048::{Board, Dir, cell, move_board, transpose};
use rustc_hash::FxHashMap;

use crate::Player;

const LOST_PENALTY: f32 = 200_000.0;
const MONO_POWER: f32 = 4.0;
const MONO_WEIGHT: f32 = 47.0;
const SUM_POWER: f32 = 3.5;
const SUM_WEIGHT: f32 = 11.0;
const MERGES_WEIGHT: f32 = 700.0;
const EMPTY_WEIGHT: f32 = 270.0;

fn row_heuristic() -> &'static [f32] {
    static T: OnceLock<Vec<f32>> = OnceLock::new();
    T.get_or_init(|| {
        (0..65536usize)
            .map(|row| {
                let line = [row & 15, (row >> 4) & 15, (row >> 8) & 15, (row >> 12) & 15].map(|x| x as f32);
                let mut sum = 0.0;
                let mut empty = 0.0;
                let mut merges = 0.0;
                let mut prev = 0.0;
                let mut counter = 0.0;
                for &r in &line {
                    sum += r.powf(SUM_POWER);
                    if r == 0.0 {
                        empty += 1.0;
                    } else {
                        if prev == r {
                            counter += 1.0;
                        } else if counter > 0.0 {
                            merges += 1.0 + counter;
                            counter = 0.0;
                        }
                        prev = r;
                    }
                }
                if counter > 0.0 {
                    merges += 1.0 + counter;
                }
                let (mut left, mut right) = (0.0, 0.0);
                for i in 1..4 {
                    let (a, b) = (line[i - 1], line[i]);
                    if a > b {
                        left += a.powf(MONO_POWER) - b.powf(MONO_POWER);
                    } else {
                        right += b.powf(MONO_POWER) - a.powf(MONO_POWER);
                    }
                }
                LOST_PENALTY + EMPTY_WEIGHT * empty + MERGES_WEIGHT * merges
                    - MONO_WEIGHT * f32::min(left, right)
                    - SUM_WEIGHT * sum
            })
            .collect()
    })
}

fn heuristic(b: Board) -> f32 {
    let t = row_heuristic();
    let rows = |x: Board| (0..4).map(|r| t[((x >> (16 * r)) & 0xFFFF) as usize]).sum::<f32>();
    rows(b) + rows(transpose(b))
}

fn distinct_tiles(b: Board) -> u32 {
    let mut seen = 0u16;
    for i in 0..16 {
        seen |= 1 << cell(b, i);
    }
    (seen >> 1).count_ones()
}

/// One root move's search: its own transposition cache, so a root move's value never depends
/// on which thread searched it or what was searched before (the same seed gives the same game
/// on any number of cores).
#[derive(Default)]
struct Search {
    cache: FxHashMap<Board, (u32, f32)>,
    depth_limit: u32,
    cutoff: f32,
    nodes: u64,
}

impl Search {
    fn chance(&mut self, b: Board, depth: u32, prob: f32) -> f32 {
        if prob < self.cutoff || depth >= self.depth_limit {
            self.nodes += 1;
            return heuristic(b);
        }
        if let Some(&(d, v)) = self.cache.get(&b)
            && d <= depth
        {
            return v;
        }
        let n = ref2048::count_empty(b);
        if n == 0 {
            return self.max(b, depth, prob);
        }
        let p = prob / n as f32;
        let mut total = 0.0;
        for i in 0..16 {
            if cell(b, i) != 0 {
                continue;
            }
            let shift = 4 * i;
            total += self.max(b | (1 << shift), depth, p * 0.9) * 0.9;
            total += self.max(b | (2 << shift), depth, p * 0.1) * 0.1;
        }
        let v = total / n as f32;
        self.cache.insert(b, (depth, v));
        v
    }

    fn max(&mut self, b: Board, depth: u32, prob: f32) -> f32 {
        let mut best = 0.0f32;
        for d in Dir::ALL {
            let m = move_board(b, d);
            if m != b {
                best = best.max(self.chance(m, depth + 1, prob));
            }
        }
        best
    }

    /// The value of the board after a root move.
    fn root(&mut self, after: Board, depth_limit: u32, cutoff: f32) -> f32 {
        self.cache.clear();
        self.depth_limit = depth_limit;
        self.cutoff = cutoff;
        self.chance(after, 0, 1.0)
    }
}

/// The expectimax player. The search depth adapts: moves ahead grow with the number of distinct
/// tiles (distinct − 2, at least `min_depth`), up to `max_depth`. The root moves are searched
/// in parallel on up to `threads` cores, each with its own cache (so the choice is the same on
/// any number of cores).
pub struct Expectimax {
    searches: Vec<Search>,
    /// Nodes evaluated (for nodes/s).
    pub nodes: u64,
    /// Cap on the search depth (moves ahead).
    pub max_depth: u32,
    /// The least depth searched.
    pub min_depth: u32,
    /// Threads for the root moves (1..=4).
    pub threads: usize,
    /// Chance nodes less likely than this (the product of the spawn probabilities on the way)
    /// are not searched further: the heuristic stands for them.
    pub cutoff: f32,
}

impl Default for Expectimax {
    fn default() -> Self {
        Expectimax::new()
    }
}

/// Depth cap of [`Expectimax::fast`].
pub const FAST_DEPTH: u32 = 6;
/// Probability cut-off of [`Expectimax::fast`]: measured on 20 games each (seeds 1..=20, two
/// cores): depth 4 / 0.01 reached 8192 in 75 % at 4,248 moves/s; depth 6 / 0.01 in 95 % (16384
/// in 55 %) at 1,887 moves/s; depth 6 / 0.005 in 85 % at 1,057 moves/s. nneonneo's 0.0001
/// costs far more time than it buys.
pub const FAST_CUTOFF: f32 = 0.01;
/// Depth cap of [`Expectimax::deep`] (its depth otherwise follows nneonneo's rule).
pub const DEEP_DEPTH: u32 = 10;
/// Probability cut-off of [`Expectimax::deep`].
pub const DEEP_CUTOFF: f32 = 0.002;

impl Expectimax {
    /// The default player: [`Expectimax::fast`].
    pub fn new() -> Expectimax {
        Expectimax::fast()
    }

    /// The fast mode: depth distinct − 2, between 2 and [`FAST_DEPTH`], cut-off [`FAST_CUTOFF`],
    /// on every core.
    pub fn fast() -> Expectimax {
        Expectimax::with_depth(FAST_DEPTH)
    }

    /// The deep mode: depth distinct − 2, at least 3 (the depth rule of nneonneo's 2048-ai) up
    /// to [`DEEP_DEPTH`], with the finer cut-off [`DEEP_CUTOFF`], on every core.
    pub fn deep() -> Expectimax {
        Expectimax { min_depth: 3, cutoff: DEEP_CUTOFF, ..Expectimax::with_depth(DEEP_DEPTH) }
    }

    /// A player searching at most `max_depth` moves ahead (cut-off [`FAST_CUTOFF`]), on every
    /// core.
    pub fn with_depth(max_depth: u32) -> Expectimax {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Expectimax {
            searches: (0..4).map(|_| Search::default()).collect(),
            nodes: 0,
            max_depth: max_depth.max(1),
            min_depth: 2,
            threads: cores.clamp(1, 4),
            cutoff: FAST_CUTOFF,
        }
    }

    /// The same player on `threads` threads (the choices do not change, only the speed).
    pub fn on_threads(mut self, threads: usize) -> Expectimax {
        self.threads = threads.clamp(1, 4);
        self
    }

    /// The depth searched on board `b`.
    pub fn depth_for(&self, b: Board) -> u32 {
        distinct_tiles(b).saturating_sub(2).clamp(self.min_depth.min(self.max_depth), self.max_depth)
    }
}

impl Player for Expectimax {
    fn name(&self) -> &'static str {
        "expectimax"
    }
    fn choose(&mut self, b: Board) -> Option<Dir> {
        let limit = self.depth_for(b);
        let cutoff = self.cutoff;
        let moves: Vec<(Dir, Board)> =
            Dir::ALL.into_iter().map(|d| (d, move_board(b, d))).filter(|(_, m)| *m != b).collect();
        if moves.is_empty() {
            return None;
        }
        let mut values = [f32::NEG_INFINITY; 4];
        let threads = self.threads.min(moves.len());
        if threads <= 1 || limit <= 1 {
            for (k, (_, m)) in moves.iter().enumerate() {
                values[k] = self.searches[k].root(*m, limit, cutoff);
            }
        } else {
            // Root move k goes to thread k % threads; each search is independent.
            let mut groups: Vec<Vec<(usize, &mut Search)>> = (0..threads).map(|_| Vec::new()).collect();
            for (k, s) in self.searches.iter_mut().enumerate().take(moves.len()) {
                groups[k % threads].push((k, s));
            }
            let moves = &moves;
            let results: Vec<Vec<(usize, f32)>> = std::thread::scope(|scope| {
                let handles: Vec<_> = groups
                    .into_iter()
                    .map(|g| {
                        scope
                            .spawn(move || g.into_iter().map(|(k, s)| (k, s.root(moves[k].1, limit, cutoff))).collect())
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a search thread panicked")).collect()
            });
            for (k, v) in results.into_iter().flatten() {
                values[k] = v;
            }
        }
        self.nodes += self.searches.iter_mut().map(|s| std::mem::take(&mut s.nodes)).sum::<u64>();
        let mut best = 0;
        for k in 1..moves.len() {
            if values[k] > values[best] {
                best = k;
            }
        }
        Some(moves[best].0)
    }
}
