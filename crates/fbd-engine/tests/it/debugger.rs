//! The debugger API: write, force, run-until, watch, snapshot, online change, real-time runner.
//! (Going back is `history.rs`; that a scan does not allocate is `no_allocation.rs`.)

use std::time::{Duration, Instant};

use crate::harness::{b, i, plan};
use fbd_engine::realtime::RealtimeRunner;
use fbd_engine::runtime::RuntimeError;
use fbd_engine::{Condition, Runtime, StopReason, Value};

/// A counter that counts scans while `run` is TRUE, a comparator and a latch.
const COUNTER: &str = r#"{"fbd": 1, "name": "counter",
  "inputs": [{"name": "run", "type": "BOOL", "default": true}],
  "outputs": [{"name": "count", "type": "INT", "from": "m.q"}, {"name": "big", "type": "BOOL", "from": "big.out"}],
  "blocks": [
    {"id": "inc", "type": "ADD", "inputs": {"in1": "m.prev", "in2": 1}},
    {"id": "m", "type": "MEMORY", "inputs": {"in": "inc.out", "en": "run"}},
    {"id": "big", "type": "GE", "inputs": {"in1": "m.q", "in2": 5}},
    {"id": "inv", "type": "NOT", "inputs": {"in": "big.out"}}
  ]}"#;

fn counter() -> Runtime {
    Runtime::new(plan(COUNTER))
}

#[test]
fn write_applies_once_at_the_next_scan() {
    let mut rt = counter();
    rt.step_n(3);
    assert_eq!(rt.output("count"), Some(i(3)));
    // A stateful output keeps a written value.
    rt.set_input("run", b(false)).expect("input");
    rt.write("m.q", i(40)).expect("m.q is a block output");
    assert_eq!(rt.read("m.q").expect("read"), i(3), "a write waits for the next scan");
    rt.step();
    assert_eq!(rt.read("m.q").expect("read"), i(40));
    rt.step();
    assert_eq!(rt.read("m.q").expect("read"), i(40), "held: en is FALSE");
    // A combinational output is recomputed: the write lasts no longer than its block.
    rt.write("inv.out", b(true)).expect("writable");
    rt.step();
    assert_eq!(rt.read("inv.out").expect("read"), b(false));
}

#[test]
fn a_pulse_lasts_one_scan() {
    let mut rt = counter();
    rt.set_input("run", b(false)).expect("input");
    rt.pulse_input("run", b(true)).expect("pulse");
    assert!(rt.pulse_pending());
    rt.step();
    assert!(!rt.pulse_pending());
    assert_eq!(rt.output("count"), Some(i(1)), "counted during the pulse");
    rt.step_n(3);
    assert_eq!(rt.output("count"), Some(i(1)), "and not after");
    assert_eq!(rt.input("run"), Some(b(false)));
    assert!(matches!(rt.pulse_input("nope", b(true)), Err(RuntimeError::NotAnInput { is_signal: false, .. })));
    // An input event naming a block output was "unknown signal `m.q`; did you mean `m.q`?".
    let e = rt.set_input("m.q", i(1)).expect_err("a block output is no input");
    assert!(matches!(e, RuntimeError::NotAnInput { is_signal: true, .. }), "{e:?}");
    assert!(!e.to_string().contains("did you mean `m.q`"), "{e}");
    assert!(e.to_string().contains("write it"), "{e}");
    let e = rt.set_input("rn", b(true)).expect_err("a typo");
    assert!(e.to_string().contains("did you mean the input `run`?"), "{e}");
}

