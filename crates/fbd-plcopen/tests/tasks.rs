//! A configuration of several program instances in tasks of different intervals, run as
//! matiec runs it: a tick at the intervals' greatest common divisor, each task's programs
//! called in the scans its period divides, in declared order, sharing their globals. Before,
//! the first instance ran alone and the others were dropped ("their variables are not
//! computed").
//!
//! `tests/data/tasks.xml`: task `quick` (10 ms) runs `first` (program `fast`), task `lazy`
//! (30 ms) runs `second` (`slow`) and then `third` (`fast` again). `fast` counts the global
//! `count` up and copies the global `total` into `echo`, and writes the located global
//! `alarm` (%QX0.1) from its located input `pulse` (%IX0.1); `slow` adds `count` to `total`,
//! copies `count` into `seen` and its located input `button` into its located output `lamp`,
//! and runs a TON. The expected rows are Beremiz's generator + matiec's for the same file and
//! inputs (tools/plcopen/beremiz-check.py: 300 scans, 2,700 values, 0 differences).

use std::path::Path;

use fbd_engine::{Runtime, Value};

#[allow(dead_code)] // the helpers are for the other tests
mod common;

fn imported() -> fbd_plcopen::Imported {
    let (p, xml) = common::data("tasks.xml");
    fbd_plcopen::import(&p, &xml).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn several_programs_in_several_tasks_run_as_matiec_runs_them() {
    let imported = imported();
    assert_eq!(imported.doc.cycle_ms, Some(10.0), "the tick is the intervals' greatest common divisor");
    let mut rt = Runtime::new(common::compile_doc(&imported.doc));
    // The stimulus tools/plcopen/beremiz-check.py drove both with (scan: inputs).
    let stimulus: [&[(&str, bool)]; 10] = [
        &[("button", true), ("pulse", true)],
        &[("button", false)],
        &[("pulse", false)],
        &[],
        &[("button", true)],
        &[("button", false), ("pulse", true)],
        &[],
        &[("button", true)],
        &[],
        &[],
    ];
    let mut rows = Vec::new();
    for set in stimulus {
        for (name, v) in set {
            rt.set_input(name, Value::Bool(*v)).unwrap_or_else(|e| panic!("{e}"));
        }
        rt.step();
        let int = |p: &str| rt.read(p).unwrap_or_else(|e| panic!("{p}: {e}")).as_i64().unwrap_or(-1);
        let bool = |o: &str| rt.output(o) == Some(Value::Bool(true));
        rows.push((
            int("count"),
            int("total"),
            int("first/echo"),
            int("second/seen"),
            int("third/echo"),
            bool("lamp"),
            bool("alarm"),
        ));
    }
    // `second` and `third` run in scans 0, 3, 6, 9: between them `seen` and `lamp` hold (a
    // plain copy of an input, which followed the input every scan before the copy was held),
    // `total` is added to only then, and `first` (every scan) sees it from the scan after.
    let matiec = [
        (2, 1, 0, 1, 1, true, true),
        (3, 1, 1, 1, 1, true, true),
        (4, 1, 1, 1, 1, true, false),
        (6, 6, 1, 5, 6, false, false),
        (7, 6, 6, 5, 6, false, false),
        (8, 6, 6, 5, 6, false, true),
        (10, 15, 6, 9, 15, false, true),
        (11, 15, 15, 9, 15, false, true),
        (12, 15, 15, 9, 15, false, true),
        (14, 28, 15, 13, 28, true, true),
    ];
    assert_eq!(rows, matiec);
}

#[test]
fn a_slow_task_s_timer_is_not_called_between_its_runs() {
    let mut rt = Runtime::new(common::compile_doc(&imported().doc));
    let mut since = Vec::new();
    for _ in 0..8 {
        rt.step();
        since.push(match rt.read("second/since") {
            Ok(Value::Time(ns)) => ns / 1_000_000,
            other => panic!("{other:?}"),
        });
    }
    // Called at 0 ms (started), 30 ms, 60 ms (elapsed at 50: ET is PT), held between.
    assert_eq!(since, [0, 0, 0, 30, 30, 30, 50, 50]);
}

#[test]
fn the_import_names_the_instances_and_how_often_each_runs() {
    let imported = imported();
    let ids: Vec<&str> = imported.doc.blocks.iter().map(|b| b.id.as_str()).collect();
    assert!(ids.starts_with(&["first", "second", "third"]), "{ids:?}");
    let said = imported.warnings.join("\n");
    assert!(said.contains("second every 3 scans, third every 3 scans"), "{said}");
    // The located variables keep their addresses at the top level (`fbd serve` maps them).
    let at = |name: &str| {
        let ins = imported.doc.inputs.iter().map(|p| (&p.name, &p.address));
        let outs = imported.doc.outputs.iter().map(|p| (&p.name, &p.address));
        ins.chain(outs).find(|(n, _)| *n == name).and_then(|(_, a)| a.clone())
    };
    assert_eq!(at("button").as_deref(), Some("%IX0.0"));
    assert_eq!(at("pulse").as_deref(), Some("%IX0.1"));
    assert_eq!(at("lamp").as_deref(), Some("%QX0.0"));
    assert_eq!(at("alarm").as_deref(), Some("%QX0.1"));
}

#[test]
fn an_instance_of_no_program_is_refused_at_its_place() {
    let (_, xml) = common::data("tasks.xml");
    let bad = xml
        .replace(r#"<pouInstance name="third" typeName="fast"/>"#, r#"<pouInstance name="third" typeName="fastest"/>"#);
    assert_ne!(bad, xml);
    let e = fbd_plcopen::import(Path::new("tasks.xml"), &bad).unwrap_err();
    assert!(
        e.0.iter().any(|d| d.message.contains("`third` runs `fastest`, which is no program POU") && d.line.is_some()),
        "{e}"
    );
}

/// A SINGLE (event) task runs its programs in the scans where its variable rises, read
/// before any program runs, as matiec's R_TRIG of it (it was refused; before that, run every
/// scan as a cyclic task). `tests/data/single-task.xml` is `tasks.xml` with task `lazy` SINGLE
/// on the global `kick` (which `fast` copies into `kicked`): Beremiz's generator + matiec with
/// the same inputs, 300 scans, 3,300 values, 0 differences.
#[test]
fn a_single_task_runs_when_its_variable_rises() {
    let (p, xml) = common::data("single-task.xml");
    let imported = fbd_plcopen::import(&p, &xml).unwrap_or_else(|e| panic!("{e}"));
    assert!(imported.warnings.iter().any(|w| w.contains("second when `kick` rises")), "{:?}", imported.warnings);
    let mut rt = Runtime::new(common::compile_doc(&imported.doc));
    let kick = [false, false, false, true, true, true, false, false, true, false, true, true];
    let mut seen = Vec::new();
    for k in kick {
        rt.set_input("kick", Value::Bool(k)).unwrap_or_else(|e| panic!("{e}"));
        rt.step();
        seen.push(rt.read("second/seen").ok().and_then(|v| v.as_i64()).unwrap_or(-1));
    }
    // `second` runs at scans 3, 8 and 10, reading `count` as `first` left it in that scan.
    assert_eq!(seen, [0, 0, 0, 4, 4, 4, 4, 4, 10, 10, 13, 13]);
}
