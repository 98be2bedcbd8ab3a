//! Structured Text bodies (format version 6), run as matiec runs them: statements in order, a
//! read sees the last write before it or the previous scan's value, IF/ELSIF/CASE take one
//! branch, an instance not called keeps its state. (Against Beremiz + matiec themselves:
//! tools/plcopen/st-check.sh, docs/st.md.)

use fbd_engine::{Runtime, Value, compile};

use crate::harness::plan;

fn run(text: &str, inputs: &[(&str, &[i64])], outs: &[&str]) -> Vec<Vec<i64>> {
    let mut rt = Runtime::new(plan(text));
    let scans = inputs.first().map_or(0, |(_, v)| v.len());
    let mut got = Vec::new();
    for k in 0..scans {
        for (name, values) in inputs {
            let ty = rt.plan().input(name).expect(name).ty;
            let v = if ty == fbd_engine::Type::Bool { Value::Bool(values[k] != 0) } else { ty.int_value(values[k]) };
            rt.set_input(name, v).expect(name);
        }
        rt.step();
        got.push(
            outs.iter()
                .map(|o| {
                    let v = rt.read(o).expect(o);
                    v.as_i64().unwrap_or_else(|| i64::from(v == Value::Bool(true)))
                })
                .collect(),
        );
    }
    got
}

/// A motor with a seal-in, a start counter and a speed chosen by CASE.
const MOTOR: &str = r#"{"fbd": 6,
  "inputs": [{"name": "start", "type": "BOOL"}, {"name": "stop", "type": "BOOL"}, {"name": "mode", "type": "INT"}],
  "variables": [{"name": "motor", "type": "BOOL"}, {"name": "starts", "type": "INT"}, {"name": "speed", "type": "INT", "init": 7},
                {"name": "was", "type": "BOOL"}],
  "outputs": [{"name": "running", "type": "BOOL", "from": "motor"}, {"name": "count", "type": "INT", "from": "starts"},
              {"name": "rpm", "type": "INT", "from": "speed"}],
  "blocks": [{"id": "edge", "type": "R_TRIG"}],
  "st": [
    "(* seal-in *)",
    "motor := (start OR motor) AND NOT stop;",
    "edge(CLK := motor);",
    "IF edge.Q THEN starts := starts + 1; END_IF;",
    "CASE mode OF",
    "  0: speed := 0;",
    "  1, 2: speed := 100 * mode;",
    "  3..5: speed := 500;",
    "ELSE",
    "  speed := -1;",
    "END_CASE;",
    "was := motor;"
  ]}"#;

#[test]
fn a_seal_in_counter_and_case_run_statement_by_statement() {
    let start = [0, 1, 0, 0, 0, 1, 0];
    let stop = [0, 0, 0, 1, 0, 0, 0];
    let mode = [9, 0, 1, 2, 4, 5, 6];
    let got = run(MOTOR, &[("start", &start), ("stop", &stop), ("mode", &mode)], &["running", "count", "rpm", "was"]);
    let col = |k: usize| got.iter().map(|r| r[k]).collect::<Vec<_>>();
    assert_eq!(col(0), [0, 1, 1, 0, 0, 1, 1]);
    assert_eq!(col(1), [0, 1, 1, 1, 1, 2, 2], "the R_TRIG sees each start once");
    assert_eq!(col(2), [-1, 0, 100, 200, 500, 500, -1]);
    assert_eq!(col(3), col(0), "a variable answers by its name");
}

/// A read before the write sees the previous scan's value; a branch not taken leaves the
/// variable as it was; an instance called only in a branch keeps its state while not called.
const ORDER: &str = r#"{"fbd": 6,
  "inputs": [{"name": "go", "type": "BOOL"}],
  "variables": [{"name": "n", "type": "DINT"}, {"name": "prev", "type": "DINT"}, {"name": "held", "type": "DINT"}],
  "outputs": [{"name": "n", "type": "DINT", "from": "n"}, {"name": "prev", "type": "DINT", "from": "prev"},
              {"name": "held", "type": "DINT", "from": "held"}, {"name": "cv", "type": "INT", "from": "c.cv"}],
  "blocks": [{"id": "c", "type": "CTU"}],
  "st": [
    "prev := n;",
    "n := n + 1;",
    "IF go THEN",
    "  c(CU := n MOD 2 = 0, PV := 100);",
    "  held := n;",
    "END_IF;"
  ]}"#;

