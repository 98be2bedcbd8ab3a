//! Arbitrary bytes as a diagram file: loading and compiling must never panic, hang or grow
//! without bound; a program that compiles must run a few scans without panicking.
#![no_main]

use fbd_engine::load::{MemProvider, decode, load_text};
use fbd_engine::{CompileOptions, Runtime, compile_project};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::path::Path::new("fuzz.json");
    let Ok(text) = decode(path, data.to_vec()) else { return };
    let Ok(project) = load_text(&MemProvider::new(), path, text) else { return };
    // A small block budget keeps each run fast; the limit's own error path is exercised too.
    let opts = CompileOptions { max_blocks: 20_000, ..CompileOptions::default() };
    if let Ok(plan) = compile_project(&project, &opts) {
        let mut rt = Runtime::new(plan);
        rt.step_n(8);
    }
});
