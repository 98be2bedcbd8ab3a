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
            {{"name": "et", "type": "TIME", "from": "ton1.et"}},
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
    let id = |path: &str| rt.plan().signal_id(path).expect("a signal") as u32;
    assert!(rt.plan().is_negated_pin(id("n.in")) && !rt.plan().is_negated_pin(id("n.out")));
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
        {\"id\": \"b\", \"type\": \"NOT\", \"inputs\": {\"in\": true}, \"negated\": [\"q\"]},\n\
        {\"id\": \"c\", \"type\": \"OR\", \"inputs\": {\"in1\": true, \"in2\": true}, \"negated\": [\"in1\", \"in1\"]},\n\
        {\"id\": \"d\", \"type\": \"M\", \"inputs\": {\"x\": true}, \"negated\": [\"zz\"]}\n\
      ]}";
    let e = fbd_engine::compile(text).expect_err("four mistakes");
    let shown = e.to_string();
    let expect = [
        (4, "a", "in3", "AND has no pin `in3` to negate"),
        (5, "b", "q", "NOT has no pin `q` to negate"),
        (6, "c", "in1", "pin `in1` is negated twice (first at negated[0])"),
        (7, "d", "zz", "macro `M` has no port `zz` to negate"),
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
    assert!(d.message.contains("pin `in1` of ADD `s` is LINT: only a BOOL input can be negated"), "{d}");
    assert_eq!((d.line, d.pin.as_deref()), (Some(3), Some("in1")), "{d}");
}

/// A negated output: every reader, the program output and the debugger get the inverse of
/// what the block computes, while the block's own state (SR's latch, MEMORY's q that `prev`
/// repeats) stays the value before the circle: the same as a NOT after the block.
#[test]
fn a_negated_output_computes_what_a_not_after_it_does() {
    let outputs = r#""outputs": [
        {"name": "sr", "type": "BOOL", "from": "sr1.q1"},
        {"name": "reads", "type": "BOOL", "from": "and1.out"},
        {"name": "sel2", "type": "BOOL", "from": "pick.q2"},
        {"name": "mq", "type": "BOOL", "from": "m.q"},
        {"name": "mprev", "type": "BOOL", "from": "m.prev"}
      ]"#;
    let head = r#"{"fbd": 1, "inputs": [{"name": "a", "type": "BOOL"}, {"name": "c", "type": "BOOL"}, {"name": "k", "type": "INT"}],"#;
    let negated = format!(
        r#"{head} {outputs}, "blocks": [
        {{"id": "sr1", "type": "SR", "inputs": {{"s1": "a", "r": "c"}}, "negated": ["q1"]}},
        {{"id": "and1", "type": "AND", "inputs": {{"in1": "sr1.q1", "in2": "pick.q2"}}, "negated": ["out"]}},
        {{"id": "pick", "type": "SELECTOR", "inputs": {{"sel": "k"}}, "params": {{"n": 3}}, "negated": ["q2"]}},
        {{"id": "m", "type": "MEMORY", "inputs": {{"in": "a", "en": "c"}}, "params": {{"init": true}}, "negated": ["q"]}}
      ]}}"#
    );
    let explicit = format!(
        r#"{head} "outputs": [
        {{"name": "sr", "type": "BOOL", "from": "n_sr.out"}},
        {{"name": "reads", "type": "BOOL", "from": "n_and.out"}},
        {{"name": "sel2", "type": "BOOL", "from": "n_pick.out"}},
        {{"name": "mq", "type": "BOOL", "from": "n_m.out"}},
        {{"name": "mprev", "type": "BOOL", "from": "m.prev"}}
      ], "blocks": [
        {{"id": "sr1", "type": "SR", "inputs": {{"s1": "a", "r": "c"}}}},
        {{"id": "n_sr", "type": "NOT", "inputs": {{"in": "sr1.q1"}}}},
        {{"id": "and1", "type": "AND", "inputs": {{"in1": "n_sr.out", "in2": "n_pick.out"}}}},
        {{"id": "n_and", "type": "NOT", "inputs": {{"in": "and1.out"}}}},
        {{"id": "pick", "type": "SELECTOR", "inputs": {{"sel": "k"}}, "params": {{"n": 3}}}},
        {{"id": "n_pick", "type": "NOT", "inputs": {{"in": "pick.q2"}}}},
        {{"id": "m", "type": "MEMORY", "inputs": {{"in": "a", "en": "c"}}, "params": {{"init": true}}}},
        {{"id": "n_m", "type": "NOT", "inputs": {{"in": "m.q"}}}}
      ]}}"#
    );
    let run = |text: &str| {
        let mut rt = Runtime::new(plan(text));
        let mut rows = vec![rt.outputs().to_vec()];
        for k in 0..40i64 {
            rt.write("a", b(k % 5 < 2)).expect("a");
            rt.write("c", b(k % 7 == 3)).expect("c");
            rt.write("k", Value::Int(k % 4)).expect("k");
            rt.step();
            rows.push(rt.outputs().to_vec());
        }
        rows
    };
    let (got, want) = (run(&negated), run(&explicit));
    // From the first scan on (before it, the NOT blocks have computed nothing yet).
    assert_eq!(got[1..], want[1..]);
    assert!(got.iter().any(|r| r[0] == b(true)) && got.iter().any(|r| r[0] == b(false)), "the latch moved");
    // Before the first scan a negated output already shows the inverse of its initial value.
    assert_eq!(got[0][3], b(false), "MEMORY init TRUE, q negated");
    // A force on a negated output holds the block's own output (`sr1.q1` names it, before the
    // circle, as Beremiz's and CODESYS's debuggers show an instance's Q); its readers get the
    // inverse.
    let mut rt = Runtime::new(plan(&negated));
    rt.force("sr1.q1", b(false)).expect("force");
    rt.write("a", b(true)).expect("a");
    rt.step_n(3);
    assert_eq!(rt.read("sr1.q1").expect("the signal"), b(false), "forced");
    assert_eq!(rt.output("sr"), Some(b(true)), "its reader gets the inverse");
    // and1 reads TRUE through the circle: NOT (TRUE AND NOT q2 (FALSE at k = 0)) is FALSE;
    // unforced, the latch set by `a` reads FALSE through its circle and and1 gives TRUE.
    assert_eq!(rt.output("reads"), Some(b(false)), "the reader sees the inverse of the forced value");
    rt.release("sr1.q1");
    rt.step();
    assert_eq!((rt.output("sr"), rt.output("reads")), (Some(b(false)), Some(b(true))));
    assert_eq!(rt.read("sr1.q1").expect("the signal"), b(true), "the latch, set");
}

