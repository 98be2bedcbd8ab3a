//! `cargo bench -p ref2048`: the native-moves workload compared with nneonneo/2048-ai
//! (`ref2048::workload`; tools/peers/moves-vs-nneonneo.sh and `fbd bench --all
//! --nneonneo-moves` run the whole of it against their code): 2^20 boards from
//! splitmix64(0x2048), each moved in all four directions; one pass per iteration.

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 20)]
fn four_moves_on_2_pow_20_random_boards(bencher: divan::Bencher) {
    let boards = ref2048::workload::boards();
    bencher.counter(divan::counter::ItemsCount::new(boards.len() * 4)).bench(|| ref2048::workload::one_pass(&boards));
}
