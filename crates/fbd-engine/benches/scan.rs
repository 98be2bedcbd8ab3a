//! `cargo bench -p fbd-engine`: scan time and compile time of synthetic diagrams
//! (1k, 10k, 100k blocks) and of the example blinker. Divan reports time per scan; divide by
//! the block count for ns per block (`fbd bench --synthetic` prints that directly).

use fbd_engine::{Runtime, compile, synth};

fn main() {
    divan::main();
}

#[divan::bench(args = [1_000, 10_000, 100_000])]
fn scan_synthetic(bencher: divan::Bencher, n: usize) {
    let plan = compile(&synth::diagram(n, 1)).expect("synthetic diagrams compile");
    let mut rt = Runtime::new(plan);
    bencher.counter(divan::counter::ItemsCount::new(n)).bench_local(|| rt.step());
}

#[divan::bench(args = [1_000, 10_000, 100_000], sample_count = 10)]
fn compile_synthetic(bencher: divan::Bencher, n: usize) {
    let text = synth::diagram(n, 1);
    bencher.bench(|| compile(divan::black_box(&text)).expect("compiles"));
}

#[divan::bench]
fn scan_blinker(bencher: divan::Bencher) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json");
    let plan = fbd_engine::compile_file(path, &Default::default()).expect("example compiles");
    let mut rt = Runtime::new(plan);
    rt.set_input("start", fbd_engine::Value::Bool(true)).expect("input");
    bencher.bench_local(|| rt.step());
}
