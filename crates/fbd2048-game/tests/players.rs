//! Every player plays through every wiring with zero mismatches against the reference.

use fbd2048_game::{Command, FbdGame, Wiring, check_command};

#[test]
fn every_player_through_every_wiring_agrees_with_the_reference() {
    for w in Wiring::ALL {
        for name in players::NAMES {
            // Monte-Carlo with fewer playouts: legality, not strength, is tested here.
            let depth = (name == "montecarlo").then_some(10);
            let mut p = players::by_name_with(name, 3, depth).expect("known player");
            let mut g = FbdGame::embedded(w, 3).expect("compiles");
            g.command(Command::Start).expect("start");
            let mut moves = 0;
            while moves < 60 {
                let before = g.board().expect("tiles");
                let Some(d) = p.choose(before) else { break };
                assert_ne!(ref2048::make_move(before, d).0, before, "{name} chose a no-op move");
                let s0 = g.score();
                g.command(Command::Move(d)).expect("settles");
                let after = g.board().expect("tiles");
                if let Err(m) = check_command(before, d, after, g.score() - s0, g.game_over()) {
                    panic!("{name} through {w:?}: {m}");
                }
                moves += 1;
            }
            assert!(moves >= 40, "{name} through {w:?} made only {moves} moves");
        }
    }
}
