//! `cargo bench -p fbd2048-game`: the kernels of `fbd bench --all` under divan: native moves,
//! one scan of each wiring, one command through the FBD program, one expectimax decision.

use fbd2048_game::{Command, FbdGame, Wiring};
use players::Player;
use ref2048::{Dir, Game};

fn main() {
    divan::main();
}

fn boards() -> Vec<u64> {
    let mut g = Game::new(3);
    let mut p = players::RandomPlayer::new(3);
    let mut v = Vec::new();
    while let Some(d) = p.choose(g.board) {
        v.push(g.board);
        g.play(d);
    }
    v
}

#[divan::bench]
fn native_move_board(bencher: divan::Bencher) {
    let b = boards();
    bencher.counter(divan::counter::ItemsCount::new(b.len() * 4)).bench(|| {
        let mut acc = 0u64;
        for &x in &b {
            for d in Dir::ALL {
                acc ^= ref2048::move_board(divan::black_box(x), d);
            }
        }
        acc
    });
}

#[divan::bench(args = ["upd1", "original", "smart-spawn"])]
fn fbd_scan(bencher: divan::Bencher, wiring: &str) {
    let w = Wiring::parse(wiring).expect("wiring");
    let mut g = FbdGame::embedded(w, 1).expect("compiles");
    g.command(Command::Start).expect("start");
    bencher.bench_local(|| g.rt.step());
}

#[divan::bench(args = ["upd1", "smart-spawn"])]
fn fbd_move(bencher: divan::Bencher, wiring: &str) {
    let w = Wiring::parse(wiring).expect("wiring");
    let mut g = FbdGame::embedded(w, 1).expect("compiles");
    let mut p = players::RandomPlayer::new(1);
    g.command(Command::Start).expect("start");
    bencher.bench_local(|| {
        let b = g.board().expect("tiles");
        match p.choose(b) {
            Some(d) => g.command(Command::Move(d)),
            None => g.command(Command::Start),
        }
    });
}

#[divan::bench(sample_count = 20)]
fn expectimax_decision(bencher: divan::Bencher) {
    let b = boards();
    let mid = b[b.len() / 2];
    let mut e = players::Expectimax::new();
    bencher.bench_local(|| e.choose(divan::black_box(mid)));
}
