//! Every player is legal (never a no-op move while a changing one exists) and deterministic
//! (the same seed replays the same game).

use players::{NAMES, Player, by_name, legal_moves};
use ref2048::{Game, is_game_over, make_move};

/// Plays up to `max` moves natively; returns the boards seen.
fn game(p: &mut dyn Player, seed: u64, max: usize) -> Vec<u64> {
    let mut g = Game::new(seed);
    let mut seen = vec![g.board];
    for _ in 0..max {
        let b = g.board;
        match p.choose(b) {
            Some(d) => {
                assert_ne!(make_move(b, d).0, b, "{} chose a move that changes nothing", p.name());
                assert!(g.play(d));
            }
            None => {
                assert!(legal_moves(b).next().is_none(), "{} gave up with a move left", p.name());
                assert!(is_game_over(b));
                break;
            }
        }
        seen.push(g.board);
    }
    seen
}

#[test]
fn every_player_is_legal_and_deterministic() {
    for name in NAMES {
        let moves = if name == "montecarlo" { 20 } else { 400 };
        let mut a = by_name(name, 9).expect("known");
        let mut b = by_name(name, 9).expect("known");
        let ga = game(a.as_mut(), 4, moves);
        let gb = game(b.as_mut(), 4, moves);
        assert_eq!(ga, gb, "{name} replays");
        assert!(ga.len() > 10, "{name} plays");
    }
    assert!(by_name("nope", 1).is_none());
}

#[test]
fn greedy_takes_the_biggest_merge() {
    let b = ref2048::from_values(&[2, 2, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]).expect("tiles");
    let mut g = players::GreedyPlayer;
    let d = g.choose(b).expect("a move");
    assert_eq!(make_move(b, d).1, 16, "merging the 8s beats merging the 2s");
}

#[test]
fn expectimax_beats_random_play() {
    let mut e = players::Expectimax::new();
    let mut r = by_name("random", 1).expect("known");
    let score = |p: &mut dyn Player| {
        let mut g = Game::new(77);
        while let Some(d) = p.choose(g.board) {
            g.play(d);
            if g.moves > 600 {
                break;
            }
        }
        g.score
    };
    let (se, sr) = (score(&mut e), score(r.as_mut()));
    // Random play loses after ~120 moves with ~1,100 points; 600 expectimax moves score far more.
    assert!(se > 4 * sr, "expectimax {se} vs random {sr}");
}

/// Each root move is searched with its own cache, so the choice does not depend on how many
/// threads searched: the same game on one core and on four, in both modes.
#[test]
fn expectimax_plays_the_same_game_on_any_number_of_threads() {
    for (mode, moves) in [("fast", 300u64), ("deep", 60)] {
        let make = |t: usize| {
            let e = if mode == "fast" { players::Expectimax::fast() } else { players::Expectimax::deep() };
            e.on_threads(t)
        };
        let game = |mut p: players::Expectimax| {
            let mut g = Game::new(5);
            let mut seq = String::new();
            while let Some(d) = p.choose(g.board) {
                seq.push(d.letter());
                g.play(d);
                if g.moves >= moves {
                    break;
                }
            }
            (seq, g.board)
        };
        let one = game(make(1));
        assert_eq!(one.0.len(), moves as usize, "{mode}: the game went on");
        assert_eq!(game(make(4)), one, "{mode}: four threads, the same moves");
        assert_eq!(game(make(2)), one, "{mode}: two threads, the same moves");
    }
}
