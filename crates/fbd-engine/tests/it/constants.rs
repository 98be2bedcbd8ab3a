//! Constants on pins of another type: an INT literal is accepted where REAL is expected and must
//! compute exactly what the REAL literal would (regressions of the first user trial, where the
//! constant landed in the INT slot bank while the REAL instruction read the REAL bank).

use crate::harness::plan;
use fbd_engine::{Runtime, Value};

/// Compiles `blocks` with REAL output `y` from `from`, runs one scan, returns `y` and the faults.
fn one_scan(blocks: &str, from: &str, ty: &str) -> (Value, u64) {
    let text = format!(
        r#"{{"fbd": 1, "outputs": [{{"name": "y", "type": "{ty}", "from": "{from}"}}], "blocks": [{blocks}]}}"#
    );
    let mut rt = Runtime::new(plan(&text));
    rt.step();
    (rt.output("y").expect("output y"), rt.faults().total)
}

fn real(blocks: &str, from: &str) -> f64 {
    match one_scan(blocks, from, "REAL").0 {
        Value::Real(r) => r,
        v => panic!("expected a REAL, got {v:?}"),
    }
}

#[test]
fn int_literal_on_a_real_add() {
    assert_eq!(real(r#"{"id": "a", "type": "ADD", "inputs": {"in1": 1, "in2": 2.5}}"#, "a.out"), 3.5);
    assert_eq!(real(r#"{"id": "a", "type": "ADD", "inputs": {"in1": 2.5, "in2": 1, "in3": 4}}"#, "a.out"), 7.5);
    assert_eq!(real(r#"{"id": "a", "type": "MUL", "inputs": {"in1": 3, "in2": 0.5}}"#, "a.out"), 1.5);
    assert_eq!(real(r#"{"id": "a", "type": "SUB", "inputs": {"in1": 10, "in2": 0.25}}"#, "a.out"), 9.75);
    assert_eq!(real(r#"{"id": "a", "type": "DIV", "inputs": {"in1": 1, "in2": 4.0}}"#, "a.out"), 0.25);
    assert_eq!(real(r#"{"id": "a", "type": "LIMIT", "inputs": {"mn": 0, "in": 7.5, "mx": 5}}"#, "a.out"), 5.0);
}

#[test]
fn int_literal_on_a_real_mux_and_sel() {
    assert_eq!(real(r#"{"id": "m", "type": "MUX", "inputs": {"k": 0, "in0": 1, "in1": 2.5}}"#, "m.out"), 1.0);
    assert_eq!(real(r#"{"id": "m", "type": "MUX", "inputs": {"k": 1, "in0": 1, "in1": 2.5}}"#, "m.out"), 2.5);
    assert_eq!(real(r#"{"id": "s", "type": "SEL", "inputs": {"g": true, "in0": 0.5, "in1": 1}}"#, "s.out"), 1.0);
    assert_eq!(real(r#"{"id": "s", "type": "SEL", "inputs": {"g": false, "in0": 3, "in1": 0.5}}"#, "s.out"), 3.0);
}

#[test]
fn int_literal_on_fixed_real_pins() {
    // FRAC(3) beside an unrelated REAL ADD: before the fix FRAC read the ADD's constant.
    let blocks = r#"{"id": "f", "type": "FRAC", "inputs": {"in": 3}},
                    {"id": "a", "type": "ADD", "inputs": {"in1": 100.25, "in2": 200.5}}"#;
    assert_eq!(real(blocks, "f.out"), 0.0);
    assert_eq!(real(blocks, "a.out"), 300.75);
    // FLOOR(3) and SAW(lo: 0, hi: 2) indexed past the REAL bank and panicked.
    assert_eq!(one_scan(r#"{"id": "f", "type": "FLOOR", "inputs": {"in": 3}}"#, "f.out", "INT"), (Value::Int(3), 0));
    assert_eq!(one_scan(r#"{"id": "f", "type": "TRUNC", "inputs": {"in": -3}}"#, "f.out", "INT"), (Value::Int(-3), 0));
    assert_eq!(
        one_scan(r#"{"id": "f", "type": "REAL_TO_INT", "inputs": {"in": 7}}"#, "f.out", "INT"),
        (Value::Int(7), 0)
    );
    // At t = 0 the ramp is at lo; with period 1000 ms and lo 0, hi 2.
    assert_eq!(real(r#"{"id": "s", "type": "SAW", "inputs": {"lo": 1, "hi": 2}}"#, "s.out"), 1.0);
}

#[test]
fn real_type_spreads_into_comparisons_with_int_literals() {
    // GT(x, 0) where x is REAL: the 0 must be compared as 0.0.
    let blocks = r#"{"id": "x", "type": "ADD", "inputs": {"in1": 0.5, "in2": -1}},
                    {"id": "g", "type": "GT", "inputs": {"in1": "x.out", "in2": 0}},
                    {"id": "l", "type": "LT", "inputs": {"in1": "x.out", "in2": 0}}"#;
    assert_eq!(one_scan(blocks, "g.out", "BOOL").0, Value::Bool(false));
    assert_eq!(one_scan(blocks, "l.out", "BOOL").0, Value::Bool(true));
    assert_eq!(real(blocks, "x.out"), -0.5);
}

#[test]
fn int_literal_on_real_ports() {
    // A program output and a macro port typed REAL, bound to integer literals.
    let mut rt = Runtime::new(plan(r#"{"fbd": 1, "outputs": [{"name": "y", "type": "REAL", "from": 2}]}"#));
    rt.step();
    assert_eq!(rt.output("y"), Some(Value::Real(2.0)));
    let text = r#"{"fbd": 1,
        "macros": [{"name": "Half", "inputs": [{"name": "x", "type": "REAL"}],
                    "outputs": [{"name": "y", "type": "REAL", "from": "d.out"}],
                    "blocks": [{"id": "d", "type": "DIV", "inputs": {"in1": "x", "in2": 2}}]}],
        "outputs": [{"name": "y", "type": "REAL", "from": "h.y"}],
        "blocks": [{"id": "h", "type": "Half", "inputs": {"x": 3}}]}"#;
    let mut rt = Runtime::new(plan(text));
    rt.step();
    // The port is REAL, so the division inside is REAL: 1.5, not the INT division's 1.
    assert_eq!(rt.output("y"), Some(Value::Real(1.5)));
    assert_eq!(rt.read("h.x").expect("macro pin"), Value::Real(3.0));
}

#[test]
fn feedback_init_of_an_int_literal_on_a_real_loop() {
    let blocks = r#"{"id": "acc", "type": "ADD", "inputs": {"in1": {"from": "acc.out", "feedback": true, "init": 1}, "in2": 0.5}}"#;
    let text = format!(
        r#"{{"fbd": 1, "outputs": [{{"name": "y", "type": "REAL", "from": "acc.out"}}], "blocks": [{blocks}]}}"#
    );
    let mut rt = Runtime::new(plan(&text));
    let got: Vec<Value> = (0..3)
        .map(|_| {
            rt.step();
            rt.output("y").expect("y")
        })
        .collect();
    assert_eq!(got, [Value::Real(1.5), Value::Real(2.0), Value::Real(2.5)]);
}
