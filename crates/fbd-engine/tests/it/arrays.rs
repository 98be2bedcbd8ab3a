//! Arrays (format version 7): a variable of `ARRAY[..] OF T`, each element a variable of its
//! own (`buf[2]`, watched by that name), read and written in ST at constant and computed
//! indices; an index past its bounds reads the zero, writes nothing and faults at its place.
//! (Against Beremiz + matiec: tools/plcopen/st-check.sh, whose programs have three arrays.)

use fbd_engine::{Runtime, Value, compile};

use crate::harness::plan;

const BUFFER: &str = r#"{"fbd": 7,
  "inputs": [{"name": "i", "type": "INT"}, {"name": "v", "type": "INT"}],
  "variables": [
    {"name": "buf", "type": "ARRAY[1..5] OF INT", "init": [10, 20, 30]},
    {"name": "grid", "type": "ARRAY[0..1, 0..2] OF DINT"},
    {"name": "sum", "type": "DINT"}, {"name": "at", "type": "INT"}, {"name": "k", "type": "INT"}
  ],
  "st": [
    "buf[i] := v;",
    "at := buf[i + 1];",
    "grid[1, 2] := grid[1, 2] + 1;",
    "grid[LIMIT(0, i, 1), i] := 7;",
    "sum := 0;",
    "FOR k := 1 TO 5 DO sum := sum + INT_TO_DINT(buf[k]); END_FOR;"
  ]}"#;

fn ints(rt: &Runtime, names: &[&str]) -> Vec<i64> {
    names.iter().map(|n| rt.read(n).unwrap_or_else(|e| panic!("{n}: {e}")).as_i64().expect("an integer")).collect()
}

#[test]
fn elements_are_read_and_written_at_constant_and_computed_indices() {
    let mut rt = Runtime::new(plan(BUFFER));
    let watch = ["buf[1]", "buf[4]", "buf[5]", "at", "sum", "grid[1,2]", "grid[0,1]", "grid[1,1]"];
    let mut seen = Vec::new();
    for (i, v) in [(1, 7), (4, 100), (5, 100), (9, 5), (1, 1)] {
        rt.set_input("i", Value::Int(i)).unwrap();
        rt.set_input("v", Value::Int(v)).unwrap();
        rt.step();
        seen.push(ints(&rt, &watch));
    }
    assert_eq!(
        seen,
        [
            // buf[1] := 7; at = buf[2] (its init 20); sum = 7+20+30; grid[1,1] := 7.
            [7, 0, 0, 20, 57, 1, 0, 7],
            [7, 100, 0, 0, 157, 2, 0, 7],
            // at = buf[6]: past the bounds, 0 (a fault).
            [7, 100, 100, 0, 257, 3, 0, 7],
            // buf[9] := 5 writes nothing; grid[1, 9] neither (its offset would be another
            // element's: grid[1, 9] is no grid[x, y]).
            [7, 100, 100, 0, 257, 4, 0, 7],
            [1, 100, 100, 20, 251, 5, 0, 7],
        ]
    );
    // Each fault names its block, whose place is the index's: line 2 (the reads of buf[6]
    // and buf[10]), line 1 (buf[9] written), line 4 column 22 (grid's second index, 4, 5, 9).
    let mut places: Vec<(u64, u32, u32)> = rt
        .faults()
        .recent()
        .iter()
        .map(|f| {
            let path = rt.plan().instr_block(f.instr as usize).path;
            let at = fbd_engine::plan::st_place(path).unwrap_or_else(|| panic!("{path} has no ST place"));
            (f.scan, at.line, at.col)
        })
        .collect();
    places.sort();
    places.dedup();
    assert_eq!(places, [(1, 4, 22), (2, 2, 7), (2, 4, 22), (3, 1, 5), (3, 2, 7), (3, 4, 22)]);
}

#[test]
fn array_mistakes_are_refused_at_their_place_all_at_once() {
    let text = r#"{"fbd": 7,
  "inputs": [{"name": "r", "type": "REAL"}],
  "variables": [{"name": "a", "type": "ARRAY[0..3] OF INT"}, {"name": "b", "type": "ARRAY[0..4] OF INT"},
                {"name": "g", "type": "ARRAY[0..1, 0..1] OF BOOL"}, {"name": "n", "type": "INT"}],
  "st": [
    "n := a[4]; n := g[1]; n := a;",
    "a := b; a[r] := 1; n[0] := 1;",
    "g[0, 0] := 5;"
  ]}"#;
    let err = compile(text).expect_err("refused");
    let all = err.to_string();
    assert_eq!(err.0.len(), 7, "one error each:\n{all}");
    for want in [
        "ST 1:6: `a[4]` is outside ARRAY[0..3] OF INT",
        "ST 1:17: `g` has 2 dimension(s) (ARRAY[0..1, 0..1] OF BOOL): 1 index(es) given",
        "ST 1:28: `a` is an array (ARRAY[0..3] OF INT): name one of its elements, `a[i]`",
        "ST 2:6: `a` is an array (ARRAY[0..3] OF INT): it takes an array of the same type",
        "ST 2:11: an array index is an integer; this is a REAL",
        "ST 2:20: `n` is no array",
        "ST 3:12: `g[0, 0]` is a BOOL: `5` is no BOOL literal",
    ] {
        assert!(all.contains(want), "missing {want:?} in\n{all}");
    }
}

#[test]
fn bad_array_types_and_inits_are_refused_as_the_file_is_read() {
    for (ty, init, says) in [
        ("ARRAY[3..1] OF INT", "", "the dimension 3..1 is empty"),
        ("ARRAY[0..99999] OF INT", "", "has 100000 elements; an array has at most 65536"),
        ("ARRAY[0..1] OF Foo", "", "`Foo` is neither an elementary type nor an enumeration"),
        ("ARRAY[0..1] OF INT", r#", "init": [1, 2, 3]"#, "3 initial values for 2 elements"),
        ("ARRAY[0..1] OF INT", r#", "init": [1, 99999]"#, "initial element 1"),
        ("ARRAY(0..1) OF INT", "", "is no array type"),
    ] {
        let text =
            format!(r#"{{"fbd": 7, "variables": [{{"name": "a", "type": "{ty}"{init}}}], "st": ["a[0] := 1;"]}}"#);
        let err = compile(&text).expect_err(ty).to_string();
        assert!(err.contains(says), "{ty}{init}: {err}");
    }
}

#[test]
fn a_whole_array_is_copied_and_a_loop_fills_one() {
    let text = r#"{"fbd": 7,
  "variables": [{"name": "a", "type": "ARRAY[1..4] OF INT"}, {"name": "b", "type": "ARRAY[1..4] OF INT"},
                {"name": "k", "type": "INT"}, {"name": "n", "type": "INT"}],
  "st": ["n := n + 1;", "FOR k := 1 TO 4 DO a[k] := k * n; END_FOR;", "b := a;", "a[2] := 0;"]}"#;
    let mut rt = Runtime::new(plan(text));
    rt.step();
    rt.step();
    // Scan 2: a[k] = 2k, b the copy, then a[2] cleared.
    assert_eq!(ints(&rt, &["a[1]", "a[2]", "a[3]", "a[4]", "b[1]", "b[2]", "b[3]", "b[4]"]), [2, 0, 6, 8, 2, 4, 6, 8]);
}
