//! The rules of the original game, public vectors, classic clone bugs and properties.

use proptest::prelude::*;
use ref2048::*;

/// Moves one row given as values, in the direction, and returns values and score.
fn row(values: [u32; 4], d: Dir) -> ([u32; 4], u32) {
    let mut v = [0u32; 16];
    v[..4].copy_from_slice(&values);
    let b = from_values(&v).expect("valid tiles");
    let (m, g) = make_move(b, d);
    let out = to_values(m);
    ([out[0], out[1], out[2], out[3]], g)
}

#[test]
fn public_vectors() {
    assert_eq!(row([0, 2, 0, 2], Dir::Left), ([4, 0, 0, 0], 4));
    assert_eq!(row([4, 4, 2, 2], Dir::Left), ([8, 4, 0, 0], 12));
    assert_eq!(row([8, 8, 8, 8], Dir::Left), ([16, 16, 0, 0], 32));
    assert_eq!(row([2, 4, 2, 4], Dir::Left), ([2, 4, 2, 4], 0));
    assert_eq!(row([2, 2, 2, 2], Dir::Left), ([4, 4, 0, 0], 8));
}

#[test]
fn the_pair_nearest_the_wall_merges_first() {
    assert_eq!(row([2, 2, 2, 0], Dir::Left), ([4, 2, 0, 0], 4));
    assert_eq!(row([2, 2, 2, 0], Dir::Right), ([0, 0, 2, 4], 4));
    assert_eq!(row([0, 2, 2, 2], Dir::Right), ([0, 0, 2, 4], 4));
}

#[test]
fn a_tile_merges_at_most_once_per_move() {
    // The classic clone bug gives 8 here.
    assert_eq!(row([2, 2, 4, 0], Dir::Left), ([4, 4, 0, 0], 4));
    assert_eq!(row([4, 2, 2, 0], Dir::Left), ([4, 4, 0, 0], 4));
    assert_eq!(row([4, 4, 8, 16], Dir::Left), ([8, 8, 16, 0], 8));
}

#[test]
fn gaps_close_before_merging() {
    assert_eq!(row([2, 0, 0, 2], Dir::Left), ([4, 0, 0, 0], 4));
    assert_eq!(row([2, 0, 4, 4], Dir::Right), ([0, 0, 2, 8], 8));
}

