//! The engine against the ST reference (`fbd_reference::st`: the syntax tree walked statement
//! by statement on variables in a map, independently of the compiler's lowering) on generated
//! ST programs: every variable after every scan.

use fbd_reference::st::{check, program};

fn run(seeds: std::ops::Range<u64>, scans: u64) -> u64 {
    let mut values = 0;
    for seed in seeds {
        let text = program(seed);
        match check(&text, seed, scans) {
            Ok(v) => values += v,
            Err(e) => panic!("ST program seed {seed}: {e}\n--- program ---\n{text}"),
        }
    }
    values
}

#[test]
fn generated_st_programs_agree_with_the_st_reference() {
    let values = run(0..500, 40);
    assert!(values > 100_000, "only {values} values compared");
}

/// The long run reported in docs/correctness.md: `cargo test --release -p fbd-reference -- --ignored`.
#[test]
#[ignore]
fn a_hundred_thousand_st_programs_agree_with_the_st_reference() {
    let t = std::time::Instant::now();
    let values = run(1_000_000..1_100_000, 60);
    eprintln!("100000 ST programs, {values} values compared in {:?}", t.elapsed());
}
