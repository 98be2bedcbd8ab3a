//! The native-moves workload compared with nneonneo/2048-ai (tools/peers/moves-vs-nneonneo.sh):
//! 2^20 boards from splitmix64(0x2048), each moved in all four directions, 30 times
//! (`ref2048::workload`). Prints the checksum (the wrapping sum of every resulting board; the
//! C++ harness prints the same) and the time.
//!
//!     cargo run --release -p ref2048 --example moves_workload

use std::time::Instant;

use ref2048::{Dir, move_board, workload};

fn main() {
    let t0 = Instant::now();
    // Count table set-up in, as the C++ harness counts init_tables (ours are static: nothing).
    std::hint::black_box(move_board(0, Dir::Left));
    let boards = workload::boards();
    let r = workload::run(&boards, 30);
    println!(
        "checksum {:016x}  moves {}  {:.3} ns/move  {:.1} Mmoves/s  (process {:.3} s)",
        r.checksum,
        r.moves,
        r.ns_per_move(),
        1e3 / r.ns_per_move(),
        t0.elapsed().as_secs_f64()
    );
}
