//! EN on any block (IEC 61131-3's enable input): while it is FALSE the block is not called,
//! so a function block's outputs and state keep their values (a function's read its type's
//! initial value); on a macro instance it holds every block inside, nested ENs included.

use fbd_engine::{Runtime, Value, compile};

use crate::harness::plan;

fn b(v: bool) -> Value {
    Value::Bool(v)
}

/// Runs one scan with the BOOL inputs `ins` set, returning the named values.
fn scan(rt: &mut Runtime, ins: &[(&str, bool)], read: &[&str]) -> Vec<Value> {
    for (n, v) in ins {
        rt.set_input(n, b(*v)).unwrap_or_else(|e| panic!("{e}"));
    }
    rt.step();
    read.iter().map(|p| rt.read(p).unwrap_or_else(|e| panic!("{p}: {e}"))).collect()
}

fn ms(n: i64) -> Value {
    Value::Time(n * 1_000_000)
}

#[test]
fn a_timer_under_a_false_en_is_not_called_and_reads_the_clock_when_called_again() {
    // 10 ms scans, PT 50 ms: started at scan 0, held at scans 2..4, called again at scan 5
    // (50 ms after its start: elapsed), as matiec's TON computes ET from its start time.
    let text = r#"{"fbd": 1, "cycle_ms": 10,
        "inputs": [{"name": "go", "type": "BOOL"}, {"name": "en", "type": "BOOL"}],
        "blocks": [{"id": "t", "type": "TON", "inputs": {"in": "go", "pt": "T#50ms", "EN": "en"}}],
        "outputs": [{"name": "q", "type": "BOOL", "from": "t.q"}]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut got = Vec::new();
    for (k, en) in [true, true, false, false, false, true, true].into_iter().enumerate() {
        let v = scan(&mut rt, &[("go", true), ("en", en)], &["t.q", "t.et"]);
        got.push((k, v[0], v[1]));
    }
    let want = [
        (0, b(false), ms(0)),
        (1, b(false), ms(10)),
        (2, b(false), ms(10)),
        (3, b(false), ms(10)),
        (4, b(false), ms(10)),
        (5, b(true), ms(50)),
        (6, b(true), ms(50)),
    ];
    assert_eq!(got, want);
}

#[test]
fn a_counter_under_en_holds_and_a_function_under_en_returns_zero() {
    let text = r#"{"fbd": 1,
        "inputs": [{"name": "pulse", "type": "BOOL"}, {"name": "en", "type": "BOOL"}, {"name": "x", "type": "INT"}],
        "blocks": [
          {"id": "c", "type": "CTU", "inputs": {"cu": "pulse", "pv": 100, "EN": "en"}},
          {"id": "a", "type": "ADD", "inputs": {"in1": "x", "in2": 1, "EN": "en"}, "data_type": "INT"}
        ],
        "outputs": [{"name": "cv", "type": "INT", "from": "c.cv"}, {"name": "y", "type": "INT", "from": "a.out"}]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut cvs = Vec::new();
    for k in 0..12i64 {
        let en = !(4..8).contains(&k);
        rt.set_input("x", Value::Int(k)).unwrap();
        scan(&mut rt, &[("pulse", k % 2 == 0), ("en", en)], &[]);
        cvs.push((rt.output("cv").unwrap(), rt.output("y").unwrap()));
    }
    // Rising edges at scans 0, 2, 4, 6, 8, 10; at 4 and 6 the counter is not called, and at 8
    // it sees `pulse` TRUE after a FALSE it last saw at scan 3: a rising edge, counted.
    let cv: Vec<i64> = cvs.iter().map(|(c, _)| c.as_i64().unwrap()).collect();
    assert_eq!(cv, [1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 4, 4]);
    // The ADD is not called either: it returns INT's initial value, as matiec's functions do
    // (it held 4 before, the last result).
    let y: Vec<i64> = cvs.iter().map(|(_, y)| y.as_i64().unwrap()).collect();
    assert_eq!(y, [1, 2, 3, 4, 0, 0, 0, 0, 9, 10, 11, 12]);
}

