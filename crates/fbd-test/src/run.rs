//! A table run: each test from a cold start on the deterministic runtime, row by row, every
//! expectation checked at every scan it covers. A test stops at its first failing row, with
//! every expectation of that row that failed, the scan, and the row's last scans as a trace.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fbd_engine::locate::{Seg, line_col, value_span};
use fbd_engine::{Runtime, Value};

use crate::coverage::Coverage;
use crate::load::{Loaded, load};
use crate::table::{Check, Expect, Run, Step, TestCase};

/// How many scans of a failing row the trace shows.
const TRACE_SCANS: usize = 8;

/// How many scans after the first failure of a row the trace goes on to.
const AFTER_FAILURE: u64 = 2;

/// One expectation that did not hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The row (from 1).
    pub row: usize,
    /// Where the expectation is written in the table file (line, column), when found.
    pub place: Option<(usize, usize)>,
    /// The scan where it was seen to fail, numbered as traces, stimulus files, recordings and
    /// the fault log number them: from 0, the first scan of the test being scan 0 (a refusal
    /// before a row runs names the row's first scan).
    pub scan: u64,
    /// What was expected and what was there.
    pub message: String,
    /// The row's note.
    pub note: Option<String>,
    /// The row's last scans: the signals it checks and the inputs it sets, one line per scan.
    pub trace: Vec<String>,
}

/// How a test ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Every row held.
    Passed,
    /// A row did not: each expectation of it that failed.
    Failed(Vec<Failure>),
}

/// One test's result.
#[derive(Clone, Debug)]
pub struct TestResult {
    /// The table file.
    pub file: PathBuf,
    /// The test's name.
    pub name: String,
    /// Passed, or what failed.
    pub outcome: Outcome,
    /// Scans run.
    pub scans: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// What a table file's run gives: each test's result and the coverage of them all.
pub type FileRun = (Vec<TestResult>, Coverage);

/// Loads the table file at `path` and runs every test in it.
pub fn run_file(path: &Path) -> Result<FileRun, String> {
    Ok(run_table(&load(path)?))
}

/// Runs every test of a loaded table file.
pub fn run_table(l: &Loaded) -> FileRun {
    let mut coverage = Coverage::of(&l.plan);
    let results = l.table.tests.iter().enumerate().map(|(k, t)| run_test(l, k, t, &mut coverage)).collect();
    (results, coverage)
}

/// The scans row `step` runs at a cycle of `cycle_us`: its `run` (a duration in whole scans,
/// rounded up), else one.
fn row_scans(step: &Step, cycle_us: u64) -> u64 {
    match step.run {
        None => 1,
        Some(Run::Scans(n)) => n,
        Some(Run::Time(ns)) => {
            let cycle = cycle_us.max(1) as i128 * 1000;
            ((ns as i128 + cycle - 1) / cycle) as u64
        }
    }
}

/// The most scans one test may run, its rows together: as many as a recording may hold (a row
/// of 18446744073709551615 scans, or `T#106751d` at a short cycle, ran for ever).
pub const MAX_TEST_SCANS: u64 = fbd_engine::limits::MAX_RECORDED_SCANS;

/// The row by which test `t` would run more than [`MAX_TEST_SCANS`], refused at its `run`
/// before anything runs.
fn too_long(l: &Loaded, k: usize, t: &TestCase) -> Option<Failure> {
    let mut total: u64 = 0;
    for (j, step) in t.steps.iter().enumerate() {
        total = total.saturating_add(row_scans(step, l.plan.cycle_us));
        if total > MAX_TEST_SCANS {
            return Some(Failure {
                row: j + 1,
                place: place(l, (k, j), &["run"]),
                scan: 0,
                message: format!(
                    "by this row the test runs {total} scans, more than the {MAX_TEST_SCANS} one test may run (as many as a recording holds); nothing was run"
                ),
                note: step.note.clone(),
                trace: Vec::new(),
            });
        }
    }
    None
}

fn run_test(l: &Loaded, k: usize, t: &TestCase, coverage: &mut Coverage) -> TestResult {
    let started = Instant::now();
    let mut rt = Runtime::with_seed(l.plan.clone(), t.seed.unwrap_or(l.table.seed));
    let mut outcome = Outcome::Passed;
    if let Some(f) = too_long(l, k, t) {
        return TestResult {
            file: l.path.clone(),
            name: t.name.clone(),
            outcome: Outcome::Failed(vec![f]),
            scans: 0,
            elapsed: started.elapsed(),
        };
    }
    for (j, step) in t.steps.iter().enumerate() {
        let failures = run_row(l, &mut rt, (k, j), step, coverage);
        if !failures.is_empty() {
            outcome = Outcome::Failed(failures);
            break;
        }
    }
    TestResult {
        file: l.path.clone(),
        name: t.name.clone(),
        outcome,
        scans: rt.scan_count(),
        elapsed: started.elapsed(),
    }
}

/// The value of `signal`: a program output (or macro port) by name, else any signal path.
fn read(rt: &Runtime, signal: &str) -> Result<Value, String> {
    rt.output(signal).or_else(|| rt.input(signal)).map_or_else(|| rt.read(signal).map_err(|e| e.to_string()), Ok)
}

/// Where row `j` of test `k` writes `what` (`["expect", "q"]`), as line and column.
fn place(l: &Loaded, (k, j): (usize, usize), what: &[&str]) -> Option<(usize, usize)> {
    let mut path = vec![Seg::Key("tests".into()), Seg::Index(k), Seg::Key("steps".into()), Seg::Index(j)];
    path.extend(what.iter().map(|w| Seg::Key((*w).into())));
    value_span(&l.text, &path).map(|(s, _)| line_col(&l.text, s))
}

/// An expectation being checked over a row.
struct Watch<'s> {
    signal: &'s str,
    expect: &'s Expect,
    /// The value before the row (for edges) and the last one seen.
    last: Option<Value>,
    /// Met already (`becomes`, edges), or the first failure seen (`throughout`).
    met: bool,
    failed: Option<(u64, String)>,
}