#[test]
fn force_overrides_the_block_until_released() {
    let mut rt = counter();
    rt.force("big.out", b(true)).expect("force");
    rt.step();
    assert_eq!(rt.output("big"), Some(b(true)), "forced although count = 1");
    assert_eq!(rt.read("inv.out").expect("read"), b(false), "readers see the forced value");
    assert!(rt.is_forced("big.out"));
    assert!(rt.is_forced("inv.in"), "an alias of a forced signal reports forced");
    assert_eq!(rt.forced(), vec![("big.out".to_string(), b(true))]);
    rt.step_n(3);
    assert_eq!(rt.output("big"), Some(b(true)));
    assert!(rt.release("big.out"));
    rt.step();
    assert_eq!(rt.output("count"), Some(i(5)));
    assert_eq!(rt.output("big"), Some(b(true)), "5 >= 5 by itself");
    rt.force("big.out", b(false)).expect("force");
    rt.step();
    assert_eq!(rt.output("big"), Some(b(false)));
    rt.release_all();
    assert!(rt.forced().is_empty());
    rt.step();
    assert_eq!(rt.output("big"), Some(b(true)));
}

#[test]
fn forcing_a_program_input_and_a_delayed_value() {
    let mut rt = counter();
    rt.force("run", b(false)).expect("inputs can be forced");
    rt.set_input("run", b(true)).expect("input");
    rt.step_n(3);
    assert_eq!(rt.output("count"), Some(i(0)), "the forced input wins over the set value");
    rt.release_all();
    rt.force("m.prev", i(100)).expect("a delayed slot can be forced");
    rt.step_n(2);
    assert_eq!(rt.output("count"), Some(i(101)));
}

