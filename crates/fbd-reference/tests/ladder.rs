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

/// Broken networks are refused, never a panic: generated programs with one thing broken at
/// random (a source that is not there, a circle, a duplicate id, a contact on an INT, a coil on
/// an input, a store as power, an element deleted under its readers, a variable undeclared).
#[test]
fn broken_ladder_programs_are_refused_without_a_panic() {
    use fbd_engine::model::{LdKind, LdModifier, Wire};
    use rand::{RngExt, SeedableRng};
    let mut refused = 0;
    for seed in 0..400u64 {
        let text = program(seed);
        let mut doc = fbd_engine::load::parse_document(std::path::Path::new("l.json"), &text).expect("parses");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let n = doc.ladder.len();
        let k = rng.random_range(0..n);
        let other = doc.ladder[rng.random_range(0..n)].id.clone();
        match rng.random_range(0..9) {
            0 => doc.ladder[k].from.push(Wire::Ref("nowhere".into())),
            1 => doc.ladder[k].from = vec![Wire::Ref(other)],
            2 => doc.ladder[k].id = other,
            3 => doc.ladder[k].var = "n".into(),
            4 => {
                doc.ladder[k].kind = LdKind::Coil;
                doc.ladder[k].var = "i0".into();
            }
            5 => {
                doc.ladder[k].kind = LdKind::Store;
                doc.ladder[k].modifier = LdModifier::Rising;
            }
            6 => {
                doc.ladder.remove(k);
            }
            7 => doc.variables.clear(),
            _ => doc.ladder[k].from.clear(),
        }
        let broken = serde_json_text(&doc);
        // Refused with a message, or (a harmless change) compiled and run: never a panic.
        match fbd_engine::compile(&broken) {
            Err(e) => {
                assert!(!e.to_string().is_empty());
                refused += 1;
            }
            Ok(plan) => fbd_engine::Runtime::new(plan).step_n(4),
        }
    }
    assert!(refused > 200, "only {refused} of 400 broken programs refused");
}

fn serde_json_text(doc: &fbd_engine::model::Document) -> String {
    serde_json::to_string(doc).expect("a document serialises")
}
