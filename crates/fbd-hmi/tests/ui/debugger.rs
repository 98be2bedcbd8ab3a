//! The debugger: stepping, hotkeys, breakpoints, the tree, fast-forward, prepared values, trends, stepping back.

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use fbd_engine::Value;
use fbd2048_game::Wiring;
use std::time::Duration;

use crate::*;

#[test]
fn step_advances_exactly_one_scan_while_paused() {
    let mut h = harness(Wiring::Upd1, true, "step");
    h.step();
    assert!(h.state().is_paused());
    let before = h.state().scan_count();
    h.get_by_label("Step").click();
    h.step();
    assert_eq!(h.state().scan_count(), before + 1);
    h.step();
    h.step();
    assert_eq!(h.state().scan_count(), before + 1, "nothing scans while paused");
}

#[test]
fn debugger_hotkeys_run_pause_and_step() {
    let mut h = harness(Wiring::Upd1, true, "hotkeys");
    h.step();
    assert!(h.state().is_paused());
    let before = h.state().scan_count();
    h.key_press(egui::Key::F10);
    h.step();
    assert_eq!(h.state().scan_count(), before + 1, "F10 runs one scan");
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F10);
    h.step();
    assert_eq!(h.state().scan_count(), before + 11, "Shift+F10 runs the debugger's N (10) scans");
    h.key_press(egui::Key::F5);
    h.step();
    assert!(!h.state().is_paused(), "F5 runs");
    h.key_press(egui::Key::F5);
    h.step();
    assert!(h.state().is_paused(), "F5 pauses");
}

#[test]
fn a_breakpoint_pauses_the_running_task_and_says_where() {
    let mut h = harness(Wiring::Upd1, true, "breakpoint");
    h.step();
    h.get_by_label("Breakpoint").click();
    h.step();
    h.get_by_label("Breakpoint").type_text("score=0");
    h.step();
    h.get_by_label("Add").click();
    h.step();
    assert!(h.query_by_label("score=0").is_some(), "the breakpoint is listed");
    let before = h.state().scan_count();
    h.key_press(egui::Key::F5);
    h.step();
    // It holds after the first scan the task runs: the task pauses itself there.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !h.state().is_paused() {
        assert!(std::time::Instant::now() < deadline, "the breakpoint never paused the task");
        std::thread::sleep(std::time::Duration::from_millis(5));
        h.step();
    }
    h.step();
    let now = h.state().scan_count();
    assert_eq!(now, before + 1);
    // One number for the scan: the header's count is the scan the breakpoint held in.
    assert!(h.query_by_label_contains(&format!("held in scan {now}")).is_some(), "the hit is shown");
    assert!(h.query_by_label_contains("paused here").is_some());
    // Disabled and a scan later: its old hit is not where the task is paused.
    h.get_by_label("score=0").click();
    h.step();
    h.state_mut().run_scans(1);
    h.step();
    assert!(h.query_by_label_contains("paused here").is_none(), "an old hit is not where the task is paused");
    assert!(h.query_by_label_contains("held in scan").is_none());
}

/// Where the signal tree's header is.
fn header(h: &egui_kittest::Harness<'static, fbd_hmi::App>) -> egui::Rect {
    h.get_by_role_and_label(Role::Label, "Signals").rect()
}

#[test]
fn selecting_a_signal_does_not_move_the_signal_tree() {
    let mut h = harness(Wiring::Upd1, true, "tree-stays");
    h.step();
    let before = header(&h);
    // Expanding an instance in the tree keeps the header where it was.
    h.get_by_label_contains("cell_1_1").click();
    h.step();
    h.step();
    let after_expand = header(&h);
    // Selecting a signal (found with the filter, so that its row is in view: a click on a row
    // scrolled out of the panel reaches nothing) opens the signal editor above the tree,
    // which keeps one height, so the tree stays under the pointer.
    let filter = h.get_by_role_and_label(Role::TextInput, "Signals");
    filter.click();
    filter.type_text("cell_1_1.Val");
    h.step();
    h.step();
    let filtered = header(&h);
    h.get_by_label("cell_1_1.Value").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("instance pin").is_some(), "the click selected the pin");
    let after = header(&h);
    assert_eq!(before, after_expand);
    assert_eq!(filtered.top(), after.top(), "the tree's header stays where it was");
}

