//! Ladder networks and body variables (format version 5), run as Beremiz's generator writes
//! them and matiec runs them: coils and stores are statements in list order, each computing its
//! power afresh; a read sees the last write before it in the scan, or the previous scan's.
//! (Against Beremiz + matiec themselves: tools/plcopen/ladder-check.sh, docs/plcopen.md.)

use fbd_engine::{Runtime, Value, compile};

use crate::harness::plan;

/// A motor started by `start`, held by its own contact (seal-in), stopped by `stop` (normally
/// closed), and its starts counted by a CTU in the rung, stored into `count`.
const MOTOR: &str = r#"{"fbd": 5,
  "inputs": [{"name": "start", "type": "BOOL"}, {"name": "stop", "type": "BOOL"}],
  "variables": [{"name": "motor", "type": "BOOL"}, {"name": "count", "type": "INT"}],
  "outputs": [{"name": "running", "type": "BOOL", "from": "motor"}, {"name": "starts", "type": "INT", "from": "count"}],
  "blocks": [{"id": "ctu", "type": "CTU", "inputs": {"cu": "run", "r": false, "pv": 100}}],
  "ladder": [
    {"id": "start_c", "kind": "contact", "var": "start", "from": ["rail"]},
    {"id": "seal", "kind": "contact", "var": "motor", "from": ["rail"]},
    {"id": "stop_c", "kind": "contact", "var": "stop", "modifier": "negated", "from": ["start_c", "seal"]},
    {"id": "run", "kind": "coil", "var": "motor", "from": ["stop_c"]},
    {"id": "cnt", "kind": "store", "var": "count", "from": ["ctu.cv"]}
  ]}"#;

fn run(text: &str, inputs: &[(&str, &[bool])], outs: &[&str]) -> Vec<Vec<i64>> {
    let mut rt = Runtime::new(plan(text));
    let scans = inputs.first().map_or(0, |(_, v)| v.len());
    let mut got = Vec::new();
    for k in 0..scans {
        for (name, values) in inputs {
            rt.set_input(name, Value::Bool(values[k])).expect(name);
        }
        rt.step();
        got.push(
            outs.iter()
                .map(|o| {
                    rt.read(o)
                        .expect(o)
                        .as_i64()
                        .unwrap_or_else(|| i64::from(rt.read(o).expect(o) == Value::Bool(true)))
                })
                .collect(),
        );
    }
    got
}

#[test]
fn a_seal_in_rung_starts_holds_and_stops_a_motor() {
    let start = [false, true, false, false, false, false, true];
    let stop = [false, false, false, false, true, false, false];
    let got = run(MOTOR, &[("start", &start), ("stop", &stop)], &["running", "starts", "motor", "stop_c.out"]);
    let running: Vec<i64> = got.iter().map(|r| r[0]).collect();
    let starts: Vec<i64> = got.iter().map(|r| r[1]).collect();
    assert_eq!(running, [0, 1, 1, 1, 0, 0, 1], "held by its own contact, dropped by stop");
    // The counter is called after the coil's statement (the store pulls it): it counts the
    // rising power in the same scan.
    assert_eq!(starts, [0, 1, 1, 1, 1, 1, 2]);
    // The variable answers by its name; the contact's power by the element's id.
    assert!(got.iter().all(|r| r[2] == r[0]), "{got:?}");
    assert_eq!(got[1][3], 1);
}

