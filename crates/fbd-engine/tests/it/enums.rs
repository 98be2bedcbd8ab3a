//! Enumerations (format version 7): a document's `types`, variables of them, their values by
//! name in ST (`running`, `Mode#held`), and the checks matiec makes of them. (Against
//! Beremiz + matiec: tools/plcopen/st-check.sh, whose programs have two enumerations.)

use fbd_engine::{Runtime, Value, compile};

use crate::harness::plan;

const MODES: &str = r#"{"fbd": 7,
  "types": [{"name": "Mode", "enum": ["idle", "running", "held"]},
            {"name": "Phase", "enum": ["held", "off"], "init": "off"}],
  "inputs": [{"name": "go", "type": "BOOL"}, {"name": "hold", "type": "BOOL"}],
  "variables": [{"name": "mode", "type": "Mode", "init": "held"}, {"name": "ph", "type": "Phase"},
                {"name": "n", "type": "INT"}, {"name": "isrun", "type": "BOOL"}],
  "st": [
    "IF go THEN mode := running; ELSIF hold THEN mode := Mode#held; END_IF;",
    "CASE mode OF idle: n := 0; running: n := n + 1; Mode#held: ph := Phase#held; END_CASE;",
    "isrun := mode = running AND ph <> Phase#held;"
  ]}"#;

#[test]
fn an_enumeration_s_values_are_assigned_compared_and_case_labels_by_name() {
    let mut rt = Runtime::new(plan(MODES));
    let mut seen = Vec::new();
    for (go, hold) in [(false, false), (true, false), (true, false), (false, true), (false, false), (true, false)] {
        rt.set_input("go", Value::Bool(go)).unwrap();
        rt.set_input("hold", Value::Bool(hold)).unwrap();
        rt.step();
        let int = |v: Value| v.as_i64().unwrap_or(i64::from(v == Value::Bool(true)));
        seen.push(["mode", "ph", "n", "isrun"].map(|s| int(rt.read(s).unwrap())));
    }
    // Scan 0: `mode` starts at its init `held` (position 2), so `ph` (its type's init `off`,
    // 1) becomes `held` (0); scans 1-2 running (n counts, but ph is held: not isrun); scan 3
    // held again.
    assert_eq!(seen, [[2, 0, 0, 0], [1, 0, 1, 0], [1, 0, 2, 0], [2, 0, 2, 0], [2, 0, 2, 0], [1, 0, 3, 0]]);
    // Without the CASE's `held` arm, `ph` keeps its type's init.
    let mut rt = Runtime::new(plan(&MODES.replace("Mode#held: ph := Phase#held;", "")));
    rt.step();
    assert_eq!(rt.read("ph").unwrap(), Value::Int(1));
}

#[test]
fn enumeration_mistakes_are_refused_at_their_place_all_at_once() {
    let text = r#"{"fbd": 7,
  "types": [{"name": "Mode", "enum": ["idle", "running", "held"]}, {"name": "Phase", "enum": ["held", "off"]}],
  "variables": [{"name": "mode", "type": "Mode"}, {"name": "ph", "type": "Phase"}, {"name": "n", "type": "INT"}],
  "st": [
    "mode := 1; n := mode; mode := held; ph := Mode#idle;",
    "IF mode > running THEN n := 2; END_IF;",
    "CASE ph OF off: n := 1; Mode#idle: n := 2; END_CASE;"
  ]}"#;
    let err = compile(text).expect_err("refused");
    let all = err.to_string();
    for want in [
        "ST 1:9: `mode` is a `Mode`: it takes one of its values (idle, running, held)",
        "ST 1:17: `n` is no enumeration; this value is a `Mode`",
        "ST 1:31: `held` is a value of several enumerations (Mode, Phase): write which, `Mode#held`",
        "ST 1:43: `ph` is a `Phase`; this value is a `Mode`",
        "ST 2:9: `>` of a `Mode`: an enumeration's values are compared with `=` and `<>` only",
        "ST 3:25: a `Phase` compared with a `Mode`",
    ] {
        assert!(all.contains(want), "missing {want:?} in\n{all}");
    }
    // One error for `n := mode` (not also a DINT stored in an INT).
    assert_eq!(err.0.len(), 6, "{all}");
}

#[test]
fn bad_types_and_inits_are_refused_with_what_is_known() {
    let text = r#"{"fbd": 7,
  "types": [{"name": "Mode", "enum": ["idle", "idle"], "init": "busy"}, {"name": "INT", "enum": ["a"]},
            {"name": "Empty", "enum": []}],
  "variables": [{"name": "a", "type": "Mood"}, {"name": "b", "type": "Mode", "init": "of"},
                {"name": "d", "type": "INT", "init": "idle"}],
  "st": ["d := 1;"]}"#;
    let err = compile(text).expect_err("refused");
    let all = err.to_string();
    for want in [
        "enumeration `Mode` has the value `idle` twice",
        "`busy` is not a value of `Mode` (idle, idle)",
        "type `INT` has the name of an elementary type",
        "enumeration `Empty` has no value",
        "variable `a`: unknown type `Mood` (elementary types: BOOL, INT, DINT, REAL, TIME, STRING..; types: Mode, Empty)",
        "variable `b`: `of` is not a value of `Mode`",
        "variable `d` (INT): init `idle` is not a literal",
    ] {
        assert!(all.contains(want), "missing {want:?} in\n{all}");
    }
    // A number for an enumeration's init is refused as the file is read.
    let number = MODES.replace(r#""init": "held""#, r#""init": 2"#);
    let err = compile(&number).expect_err("refused").to_string();
    assert!(err.contains("variable `mode` is of `Mode`: its init is one of its values' names"), "{err}");
    // A file of an older version is told which version `types` need.
    let old = MODES.replace(r#""fbd": 7"#, r#""fbd": 6"#);
    let err = compile(&old).expect_err("refused").to_string();
    assert!(err.contains("user data types (`types`) are format version 7"), "{err}");
}

#[test]
fn a_document_with_types_is_written_back_as_it_was_read() {
    let doc = fbd_engine::load::parse_document(std::path::Path::new("m.json"), MODES).unwrap();
    let v = &doc.variables[0];
    assert_eq!((v.data_type.as_deref(), v.init_name.as_deref()), (Some("Mode"), Some("held")));
    let text = serde_json::to_string_pretty(&doc).unwrap();
    assert!(text.contains(r#""type": "Mode""#) && text.contains(r#""init": "held""#), "{text}");
    assert!(text.contains(r#""enum": ["#) && text.contains(r#""init": "off""#), "{text}");
    let again = fbd_engine::load::parse_document(std::path::Path::new("m.json"), &text).unwrap();
    assert_eq!(again.variables, doc.variables);
    assert_eq!(again.types, doc.types);
    // A loaded (resolved) document built into a project again, as the editor does: the same.
    let path = std::path::Path::new("m.json");
    let loaded = fbd_engine::load::load_text(&fbd_engine::MemProvider::default(), path, MODES.to_string()).unwrap();
    let doc = loaded.files[0].doc.clone();
    let again = fbd_engine::load::project_of_document(path, doc, String::new()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.files[0].doc.variables, loaded.files[0].doc.variables);
    let v = &again.files[0].doc.variables[1];
    assert_eq!(
        (v.init, v.init_name.as_deref()),
        (Some(fbd_engine::model::Const(Value::Int(1))), None),
        "the type's init"
    );
}