#[test]
fn reads_see_the_write_before_them_or_the_previous_scan_and_a_branch_not_taken_keeps_state() {
    let go = [1, 1, 1, 0, 0, 1, 1];
    let got = run(ORDER, &[("go", &go)], &["n", "prev", "held", "cv"]);
    let col = |k: usize| got.iter().map(|r| r[k]).collect::<Vec<_>>();
    assert_eq!(col(0), [1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(col(1), [0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(col(2), [1, 2, 3, 3, 3, 6, 7], "held only where go");
    // CU is n even: TRUE at n=2, FALSE at 3, (not called at 4, 5), TRUE at 6: a rising edge
    // seen at 6 only because the counter was not called while CU was TRUE at 4.
    assert_eq!(col(3), [0, 1, 1, 1, 1, 2, 2]);
}

#[test]
fn errors_are_at_their_line_and_column_all_at_once_with_a_did_you_mean() {
    let text = r#"{"fbd": 6,
  "variables": [{"name": "speed", "type": "INT"}],
  "blocks": [{"id": "t1", "type": "TON"}],
  "st": [
    "sped := 1;",
    "t1(IN := TRUE, PX := T#1s);",
    "WHILE speed DO speed := 2; END_WHILE;",
    "speed := t1.QQ; EXIT;"
  ]}"#;
    let err = compile(text).expect_err("refused");
    let msgs: Vec<String> = err.0.iter().map(|d| d.to_string()).collect();
    let all = msgs.join("\n");
    assert!(all.contains("ST 1:1: unknown name `sped` (did you mean `speed`?)"), "{all}");
    assert!(all.contains("ST 2:16: `PX` is no input of TON"), "{all}");
    assert!(all.contains("ST 3:7: a condition is a BOOL, this is an INT"), "{all}");
    assert!(all.contains("ST 4:10: `t1.QQ`: TON has no output `QQ`"), "{all}");
    assert!(all.contains("ST 4:17: EXIT is outside a loop"), "{all}");
    // Each at the line of the file that holds the ST line.
    let lines: Vec<Option<usize>> = err.0.iter().map(|d| d.line).collect();
    assert_eq!(lines, [Some(5), Some(6), Some(7), Some(8), Some(8)], "{all}");
}

#[test]
fn a_syntax_error_names_what_was_expected() {
    let text =
        r#"{"fbd": 6, "variables": [{"name": "x", "type": "INT"}], "st": ["x := 1", "IF x THEN x := 2 END_IF;"]}"#;
    let err = compile(text).expect_err("refused");
    let all: Vec<String> = err.0.iter().map(|d| d.message.clone()).collect();
    assert!(all.iter().any(|m| m.starts_with("ST 2:1: expected `;`")), "{all:?}");
    assert!(all.iter().any(|m| m.starts_with("ST 2:18: expected `;`")), "{all:?}");
}

/// A RETURN ends the body's scan: nothing after it runs, an instance after it is not called.
const RETURNS: &str = r#"{"fbd": 6,
  "inputs": [{"name": "stop", "type": "BOOL"}, {"name": "go", "type": "BOOL"}],
  "variables": [{"name": "n", "type": "INT"}, {"name": "after", "type": "INT"}],
  "outputs": [{"name": "n", "type": "INT", "from": "n"}, {"name": "after", "type": "INT", "from": "after"},
              {"name": "cv", "type": "INT", "from": "c.cv"}],
  "blocks": [{"id": "c", "type": "CTU"}],
  "st": [
    "n := n + 1;",
    "IF stop THEN",
    "  IF n > 100 THEN n := 0; END_IF;",
    "  RETURN;",
    "  n := 999;",
    "END_IF;",
    "after := n;",
    "c(CU := go, PV := 10);"
  ]}"#;

#[test]
fn a_return_skips_the_statements_and_calls_after_it() {
    let stop = [0, 1, 1, 0, 0, 1, 0];
    let go = [0, 1, 0, 1, 0, 1, 0];
    let got = run(RETURNS, &[("stop", &stop), ("go", &go)], &["n", "after", "cv"]);
    let col = |k: usize| got.iter().map(|r| r[k]).collect::<Vec<_>>();
    assert_eq!(col(0), [1, 2, 3, 4, 5, 6, 7], "the statements before the RETURN ran, never the one after it");
    assert_eq!(col(1), [1, 1, 1, 4, 5, 5, 7], "after the IF only where no RETURN ran");
    // go rises at scans 1, 3 and 5; the counter is called at 0, 3, 4, 6 only: it sees a rise
    // at 3 (FALSE at its call in scan 0), none at 5 (not called).
    assert_eq!(col(2), [0, 0, 0, 1, 1, 1, 1]);
}

/// An instance's input written by a statement (`t.IN := x`, CODESYS's style) is a member the
/// instance keeps between scans: a call that does not give it reads it, one that gives it sets
/// it. (The same program against Beremiz + matiec: 400 driven scans, 0 differences.)
const MEMBERS: &str = r#"{"fbd": 6,
  "inputs": [{"name": "go", "type": "BOOL"}, {"name": "halt", "type": "BOOL"}, {"name": "pulse", "type": "BOOL"}],
  "variables": [{"name": "n", "type": "INT"}, {"name": "held", "type": "BOOL"}],
  "outputs": [{"name": "n", "type": "INT", "from": "n"}, {"name": "held", "type": "BOOL", "from": "held"}],
  "blocks": [{"id": "c", "type": "CTU"}],
  "st": [
    "c.PV := 100;",
    "IF go THEN c.CU := pulse; END_IF;",
    "IF halt THEN c.CU := FALSE; END_IF;",
    "c();",
    "n := c.CV;",
    "held := c.CU;"
  ]}"#;

#[test]
fn an_instance_input_written_by_a_statement_is_kept_between_scans() {
    // CU follows `pulse` only while `go`; otherwise it keeps what it was last given.
    let go = [1, 1, 1, 1, 0, 0, 0, 1, 1];
    let halt = [0, 0, 0, 0, 0, 0, 1, 0, 0];
    let pulse = [1, 0, 1, 1, 0, 1, 0, 1, 0];
    let got = run(MEMBERS, &[("go", &go), ("halt", &halt), ("pulse", &pulse)], &["n", "held"]);
    let col = |k: usize| got.iter().map(|r| r[k]).collect::<Vec<_>>();
    assert_eq!(col(1), [1, 0, 1, 1, 1, 1, 0, 1, 0], "CU kept while go is FALSE, cleared by halt");
    assert_eq!(col(0), [1, 1, 2, 2, 2, 2, 2, 3, 3], "the counter counts the rises of the kept CU");
}

/// WHILE, REPEAT and FOR (matiec's) with EXIT, as C runs them: a sum, a doubling stopped by
/// EXIT, a REPEAT that runs once before its test, FOR's end read again each time and its
/// first iteration already testing `i + step`.
#[test]
fn loops_run_as_matiec_runs_them() {
    let text = r#"{"fbd": 6,
  "inputs": [{"name": "n", "type": "INT"}],
  "variables": [{"name": "i", "type": "INT"}, {"name": "s", "type": "INT"}, {"name": "w", "type": "DINT"},
                {"name": "k", "type": "INT"}, {"name": "m", "type": "INT"}, {"name": "e", "type": "INT"}, {"name": "t", "type": "INT"}],
  "outputs": [{"name": "sum", "type": "INT", "from": "s"}, {"name": "last", "type": "INT", "from": "i"},
              {"name": "ww", "type": "DINT", "from": "w"}, {"name": "kk", "type": "INT", "from": "k"},
              {"name": "mm", "type": "INT", "from": "m"}, {"name": "ee", "type": "INT", "from": "e"}, {"name": "tt", "type": "INT", "from": "t"}],
  "st": [
    "s := 0;",
    "FOR i := 1 TO n DO s := s + i; END_FOR;",
    "w := 0;",
    "WHILE w < 1000 DO w := w * 2 + 1; IF w > 100 THEN EXIT; END_IF; END_WHILE;",
    "k := 100;",
    "REPEAT k := k + 3; UNTIL k > 10 END_REPEAT;",
    "m := 0; e := 5;",
    "FOR t := 1 TO e BY 2 DO m := m + t; e := e - 1; END_FOR;"
  ]}"#;
    let got = run(text, &[("n", &[5, 1, 0, 3])], &["sum", "last", "ww", "kk", "mm", "ee", "tt"]);
    // n = 5: 1..5; n = 1: matiec's `i < 1` fails at once, so `FOR i := 1 TO 1` runs no
    // iteration (IEC and CODESYS run one; docs/st.md); FOR t: its end read again each time,
    // `t + 2 <= e`: 3 <= 5 runs t = 1 (e 4), 3 <= 4 runs t = 3 (e 3), 5 <= 3 stops.
    assert_eq!(got[0], [15, 5, 127, 103, 4, 3, 3]);
    assert_eq!(got[1], [0, 1, 127, 103, 4, 3, 3]);
    assert_eq!(got[2], [0, 1, 127, 103, 4, 3, 3]);
    assert_eq!(got[3], [6, 3, 127, 103, 4, 3, 3]);
}