#[test]
fn en_on_an_instance_holds_every_block_inside_nested_ens_too() {
    // `inner` counts under its own EN, inside `outer`, which runs under `run`: a count happens
    // only while both are TRUE.
    let text = r#"{"fbd": 1,
        "inputs": [{"name": "pulse", "type": "BOOL"}, {"name": "run", "type": "BOOL"}, {"name": "gate", "type": "BOOL"}],
        "macros": [
          {"name": "COUNTS", "inputs": [{"name": "p", "type": "BOOL"}],
           "outputs": [{"name": "n", "type": "INT", "from": "c.cv"}],
           "blocks": [{"id": "c", "type": "CTU", "inputs": {"cu": "p", "pv": 100}}]},
          {"name": "TWO", "inputs": [{"name": "p", "type": "BOOL"}, {"name": "g", "type": "BOOL"}],
           "outputs": [{"name": "a", "type": "INT", "from": "plain.n"}, {"name": "b", "type": "INT", "from": "inner.n"}],
           "blocks": [{"id": "plain", "type": "COUNTS", "inputs": {"p": "p"}},
                      {"id": "inner", "type": "COUNTS", "inputs": {"p": "p", "EN": "g"}}]}
        ],
        "blocks": [{"id": "outer", "type": "TWO", "inputs": {"p": "pulse", "g": "gate", "EN": "run"}}],
        "outputs": [{"name": "a", "type": "INT", "from": "outer.a"}, {"name": "b", "type": "INT", "from": "outer.b"}]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut got = Vec::new();
    // Each step: a pulse (FALSE then TRUE) with run and gate as given.
    for (run, gate) in [(true, true), (true, false), (false, true), (false, false), (true, true)] {
        scan(&mut rt, &[("pulse", false), ("run", run), ("gate", gate)], &[]);
        let v =
            scan(&mut rt, &[("pulse", true), ("run", run), ("gate", gate)], &["outer/plain/c.cv", "outer/inner/c.cv"]);
        got.push((v[0].as_i64().unwrap(), v[1].as_i64().unwrap()));
    }
    assert_eq!(got, [(1, 1), (2, 1), (2, 1), (2, 1), (3, 2)]);
}

#[test]
fn en_compiles_to_a_skip_over_the_block_and_nowhere_else() {
    let gated = plan(
        r#"{"fbd": 1, "inputs": [{"name": "en", "type": "BOOL"}, {"name": "x", "type": "BOOL"}],
            "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": "x", "EN": "en"}},
                       {"id": "m", "type": "NOT", "inputs": {"in": "x"}}],
            "outputs": [{"name": "y", "type": "BOOL", "from": "n.out"}, {"name": "z", "type": "BOOL", "from": "m.out"}]}"#,
    );
    let skips: Vec<_> =
        gated.code.iter().filter(|i| matches!(i, fbd_engine::instr::Instr::SkipUnless { .. })).collect();
    assert_eq!(skips.len(), 1, "{:?}", gated.code);
    assert!(matches!(skips[0], fbd_engine::instr::Instr::SkipUnless { n: 1, .. }));
}

#[test]
fn a_bad_en_is_refused_at_its_place() {
    let int_en = r#"{"fbd": 1, "inputs": [{"name": "k", "type": "INT"}],
        "blocks": [{"id": "t", "type": "TON", "inputs": {"in": true, "pt": "T#1s", "EN": "k"}}],
        "outputs": [{"name": "q", "type": "BOOL", "from": "t.q"}]}"#;
    let e = compile(int_en).unwrap_err().to_string();
    assert!(e.contains("EN of block `t`") && e.contains("INT"), "{e}");
    let delay = r#"{"fbd": 1, "inputs": [{"name": "en", "type": "BOOL"}],
        "blocks": [{"id": "d", "type": "DELAY", "inputs": {"in": true, "EN": "en"}, "data_type": "BOOL"}],
        "outputs": [{"name": "q", "type": "BOOL", "from": "d.q"}]}"#;
    let e = compile(delay).unwrap_err().to_string();
    assert!(e.contains("DELAY `d` is under an EN"), "{e}");
    let unknown = r#"{"fbd": 1, "inputs": [{"name": "en", "type": "BOOL"}],
        "blocks": [{"id": "t", "type": "TON", "inputs": {"in": true, "pt": "T#1s", "EM": "en"}}],
        "outputs": [{"name": "q", "type": "BOOL", "from": "t.q"}]}"#;
    let e = compile(unknown).unwrap_err().to_string();
    assert!(e.contains("TON has no input `EM`"), "{e}");
}

#[test]
fn an_instance_s_output_that_no_block_inside_drives_holds_under_en() {
    // `c` is a constant, `p` the instance's input passed through: IEC assigns an FB's outputs
    // only when it is called, from their zero before the first call (they followed the
    // constant and the input every scan).
    let text = r#"{"fbd": 1,
        "inputs": [{"name": "en", "type": "BOOL"}, {"name": "x", "type": "INT"}],
        "macros": [{"name": "PASS", "inputs": [{"name": "i", "type": "INT"}],
           "outputs": [{"name": "c", "type": "LREAL", "from": 0.1}, {"name": "p", "type": "INT", "from": "i"}],
           "blocks": []}],
        "blocks": [{"id": "m", "type": "PASS", "inputs": {"i": "x", "EN": "en"}}],
        "outputs": [{"name": "c", "type": "LREAL", "from": "m.c"}, {"name": "p", "type": "INT", "from": "m.p"}]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut got = Vec::new();
    for (k, en) in [false, true, false, false, true].into_iter().enumerate() {
        rt.set_input("x", Value::Int(10 + k as i64)).unwrap();
        scan(&mut rt, &[("en", en)], &[]);
        got.push((rt.output("c").unwrap(), rt.output("p").unwrap()));
    }
    let (r, i) = (Value::Real, Value::Int);
    assert_eq!(got, [(r(0.0), i(0)), (r(0.1), i(11)), (r(0.1), i(11)), (r(0.1), i(11)), (r(0.1), i(14))]);
}

