//! The public vectors through each wiring: set a board by writes to the Cell memories, send a
//! command through the selector, scan until the lockout releases, read the board.

use fbd2048_game::{Command, FbdGame, Wiring, check_command};
use ref2048::{Dir, from_values, make_move, to_values};

fn board(rows: [[u32; 4]; 4]) -> u64 {
    let mut v = [0u32; 16];
    for r in 0..4 {
        v[4 * r..4 * r + 4].copy_from_slice(&rows[r]);
    }
    from_values(&v).expect("tiles")
}

/// Plays `dir` on `start` through `w` and checks it against the reference.
fn play(w: Wiring, start: u64, dir: Dir) -> u64 {
    let mut g = FbdGame::embedded(w, 7).expect("compiles");
    g.set_board(start).expect("settles");
    assert_eq!(g.board().expect("tiles"), start, "{w:?}: set_board");
    let s0 = g.score();
    g.command(Command::Move(dir)).expect("settles");
    let after = g.board().expect("tiles");
    if let Err(m) = check_command(start, dir, after, g.score() - s0, g.game_over()) {
        panic!("{w:?}: {m}");
    }
    after
}

#[test]
fn row_vectors_in_every_direction_and_wiring() {
    let rows: [([u32; 4], [u32; 4], u32); 9] = [
        ([0, 2, 0, 2], [4, 0, 0, 0], 4),
        ([4, 4, 2, 2], [8, 4, 0, 0], 12),
        ([8, 8, 8, 8], [16, 16, 0, 0], 32),
        ([2, 2, 2, 0], [4, 2, 0, 0], 4),
        ([2, 2, 4, 0], [4, 4, 0, 0], 4),
        ([2, 2, 2, 2], [4, 4, 0, 0], 8),
        ([2, 0, 0, 2], [4, 0, 0, 0], 4),
        ([0, 0, 0, 2], [2, 0, 0, 0], 0),
        ([4, 2, 2, 0], [4, 4, 0, 0], 4),
    ];
    for w in Wiring::ALL {
        for (input, want, gain) in rows {
            // Row 1 moved left, with a tile elsewhere so that every board has room to spawn.
            let start = board([input, [0; 4], [0; 4], [0, 0, 0, 0]]);
            let after = play(w, start, Dir::Left);
            let got = to_values(after);
            // The row itself is the reference result, unless the spawn landed in it.
            let (expected, g) = make_move(start, Dir::Left);
            assert_eq!(g, gain);
            let exp = to_values(expected);
            for c in 0..4 {
                assert!(got[c] == exp[c] || (exp[c] == 0 && (got[c] == 2 || got[c] == 4)), "{w:?} {input:?}: {got:?}");
            }
            assert_eq!(&exp[..4], &want[..], "reference");
            // The same row as a column, moved up; and mirrored, moved right and down.
            let col = board([[input[0], 0, 0, 0], [input[1], 0, 0, 0], [input[2], 0, 0, 0], [input[3], 0, 0, 0]]);
            play(w, col, Dir::Up);
            let mirrored = board([[input[3], input[2], input[1], input[0]], [0; 4], [0; 4], [0; 4]]);
            play(w, mirrored, Dir::Right);
            let col_down = board([[input[3], 0, 0, 0], [input[2], 0, 0, 0], [input[1], 0, 0, 0], [input[0], 0, 0, 0]]);
            play(w, col_down, Dir::Down);
        }
    }
}

#[test]
fn a_move_that_changes_nothing_spawns_nothing() {
    let stuck = board([[2, 4, 8, 16], [0; 4], [0; 4], [0; 4]]);
    for w in Wiring::ALL {
        let after = play(w, stuck, Dir::Left);
        assert_eq!(after, stuck, "{w:?}");
        let after = play(w, stuck, Dir::Up);
        assert_eq!(after, stuck, "{w:?}");
    }
}

#[test]
fn start_places_two_tiles_and_reset_clears() {
    for w in Wiring::ALL {
        let mut g = FbdGame::embedded(w, 3).expect("compiles");
        let scans = g.command(Command::Start).expect("settles");
        let b = g.board().expect("tiles");
        assert_eq!(ref2048::count_empty(b), 14, "{w:?}: two tiles after start ({scans} scans)\n{}", ref2048::render(b));
        assert_eq!(g.score(), 0);
        g.command(Command::Reset).expect("settles");
        assert_eq!(g.board().expect("tiles"), 0, "{w:?}: reset clears");
    }
}

#[test]
fn game_over_lights_on_a_lost_board_after_the_last_spawn() {
    // One move left: after it, the spawn fills the last hole and nothing can merge.
    let almost = board([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 8, 16, 0]]);
    for w in Wiring::ALL {
        let mut g = FbdGame::embedded(w, 11).expect("compiles");
        g.set_board(almost).expect("settles");
        assert!(!g.game_over(), "{w:?}: a hole is left");
        g.command(Command::Move(Dir::Right)).expect("settles");
        let b = g.board().expect("tiles");
        assert_eq!(g.game_over(), ref2048::is_game_over(b), "{w:?}:\n{}", ref2048::render(b));
    }
    let lost = board([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]);
    for w in Wiring::ALL {
        let mut g = FbdGame::embedded(w, 11).expect("compiles");
        g.set_board(lost).expect("settles");
        assert!(g.game_over(), "{w:?}");
    }
}

#[test]
fn win_lights_at_2048() {
    let near = board([[1024, 1024, 0, 0], [0; 4], [0; 4], [0; 4]]);
    for w in Wiring::ALL {
        let mut g = FbdGame::embedded(w, 5).expect("compiles");
        g.set_board(near).expect("settles");
        assert!(!g.win());
        g.command(Command::Move(Dir::Left)).expect("settles");
        assert!(g.win(), "{w:?}");
        assert_eq!(g.score(), 2048);
    }
}
