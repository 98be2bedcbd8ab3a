//! The engine against the ladder reference (`fbd_reference::ladder`: the rungs interpreted
//! statement by statement, independently of the compiler's lowering) on generated ladder
//! programs: every variable after every scan.

use fbd_reference::ladder::{check, program};

fn run(seeds: std::ops::Range<u64>, scans: u64) -> u64 {
    let mut values = 0;
    for seed in seeds {
        let text = program(seed);
        match check(&text, seed, scans) {
            Ok(v) => values += v,
            Err(e) => panic!("ladder program seed {seed}: {e}\n--- program ---\n{text}"),
        }
    }
    values
}

#[test]
fn generated_ladder_programs_agree_with_the_ladder_reference() {
    let values = run(0..500, 60);
    assert!(values > 100_000, "only {values} values compared");
}

/// The long run reported in docs/correctness.md: `cargo test --release -p fbd-reference -- --ignored`.
#[test]
#[ignore]
fn a_hundred_thousand_ladder_programs_agree_with_the_ladder_reference() {
    let t = std::time::Instant::now();
    let values = run(1_000_000..1_100_000, 100);
    eprintln!("100000 ladder programs, {values} values compared in {:?}", t.elapsed());
}