/// Coils in list order: a contact on a variable that a later coil writes reads the previous
/// scan's value; after the write it reads this scan's. Set and reset coils latch.
#[test]
fn reads_see_the_writes_above_them_and_the_previous_scan_below() {
    let text = r#"{"fbd": 5,
      "inputs": [{"name": "a", "type": "BOOL"}, {"name": "s", "type": "BOOL"}, {"name": "r", "type": "BOOL"}],
      "variables": [{"name": "x", "type": "BOOL"}, {"name": "before", "type": "BOOL"}, {"name": "after", "type": "BOOL"},
                    {"name": "latch", "type": "BOOL", "init": true}],
      "outputs": [{"name": "before", "type": "BOOL", "from": "before"}, {"name": "after", "type": "BOOL", "from": "after"},
                  {"name": "latch", "type": "BOOL", "from": "latch"}],
      "ladder": [
        {"id": "c1", "kind": "contact", "var": "x", "from": ["rail"]},
        {"id": "k1", "kind": "coil", "var": "before", "from": ["c1"]},
        {"id": "c2", "kind": "contact", "var": "a", "from": ["rail"]},
        {"id": "k2", "kind": "coil", "var": "x", "from": ["c2"]},
        {"id": "k3", "kind": "coil", "var": "after", "from": ["c1"]},
        {"id": "c3", "kind": "contact", "var": "s", "from": ["rail"]},
        {"id": "k4", "kind": "coil", "var": "latch", "modifier": "set", "from": ["c3"]},
        {"id": "c4", "kind": "contact", "var": "r", "from": ["rail"]},
        {"id": "k5", "kind": "coil", "var": "latch", "modifier": "reset", "from": ["c4"]}
      ]}"#;
    let a = [true, true, false, false, false, false];
    let s = [false, false, false, false, true, false];
    let r = [false, true, false, false, false, false];
    let got = run(text, &[("a", &a), ("s", &s), ("r", &r)], &["before", "after", "latch"]);
    let col = |k: usize| got.iter().map(|row| row[k]).collect::<Vec<_>>();
    assert_eq!(col(1), [1, 1, 0, 0, 0, 0], "after the write: this scan's x");
    assert_eq!(col(0), [0, 1, 1, 0, 0, 0], "before the write: the previous scan's x");
    assert_eq!(col(2), [1, 0, 0, 0, 1, 1], "set and reset latch, from its init");
}

/// An edge contact is a trigger of its own in each statement it powers (Beremiz's generator
/// writes one R_TRIG per coil): two coils on one rising contact both see the edge.
#[test]
fn an_edge_contact_pulses_every_coil_it_powers() {
    let text = r#"{"fbd": 5,
      "inputs": [{"name": "b", "type": "BOOL"}],
      "variables": [{"name": "p1", "type": "BOOL"}, {"name": "p2", "type": "BOOL"}, {"name": "f", "type": "BOOL"}],
      "outputs": [{"name": "p1", "type": "BOOL", "from": "p1"}, {"name": "p2", "type": "BOOL", "from": "p2"},
                  {"name": "f", "type": "BOOL", "from": "f"}],
      "ladder": [
        {"id": "up", "kind": "contact", "var": "b", "modifier": "rising", "from": ["rail"]},
        {"id": "k1", "kind": "coil", "var": "p1", "from": ["up"]},
        {"id": "k2", "kind": "coil", "var": "p2", "from": ["up"]},
        {"id": "any", "kind": "contact", "var": "b", "from": ["rail"]},
        {"id": "k3", "kind": "coil", "var": "f", "modifier": "falling", "from": ["any"]}
      ]}"#;
    let b = [false, true, true, false, true];
    let got = run(text, &[("b", &b)], &["p1", "p2", "f"]);
    // An F_TRIG fires in the first scan when its input is FALSE (IEC's: its memory starts
    // FALSE, `Q := NOT CLK AND NOT M`), as matiec's does.
    assert_eq!(got, [[0, 0, 1], [1, 1, 0], [0, 0, 0], [0, 0, 1], [1, 1, 0]].map(|r| r.to_vec()).to_vec());
}

/// A store straight from a block with EN writes only while the block's ENO is TRUE
/// (Beremiz's `IF blk.ENO THEN v := blk.OUT`); a block's ENO powers the rest of its rung.
#[test]
fn a_store_from_a_disabled_block_keeps_its_value_and_eno_carries_the_power() {
    let text = r#"{"fbd": 5,
      "inputs": [{"name": "go", "type": "BOOL"}],
      "variables": [{"name": "n", "type": "INT", "init": 5}, {"name": "lamp", "type": "BOOL"}],
      "outputs": [{"name": "n", "type": "INT", "from": "n"}, {"name": "lamp", "type": "BOOL", "from": "lamp"}],
      "blocks": [{"id": "inc", "type": "ADD", "inputs": {"EN": "g", "in1": "n", "in2": 1}}],
      "ladder": [
        {"id": "g", "kind": "contact", "var": "go", "from": ["rail"]},
        {"id": "w", "kind": "store", "var": "n", "from": ["inc.out"]},
        {"id": "k", "kind": "coil", "var": "lamp", "from": ["inc.ENO"]}
      ]}"#;
    let go = [false, true, true, false, true];
    let got = run(text, &[("go", &go)], &["n", "lamp"]);
    assert_eq!(got, [[5, 0], [6, 1], [7, 1], [7, 0], [8, 1]].map(|r| r.to_vec()).to_vec());
}

