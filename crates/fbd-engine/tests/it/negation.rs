//! Negated inputs (`"negated": ["pin"]`, IEC 61131-3's circle at a block's input): the block
//! reads the inverse of what drives the pin, exactly as if a NOT stood in front of it.

use crate::harness::{b, plan};
use fbd_engine::{Runtime, Value};

/// Inputs `a`, `c` (BOOL) and one output per block under test; `blocks` in JSON.
fn program(blocks: &str) -> String {
    format!(
        r#"{{"fbd": 1, "cycle_ms": 10,
          "inputs": [{{"name": "a", "type": "BOOL"}}, {{"name": "c", "type": "BOOL"}}],
          "outputs": [
            {{"name": "and", "type": "BOOL", "from": "and1.out"}},
            {{"name": "ton", "type": "BOOL", "from": "ton1.q"}},
            {{"name": "et", "type": "INT", "from": "ton1.et"}},
            {{"name": "sr", "type": "BOOL", "from": "sr1.q1"}},
            {{"name": "sel", "type": "BOOL", "from": "sel1.out"}},
            {{"name": "z", "type": "BOOL", "from": "z1.q"}},
            {{"name": "ctu", "type": "INT", "from": "ctu1.cv"}},
            {{"name": "k", "type": "BOOL", "from": "and2.out"}}
          ],
          "blocks": [{blocks}]}}"#
    )
}

/// Every output after each of 60 scans, `a` and `c` changing in a pattern that makes the
/// timers run out, the latch set and reset and the counter count.
fn trace(text: &str) -> Vec<Vec<Value>> {
    let mut rt = Runtime::new(plan(text));
    let names: Vec<String> = rt.plan().outputs.iter().map(|p| p.name.clone()).collect();
    (0..60u32)
        .map(|k| {
            rt.write("a", b(k % 7 < 4)).expect("a");
            rt.write("c", b(k % 11 < 3)).expect("c");
            rt.step();
            names.iter().map(|n| rt.output(n).expect("output")).collect()
        })
        .collect()
}

#[test]
fn a_negated_input_computes_what_a_not_in_front_of_it_does() {
    let negated = program(
        r#"{"id": "and1", "type": "AND", "inputs": {"in1": "a", "in2": "c"}, "negated": ["in2"]},
           {"id": "ton1", "type": "TON", "inputs": {"in": "c", "pt": 30}, "negated": ["in"]},
           {"id": "sr1", "type": "SR", "inputs": {"s1": "a", "r": "c"}, "negated": ["s1", "r"]},
           {"id": "sel1", "type": "SEL", "inputs": {"g": "a", "in0": "c", "in1": true}, "negated": ["in0", "in1"]},
           {"id": "z1", "type": "DELAY", "inputs": {"in": "a"}, "params": {"init": true}, "negated": ["in"]},
           {"id": "ctu1", "type": "CTU", "inputs": {"cu": "a", "pv": 100}, "negated": ["cu", "r"]},
           {"id": "and2", "type": "AND", "inputs": {"in1": "a", "in2": "a", "in3": "c"}, "negated": ["in3", "in1"]}"#,
    );
    // The same with NOT blocks; CTU's `r` is unconnected (FALSE), so its negation is TRUE.
    let explicit = program(
        r#"{"id": "n_c", "type": "NOT", "inputs": {"in": "c"}},
           {"id": "n_a", "type": "NOT", "inputs": {"in": "a"}},
           {"id": "and1", "type": "AND", "inputs": {"in1": "a", "in2": "n_c.out"}},
           {"id": "ton1", "type": "TON", "inputs": {"in": "n_c.out", "pt": 30}},
           {"id": "sr1", "type": "SR", "inputs": {"s1": "n_a.out", "r": "n_c.out"}},
           {"id": "sel1", "type": "SEL", "inputs": {"g": "a", "in0": "n_c.out", "in1": false}},
           {"id": "z1", "type": "DELAY", "inputs": {"in": "n_a.out"}, "params": {"init": true}},
           {"id": "ctu1", "type": "CTU", "inputs": {"cu": "n_a.out", "r": true, "pv": 100}},
           {"id": "and2", "type": "AND", "inputs": {"in1": "n_a.out", "in2": "a", "in3": "n_c.out"}}"#,
    );
    let (got, want) = (trace(&negated), trace(&explicit));
    assert_eq!(got, want);
    // And the program really moves: the timer ran out and the latch changed.
    assert!(got.iter().any(|row| row[1] == b(true)) && got.iter().any(|row| row[1] == b(false)));
    assert!(got.iter().any(|row| row[3] == b(true)) && got.iter().any(|row| row[3] == b(false)));
}

