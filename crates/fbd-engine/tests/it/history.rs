//! Going back in the scan cycle: the history (step back, run back until a condition, its
//! budget), recordings that replay bit for bit, and playback.

use std::time::Instant;

use fbd_engine::{Condition, Runtime, StopReason, Value};

/// Run 5,000 scans of the 2048 program with random commands, writes and a force, step back
/// 1,234 scans: the state equals a fresh run to that scan, bit for bit; stepping forward again
/// with the same stimuli gives back the same state as before.
#[test]
fn stepping_back_gives_the_state_of_a_fresh_run_to_that_scan() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../diagrams/2048.json");
    let plan = fbd_engine::compile_file(path, &Default::default()).expect("compiles");
    // The stimuli, decided up front so that the fresh run can repeat them.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut script: Vec<(u64, u8, i64)> = Vec::new();
    for scan in 0..5000u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        match x % 40 {
            0..=3 => script.push((scan, 0, (x % 6 + 1) as i64)), // a command pulse
            4 => script.push((scan, 1, 2)),                      // write a cell
            5 if scan > 2000 && scan < 2100 => script.push((scan, 2, 8)), // force a cell
            6 => script.push((scan, 3, 0)),                      // release
            _ => {}
        }
    }
    let apply = |rt: &mut Runtime, scan: u64| {
        for (_, kind, v) in script.iter().filter(|s| s.0 == scan) {
            match kind {
                0 => rt.pulse_input("command", Value::Int(*v)).expect("pulse"),
                1 => rt.write("cell_2_2/mem.q", Value::Int(*v)).expect("write"),
                2 => rt.force("cell_3_3/mem.q", Value::Int(*v)).expect("force"),
                _ => {
                    rt.release("cell_3_3/mem.q");
                }
            }
        }
    };
    let mut rt = Runtime::with_seed(plan.clone(), 4);
    rt.enable_history(100, 64 << 20);
    rt.watch("score", 10_000).expect("watch");
    for scan in 0..5000 {
        apply(&mut rt, scan);
        rt.step();
    }
    let end_state = rt.state().clone();
    let reached = rt.step_back(1234).expect("within the history");
    assert_eq!(reached, 5000 - 1234);
    let mut fresh = Runtime::with_seed(plan, 4);
    for scan in 0..reached {
        apply(&mut fresh, scan);
        fresh.step();
    }
    assert_eq!(rt.scan_count(), fresh.scan_count());
    assert_eq!(rt.clock_us(), fresh.clock_us());
    assert!(rt.state() == fresh.state(), "the state after stepping back is a fresh run's, bit for bit");
    assert_eq!(rt.forced(), fresh.forced(), "and so are the forces");
    assert_eq!(
        rt.history("score").expect("watched").last().map(|s| s.0),
        Some(reached - 1),
        "the trend ends there too"
    );
    // Forward again with the same stimuli: the same end.
    for scan in reached..5000 {
        apply(&mut rt, scan);
        rt.step();
    }
    assert!(*rt.state() == end_state, "replaying forward reaches the same state");
    let span = rt.history_span().expect("on");
    assert!(span.bytes <= 64 << 20 && span.snapshots >= 50, "{span:?}");
    // With a small budget the oldest snapshots go, and too far back says how far it reaches.
    let mut small = Runtime::with_seed(fbd_engine::compile_file(path, &Default::default()).expect("compiles"), 4);
    small.enable_history(10, 200_000);
    small.step_n(3000);
    let oldest = small.history_span().expect("on").oldest;
    assert!(oldest > 0, "the budget dropped the first snapshots");
    let e = small.step_back(2999).unwrap_err();
    assert!(e.to_string().contains(&format!("reaches back to scan {oldest}")), "{e}");
    assert_eq!(small.step_back(3000 - oldest).expect("just within"), oldest);
}

