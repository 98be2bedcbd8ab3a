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

/// Broken ST is refused, never a panic: generated programs with one thing broken at random (a
/// character dropped, a keyword or name swapped, a name undeclared, an instance called twice,
/// a type mixed in, a line cut, junk added) compile or are refused with a message.
#[test]
fn broken_st_programs_are_refused_without_a_panic() {
    use rand::{RngExt, SeedableRng};
    let junk = [
        "END_IF",
        "THEN",
        ":=",
        "c0(CU := TRUE);",
        "e0.Q := TRUE;",
        "x := 1;",
        "n0 := TRUE;",
        "q0 := 3;",
        "(*",
        "'",
        "CASE",
        "..",
        "ELSE",
        "RETURN;",
        "WHILE TRUE DO",
        "{ pragma }",
        "n0[1] := 2;",
        "c0.CV.X := 1;",
        "n0 := c0;",
        "LIMIT(1);",
        "n0 := fsum(1, 2);",
        "n0 := MAX(TRUE, 3);",
        "d0 := 1.5;",
        "n0 := INT#99999;",
    ];
    let mut refused = 0;
    for seed in 0..400u64 {
        let text = fbd_reference::st::program(seed);
        let mut doc: serde_json::Value = serde_json::from_str(&text).expect("json");
        let lines = doc["st"].as_array_mut().expect("st lines");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let k = rng.random_range(0..lines.len());
        let line = lines[k].as_str().unwrap_or_default().to_string();
        let broken = match rng.random_range(0..4) {
            0 if !line.is_empty() => {
                let mut l = line.clone();
                let at = rng.random_range(0..l.len());
                if l.is_char_boundary(at) {
                    l.remove(at);
                }
                l
            }
            1 => format!("{line} {}", junk[rng.random_range(0..junk.len())]),
            2 => line[..line.len() / 2].to_string(),
            _ => junk[rng.random_range(0..junk.len())].to_string(),
        };
        lines[k] = serde_json::Value::String(broken);
        let text = doc.to_string();
        match std::panic::catch_unwind(|| fbd_engine::compile(&text)) {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                refused += 1;
                assert!(e.0.iter().all(|d| d.message.contains("ST ")), "every error at its ST place: {e}");
            }
            Err(_) => panic!("seed {seed} panicked on\n{text}"),
        }
    }
    assert!(refused > 200, "only {refused} of 400 broken programs refused");
}
