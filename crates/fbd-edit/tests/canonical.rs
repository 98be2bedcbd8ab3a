//! Every committed diagram is in canonical form, so loading and saving an unchanged file gives
//! back the same bytes (`fbd fmt FILE` rewrites a file that is not).

use std::path::{Path, PathBuf};

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().ends_with(".test.json") {
            // Test tables (`*.test.json`) sit beside the diagrams; they are no diagrams.
            out.push(p);
        }
    }
}

#[test]
fn every_committed_diagram_round_trips_byte_for_byte() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    json_files(&root.join("diagrams"), &mut files);
    json_files(&root.join("examples"), &mut files);
    assert!(files.len() >= 6, "found {files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        let doc = fbd_engine::load::parse_document(&f, &text).expect("parses");
        let again = fbd_edit::format::to_text(&doc);
        assert!(again == text, "{} is not in canonical form: run `fbd fmt {}`", f.display(), f.display());
    }
}

/// A number is read as the nearest f64 and written back so that it reads the same: `fbd fmt` is
/// a fixed point. serde_json's default float reader is up to one unit in the last place off on
/// long numbers (found by the `rewrite` fuzz target: a 62-digit cycle moved by one ULP on every
/// `fbd fmt`), which the `float_roundtrip` feature makes exact.
#[test]
fn numbers_read_exactly_and_fmt_is_a_fixed_point() {
    let digits = "1".to_string() + &"2".repeat(61);
    let text = format!(
        r#"{{"fbd": 3, "cycle_ms": {digits}, "blocks": [{{"id": "n", "type": "NOT", "inputs": {{"in": true}}, "pos": [0.1, 33.333333333333336]}}]}}"#
    );
    let p = Path::new("n.json");
    let doc = fbd_engine::load::parse_document(p, &text).expect("parses");
    assert_eq!(doc.cycle_ms, Some(digits.parse::<f64>().expect("a number")), "the nearest f64");
    let once = fbd_edit::format::to_text(&doc);
    let twice = fbd_edit::format::to_text(&fbd_engine::load::parse_document(p, &once).expect("parses"));
    assert_eq!(once, twice);
}
