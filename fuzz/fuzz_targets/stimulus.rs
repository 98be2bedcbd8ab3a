//! Arbitrary bytes as a stimulus file of `fbd run` (read by the CLI's own module): reading
//! never panics, every line is an event or an error naming its line, and the timeline gives
//! back every event once, in scan order, each with a value of its signal's type.
#![no_main]

use fbd_engine::{MemProvider, ScanPlan, Value, compile_str};
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/fbd-cli/src/stimulus.rs"]
#[allow(dead_code)]
mod stimulus;

/// The program the lines write to (compiled once): BOOL, DINT and STRING signals.
fn plan() -> &'static ScanPlan {
    static PLAN: std::sync::OnceLock<ScanPlan> = std::sync::OnceLock::new();
    PLAN.get_or_init(|| {
        let text = include_str!("../../examples/part-label.json");
        let files = MemProvider::new().with("examples/part-label.json", text);
        compile_str(&files, "examples/part-label.json", text, &Default::default()).expect("the example compiles")
    })
}

fuzz_target!(|data: &[u8]| {
    let plan = plan();
    let value = |s: &stimulus::Stim| -> Result<Value, String> {
        let sig = plan.signal(&s.path).ok_or_else(|| format!("{}: unknown `{}`", s.origin, s.path))?;
        Value::parse(&s.value, sig.slot.ty).map_err(|e| format!("{}: {e}", s.origin))
    };
    let type_of = |p: &str| plan.signal(p).map_or(fbd_engine::Type::Bool, |sig| sig.slot.ty);
    let mut errors = Vec::new();
    let mut timeline = stimulus::Timeline::default();
    stimulus::read_stimulus(data, "fuzz.stim", &mut errors, value, type_of, &mut timeline);
    for e in &errors {
        assert!(e.starts_with("fuzz.stim:") || e.starts_with("stimulus fuzz.stim:"), "an error without its place: {e}");
    }
    let pushed: usize = timeline.chunks.iter().map(Vec::len).sum();
    let sorted = timeline.into_sorted_chunks();
    let mut last = 0;
    let mut n = 0;
    for e in stimulus::Ordered::new(&sorted.chunks) {
        assert!(e.scan >= last, "out of scan order");
        last = e.scan;
        let v = sorted.value(e);
        let ty = plan.signal(&sorted.paths[e.path as usize]).expect("a known signal").slot.ty;
        assert_eq!(v.ty().bank(), ty.bank(), "a value of its signal's bank");
        n += 1;
    }
    assert_eq!(n, pushed, "every event once");
});
