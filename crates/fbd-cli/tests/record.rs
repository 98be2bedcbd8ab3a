//! Recordings end to end: `--record` on run, play, autoplay and tui (refused before anything runs
//! when it could not be written), a real-time run, and `fbd replay`.

#[allow(dead_code)] // each test file uses what it needs
mod common;
use common::{SCRATCH, fbd, temp, text};

/// A run to record longer than a recording may be is refused before it runs (it ran for hours
/// and wrote a recording that `fbd replay` then refused).
#[test]
fn a_run_too_long_to_record_is_refused_at_once() {
    let rec = temp("too-long.json", "");
    let o = fbd(&["run", "examples/blinker.json", "--scans", "5000000000", "--record", rec.to_str().expect("utf-8")]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("--record: 5000000000 scans, more than a recording holds (4294967296)"),
        "{}",
        text(&o.stderr)
    );
}

/// `run --realtime` runs exactly the scans asked for (it ran on until its next look: 52 of 50),
/// writes its recording (dropped without a word) and prints the watched values as a headless
/// run does.
#[test]
fn a_real_time_run_runs_its_scans_records_them_and_prints_the_values() {
    let rec = temp("realtime.json", "");
    let rs = rec.to_str().expect("utf-8");
    let o = fbd(&["run", "examples/blinker.json", "--realtime", "--scans", "40", "--set", "start=1", "--record", rs]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.contains("task        40 scans"), "{out}");
    let headless = fbd(&["run", "examples/blinker.json", "--scans", "40", "--set", "start=1"]);
    let values = text(&headless.stdout);
    assert!(values.starts_with("after 40 scans (200 ms simulated):"), "{values}");
    assert!(out.ends_with(&values), "the same values as headless:\n{out}\nvs\n{values}");
    let o = fbd(&["replay", rs, "--check"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("replayed 40 scans and 1 events"), "{}", text(&o.stdout));
    let o = fbd(&["run", "examples/blinker.json", "--realtime", "--scans", "0"]);
    assert!(text(&o.stderr).contains("--realtime --scans 0"), "{}", text(&o.stderr));
}

/// A recording, or a trace, that could not be written is refused before anything runs: it was
/// written at the end, so a game played in the terminal, or a long run, was lost when its
/// directory did not exist.
#[test]
fn a_recording_or_trace_that_cannot_be_written_is_refused_before_anything_runs() {
    let missing = SCRATCH.with(|d| d.path().join("no-such-dir"));
    let rec = missing.join("game.json");
    let rec = rec.to_str().expect("utf-8");
    let dir = SCRATCH.with(|d| d.path().to_str().expect("utf-8").to_string());
    let why = format!("the directory {} does not exist", missing.display());
    let runs: [&[&str]; 5] = [
        &["run", "examples/blinker.json", "--scans", "1000", "--record", rec],
        &["play", "--moves", "ULDR", "--record", rec],
        &["autoplay", "--player", "greedy", "--games", "1", "--record", rec],
        // Without a terminal the game could not start either: the recording is named first.
        &["tui", "--record", rec],
        // A directory is not a file to write.
        &["run", "examples/blinker.json", "--record", &dir],
    ];
    for args in runs {
        let o = fbd(args);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.contains("cannot write the recording"), "{args:?}: {err}");
        if args.last() == Some(&rec) {
            assert!(err.contains(&why), "{args:?}: {err}");
        }
        assert!(text(&o.stdout).is_empty(), "{args:?} ran: {}", text(&o.stdout));
    }
    // `run` lists the recording's and the trace's problems with every other one, nothing run.
    let trace = missing.join("t.csv");
    let o = fbd(&[
        "run",
        "examples/blinker.json",
        "--record",
        rec,
        "--trace",
        trace.to_str().expect("utf-8"),
        "--watch",
        "nosuch",
    ]);
    let err = text(&o.stderr);
    assert!(err.contains("cannot create trace") && err.contains("cannot write the recording"), "{err}");
    assert!(err.contains("3 error(s); nothing was run"), "{err}");
}