#[test]
fn a_fast_forward_that_was_not_met_stops_saying_so_once_running() {
    let mut h = harness(Wiring::Upd1, true, "ff-message");
    h.step();
    h.get_by_label("Fast-forward until").click();
    h.step();
    h.get_by_label("Fast-forward until").type_text("score=7");
    h.step();
    h.get_by_label("Go").click();
    h.step();
    // 100,000 scans, a slice a frame.
    for _ in 0..10_000 {
        if !h.state().fast_forwarding() {
            break;
        }
        h.step();
    }
    h.step();
    assert!(h.query_by_label_contains("not met within 100000").is_some(), "the unmet fast-forward is reported");
    h.key_press(egui::Key::F5);
    h.step();
    h.step();
    assert!(h.query_by_label_contains("not met within").is_none(), "a stale '(paused)' message stays while running");
}

/// Prepared values are written together in one scan, or forced together; the forces list
/// shows them and releases them.
#[test]
fn prepared_values_are_written_or_forced_together_and_forces_are_listed() {
    let mut h = harness(Wiring::Upd1, true, "prepared");
    h.step();
    h.state_mut().debugger_mut().prepare("cell_1_1/mem.q", Value::Int(8));
    h.state_mut().debugger_mut().prepare("cell_4_4/mem.q", Value::Int(16));
    h.state_mut().debugger_mut().prepare("cell_1_1/mem.q", Value::Int(32)); // replaces the first
    h.step();
    assert!(h.query_by_label("Prepared (2)").is_some());
    let before = h.state().scan_count();
    h.get_by_label("Write all").click();
    h.step();
    h.state_mut().run_scans(1);
    h.step();
    assert_eq!(h.state().scan_count(), before + 1);
    let v = h.state().values();
    assert_eq!((v[0], v[15]), (32, 16), "both prepared values landed in the same scan");
    assert!(h.query_by_label("Prepared (0)").is_some(), "written values leave the list");
    h.state_mut().debugger_mut().prepare("cell_2_2/mem.q", Value::Int(64));
    h.state_mut().debugger_mut().prepare("cell_3_3/mem.q", Value::Int(128));
    h.step();
    h.get_by_label("Force all").click();
    h.step();
    h.state_mut().run_scans(2);
    h.step();
    assert!(h.query_by_label("Forced (2)").is_some(), "the forces list shows both");
    assert!(h.query_by_label("cell_2_2/mem.q = 64").is_some());
    let v = h.state().values();
    assert_eq!((v[5], v[10]), (64, 128));
    h.get_by_label("Release all").click();
    h.step();
    h.state_mut().run_scans(1);
    h.step();
    assert!(h.query_by_label("Forced (0)").is_some());
}

