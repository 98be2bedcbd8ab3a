//! The runner on the repository's tables, on tables that must fail or not load, and its JUnit
//! report read by a JUnit reader nobody here wrote (PyPI `junitparser`).

use std::path::{Path, PathBuf};
use std::process::Command;

use fbd_test::{Outcome, run_file, test_files};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A table file in a scratch directory (kept alive by the returned guard).
fn table(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new().prefix("fbd-test-").tempdir().expect("temp dir");
    let p = dir.path().join("t.test.json");
    std::fs::write(&p, text).expect("writes");
    (dir, p)
}

fn blinker() -> String {
    root().join("examples/blinker.json").display().to_string()
}

#[test]
fn every_table_of_the_repository_passes() {
    let files = test_files(&[root().join("examples"), root().join("diagrams")]).expect("found");
    assert!(files.len() >= 2, "{files:?}");
    let mut tests = 0;
    for f in &files {
        for r in run_file(f).unwrap_or_else(|e| panic!("{e}")).0 {
            assert_eq!(r.outcome, Outcome::Passed, "{}: {}", f.display(), r.name);
            tests += 1;
        }
    }
    assert!(tests >= 6, "{tests} tests");
}

#[test]
fn each_kind_of_check_fails_when_its_expectation_is_wrong() {
    let cases = [
        (r#"{"fast_lamp": false}"#, "`fast_lamp` = TRUE at scan 0, expected FALSE"),
        (r#"{"slow_cycles": {"min": 1}}"#, "`slow_cycles` = 0 at scan 0, expected at least 1"),
        (r#"{"slow_cycles": {"max": -1}}"#, "expected at most -1"),
        (r#"{"running": {"falls": true}}"#, "no falling edge of `running` in scan 0; at the end it was TRUE"),
        (r#"{"fast_lamp": {"becomes": false}}"#, "`fast_lamp` never became FALSE in scan 0; at the end it was TRUE"),
    ];
    for (expect, message) in cases {
        let (_d, p) = table(&format!(
            r#"{{"fbd_test": 1, "program": {:?}, "tests": [{{"name": "t", "steps": [{{"pulse": {{"start": true}}, "expect": {expect}}}]}}]}}"#,
            blinker()
        ));
        let (r, _) = run_file(&p).expect("loads");
        let Outcome::Failed(fs) = &r[0].outcome else { panic!("{expect} must fail") };
        assert!(fs[0].message.contains(message), "{expect}: {}", fs[0].message);
        assert_eq!((fs[0].row, fs[0].scan), (1, 0), "numbered as a trace numbers scans");
    }
}

#[test]
fn a_bad_table_is_refused_with_its_place_and_a_bad_row_fails_at_its_place() {
    let (_d, p) = table(r#"{"fbd_test": 1, "program": "x.json", "tests": [{"name": "t", "stepz": []}]}"#);
    let e = run_file(&p).expect_err("refused");
    assert!(e.starts_with(&format!("{}:1:", p.display())) && e.contains("unknown field `stepz`"), "{e}");
    let (_d, p) = table(r#"{"fbd_test": 1, "program": "nowhere.json", "tests": [{"name": "t", "steps": []}]}"#);
    let e = run_file(&p).expect_err("refused");
    assert!(e.contains("the program under test does not load") && e.contains("nowhere.json"), "{e}");
    let (_d, p) = table(&format!(
        "{{\"fbd_test\": 1, \"program\": {:?},\n \"tests\": [{{\"name\": \"t\", \"steps\": [\n  {{\"set\": {{\"strat\": true}}, \"expect\": {{\"lamp\": true}}}}]}}]}}",
        blinker()
    ));
    let (r, _) = run_file(&p).expect("loads");
    let Outcome::Failed(fs) = &r[0].outcome else { panic!("must fail") };
    assert!(
        fs.iter().any(|f| f.message.contains("cannot set `strat`") && f.place.is_some_and(|(l, _)| l == 3)),
        "{fs:?}"
    );
    assert!(fs.iter().any(|f| f.message.contains("`lamp`")), "{fs:?}");
    let (_d, p) = table(&format!(
        r#"{{"fbd_test": 1, "program": {:?}, "tests": [{{"name": "t", "steps": [{{"expect": {{"q": {{"rises": true, "=": true}}}}}}]}}]}}"#,
        blinker()
    ));
    let e = run_file(&p).expect_err("refused");
    assert!(e.contains("one kind of check per expectation"), "{e}");
}

#[test]
fn a_macro_is_tested_alone_through_its_ports() {
    let (_d, p) = table(&format!(
        r#"{{"fbd_test": 1, "program": {:?}, "macro": "Blinkr", "tests": [{{"name": "t", "steps": []}}]}}"#,
        root().join("examples/lib/timing.json").display().to_string()
    ));
    let e = run_file(&p).expect_err("refused");
    assert!(e.contains("no macro `Blinkr` to test; the diagram's macros are: Blinker"), "{e}");
}

/// The JUnit report as a JUnit consumer reads it: PyPI's `junitparser` (installed by the
/// README's test command).
#[test]
fn the_junit_report_is_read_by_a_junit_parser() {
    let (_d, wrong) = table(&format!(
        r#"{{"fbd_test": 1, "program": {:?}, "tests": [
  {{"name": "passes", "steps": [{{"pulse": {{"start": true}}, "expect": {{"running": true}}}}]}},
  {{"name": "fails <here> & \"there\"", "steps": [{{"expect": {{"running": true}}}}]}},
  {{"name": "bell\u0007 and \uffff", "steps": [{{"expect": {{"running": true}}}}]}}]}}"#,
        blinker()
    ));
    let (results, _) = run_file(&wrong).expect("loads");
    let xml = fbd_test::junit(&results, &["broken.test.json: does not load".to_string()]);
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("report.xml");
    std::fs::write(&path, &xml).expect("writes");
    let script = r#"
import sys
from junitparser import JUnitXml, Failure, Error
xml = JUnitXml.fromfile(sys.argv[1])
cases = [(s.name, c.name, [type(r).__name__ for r in c.result]) for s in xml for c in s]
for s, c, r in cases:
    print(f"{c}|{','.join(r)}")
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&path)
        .output()
        .expect("python3 runs (the JUnit check needs `pip install junitparser`)");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "junitparser refused the report (or is not installed: `pip install junitparser`):\n{text}\n{xml}"
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        ["passes|", "fails <here> & \"there\"|Failure", "bell\u{FFFD} and \u{FFFD}|Failure", "load|Error"],
        "{text}"
    );
}

/// Links to directories are walked once (two links to `..` ran for ever, one link ran a table
/// again); a FIFO or a link that leads nowhere says what it is.
#[test]
fn directory_links_are_walked_once_and_odd_files_are_named() {
    let dir = tempfile::tempdir().expect("temp");
    let d = dir.path();
    std::fs::create_dir_all(d.join("a/b")).expect("dirs");
    std::fs::copy(root().join("examples/blinker.test.json"), d.join("a/b/blinker.test.json")).expect("copy");
    std::os::unix::fs::symlink("..", d.join("a/b/up")).expect("link");
    std::os::unix::fs::symlink("../..", d.join("a/b/up2")).expect("link");
    std::os::unix::fs::symlink("b", d.join("a/again")).expect("link");
    let found = test_files(&[d.to_path_buf()]).expect("found");
    assert_eq!(found.len(), 1, "{found:?}");
    std::os::unix::fs::symlink("loop", d.join("loop")).expect("link");
    let e = test_files(&[d.join("loop")]).expect_err("a loop");
    assert!(e.contains("a symbolic link that leads nowhere"), "{e}");
    let fifo = d.join("fifo.test.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let e = test_files(std::slice::from_ref(&fifo)).expect_err("a FIFO");
    assert!(e.contains("not a regular file or a directory"), "{e}");
    // In a directory, a FIFO named like a table is passed over (reading it would wait for ever).
    assert_eq!(test_files(&[d.to_path_buf()]).expect("found").len(), 1);
}

/// A test that would run more scans than a recording holds is refused at its row's `run`, before
/// it runs a scan (18446744073709551615 scans ran for ever).
#[test]
fn a_test_that_would_run_for_ever_is_refused_at_its_row() {
    let (_d, p) = table(&format!(
        r#"{{"fbd_test": 1, "program": {:?}, "tests": [{{"name": "long", "steps": [
  {{"run": 10}},
  {{"run": 18446744073709551615}}]}}]}}"#,
        blinker()
    ));
    let (r, _) = run_file(&p).expect("loads");
    let Outcome::Failed(fs) = &r[0].outcome else { panic!("refused") };
    assert_eq!((fs[0].row, fs[0].place.map(|p| p.0), r[0].scans), (2, Some(3), 0), "{fs:?}");
    assert!(fs[0].message.contains("more than the 4294967296"), "{}", fs[0].message);
}

