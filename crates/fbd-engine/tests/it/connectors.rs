//! Connectors: a name for a net, read by continuations. They change the drawing, never a
//! value: a program with connectors computes what the same program wired directly computes,
//! and its plan has the same instructions.

use crate::harness::{i, plan};
use fbd_engine::{Runtime, Value};

const WIRED: &str = r#"{"fbd": 3,
  "inputs": [{"name": "x", "type": "LINT"}],
  "outputs": [{"name": "y", "type": "LINT", "from": "mul.out"}, {"name": "z", "type": "LINT", "from": "add.out"}],
  "blocks": [
    {"id": "add", "type": "ADD", "inputs": {"in1": "x", "in2": {"from": "add.out", "feedback": true}}},
    {"id": "mul", "type": "MUL", "inputs": {"in1": "add.out", "in2": 3}}
  ]}"#;

const NAMED: &str = r#"{"fbd": 3,
  "inputs": [{"name": "x", "type": "LINT"}],
  "outputs": [{"name": "y", "type": "LINT", "from": "mul.out"}, {"name": "z", "type": "LINT", "from": {"connector": "sum"}}],
  "blocks": [
    {"id": "add", "type": "ADD", "inputs": {"in1": {"connector": "x_in"}, "in2": {"from": "add.out", "feedback": true}}},
    {"id": "mul", "type": "MUL", "inputs": {"in1": {"connector": "sum"}, "in2": {"connector": "three"}}}
  ],
  "connectors": [
    {"name": "sum", "from": "add.out"},
    {"name": "x_in", "from": {"connector": "x_alias"}},
    {"name": "x_alias", "from": "x"},
    {"name": "three", "from": 3}
  ]}"#;

fn trace(text: &str) -> Vec<(Value, Value)> {
    let mut rt = Runtime::new(plan(text));
    (1..=6)
        .map(|k| {
            rt.write("x", i(k * 7 - 20)).expect("input x");
            rt.step();
            (rt.output("y").expect("y"), rt.output("z").expect("z"))
        })
        .collect()
}

#[test]
fn a_program_with_connectors_computes_what_its_wired_twin_computes() {
    assert_eq!(trace(NAMED), trace(WIRED));
    let (a, b) = (plan(NAMED), plan(WIRED));
    assert_eq!(a.code.len(), b.code.len(), "a connector costs no instruction");
    assert_eq!(a.stats.blocks, b.stats.blocks);
}

#[test]
fn a_connector_inside_a_macro_is_the_instance_s_own() {
    let text = r#"{"fbd": 3,
      "inputs": [{"name": "a", "type": "LINT"}, {"name": "b", "type": "LINT"}],
      "outputs": [{"name": "p", "type": "LINT", "from": "m1.out"}, {"name": "q", "type": "LINT", "from": "m2.out"}],
      "macros": [{"name": "Twice", "inputs": [{"name": "v", "type": "LINT"}],
        "outputs": [{"name": "out", "type": "LINT", "from": {"connector": "doubled"}}],
        "blocks": [{"id": "add", "type": "ADD", "inputs": {"in1": {"connector": "v_in"}, "in2": "v"}}],
        "connectors": [{"name": "doubled", "from": "add.out"}, {"name": "v_in", "from": "v"}]}],
      "blocks": [
        {"id": "m1", "type": "Twice", "inputs": {"v": "a"}},
        {"id": "m2", "type": "Twice", "inputs": {"v": "b"}}
      ]}"#;
    let mut rt = Runtime::new(plan(text));
    rt.write("a", i(4)).expect("a");
    rt.write("b", i(-5)).expect("b");
    rt.step();
    assert_eq!(rt.output("p").expect("p"), i(8));
    assert_eq!(rt.output("q").expect("q"), i(-10));
}

fn errors_of(text: &str) -> String {
    fbd_engine::compile(text).expect_err("must not compile").to_string()
}

#[test]
fn a_continuation_of_no_connector_is_an_error_at_its_pin_with_a_suggestion() {
    let e = errors_of(
        r#"{"fbd": 3,
  "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": {"connector": "startt"}}},
             {"id": "k", "type": "NOT", "inputs": {"in": true}}],
  "connectors": [{"name": "start", "from": "k.out"}]}"#,
    );
    assert!(e.contains("no connector `startt` in this body"), "{e}");
    assert!(e.contains("did you mean `start`?"), "{e}");
    assert!(e.contains("<memory>:2:"), "the place of the pin: {e}");
    assert!(e.contains("block n") || e.contains("`n`"), "names the block: {e}");
}

#[test]
fn two_connectors_of_one_name_are_an_error_at_the_second() {
    let e = errors_of(
        r#"{"fbd": 3,
  "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": {"connector": "a"}}}],
  "connectors": [
    {"name": "a", "from": false},
    {"name": "a", "from": true}
  ]}"#,
    );
    assert!(e.contains("<memory>:5:14: two connectors named `a`"), "{e}");
}

#[test]
fn a_circle_of_connectors_is_an_error_not_a_hang() {
    let e = errors_of(
        r#"{"fbd": 3,
  "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": {"connector": "a"}}}],
  "connectors": [
    {"name": "a", "from": {"connector": "b"}},
    {"name": "b", "from": {"connector": "a"}}
  ]}"#,
    );
    assert!(e.contains("circle of connectors"), "{e}");
}

#[test]
fn an_unread_connector_s_source_is_still_checked() {
    let e = errors_of(r#"{"fbd": 3, "connectors": [{"name": "lost", "from": "nowhere.out"}]}"#);
    assert!(e.contains("unknown block `nowhere`"), "{e}");
}

#[test]
fn a_continuation_object_takes_nothing_else() {
    let e = errors_of(
        r#"{"fbd": 3, "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": {"connector": "a", "feedback": true}}}]}"#,
    );
    assert!(e.contains("a continuation is {\"connector\": name} alone"), "{e}");
}