/// The watched history exports as CSV: a row per scan, the simulated time, each signal.
#[test]
fn the_watched_history_exports_as_csv() {
    let mut h = harness(Wiring::Upd1, true, "trends");
    h.step();
    h.state_mut().watch("cell_1_1/mem.q").expect("watch");
    h.state_mut().watch("score").expect("watch");
    h.state_mut().run_scans(3);
    h.state_mut().set_board(board([2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    h.state_mut().run_scans(2);
    h.step();
    assert!(h.query_by_label("Export CSV").is_some(), "the trend has its export");
    let csv = h.state().trends_csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "scan,time_ms,cell_1_1/mem.q,score");
    assert!(lines.len() >= 6, "{csv}");
    let last: Vec<&str> = lines.last().unwrap().split(',').collect();
    let scan: u64 = last[0].parse().expect("scan");
    assert_eq!(last[1], format!("{}", scan * 5), "5 ms per scan");
    assert_eq!(last[2], "2", "the cell's value in the last sampled scan: {csv}");
}

/// Watching the 2048 program's `busy` shows it in the trends and its CSV (the front end's own
/// watch of the lockout hid it: watching `busy` did nothing visible, `busy.out` worked), and
/// removing that trend keeps the front end measuring scans per command.
#[test]
fn watching_busy_shows_it_and_the_front_end_keeps_its_own_watch() {
    let mut h = harness(Wiring::Upd1, true, "watch-busy");
    h.step();
    h.state_mut().watch("busy").expect("watch");
    h.get_by_label("Start").click();
    settle(&mut h);
    h.step();
    let csv = h.state().trends_csv();
    assert_eq!(csv.lines().next(), Some("scan,time_ms,busy"), "{csv}");
    assert!(csv.lines().skip(1).any(|l| l.ends_with(",TRUE") || l.ends_with(",1")), "the lockout's pulse: {csv}");
}

/// Stepping back from the debugger returns the board and the scan count of that moment.
#[test]
fn the_debugger_steps_back_to_an_earlier_scan() {
    let mut h = harness(Wiring::Upd1, true, "step-back");
    h.step();
    h.get_by_label("Start").click();
    settle(&mut h);
    let scan = h.state().scan_count();
    let board_then = h.state().values();
    h.key_press(egui::Key::ArrowLeft);
    settle(&mut h);
    h.key_press(egui::Key::ArrowUp);
    settle(&mut h);
    let moved = h.state().scan_count() - scan;
    assert!(moved > 0);
    h.get_by_label("Back").click(); // one scan
    h.step();
    h.step();
    assert_eq!(h.state().scan_count(), scan + moved - 1);
    h.state_mut().step_back(moved - 1).expect("within the history");
    h.step();
    assert_eq!(h.state().scan_count(), scan);
    assert_eq!(h.state().values(), board_then, "the board as it was before the moves");
}

/// "Go back" runs back through the history to just after the latest scan in which the
/// condition held: the score as it was right after it changed, not before.
#[test]
fn going_back_until_a_condition_lands_after_the_scan_it_held_in() {
    let mut h = harness(Wiring::Upd1, true, "go-back");
    h.step();
    h.get_by_label("Start").click();
    settle(&mut h);
    let keys = [egui::Key::ArrowLeft, egui::Key::ArrowUp, egui::Key::ArrowRight, egui::Key::ArrowDown];
    let mut scores = vec![];
    for k in 0..16 {
        h.key_press(keys[k % 4]);
        settle(&mut h);
        scores.push(h.state().score());
    }
    h.state_mut().run_scans(50);
    let (end, score) = (h.state().scan_count(), h.state().score());
    assert!(score > 0, "the moves scored");
    h.get_by_label("Fast-forward until").click();
    h.step();
    h.get_by_label("Fast-forward until").type_text("changes:score");
    h.step();
    h.get_by_label("Go back").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("condition held").is_some(), "the message says how far back");
    let back = h.state().scan_count();
    assert!(back < end - 50, "back past the 50 idle scans: {back} of {end}");
    assert_eq!(h.state().score(), score, "right after the last change: the score it changed to");
    h.get_by_label("Go back").click();
    h.step();
    h.step();
    assert!(h.state().scan_count() < back);
    let earlier = h.state().score();
    assert!(earlier < score && scores.contains(&earlier), "the score of the change before: {earlier}");
}

/// A long fast-forward (up to ten million scans) or Step N runs a slice per frame: the window
/// shows how far it got and stops it where asked (it used to run every scan before the next
/// frame, freezing the window for up to half a minute).
#[test]
fn a_long_fast_forward_runs_a_slice_per_frame_and_stops_where_asked() {
    let mut h = harness(Wiring::Upd1, true, "ff-slices");
    h.step();
    h.get_by_label("Fast-forward until").click();
    h.step();
    h.get_by_label("Fast-forward until").type_text("score=7");
    h.step();
    h.get_by_label("max scans").click();
    h.step();
    h.get_by_label("max scans").type_text("10000000");
    h.key_press(egui::Key::Enter);
    h.step();
    let start = h.state().scan_count();
    h.get_by_label("Go").click();
    h.step();
    h.step();
    let at = h.state().scan_count() - start;
    assert!(h.state().fast_forwarding() && at > 0 && at < 10_000_000, "under way after two frames: {at} scans");
    assert!(h.query_by_label_contains("of at most 10000000 scans").is_some(), "how far it got");
    // A Reset cold ends it (it went on into the restarted program).
    h.state_mut().reset_cold().expect("reset");
    h.step();
    h.step();
    assert!(!h.state().fast_forwarding() && h.state().scan_count() == 0, "ended by the restart");
    h.get_by_label("Go").click();
    h.step();
    h.step();
    assert!(h.state().fast_forwarding(), "under way again");
    h.get_by_label("Stop here").click();
    h.step();
    h.step();
    let stopped = h.state().scan_count();
    for _ in 0..3 {
        h.step();
    }
    assert!(!h.state().fast_forwarding() && h.state().scan_count() == stopped, "stopped where it was");
    assert!(h.query_by_label_contains("stopped after").is_some());
    // Step N runs its scans in slices too, to exactly N.
    h.get_by_label("N").click();
    h.step();
    h.key_press(egui::Key::Backspace);
    h.key_press(egui::Key::Backspace);
    h.get_by_label("N").type_text("40000");
    h.key_press(egui::Key::Enter);
    h.step();
    let before = h.state().scan_count();
    h.get_by_label("Step N").click();
    h.step();
    let mut frames = 1;
    while h.state().fast_forwarding() {
        h.step();
        frames += 1;
        assert!(frames < 10_000, "Step N never ended");
    }
    assert_eq!(h.state().scan_count() - before, 40_000, "exactly N scans");
    assert!(frames > 1, "in slices");
}

/// The signal editor says what a signal is in words (it showed the enum's `MacroPin`), and for
/// a read-only alias which signal to write or force instead, one click away; the global
/// "Release all forces" sat under every signal (the forces list has Release all).
#[test]
fn the_signal_editor_says_what_a_signal_is_and_where_to_write_it() {
    let mut h = harness(Wiring::Upd1, true, "signal-words");
    h.step();
    assert!(h.state_mut().debugger_mut().select("cell_1_1.Value"));
    h.step();
    h.step();
    assert!(h.query_by_label_contains("instance pin").is_some());
    assert!(h.query_by_label_contains("MacroPin").is_none());
    assert!(h.query_by_label("read-only: it shows").is_some());
    assert!(h.query_by_label("Release all forces").is_none());
    assert!(h.state_mut().debugger_mut().select("score"));
    h.step();
    h.step();
    assert!(h.query_by_label_contains("program output").is_some());
    assert!(!h.state_mut().debugger_mut().select("no_such_signal"));
}

/// CODESYS's online keys do what they do there: Ctrl+F5 one cycle, Shift+F8 stop, Ctrl+F7
/// write the prepared values, F7 force them, Alt+F7 release every force.
#[test]
fn codesys_online_keys_step_stop_write_force_and_release() {
    let mut h = harness(Wiring::Upd1, true, "codesys-keys");
    h.step();
    let before = h.state().scan_count();
    h.key_press_modifiers(egui::Modifiers::CTRL, egui::Key::F5);
    h.step();
    assert_eq!(h.state().scan_count(), before + 1, "Ctrl+F5 runs one cycle");
    assert!(h.state().is_paused());
    h.key_press(egui::Key::F5);
    h.step();
    assert!(!h.state().is_paused());
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F8);
    h.step();
    assert!(h.state().is_paused(), "Shift+F8 stops");
    h.key_press(egui::Key::F7);
    h.step();
    assert!(h.query_by_label_contains("nothing is prepared").is_some(), "F7 with nothing prepared says so");
    h.state_mut().debugger_mut().prepare("cell_2_3/mem.q", Value::Int(64));
    h.key_press_modifiers(egui::Modifiers::CTRL, egui::Key::F7);
    h.step();
    h.state_mut().run_scans(1);
    assert_eq!(h.state().values()[6], 64, "Ctrl+F7 wrote it");
    assert!(h.state_mut().forces().is_empty(), "written, not forced");
    h.state_mut().debugger_mut().prepare("cell_2_3/mem.q", Value::Int(128));
    h.key_press(egui::Key::F7);
    h.step();
    assert_eq!(h.state_mut().forces(), vec![("cell_2_3/mem.q".to_string(), Value::Int(128))], "F7 forced it");
    h.key_press_modifiers(egui::Modifiers::ALT, egui::Key::F7);
    h.step();
    assert!(h.state_mut().forces().is_empty(), "Alt+F7 released every force");
}