/// What one step back costs on the 2048 program with 10,000 scans of history (a snapshot every
/// 100 scans): `cargo test --release -p fbd-engine --test it step_back_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn step_back_cost_on_the_2048_program() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../diagrams/2048.json");
    let mut rt = Runtime::with_seed(fbd_engine::compile_file(path, &Default::default()).expect("compiles"), 4);
    rt.enable_history(100, 64 << 20);
    for scan in 0..10_000u64 {
        if scan % 9 == 0 {
            rt.pulse_input("command", Value::Int((scan % 4 + 1) as i64)).expect("pulse");
        }
        rt.step();
    }
    let span = rt.history_span().expect("on");
    let mut worst = std::time::Duration::ZERO;
    for _ in 0..50 {
        let t = Instant::now();
        rt.step_back(1).expect("back");
        worst = worst.max(t.elapsed());
        rt.step();
    }
    let t = Instant::now();
    rt.step_back(9_999).expect("back to the start");
    eprintln!(
        "history: {} snapshots, {} kB; one scan back: worst {:?} of 50; 9,999 back: {:?}",
        span.snapshots,
        span.bytes / 1024,
        worst,
        t.elapsed()
    );
}

/// A recorded run replays bit for bit; a changed run is caught at the first scan whose state
/// differs; a recording of another version or program says so.
#[test]
fn a_recording_replays_bit_for_bit_and_names_the_first_scan_that_differs() {
    use fbd_engine::Recording;
    use fbd_engine::load::{FsProvider, load};
    use fbd_engine::runtime::ProgramId;
    use fbd_engine::runtime::RECORDING_VERSION;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../diagrams/2048.json");
    let project = load(&FsProvider, std::path::Path::new(path)).expect("loads");
    let plan = fbd_engine::compile_project(&project, &Default::default()).expect("compiles");
    let mut rt = Runtime::with_seed(plan.clone(), 7);
    rt.start_recording(10);
    for scan in 0..600u64 {
        if scan % 23 == 0 {
            rt.pulse_input("command", Value::Int((scan / 23 % 4 + 1) as i64)).expect("pulse");
        }
        if scan == 5 {
            rt.pulse_input("command", Value::Int(5)).expect("start");
        }
        if scan == 300 {
            rt.write_now("cell_1_1/mem.q", Value::Int(64)).expect("write now");
            rt.force("cell_4_4/mem.q", Value::Int(2)).expect("force");
        }
        if scan == 400 {
            rt.release_all();
        }
        rt.step();
    }
    let rec = rt.stop_recording(ProgramId::of(&project)).expect("recording");
    assert_eq!((rec.scans, rec.hashes.len()), (600, 60));
    let text = rec.to_json();
    let back = Recording::from_json(&text).expect("reads back");
    assert_eq!(back, rec);
    assert_eq!(back.program_differs(&project), None);
    let mut again = Runtime::with_seed(plan.clone(), 7);
    assert_eq!(again.replay(&back, true).expect("replays"), None, "no divergence");
    assert!(again.state() == rt.state(), "the same state, bit for bit");
    // Without the write at scan 300 the replay differs from the first hash after it.
    let mut altered = back.clone();
    altered.events.retain(|e| !matches!(e.stimulus, fbd_engine::runtime::Stimulus::WriteNow { .. }));
    let d = Runtime::with_seed(plan, 7).replay(&altered, true).expect("replays").expect("differs");
    assert_eq!(d.scan, 310, "the first hash after the missing write");
    // Another version, or garbage, is refused with the reason.
    assert!(
        Recording::from_json(&text.replace(&format!("\"fbd_recording\":{RECORDING_VERSION}"), "\"fbd_recording\":9"))
            .unwrap_err()
            .contains("version 9")
    );
    assert!(Recording::from_json("{}").unwrap_err().contains("no `fbd_recording`"));
}

