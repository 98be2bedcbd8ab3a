//! Expectimax on the bitboard: max nodes over the moves, chance nodes over every empty cell
//! (2 with 0.9, 4 with 0.1), a depth limit that grows with the number of distinct tiles, a
//! cumulative-probability cutoff, a transposition cache, and a heuristic of empty cells, merge
//! opportunities, monotonicity and tile sums evaluated per row from a 65,536-entry table (the
//! approach of nneonneo's well-known 2048 AI, written anew here).

use std::sync::OnceLock;

use ref2048::{Board, Dir, cell, make_move, transpose};
use rustc_hash::FxHashMap;

use crate::Player;

const LOST_PENALTY: f32 = 200_000.0;
const MONO_POWER: f32 = 4.0;
const MONO_WEIGHT: f32 = 47.0;
const SUM_POWER: f32 = 3.5;
const SUM_WEIGHT: f32 = 11.0;
const MERGES_WEIGHT: f32 = 700.0;
const EMPTY_WEIGHT: f32 = 270.0;
const PROB_CUTOFF: f32 = 0.0001;

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

/// The expectimax player. The search depth adapts: up to `max_depth` moves ahead, fewer early in
/// the game while there are few distinct tiles.
pub struct Expectimax {
    cache: FxHashMap<Board, (u32, f32)>,
    depth_limit: u32,
    /// Nodes evaluated (for nodes/s).
    pub nodes: u64,
    /// Cap on the search depth (moves ahead); the depth grows with the distinct tiles up to it.
    pub max_depth: u32,
}

impl Default for Expectimax {
    fn default() -> Self {
        Expectimax::new()
    }
}

impl Expectimax {
    /// An expectimax player with the default depth cap (3).
    pub fn new() -> Expectimax {
        Expectimax::with_depth(3)
    }

    /// An expectimax player searching at most `max_depth` moves ahead.
    pub fn with_depth(max_depth: u32) -> Expectimax {
        Expectimax { cache: FxHashMap::default(), depth_limit: 0, nodes: 0, max_depth: max_depth.max(1) }
    }

    fn chance(&mut self, b: Board, depth: u32, prob: f32) -> f32 {
        if prob < PROB_CUTOFF || depth >= self.depth_limit {
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
            let (m, _) = make_move(b, d);
            if m != b {
                best = best.max(self.chance(m, depth + 1, prob));
            }
        }
        best
    }
}

impl Player for Expectimax {
    fn name(&self) -> &'static str {
        "expectimax"
    }
    fn choose(&mut self, b: Board) -> Option<Dir> {
        self.cache.clear();
        // Deeper as the game develops (more distinct tiles), up to the cap. Searching deeper only
        // in crowded positions was tried and measured: 7x slower for no gain in 30 games.
        self.depth_limit = distinct_tiles(b).saturating_sub(2).clamp(2, self.max_depth.max(2));
        let mut best: Option<(f32, Dir)> = None;
        for d in Dir::ALL {
            let (m, _) = make_move(b, d);
            if m == b {
                continue;
            }
            let v = self.chance(m, 0, 1.0);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, d));
            }
        }
        best.map(|(_, d)| d)
    }
}