/// The Debug menu lists the debugger's commands with their keys, as CODESYS's menus do, and its
/// Reset cold starts the running program again: initial values (an empty board), scan 0, no
/// forces, the task still paused; the best score and the breakpoints stay.
#[test]
fn the_debug_menu_runs_the_commands_and_reset_cold_restarts_the_program() {
    let mut h = harness(Wiring::Upd1, true, "online-menu");
    h.step();
    let debug = |h: &mut egui_kittest::Harness<'static, fbd_hmi::App>, item: &str| {
        h.get_by_label("Debug").click();
        h.step();
        h.step();
        h.get_by_label(item).click();
        h.step();
        h.step();
    };
    let before = h.state().scan_count();
    debug(&mut h, "One cycle Ctrl+F5");
    assert_eq!(h.state().scan_count(), before + 1, "One cycle ran one scan");
    assert!(h.query_by_label("One cycle Ctrl+F5").is_none(), "the menu closed");
    h.get_by_label("Debug").click();
    h.step();
    h.step();
    for item in
        ["Run F5", "One cycle Ctrl+F5", "10 cycles Shift+F10", "Write values Ctrl+F7", "Release all forces Alt+F7"]
    {
        assert!(h.query_by_label(item).is_some(), "`{item}` in the menu, with its key");
    }
    h.key_press(egui::Key::Escape);
    h.step();
    h.state_mut().send(fbd2048_game::Command::Start);
    settle(&mut h);
    assert_eq!(h.state().values().iter().filter(|v| **v != 0).count(), 2, "a game is on");
    h.state_mut().force("busy.out", Value::Bool(true)).expect("force");
    h.get_by_label("Breakpoint").click();
    h.step();
    h.get_by_label("Breakpoint").type_text("changes:score");
    h.step();
    h.get_by_label("Add").click();
    h.step();
    let key = h.state().program_key().to_string();
    debug(&mut h, "Reset cold");
    assert!(h.state().status().contains("reset cold"), "{}", h.state().status());
    assert!(h.state().is_paused(), "still paused");
    assert_eq!(h.state().scan_count(), 0, "scan 0");
    h.state_mut().run_scans(1);
    h.step();
    assert!(h.state().values().iter().all(|v| *v == 0), "initial values: an empty board");
    assert!(h.state_mut().forces().is_empty(), "no forces");
    assert_eq!(h.state().program_key(), key, "the same program");
    assert_eq!(h.state().breakpoint_paths(), vec!["score".to_string()], "the breakpoint stays");
}

