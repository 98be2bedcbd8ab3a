//! `cargo bench -p ref2048`: the native-moves workload compared with nneonneo/2048-ai
//! (tools/peers/moves-vs-nneonneo.sh runs the whole of it against their code): 2^20 boards from
//! splitmix64(0x2048), each moved in all four directions; one pass per iteration.

use ref2048::{Dir, move_board};

fn main() {
    divan::main();
}

fn splitmix64(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[divan::bench(sample_count = 20)]
fn four_moves_on_2_pow_20_random_boards(bencher: divan::Bencher) {
    let mut s = 0x2048u64;
    let boards: Vec<u64> = (0..1 << 20).map(|_| splitmix64(&mut s)).collect();
    bencher.counter(divan::counter::ItemsCount::new(boards.len() * 4)).bench(|| {
        let mut sum = 0u64;
        for &b in &boards {
            let b = divan::black_box(b);
            for d in [Dir::Up, Dir::Down, Dir::Left, Dir::Right] {
                sum = sum.wrapping_add(move_board(b, d));
            }
        }
        sum
    });
}
