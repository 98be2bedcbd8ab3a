//! Spawn statistics: 4s at 10 % within a tolerance from the sample size, and where the tiles
//! land. The design's time-based Random is measured (its bias is reported, and must not be
//! gross); the smart-spawn wiring must be uniform among the empty cells.

use fbd2048_game::{Wiring, measure_spawns};

const MOVES: u64 = 4000;

fn four_share_ok(w: Wiring, share: f64, n: u64) {
    // Binomial sd of the share: sqrt(p(1-p)/n); 5 sd leaves a 1-in-a-million false alarm.
    let tol = 5.0 * (0.09 / n as f64).sqrt();
    assert!((share - 0.1).abs() < tol, "{w:?}: share of 4s {share:.4} over {n} spawns, allowed 0.1 ± {tol:.4}");
}

#[test]
fn smart_spawn_is_uniform_among_empty_cells() {
    let st = measure_spawns(&Wiring::SmartSpawn.compile().expect("compiles"), MOVES, 21).expect("plays");
    assert_eq!(st.spawns, MOVES, "exactly one spawn per move");
    four_share_ok(Wiring::SmartSpawn, st.four_share(), st.spawns);
    // chi-square, 15 degrees of freedom: 37.7 is the 0.1 % critical value.
    let chi = st.chi_square();
    assert!(chi < 37.7, "chi-square {chi:.1}; observed {:?} expected {:?}", st.observed, st.expected);
}

#[test]
fn design_random_has_the_right_odds_and_no_gross_bias() {
    for w in [Wiring::Upd1, Wiring::Original] {
        let st = measure_spawns(&w.compile().expect("compiles"), MOVES, 22).expect("plays");
        assert_eq!(st.spawns, MOVES);
        four_share_ok(w, st.four_share(), st.spawns);
        let (lo, hi) = st.ratio_range();
        assert!(lo > 0.5 && hi < 1.5, "{w:?}: cells get {lo:.2}..{hi:.2} of their fair share; {:?}", st.observed);
    }
}