#[test]
fn aliases_and_bad_values_are_refused_with_a_reason() {
    let mut rt = counter();
    match rt.force("inv.in", b(true)) {
        Err(RuntimeError::ReadOnly { driver, .. }) => assert_eq!(driver.as_deref(), Some("big.out")),
        other => panic!("{other:?}"),
    }
    match rt.write("count", i(1)) {
        Err(RuntimeError::ReadOnly { driver, .. }) => assert_eq!(driver.as_deref(), Some("m.q")),
        other => panic!("{other:?}"),
    }
    match rt.write("m.q", b(true)) {
        Err(e @ RuntimeError::TypeMismatch { .. }) => {
            assert_eq!(e.to_string(), "`m.q` is LINT, the value given is BOOL")
        }
        other => panic!("{other:?}"),
    }
    match rt.read("m.qq") {
        Err(e @ RuntimeError::UnknownSignal { .. }) => assert!(e.to_string().contains("did you mean `m.q`"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn run_until_stops_on_the_condition_or_the_limit() {
    let mut rt = counter();
    let r = rt.run_until(&[Condition::Rises("big.out".into())], 100).expect("valid");
    assert_eq!(r, StopReason::Condition { index: 0, scans: 5 });
    assert_eq!(rt.output("count"), Some(i(5)));
    let r = rt.run_until(&[Condition::Equals("m.q".into(), i(9))], 100).expect("valid");
    assert_eq!(r, StopReason::Condition { index: 0, scans: 4 });
    let r = rt.run_until(&[Condition::Falls("big.out".into())], 20).expect("valid");
    assert_eq!(r, StopReason::Limit);
    assert_eq!(rt.scan_count(), 29);
    rt.set_input("run", b(false)).expect("input");
    let r = rt.run_until(&[Condition::Changes("m.q".into()), Condition::Equals("big.out".into(), b(false))], 10);
    assert_eq!(r, Ok(StopReason::Limit));
    assert!(matches!(
        rt.run_until(&[Condition::Equals("m.q".into(), b(true))], 1),
        Err(RuntimeError::TypeMismatch { .. })
    ));
    assert_eq!(Condition::parse("rises:cell/x.q"), Ok(Condition::Rises("cell/x.q".into())));
    assert_eq!(Condition::parse("m.q=9"), Ok(Condition::Equals("m.q".into(), i(9))));
    assert!(Condition::parse("nonsense").is_err());
}

#[test]
fn a_watch_keeps_the_last_n_values_with_their_scan() {
    let mut rt = counter();
    rt.watch("m.q", 5).expect("watch");
    rt.step_n(12);
    let h = rt.history("m.q").expect("watched");
    assert_eq!(h, (7..12).map(|k| (k, i(k as i64 + 1))).collect::<Vec<_>>());
    rt.unwatch("m.q");
    assert!(rt.history("m.q").is_none());
}

#[test]
fn restoring_a_snapshot_replays_the_same_future() {
    let text = r#"{"fbd": 1, "outputs": [{"name": "n", "type": "INT", "from": "r.n"}, {"name": "x", "type": "REAL", "from": "r.x"}],
      "blocks": [{"id": "r", "type": "RANDOM", "inputs": {"lo": 0, "hi": 1000}}]}"#;
    let mut rt = Runtime::with_seed(plan(text), 7);
    rt.step_n(50);
    let snap = rt.snapshot();
    let first: Vec<Vec<Value>> = (0..100)
        .map(|_| {
            rt.step();
            rt.outputs().to_vec()
        })
        .collect();
    rt.restore(&snap).expect("same plan");
    assert_eq!(rt.scan_count(), 50);
    let second: Vec<Vec<Value>> = (0..100)
        .map(|_| {
            rt.step();
            rt.outputs().to_vec()
        })
        .collect();
    assert_eq!(first, second);
    let mut other = counter();
    assert_eq!(other.restore(&snap), Err(RuntimeError::SnapshotMismatch));
}

#[test]
fn reset_is_a_cold_restart() {
    let mut rt = counter();
    rt.step_n(7);
    rt.reset();
    assert_eq!(rt.scan_count(), 0);
    assert_eq!(rt.clock_us(), 0);
    rt.step();
    assert_eq!(rt.output("count"), Some(i(1)));
}

#[test]
fn online_change_keeps_matching_state_and_reports_the_rest() {
    let mut rt = counter();
    rt.force("inv.out", b(true)).expect("force");
    rt.watch("m.q", 100).expect("watch");
    rt.step_n(8);
    // The new program keeps `m` and `big`, drops `inv`, adds a timer, and makes `inc` REAL.
    let changed = r#"{"fbd": 1, "name": "counter v2",
      "inputs": [{"name": "run", "type": "BOOL", "default": true}],
      "outputs": [{"name": "count", "type": "INT", "from": "m.q"}],
      "blocks": [
        {"id": "inc", "type": "ADD", "inputs": {"in1": "m.prev", "in2": 10}},
        {"id": "m", "type": "MEMORY", "inputs": {"in": "inc.out", "en": "run"}},
        {"id": "big", "type": "GE", "inputs": {"in1": "m.q", "in2": 5}},
        {"id": "t", "type": "TON", "inputs": {"in": "big.out", "pt": 50}},
        {"id": "z", "type": "DELAY", "inputs": {"in": "t.q"}}
      ]}"#;
    let report = rt.online_change(plan(changed));
    assert_eq!(report.kept, vec!["m".to_string()]);
    assert_eq!(report.reset, vec!["t".to_string(), "z".to_string()]);
    assert!(report.removed.is_empty());
    assert_eq!(report.forces_released, vec!["inv.out".to_string()]);
    assert_eq!(rt.plan().name, "counter v2");
    assert_eq!(rt.scan_count(), 8, "the clock goes on");
    rt.step();
    assert_eq!(rt.output("count"), Some(i(18)), "8 kept, then +10");
    assert_eq!(rt.history("m.q").expect("watch kept").len(), 9);
    // Back to the first program: the timer and delay are removed, m is kept again.
    let back = rt.online_change(plan(COUNTER));
    assert_eq!(back.kept, vec!["m".to_string()]);
    assert_eq!(back.removed, vec!["t".to_string(), "z".to_string()]);
    rt.step();
    assert_eq!(rt.output("count"), Some(i(19)));
}

#[test]
fn online_change_resets_a_block_whose_type_changed() {
    let a = r#"{"fbd": 1, "outputs": [{"name": "q", "type": "INT", "from": "m.q"}],
      "blocks": [{"id": "m", "type": "MEMORY", "inputs": {"in": 5, "en": true}}]}"#;
    let b_ = r#"{"fbd": 1, "outputs": [{"name": "q", "type": "REAL", "from": "m.q"}],
      "blocks": [{"id": "m", "type": "MEMORY", "inputs": {"in": 1.5, "en": false}}]}"#;
    let mut rt = Runtime::new(plan(a));
    rt.step();
    let report = rt.online_change(plan(b_));
    assert_eq!(report.reset, vec!["m".to_string()]);
    rt.step();
    assert_eq!(rt.output("q"), Some(Value::Real(0.0)));
}

