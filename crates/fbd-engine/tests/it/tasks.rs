//! Tasks (format version 4): top-level blocks that run in some scans only, as IEC 61131-3's
//! tasks run program instances (matiec: one tick, the cycle; a task runs in the scans its
//! period divides, from scan 0, or where its event rises).

use fbd_engine::{Runtime, Value, compile};

use crate::harness::plan;

/// A counter instance run by the task `TASK`: `fast` runs every scan, `slow` every third.
const TWO_TASKS: &str = r#"{"fbd": 4, "cycle_ms": 10,
  "inputs": [{"name": "go", "type": "BOOL"}],
  "macros": [{"name": "COUNT", "inputs": [],
     "outputs": [{"name": "n", "type": "INT", "from": "a.out"}],
     "blocks": [{"id": "a", "type": "ADD", "inputs": {"in1": {"from": "a.out", "feedback": true}, "in2": 1}, "data_type": "INT"}]}],
  "blocks": [{"id": "every", "type": "COUNT"}, {"id": "third", "type": "COUNT"}, {"id": "edge", "type": "COUNT"}],
  "outputs": [{"name": "e", "type": "INT", "from": "every.n"}, {"name": "t", "type": "INT", "from": "third.n"},
              {"name": "g", "type": "INT", "from": "edge.n"}],
  "tasks": [{"name": "fast", "interval_ms": 10, "programs": ["every"]},
            {"name": "slow", "interval_ms": 30, "programs": ["third"]},
            {"name": "kick", "single": "go", "programs": ["edge"]}]}"#;

#[test]
fn a_task_runs_its_blocks_in_the_scans_its_period_divides_or_its_event_rises() {
    let mut rt = Runtime::new(plan(TWO_TASKS));
    let mut got = Vec::new();
    for k in 0..7 {
        rt.set_input("go", Value::Bool(k == 2 || k == 3 || k == 5)).expect("go");
        rt.step();
        let read = |p: &str| rt.read(p).expect(p).as_i64().unwrap_or(-1);
        got.push((read("e"), read("t"), read("g"), rt.read("slow__runs.out").expect("flag") == Value::Bool(true)));
    }
    // `third` runs in scans 0, 3, 6; `edge` where `go` rises (scans 2 and 5).
    let want = [
        (1, 1, 0, true),
        (2, 1, 0, false),
        (3, 1, 1, false),
        (4, 2, 1, true),
        (5, 2, 1, false),
        (6, 2, 2, false),
        (7, 3, 2, true),
    ];
    assert_eq!(got, want);
}

/// What is wrong with the tasks is said at its place, every problem at once; a version 3 file
/// with tasks is refused by its version (an older engine would run it without them).
#[test]
fn bad_tasks_are_refused_at_their_place_all_at_once() {
    let bad = TWO_TASKS
        .replace(r#""interval_ms": 30"#, r#""interval_ms": 25"#)
        .replace(r#""programs": ["every"]"#, r#""programs": ["every", "third", "nothere"]"#)
        .replace(r#"{"id": "edge", "type": "COUNT"}"#, r#"{"id": "edge", "type": "COUNT", "inputs": {"EN": "go"}}"#);
    let e = compile(&bad).expect_err("refused").to_string();
    for want in [
        "task `fast`: runs `nothere`, which is no block of the program's top level",
        "task `slow`: interval 25 ms is no whole multiple of the program's cycle (10 ms)",
        "task `kick`: block `edge` has an EN of its own",
    ] {
        assert!(e.contains(want), "{want}\nin:\n{e}");
    }
    for place in ["<memory>:9:80:", "<memory>:10:45:", "<memory>:11:59:"] {
        assert!(e.contains(place), "placed at line:col {place}: {e}");
    }
    let twice = TWO_TASKS.replace(r#""programs": ["third"]"#, r#""programs": ["every"]"#);
    let e = compile(&twice).expect_err("refused").to_string();
    assert!(e.contains("block `every` is task `fast`'s already"), "{e}");
    let v3 = TWO_TASKS.replace(r#""fbd": 4"#, r#""fbd": 3"#);
    let e = compile(&v3).expect_err("refused").to_string();
    assert!(e.contains("`tasks` are format version 4"), "{e}");
}