#[test]
fn columns_move_like_rows() {
    let v = [2, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0];
    let b = from_values(&v).expect("tiles");
    let (up, g) = make_move(b, Dir::Up);
    assert_eq!(to_values(up), [4, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(g, 4);
    let (down, _) = make_move(b, Dir::Down);
    assert_eq!(to_values(down), [0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0]);
}

#[test]
fn a_move_that_changes_nothing_is_not_a_move() {
    let b = from_values(&[2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2]).expect("tiles");
    for d in Dir::ALL {
        assert_eq!(make_move(b, d), (b, 0));
    }
    assert!(is_game_over(b));
    let mut g = Game::new(1);
    g.board = b;
    assert!(!g.play(Dir::Left), "no move, no spawn");
    assert_eq!(g.board, b);
    assert_eq!(g.score, 0);
}

#[test]
fn game_over_needs_a_full_board_without_equal_neighbours() {
    let full_with_pair = from_values(&[2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 4]).expect("tiles");
    assert!(!is_game_over(full_with_pair));
    let with_hole = from_values(&[2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 0]).expect("tiles");
    assert!(!is_game_over(with_hole));
}

#[test]
fn a_new_game_has_two_tiles_and_spawns_follow_the_odds() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let (mut fours, mut total) = (0u32, 0u32);
    let mut per_cell = [0u32; 16];
    for _ in 0..20_000 {
        let b = new_game(&mut rng);
        assert_eq!(count_empty(b), 14);
        for (i, n) in per_cell.iter_mut().enumerate() {
            match cell(b, i) {
                0 => {}
                e => {
                    total += 1;
                    fours += (e == 2) as u32;
                    *n += 1;
                }
            }
        }
    }
    // 40,000 tiles: sd of the 4-share is sqrt(.09/40000) = 0.0015; allow 5 sd.
    let share = fours as f64 / total as f64;
    assert!((share - 0.1).abs() < 0.0075, "share of 4s {share}");
    // 2,500 expected per cell, sd ~ 48; allow 5 sd.
    assert!(per_cell.iter().all(|&n| (n as f64 - 2500.0).abs() < 250.0), "{per_cell:?}");
}

#[test]
fn one_spawn_is_recognised() {
    let b = from_values(&[2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).expect("tiles");
    assert!(is_one_spawn(b, with_cell(b, 5, 1)));
    assert!(is_one_spawn(b, with_cell(b, 5, 2)));
    assert!(!is_one_spawn(b, with_cell(b, 5, 3)), "an 8 is not a spawn");
    assert!(!is_one_spawn(b, b), "nothing spawned");
    assert!(!is_one_spawn(b, with_cell(with_cell(b, 5, 1), 6, 1)), "two spawns");
    assert!(!is_one_spawn(b, with_cell(b, 0, 2)), "not in an empty cell");
}

#[test]
fn transpose_is_an_involution_that_swaps_rows_and_columns() {
    let b: Board = 0x0123_4567_89AB_CDEF;
    assert_eq!(transpose(transpose(b)), b);
    for r in 0..4 {
        for c in 0..4 {
            assert_eq!(cell(transpose(b), 4 * c + r), cell(b, 4 * r + c));
        }
    }
}

fn sum(b: Board) -> u64 {
    to_values(b).iter().map(|&v| v as u64).sum()
}

/// Boards with tiles up to 2048 so that no merge saturates.
fn boards() -> impl Strategy<Value = Board> {
    proptest::collection::vec(0u8..=11, 16).prop_map(|v| v.iter().enumerate().fold(0, |b, (i, &e)| with_cell(b, i, e)))
}

proptest! {
    #[test]
    fn a_move_never_loses_value(b in boards(), d in 0usize..4) {
        let (m, _) = make_move(b, Dir::ALL[d]);
        prop_assert_eq!(sum(m), sum(b));
    }

    #[test]
    fn the_score_is_the_sum_of_the_merged_tiles(b in boards(), d in 0usize..4) {
        let (m, g) = make_move(b, Dir::ALL[d]);
        // Each merge turns two tiles into one of the score's value: tiles lost = merges, and
        // the score counts each new tile, so it is at least 4 per merge.
        let merges = (16 - count_empty(b)) - (16 - count_empty(m));
        prop_assert!(g >= 4 * merges);
        prop_assert_eq!(g == 0, merges == 0);
        // Recompute from the line rule.
        let t = if matches!(Dir::ALL[d], Dir::Up | Dir::Down) { transpose(b) } else { b };
        let mut expect = 0;
        for r in 0..4 {
            let mut line: [u8; 4] = std::array::from_fn(|c| cell(t, 4 * r + c));
            if matches!(Dir::ALL[d], Dir::Right | Dir::Down) { line.reverse(); }
            expect += slide_left(line).1;
        }
        prop_assert_eq!(g, expect);
    }

    #[test]
    fn opposite_symmetry(b in boards()) {
        // Moving right is moving left on the mirrored board.
        let mirror = |x: Board| (0..16).fold(0, |m, i| with_cell(m, 4 * (i / 4) + 3 - i % 4, cell(x, i)));
        prop_assert_eq!(make_move(b, Dir::Right).0, mirror(make_move(mirror(b), Dir::Left).0));
    }
}

/// The straightforward implementation: each line through `slide_left`, in the move's order.
fn naive(b: Board, d: Dir) -> (Board, u32) {
    let mut out = 0;
    let mut gain = 0;
    for k in 0..4 {
        let idx: [usize; 4] = match d {
            Dir::Left => [4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3],
            Dir::Right => [4 * k + 3, 4 * k + 2, 4 * k + 1, 4 * k],
            Dir::Up => [k, 4 + k, 8 + k, 12 + k],
            Dir::Down => [12 + k, 8 + k, 4 + k, k],
        };
        let (line, g) = slide_left(idx.map(|i| cell(b, i)));
        gain += g;
        for (j, &i) in idx.iter().enumerate() {
            out = with_cell(out, i, line[j]);
        }
    }
    (out, gain)
}

proptest! {
    #[test]
    fn the_tables_agree_with_the_line_rule(b in boards(), d in 0usize..4) {
        prop_assert_eq!(make_move(b, Dir::ALL[d]), naive(b, Dir::ALL[d]));
        prop_assert_eq!(move_board(b, Dir::ALL[d]), naive(b, Dir::ALL[d]).0);
    }
}

/// Every one of the 65,536 lines, as a row (rows 0 and 3) and as a column (columns 0 and 3), in
/// all four directions: the compile-time tables agree with the line rule everywhere.
#[test]
fn the_tables_agree_with_the_line_rule_on_every_line() {
    for line in 0..=0xFFFFu64 {
        let spread = (line & 0xF) | (line >> 4 & 0xF) << 16 | (line >> 8 & 0xF) << 32 | (line >> 12 & 0xF) << 48;
        for b in [line, line << 48, spread, spread << 12] {
            for d in Dir::ALL {
                assert_eq!(make_move(b, d), naive(b, d), "line {line:04x}, board {b:016x}, {d:?}");
            }
        }
    }
}
