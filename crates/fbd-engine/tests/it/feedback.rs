//! Feedback semantics: a loop is legal only through a feedback point, which carries the
//! previous scan's value (IEC 61131-3 feedback variables).

use crate::harness::{b, i, plan};
use fbd_engine::{Runtime, Value};

fn run_outputs(text: &str, name: &str, scans: usize) -> Vec<Value> {
    let mut rt = Runtime::new(plan(text));
    (0..scans)
        .map(|_| {
            rt.step();
            rt.output(name).expect("output")
        })
        .collect()
}

#[test]
fn a_feedback_wire_delays_by_one_scan() {
    let text = r#"{"fbd": 1,
      "outputs": [{"name": "n", "type": "INT", "from": "add.out"}],
      "blocks": [{"id": "add", "type": "ADD", "inputs": {"in1": {"from": "add.out", "feedback": true, "init": 10}, "in2": 1}}]}"#;
    assert_eq!(run_outputs(text, "n", 4), vec![i(11), i(12), i(13), i(14)]);
    // The delayed value is a signal of its own, showing what the loop read in the last scan.
    let mut rt = Runtime::new(plan(text));
    rt.step_n(3);
    assert_eq!(rt.read("add.out@prev").expect("feedback signal"), i(12));
    assert_eq!(rt.read("add.out").expect("output"), i(13));
}

#[test]
fn the_same_loop_without_the_feedback_mark_is_rejected() {
    let text = r#"{"fbd": 1, "blocks": [{"id": "add", "type": "ADD", "inputs": {"in1": "add.out", "in2": 1}}]}"#;
    let e = fbd_engine::compile(text).expect_err("algebraic loop");
    assert!(e.to_string().contains("loop without a feedback point: add -> add"), "{e}");
}

#[test]
fn memory_prev_is_a_feedback_point() {
    let text = r#"{"fbd": 1,
      "outputs": [{"name": "q", "type": "INT", "from": "m.q"}],
      "blocks": [
        {"id": "inc", "type": "ADD", "inputs": {"in1": "m.prev", "in2": 1}},
        {"id": "m", "type": "MEMORY", "inputs": {"in": "inc.out", "en": true}, "params": {"init": 100}}
      ]}"#;
    assert_eq!(run_outputs(text, "q", 3), vec![i(101), i(102), i(103)]);
}

#[test]
fn a_delay_block_toggles_a_bit() {
    let text = r#"{"fbd": 1,
      "outputs": [{"name": "t", "type": "BOOL", "from": "n.out"}],
      "blocks": [
        {"id": "n", "type": "NOT", "inputs": {"in": "z.q"}},
        {"id": "z", "type": "DELAY", "inputs": {"in": "n.out"}, "params": {"init": false}}
      ]}"#;
    assert_eq!(run_outputs(text, "t", 4), vec![b(true), b(false), b(true), b(false)]);
}

#[test]
fn chained_delays_shift_one_scan_each() {
    let text = r#"{"fbd": 1, "inputs": [{"name": "x", "type": "INT"}],
      "outputs": [{"name": "y", "type": "INT", "from": "z2.q"}],
      "blocks": [
        {"id": "z2", "type": "DELAY", "inputs": {"in": "z1.q"}},
        {"id": "z1", "type": "DELAY", "inputs": {"in": "x"}}
      ]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut ys = Vec::new();
    for k in 1..=5 {
        rt.set_input("x", i(k)).expect("input");
        rt.step();
        ys.push(rt.output("y").expect("y"));
    }
    assert_eq!(ys, vec![i(0), i(0), i(1), i(2), i(3)]);
}

#[test]
fn a_cycle_of_delays_swaps_values_every_scan() {
    // Needs the two-phase commit: both delays read before either is written.
    let text = r#"{"fbd": 1,
      "outputs": [{"name": "a", "type": "INT", "from": "za.q"}, {"name": "b", "type": "INT", "from": "zb.q"}],
      "blocks": [
        {"id": "za", "type": "DELAY", "inputs": {"in": "zb.q"}, "params": {"init": 1}},
        {"id": "zb", "type": "DELAY", "inputs": {"in": "za.q"}, "params": {"init": 2}}
      ]}"#;
    assert_eq!(run_outputs(text, "a", 4), vec![i(1), i(2), i(1), i(2)]);
    assert_eq!(run_outputs(text, "b", 4), vec![i(2), i(1), i(2), i(1)]);
}

