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

#[test]
fn minus_zero_is_the_integer_zero() {
    // serde_json reads `-0` as the float -0.0; the format says an integer literal is INT.
    assert_eq!(one_scan(r#"{"id": "m", "type": "MOVE", "inputs": {"in": -0}}"#, "m.out", "INT").0, Value::Int(0));
    assert_eq!(
        one_scan(r#"{"id": "t", "type": "TON", "inputs": {"in": true, "pt": -0}}"#, "t.q", "BOOL").0,
        Value::Bool(false)
    );
    // Where REAL is expected it is 0.0, and `-0.0` stays the REAL minus zero.
    assert_eq!(real(r#"{"id": "a", "type": "ADD", "inputs": {"in1": -0, "in2": 0.5}}"#, "a.out"), 0.5);
    let neg = real(r#"{"id": "m", "type": "MOVE", "inputs": {"in": -0.0}}"#, "m.out");
    assert!(neg == 0.0 && neg.is_sign_negative());
}

#[test]
fn a_real_literal_settles_a_generic_block_on_a_loop_even_after_an_int_literal() {
    // Found by the differential test: the loop-breaking hint took the first constant (INT) and
    // then rejected the REAL one.
    let blocks = r#"{"id": "l", "type": "LIMIT", "inputs": {"mn": -1, "in": {"from": "l.out", "feedback": true, "init": 3}, "mx": 0.5}}"#;
    assert_eq!(real(blocks, "l.out"), 0.5);
}

#[test]
fn a_declared_port_type_settles_a_loop_through_a_pass_through_macro() {
    // Found by the differential test: ABS fed back through a REAL pass-through port with an INT
    // init was inferred INT and then rejected by the port.
    let text = r#"{"fbd": 1,
        "macros": [{"name": "Pass", "inputs": [{"name": "x", "type": "REAL"}],
                    "outputs": [{"name": "y", "type": "REAL", "from": "x"}], "blocks": []}],
        "outputs": [{"name": "y", "type": "REAL", "from": "a.out"}],
        "blocks": [{"id": "p", "type": "Pass", "inputs": {"x": {"from": "a.out", "feedback": true, "init": -5}}},
                   {"id": "a", "type": "ABS", "inputs": {"in": "p.y"}}]}"#;
    let mut rt = Runtime::new(plan(text));
    rt.step();
    assert_eq!(rt.output("y"), Some(Value::Real(5.0)));
}

#[test]
fn a_loop_of_generic_blocks_takes_the_widest_constant_of_the_whole_loop() {
    // Found by the differential test: ABS settled INT from its feedback init before MAX, on the
    // same loop, could bring its REAL constant.
    let blocks = r#"{"id": "m", "type": "MAX", "inputs": {"in1": {"from": "a.out", "feedback": true}, "in2": -7.25, "in3": 2}},
                    {"id": "a", "type": "ABS", "inputs": {"in": {"from": "m.out", "feedback": true, "init": 1}}}"#;
    assert_eq!(real(blocks, "m.out"), 2.0);
    assert_eq!(real(blocks, "a.out"), 1.0);
}

#[test]
fn a_memory_fed_only_by_itself_names_the_loop() {
    let text = r#"{"fbd": 1, "blocks": [{"id": "m", "type": "MEMORY", "inputs": {"in": "m.prev", "en": true}}]}"#;
    let e = fbd_engine::compile(text).expect_err("no type").to_string();
    assert!(
        e.contains("cannot infer the data type of MEMORY block `m`: its only typed input is its own output"),
        "{e}"
    );
}