/// The cycle-time slider (5 ms to 1 s) leaves the task at the program's own cycle when that is
/// outside its range: a 1 ms program and a 20 s one keep their cycle while the debugger shows.
#[test]
fn the_debugger_keeps_a_cycle_outside_the_sliders_range() {
    for (ms, period) in [("1", Duration::from_millis(1)), ("20000", Duration::from_secs(20))] {
        let text = format!(
            r#"{{"fbd": 1, "name": "c", "cycle_ms": {ms}, "outputs": [{{"name": "q", "type": "BOOL", "from": "n.out"}}],
  "blocks": [{{"id": "n", "type": "NOT", "inputs": {{"in": false}}}}]}}"#
        );
        let mut h = crate::file_window(&format!("cycle-{ms}"), &text);
        h.step();
        assert_eq!(h.state().task_period(), period, "loaded at its cycle");
        h.key_press(egui::Key::F12);
        h.step();
        h.step();
        assert!(h.state().debugger_shown());
        assert_eq!(h.state().task_period(), period, "{ms} ms: the debugger's slider changed the task's cycle");
    }
}

/// A breakpoint's message does not push the statistics down (a line that came and went moved
/// every row below it), and selecting signals keeps the debugger panel's width (in the window a
/// BOOL's editor widened it to ~60 %; the harness's panel did not show that, the check keeps
/// it from coming back here).
#[test]
fn selecting_a_bool_and_a_breakpoint_hit_do_not_move_the_panel() {
    let mut h = harness(Wiring::Upd1, true, "panel-stays");
    for _ in 0..3 {
        h.step();
    }
    let left = |h: &egui_kittest::Harness<'static, fbd_hmi::App>| h.get_by_label("Step").rect().left();
    let stats = |h: &egui_kittest::Harness<'static, fbd_hmi::App>| h.get_by_label_contains("scan time").rect().top();
    let x0 = left(&h);
    for path in ["game_over", "cell_1_1/mem.q", "busy"] {
        assert!(h.state_mut().debugger_mut().select(path), "{path}");
        for _ in 0..3 {
            h.step();
        }
        assert_eq!(left(&h), x0, "selecting {path} moved the panel's edge");
    }
    h.state_mut().add_breakpoint_text("score=0").expect("breakpoint");
    for _ in 0..3 {
        h.step();
    }
    let listed = stats(&h);
    h.state_mut().run_scans(1);
    for _ in 0..3 {
        h.step();
    }
    assert!(h.query_by_label_contains("held in scan").is_some());
    assert_eq!(stats(&h), listed, "the breakpoint's message moved the statistics");
}

