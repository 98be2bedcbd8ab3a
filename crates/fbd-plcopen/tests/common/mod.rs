//! What the PLCopen tests share: their data files and compiling an imported document.

use std::path::Path;

use fbd_engine::load::{MemProvider, load_text};
use fbd_engine::{CompileOptions, compile_project};

pub fn data(name: &str) -> (std::path::PathBuf, String) {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    let t = std::fs::read_to_string(&p).expect("test data");
    (p, t)
}

pub fn compile_doc(doc: &fbd_engine::model::Document) -> fbd_engine::ScanPlan {
    let text = serde_json::to_string(doc).expect("serialises");
    let project = load_text(&MemProvider::new(), Path::new("imported.json"), text).expect("loads");
    compile_project(&project, &CompileOptions::default()).expect("compiles")
}

/// A committed diagram (path from the repository's root), loaded and exported.
pub fn exported(file: &str) -> (fbd_engine::load::Project, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let project = fbd_engine::load::load(&fbd_engine::load::FsProvider, &root.join(file)).expect("loads");
    let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    (project, xml)
}

/// What the export writes, imported and exported again, is written the same, byte for byte:
/// names, ids, positions, stand-ins and order all come back (the program's name came back as
/// the POU's, `p2048`, and every function's id as `sel_2`).
#[test]
fn export_import_export_is_a_fixed_point() {
    use fbd_engine::load::{MemProvider, load_text};
    for file in
        ["diagrams/2048.json", "diagrams/2048-original.json", "diagrams/2048-smart-spawn.json", "examples/blinker.json"]
    {
        let (_, xml) = exported(file);
        let back = fbd_plcopen::import(Path::new("x.xml"), &xml).unwrap_or_else(|e| panic!("{file}: {e}"));
        let text = serde_json::to_string(&back.doc).expect("serialises");
        let project = load_text(&MemProvider::new(), Path::new("x.json"), text).expect("loads");
        let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
        let again = fbd_plcopen::export(&project, &plan);
        if again != xml {
            let line = xml.lines().zip(again.lines()).position(|(a, b)| a != b).unwrap_or(0);
            panic!(
                "{file}: line {} differs:\n{}\n{}",
                line + 1,
                xml.lines().nth(line).unwrap_or(""),
                again.lines().nth(line).unwrap_or("")
            );
        }
    }
}