#[test]
fn an_instance_s_negated_inner_output_is_its_output_s_zero_before_the_first_call() {
    // `o` reads a negated pin inside (NOT q: TRUE while the TOF has not run); the instance's
    // output variable is FALSE until the instance is first called, as matiec's FB output (it
    // was TRUE: the inside's negation, read through).
    let text = r#"{"fbd": 1,
        "inputs": [{"name": "en", "type": "BOOL"}],
        "macros": [{"name": "OFFDELAY", "inputs": [],
           "outputs": [{"name": "o", "type": "BOOL", "from": "t.q"}],
           "blocks": [{"id": "t", "type": "TOF", "inputs": {"in": false, "pt": "T#10ms"}, "negated": ["q"]}]}],
        "blocks": [{"id": "m", "type": "OFFDELAY", "inputs": {"EN": "en"}}],
        "outputs": [{"name": "o", "type": "BOOL", "from": "m.o"}]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut got = Vec::new();
    for en in [false, false, true, false] {
        scan(&mut rt, &[("en", en)], &[]);
        got.push(rt.output("o").unwrap());
    }
    assert_eq!(got, [b(false), b(false), b(true), b(true)]);
}

/// A feedback wire inside an instance under an EN is the instance's variable: it keeps its
/// initial value until the instance is first called, and its value while it is not called
/// (generated program 159 against matiec: the delayed copy was taken every scan, so an ABS
/// of a feedback starting at -5 read the source's 0 and gave 0 for ever; matiec gives 5).
#[test]
fn a_feedback_inside_an_instance_under_en_holds_with_the_instance() {
    let text = r#"{"fbd": 1,
        "inputs": [{"name": "en", "type": "BOOL"}],
        "macros": [{"name": "M", "inputs": [], "outputs": [{"name": "o", "type": "INT", "from": "a.out"}],
           "blocks": [{"id": "a", "type": "ABS", "inputs": {"in": {"from": "a.out", "feedback": true, "init": -5}}, "data_type": "INT"}]}],
        "blocks": [{"id": "m", "type": "M", "inputs": {"EN": "en"}}],
        "outputs": [{"name": "y", "type": "INT", "from": "m.o"}]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut got = Vec::new();
    for en in [false, false, true, false, true] {
        rt.set_input("en", b(en)).unwrap();
        rt.step();
        got.push(rt.output("y").unwrap().as_i64().unwrap());
    }
    assert_eq!(got, [0, 0, 5, 5, 5]);
}

/// A negated output of an instance under an EN, read by a program output: the output holds
/// (zero before the first call), its reader gets NOT of that (generated program 355 against
/// matiec: the instance's debugger pin made the negation first, of the inside's value without
/// the hold, so a pass-through of an input read the input while the instance was never called).
#[test]
fn a_negated_output_of_an_instance_under_en_holds_before_the_negation() {
    let text = r#"{"fbd": 1,
        "inputs": [{"name": "x", "type": "BOOL"}, {"name": "en", "type": "BOOL"}],
        "macros": [{"name": "M", "inputs": [{"name": "p", "type": "BOOL"}],
           "outputs": [{"name": "o", "type": "BOOL", "from": "p"}], "blocks": []}],
        "blocks": [{"id": "i", "type": "M", "inputs": {"p": "x", "EN": "en"}, "negated": ["o"]}],
        "outputs": [{"name": "y", "type": "BOOL", "from": "i.o"}]}"#;
    let mut rt = Runtime::new(plan(text));
    let mut got = Vec::new();
    for (x, en) in [(true, false), (true, true), (false, false), (false, true)] {
        let v = scan(&mut rt, &[("x", x), ("en", en)], &["y", "i.o"]);
        got.push((v[0], v[1]));
    }
    // Not called: o holds FALSE, y is TRUE; called with x TRUE: y FALSE; then held.
    assert_eq!(got, [(b(true), b(false)), (b(false), b(true)), (b(false), b(true)), (b(true), b(false))]);
}