/// The debugger panel keeps its width when a BOOL is selected (a trial saw the buttons move 30 to
/// 110 px under the pointer; not reproduced this way, kept as a guard).
#[test]
fn the_debugger_panel_keeps_its_width() {
    let mut h = harness(Wiring::Upd1, true, "panel-width");
    h.step();
    h.step();
    let back = |h: &egui_kittest::Harness<'static, fbd_hmi::App>| h.get_by_role_and_label(Role::Button, "Back").rect();
    let before = back(&h);
    let filter = h.get_by_role_and_label(Role::TextInput, "Signals");
    filter.click();
    filter.type_text("busy");
    h.step();
    h.step();
    h.get_by_label("busy").click();
    h.step();
    h.step();
    let selected = back(&h);
    assert_eq!(before, selected, "selecting a BOOL");
}

/// Every panel of a frame reads the one scan image the frame began with: the board, the
/// debugger with a watch and its trend, the online diagram (they took one each, up to 27 in
/// 14 files, and a frame could show values of several scans).
#[test]
fn a_frame_takes_one_scan_image_whatever_it_shows() {
    let mut h = crate::harness(Wiring::Upd1, true, "one-image");
    h.state_mut().watch("score").expect("watch");
    h.run_steps(3);
    h.get_by_label("Run").click();
    h.run_steps(2);
    let frames = 20;
    for diagram in [false, true] {
        if diagram {
            h.get_by_label("Diagram").click();
            crate::wait_for_layout(&mut h);
        }
        let before = h.state().images_taken();
        h.run_steps(frames);
        let taken = h.state().images_taken() - before;
        assert!(taken <= frames as u64, "{taken} images in {frames} frames (diagram shown: {diagram})");
        assert!(taken > 0, "the frames read no image at all");
    }
}

/// A program of several tasks (a PLCopen configuration of three program instances in a 10 ms
/// and a 30 ms task): the debugger says which task ran in the scan shown.
#[test]
fn the_debugger_says_which_program_task_ran() {
    let xml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../fbd-plcopen/tests/data/tasks.xml"))
        .expect("the fixture");
    let mut h = crate::file_window_as("program-tasks", "plc.xml", &xml, 0.25);
    h.key_press(egui::Key::F12);
    h.run_steps(2);
    let shows =
        |h: &egui_kittest::Harness<'static, fbd_hmi::App>, text: &str| h.query_by_label_contains(text).is_some();
    // Scan 0 is every task's (counted from 0, as OpenPLC's runtime counts).
    h.state_mut().run_scans(1);
    h.run_steps(2);
    assert!(shows(&h, "quick (every 10 ms): ran, lazy (every 30 ms): ran"), "scan 0: both tasks ran");
    h.state_mut().run_scans(1);
    h.run_steps(2);
    assert!(shows(&h, "quick (every 10 ms): ran, lazy (every 30 ms): idle"), "scan 1: only the 10 ms task ran");
}

/// A loop that never ends: the scan that runs it stops the task with a watchdog fault, the
/// status line says the loop's line in red, and no scan runs after it.
#[test]
fn a_loop_that_never_ends_stops_the_task_and_the_status_line_says_where() {
    let text = r#"{"fbd": 6, "name": "endless",
  "variables": [{"name": "c", "type": "DINT"}, {"name": "x", "type": "DINT"}],
  "outputs": [{"name": "count", "type": "DINT", "from": "c"}],
  "st": ["c := c + 1;", "WHILE c > 1 DO x := x + 1; END_WHILE;"]}"#;
    let mut h = crate::file_window("watchdog", text);
    h.step();
    h.key_press(egui::Key::F10);
    h.step();
    assert_eq!(h.state().scan_count(), 1, "the first scan ends: c is 1");
    assert!(h.query_by_label_contains("STOP").is_none());
    h.key_press(egui::Key::F10);
    h.step();
    h.step();
    let stop = "STOP: the task stopped at scan 1: the WHILE at ST 2:1 ran past the watchdog";
    assert!(h.query_by_label_contains(stop).is_some(), "the status line says it: {}", h.state().status());
    h.key_press(egui::Key::F10);
    h.step();
    assert_eq!(h.state().scan_count(), 1, "no scan runs after the watchdog stopped the task");
}
