//! Arbitrary bytes as a PLCopen XML file (what CODESYS, OpenPLC Editor or Beremiz wrote, or
//! anything else): importing must never panic, hang or grow without bound; a project that
//! imports must load and compile like any diagram, and what compiles must run a few scans.
#![no_main]

use fbd_engine::load::{MemProvider, decode, load_text};
use fbd_engine::{CompileOptions, Runtime, compile_project};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::path::Path::new("fuzz.xml");
    let Ok(text) = decode(path, data.to_vec()) else { return };
    let Ok(imported) = fbd_plcopen::import(path, &text) else { return };
    let json = serde_json::to_string(&imported.doc).expect("an imported document serialises");
    let project = load_text(&MemProvider::new(), std::path::Path::new("fuzz.json"), json)
        .expect("an imported document is a diagram the loader reads");
    let opts = CompileOptions { max_blocks: 20_000, ..CompileOptions::default() };
    if let Ok(plan) = compile_project(&project, &opts) {
        let mut rt = Runtime::new(plan);
        rt.step_n(8);
    }
});
