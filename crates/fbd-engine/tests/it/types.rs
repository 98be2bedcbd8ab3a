//! The IEC 61131-3 elementary types: narrow integers wrap as the PLC's do, REAL computes in
//! f32, conversions as matiec converts, constants and written values within their type, and a
//! version-1 file read with the same behaviour under the new names.

use crate::harness::plan;
use fbd_engine::{Runtime, Value};

/// A program with the given inputs, outputs and blocks, in format version 3.
fn program(inputs: &str, outputs: &str, blocks: &str) -> Runtime {
    Runtime::new(plan(&format!(r#"{{"fbd": 3, "inputs": [{inputs}], "outputs": [{outputs}], "blocks": [{blocks}]}}"#)))
}

/// Output `name` as the value `pick` takes from it (panics naming it otherwise).
fn output_as<T>(rt: &Runtime, name: &str, pick: impl Fn(Value) -> Option<T>) -> T {
    let v = rt.output(name);
    v.and_then(pick).unwrap_or_else(|| panic!("{name}: {v:?}"))
}

fn int(rt: &Runtime, name: &str) -> i64 {
    output_as(rt, name, |v| if let Value::Int(i) = v { Some(i) } else { None })
}

fn real(rt: &Runtime, name: &str) -> f64 {
    output_as(rt, name, |v| if let Value::Real(r) = v { Some(r) } else { None })
}

fn ulint(rt: &Runtime, name: &str) -> u64 {
    output_as(rt, name, |v| if let Value::ULInt(u) = v { Some(u) } else { None })
}

fn time(rt: &Runtime, name: &str) -> i64 {
    output_as(rt, name, |v| if let Value::Time(ns) = v { Some(ns) } else { None })
}

/// A CODESYS-style counter: an INT incremented every scan through a feedback wire goes from
/// 32767 to -32768, as a 16-bit PLC counts; its LINT twin goes on.
#[test]
fn an_int_counter_wraps_at_32767_and_a_lint_one_goes_on() {
    let mut rt = program(
        "",
        r#"{"name": "n", "type": "INT", "from": "c.out"}, {"name": "w", "type": "LINT", "from": "d.out"}"#,
        r#"{"id": "c", "type": "ADD", "inputs": {"in1": {"from": "c.out", "feedback": true, "init": 32765}, "in2": 1}},
           {"id": "d", "type": "ADD", "inputs": {"in1": {"from": "d.out", "feedback": true, "init": 32765}, "in2": 1}}"#,
    );
    let mut seen = Vec::new();
    for _ in 0..4 {
        rt.step();
        seen.push((int(&rt, "n"), int(&rt, "w")));
    }
    assert_eq!(seen, [(32766, 32766), (32767, 32767), (-32768, 32768), (-32767, 32769)]);
    assert_eq!(rt.faults().total, 0, "a narrow type's wrap is what the PLC computes, no fault");
}

/// Each narrow type wraps at its own width, signed or not; DIV and MUL too.
#[test]
fn every_narrow_type_wraps_at_its_width() {
    let cases = [
        ("SINT", "ADD", "127", "1", -128),
        ("USINT", "ADD", "255", "1", 0),
        ("USINT", "SUB", "0", "1", 255),
        ("UINT", "SUB", "0", "1", 65535),
        ("UINT", "MUL", "300", "300", 90000 % 65536),
        ("DINT", "ADD", "2147483647", "1", -2147483648),
        ("UDINT", "MUL", "65536", "65536", 0),
        ("INT", "DIV", "-32768", "-1", -32768),
        ("INT", "MUL", "256", "256", 0),
    ];
    for (ty, op, a, b, want) in cases {
        let mut rt = program(
            &format!(
                r#"{{"name": "a", "type": "{ty}", "default": {a}}}, {{"name": "b", "type": "{ty}", "default": {b}}}"#
            ),
            &format!(r#"{{"name": "y", "type": "{ty}", "from": "o.out"}}"#),
            &format!(r#"{{"id": "o", "type": "{op}", "inputs": {{"in1": "a", "in2": "b"}}}}"#),
        );
        rt.step();
        assert_eq!(int(&rt, "y"), want, "{ty} {a} {op} {b}");
    }
}

/// REAL is an f32: 0.1 + 0.2 is the f32 sum (0.3 rounded as an f32 PLC rounds it), not the
/// f64 one; LREAL keeps 64 bits. Three REALs add pairwise, each sum rounded.
#[test]
fn real_computes_in_f32_and_lreal_in_f64() {
    let mut rt = program(
        "",
        r#"{"name": "r", "type": "REAL", "from": "a.out"}, {"name": "l", "type": "LREAL", "from": "b.out"},
           {"name": "s", "type": "REAL", "from": "c.out"}"#,
        r#"{"id": "a", "type": "ADD", "inputs": {"in1": 0.1, "in2": 0.2}, "data_type": "REAL"},
           {"id": "b", "type": "ADD", "inputs": {"in1": 0.1, "in2": 0.2}, "data_type": "LREAL"},
           {"id": "c", "type": "ADD", "inputs": {"in1": 16777216.0, "in2": 1.0, "in3": 1.0}, "data_type": "REAL"}"#,
    );
    rt.step();
    assert_eq!(real(&rt, "r"), (0.1f32 + 0.2f32) as f64);
    assert_eq!(real(&rt, "l"), 0.1 + 0.2);
    // 2^24 + 1 is no f32: each step rounds back to 2^24 (an f64 sum then one rounding gives 2^24 + 2).
    assert_eq!(real(&rt, "s"), 16777216.0);
}

/// The conversions as matiec computes them: REAL to an integer to nearest, halves to even, a
/// negative value into an unsigned type 0; into a narrow type wrapped; to BOOL `<> 0`.
#[test]
fn conversions_round_halves_to_even_and_wrap() {
    let cases = [
        ("LREAL_TO_INT", "2.5", Value::Int(2)),
        ("LREAL_TO_INT", "3.5", Value::Int(4)),
        ("LREAL_TO_INT", "-2.5", Value::Int(-2)),
        ("LREAL_TO_UINT", "-7.0", Value::Int(0)),
        ("LREAL_TO_INT", "40000.0", Value::Int(40000 - 65536)),
        ("DINT_TO_SINT", "300", Value::Int(44)),
        ("LINT_TO_UDINT", "-1", Value::Int(4294967295)),
        ("LINT_TO_REAL", "16777217", Value::Real(16777216.0)),
        ("LREAL_TO_REAL", "0.1", Value::Real(0.1f32 as f64)),
        ("INT_TO_BOOL", "-3", Value::Bool(true)),
        ("BOOL_TO_INT", "true", Value::Int(1)),
    ];
    for (conv, input, want) in cases {
        let (from, to) = conv.split_once("_TO_").expect("A_TO_B");
        let mut rt = program(
            &format!(r#"{{"name": "a", "type": "{from}", "default": {input}}}"#),
            &format!(r#"{{"name": "y", "type": "{to}", "from": "c.out"}}"#),
            &format!(r#"{{"id": "c", "type": "{conv}", "inputs": {{"in": "a"}}}}"#),
        );
        rt.step();
        assert_eq!(rt.output("y"), Some(want), "{conv}({input})");
    }
}

/// A counter counts in its type, up to pv and not past it (matiec's CTU).
#[test]
fn a_counter_counts_in_its_type_up_to_pv() {
    let mut rt = program(
        r#"{"name": "cu", "type": "BOOL"}"#,
        r#"{"name": "cv", "type": "SINT", "from": "c.cv"}"#,
        r#"{"id": "c", "type": "CTU", "inputs": {"cu": "cu", "pv": 100}}"#,
    );
    for k in 0..400 {
        rt.set_input("cu", Value::Bool(k % 2 == 0)).expect("cu");
        rt.step();
    }
    assert_eq!(int(&rt, "cv"), 100);
    assert_eq!(rt.plan().signal("c.cv").map(|s| s.slot.ty), Some(fbd_engine::Type::SInt));
}

/// A constant, a default or a written value outside its type is refused with the range, not
/// wrapped; a REAL written is rounded to its f32.
#[test]
fn values_outside_their_type_are_refused() {
    let text = r#"{"fbd": 3, "outputs": [{"name": "y", "type": "INT", "from": "a.out"}],
        "blocks": [{"id": "a", "type": "ADD", "inputs": {"in1": 40000, "in2": 1}, "data_type": "INT"}]}"#;
    let e = fbd_engine::compile(text).expect_err("40000 is no INT");
    assert!(e.to_string().contains("40000 is out of the INT range (-32768..32767)"), "{e}");
    let text = r#"{"fbd": 3, "inputs": [{"name": "u", "type": "USINT", "default": -1}], "blocks": []}"#;
    let e = fbd_engine::compile(text).expect_err("-1 is no USINT");
    assert!(e.to_string().contains("default of input `u`: -1 is out of the USINT range (0..255)"), "{e}");
    let mut rt = program(
        r#"{"name": "i", "type": "INT"}, {"name": "r", "type": "REAL"}"#,
        r#"{"name": "y", "type": "REAL", "from": "r"}"#,
        "",
    );
    let e = rt.set_input("i", Value::Int(32768)).expect_err("out of range");
    assert_eq!(e.to_string(), "`i`: 32768 is out of the INT range (-32768..32767)");
    rt.set_input("r", Value::Real(0.1)).expect("a REAL");
    rt.step();
    assert_eq!(real(&rt, "y"), 0.1f32 as f64);
}

/// A bit string is no number (IEC's ADD is ANY_NUM, as matiec checks): ADD on WORD is refused;
/// a WORD compares, selects and converts.
#[test]
fn bit_strings_are_not_numbers() {
    let text = r#"{"fbd": 3, "inputs": [{"name": "a", "type": "WORD"}],
        "outputs": [{"name": "y", "type": "WORD", "from": "s.out"}],
        "blocks": [{"id": "s", "type": "ADD", "inputs": {"in1": "a", "in2": 1}}]}"#;
    let e = fbd_engine::compile(text).expect_err("ADD on WORD");
    assert!(e.to_string().contains("ADD works on numbers and durations, but `s` is WORD"), "{e}");
    let mut rt = program(
        r#"{"name": "a", "type": "WORD", "default": 65535}"#,
        r#"{"name": "y", "type": "BOOL", "from": "g.out"}, {"name": "i", "type": "INT", "from": "c.out"}"#,
        r#"{"id": "g", "type": "GT", "inputs": {"in1": "a", "in2": 100}}, {"id": "c", "type": "WORD_TO_INT", "inputs": {"in": "a"}}"#,
    );
    rt.step();
    assert_eq!(rt.output("y"), Some(Value::Bool(true)));
    assert_eq!(int(&rt, "i"), -1);
}

/// AND, OR, XOR and NOT on bit strings work bit by bit in the type's width (NOT WORD#1 is
/// 16#FFFE, not -2); on BOOLs they stay the gates they were, and a loop of NOTs is BOOL.
#[test]
fn logic_on_bit_strings_works_bit_by_bit() {
    let mut rt = program(
        r#"{"name": "a", "type": "WORD", "default": 12}, {"name": "b", "type": "WORD", "default": 10}"#,
        r#"{"name": "and", "type": "WORD", "from": "x.out"}, {"name": "or", "type": "WORD", "from": "o.out"},
           {"name": "xor", "type": "WORD", "from": "e.out"}, {"name": "not", "type": "WORD", "from": "n.out"},
           {"name": "nb", "type": "BYTE", "from": "m.out"}, {"name": "q", "type": "BOOL", "from": "z.out"}"#,
        r#"{"id": "x", "type": "AND", "inputs": {"in1": "a", "in2": "b", "in3": 65535}},
           {"id": "o", "type": "OR", "inputs": {"in1": "a", "in2": "b"}},
           {"id": "e", "type": "XOR", "inputs": {"in1": "a", "in2": "b"}},
           {"id": "n", "type": "NOT", "inputs": {"in": 1}, "data_type": "WORD"},
           {"id": "m", "type": "NOT", "inputs": {"in": 240}, "data_type": "BYTE"},
           {"id": "z", "type": "NOT", "inputs": {"in": {"from": "z.out", "feedback": true}}}"#,
    );
    rt.step();
    let got: Vec<i64> = ["and", "or", "xor", "not", "nb"].iter().map(|n| int(&rt, n)).collect();
    assert_eq!(got, [8, 14, 6, 0xFFFE, 0x0F]);
    assert_eq!(rt.output("q"), Some(Value::Bool(true)), "a NOT of its own previous output is BOOL");
    let e = fbd_engine::compile(
        r#"{"fbd": 3, "inputs": [{"name": "k", "type": "DINT"}], "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": "k"}}]}"#,
    )
    .expect_err("NOT of a DINT");
    assert!(e.to_string().contains("pin `in` of NOT `n` expects BOOL"), "{e}");
}

/// ULINT and LWORD: 64 unsigned bits, compared, divided and converted as unsigned, wrapping
/// as their C does; a constant above LINT's range is written as it is.
#[test]
fn ulint_and_lword_are_unsigned_64_bit() {
    let mut rt = program(
        r#"{"name": "a", "type": "ULINT", "default": 18446744073709551615}, {"name": "w", "type": "LWORD", "default": 9223372036854775808}"#,
        r#"{"name": "sum", "type": "ULINT", "from": "s.out"}, {"name": "gt", "type": "BOOL", "from": "g.out"},
           {"name": "half", "type": "ULINT", "from": "d.out"}, {"name": "r", "type": "LREAL", "from": "c.out"},
           {"name": "bits", "type": "ULINT", "from": "l.out"}, {"name": "shr", "type": "LWORD", "from": "h.out"},
           {"name": "not", "type": "LWORD", "from": "n.out"}, {"name": "back", "type": "LINT", "from": "b.out"},
           {"name": "mx", "type": "ULINT", "from": "m.out"}"#,
        r#"{"id": "s", "type": "ADD", "inputs": {"in1": "a", "in2": 2}},
           {"id": "g", "type": "GT", "inputs": {"in1": "a", "in2": 1}},
           {"id": "d", "type": "DIV", "inputs": {"in1": "a", "in2": 2}},
           {"id": "c", "type": "ULINT_TO_LREAL", "inputs": {"in": "a"}},
           {"id": "l", "type": "LINT_TO_ULINT", "inputs": {"in": -1}},
           {"id": "h", "type": "SHR", "inputs": {"in": "w", "n": 63}},
           {"id": "n", "type": "NOT", "inputs": {"in": "w"}},
           {"id": "b", "type": "ULINT_TO_LINT", "inputs": {"in": "a"}},
           {"id": "m", "type": "MAX", "inputs": {"in1": "a", "in2": 5}}"#,
    );
    rt.step();
    assert_eq!(ulint(&rt, "sum"), 1, "wraps at 2^64, as C's unsigned arithmetic");
    assert_eq!(rt.output("gt"), Some(Value::Bool(true)), "compared unsigned");
    assert_eq!(ulint(&rt, "half"), u64::MAX / 2);
    assert_eq!(real(&rt, "r"), u64::MAX as f64);
    assert_eq!(ulint(&rt, "bits"), u64::MAX, "LINT -1 is ULINT 2^64 - 1, as a C cast");
    assert_eq!(ulint(&rt, "shr"), 1, "the top bit shifts right as a zero");
    assert_eq!(ulint(&rt, "not"), (1 << 63) - 1);
    assert_eq!(int(&rt, "back"), -1);
    assert_eq!(ulint(&rt, "mx"), u64::MAX);
    assert_eq!(rt.faults().total, 0, "ULINT arithmetic wraps without a fault");
    let e =
        fbd_engine::compile(r#"{"fbd": 3, "inputs": [{"name": "u", "type": "ULINT", "default": -1}], "blocks": []}"#)
            .expect_err("a negative ULINT");
    assert!(e.to_string().contains("out of the ULINT range"), "{e}");
}

/// DINT and LINT on one ADD are a type error (matiec's rule: convert one); a DINT on a fixed
/// LINT pin is IEC's implicit widening (the value is the same).
#[test]
fn mixed_types_on_a_generic_block_are_refused_and_widening_into_a_fixed_pin_is_not() {
    let text = r#"{"fbd": 3, "inputs": [{"name": "a", "type": "DINT"}, {"name": "b", "type": "LINT"}],
        "outputs": [{"name": "y", "type": "LINT", "from": "s.out"}],
        "blocks": [{"id": "s", "type": "ADD", "inputs": {"in1": "a", "in2": "b"}}]}"#;
    let e = fbd_engine::compile(text).expect_err("DINT + LINT");
    assert!(e.to_string().contains("type mismatch"), "{e}");
    let mut rt = program(
        r#"{"name": "k", "type": "SINT", "default": 1}"#,
        r#"{"name": "y", "type": "LINT", "from": "m.out"}"#,
        r#"{"id": "m", "type": "MUX", "inputs": {"k": "k", "in0": 10, "in1": 20}}"#,
    );
    rt.step();
    assert_eq!(int(&rt, "y"), 20);
}

/// A version-1 file (INT was 64-bit, REAL 64-bit, INT_TO_REAL) runs as before under version
/// 2's names, and says so.
#[test]
fn a_version_1_file_keeps_its_behaviour() {
    let v1 = r#"{"fbd": 1, "inputs": [{"name": "a", "type": "INT", "default": 40000}],
        "outputs": [{"name": "y", "type": "INT", "from": "s.out"}, {"name": "r", "type": "REAL", "from": "c.out"}],
        "blocks": [{"id": "s", "type": "ADD", "inputs": {"in1": "a", "in2": 40000}},
                   {"id": "c", "type": "INT_TO_REAL", "inputs": {"in": "s.out"}}]}"#;
    let mut rt = Runtime::new(plan(v1));
    rt.step();
    assert_eq!(int(&rt, "y"), 80000, "version 1's INT is a LINT");
    assert_eq!(real(&rt, "r"), 80000.0);
    let project = fbd_engine::load::load_text(
        &fbd_engine::load::MemProvider::new(),
        std::path::Path::new("old.json"),
        v1.to_string(),
    )
    .expect("loads");
    let doc = &project.files[0].doc;
    assert_eq!(doc.fbd, 3);
    assert_eq!(doc.inputs[0].ty.0, fbd_engine::Type::LInt);
    assert_eq!(doc.blocks[1].ty, "LINT_TO_LREAL");
    let notice = project.files[0].notice().expect("a notice");
    assert!(notice.contains("old.json: format version 1, read as version 3"), "{notice}");
}

/// A timer on a 0.3 ms cycle: TON T#1ms fires on the fourth scan after its start (1.2 ms), not
/// on the third (0.9 ms), which a clock read in whole milliseconds made look elapsed.
#[test]
fn a_timer_on_a_sub_millisecond_cycle_fires_on_the_scan_it_should() {
    let text = r#"{"fbd": 3, "cycle_ms": 0.3, "inputs": [{"name": "go", "type": "BOOL"}],
        "outputs": [{"name": "q", "type": "BOOL", "from": "t.q"}, {"name": "et", "type": "TIME", "from": "t.et"}],
        "blocks": [{"id": "t", "type": "TON", "inputs": {"in": "go", "pt": "T#1ms"}}]}"#;
    let mut rt = Runtime::new(plan(text));
    for _ in 0..3 {
        rt.step();
    }
    rt.set_input("go", Value::Bool(true)).expect("go");
    let mut seen = Vec::new();
    for _ in 0..5 {
        rt.step();
        seen.push((rt.output("q") == Some(Value::Bool(true)), time(&rt, "et")));
    }
    assert_eq!(
        seen,
        [(false, 0), (false, 300_000), (false, 600_000), (false, 900_000), (true, 1_000_000)],
        "et in nanoseconds; q once 1 ms has passed"
    );
}

/// TIME is a type of its own: a duration literal, ADD/SUB/compare on durations, the
/// conversions as matiec reads them (seconds), and a LINT on a TIME pin refused.
#[test]
fn durations_add_compare_and_convert_as_matiec() {
    let mut rt = program(
        r#"{"name": "a", "type": "TIME", "default": "T#1s500ms"}"#,
        r#"{"name": "sum", "type": "TIME", "from": "s.out"}, {"name": "gt", "type": "BOOL", "from": "g.out"},
           {"name": "secs", "type": "DINT", "from": "c.out"}, {"name": "neg", "type": "DINT", "from": "n.out"},
           {"name": "r", "type": "LREAL", "from": "f.out"}, {"name": "back", "type": "TIME", "from": "b.out"},
           {"name": "fine", "type": "TIME", "from": "x.out"}, {"name": "r32", "type": "REAL", "from": "f32.out"}"#,
        r#"{"id": "s", "type": "ADD", "inputs": {"in1": "a", "in2": "T#2us"}},
           {"id": "g", "type": "GT", "inputs": {"in1": "s.out", "in2": "T#1.5s"}},
           {"id": "c", "type": "TIME_TO_DINT", "inputs": {"in": "a"}},
           {"id": "d", "type": "SUB", "inputs": {"in1": "T#0s", "in2": "a"}},
           {"id": "n", "type": "TIME_TO_DINT", "inputs": {"in": "d.out"}},
           {"id": "f", "type": "TIME_TO_LREAL", "inputs": {"in": "s.out"}},
           {"id": "b", "type": "DINT_TO_TIME", "inputs": {"in": 3}},
           {"id": "x", "type": "LREAL_TO_TIME", "inputs": {"in": 0.25}},
           {"id": "f32", "type": "TIME_TO_REAL", "inputs": {"in": "T#2s599ms"}}"#,
    );
    rt.step();
    assert_eq!(time(&rt, "sum"), 1_500_002_000);
    assert_eq!(rt.output("gt"), Some(Value::Bool(true)));
    assert_eq!(int(&rt, "secs"), 1, "whole seconds, as matiec's tv_sec");
    assert_eq!(int(&rt, "neg"), -1, "toward zero");
    assert_eq!(real(&rt, "r"), 1.0 + 500_002_000.0 / 1e9, "seconds plus nanoseconds / 1e9, as matiec adds them");
    assert_eq!(time(&rt, "back"), 3_000_000_000, "DINT_TO_TIME reads seconds (matiec)");
    assert_eq!(time(&rt, "fine"), 250_000_000);
    assert_eq!(real(&rt, "r32"), 2.599f32 as f64, "a REAL: the f32 of the seconds");
    assert_eq!(rt.faults().total, 0);
    assert_eq!(rt.output("sum").map(|v| v.to_string()).as_deref(), Some("T#1s500ms2us"));

    let e =
        fbd_engine::compile(r#"{"fbd": 3, "blocks": [{"id": "t", "type": "TON", "inputs": {"in": true, "pt": 500}}]}"#)
            .expect_err("a LINT preset");
    let e = e.to_string();
    assert!(e.contains("pt") && e.contains("TIME"), "{e}");
    let e = fbd_engine::compile(
        r#"{"fbd": 3, "blocks": [{"id": "m", "type": "MUL", "inputs": {"in1": "T#1s", "in2": "T#2s"}}]}"#,
    )
    .expect_err("no product of durations");
    assert!(e.to_string().contains("TIME"), "{e}");
}

/// A version-2 timer preset (LINT milliseconds) moves to the same TIME; a wired one is named.
#[test]
fn a_version_2_timer_preset_becomes_a_time() {
    let v2 = r#"{"fbd": 2, "inputs": [{"name": "p", "type": "LINT"}],
        "outputs": [{"name": "q", "type": "BOOL", "from": "t.q"}],
        "blocks": [{"id": "t", "type": "TON", "inputs": {"in": true, "pt": 20}},
                   {"id": "u", "type": "TON", "inputs": {"in": true, "pt": "p"}}]}"#;
    let project = fbd_engine::load::load_text(
        &fbd_engine::load::MemProvider::new(),
        std::path::Path::new("v2.json"),
        v2.to_string(),
    )
    .expect("loads");
    let doc = &project.files[0].doc;
    assert_eq!(doc.blocks[0].inputs.get("pt"), Some(&fbd_engine::model::Wire::constant(Value::Time(20_000_000))));
    let notice = project.files[0].notice().expect("a notice");
    assert!(notice.contains("format version 2, read as version 3"), "{notice}");
    assert!(notice.contains("wire a TIME to u.pt"), "{notice}");
}