/// A loop that never ends stops the task with a watchdog fault naming its place in the text,
/// at the scan it ran in; no scan runs after it until a reset.
#[test]
fn an_endless_while_stops_the_task_with_a_watchdog_fault_at_its_line() {
    let text = r#"{"fbd": 6, "watchdog_ms": 2,
  "inputs": [{"name": "go", "type": "BOOL"}],
  "variables": [{"name": "c", "type": "DINT"}, {"name": "x", "type": "DINT"}],
  "outputs": [{"name": "count", "type": "DINT", "from": "c"}],
  "st": [
    "c := c + 1;",
    "IF go THEN",
    "  WHILE TRUE DO x := x + 1; END_WHILE;",
    "END_IF;"
  ]}"#;
    let plan = plan(text);
    assert_eq!(plan.loop_budget, 2_000 * fbd_engine::plan::INSTRUCTIONS_PER_US);
    let mut rt = Runtime::new(plan);
    rt.step_n(3);
    assert!(rt.halted().is_none());
    rt.set_input("go", Value::Bool(true)).expect("go");
    rt.step();
    let fault = rt.halted().expect("the watchdog stopped the task");
    assert_eq!((fault.scan, fault.kind), (3, fbd_engine::exec::FaultKind::Watchdog));
    let why = rt.halt_message().expect("a message");
    assert!(why.contains("the WHILE at ST 3:3 ran past the watchdog (2 ms"), "{why}");
    // Stopped: scans ask for nothing more.
    rt.step_n(5);
    assert_eq!(rt.scan_count(), 3);
    assert_eq!(rt.image().halt_message().as_deref(), Some(why.as_str()));
    rt.reset();
    assert!(rt.halted().is_none());
    rt.step();
    assert_eq!(rt.read("count").expect("count"), Value::Int(1));
}

