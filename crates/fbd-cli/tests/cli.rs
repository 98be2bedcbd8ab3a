//! The `fbd` binary end to end: exit codes, error format, traces, DOT.

#[allow(dead_code)] // each test file uses what it needs
mod common;
use std::path::Path;
use std::process::Command;

use common::{fbd, root, temp, text};

#[test]
fn check_accepts_the_example_and_prints_a_summary() {
    let o = fbd(&["check", "examples/blinker.json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    for want in ["ok (blinker)", "1 defined, 2 instances", "blocks      18", "instructions"] {
        assert!(s.contains(want), "missing `{want}` in\n{s}");
    }
}

#[test]
fn check_rejects_with_file_line_col_and_a_nonzero_exit() {
    let p = temp(
        "bad.json",
        "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"TON\", \"inputs\": {\"in\": true, \"pt\": \"x.q\"}}\n]}",
    );
    let o = fbd(&["check", p.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(e.contains(&format!("{}:2:", p.display())), "{e}");
    assert!(e.contains("unknown block `x`") && e.contains("(block `t`, pin `pt`)"), "{e}");
    assert!(e.contains("1 error found"), "{e}");
}

#[test]
fn run_traces_are_deterministic_and_follow_the_stimulus() {
    let stim = temp("stim.txt", "# start the blinker\n0 start=true\n1 start=false\n");
    let a = temp("a.csv", "");
    let b = temp("b.jsonl", "");
    let args = |t: &Path| {
        vec![
            "run".to_string(),
            "examples/blinker.json".into(),
            "--scans".into(),
            "120".into(),
            "--stimulus".into(),
            stim.display().to_string(),
            "--watch".into(),
            "fast_lamp".into(),
            "--watch".into(),
            "fast/t_on.et".into(),
            "--trace".into(),
            t.display().to_string(),
        ]
    };
    let run = |t: &Path| {
        let a: Vec<String> = args(t);
        let o = fbd(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success(), "{}", text(&o.stderr));
        std::fs::read_to_string(t).expect("trace")
    };
    let csv1 = run(&a);
    let csv2 = run(&a);
    assert_eq!(csv1, csv2);
    let lines: Vec<&str> = csv1.lines().collect();
    assert_eq!(lines[0], "scan,time_ms,fast_lamp,fast/t_on.et");
    assert_eq!(lines.len(), 121);
    assert_eq!(lines[1], "0,0,1,T#0s", "the lamp lights on the scan start is pressed");
    // 100 ms on: the TON started at t = 0 elapses at t = 100 ms.
    let off = lines[1..].iter().find(|l| l.split(',').nth(2) == Some("0")).expect("the lamp goes off");
    assert_eq!(*off, "20,100,0,T#100ms", "a TIME as its IEC literal");
    let jsonl = run(&b);
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().expect("line")).expect("json");
    assert_eq!(first["values"]["fast_lamp"], serde_json::Value::Bool(true));
}

#[test]
fn run_reports_a_bad_set_with_its_origin() {
    let o = fbd(&["run", "examples/blinker.json", "--set", "strat=true@3"]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(
        e.contains("--set #1") && e.contains("unknown signal `strat`") && e.contains("did you mean `start`"),
        "{e}"
    );
}

/// Every bad option and stimulus line is reported in one run, with where it is, and nothing
/// runs (the first error stopped the check: five bad lines took five runs to find).
#[test]
fn run_reports_every_bad_stimulus_and_option_at_once() {
    let stim = temp("many-errors.txt", "# test\n0 start=TRUE\n5 start=maybe\nx stop=TRUE\n10 nothere=1\n3\n");
    let trace = temp("many-errors-trace.txt", "");
    let o = fbd(&[
        "run",
        "examples/blinker.json",
        "--stimulus",
        stim.to_str().expect("utf-8"),
        "--set",
        "start=TRUE@abc",
        "--force",
        "slow.q=2",
        "--watch",
        "nope",
        "--trace",
        trace.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    // In the order they are written (the file's lines were said in the order of their scans,
    // a bad value after every bad line).
    let mut at = 0;
    for want in [
        "--set #1: `abc` is not a scan number",
        "many-errors.txt:3: start: `maybe` is not a BOOL",
        "many-errors.txt:4: `x` is not a scan number",
        "many-errors.txt:5: unknown signal `nothere`",
        "many-errors.txt:6: expected `SCAN PATH=VALUE`",
        "--force #1: slow.q: `2` is not a BOOL",
        "--watch: unknown signal `nope`",
        "trace must end in .csv or .jsonl",
        "8 error(s); nothing was run",
    ] {
        let Some(i) = e[at..].find(want) else { panic!("missing `{want}` after byte {at} in:\n{e}") };
        at += i + want.len();
    }
    assert!(text(&o.stdout).is_empty(), "nothing ran");
}

#[test]
fn dot_draws_the_program_and_a_macro() {
    let o = fbd(&["dot", "examples/blinker.json"]);
    assert!(o.status.success());
    let s = text(&o.stdout);
    assert!(s.starts_with("digraph \"blinker\"") && s.contains("\"fast\"") && s.contains("fb"), "{s}");
    let o = fbd(&["dot", "examples/blinker.json", "--macro", "Blinker"]);
    assert!(text(&o.stdout).contains("\"t_on\""));
    let o = fbd(&["dot", "examples/blinker.json", "--macro", "Nope"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("macros in this diagram: Blinker"));
}

#[test]
fn play_reports_the_board_and_agrees_with_the_reference() {
    let o = fbd(&["play", "--wiring", "original", "--seed", "3", "--moves", "ULDR", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).expect("json");
    assert_eq!(v["mismatches"], 0);
    assert_eq!(v["commands"].as_array().expect("commands").len(), 5, "start + 4 moves");
    assert_eq!(v["board"].as_array().expect("board").len(), 16);
    let o = fbd(&["play", "--board", "2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "--moves", "L", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).expect("json");
    assert_eq!(v["board"][0], 4);
    assert_eq!(v["score"], 4);
    let o = fbd(&["play", "--moves", "X"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("`X` (character 1) is not U, R, D or L"), "{}", text(&o.stderr));
    // Every bad letter, before any move is played.
    let o = fbd(&["play", "--moves", "UL XQ", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("`X` (character 4), `Q` (character 5) are not U, R, D or L"),
        "{}",
        text(&o.stderr)
    );
    assert!(text(&o.stdout).is_empty(), "no game was played");
}

#[test]
fn latency_measures_each_wiring_with_no_mismatch() {
    let o = fbd(&["latency", "--all", "--games", "3", "--spawns", "200", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).expect("json");
    let rows = v.as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    for r in rows {
        assert_eq!(r["mismatches"], 0);
        assert!(r["moves"].as_u64().expect("moves") > 50);
    }
    let smart = &rows[2];
    assert_eq!(smart["scans_max"], 1, "smart spawn completes every move in one scan");
}

#[test]
fn autoplay_plays_through_each_wiring_without_mismatch() {
    for w in ["upd1", "original", "smart-spawn"] {
        let o = fbd(&["autoplay", "--player", "greedy", "--games", "2", "--wiring", w, "--json"]);
        assert!(o.status.success(), "{w}: {}", text(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).expect("json");
        assert_eq!(v["mismatches"], 0, "{w}");
        assert_eq!(v["games"], 2);
        assert!(v["moves"].as_u64().expect("moves") > 50, "{w}: {v}");
    }
    let native = fbd(&["autoplay", "--player", "pattern", "--games", "3", "--native", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text(&native.stdout)).expect("json");
    assert!(v["mean_score"].as_f64().expect("score") > 0.0);
    let o = fbd(&["autoplay", "--player", "nobody"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("players: random, greedy, pattern, montecarlo, expectimax"));
}

/// Options that did nothing, silently: `--seed` on a program without RANDOM blocks (the 2048
/// design's generator runs on the clock, so `fbd play --seed 4` was seed 0's game), a seed
/// range past the largest seed (a panic in a debug build), a search of depth or playouts 0
/// (played as 1), and no game or no spawn measured (zeros printed as measurements).
#[test]
fn options_that_would_change_nothing_or_overflow_are_said() {
    let (a, b) = (fbd(&["play", "--moves", "LURD", "--seed", "4"]), fbd(&["play", "--moves", "LURD"]));
    assert_eq!(text(&a.stdout), text(&b.stdout), "the seed changes the design's game after all");
    assert!(text(&a.stderr).contains("warning: --seed 4 changes nothing"), "{}", text(&a.stderr));
    assert!(!text(&b.stderr).contains("warning"), "{}", text(&b.stderr));
    // Where a RANDOM block draws from it, the seed counts and nothing is said.
    let c = fbd(&["play", "--moves", "LURD", "--seed", "4", "--wiring", "smart-spawn"]);
    assert!(c.status.success() && !text(&c.stderr).contains("warning"), "{}", text(&c.stderr));
    let r = fbd(&["run", "examples/blinker.json", "--scans", "2", "--seed", "1"]);
    assert!(text(&r.stderr).contains("examples/blinker.json has no RANDOM block"), "{}", text(&r.stderr));
    let refused: [(&[&str], &str); 5] = [
        (&["autoplay", "--native", "--games", "0"], "--games 0"),
        (&["latency", "--games", "0"], "--games 0"),
        (&["autoplay", "--native", "--seed", "18446744073709551615", "--games", "2"], "pass 18446744073709551615"),
        (&["autoplay", "--native", "--player", "expectimax", "--depth", "0"], "--depth 0"),
        (&["autoplay", "--native", "--player", "mc", "--playouts", "0"], "--playouts 0"),
    ];
    for (args, why) in refused {
        let o = fbd(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o.stderr));
        assert!(text(&o.stderr).starts_with("error: ") && text(&o.stderr).contains(why), "{}", text(&o.stderr));
    }
    // No spawn measured: its columns say so instead of a 0 % and a chi² of -0.0.
    let o = fbd(&["latency", "--games", "1", "--spawns", "0", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).expect("json");
    assert!(v[0]["spawn_chi_square"].is_null() && v[0]["spawn_four_share"].is_null(), "{v}");
    assert!(v[0]["moves"].as_u64().expect("moves") > 0, "{v}");
    // The last seed itself is a game.
    let o = fbd(&["autoplay", "--native", "--seed", "18446744073709551615", "--games", "1", "--max-moves", "3"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

mod hardening {
    //! Regressions of the adversarial trial: each once crashed, truncated a file, or silently
    //! did something else than asked.
    use super::*;
    use std::process::Stdio;

    const ACC: &str = r#"{"fbd": 1, "outputs": [{"name": "y", "type": "INT", "from": "acc.out"}],
      "blocks": [{"id": "acc", "type": "ADD", "inputs": {"in1": {"from": "acc.out", "feedback": true}, "in2": 1}}]}"#;

    #[test]
    fn a_reader_that_goes_away_is_not_a_crash() {
        for args in [&["blocks"][..], &["blocks", "--markdown"], &["schema"]] {
            let mut child = Command::new(env!("CARGO_BIN_EXE_fbd"))
                .args(args)
                .current_dir(root())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn");
            // Close the read end at once, as `| head -0` would.
            drop(child.stdout.take());
            let o = child.wait_with_output().expect("wait");
            assert!(o.status.success(), "{args:?}: {:?} {}", o.status, text(&o.stderr));
            assert!(!text(&o.stderr).contains("panicked"), "{args:?}: {}", text(&o.stderr));
        }
    }

    #[test]
    fn a_wrong_trace_name_does_not_truncate_the_file() {
        let precious = temp("precious.txt", "keep me");
        let d = temp("acc.json", ACC);
        let o = fbd(&["run", d.to_str().expect("utf8"), "--scans", "2", "--trace", precious.to_str().expect("utf8")]);
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o.stderr).contains("trace must end in .csv or .jsonl"), "{}", text(&o.stderr));
        assert_eq!(std::fs::read_to_string(&precious).expect("read"), "keep me");
    }

    #[test]
    fn set_force_and_stimulus_read_scans_where_they_are_written() {
        let d = temp("acc2.json", ACC);
        let d = d.to_str().expect("utf8");
        // `@prev` belongs to the path; the scan comes after the value.
        let o = fbd(&["run", d, "--scans", "3", "--set", "acc.out@prev=10@1"]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(text(&o.stdout).contains("y") && text(&o.stdout).contains("12"), "{}", text(&o.stdout));
        let o = fbd(&["run", d, "--force", "acc.out=5@3"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o.stderr).contains("`@SCAN` applies to --set only"), "{}", text(&o.stderr));
        let stim = temp("stim.txt", "# a comment\n2 acc.out@prev=7@4\n");
        let o = fbd(&["run", d, "--stimulus", stim.to_str().expect("utf8")]);
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o.stderr).contains("stim.txt:2: the scan is the line's first field"), "{}", text(&o.stderr));
        let o = fbd(&["run", d, "--stimulus", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o.stderr).contains("not a regular file"), "{}", text(&o.stderr));
    }

    #[test]
    fn errors_have_one_prefix_and_devices_are_refused() {
        let o = fbd(&["run", "/no/such/file.json"]);
        let e = text(&o.stderr);
        assert!(
            e.starts_with("error: /no/such/file.json: cannot read the diagram") && !e.contains("error: error:"),
            "{e}"
        );
        let o = fbd(&["check", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o.stderr).contains("not a regular file"), "{}", text(&o.stderr));
        let o = fbd(&["bench", "--synthetic", "100000000000"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o.stderr).contains("at most 2000000 blocks"), "{}", text(&o.stderr));
    }

    #[test]
    fn dot_gives_every_constant_its_own_valid_node() {
        let d = temp(
            "consts.json",
            r#"{"fbd": 1, "blocks": [{"id": "t", "type": "TON", "inputs": {"in": true, "pt": 500}},
            {"id": "a", "type": "ADD", "inputs": {"in1": 1, "in2": 2}}]}"#,
        );
        let o = fbd(&["dot", d.to_str().expect("utf8")]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let s = text(&o.stdout);
        let nodes: Vec<&str> = s.lines().filter(|l| l.contains("[shape=plaintext")).collect();
        assert_eq!(nodes.len(), 4, "{s}");
        for (k, n) in nodes.iter().enumerate() {
            assert!(n.trim_start().starts_with(&format!("\"const{}\" [", k + 1)), "{n}");
        }
        // Node ids never hold a port reference (`"t":"i_pt"`).
        assert!(!s.contains("\"const:"), "{s}");
    }
}

#[test]
fn svg_draws_a_macro_statically_and_online() {
    let o = fbd(&["svg", "diagrams/2048.json", "--macro", "Cell"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
    assert_eq!(s.matches("<g class=\"block\" data-id=").count(), 10);
    assert!(s.contains("data-id=\"mem\"") && s.contains("class=\"wire delayed\""), "MEMORY.prev loop drawn dashed");
    assert!(!s.contains("class=\"value\""), "a static drawing has no values");
    let o = fbd(&["svg", "diagrams/2048.json", "--macro", "Cell", "--instance", "cell_2_3", "--after", "5"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    assert!(s.contains("instance cell_2_3, after 5 scans"));
    // Every output pin gets its value (nine blocks with one output, MEMORY with q and prev), and
    // so do the six input ports.
    assert_eq!(s.matches("class=\"value\"").count(), 11 + 6);
    // REAL values are drawn short (they ran across blocks and wires in every digit:
    // `0.6799679474004608` beside `q` in the Random macro), so they fit the room kept for them.
    let o = fbd(&["svg", "diagrams/2048.json", "--macro", "Random", "--after", "300"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    // The drawn text follows the value's title (every digit, for a browser's hover).
    let values: Vec<&str> = s
        .split("class=\"value\"")
        .skip(1)
        .filter_map(|v| v.split_once('>').map(|(_, rest)| rest))
        .map(|rest| rest.split_once("</title>").map_or(rest, |(_, after)| after))
        .filter_map(|rest| rest.split_once('<').map(|(t, _)| t))
        .collect();
    assert!(values.iter().filter(|v| v.contains('.')).count() >= 8, "the Random macro's REALs: {values:?}");
    for v in &values {
        assert!(v.len() <= 8, "`{v}` is too long for the room beside its pin: {values:?}");
    }
    assert!(
        s.contains("<title>0.6799679474004608</title>0.67997<"),
        "a REAL drawn short keeps every digit in its title"
    );
    assert!(!s.contains("<title>FALSE</title>"), "no title where the drawn text is the value");
    let o = fbd(&["svg", "diagrams/2048.json", "--macro", "Nope"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("no macro `Nope`"), "{}", text(&o.stderr));
    // --set reads as `fbd run`'s, `@SCAN` included (start pressed for one scan at scan 150): the
    // drawn counts are the run's. It took no scan, and said only the first bad --set.
    let sets = ["--set", "start=1@150", "--set", "start=0@151"];
    let o = fbd(&[&["svg", "examples/blinker.json", "--after", "300"][..], &sets].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    let mut drawn: Vec<i64> = s
        .split("class=\"value\"")
        .skip(1)
        .filter_map(|v| v.split_once('>').and_then(|(_, rest)| rest.split_once('<')).map(|(t, _)| t))
        .filter_map(|t| t.parse().ok())
        .collect();
    drawn.sort();
    let run = fbd(&[
        &["run", "examples/blinker.json", "--scans", "300", "--watch", "fast.cycles", "--watch", "slow.cycles"][..],
        &sets,
    ]
    .concat());
    let mut counted: Vec<i64> =
        text(&run.stdout).lines().skip(1).filter_map(|l| l.split_whitespace().last()?.parse().ok()).collect();
    counted.sort();
    assert_eq!(drawn, counted, "{}", text(&run.stdout));
    assert_eq!(counted, vec![0, 3], "pressed at scan 150, not at 0");
    let o = fbd(&[
        "svg",
        "examples/blinker.json",
        "--after",
        "10",
        "--set",
        "start=maybe",
        "--set",
        "nosuch=1",
        "--set",
        "start=1@30",
    ]);
    let e = text(&o.stderr);
    assert!(e.contains("--set #1: start: `maybe` is not a BOOL"), "{e}");
    assert!(e.contains("--set #2: unknown signal `nosuch`"), "{e}");
    assert!(e.contains("--set #3: scan 30 is not before --after 10"), "{e}");
    assert!(e.contains("3 error(s); nothing was drawn") && o.stdout.is_empty(), "{e}");
}

#[test]
fn plcopen_xml_is_accepted_wherever_a_diagram_is() {
    let xml = temp("2048.xml", "");
    let xs = xml.to_str().expect("utf-8");
    let o = fbd(&["export", "diagrams/2048-original.json", "-o", xs]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = fbd(&["check", xs]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = fbd(&["play", xs, "--moves", "ULDRULDR", "--seed", "2"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("0 mismatch(es) with the reference"), "{}", text(&o.stdout));
    let o = fbd(&["run", xs, "--scans", "10", "--realtime"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = fbd(&["layout", xs, "--write"]);
    assert!(!o.status.success() && text(&o.stderr).contains("`fbd import` it first"));
    let o = fbd(&["fmt", xs]);
    assert!(
        !o.status.success() && text(&o.stderr).contains("a PLCopen XML file is left as it is"),
        "{}",
        text(&o.stderr)
    );
    // Exported again (a CODESYS v2.00 or matiec file comes out as v2.01 this way): it said "a
    // diagram is a JSON object, but the file starts with `<`".
    let again = temp("2048-again.xml", "");
    let o = fbd(&["export", xs, "-o", again.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = fbd(&["play", again.to_str().expect("utf-8"), "--moves", "ULDRULDR", "--seed", "2"]);
    assert!(text(&o.stdout).contains("0 mismatch(es) with the reference"), "{}", text(&o.stdout));
    // An import's warnings are said by every command that reads the file (only check, svg,
    // dot and export said them; run, play, tui, bench, autoplay and latency dropped them).
    let blink = "crates/fbd-plcopen/tests/data/blink.xml";
    let widened = "warning: 2 program instances at a tick of 20 ms";
    let runs: [&[&str]; 6] = [
        &["check", blink],
        &["run", blink, "--scans", "2"],
        &["bench", blink, "--scans", "20"],
        &["tui", blink],
        &["play", blink],
        &["autoplay", blink, "--games", "1"],
    ];
    for args in runs {
        let e = text(&fbd(args).stderr);
        assert_eq!(e.matches(widened).count(), 1, "{args:?}: {e}");
    }
}

/// A synthetic diagram of no blocks is refused (its per-block figures divided by nothing).
#[test]
fn bench_refuses_a_synthetic_diagram_of_no_blocks() {
    let o = fbd(&["bench", "--synthetic", "10,0"]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("--synthetic 0: a synthetic diagram has at least 1 block"), "{}", text(&o.stderr));
}

/// Loading and compiling takes at most 400 bytes per expanded block on every synthetic shape
/// (counted at the allocator: `fbd bench`'s figure, the same in a debug build). At 100k blocks
/// the figure is within a few bytes of the 1M one (docs/performance.md).
#[test]
fn loading_and_compiling_takes_at_most_400_bytes_per_block() {
    let o = fbd(&["bench", "--synthetic", "100000", "--shape", "chain,wide,modchain", "--scans", "1", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let rows = rows.as_array().expect("a row per shape");
    assert_eq!(rows.len(), 3);
    for r in rows {
        let per_block = r["load_compile_peak_bytes_per_block"].as_f64().expect("a figure");
        assert!(per_block <= 400.0, "{}: {per_block:.0} B per block", r["name"]);
    }
}

/// `fbd tui` where there is no terminal to draw in (its output piped, a script) says so; it
/// panicked inside ratatui with a backtrace.
#[test]
fn tui_without_a_terminal_says_so_instead_of_panicking() {
    for args in [&["tui"][..], &["tui", "examples/blinker.json"]] {
        let o = fbd(args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("standard output is not a terminal"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A JSONL trace tells NaN, +∞ and -∞ apart (all three were `null`); a second --force of one
/// signal is refused (the last one won without a word).
#[test]
fn a_jsonl_trace_keeps_non_finite_values_apart_and_a_signal_is_forced_once() {
    let p = temp(
        "inf.json",
        r#"{"fbd": 3, "outputs": [{"name": "nan", "type": "LREAL", "from": "s.out"},
            {"name": "pinf", "type": "LREAL", "from": "p.out"}, {"name": "ninf", "type": "LREAL", "from": "n.out"}],
          "blocks": [{"id": "s", "type": "SQRT", "inputs": {"in": -1.0}, "data_type": "LREAL"},
                     {"id": "p", "type": "MUL", "inputs": {"in1": 1e308, "in2": 10.0}},
                     {"id": "n", "type": "MUL", "inputs": {"in1": -1e308, "in2": 10.0}}]}"#,
    );
    let trace = p.with_file_name("inf.jsonl");
    let o = fbd(&["run", p.to_str().expect("utf8"), "--scans", "1", "--trace", trace.to_str().expect("utf8")]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let line: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&trace).expect("trace").lines().next().expect("a line"))
            .expect("json");
    let v = &line["values"];
    assert_eq!(
        (v["nan"].as_str(), v["pinf"].as_str(), v["ninf"].as_str()),
        (Some("NaN"), Some("Infinity"), Some("-Infinity"))
    );
    let o = fbd(&["run", p.to_str().expect("utf8"), "--force", "s.out=1.0", "--force", "s.out=2.0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("`s.out` is forced by --force #1 already"), "{}", text(&o.stderr));
}

/// `layout --write` leaves every file it writes in canonical form, also one whose positions
/// were already the layout's (it was left as it was, on one line).
#[test]
fn layout_write_leaves_the_files_canonical_even_when_no_position_moves() {
    let dir = temp("anchor", "").with_file_name("lay");
    std::fs::create_dir_all(dir.join("lib")).expect("dir");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("examples/blinker.json")).expect("read"))
            .expect("json");
    std::fs::write(dir.join("blinker.json"), doc.to_string()).expect("compact");
    std::fs::copy(root().join("examples/lib/timing.json"), dir.join("lib/timing.json")).expect("copy");
    let prog = dir.join("blinker.json");
    let o = fbd(&["layout", prog.to_str().expect("utf8"), "--write"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = fbd(&["fmt", "--check", prog.to_str().expect("utf8")]);
    assert!(o.status.success(), "not canonical after layout --write: {}", text(&o.stdout));
}

/// The stimulus file, read line by line into a compact timeline: lines out of scan order are
/// applied in scan order (those of one scan in the order written), and a byte that is no
/// UTF-8 is named with its line and column among every other error.
#[test]
fn stimulus_lines_apply_in_scan_order_and_bad_bytes_are_placed() {
    let p = temp(
        "inc.json",
        r#"{"fbd": 3, "inputs": [{"name": "x", "type": "DINT"}], "outputs": [{"name": "y", "type": "DINT", "from": "m.out"}],
          "blocks": [{"id": "m", "type": "MOVE", "inputs": {"in": "x"}}]}"#,
    );
    // `y` after each scan of a run of `scans` with the stimulus `lines`.
    let ys = |name: &str, lines: &str, scans: &str| -> Vec<String> {
        let stim = temp(name, lines);
        let trace = p.with_file_name("order.csv");
        let (p, stim, trace) = (p.to_str().expect("utf8"), stim.to_str().expect("utf8"), trace.to_str().expect("utf8"));
        let o = fbd(&["run", p, "--scans", scans, "--stimulus", stim, "--trace", trace]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        std::fs::read_to_string(trace)
            .expect("trace")
            .lines()
            .skip(1)
            .map(|l| l.rsplit(',').next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(
        ys("order.stim", "3 x=30\n1 x=10\n1 x=11\n2 x=20\n", "4"),
        ["0", "11", "20", "30"],
        "scan order; at scan 1 the later line wins"
    );
    // Across the timeline's chunks (65,536 lines each): the later of two lines of one scan
    // still wins, and an early scan written last still comes first.
    let mut many = String::from("5 x=1\n");
    many.push_str(&"1000000 x=9\n".repeat(70_000));
    many.push_str("5 x=2\n3 x=3\n");
    assert_eq!(ys("chunks.stim", &many, "7"), ["0", "0", "0", "3", "3", "2", "2"]);
    let bad = scratch_bytes("bad.stim", b"0 x=1\n1 x=\xff2\n2 x=zz\n");
    let o = fbd(&["run", p.to_str().expect("utf8"), "--stimulus", bad.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(e.contains("bad.stim:2:5: byte 0xFF is not valid UTF-8") && e.contains("bad.stim:3"), "{e}");
}

/// A file of raw bytes in the test's scratch directory.
fn scratch_bytes(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = temp(name, "");
    std::fs::write(&p, bytes).expect("write");
    p
}

#[test]
fn test_passes_the_repository_s_tables_and_fails_a_wrong_one_with_its_row() {
    let o = fbd(&["test", "examples"]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(text(&o.stdout).contains("17 tests: 17 passed, 0 failed"), "{}", text(&o.stdout));
    // The fast lamp is on for 20 scans, not 21: the row fails at the 21st.
    let program = root().join("examples/blinker.json");
    let wrong = temp(
        "wrong.test.json",
        &format!(
            r#"{{"fbd_test": 1, "program": {:?},
  "tests": [{{"name": "on for 21 scans", "steps": [
    {{"pulse": {{"start": true}}, "run": 21,
     "expect": {{"fast_lamp": {{"=": true, "throughout": true}}}}}}]}}]}}"#,
            program.display().to_string()
        ),
    );
    let junit = temp("report.xml", "");
    let o = fbd(&["test", wrong.to_str().expect("utf8"), "--junit", junit.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(1), "a failed test is a failed run");
    let s = text(&o.stdout);
    assert!(s.contains("FAILED") && s.contains("on for 21 scans"), "{s}");
    assert!(
        s.contains(&format!("{}:4:", wrong.display()))
            && s.contains("row 1, scan 20: `fast_lamp` = FALSE at scan 20, expected TRUE throughout scans 0..20"),
        "the place, the row, the scan, both values: {s}"
    );
    assert!(s.contains("scan 19: fast_lamp=TRUE") && s.contains("scan 20: fast_lamp=FALSE"), "the trace: {s}");
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report is written");
    assert!(xml.contains("failures=\"1\"") && xml.contains("<failure message="), "{xml}");
}

#[test]
fn a_recording_becomes_a_test_table_that_passes_and_is_not_written_over_a_file() {
    let stim = temp("stim-rt.txt", "0 start=true\n1 start=false\n150 stop=true\n151 stop=false\n");
    let rec = temp("session.json", "");
    std::fs::remove_file(&rec).expect("fresh");
    let o = fbd(&[
        "run",
        "examples/blinker.json",
        "--scans",
        "300",
        "--stimulus",
        stim.to_str().expect("utf8"),
        "--record",
        rec.to_str().expect("utf8"),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let table = rec.with_file_name("session.test.json");
    let _ = std::fs::remove_file(&table);
    let o = fbd(&["test-from-recording", rec.to_str().expect("utf8"), "-o", table.to_str().expect("utf8")]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(text(&o.stderr).contains("4 rows from 300 scans"), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("1 tests: 1 passed"),
        "the table passes on the recorded program: {}",
        text(&o.stdout)
    );
    let t: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&table).expect("written")).expect("JSON");
    assert_eq!(t["tests"][0]["steps"][1]["run"], 149);
    assert_eq!(t["tests"][0]["steps"][2]["expect"]["running"], false, "stop pressed: not running");
    let o = fbd(&["test-from-recording", rec.to_str().expect("utf8"), "-o", table.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("exists; the table is not written over a file"), "{}", text(&o.stderr));
}

/// `--sheets` prints a page on A4 sheets at 8 pt: NAME-1.png, NAME-2.png..., each within A4 at
/// 300 dpi in its orientation; it needs a PNG output.
#[test]
fn svg_sheets_print_a_page_on_numbered_a4_sheets() {
    let png = temp("lockout.png", "");
    let o = fbd(&["svg", "diagrams/2048.json", "--page", "Lockout", "-o", png.to_str().expect("utf8"), "--sheets"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stderr);
    let n: usize = said.split_whitespace().next().and_then(|w| w.parse().ok()).expect("a count first");
    assert!(n >= 2 && said.contains("text 8 pt"), "{said}");
    for k in 1..=n {
        let sheet = png.with_file_name(format!("lockout-{k}.png"));
        let bytes = std::fs::read(&sheet).unwrap_or_else(|e| panic!("{}: {e}", sheet.display()));
        let w = u32::from_be_bytes(bytes[16..20].try_into().expect("4 bytes"));
        let h = u32::from_be_bytes(bytes[20..24].try_into().expect("4 bytes"));
        assert!(w.max(h) <= 3508 && w.min(h) <= 2480, "sheet {k}: {w}×{h}");
    }
    assert!(!png.with_file_name(format!("lockout-{}.png", n + 1)).exists(), "exactly {n} sheets");
    let o = fbd(&["svg", "diagrams/2048.json", "--page", "Lockout", "-o", "x.svg", "--sheets"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--sheets prints PNG images"), "{}", text(&o.stderr));
}

/// A page drawn as PNG to print: A4 at 300 dpi (3,508 by 2,480 pixels), filled along one side
/// and inside the other, also for a page nearly square (Processing), its text rendered.
#[test]
fn svg_to_a_png_fits_a4_landscape_at_300_dpi() {
    for page in ["Board", "Processing"] {
        let png = temp(&format!("{page}.png"), "");
        let o = fbd(&["svg", "diagrams/2048.json", "--page", page, "-o", png.to_str().expect("utf8")]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let bytes = std::fs::read(&png).expect("written");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
        let w = u32::from_be_bytes(bytes[16..20].try_into().expect("4 bytes"));
        let h = u32::from_be_bytes(bytes[20..24].try_into().expect("4 bytes"));
        let (long, short) = (w.max(h), w.min(h));
        assert!(long <= 3508 && short <= 2480, "{page}: {w}×{h} is larger than A4");
        assert!(long >= 3506 || short >= 2478, "{page}: {w}×{h} does not fill A4 along either side");
    }
    // The SVG it renders is the page's: 16 Cells.
    let o = fbd(&["svg", "diagrams/2048.json", "--page", "Board"]);
    assert_eq!(text(&o.stdout).matches("<g class=\"block\" data-id=").count(), 16);
}

/// A stimulus line's `#` starts a comment only at the line's start or after a space: `16#FF`,
/// `2#1010`, `T#…` and a STRING holding `#` are values (`16#FF` was read as 16).
#[test]
fn a_stimulus_takes_literals_with_a_hash() {
    let prog = temp(
        "hash.json",
        r#"{ "fbd": 3, "name": "hash",
  "inputs": [ { "name": "i", "type": "INT" }, { "name": "b", "type": "BYTE" }, { "name": "t", "type": "TIME" }, { "name": "s", "type": "STRING" } ],
  "outputs": [ { "name": "i2", "type": "INT", "from": "a.out" }, { "name": "len", "type": "INT", "from": "n.out" } ],
  "blocks": [ { "id": "a", "type": "ADD", "inputs": { "in1": "i", "in2": 0 } }, { "id": "n", "type": "LEN", "inputs": { "in": "s" } } ] }"#,
    );
    let stim = temp("hash.txt", "# literals\n0 i=16#FF  # hex\n0 b=2#1010\n0 t=T#1s500ms\n0 s='a #b@c' # text\n");
    let o = fbd(&[
        "run",
        prog.to_str().expect("utf8"),
        "--scans",
        "1",
        "--stimulus",
        stim.to_str().expect("utf8"),
        "--watch",
        "i2",
        "--watch",
        "len",
        "--watch",
        "b",
        "--watch",
        "t",
        "--trace",
        "-",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let trace = text(&o.stdout);
    let last = trace.lines().last().expect("a scan");
    let header: Vec<&str> = trace.lines().next().expect("header").split(',').collect();
    let row: Vec<&str> = last.split(',').collect();
    let col =
        |name: &str| row[header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("{name} in {header:?}"))];
    assert_eq!(col("i2"), "255", "{trace}");
    assert_eq!(col("len"), "6", "the STRING `a #b@c` whole: {trace}");
    assert_eq!(col("b"), "10", "{trace}");
    assert_eq!(col("t"), "T#1s500ms", "{trace}");
}

/// A table's `program` that climbs above the working directory is found there (`../../x.json`
/// was looked for as `x.json`: the `..` before a `..` was undone).
#[test]
fn a_table_s_program_path_that_climbs_is_taken_as_written() {
    let dir = temp("climb", "").with_file_name("climb-dir");
    let deep = dir.join("one/two");
    std::fs::create_dir_all(&deep).expect("dirs");
    std::fs::create_dir_all(dir.join("lib")).expect("lib");
    std::fs::copy(root().join("examples/blinker.json"), dir.join("blinker.json")).expect("copy");
    std::fs::copy(root().join("examples/lib/timing.json"), dir.join("lib/timing.json")).expect("copy");
    std::fs::write(
        deep.join("t.test.json"),
        r#"{"fbd_test": 1, "program": "../../blinker.json", "tests": [{"name": "t", "steps": [{"expect": {"running": false}}]}]}"#,
    )
    .expect("table");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_fbd"))
        .current_dir(&deep)
        .args(["test", "t.test.json"])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
}

/// A recording of the embedded 2048 program (which `fbd replay` plays) becomes a table too: the
/// program's files are written beside it (it was refused: "the recorded program is not here"),
/// and the table passes; a different file already there is not replaced.
#[test]
fn a_recording_of_the_embedded_program_becomes_a_table() {
    let dir = temp("embedded", "").with_file_name("embedded-dir");
    std::fs::create_dir_all(&dir).expect("dir");
    let rec = dir.join("game.json");
    std::fs::create_dir_all(dir.join("tables")).expect("dir");
    let table = dir.join("tables/game.test.json");
    // Recorded and turned into a table in a directory without the repository's diagrams/
    // (there, the recording names those files).
    let from_dir = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fbd")).current_dir(&dir).args(args).output().expect("runs")
    };
    let o = from_dir(&["play", "--moves", "ULDR", "--record", rec.to_str().expect("utf8")]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = from_dir(&["test-from-recording", rec.to_str().expect("utf8"), "-o", table.to_str().expect("utf8")]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(dir.join("tables/2048.json").is_file() && dir.join("tables/lib/2048-macros.json").is_file());
    // Beside a different 2048.json: refused, that file kept.
    let other = dir.join("other");
    std::fs::create_dir_all(&other).expect("dir");
    std::fs::write(other.join("2048.json"), "{}").expect("theirs");
    let o = from_dir(&[
        "test-from-recording",
        rec.to_str().expect("utf8"),
        "-o",
        other.join("t.test.json").to_str().expect("utf8"),
    ]);
    assert!(!o.status.success() && text(&o.stderr).contains("exists with other content"), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(other.join("2048.json")).expect("kept"), "{}");
}

/// `fbd svg` of a body drawn on pages draws its pages, as the window does (the 2048 top level
/// was one body of wires with 7,207 crossings); `--page N` draws one.
#[test]
fn svg_of_a_paged_body_draws_its_pages() {
    let out = temp("paged.svg", "");
    let o = fbd(&["svg", "diagrams/2048.json", "-o", out.to_str().expect("utf8")]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stderr);
    assert!(said.contains("9 pages"), "{said}");
    let crossings: usize = said
        .split(" crossings in all")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a count in {said}"));
    assert!(crossings < 200, "pages cross little: {said}");
    let svg = std::fs::read_to_string(&out).expect("written");
    assert_eq!(svg.matches("<svg x=\"0\" y=\"").count(), 9, "a drawing per page");
    assert!(svg.contains("page 3/9: Board"), "each page titled");
    // --whole: the body as one drawing.
    let o = fbd(&["svg", "diagrams/2048.json", "--whole", "-o", out.to_str().expect("utf8")]);
    assert!(o.status.success() && !text(&o.stderr).contains("pages"), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).expect("written").matches("<svg").count(), 1);
}

/// A program of several tasks traces, by default, which task ran in each scan beside its
/// outputs (`NAME__runs.out`): a 10 ms and a 30 ms task on a 10 ms tick.
#[test]
fn run_traces_which_task_ran() {
    let xml = root().join("crates/fbd-plcopen/tests/data/tasks.xml");
    let o = fbd(&["run", xml.to_str().expect("path"), "--scans", "4", "--trace", "-"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let rows: Vec<&str> = out.lines().collect();
    assert!(rows[0].ends_with(",quick__runs.out,lazy__runs.out"), "{}", rows[0]);
    let flags: Vec<&str> = rows[1..].iter().map(|r| &r[r.len() - 3..]).collect();
    assert_eq!(flags, ["1,1", "1,0", "1,0", "1,1"]);
}

#[test]
fn svg_of_an_st_body_is_its_listing_with_the_values_after_a_run() {
    let o = fbd(&["svg", "examples/batch-st.json", "--macro", "BATCH"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let plain = text(&o.stdout);
    assert!(
        plain.contains("<tspan class=\"kw\">CASE</tspan>") && plain.contains("mix_t(IN := stage = "),
        "the listing"
    );
    let o = fbd(&[
        "svg",
        "examples/batch-st.json",
        "--macro",
        "BATCH",
        "--after",
        "30",
        "--set",
        "start=true@1",
        "--set",
        "level=90@1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let run = text(&o.stdout);
    assert!(run.contains("stage = 2") && run.contains("mix = TRUE") && run.contains("after 30 scans"), "{run}");
}

/// `fbd run` of a loop that never ends: the watchdog stops the task at the scan it ran in and
/// the run with it (exit status 3), saying the loop's line; four scans ended.
#[test]
fn run_stops_at_a_watchdog_fault_and_says_the_loop_s_line() {
    let file = temp("endless.json", &common::endless_while(4));
    let o = fbd(&["run", file.to_str().expect("utf-8"), "--scans", "100"]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(3), "{out}{err}");
    assert!(err.contains("the task stopped at scan 4: the WHILE at ST 2:1 ran past the watchdog (15 ms"), "{err}");
    assert!(out.contains("after 4 scans"), "{out}");
}

/// `fbd test` of a program whose loop never ends: the row fails saying the watchdog stopped
/// the task and where, not with the values the stop left.
#[test]
fn a_test_row_fails_at_a_watchdog_fault_saying_where() {
    let program = temp("endless.json", &common::endless_while(2));
    let table = r#"{"fbd_test": 1, "program": "endless.json",
      "tests": [{"name": "counts", "steps": [{"run": 10, "expect": {"count": 10}}]}]}"#;
    let t = temp("endless.test.json", table);
    let o = fbd(&["test", t.to_str().expect("utf-8")]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(out.contains("the task stopped at scan 2: the WHILE at ST 2:1 ran past the watchdog"), "{out}{err}");
    let _ = program;
}