/// The end of a recording is checked too: a run shorter than `hash_every` (or the scans after
/// its last periodic hash) carries the state hash of its end, so a replay and a playback of an
/// altered timeline say where it differs. A 17-scan recording had no hash at all and "passed"
/// `fbd replay --check` with any of its events changed.
#[test]
fn the_end_of_a_short_recording_is_checked() {
    use fbd_engine::Recording;
    use fbd_engine::runtime::ProgramId;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json");
    let plan = fbd_engine::compile_file(path, &Default::default()).expect("compiles");
    let mut rt = Runtime::new(plan.clone());
    rt.start_recording(100);
    rt.pulse_input("start", Value::Bool(true)).expect("pulse");
    rt.step_n(17);
    let rec = rt.stop_recording(ProgramId { name: "blinker".into(), files: Vec::new() }).expect("recording");
    assert_eq!((rec.scans, rec.hashes.len(), rec.checked_hashes()), (17, 0, 1));
    let rec = Recording::from_json(&rec.to_json()).expect("reads back");
    assert_eq!(Runtime::new(plan.clone()).replay(&rec, true).expect("replays"), None);
    let mut altered = rec.clone();
    altered.events.clear();
    let d = Runtime::new(plan.clone()).replay(&altered, true).expect("replays").expect("differs at the end");
    assert_eq!(d.scan, 17);
    // The window's playback stops at the end saying so.
    let mut p = Runtime::new(plan.clone());
    p.start_playback(altered).expect("plays");
    p.step_n(17);
    let st = p.playback().expect("playing");
    assert_eq!((st.at, st.divergence.map(|d| d.scan)), (17, Some(17)));
    // A run that ends on a periodic hash needs no second one.
    let mut whole = Runtime::new(plan.clone());
    whole.start_recording(10);
    whole.step_n(20);
    let r = whole.stop_recording(rec.program.clone()).expect("recording");
    assert_eq!((r.hashes.len(), r.end_hash.as_deref(), r.checked_hashes()), (2, None, 2));
    // Without hashes (hash_every 0) there is no end hash either; a bad one is refused.
    let mut none = Runtime::new(plan);
    none.start_recording(0);
    none.step_n(3);
    assert_eq!(none.stop_recording(rec.program.clone()).expect("recording").end_hash, None);
    let mut bad = rec;
    bad.end_hash = Some("xyz".into());
    let e = Recording::from_json(&bad.to_json()).expect_err("refused");
    assert!(e.contains("the end's state hash `xyz` is not 16 hexadecimal digits"), "{e}");
}

/// A recording is a file anyone can edit: one whose timeline no run could have written (events
/// out of order, past the end, hashes out of place or not hashes, days of scans) is refused with
/// every reason, by the reader, a replay and a playback alike. An event out of order was skipped
/// without a word; a made-up scan count kept a replay or a seek busy for days.
#[test]
fn a_recording_no_run_could_have_written_is_refused_with_every_reason() {
    use fbd_engine::Recording;
    use fbd_engine::runtime::ProgramId;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json");
    let plan = fbd_engine::compile_file(path, &Default::default()).expect("compiles");
    let mut rt = Runtime::new(plan.clone());
    rt.start_recording(10);
    for scan in 0..100 {
        if scan % 20 == 0 {
            rt.pulse_input("start", Value::Bool(true)).expect("pulse");
        }
        rt.step();
    }
    let rec = rt.stop_recording(ProgramId { name: "blinker".into(), files: Vec::new() }).expect("recording");
    assert_eq!((rec.events.len(), rec.hashes.len()), (5, 10));
    rec.check().expect("what a run wrote is consistent");
    let mut bad = rec.clone();
    bad.events.swap(1, 3);
    bad.events[4].scan = 100;
    bad.hashes[2].0 = 25;
    bad.hashes[5].1 = "not a hash".into();
    bad.hashes[9].0 = 110;
    let e = Recording::from_json(&bad.to_json()).expect_err("refused");
    for says in [
        "event 2 (before scan 40) comes after one before scan 60",
        "event 4 is before scan 100, but the recording ends after 100",
        "state hash 2 (after scan 25): not a multiple of `hash_every`",
        "state hash 5 (after scan 60): not 16 hexadecimal digits",
        "state hash 9 (after scan 110): after the end of the recording",
    ] {
        assert!(e.contains(says), "missing `{says}` in: {e}");
    }
    let e = Runtime::new(plan.clone()).replay(&bad, true).expect_err("a replay refuses it too");
    assert!(e.to_string().contains("comes after one before scan 60"), "{e}");
    let mut forever = rec.clone();
    forever.scans = u64::MAX / 2;
    let e = Runtime::new(plan).start_playback(forever).expect_err("so does a playback");
    assert!(e.contains("more than the limit of 4294967296"), "{e}");
}