/// The loop variables take the iteration's values as one: a variable set to another loop
/// variable's value (or to the FOR's counter) gets the value it had in the iteration, not the
/// one the copy back (or the step) gives the other.
#[test]
fn loop_variables_take_the_iteration_s_values_together() {
    let text = r#"{"fbd": 6,
  "variables": [{"name": "k", "type": "INT"}, {"name": "n0", "type": "INT"}, {"name": "n1", "type": "INT", "init": 7},
                {"name": "m", "type": "INT"}, {"name": "p", "type": "INT"}, {"name": "a", "type": "INT"}, {"name": "b", "type": "INT", "init": 1},
                {"name": "t", "type": "INT"}],
  "outputs": [{"name": "n", "type": "INT", "from": "n1"}, {"name": "mm", "type": "INT", "from": "m"},
              {"name": "pp", "type": "INT", "from": "p"}, {"name": "bb", "type": "INT", "from": "b"}],
  "st": [
    "n0 := 0; n1 := 7;",
    "FOR k := -2 TO 3 BY 1 DO n1 := n1 + n0; n0 := k; END_FOR;",
    "m := 0; p := 0;",
    "FOR k := 1 TO 3 DO m := p; p := m + 1; END_FOR;",
    "a := 0; b := 1;",
    "WHILE a < 100 DO t := a; a := b; b := t + b; END_WHILE;"
  ]}"#;
    let mut rt = Runtime::new(plan(text));
    rt.step();
    let out = |o: &str| rt.read(o).expect(o).as_i64().expect("an integer");
    // n1: 7 + 0 - 2 - 1 + 0 + 1 + 2 = 7; m, p: (0,1), (1,2), (2,3); a, b: Fibonacci.
    assert_eq!([out("n"), out("mm"), out("pp"), out("bb")], [7, 2, 3, 233]);
}