#[test]
fn a_recorded_run_replays_and_a_changed_one_is_caught_at_its_first_differing_scan() {
    let rec = temp("run.json", "");
    let dir = rec.parent().expect("scratch directory");
    let rs = rec.to_str().expect("utf-8");
    let o = fbd(&[
        "run",
        "examples/blinker.json",
        "--scans",
        "1000",
        "--set",
        "start=true@0",
        "--set",
        "start=false@1",
        "--record",
        rs,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = fbd(&["replay", rs, "--check"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("10 state hashes match"), "{}", text(&o.stdout));
    // A recording given where a diagram goes says what it is and what reads it.
    let o = fbd(&["run", rs, "--scans", "1"]);
    assert!(!o.status.success() && text(&o.stderr).contains("fbd replay"), "{}", text(&o.stderr));
    // The start press removed: the blinkers never run, the first hash (after 100 scans) differs.
    let t = std::fs::read_to_string(&rec).expect("read");
    let v: serde_json::Value = serde_json::from_str(&t).expect("json");
    let mut v2 = v.clone();
    v2["events"] = serde_json::json!([]);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, v2.to_string()).expect("write");
    let o = fbd(&["replay", bad.to_str().expect("utf-8"), "--check"]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(err.contains("differs from the recording at the state check after scan 100"), "{err}");
    assert!(
        err.contains("the difference arose in scans 1..=100"),
        "the scans since the last check that matched: {err}"
    );
    // Not a recording at all: a device is refused before reading, a reordered timeline by name.
    let o = fbd(&["replay", "/dev/zero"]);
    assert!(!o.status.success() && text(&o.stderr).contains("not a regular file"), "{}", text(&o.stderr));
    let mut v3 = v.clone();
    let events = v3["events"].as_array_mut().expect("events");
    assert!(events.len() >= 2, "the start press and its release");
    events.reverse();
    std::fs::write(&bad, v3.to_string()).expect("write");
    let o = fbd(&["replay", bad.to_str().expect("utf-8")]);
    assert!(!o.status.success() && text(&o.stderr).contains("comes after one before scan"), "{}", text(&o.stderr));
    // A game played by `fbd play` replays too (its program is the embedded wiring).
    let game = dir.join("game.json");
    let o = fbd(&["play", "--moves", "ULDRULDRULDRULDR", "--seed", "3", "--record", game.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = fbd(&["replay", game.to_str().expect("utf-8"), "--check"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // So do two games of an automated player, recorded as one run of the program.
    let auto = dir.join("auto.json");
    let o = fbd(&[
        "autoplay",
        "--player",
        "greedy",
        "--games",
        "2",
        "--max-moves",
        "60",
        "--record",
        auto.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = fbd(&["replay", auto.to_str().expect("utf-8"), "--check"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("state hashes match"), "{}", text(&o.stdout));
}

/// A run of a PLCopen file records the XML file as its program, so the recording replays (it
/// named the intermediate `.json` the import made, which no replay found).
#[test]
fn a_recording_of_a_plcopen_program_replays() {
    let rec = temp("xml.rec.json", "");
    let rec_s = rec.to_str().expect("utf-8");
    let xml = "crates/fbd-plcopen/tests/data/blink.xml";
    let o = fbd(&["run", xml, "--scans", "50", "--record", rec_s]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(std::fs::read_to_string(&rec).expect("recording").contains("blink.xml"));
    let o = fbd(&["replay", rec_s, "--check"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("state hashes match"), "{}", text(&o.stdout));
}

/// `replay --check` of a recording with nothing to check fails and says so; a recording that
/// names another program than the one it finds is refused by the names.
#[test]
fn a_check_of_nothing_fails_and_another_programs_name_is_refused() {
    let rec = temp("none.rec.json", "");
    let rec_s = rec.to_str().expect("utf-8");
    let o = fbd(&["run", "examples/blinker.json", "--scans", "3", "--record", rec_s]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let recorded = std::fs::read_to_string(&rec).expect("recording");
    let v: serde_json::Value = serde_json::from_str(&recorded).expect("json");
    // No state hash and no end hash: nothing a check could compare.
    let mut bare = v.clone();
    bare["hashes"] = serde_json::json!([]);
    bare.as_object_mut().expect("object").remove("end_hash");
    let bare_path = temp("bare.rec.json", &bare.to_string());
    let o = fbd(&["replay", bare_path.to_str().expect("utf-8"), "--check"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("holds no state hash to compare"), "{}", text(&o.stderr));
    let mut renamed = v;
    renamed["program"]["name"] = serde_json::json!("another");
    let renamed_path = temp("renamed.rec.json", &renamed.to_string());
    let o = fbd(&["replay", renamed_path.to_str().expect("utf-8"), "--check"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("the recording is of `another`, the program is `blinker`"), "{}", text(&o.stderr));
}

/// A recording finds its program from wherever it is replayed, and after the folder holding
/// both moved (the path is stored relative to the recording, and absolute as a fallback);
/// `--program` names a program that moved on its own.
#[test]
fn a_recording_replays_from_anywhere_and_after_moving_with_its_program() {
    let base = temp("anchor", "").with_file_name("moves");
    let proj = base.join("proj");
    std::fs::create_dir_all(proj.join("lib")).expect("dir");
    let root = common::root();
    std::fs::copy(root.join("examples/blinker.json"), proj.join("blinker.json")).expect("copy");
    std::fs::copy(root.join("examples/lib/timing.json"), proj.join("lib/timing.json")).expect("copy");
    let s = |p: &std::path::Path| p.to_str().expect("utf-8").to_string();
    let rec = proj.join("run.rec.json");
    let o = fbd(&["run", &s(&proj.join("blinker.json")), "--scans", "300", "--record", &s(&rec)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(std::fs::read_to_string(&rec).expect("rec").contains("\"path\":\"blinker.json\""), "relative to it");
    let replay = |dir: &std::path::Path, args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fbd")).args(args).current_dir(dir).output().expect("runs")
    };
    // From another directory.
    let o = replay(&base, &["replay", "proj/run.rec.json", "--check"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // The folder moved: found beside the recording.
    let moved = base.join("elsewhere");
    std::fs::rename(&proj, &moved).expect("move");
    let o = replay(&moved, &["replay", "run.rec.json", "--check"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // The recording alone moved away: --program says where the program is.
    let alone = base.join("alone.rec.json");
    std::fs::rename(moved.join("run.rec.json"), &alone).expect("move");
    std::fs::rename(moved.join("blinker.json"), moved.join("renamed.json")).expect("rename");
    let o = replay(&base, &["replay", "alone.rec.json", "--check"]);
    assert!(!o.status.success() && text(&o.stderr).contains("give it with --program FILE"), "{}", text(&o.stderr));
    let o = replay(&base, &["replay", "alone.rec.json", "--check", "--program", "elsewhere/renamed.json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// A recording is read from its file without holding its text (a 181 MB one took its size again
/// as a string): one saved by an editor with a byte-order mark replays too.
#[test]
fn a_recording_with_a_byte_order_mark_replays() {
    let rec = temp("bom.rec.json", "");
    let rec_s = rec.to_str().expect("utf-8");
    let o = fbd(&["run", "examples/blinker.json", "--scans", "200", "--record", rec_s]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(std::fs::read(&rec).expect("recording"));
    std::fs::write(&rec, bytes).expect("write");
    let o = fbd(&["replay", rec_s, "--check"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}