/// What is wrong with a network is said at its place, every problem at once; version 4 is
/// refused by its version.
#[test]
fn bad_networks_are_refused_at_their_place_all_at_once() {
    let bad = MOTOR
        .replace(r#""var": "stop", "modifier": "negated""#, r#""var": "count", "modifier": "negated""#)
        .replace(r#""from": ["start_c", "seal"]"#, r#""from": ["start_c", "nowhere"]"#)
        .replace(r#""kind": "coil", "var": "motor""#, r#""kind": "coil", "var": "start""#)
        .replace(
            r#"{"id": "seal", "kind": "contact", "var": "motor", "from": ["rail"]}"#,
            r#"{"id": "seal", "kind": "contact", "var": "motor", "from": ["run"]}"#,
        );
    let e = compile(&bad).expect_err("refused").to_string();
    for want in [
        "contact `stop_c` reads `count` (INT): a contact reads a BOOL",
        "contact `stop_c` is powered from `nowhere`, which is not `rail`",
        "coil `run` writes `start`, an input: the body writes only its variables",
    ] {
        assert!(e.contains(want), "{want}\nin:\n{e}");
    }
    for place in ["<memory>:9:48:", "<memory>:9:88:", "<memory>:10:42:"] {
        assert!(e.contains(place), "placed at line:col {place}: {e}");
    }
    let v4 = MOTOR.replace(r#""fbd": 5"#, r#""fbd": 4"#);
    let e = compile(&v4).expect_err("refused").to_string();
    assert!(e.contains("`variables` and `ladder` are format version 5"), "{e}");
    let circle = MOTOR.replace(
        r#""id": "start_c", "kind": "contact", "var": "start", "from": ["rail"]"#,
        r#""id": "start_c", "kind": "contact", "var": "start", "from": ["stop_c"]"#,
    );
    let e = compile(&circle).expect_err("refused").to_string();
    assert!(e.contains("power each other in a circle"), "{e}");
}

/// A variable that takes the body's input of its name each scan (a `%I` location the rungs
/// write, a global an instance shares): read before the scan's first write it is the input,
/// after it what was written; the next scan starts from the input again.
#[test]
fn a_variable_taking_its_input_reads_the_input_until_written() {
    let text = r#"{"fbd": 5,
      "inputs": [{"name": "x", "type": "BOOL"}, {"name": "w", "type": "BOOL"}],
      "variables": [{"name": "x", "type": "BOOL", "input": true}, {"name": "before", "type": "BOOL"},
                    {"name": "after", "type": "BOOL"}],
      "outputs": [{"name": "before", "type": "BOOL", "from": "before"}, {"name": "after", "type": "BOOL", "from": "after"},
                  {"name": "x_out", "type": "BOOL", "from": "x"}],
      "ladder": [
        {"id": "c1", "kind": "contact", "var": "x", "from": ["rail"]},
        {"id": "k1", "kind": "coil", "var": "before", "from": ["c1"]},
        {"id": "c2", "kind": "contact", "var": "w", "from": ["rail"]},
        {"id": "k2", "kind": "coil", "var": "x", "modifier": "set", "from": ["c2"]},
        {"id": "c3", "kind": "contact", "var": "x", "from": ["rail"]},
        {"id": "k3", "kind": "coil", "var": "after", "from": ["c3"]}
      ]}"#;
    let x = [false, false, true, false];
    let w = [false, true, false, false];
    let got = run(text, &[("x", &x), ("w", &w)], &["before", "after", "x_out"]);
    assert_eq!(got, [[0, 0, 0], [0, 1, 1], [1, 1, 1], [0, 0, 0]].map(|r| r.to_vec()).to_vec());
}