/// An instance called in two branches of an IF (or a CASE), each giving its own inputs: the
/// branch that runs calls it (one call a scan); an input one call gives and the other does
/// not keeps what it was last given. (Only the last branch's call was kept: the counter never
/// counted while the THEN branch ran.)
#[test]
fn an_instance_called_in_two_branches_is_called_by_the_one_that_runs() {
    let text = r#"{"fbd": 6,
  "inputs": [{"name": "c", "type": "BOOL"}],
  "variables": [{"name": "v", "type": "INT"}, {"name": "q", "type": "BOOL"}],
  "blocks": [{"id": "k", "type": "CTU", "data_type": "INT"}],
  "outputs": [{"name": "cv", "type": "INT", "from": "v"}, {"name": "done", "type": "BOOL", "from": "q"}],
  "st": [
    "IF c THEN k(CU := TRUE, PV := 2); ELSE k(CU := FALSE, Q => q); END_IF;",
    "v := k.CV;"
  ]}"#;
    let got = run(text, &[("c", &[1, 0, 1, 0, 1, 0])], &["cv", "done"]);
    // A rising CU in every THEN scan; the ELSE call keeps PV = 2 (given by the THEN call).
    assert_eq!(got.iter().map(|r| r[0]).collect::<Vec<_>>(), [1, 1, 2, 2, 2, 2]);
    // Q => q where the ELSE call ran (Q is CV >= PV = 2 from scan 2 on); q keeps it after.
    assert_eq!(got.iter().map(|r| r[1]).collect::<Vec<_>>(), [0, 0, 0, 1, 1, 1]);
}

/// A loop variable's next value computed outside the loop (an instance's output, a value from
/// before the loop) is copied back after the block that computes it has run this scan. (The
/// loop was free to run before the instance: the copy back read the previous scan's count.)
#[test]
fn a_loop_variable_set_from_outside_the_loop_reads_this_scan_s_value() {
    let text = r#"{"fbd": 6,
  "inputs": [{"name": "c", "type": "BOOL"}],
  "variables": [{"name": "m", "type": "INT"}, {"name": "k", "type": "INT"}],
  "blocks": [{"id": "n", "type": "CTU", "data_type": "INT"}],
  "outputs": [{"name": "mm", "type": "INT", "from": "m"}],
  "st": [
    "IF c THEN",
    "  n(CU := TRUE, PV := 100);",
    "  k := 0;",
    "  WHILE k < 2 DO m := n.CV; k := k + 1; END_WHILE;",
    "ELSE",
    "  n(CU := FALSE);",
    "END_IF;"
  ]}"#;
    let got = run(text, &[("c", &[1, 0, 1, 0])], &["mm"]);
    // (The ELSE's call is made after the loop: the instance waits for it.)
    assert_eq!(got.iter().map(|r| r[0]).collect::<Vec<_>>(), [1, 1, 2, 2]);
}