fn run_row(l: &Loaded, rt: &mut Runtime, at: (usize, usize), step: &Step, coverage: &mut Coverage) -> Vec<Failure> {
    let fail_at = |what: &[&str], scan: u64, message: String| Failure {
        row: at.1 + 1,
        place: place(l, at, what),
        scan,
        message,
        note: step.note.clone(),
        trace: Vec::new(),
    };
    // What the row applies, each refused with its place.
    let mut refused = Vec::new();
    for p in &step.release {
        rt.release(p);
    }
    for (p, v) in &step.write {
        if let Err(e) = rt.write(p, v.0) {
            refused.push(fail_at(&["write", p], rt.scan_count(), format!("cannot write `{p}`: {e}")));
        }
    }
    for (p, v) in &step.force {
        if let Err(e) = rt.force(p, v.0) {
            refused.push(fail_at(&["force", p], rt.scan_count(), format!("cannot force `{p}`: {e}")));
        }
    }
    for (p, v) in &step.set {
        if let Err(e) = rt.set_input(p, v.0) {
            refused.push(fail_at(&["set", p], rt.scan_count(), format!("cannot set `{p}`: {e}")));
        }
    }
    for (p, v) in &step.pulse {
        if let Err(e) = rt.pulse_input(p, v.0) {
            refused.push(fail_at(&["pulse", p], rt.scan_count(), format!("cannot pulse `{p}`: {e}")));
        }
    }
    let mut watches: Vec<Watch> = Vec::new();
    for (signal, expect) in &step.expect {
        match read(rt, signal) {
            Ok(v) => watches.push(Watch { signal, expect, last: Some(v), met: false, failed: None }),
            Err(e) => refused.push(fail_at(&["expect", signal], rt.scan_count(), format!("`{signal}`: {e}"))),
        }
    }
    if !refused.is_empty() {
        return refused;
    }
    let scans = row_scans(step, rt.plan().cycle_us);
    // Scans numbered from 0, as a trace numbers them: the row's first is the runtime's count
    // before it.
    let first = rt.scan_count();
    let shown: Vec<&str> =
        step.expect.keys().chain(step.set.keys()).chain(step.pulse.keys()).map(String::as_str).collect();
    let mut trace: VecDeque<String> = VecDeque::new();
    // Once an expectation fails, the trace keeps the scans before it and AFTER_FAILURE after,
    // then stops: it shows the failure, not the row's end.
    let mut trace_until: Option<u64> = None;
    for i in 0..scans {
        rt.step();
        // A loop ran past the watchdog: the task stopped, no scan runs after it; the row fails
        // saying where (its expectations would only see the values the stop left).
        if let Some(why) = rt.halt_message() {
            let mut f = fail_at(&[], rt.scan_count(), format!("the task stopped at {why}"));
            f.trace = trace.iter().cloned().collect();
            return vec![f];
        }
        coverage.observe(rt);
        let scan = rt.scan_count() - 1;
        if trace_until.is_none_or(|until| scan <= until) {
            let line: Vec<String> =
                shown.iter().map(|s| format!("{s}={}", read(rt, s).map_or("?".into(), |v| v.short()))).collect();
            if trace.len() == TRACE_SCANS {
                trace.pop_front();
            }
            trace.push_back(format!("scan {scan}: {}", line.join(" ")));
        }
        for w in &mut watches {
            let v = read(rt, w.signal).unwrap_or(Value::Bool(false));
            observe(w, v, scan, i);
        }
        if trace_until.is_none() && watches.iter().any(|w| w.failed.is_some()) {
            trace_until = Some(scan + AFTER_FAILURE);
        }
    }
    let last = rt.scan_count() - 1;
    let mut failures = Vec::new();
    for w in &watches {
        if let Some(message) = verdict(w, (first, last)) {
            let mut f = fail_at(&["expect", w.signal], w.failed.as_ref().map_or(last, |f| f.0), message);
            f.trace = trace.iter().cloned().collect();
            failures.push(f);
        }
    }
    failures
}

