//! The engine against the reference interpreter on generated diagrams: every block output, every
//! program output and every fault, after every scan, bit for bit.

use fbd_reference::diff::check;
use fbd_reference::generate::{GenOptions, diagram};

fn run(seeds: std::ops::Range<u64>, scans: u64, opts: &GenOptions) -> (u64, u64, u64) {
    let (mut blocks, mut values, mut faults) = (0, 0, 0);
    for seed in seeds {
        let text = diagram(seed, opts);
        match check(&text, seed, scans) {
            Ok(c) => {
                blocks += c.blocks as u64;
                values += c.values;
                faults += c.faults;
            }
            Err(e) => panic!("diagram seed {seed}: {e}\n--- diagram ---\n{text}"),
        }
    }
    (blocks, values, faults)
}

#[test]
fn generated_diagrams_agree_with_the_reference() {
    let (blocks, values, faults) = run(0..400, 40, &GenOptions::default());
    // The generator must really exercise something: blocks, values and faults.
    assert!(blocks > 4_000, "only {blocks} blocks generated");
    assert!(values > 100_000, "only {values} values compared");
    assert!(faults > 100, "only {faults} faults seen");
}

/// The long run reported in docs/correctness.md: `cargo test --release -p fbd-reference -- --ignored`.
#[test]
#[ignore]
fn a_hundred_thousand_diagrams_agree_with_the_reference() {
    let t = std::time::Instant::now();
    let (blocks, values, faults) = run(1_000_000..1_100_000, 60, &GenOptions::default());
    eprintln!("100000 diagrams, {blocks} blocks, {values} values, {faults} faults compared in {:?}", t.elapsed());
}

/// Prints one generated diagram: `SEED=123 cargo test -p fbd-reference print_one -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_one() {
    let seed = std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let text = diagram(seed, &GenOptions::default());
    println!("{text}");
    println!("{:?}", check(&text, seed, 60));
}

/// Writes seed inputs for the fuzz targets: `CORPUS=fuzz/corpus cargo test -p fbd-reference
/// write_fuzz_corpus -- --ignored`.
#[test]
#[ignore]
fn write_fuzz_corpus() {
    let Ok(dir) = std::env::var("CORPUS") else { return };
    let dir = std::path::Path::new(&dir);
    for seed in 0..24u64 {
        let text = diagram(seed, &GenOptions { max_blocks: 10, max_macros: 2, iec_only: false });
        std::fs::write(dir.join("load_compile").join(format!("gen-{seed}.json")), text).expect("write");
        let bytes: Vec<u8> =
            (0..96u64).map(|k| (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (k % 57)) as u8 ^ k as u8).collect();
        std::fs::write(dir.join("differential").join(format!("seed-{seed}")), bytes).expect("write");
    }
}

/// Writes generated diagrams of IEC blocks only, for tools/plcopen/generated-check.sh:
/// `GENERATED=dir COUNT=1000 cargo test -p fbd-reference write_iec_diagrams -- --ignored`.
#[test]
#[ignore]
fn write_iec_diagrams() {
    let Ok(dir) = std::env::var("GENERATED") else { return };
    let count: u64 = std::env::var("COUNT").ok().and_then(|c| c.parse().ok()).unwrap_or(1000);
    let opts = GenOptions { max_blocks: 16, max_macros: 2, iec_only: true };
    for seed in 0..count {
        // matiec refuses an LREAL literal beyond REAL's range (1.0e39 and up: "incompatible
        // data type"), so the largest constant goes out as the largest it takes.
        let text = diagram(seed, &opts).replace("1e308", "3.0e38");
        std::fs::write(std::path::Path::new(&dir).join(format!("gen-{seed}.json")), text).expect("write");
    }
}