/// An instance called again in the scan shares its state with its first call, as matiec's one
/// instance does: a timer restarted when it elapses (Beremiz's BACnet test project), an edge
/// detector whose second call resets what the first saw; a variable that took the first
/// call's output keeps it, and a branch whose condition read it runs as it was decided.
#[test]
fn an_instance_called_again_keeps_one_state_and_each_call_s_outputs() {
    let text = r#"{"fbd": 7, "inputs": [{"name": "a", "type": "BOOL"}, {"name": "b", "type": "BOOL"}],
 "variables": [{"name": "x", "type": "BOOL"}, {"name": "y", "type": "BOOL"}, {"name": "z", "type": "BOOL"},
               {"name": "et", "type": "TIME"}, {"name": "n", "type": "INT"}],
 "blocks": [{"id": "e", "type": "R_TRIG"}, {"id": "t", "type": "TON"}, {"id": "c", "type": "CTU", "data_type": "INT"}],
 "st": ["e(CLK := a); x := e.Q; e(CLK := FALSE); y := x; z := e.Q;",
        "t(IN := TRUE, PT := T#15ms); IF t.Q THEN t(IN := FALSE); END_IF; et := t.ET;",
        "IF b THEN c(CU := FALSE, R := FALSE); END_IF;",
        "IF c.Q THEN c(CU := TRUE, R := NOT a, PV := 3); END_IF;",
        "n := c.CV;"]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut seen = Vec::new();
    for (a, b) in [(true, false), (true, true), (false, true), (true, true), (true, true), (true, true), (true, true)] {
        rt.set_input("a", Value::Bool(a)).unwrap();
        rt.set_input("b", Value::Bool(b)).unwrap();
        rt.step();
        let get = |n: &str| rt.read(n).unwrap();
        let ms = match get("et") {
            Value::Time(ns) => ns / 1_000_000,
            v => panic!("{v}"),
        };
        seen.push((
            get("x") == Value::Bool(true),
            get("y") == Value::Bool(true),
            get("z") == Value::Bool(true),
            ms,
            get("n").as_i64().unwrap(),
        ));
    }
    // The edge: each scan's first call sees CLK rise (the second call left it FALSE); `y`
    // keeps `x`, the first call's output, `z` is the second's. The timer: 0, 5, 10, then 15 ms
    // elapsed, restarted by the second call, and counting again from the next scan. The
    // counter: scan 0 calls it not at all (c.Q FALSE); scan 1 its first call, with PV 0 (no
    // call gave it yet), leaves Q TRUE, so the second runs and counts (PV 3 given); from then
    // on the first call keeps that PV (a member) and Q stays FALSE: counted once.
    assert_eq!(
        seen,
        [
            (true, true, false, 0, 0),
            (true, true, false, 5, 1),
            (false, false, false, 10, 1),
            (true, true, false, 0, 1),
            (true, true, false, 0, 1),
            (true, true, false, 5, 1),
            (true, true, false, 10, 1),
        ]
    );
}

/// A function block of the project called twice in a scan is refused at the second call (its
/// body's state cannot be shared yet), naming why.
#[test]
fn a_project_function_block_called_twice_is_refused_at_the_second_call() {
    let text = r#"{"fbd": 7,
  "macros": [{"name": "ACC", "inputs": [{"name": "x", "type": "INT"}], "outputs": [{"name": "y", "type": "INT", "from": "s"}],
              "blocks": [], "variables": [{"name": "s", "type": "INT"}], "st": ["s := s + x;"]}],
  "variables": [{"name": "n", "type": "INT"}],
  "blocks": [{"id": "acc", "type": "ACC"}],
  "st": ["acc(x := 1);", "acc(x := 2);", "n := acc.y;"]}"#;
    let err = compile(text).expect_err("refused").to_string();
    assert!(
        err.contains("ST 2:1: `acc` (ACC, a function block of the project) is called a second time in the scan"),
        "{err}"
    );
}

/// Two instances called in two branches in opposite orders, each reading the other's output
/// (a program fbd refused as a loop when an instance's calls were one block): each call is a
/// block of its own, so each branch runs in its own order.
#[test]
fn two_instances_called_in_opposite_orders_in_two_branches_run_as_written() {
    let text = r#"{"fbd": 7, "inputs": [{"name": "a", "type": "BOOL"}, {"name": "b", "type": "BOOL"}],
 "variables": [{"name": "x", "type": "BOOL"}, {"name": "y", "type": "BOOL"}],
 "blocks": [{"id": "e", "type": "R_TRIG"}, {"id": "f", "type": "R_TRIG"}],
 "st": ["IF a THEN e(CLK := b); f(CLK := e.Q); ELSE f(CLK := b); e(CLK := f.Q); END_IF;",
        "x := e.Q; y := f.Q;"]}"#;
    let got = run(text, &[("a", &[1, 1, 1, 0, 0, 0]), ("b", &[1, 1, 0, 1, 0, 1])], &["x", "y"]);
    // THEN: e sees b rise (scan 0) and f sees e.Q rise the same scan; ELSE (scan 3): f sees b
    // rise, e sees f.Q rise; scan 5: b rises again after a FALSE scan.
    assert_eq!(got, [[1, 1], [0, 0], [0, 0], [1, 1], [0, 0], [1, 1]]);
}