/// One scan's value of a watched signal (`i`: the scan's place in the row, from 0).
fn observe(w: &mut Watch, v: Value, scan: u64, i: u64) {
    let before = w.last.replace(v);
    let Expect::Check(c) = w.expect else { return };
    if c.throughout && w.failed.is_none() && !in_range(c, &v) {
        w.failed = Some((scan, v.short()));
    }
    if let Some(want) = &c.becomes
        && c.within.is_none_or(|n| i < n)
        && equal(&v, &want.0, c.tol)
    {
        w.met = true;
    }
    let edge = |from: bool, to: bool| before.as_ref() == Some(&Value::Bool(from)) && v == Value::Bool(to);
    if (c.rises && edge(false, true)) || (c.falls && edge(true, false)) {
        w.met = true;
    }
}

/// What failed of a watched expectation over scans `first..=last`, if anything.
fn verdict(w: &Watch, (first, last): (u64, u64)) -> Option<String> {
    let now = w.last.unwrap_or(Value::Bool(false));
    let s = w.signal;
    let span = if first == last { format!("scan {last}") } else { format!("scans {first}..{last}") };
    match w.expect {
        Expect::Value(want) => (!equal(&now, &want.0, None))
            .then(|| format!("`{s}` = {} at scan {last}, expected {}", now.short(), want.0.short())),
        Expect::Check(c) if c.throughout => w
            .failed
            .as_ref()
            .map(|(scan, got)| format!("`{s}` = {got} at scan {scan}, expected {} throughout {span}", wanted(c))),
        Expect::Check(c) if c.eq.is_some() || c.min.is_some() || c.max.is_some() => {
            (!in_range(c, &now)).then(|| format!("`{s}` = {} at scan {last}, expected {}", now.short(), wanted(c)))
        }
        Expect::Check(c) if c.becomes.is_some() && !w.met => {
            let want = c.becomes.as_ref().map_or(String::new(), |v| v.0.short());
            let within = c.within.map_or(String::new(), |n| format!(" (within {n} scans)"));
            Some(format!("`{s}` never became {want} in {span}{within}; at the end it was {}", now.short()))
        }
        Expect::Check(c) if (c.rises || c.falls) && !w.met => {
            let edge = if c.rises { "rising" } else { "falling" };
            Some(format!("no {edge} edge of `{s}` in {span}; at the end it was {}", now.short()))
        }
        Expect::Check(_) => None,
    }
}

/// What a range or equality check wants, as the message says it.
fn wanted(c: &Check) -> String {
    match (&c.eq, &c.min, &c.max) {
        (Some(v), _, _) => match c.tol {
            Some(t) => format!("{} ± {t}", v.0.short()),
            None => v.0.short(),
        },
        (None, Some(a), Some(b)) => format!("within {}..{}", a.0.short(), b.0.short()),
        (None, Some(a), None) => format!("at least {}", a.0.short()),
        (None, None, Some(b)) => format!("at most {}", b.0.short()),
        (None, None, None) => String::new(),
    }
}

fn in_range(c: &Check, v: &Value) -> bool {
    c.eq.as_ref().is_none_or(|e| equal(v, &e.0, c.tol))
        && c.min.as_ref().is_none_or(|m| number(v).zip(number(&m.0)).is_some_and(|(a, b)| a >= b))
        && c.max.as_ref().is_none_or(|m| number(v).zip(number(&m.0)).is_some_and(|(a, b)| a <= b))
}

/// A value as a number, for ranges and for an integer written for a REAL.
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) | Value::Time(i) => Some(*i as f64),
        Value::ULInt(u) => Some(*u as f64),
        Value::Real(r) => Some(*r),
        Value::Bool(_) | Value::Str(_) => None,
    }
}

/// Whether `got` is the value `want` as a table writes it: the same value, an integer for a
/// REAL of its value, within `tol` for a REAL.
fn equal(got: &Value, want: &Value, tol: Option<f64>) -> bool {
    match (got, want) {
        (Value::Real(_), _) | (_, Value::Real(_)) => {
            number(got).zip(number(want)).is_some_and(|(a, b)| (a - b).abs() <= tol.unwrap_or(0.0))
        }
        (Value::Int(a), Value::ULInt(b)) | (Value::ULInt(b), Value::Int(a)) => u64::try_from(*a).is_ok_and(|a| a == *b),
        _ => got == want,
    }
}

/// Test `k` of a loaded table run again with a recorder on: its rows as a recording of the
/// program, to replay in the HMI and stop at the scan where it failed. `None` for a macro
/// tested alone (its program of one instance has no file to load).
pub fn recording_of(l: &Loaded, k: usize) -> Option<fbd_engine::Recording> {
    if l.table.macro_name.is_some() {
        return None;
    }
    let t = l.table.tests.get(k)?;
    let mut rt = Runtime::with_seed(l.plan.clone(), t.seed.unwrap_or(l.table.seed));
    rt.start_recording(0);
    let mut coverage = Coverage::of(&l.plan);
    for (j, step) in t.steps.iter().enumerate() {
        if !run_row(l, &mut rt, (k, j), step, &mut coverage).is_empty() {
            break;
        }
    }
    rt.stop_recording(fbd_engine::runtime::ProgramId::of(&l.project))
}