/// Running back until a condition lands right after the latest earlier scan in which it held
/// (where running forward until it would have stopped), in state bit for bit; again, on the
/// one before; with nothing within the limit, the runtime stays where it was.
#[test]
fn running_back_until_a_condition_lands_after_the_scan_it_held_in() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../diagrams/2048.json");
    let plan = fbd_engine::compile_file(path, &Default::default()).expect("compiles");
    let drive = |rt: &mut Runtime, scan: u64| {
        if scan == 3 {
            rt.pulse_input("command", Value::Int(5)).expect("start");
        } else if scan.is_multiple_of(37) {
            rt.pulse_input("command", Value::Int((scan / 37 % 4 + 1) as i64)).expect("move");
        }
    };
    let mut rt = Runtime::with_seed(plan.clone(), 11);
    rt.enable_history(100, 64 << 20);
    // Where `score` changed, seen going forward: the scan count after the scan that changed it.
    let mut changed_at = Vec::new();
    let mut states = std::collections::HashMap::new();
    for scan in 0..3000 {
        drive(&mut rt, scan);
        let before = rt.read("score").expect("score");
        rt.step();
        if !rt.read("score").expect("score").same_bits(before) {
            changed_at.push(rt.scan_count());
            states.insert(rt.scan_count(), rt.state().clone());
        }
    }
    assert!(changed_at.len() >= 3, "the game scored: {changed_at:?}");
    let end = rt.state().clone();
    let cond = [Condition::Changes("score".into())];
    // Nothing within a limit shorter than the distance to the last change: stays.
    let short = 3000 - changed_at.last().unwrap() - 1;
    if short > 0 {
        assert_eq!(rt.run_back_until(&cond, short).expect("runs"), StopReason::Limit);
        assert_eq!(rt.scan_count(), 3000);
        assert!(*rt.state() == end, "where it was");
    }
    for want in changed_at.iter().rev().take(3) {
        let from = rt.scan_count();
        let r = rt.run_back_until(&cond, 10_000).expect("runs");
        assert_eq!(r, StopReason::Condition { index: 0, scans: from - want });
        assert_eq!(rt.scan_count(), *want);
        assert!(*rt.state() == states[want], "the state after the scan that changed the score");
    }
}

