//! The native-moves workload compared with nneonneo/2048-ai (`tools/peers/`, `fbd bench --all
//! --nneonneo-moves`, `cargo bench -p ref2048`): 2^20 boards from splitmix64 seeded with
//! 0x2048, each moved in all four directions, a number of times. The checksum is the wrapping
//! sum of every resulting board; the program over their `execute_move` (tools/peers/README.md) prints the same, so
//! both sides provably did the same work.

use std::time::{Duration, Instant};

use crate::{Board, Dir, move_board};

/// The boards of the workload (2^20 of them, 8 MiB).
pub fn boards() -> Vec<Board> {
    let mut s = 0x2048u64;
    (0..1 << 20).map(|_| splitmix64(&mut s)).collect()
}

/// The generator both harnesses use.
pub fn splitmix64(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every board moved in all four directions once: the checksum of that pass.
pub fn one_pass(boards: &[Board]) -> u64 {
    let mut sum = 0u64;
    for &b in boards {
        let b = std::hint::black_box(b);
        for d in [Dir::Up, Dir::Down, Dir::Left, Dir::Right] {
            sum = sum.wrapping_add(move_board(b, d));
        }
    }
    sum
}

/// What one run of the workload did.
#[derive(Copy, Clone, Debug)]
pub struct Run {
    /// Wrapping sum of every resulting board.
    pub checksum: u64,
    /// Moves made.
    pub moves: u64,
    /// Time of the move loop (not the board generation).
    pub time: Duration,
}

impl Run {
    /// Nanoseconds per move.
    pub fn ns_per_move(&self) -> f64 {
        self.time.as_secs_f64() * 1e9 / self.moves as f64
    }
}

/// `passes` passes over `boards` (the published comparison uses 30).
pub fn run(boards: &[Board], passes: u32) -> Run {
    let t = Instant::now();
    let mut checksum = 0u64;
    for _ in 0..passes {
        checksum = checksum.wrapping_add(one_pass(boards));
    }
    Run { checksum, moves: passes as u64 * 4 * boards.len() as u64, time: t.elapsed() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_is_the_sum_over_passes_and_boards() {
        let b = &boards()[..64];
        let mut want = 0u64;
        for &x in b {
            for d in Dir::ALL {
                want = want.wrapping_add(move_board(x, d));
            }
        }
        let r = run(b, 3);
        assert_eq!(r.checksum, want.wrapping_mul(3));
        assert_eq!(r.moves, 3 * 4 * 64);
    }
}
