//! Differential test: random games through each wiring, every command judged by the reference.
//! `cargo test` runs a few thousand moves per wiring; the ignored test (and `fbd latency`)
//! run many more.

use fbd2048_game::{Command, FbdGame, Wiring, check_command};
use rand::{Rng, SeedableRng};
use ref2048::Dir;

/// Plays random moves until `moves` commands have been judged; restarts lost games.
/// Returns (commands judged, games started).
fn differential(w: Wiring, seed: u64, moves: u64) -> (u64, u64) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut g = FbdGame::embedded(w, seed).expect("compiles");
    g.command(Command::Start).expect("start settles");
    let (mut judged, mut games) = (0, 1);
    while judged < moves {
        let before = g.board().unwrap_or_else(|e| panic!("{w:?}: {e}"));
        if g.game_over() {
            assert!(ref2048::is_game_over(before), "{w:?}: game over lamp on a playable board");
            g.command(Command::Start).expect("start settles");
            games += 1;
            continue;
        }
        let dir = Dir::ALL[(rng.next_u32() % 4) as usize];
        let s0 = g.score();
        g.command(Command::Move(dir))
            .unwrap_or_else(|e| panic!("{w:?} after {judged} moves: {e}\n{}", ref2048::render(before)));
        let after = g.board().unwrap_or_else(|e| panic!("{w:?}: {e}"));
        if let Err(m) = check_command(before, dir, after, g.score() - s0, g.game_over()) {
            panic!("{w:?}, seed {seed}, move {judged}: {m}");
        }
        assert!(g.best() >= g.score());
        judged += 1;
    }
    (judged, games)
}

#[test]
fn upd1_agrees_with_the_reference() {
    let (n, games) = differential(Wiring::Upd1, 1, 5000);
    assert_eq!(n, 5000);
    assert!(games >= 2, "random play loses games within 5000 moves");
}

#[test]
fn original_agrees_with_the_reference() {
    differential(Wiring::Original, 2, 5000);
}

#[test]
fn smart_spawn_agrees_with_the_reference() {
    differential(Wiring::SmartSpawn, 3, 5000);
}

#[test]
#[ignore = "long: a million moves per wiring; run with --ignored --release"]
fn a_million_moves_per_wiring() {
    for w in Wiring::ALL {
        differential(w, 100, 1_000_000);
    }
}