/// A playback feeds the recording to the scans: it reaches the recorded state, stops at the
/// end like a breakpoint, seeks back and forth to the same states, and a changed recording
/// stops at the first scan whose hash differs.
#[test]
fn a_playback_feeds_the_recording_and_seeks_back_and_forth() {
    use fbd_engine::load::{FsProvider, load};
    use fbd_engine::runtime::ProgramId;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../diagrams/2048.json");
    let project = load(&FsProvider, std::path::Path::new(path)).expect("loads");
    let plan = fbd_engine::compile_project(&project, &Default::default()).expect("compiles");
    let mut rt = Runtime::with_seed(plan.clone(), 7);
    rt.start_recording(10);
    let mut at_250 = None;
    for scan in 0..600u64 {
        if scan == 5 {
            rt.pulse_input("command", Value::Int(5)).expect("start");
        } else if scan.is_multiple_of(23) {
            rt.pulse_input("command", Value::Int((scan / 23 % 4 + 1) as i64)).expect("pulse");
        }
        if scan == 300 {
            rt.write_now("cell_1_1/mem.q", Value::Int(64)).expect("write now");
            rt.force("cell_4_4/mem.q", Value::Int(2)).expect("force");
        }
        if scan == 400 {
            rt.release_all();
        }
        if scan == 250 {
            at_250 = Some(rt.state().clone());
        }
        rt.step();
    }
    let rec = rt.stop_recording(ProgramId::of(&project)).expect("recording");
    for history in [true, false] {
        // Another seed on purpose: the playback takes the recording's.
        let mut p = Runtime::with_seed(plan.clone(), 99);
        if history {
            p.enable_history(100, 64 << 20);
        }
        p.start_playback(rec.clone()).expect("same cycle");
        p.step_n(599);
        assert!(!p.take_breakpoint_hit(), "no stop before the end");
        p.step();
        assert!(p.take_breakpoint_hit(), "the end of the recording stops the task");
        let st = p.playback().expect("playing");
        assert_eq!((st.at, st.scans, st.divergence, st.problem), (600, 600, None, None));
        assert!(p.state() == rt.state(), "the recorded state, bit for bit");
        assert_eq!(p.seek(250).expect("seeks"), 250);
        assert!(*p.state() == at_250.clone().unwrap(), "seeking back (history: {history})");
        assert_eq!(p.seek(600).expect("seeks"), 600);
        assert!(p.state() == rt.state(), "and forward again");
        // In steps of at most 64 scans (as the window seeks): back to the start, then forward.
        assert_eq!(p.seek_toward(0, 64).expect("seeks"), 0);
        let mut reached = vec![];
        while p.scan_count() < 600 {
            reached.push(p.seek_toward(600, 64).expect("seeks"));
        }
        assert_eq!(reached.len(), 10, "600 scans in steps of 64: {reached:?}");
        assert!(reached.windows(2).all(|w| w[1] - w[0] <= 64));
        assert!(p.state() == rt.state(), "the same state as one seek (history: {history})");
        let st = p.playback().expect("playing");
        assert_eq!((st.divergence, st.problem), (None, None));
    }
    let mut altered = rec.clone();
    altered.events.retain(|e| !matches!(e.stimulus, fbd_engine::runtime::Stimulus::WriteNow { .. }));
    let mut p = Runtime::new(plan);
    p.start_playback(altered).expect("same cycle");
    p.step_n(305);
    assert!(!p.take_breakpoint_hit());
    p.step_n(5);
    assert!(p.take_breakpoint_hit(), "a differing hash stops the task");
    assert_eq!(p.playback().expect("playing").divergence.expect("differs").scan, 310);
}

/// Stimuli count against the history's budget while they are kept and are given back when they
/// go: under a steady stream of them the history keeps its reach (it once counted them for
/// ever, so a long session's history shrank to a single snapshot), and a step back gives back
/// what it forgets.
#[test]
fn the_history_keeps_its_reach_under_a_steady_stream_of_stimuli() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json");
    let mut rt = Runtime::new(fbd_engine::compile_file(path, &Default::default()).expect("compiles"));
    rt.enable_history(10, 50_000);
    let scans = |rt: &mut Runtime, n: u64| {
        for _ in 0..n {
            rt.pulse_input("start", Value::Bool(true)).expect("pulse");
            rt.step();
        }
    };
    scans(&mut rt, 5_000);
    let early = rt.history_span().expect("on");
    let early_reach = rt.scan_count() - early.oldest;
    assert!(early.oldest > 0 && early_reach > 100, "the budget is in use: {early:?}");
    scans(&mut rt, 50_000);
    let late = rt.history_span().expect("on");
    let late_reach = rt.scan_count() - late.oldest;
    assert!(late.bytes <= 50_000, "{late:?}");
    assert!(late_reach + 20 >= early_reach, "reach {early_reach} scans at first, {late_reach} later: {late:?}");
    rt.step_back(late_reach / 2).expect("within the history");
    let back = rt.history_span().expect("on");
    assert!(back.bytes < late.bytes * 3 / 4, "what the step back forgot is given back: {late:?} then {back:?}");
}