#[test]
fn outputs_that_cannot_be_negated_are_reported() {
    let text = "{\"fbd\": 1, \"inputs\": [{\"name\": \"k\", \"type\": \"INT\"}],\n \"blocks\": [\n\
        {\"id\": \"m\", \"type\": \"MEMORY\", \"inputs\": {\"in\": true, \"en\": true}, \"negated\": [\"prev\"]},\n\
        {\"id\": \"s\", \"type\": \"SELECTOR\", \"inputs\": {\"sel\": \"k\"}, \"params\": {\"n\": 2}, \"negated\": [\"q3\"]}\n]}";
    let e = fbd_engine::compile(text).expect_err("two mistakes");
    assert_eq!(e.0.len(), 2, "{e}");
    assert!(e.0[0].message.contains("`prev` of MEMORY carries the previous scan's value: it cannot be negated"), "{e}");
    assert_eq!((e.0[0].line, e.0[0].pin.as_deref()), (Some(3), Some("prev")));
    assert!(e.0[1].message.contains("SELECTOR has no pin `q3` to negate"), "{e}");
    let text = "{\"fbd\": 1, \"inputs\": [{\"name\": \"k\", \"type\": \"INT\"}],\n \"blocks\": [\n\
        {\"id\": \"s\", \"type\": \"ADD\", \"inputs\": {\"in1\": \"k\", \"in2\": 1}, \"negated\": [\"out\"]}\n]}";
    let e = fbd_engine::compile(text).expect_err("an INT output");
    assert!(e.first().message.contains("output `out` of ADD `s` is LINT: only a BOOL output can be negated"), "{e}");
    assert_eq!((e.first().line, e.first().pin.as_deref()), (Some(3), Some("out")), "{e}");
}

