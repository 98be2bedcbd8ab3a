//! No output over an input: every command that writes a file refuses one that is the program,
//! a library it includes, the stimulus or the file imported — by any name (a symlink, `..`, a
//! hard link) — and leaves it as it was.

#[allow(dead_code)] // each test file uses what it needs
mod common;
use std::path::Path;

use common::{fbd, root, temp, text};

/// `fbd args...` is refused, says `says`, and `file` is byte for byte what it was.
fn refused_and_kept(args: &[&str], file: &Path, says: &str) {
    let before = std::fs::read(file).expect("the input");
    let o = fbd(args);
    assert_eq!(o.status.code(), Some(1), "{args:?} was not refused: {}", text(&o.stderr));
    let e = text(&o.stderr);
    assert!(e.contains(says), "{args:?}: {e}");
    assert_eq!(std::fs::read(file).expect("the input"), before, "{args:?} changed {}", file.display());
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = temp("keep", "").with_file_name("work");
    std::fs::create_dir_all(dir.join("lib")).expect("dir");
    for f in ["examples/blinker.json", "examples/lib/timing.json"] {
        let to = dir.join(f.trim_start_matches("examples/"));
        std::fs::copy(root().join(f), &to).expect("copy");
    }
    let prog = dir.join("blinker.json");
    let lib = dir.join("lib/timing.json");
    let p = |x: &Path| x.to_str().expect("utf8").to_string();
    let (prog_s, lib_s) = (p(&prog), p(&lib));
    refused_and_kept(&["run", &prog_s, "--record", &prog_s], &prog, "--record would write over");
    refused_and_kept(&["run", &prog_s, "--record", &lib_s], &lib, "a library the program includes");
    // Through `..` and a symlink; the trace's name must be a trace's.
    let dotted = p(&dir.join("lib/../blinker.json"));
    refused_and_kept(&["export", &prog_s, "-o", &dotted], &prog, "-o would write over");
    let link = dir.join("trace.csv");
    std::os::unix::fs::symlink(&lib, &link).expect("symlink");
    refused_and_kept(&["run", &prog_s, "--trace", &p(&link)], &lib, "--trace would write over");
    refused_and_kept(&["svg", &prog_s, "-o", &prog_s], &prog, "-o would write over");
    // A hard link of the stimulus.
    let stim = dir.join("stim.txt");
    std::fs::write(&stim, "0 start=true\n").expect("stimulus");
    let hard = dir.join("hard.csv");
    std::fs::hard_link(&stim, &hard).expect("hard link");
    refused_and_kept(
        &["run", &prog_s, "--stimulus", &p(&stim), "--trace", &p(&hard)],
        &stim,
        "the stimulus of this command",
    );
    // A trace named like a diagram is no trace.
    let json = dir.join("lib/other.json");
    std::fs::copy(&lib, &json).expect("copy");
    refused_and_kept(&["run", &prog_s, "--trace", &p(&json)], &json, "trace must end in .csv or .jsonl");
    // The XML file an import reads.
    let xml = dir.join("blinker.xml");
    let o = fbd(&["export", &prog_s, "-o", &p(&xml)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    refused_and_kept(&["import", &p(&xml), "-o", &p(&xml)], &xml, "the XML file imported");
    // A run refused for a bad --set leaves an existing trace as it was (it is opened only once
    // every argument is valid).
    let trace = dir.join("old.csv");
    std::fs::write(&trace, "scan,kept\n0,1\n").expect("trace");
    refused_and_kept(&["run", &prog_s, "--set", "start=maybe", "--trace", &p(&trace)], &trace, "is not a BOOL");
    // ... and one refused at its scan (an alias cannot be written) likewise.
    refused_and_kept(&["run", &prog_s, "--set", "fast_lamp=TRUE@5", "--trace", &p(&trace)], &trace, "is an alias");
    // The JUnit report of `fbd test` over the table it runs, the program under test, or a
    // library the program includes.
    let table = dir.join("blinker.test.json");
    std::fs::copy(root().join("examples/blinker.test.json"), &table).expect("copy");
    let table_s = p(&table);
    refused_and_kept(&["test", &table_s, "--junit", &table_s], &table, "--junit would write over");
    refused_and_kept(&["test", &table_s, "--junit", &prog_s], &prog, "a program under test");
    refused_and_kept(&["test", &table_s, "--junit", &lib_s], &lib, "a program under test or its library");
    // What is no input is written as before.
    let o = fbd(&["test", &table_s, "--junit", &p(&dir.join("report.xml"))]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = fbd(&["run", &prog_s, "--scans", "2", "--record", &p(&dir.join("run.rec.json"))]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// A run stopped by Ctrl-C (SIGINT) leaves a trace of whole lines: the writer hands the file
/// whole lines only (a block-buffered writer cut the last one in two).
#[test]
fn a_run_stopped_by_ctrl_c_leaves_whole_lines() {
    let trace = temp("stopped.csv", "");
    let rec = trace.with_file_name("stopped.rec.json");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fbd"))
        .args(["run", "examples/blinker.json", "--scans", "4000000000", "--trace", trace.to_str().expect("utf8")])
        .args(["--record", rec.to_str().expect("utf8")])
        .current_dir(root())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("fbd runs");
    // Until the trace holds a few blocks of lines (bounded: a minute).
    let start = std::time::Instant::now();
    while std::fs::metadata(&trace).map_or(0, |m| m.len()) < 300_000 {
        assert!(start.elapsed() < std::time::Duration::from_secs(60), "the trace did not grow");
        std::thread::yield_now();
    }
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    let status = child.wait().expect("waits");
    assert!(!status.success(), "stopped by the signal");
    let text = std::fs::read_to_string(&trace).expect("trace");
    assert!(text.ends_with('\n'), "the trace ends on a whole line");
    let fields = |l: &str| l.matches(',').count();
    let header = text.lines().next().expect("header");
    assert!(text.lines().all(|l| fields(l) == fields(header)), "every line whole");
    assert_eq!(status.code(), Some(130), "ended by the signal, as a shell says it");
    // The recording was saved at the scan the signal ended, and replays.
    let o = fbd(&["replay", rec.to_str().expect("utf8")]);
    assert!(o.status.success(), "{}", common::text(&o.stderr));
}

/// `--record ../r.json` from a subdirectory stores the program's path from the recording's
/// directory (it climbed once too often: `absolute` keeps the `..`).
#[test]
fn a_recording_given_by_a_path_with_dots_finds_its_program() {
    let dir = temp("dots", "").with_file_name("dots-dir");
    std::fs::create_dir_all(dir.join("sub")).expect("dirs");
    let prog = dir.join("blinker.json");
    std::fs::copy(root().join("examples/blinker.json"), &prog).expect("copy");
    std::fs::create_dir_all(dir.join("lib")).expect("lib");
    std::fs::copy(root().join("examples/lib/timing.json"), dir.join("lib/timing.json")).expect("copy");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fbd"))
        .current_dir(dir.join("sub"))
        .args(["run", prog.to_str().expect("utf8"), "--scans", "3", "--record", "../r.json"])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).expect("saved")).expect("JSON");
    assert_eq!(rec["program"]["files"][0]["path"], "blinker.json", "{}", rec["program"]);
}