/// A negated pin's signal (`and1.in2`) shows the wire's value, as the drawing does before the
/// circle; a force of what drives it reaches the block through the negation.
#[test]
fn a_negated_pin_shows_its_wire_and_a_force_goes_through_the_negation() {
    let text = r#"{"fbd": 1, "inputs": [{"name": "a", "type": "BOOL"}],
      "outputs": [{"name": "y", "type": "BOOL", "from": "n.out"}],
      "blocks": [{"id": "n", "type": "MOVE", "inputs": {"in": "a"}, "negated": ["in"]}]}"#;
    let mut rt = Runtime::new(plan(text));
    assert_eq!(rt.plan().blocks.at(0).data_type, Some(fbd_engine::Type::Bool), "a negated pin makes MOVE BOOL");
    rt.step();
    assert_eq!((rt.read("n.in").expect("pin"), rt.output("y").expect("y")), (b(false), b(true)));
    rt.write("a", b(true)).expect("a");
    rt.step();
    assert_eq!((rt.read("n.in").expect("pin"), rt.output("y").expect("y")), (b(true), b(false)));
    rt.force("a", b(false)).expect("force");
    rt.step();
    assert_eq!(rt.output("y"), Some(b(true)));
}

/// Each mistake in `negated` is reported at its entry (or at the pin, for a type), with the
/// block and pin named; all of them at once.
#[test]
fn wrong_negations_are_reported_with_their_place() {
    let text = "{\"fbd\": 1, \"inputs\": [{\"name\": \"k\", \"type\": \"INT\"}],\n\
      \"macros\": [{\"name\": \"M\", \"inputs\": [{\"name\": \"x\", \"type\": \"BOOL\"}], \"outputs\": [], \"blocks\": []}],\n\
      \"blocks\": [\n\
        {\"id\": \"a\", \"type\": \"AND\", \"inputs\": {\"in1\": true, \"in2\": true}, \"negated\": [\"in3\"]},\n\
        {\"id\": \"b\", \"type\": \"NOT\", \"inputs\": {\"in\": true}, \"negated\": [\"out\"]},\n\
        {\"id\": \"c\", \"type\": \"OR\", \"inputs\": {\"in1\": true, \"in2\": true}, \"negated\": [\"in1\", \"in1\"]},\n\
        {\"id\": \"d\", \"type\": \"M\", \"inputs\": {\"x\": true}, \"negated\": [\"x\"]}\n\
      ]}";
    let e = fbd_engine::compile(text).expect_err("four mistakes");
    let shown = e.to_string();
    let expect = [
        (4, "a", "in3", "AND has no input `in3` to negate"),
        (5, "b", "out", "`out` is an output of NOT: only inputs can be negated"),
        (6, "c", "in1", "pin `in1` is negated twice (first at negated[0])"),
        (7, "d", "x", "`d` is a macro instance: only a library block's inputs can be negated"),
    ];
    assert_eq!(e.0.len(), expect.len(), "{shown}");
    for (d, (line, block, pin, says)) in e.0.iter().zip(expect) {
        assert!(d.message.contains(says), "{d}");
        assert_eq!((d.line, d.block.as_deref(), d.pin.as_deref()), (Some(line), Some(block), Some(pin)), "{d}");
    }
    // Only a BOOL can be negated: found once the types are known.
    let text = "{\"fbd\": 1, \"inputs\": [{\"name\": \"k\", \"type\": \"INT\"}],\n \"blocks\": [\n\
        {\"id\": \"s\", \"type\": \"ADD\", \"inputs\": {\"in1\": \"k\", \"in2\": 1}, \"negated\": [\"in1\"]}\n]}";
    let e = fbd_engine::compile(text).expect_err("an INT pin");
    let d = e.first();
    assert!(d.message.contains("pin `in1` of ADD `s` is INT: only a BOOL input can be negated"), "{d}");
    assert_eq!((d.line, d.pin.as_deref()), (Some(3), Some("in1")), "{d}");
}
