//! The fuzzer's bytes steer every choice of the diagram generator (blocks, types, constants,
//! wiring, feedback, macros); the diagram must compile, and the engine and the reference
//! interpreter must agree on every value and fault for 30 scans.
#![no_main]

use fbd_reference::diff::check;
use fbd_reference::generate::{ByteRng, GenOptions, diagram_from};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = diagram_from(&mut ByteRng::new(data), 0, &GenOptions::default());
    let seed = data.iter().fold(0u64, |h, &b| h.rotate_left(5) ^ b as u64);
    if let Err(e) = check(&text, seed, 30) {
        panic!("{e}\n--- diagram ---\n{text}");
    }
});