#[test]
fn the_example_blinker_blinks_with_the_configured_periods() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json");
    let mut rt = Runtime::new(fbd_engine::compile_file(path, &Default::default()).expect("example compiles"));
    rt.set_input("start", b(true)).expect("input");
    rt.step();
    rt.set_input("start", b(false)).expect("input");
    // The fast lamp over 2 s: exactly 100 ms on and 110 ms off (off_ms plus two scans: the TON
    // restart and the feedback wire), as the macro's description and the README's documentation list say.
    let mut rises = Vec::new();
    let mut falls = Vec::new();
    let mut last = rt.output("fast_lamp").expect("lamp");
    for _ in 0..400 {
        rt.step();
        let now = rt.output("fast_lamp").expect("lamp");
        let t = rt.clock_us() / 1000;
        match (last, now) {
            (Value::Bool(false), Value::Bool(true)) => rises.push(t),
            (Value::Bool(true), Value::Bool(false)) => falls.push(t),
            _ => {}
        }
        last = now;
    }
    assert!(rises.len() >= 8 && falls.len() >= 8, "{rises:?} {falls:?}");
    let on: Vec<u64> = falls.iter().filter_map(|f| rises.iter().rev().find(|r| *r < f).map(|r| f - r)).collect();
    let off: Vec<u64> = rises.iter().filter_map(|r| falls.iter().rev().find(|f| *f < r).map(|f| r - f)).collect();
    assert!(on.iter().all(|d| *d == 100), "on phases: {on:?}");
    assert!(off.iter().all(|d| *d == 110), "off phases: {off:?}");
    // The slow blinker (250 ms on, 750 ms off) stops after 3 cycles.
    rt.step_n(2000);
    assert_eq!(rt.output("slow_cycles"), Some(i(3)));
    assert_eq!(rt.output("slow_lamp"), Some(b(false)));
}

/// A loop through a pass-through macro closed by a feedback wire and no block is legal: its
/// value is the feedback's initial value, held (x(n) = x(n-1)); it was refused as "a wire loops
/// through macro ports". A negation on such a loop (a toggle needing a slot of its own) is
/// still refused with the loop's place.
#[test]
fn a_feedback_loop_through_pass_through_ports_holds_its_initial_value() {
    let text = |negated: &str| {
        format!(
            r#"{{"fbd": 3, "outputs": [{{"name": "q", "type": "DINT", "from": "p.y"}}],
              "macros": [{{"name": "P", "inputs": [{{"name": "x", "type": "DINT"}}], "outputs": [{{"name": "y", "type": "DINT", "from": "x"}}], "blocks": []}}],
              "blocks": [{{"id": "p", "type": "P", "inputs": {{"x": {{"from": "p.y", "feedback": true, "init": 7}}}}{negated}}}]}}"#
        )
    };
    let mut rt = fbd_engine::Runtime::new(crate::harness::plan(&text("")));
    for _ in 0..3 {
        rt.step();
        assert_eq!(rt.output("q"), Some(fbd_engine::Value::Int(7)));
    }
    let bool_loop = r#"{"fbd": 3, "outputs": [{"name": "q", "type": "BOOL", "from": "p.y"}],
      "macros": [{"name": "P", "inputs": [{"name": "x", "type": "BOOL"}], "outputs": [{"name": "y", "type": "BOOL", "from": "x"}], "blocks": []}],
      "blocks": [{"id": "p", "type": "P", "inputs": {"x": {"from": "p.y", "feedback": true}}, "negated": ["x"]}]}"#;
    let e = fbd_engine::compile(bool_loop).expect_err("a toggle through ports").to_string();
    assert!(e.contains("wire loops through macro ports"), "{e}");
}
