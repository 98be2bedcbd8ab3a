//! Arbitrary bytes as a recording (`fbd replay`, File > Open recording): reading must never
//! panic, and the streaming reader `fbd replay` uses accepts exactly what the reader of a text
//! accepts, the same recording; one that reads is consistent, so replaying it on the blinker
//! example (a recording of any program is replayed on this one: unknown names must be errors,
//! not panics) ends.
#![no_main]

use fbd_engine::{MemProvider, Recording, Runtime, compile_str};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let streamed = Recording::from_reader(|| Ok(data));
    let Ok(text) = std::str::from_utf8(data) else {
        assert!(streamed.is_err(), "the stream read a recording that is no UTF-8 text");
        return;
    };
    let read = Recording::from_json(text);
    match (&read, &streamed) {
        (Ok(a), Ok(b)) => assert_eq!(
            (a.scans, a.seed, a.events.len(), a.hashes.len(), a.end_hash.clone()),
            (b.scans, b.seed, b.events.len(), b.hashes.len(), b.end_hash.clone()),
            "the two readers read two recordings"
        ),
        (Err(_), Err(_)) => {}
        (a, b) => panic!("one reader took it: text {:?}, stream {:?}", a.is_ok(), b.is_ok()),
    }
    let Ok(rec) = read else { return };
    // Within the limit a replay may run 2^32 scans (hours); the fuzzer needs short runs.
    if rec.scans > 20_000 {
        return;
    }
    let files = MemProvider::new()
        .with("examples/blinker.json", include_str!("../../examples/blinker.json"))
        .with("examples/lib/timing.json", include_str!("../../examples/lib/timing.json"));
    let text = include_str!("../../examples/blinker.json");
    let plan = compile_str(&files, "examples/blinker.json", text, &Default::default()).expect("the example compiles");
    let mut rt = Runtime::with_seed(plan.clone(), rec.seed);
    let _ = rt.replay(&rec, true);
    let mut play = Runtime::new(plan);
    if play.start_playback(rec).is_ok() {
        play.step_n(64);
        let _ = play.seek(10);
    }
});
