//! Every committed diagram is in canonical form, so loading and saving an unchanged file gives
//! back the same bytes (`fbd fmt FILE` rewrites a file that is not).

use std::path::{Path, PathBuf};

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
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