/// A DELAY copies its input at the end of the scan, so it had no place in the scan's order;
/// its negated input's NOT stood wherever the DELAY fell (two DELAYs are scheduled before the
/// lone MOVE: the larger family first), before the block that feeds it, and negated last
/// scan's value (found by the differential test).
#[test]
fn a_delay_negates_this_scans_value_of_a_block_that_runs_after_it_in_the_file() {
    let text = r#"{"fbd": 1, "inputs": [{"name": "a", "type": "BOOL"}],
      "outputs": [{"name": "z", "type": "BOOL", "from": "z.q"}, {"name": "z2", "type": "BOOL", "from": "z2.q"}],
      "blocks": [{"id": "z", "type": "DELAY", "inputs": {"in": "m.out"}, "negated": ["in"]},
                 {"id": "z2", "type": "DELAY", "inputs": {"in": "m.out"}, "negated": ["in"]},
                 {"id": "m", "type": "MOVE", "inputs": {"in": "a"}}]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut seen = Vec::new();
    for k in 0..6 {
        rt.write("a", b(k % 2 == 0)).expect("a");
        rt.step();
        seen.push(rt.output("z").expect("z"));
        assert_eq!(rt.output("z2"), rt.output("z"));
    }
    // z is NOT a of the scan before: a = T, F, T, … so z = (init) F, F, T, F, T, F.
    assert_eq!(seen, vec![b(false), b(false), b(true), b(false), b(true), b(false)]);
}