#[test]
fn the_realtime_runner_scans_pauses_and_steps() {
    let runner = RealtimeRunner::start(counter(), None);
    let deadline = Instant::now() + Duration::from_secs(20);
    while runner.with(|rt| rt.scan_count()) < 3 {
        assert!(Instant::now() < deadline, "the scan thread made no progress in 20 s");
        std::thread::yield_now();
    }
    runner.pause();
    assert!(runner.is_paused());
    // Once paused, only explicit steps advance the program.
    let before = runner.with(|rt| rt.scan_count());
    let after = runner.with(|rt| {
        rt.step();
        rt.scan_count()
    });
    assert_eq!(after, before + 1);
    // The task publishes its statistics when it sees the pause.
    while runner.stats().scans < 3 {
        assert!(Instant::now() < deadline, "the paused task never published its statistics");
        std::thread::yield_now();
    }
    let stats = runner.stats();
    assert!(stats.exec_min <= stats.exec_max);
    assert_eq!(stats.period, Duration::from_millis(5));
    runner.set_period(Duration::from_millis(250));
    assert_eq!(runner.period(), Duration::from_millis(250));
    let rt = runner.stop();
    assert_eq!(rt.scan_count(), after, "no scan ran while paused");
}

#[test]
fn breakpoints_hold_after_the_scan_that_meets_them_and_pause_the_task() {
    let mut rt = counter();
    let first = rt.add_breakpoint(Condition::parse("m.q=3").expect("parses")).expect("resolves");
    let j = rt.add_breakpoint(Condition::parse("rises:big").expect("parses")).expect("resolves");
    rt.step_n(2);
    assert!(!rt.take_breakpoint_hit());
    rt.step();
    assert!(rt.take_breakpoint_hit(), "count is 3 after the third scan");
    assert_eq!(rt.last_breakpoint_hit(), Some((first, 3)), "in the third scan, as scan_count says");
    assert_eq!(rt.scan_count(), 3);
    assert!(!rt.take_breakpoint_hit(), "taken once");
    rt.enable_breakpoint(first, false);
    rt.step_n(2);
    assert_eq!(rt.last_breakpoint_hit(), Some((j, 5)), "big rises when the count reaches 5");
    assert_eq!(rt.breakpoints().iter().map(|b| b.hits).collect::<Vec<_>>(), [1, 1]);
    assert_eq!(rt.breakpoints()[0].condition.to_string(), "m.q=3");
    assert!(matches!(
        rt.add_breakpoint(Condition::parse("nope=1").expect("parses")),
        Err(RuntimeError::UnknownSignal { .. })
    ));
    assert!(matches!(
        rt.add_breakpoint(Condition::parse("big=5").expect("parses")),
        Err(RuntimeError::TypeMismatch { .. })
    ));
    // In the real-time task, a hit pauses it right after that scan.
    let mut rt = counter();
    rt.add_breakpoint(Condition::parse("m.q=4").expect("parses")).expect("resolves");
    let runner = RealtimeRunner::start(rt, None);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !runner.is_paused() {
        assert!(Instant::now() < deadline, "the breakpoint never paused the task");
        std::thread::yield_now();
    }
    let rt = runner.stop();
    assert_eq!(rt.scan_count(), 4, "paused after the scan that made the count 4");
    assert_eq!(rt.output("count"), Some(i(4)));
}