#[test]
fn the_committed_schema_is_the_format() {
    let committed = std::fs::read_to_string(root().join("schema/test.schema.json")).expect("committed");
    assert!(
        committed == fbd_test::json_schema(),
        "schema/test.schema.json is stale: `fbd schema --tests > schema/test.schema.json`"
    );
}

#[test]
fn coverage_counts_what_the_tests_made_the_blocks_do() {
    // The committed blinker tables: every goal of the top level, and of the Blinker all but a
    // counter's q (its preset is a million periods).
    let l = fbd_test::load(&root().join("examples/blinker.test.json")).expect("loads");
    let (_, c) = fbd_test::run_table(&l);
    let scopes = c.scopes(&l.plan);
    assert_eq!(scopes[0].name, "(program)");
    assert_eq!((scopes[0].met, scopes[0].total), (8, 8), "{scopes:?}");
    assert_eq!(scopes[1].name, "Blinker");
    assert_eq!(scopes[1].missed, ["count.q TRUE"], "{scopes:?}");
    // One row that only presses start covers half, and names what it missed.
    let (_d, p) = table(&format!(
        r#"{{"fbd_test": 1, "program": {:?}, "tests": [{{"name": "t", "steps": [{{"pulse": {{"start": true}}, "run": 5}}]}}]}}"#,
        blinker()
    ));
    let l = fbd_test::load(&p).expect("loads");
    let (_, c) = fbd_test::run_table(&l);
    let scopes = c.scopes(&l.plan);
    assert_eq!((scopes[0].met, scopes[0].total), (4, 8), "{scopes:?}");
    assert!(scopes[0].missed.contains(&"latch.q1 FALSE".to_string()), "{scopes:?}");
    // The drawing marks every block with a goal not met, and says which.
    let svg = fbd_test::coverage_svg(&l, &c).expect("drawn");
    assert_eq!(svg.matches("<g class=\"block marked\"").count(), 6, "every block of the top level misses one");
    assert!(svg.contains("latch: not covered: q1 FALSE"), "{svg}");
}