/// An online change keeps a latch whose output is negated: its state is the value before the
/// circle, and that is what moves to the new plan (the pin's slot is recomputed from it).
#[test]
fn an_online_change_keeps_the_state_behind_a_negated_output() {
    let text = |negated: &str| {
        format!(
            r#"{{"fbd": 1, "inputs": [{{"name": "s", "type": "BOOL"}}],
              "outputs": [{{"name": "q", "type": "BOOL", "from": "l.q1"}}],
              "blocks": [{{"id": "l", "type": "SR", "inputs": {{"s1": "s", "r": false}}{negated}}}]}}"#
        )
    };
    let mut rt = Runtime::new(plan(&text(r#", "negated": ["q1"]"#)));
    rt.step();
    assert_eq!(rt.output("q"), Some(b(true)), "not set: the inverse of FALSE");
    rt.write("s", b(true)).expect("s");
    rt.step();
    rt.write("s", b(false)).expect("s");
    rt.step();
    assert_eq!(rt.output("q"), Some(b(false)), "set, and held");
    let report = rt.online_change(plan(&text(r#", "negated": ["q1"]"#)));
    assert!(report.kept.iter().any(|p| p == "l"), "{report:?}");
    rt.step();
    assert_eq!(rt.output("q"), Some(b(false)), "still set after the change");
    // The negation taken off by an online change: the kept latch now reads TRUE.
    rt.online_change(plan(&text("")));
    rt.step();
    assert_eq!(rt.output("q"), Some(b(true)));
}

/// A macro instance's pins are negated as a library block's are: the NOT sits at the instance
/// (`p1/a:not`, a name no block can have), every reader inside (an input) or outside (an output)
/// gets the inverse; the pin's signal shows what the inside gets (an input: the body opened in
/// the online view shows its port so) or the instance's own output (an output, as Beremiz's and
/// CODESYS's debuggers show it).
#[test]
fn a_macro_instance_pin_is_negated_like_a_library_blocks() {
    let text = r#"{"fbd": 1, "inputs": [{"name": "x", "type": "BOOL"}],
      "outputs": [{"name": "y1", "type": "BOOL", "from": "p1.q"}, {"name": "y2", "type": "BOOL", "from": "p2.q"},
                  {"name": "y3", "type": "BOOL", "from": "p3.q"}, {"name": "z", "type": "BOOL", "from": "g.out"}],
      "macros": [{"name": "Pass", "inputs": [{"name": "a", "type": "BOOL", "default": false}],
                  "outputs": [{"name": "q", "type": "BOOL", "from": "m.out"}],
                  "blocks": [{"id": "m", "type": "MOVE", "inputs": {"in": "a"}}]}],
      "blocks": [
        {"id": "p1", "type": "Pass", "inputs": {"a": "x"}, "negated": ["a"]},
        {"id": "p2", "type": "Pass", "inputs": {"a": "x"}, "negated": ["q"]},
        {"id": "p3", "type": "Pass", "negated": ["a"]},
        {"id": "g", "type": "AND", "inputs": {"in1": "p2.q", "in2": true}}
      ]}"#;
    let mut rt = Runtime::new(plan(text));
    for x in [false, true, false] {
        rt.write("x", b(x)).expect("x");
        rt.step();
        let got: Vec<Value> = ["y1", "y2", "y3", "z"].iter().map(|n| rt.output(n).expect("output")).collect();
        assert_eq!(got, vec![b(!x), b(!x), b(true), b(!x)], "x = {x}");
        assert_eq!(rt.read("p1.a").expect("pin"), b(!x), "an input port shows what the inside gets");
        assert_eq!(rt.read("p1/m.in").expect("inside"), b(!x), "inside, the inverse");
        assert_eq!(rt.read("p2.q").expect("pin"), b(x), "an output pin shows the instance's own output");
        assert_eq!(rt.read("p1/a:not.out").expect("the NOT"), b(!x));
    }
    assert!(rt.plan().blocks.iter().any(|b| b.path == "p1/a:not" && b.type_name == "NOT"));
    let negated = |p: &str| rt.plan().is_negated_pin(rt.plan().signal_id(p).expect("a signal") as u32);
    assert!(negated("p1.a") && negated("p2.q") && !negated("p1.q") && !negated("p2.a"), "the debugger's marks");
}

#[test]
fn wrong_negations_of_macro_pins_are_reported_once_each() {
    let text = "{\"fbd\": 1, \"inputs\": [{\"name\": \"k\", \"type\": \"INT\"}],\n\
      \"macros\": [{\"name\": \"M\", \"inputs\": [{\"name\": \"a\", \"type\": \"BOOL\"}, {\"name\": \"n\", \"type\": \"INT\"}],\n\
        \"outputs\": [], \"blocks\": []}],\n\
      \"blocks\": [\n\
        {\"id\": \"i1\", \"type\": \"M\", \"inputs\": {\"a\": true, \"n\": 1}, \"negated\": [\"zz\", \"n\", \"a\", \"a\"]},\n\
        {\"id\": \"i2\", \"type\": \"M\", \"inputs\": {\"a\": \"k\", \"n\": 1}, \"negated\": [\"a\"]}\n\
      ]}";
    let e = fbd_engine::compile(text).expect_err("mistakes");
    let msgs: Vec<&str> = e.0.iter().map(|d| d.message.as_str()).collect();
    assert!(msgs.iter().any(|m| m.contains("macro `M` has no port `zz` to negate")), "{e}");
    assert!(msgs.iter().any(|m| m.contains("port `n` of macro `M` is LINT: only a BOOL pin can be negated")), "{e}");
    assert!(msgs.iter().any(|m| m.contains("pin `a` is negated twice (first at negated[2])")), "{e}");
    assert!(e.0.iter().all(|d| d.line == Some(5)), "all on i1's line: {e}");
    // An INT wired to a negated BOOL port: one error, at the instance's pin (not a second one
    // at the NOT that negates it).
    let text = text.replace("\"negated\": [\"zz\", \"n\", \"a\", \"a\"]", "\"negated\": []");
    let e = fbd_engine::compile(&text).expect_err("an INT on a BOOL port");
    assert_eq!(e.0.len(), 1, "{e}");
    assert_eq!(e.first().line, Some(6), "{e}");
    assert!(
        e.first().message.contains("input `a` of macro `M` (instance `i2`) expects BOOL, but input `k` is LINT"),
        "{e}"
    );
}

/// A gate reads a negated input through its truth table: no NOT instruction is left for it
/// (the plan is as long as without the negation); a block that is no gate keeps its NOT.
#[test]
fn a_negation_costs_a_gate_no_instruction() {
    let text = |negated: &str| {
        format!(
            r#"{{"fbd": 1, "inputs": [{{"name": "a", "type": "BOOL"}}, {{"name": "c", "type": "BOOL"}}],
              "outputs": [{{"name": "y", "type": "BOOL", "from": "g.out"}}, {{"name": "e", "type": "BOOL", "from": "q.out"}},
                          {{"name": "l", "type": "BOOL", "from": "s.q1"}}, {{"name": "t", "type": "BOOL", "from": "t.q"}}],
              "blocks": [{{"id": "g", "type": "AND", "inputs": {{"in1": "a", "in2": "c"}}{negated}}},
                         {{"id": "q", "type": "EQ", "inputs": {{"in1": "a", "in2": "c"}}{negated}}},
                         {{"id": "s", "type": "SR", "inputs": {{"s1": "a", "r": "c"}}, "negated": ["r"]}},
                         {{"id": "t", "type": "TON", "inputs": {{"in": "a", "pt": 10}}, "negated": ["in"]}}]}}"#
        )
    };
    let plain = plan(&text(""));
    let negated = plan(&text(r#", "negated": ["in2"]"#));
    assert_eq!(negated.len(), plain.len(), "AND and EQ fold their negations:\n{}", negated.listing());
    // The TON is no gate: its NOT stays (one instruction more than without its negation).
    let no_ton = plan(&text("").replace(r#", "negated": ["in"]"#, ""));
    assert_eq!(plain.len(), no_ton.len() + 1, "{}", plain.listing());
    for (x, y) in [(false, false), (false, true), (true, false), (true, true)] {
        let mut rt = Runtime::new(negated.clone());
        rt.write("a", b(x)).expect("a");
        rt.write("c", b(y)).expect("c");
        rt.step();
        assert_eq!(rt.output("y"), Some(b(x && !y)), "AND(a, NOT c) at {x} {y}");
        assert_eq!(rt.output("e"), Some(b(x != y)), "EQ(a, NOT c) is a XOR c, at {x} {y}");
        assert_eq!(rt.output("l"), Some(b(x)), "SR(s1 = a, r = NOT c) from reset, at {x} {y}");
    }
}

/// A pin named three times is reported twice, both times pointing at its first entry (the
/// third said "first at negated[1]"), on a library block and on a macro instance alike.
#[test]
fn a_pin_negated_three_times_points_at_its_first_entry() {
    let text = "{\"fbd\": 1,\n \"macros\": [{\"name\": \"M\", \"inputs\": [{\"name\": \"a\", \"type\": \"BOOL\", \"default\": false}], \"outputs\": [], \"blocks\": []}],\n \"blocks\": [\n\
        {\"id\": \"g\", \"type\": \"AND\", \"inputs\": {\"in1\": true, \"in2\": true}, \"negated\": [\"in1\", \"in1\", \"in1\"]},\n\
        {\"id\": \"i\", \"type\": \"M\", \"negated\": [\"a\", \"a\", \"a\"]}\n]}";
    let e = fbd_engine::compile(text).expect_err("twice twice");
    assert_eq!(e.0.len(), 4, "{e}");
    assert!(e.0.iter().all(|d| d.message.contains("is negated twice (first at negated[0])")), "{e}");
}

/// A write to a negated stateful output is the block's own state from then on (`a.q1` names
/// the output before the circle), and its readers see the inverse (a write once landed in the
/// pin's slot, which the NOT after the block overwrote every scan: nothing happened).
#[test]
fn a_write_to_a_negated_stateful_output_is_the_blocks_own_and_its_readers_see_the_inverse() {
    let text = r#"{"fbd": 3, "outputs": [{"name": "y", "type": "BOOL", "from": "a.q1"}, {"name": "m", "type": "BOOL", "from": "mem.q"}],
      "blocks": [{"id": "a", "type": "SR", "inputs": {"s1": false, "r": false}, "negated": ["q1"]},
                 {"id": "mem", "type": "MEMORY", "inputs": {"in": false, "en": false}, "negated": ["q"]}]}"#;
    let mut rt = Runtime::new(plan(text));
    rt.step();
    assert_eq!((rt.output("y"), rt.output("m")), (Some(b(true)), Some(b(true))), "inverses of FALSE");
    rt.write("a.q1", b(true)).expect("write");
    rt.write("mem.q", b(true)).expect("write");
    for _ in 0..3 {
        rt.step();
        assert_eq!(
            (rt.output("y"), rt.output("m")),
            (Some(b(false)), Some(b(false))),
            "held: the latch is TRUE behind the circle"
        );
        assert_eq!((rt.read("a.q1").ok(), rt.read("mem.q").ok()), (Some(b(true)), Some(b(true))), "the own outputs");
    }
    rt.write_now("a.q1", b(false)).expect("write now");
    assert_eq!(rt.read("a.q1").ok(), Some(b(false)), "at once");
    rt.step();
    assert_eq!(rt.output("y"), Some(b(true)));
}
