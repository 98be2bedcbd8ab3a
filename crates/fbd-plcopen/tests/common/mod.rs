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