/// The flagship's macros: the Cell covered fully; Processing, over every line of four tiles
/// from {0, 2, 4, 8}, all but three goals, which no line can reach (the unrolled shift steps 2
/// and 3 test for a gap the steps before them have already closed).
#[test]
fn the_2048_macros_tables_cover_the_macros() {
    let cover = |f: &str| {
        let l = fbd_test::load(&root().join(f)).expect("loads");
        let (results, c) = fbd_test::run_table(&l);
        assert!(results.iter().all(|r| r.outcome == Outcome::Passed), "{f}");
        c.scopes(&l.plan).remove(0)
    };
    let cell = cover("diagrams/lib/cell.test.json");
    assert_eq!((cell.name.as_str(), cell.met, cell.total), ("Cell", 18, 18));
    let inst = cover("diagrams/lib/installation.test.json");
    assert_eq!((inst.name.as_str(), inst.met, inst.total), ("Installation", 48, 48));
    let random = cover("diagrams/lib/random.test.json");
    assert_eq!((random.name.as_str(), random.met, random.total), ("Random", 2, 2));
    let p = cover("diagrams/lib/processing.test.json");
    assert_eq!((p.name.as_str(), p.met, p.total), ("Processing", 159, 162));
    assert_eq!(p.missed, ["s2_e2.out TRUE", "s3_e2.out TRUE", "s3_e3.out TRUE"]);
}

/// A function block of a PLCopen project (OpenPLC's and Beremiz's format), tested alone like a
/// macro: `Pulse` of `lights.xml` is a TOF of 60 ms (three scans of its 20 ms task).
#[test]
fn a_plcopen_function_block_is_tested_like_a_macro() {
    let (_d, p) = table(&format!(
        r#"{{"fbd_test": 1, "program": {:?}, "macro": "Pulse", "tests": [{{"name": "q holds 60 ms after start falls", "steps": [
  {{"set": {{"start": true}}, "expect": {{"q": true}}}},
  {{"set": {{"start": false}}, "run": "T#60ms", "expect": {{"q": {{"=": true, "throughout": true}}}}}},
  {{"run": 1, "expect": {{"q": {{"falls": true}}}}}}]}}]}}"#,
        root().join("crates/fbd-plcopen/tests/data/lights.xml").display().to_string()
    ));
    let (results, _) = run_file(&p).expect("the project imports");
    assert_eq!(results[0].outcome, Outcome::Passed, "{:?}", results[0].outcome);
}

/// A failure names its scan as `fbd run --trace` and the fault log do, from 0, and its trace
/// shows the scans around the failure (it showed the row's last 8, long after it).
#[test]
fn a_failure_names_its_scan_as_a_trace_does_and_shows_the_scans_around_it() {
    let (_d, p) = table(&format!(
        r#"{{"fbd_test": 1, "program": {:?}, "tests": [{{"name": "t", "steps": [
  {{"pulse": {{"start": true}}, "run": 60, "expect": {{"fast_lamp": {{"=": true, "throughout": true}}}}}}]}}]}}"#,
        blinker()
    ));
    let (r, _) = run_file(&p).expect("loads");
    let Outcome::Failed(fs) = &r[0].outcome else { panic!("the lamp goes off within 60 scans") };
    let f = fs[0].scan;
    // The same program run scan by scan: scan f (from 0) is the first with the lamp off.
    let plan = fbd_engine::compile_file(root().join("examples/blinker.json"), &Default::default()).expect("compiles");
    let mut rt = fbd_engine::Runtime::new(plan);
    rt.pulse_input("start", fbd_engine::Value::Bool(true)).expect("pulse");
    let mut lamp = Vec::new();
    for _ in 0..60 {
        rt.step();
        lamp.push(rt.output("fast_lamp") == Some(fbd_engine::Value::Bool(true)));
    }
    let first_off = lamp.iter().position(|on| !on).expect("off at some scan") as u64;
    assert_eq!(f, first_off, "{}", fs[0].message);
    let trace = &fs[0].trace;
    assert!(trace.iter().any(|l| l.starts_with(&format!("scan {f}:"))), "{trace:?}");
    assert!(trace.last().is_some_and(|l| l.starts_with(&format!("scan {}:", f + 2))), "{trace:?}");
}
