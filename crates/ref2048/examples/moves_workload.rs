//! The native-moves workload compared with nneonneo/2048-ai (tools/peers/moves-vs-nneonneo.sh):
//! 2^20 boards from splitmix64(0x2048), each moved in all four directions, 30 times. Prints the
//! checksum (the wrapping sum of every resulting board; the C++ harness prints the same) and
//! the time.
//!
//!     cargo run --release -p ref2048 --example moves_workload

use std::time::Instant;

use ref2048::{Dir, move_board};

fn splitmix64(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn main() {
    let t0 = Instant::now();
    // The tables are built on first use: count them in, as the C++ harness counts init_tables.
    std::hint::black_box(move_board(0, Dir::Left));
    let mut s = 0x2048u64;
    let boards: Vec<u64> = (0..1 << 20).map(|_| splitmix64(&mut s)).collect();
    let t1 = Instant::now();
    let mut sum = 0u64;
    for _ in 0..30 {
        for &b in &boards {
            let b = std::hint::black_box(b);
            for d in [Dir::Up, Dir::Down, Dir::Left, Dir::Right] {
                sum = sum.wrapping_add(move_board(b, d));
            }
        }
    }
    let moves = 30.0 * 4.0 * boards.len() as f64;
    let ns = t1.elapsed().as_secs_f64() * 1e9;
    println!(
        "checksum {sum:016x}  moves {moves:.0}  {:.3} ns/move  {:.1} Mmoves/s  (process {:.3} s)",
        ns / moves,
        moves / ns * 1e3,
        t0.elapsed().as_secs_f64()
    );
}
