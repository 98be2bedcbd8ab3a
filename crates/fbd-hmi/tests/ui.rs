//! The HMI under egui_kittest (no display needed): the window is driven by clicks and key
//! presses, the program is stepped scan by scan (the app starts paused), and what the window
//! shows is checked against the reference rules.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fbd_engine::Value;
use fbd_hmi::best::BestStore;
use fbd_hmi::settings::SettingsStore;
use fbd_hmi::source::Origin;
use fbd_hmi::{App, Options};
use fbd2048_game::{Wiring, check_command};
use ref2048::{Dir, from_values};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("fbd-hmi-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn harness(w: Wiring, debugger: bool, name: &str) -> Harness<'static, App> {
    harness_dt(w, debugger, name, 0.25)
}

/// A harness whose frames are `dt` seconds apart (1/60 for double clicks: egui counts two
/// clicks within 0.3 s as one double click, and each event takes one frame).
fn harness_dt(w: Wiring, debugger: bool, name: &str, dt: f32) -> Harness<'static, App> {
    let best = BestStore::at(temp_dir(name).join("best.json"));
    let settings = SettingsStore::at(temp_dir(name).join("settings.json"));
    let opts =
        Options { origin: Origin::Embedded(w), seed: 5, start_paused: true, best, show_debugger: debugger, settings };
    Harness::builder().with_size(egui::vec2(1200.0, 850.0)).with_step_dt(dt).build_eframe(move |cc| App::new(cc, opts))
}

/// Frames and scans until every queued command was sent and the lockout released.
fn settle(h: &mut Harness<'static, App>) {
    for _ in 0..20_000 {
        h.step();
        if h.state().settled() {
            return;
        }
        h.state_mut().run_scans(1);
    }
    panic!("the program did not settle");
}

fn tiles(app: &App) -> usize {
    app.values().iter().filter(|v| **v != 0).count()
}

fn board(v: [u32; 16]) -> u64 {
    from_values(&v).expect("tiles")
}

#[test]
fn start_places_two_tiles() {
    let mut h = harness(Wiring::Upd1, false, "start");
    h.step();
    assert_eq!(tiles(h.state()), 0);
    h.get_by_label("Start").click();
    settle(&mut h);
    assert_eq!(tiles(h.state()), 2, "{:?}", h.state().values());
}

#[test]
fn an_arrow_key_moves_the_tiles_as_the_reference_says() {
    for w in Wiring::ALL {
        let mut h = harness(w, false, "arrow");
        let start = board([2, 2, 4, 0, 0, 4, 0, 4, 0, 0, 0, 0, 8, 0, 0, 8]);
        h.state_mut().set_board(start);
        h.step();
        let s0 = h.state().score();
        h.key_press(egui::Key::ArrowLeft);
        settle(&mut h);
        let v = h.state().values();
        let after = from_values(&v.map(|x| x as u32)).expect("tiles");
        if let Err(m) = check_command(start, Dir::Left, after, h.state().score() - s0, h.state().game_over()) {
            panic!("{w:?}: {m}");
        }
        // WASD too.
        let before = after;
        let s0 = h.state().score();
        h.key_press(egui::Key::S);
        settle(&mut h);
        let after = from_values(&h.state().values().map(|x| x as u32)).expect("tiles");
        if let Err(m) = check_command(before, Dir::Down, after, h.state().score() - s0, h.state().game_over()) {
            panic!("{w:?}: {m}");
        }
    }
}

#[test]
fn reset_clears_the_board() {
    let mut h = harness(Wiring::Original, false, "reset");
    h.get_by_label("Start").click();
    settle(&mut h);
    assert_eq!(tiles(h.state()), 2);
    h.get_by_label("Reset").click();
    settle(&mut h);
    assert_eq!(tiles(h.state()), 0);
}

#[test]
fn the_game_over_overlay_appears_on_a_lost_board() {
    let mut h = harness(Wiring::Upd1, false, "over");
    h.step();
    assert!(h.query_by_label("Game over").is_none());
    h.state_mut().set_board(board([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2]));
    h.step();
    h.step();
    assert!(h.query_by_label("Game over").is_some(), "overlay shown");
    assert!(h.query_by_label("New game").is_some());
    h.get_by_label("New game").click();
    settle(&mut h);
    assert!(h.query_by_label("Game over").is_none());
    assert_eq!(tiles(h.state()), 2);
}

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
fn forcing_a_cell_shows_on_the_board() {
    let mut h = harness(Wiring::Upd1, true, "force");
    h.step();
    assert!(h.query_by_label("2048").is_none());
    h.state_mut().force("cell_2_3/mem.q", Value::Int(2048)).expect("forceable");
    h.state_mut().run_scans(1);
    h.step();
    assert!(h.query_by_label("2048").is_some(), "the forced value is on the board");
    assert_eq!(h.state().values()[6], 2048);
    // The win overlay follows from the board.
    h.step();
    assert!(h.query_by_label("You win!").is_some());
}

#[test]
fn a_broken_diagram_shows_its_error_and_the_game_goes_on() {
    let mut h = harness(Wiring::Upd1, false, "broken");
    h.get_by_label("Start").click();
    settle(&mut h);
    let before = h.state().values();
    let bad = temp_dir("broken").join("broken.json");
    std::fs::write(
        &bad,
        "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"TON\", \"inputs\": {\"in\": true}}\n]}",
    )
    .expect("write");
    h.state_mut().open(Origin::File(bad.clone()));
    h.step();
    h.step();
    h.step();
    let errs = h.state().errors().join("\n");
    assert!(errs.contains(&format!("{}:2:", bad.display())) && errs.contains("required input `pt`"), "{errs}");
    assert!(h.query_by_label_contains("required input `pt` of TON").is_some(), "the error window shows it");
    assert_eq!(h.state().values(), before, "the running program was kept");
    h.key_press(egui::Key::ArrowUp);
    h.key_press(egui::Key::ArrowLeft);
    settle(&mut h);
    assert!(h.state().scan_count() > 0);
    assert!(tiles(h.state()) >= 2, "still playing");
}

#[test]
fn switching_wiring_keeps_the_board_by_online_change() {
    let mut h = harness(Wiring::Upd1, false, "switch");
    h.get_by_label("Start").click();
    settle(&mut h);
    let before = h.state().values();
    h.state_mut().online_change(Origin::Embedded(Wiring::Original));
    h.step();
    assert_eq!(h.state().values(), before, "the cells' memories were kept: {}", h.state().status());
    assert!(h.state().status().contains("online change"));
}

#[test]
fn the_best_score_is_per_program_and_games_changed_from_outside_do_not_count() {
    let dir = temp_dir("best");
    let file = dir.join("best.json");
    // A corrupt file is reported and replaced.
    std::fs::write(&file, "not json").expect("write");
    let (b, warning) = BestStore::at(&file).load("any", true);
    assert_eq!(b, 0);
    assert!(warning.expect("reported").contains("corrupt"));
    // A file from before per-program records counts for the embedded default program.
    std::fs::write(&file, "{\"best\": 1234}").expect("write");
    let opts = Options {
        origin: Origin::Embedded(Wiring::Upd1),
        seed: 1,
        start_paused: true,
        best: BestStore::at(&file),
        show_debugger: false,
        settings: SettingsStore::none(),
    };
    let mut h = Harness::builder().with_size(egui::vec2(1200.0, 850.0)).build_eframe(move |cc| App::new(cc, opts));
    h.state_mut().run_scans(3);
    h.step();
    assert!(h.query_by_label("Best 1234").is_some(), "the stored best is restored");
    // Another wiring is another program: its own record, none yet.
    h.state_mut().online_change(Origin::Embedded(Wiring::SmartSpawn));
    h.step();
    assert!(h.query_by_label("Best 0").is_some(), "a changed wiring does not inherit the best");
    // A game changed from outside (a board set as the debugger would) is not recorded.
    h.get_by_label("Start").click();
    settle(&mut h);
    h.state_mut().set_board(board([1024, 1024, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    h.key_press(egui::Key::ArrowLeft);
    settle(&mut h);
    assert!(h.state().score() >= 2048);
    h.step();
    assert!(h.query_by_label("Best 0").is_some(), "the altered game's score is not a best");
    assert!(h.query_by_label("(not recorded)").is_some(), "and the window says so");
    // A new game played by the keys counts, under this program's own record.
    h.get_by_label("Start").click();
    settle(&mut h);
    let keys = [egui::Key::ArrowLeft, egui::Key::ArrowUp, egui::Key::ArrowRight, egui::Key::ArrowDown];
    for k in 0..200 {
        if h.state().score() > 0 {
            break;
        }
        h.key_press(keys[k % 4]);
        settle(&mut h);
    }
    let score = h.state().score();
    assert!(score > 0, "a merge within 200 moves");
    h.step();
    assert!(h.query_by_label(&format!("Best {score}")).is_some(), "the unaltered game's score is the best");
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(text.contains(&format!("\"best\": {score}")) && text.contains("1234"), "both records kept: {text}");
    assert!(!dir.join("best.json.tmp").exists(), "written through a temporary file");
}

#[test]
fn autoplay_drives_the_program_through_the_selector() {
    let mut h = harness(Wiring::SmartSpawn, false, "autoplay");
    h.get_by_label("Start").click();
    settle(&mut h);
    assert!(h.state_mut().start_autoplay("greedy", 0.0));
    let mut last = h.state().values();
    let mut judged = 0;
    for _ in 0..400 {
        let s0 = h.state().score();
        h.step();
        h.state_mut().run_scans(1);
        h.step();
        h.state_mut().run_scans(1);
        h.step();
        let now = h.state().values();
        if now != last {
            judged += 1;
            assert!(h.state().score() >= s0);
        }
        last = now;
        if !h.state().autoplaying() {
            break;
        }
    }
    assert!(
        judged > 20,
        "the player moved {judged} times; autoplaying {}, status {}, moves {}",
        h.state().autoplaying(),
        h.state().status(),
        h.state().autoplay_moves()
    );
    assert!(h.state().autoplay_moves() > 20);
    assert!(h.query_by_label("Stop").is_some() || !h.state().autoplaying());
}

#[test]
fn the_online_diagram_opens_a_cell_and_shows_its_value_live() {
    let mut h = harness(Wiring::Upd1, false, "diagram");
    h.step();
    h.state_mut().set_board(board([8, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]));
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    // Find cell_4_4 (Enter in the search box centres it) and double-click it.
    h.get_by_label("Find").click();
    h.step();
    h.get_by_label("Find").type_text("cell_4_4");
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    assert!(h.query_by_label_contains("found `cell_4_4`").is_some(), "the search found the block");
    let at = h.state_mut().diagram_block_pos("cell_4_4").expect("drawn");
    let view = h.state().diagram_canvas();
    assert!(view.contains(at), "the found block is centred in the view: {at:?} in {view:?}");
    // Open it (what a double-click on it, or its context menu's "open", does).
    assert!(h.state_mut().diagram_open("cell_4_4"));
    h.step();
    assert_eq!(h.state().diagram_instance(), "cell_4_4");
    assert_eq!(h.state_mut().diagram_output_value("Value"), Some(Value::Int(4)));
    assert!(h.query_by_label("cell_4_4").is_some(), "the breadcrumb names the instance");
    // A force shows in the diagram and on the board.
    h.state_mut().force("cell_4_4/mem.q", Value::Int(64)).expect("force");
    h.state_mut().run_scans(1);
    h.step();
    assert_eq!(h.state_mut().diagram_output_value("Value"), Some(Value::Int(64)));
    assert_eq!(h.state().values()[15], 64);
    // Back to the program through the breadcrumb.
    h.get_by_label("program").click();
    h.step();
    assert_eq!(h.state_mut().diagram_output_value("v44"), Some(Value::Int(64)));
    assert!(!h.state_mut().diagram_open("no_such_instance"));
}

/// Frame cost with the Processing macro open in the online diagram (egui layout and
/// tessellation, no GPU): `cargo test --release -p fbd-hmi --test ui frame_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn frame_cost_of_the_processing_diagram() {
    let mut h = harness(Wiring::Upd1, false, "frame-cost");
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    assert!(h.state_mut().diagram_open("proc_1"));
    for _ in 0..10 {
        h.state_mut().run_scans(1);
        h.step();
    }
    let n = 200;
    let t = std::time::Instant::now();
    for _ in 0..n {
        h.state_mut().run_scans(1);
        h.step();
    }
    eprintln!(
        "Processing open: {:.2} ms per frame (scan + egui frame + tessellation, {n} frames)",
        t.elapsed().as_secs_f64() * 1e3 / n as f64
    );
}

#[test]
fn an_online_change_moves_the_task_to_the_new_cycle() {
    // Once the task kept scanning every 5 ms while each scan advanced the clock 50 ms.
    let dir = temp_dir("cycle");
    let text = fbd2048_game::Wiring::Upd1.text().replace("\"cycle_ms\": 5", "\"cycle_ms\": 50");
    assert!(text.contains("\"cycle_ms\": 50"), "the embedded program states its cycle");
    let path = dir.join("2048-50ms.json");
    std::fs::write(&path, text).expect("write");
    std::fs::create_dir_all(dir.join("lib")).expect("lib dir");
    std::fs::write(dir.join("lib/2048-macros.json"), fbd2048_game::LIBRARY).expect("write lib");
    let mut h = harness(Wiring::Upd1, false, "cycle");
    h.step();
    h.state_mut().online_change(Origin::File(path));
    h.step();
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
    assert_eq!(h.state().task_period(), std::time::Duration::from_millis(50));
    h.state_mut().online_change(Origin::Embedded(Wiring::Upd1));
    h.step();
    assert_eq!(h.state().task_period(), std::time::Duration::from_millis(5));
}

#[test]
fn a_good_load_clears_the_errors_of_an_earlier_failed_one() {
    let dir = temp_dir("stale");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"fbd\": 1, \"blocks\": [{\"id\": \"n\", \"type\": \"NOPE\"}]}").expect("write");
    let mut h = harness(Wiring::Upd1, false, "stale");
    h.step();
    h.state_mut().open(Origin::File(bad));
    h.step();
    assert!(!h.state().errors().is_empty(), "the failed load is reported");
    h.state_mut().open(Origin::Embedded(Wiring::Original));
    h.step();
    assert!(h.state().errors().is_empty(), "still showing: {:?}", h.state().errors());
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
    assert_eq!(h.state().scan_count(), before + 1);
    assert!(h.query_by_label_contains(&format!("held after scan {before}")).is_some(), "the hit is shown");
}

#[test]
fn selecting_a_signal_does_not_move_the_signal_tree() {
    let mut h = harness(Wiring::Upd1, true, "tree-stays");
    h.step();
    let before = h.get_by_label("Signals").rect();
    // Select a signal through the tree: expand cell_1_1, click its Value pin.
    h.get_by_label_contains("cell_1_1").click();
    h.step();
    h.step();
    let after_expand = h.get_by_label("Signals").rect();
    h.get_by_label_contains(".Value").click();
    h.step();
    h.step();
    let after = h.get_by_label("Signals").rect();
    assert_eq!(before, after_expand);
    assert_eq!(before.top(), after.top(), "the tree's header stays where it was");
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
    h.step();
    assert!(h.query_by_label_contains("not met within").is_some(), "the unmet fast-forward is reported");
    h.key_press(egui::Key::F5);
    h.step();
    h.step();
    assert!(h.query_by_label_contains("not met within").is_none(), "a stale '(paused)' message stays while running");
}

fn click_at(h: &mut Harness<'static, App>, at: egui::Pos2, button: egui::PointerButton) {
    h.hover_at(at);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton { pos: at, button, pressed, modifiers: egui::Modifiers::NONE });
    }
    h.step();
}

#[test]
fn the_diagram_is_driven_by_the_pointer_double_click_in_and_context_menu_force() {
    let mut h = harness_dt(Wiring::Upd1, false, "diagram-pointer", 1.0 / 60.0);
    h.step();
    h.state_mut().set_board(board([8, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]));
    h.get_by_label("Diagram").click();
    h.step();
    h.get_by_label("Find").click();
    h.step();
    h.get_by_label("Find").type_text("cell_4_4");
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    let at = h.state_mut().diagram_block_pos("cell_4_4").expect("drawn");
    // A double click on the block opens its body (half a second after the last click, so
    // egui does not count a triple click).
    for _ in 0..30 {
        h.step();
    }
    click_at(&mut h, at, egui::PointerButton::Primary);
    click_at(&mut h, at, egui::PointerButton::Primary);
    h.step();
    assert_eq!(h.state().diagram_instance(), "cell_4_4", "the double click opened the instance");
    assert_eq!(h.state_mut().diagram_output_value("Value"), Some(Value::Int(4)));
    // A right click on the cell's memory opens its menu; a number typed there is forced.
    h.state_mut().diagram_fit();
    h.step();
    let mem = h.state_mut().diagram_block_pos("mem").expect("the memory is drawn");
    click_at(&mut h, mem, egui::PointerButton::Secondary);
    h.step();
    h.get_by_label("value").click();
    h.step();
    h.get_by_label("value").type_text("64");
    h.step();
    h.step();
    // The first row is output `q` (the memory's second output, `prev`, has its own row).
    h.query_all_by_label("force 64").next().expect("a force button").click();
    h.step();
    h.state_mut().run_scans(1);
    h.step();
    assert_eq!(h.state().values()[15], 64, "the force from the diagram shows on the board");
    assert_eq!(h.state_mut().diagram_output_value("Value"), Some(Value::Int(64)));
    assert!(h.query_by_label("force 64").is_none(), "the menu closed after the action");
    // The same menu sets a breakpoint; the pin shows it and the debugger lists it.
    click_at(&mut h, mem, egui::PointerButton::Secondary);
    h.step(); // a new popup is laid out invisibly in its first frame
    h.step();
    h.query_all_by_label("break on change").next().expect("a breakpoint button").click();
    h.step();
    h.step(); // the header shows the message one frame after the menu set it
    assert!(h.query_by_label_contains("breakpoint `changes:cell_4_4/mem.q` set").is_some());
    assert_eq!(h.state().breakpoint_paths(), vec!["cell_4_4/mem.q".to_string()]);
}

/// Edit the Cell definition in the editor so "Choice 1" gives 4s, Apply, and a new game starts
/// with two 4s; undo (Ctrl+Z) and Apply again, and new games start with 2s again.
#[test]
fn the_editor_changes_the_cell_definition_and_apply_loads_it_into_the_running_program() {
    let mut h = harness_dt(Wiring::Upd1, false, "editor-cell", 1.0 / 60.0);
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.get_by_label("Edit").click();
    h.step();
    h.step();
    h.state_mut().editor_open(fbd_edit::BodyId::Macro("Cell".into()));
    h.step();
    h.step();
    let at = h.state_mut().editor_pin_pos("two_four", "in0").expect("the pin is drawn");
    click_at(&mut h, at, egui::PointerButton::Secondary);
    h.step();
    h.step();
    h.get_by_label("constant").click();
    h.step();
    h.get_by_label("constant").type_text("4");
    h.step();
    h.get_by_label("set").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("two_four.in0 := 4").is_some(), "the edit is confirmed");
    h.state_mut().editor_wait_check(); // the background compile
    h.step();
    assert!(h.query_by_label("compiles").is_some());
    h.get_by_label("Apply").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("applied by online change").is_some());
    let new_game = |h: &mut Harness<'static, App>| -> Vec<i64> {
        h.get_by_label("Board").click();
        h.step();
        h.get_by_label("Reset").click();
        settle(h);
        h.get_by_label("Start").click();
        settle(h);
        h.state().values().iter().copied().filter(|v| *v != 0).collect()
    };
    assert_eq!(new_game(&mut h), vec![4, 4], "a new game starts with two 4s");
    // Undo in the editor, Apply, and tiles are 2s again.
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.step();
    h.step();
    assert!(h.query_by_label_contains("undid").is_some(), "Ctrl+Z undid the edit");
    h.get_by_label("Apply").click();
    h.step();
    assert_eq!(new_game(&mut h), vec![2, 2], "after undo a new game starts with two 2s");
}

fn drag(h: &mut Harness<'static, App>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.drag_at(from);
    h.hover_at(from + (to - from) * 0.5);
    h.hover_at(to);
    h.event(egui::Event::PointerButton {
        pos: to,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    h.step();
}

fn add_block(h: &mut Harness<'static, App>, ty: &str) {
    h.get_by_label("Add").click();
    h.step();
    h.get_by_label("Add").type_text(ty);
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
}

fn pin_menu(h: &mut Harness<'static, App>, at: egui::Pos2) {
    click_at(h, at, egui::PointerButton::Secondary);
    h.step();
    h.step();
}

/// A blinker drawn from scratch in the editor (a timer and a NOT through a feedback wire),
/// saved; the saved file compiles on its own and blinks with the timer's period. On the way,
/// an INT output dropped on a BOOL input and an INT constant on it are refused with the reason.
#[test]
fn a_blinker_drawn_from_scratch_in_the_editor_is_saved_and_blinks() {
    let dir = temp_dir("editor-blinker");
    let file = dir.join("blink.json");
    let mut h = harness_dt(Wiring::Upd1, false, "editor-blinker", 1.0 / 60.0);
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.get_by_label("Edit").click();
    h.step();
    h.get_by_label("New").click();
    h.step();
    h.step();
    add_block(&mut h, "TON");
    add_block(&mut h, "NOT");
    assert!(h.query_by_label_contains("added `not1`").is_some());
    h.step();
    // Wire q -> NOT by dragging from the output pin to the input pin.
    for _ in 0..30 {
        h.step(); // past egui's double-click window
    }
    // Dragging a block moves it by what the pointer moved, on the 20-unit grid.
    let (before, centre) = h.state_mut().editor_block("not1").expect("not1");
    drag(&mut h, centre, centre + egui::vec2(0.0, 120.0));
    let (after, _) = h.state_mut().editor_block("not1").expect("not1");
    assert_eq!(h.state().editor_message(), "moved 1 block(s)");
    assert_eq!(after[0], before[0], "moved straight down");
    assert!(after[1] > before[1] + 40.0 && after[1] % 20.0 == 0.0, "{before:?} -> {after:?}");
    for _ in 0..30 {
        h.step();
    }
    // An INT output dropped on a BOOL input is refused, with the reason.
    let q = h.state_mut().editor_anchor_pos("ton1", "q").expect("ton1.q drawn");
    let not_in = h.state_mut().editor_pin_pos("not1", "in").expect("not1.in drawn");
    let et = h.state_mut().editor_anchor_pos("ton1", "et").expect("ton1.et drawn");
    drag(&mut h, et, not_in);
    assert_eq!(h.state().editor_message(), "not connected: `ton1.et` carries INT, `not1.in` takes BOOL");
    for _ in 0..30 {
        h.step();
    }
    drag(&mut h, q, not_in);
    assert_eq!(
        h.state().editor_message(),
        "connected ton1.q -> not1.in",
        "the drag made the wire (from {q:?} to {not_in:?})"
    );
    // Dragging from an input back to an output reconnects it, with the same checks.
    for _ in 0..30 {
        h.step();
    }
    drag(&mut h, not_in, et);
    assert_eq!(h.state().editor_message(), "not connected: `not1.in` takes BOOL, not INT");
    for _ in 0..30 {
        h.step();
    }
    drag(&mut h, not_in, q);
    assert_eq!(h.state().editor_message(), "connected ton1.q -> not1.in");
    // The timer's period: an INT constant on pt; the same on its BOOL input is refused.
    let pt = h.state_mut().editor_pin_pos("ton1", "pt").expect("pt drawn");
    pin_menu(&mut h, pt);
    h.get_by_label("constant").click();
    h.step();
    h.get_by_label("constant").type_text("100");
    h.step();
    h.get_by_label("set").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("ton1.pt := 100").is_some());
    let tin = h.state_mut().editor_pin_pos("ton1", "in").expect("in drawn");
    pin_menu(&mut h, tin);
    h.get_by_label("constant").click();
    h.step();
    h.get_by_label("constant").type_text("3");
    h.step();
    h.get_by_label("set").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("`ton1.in` takes BOOL, not INT").is_some(), "refused with the reason");
    // NOT -> the timer's input closes the loop; the menu makes it a feedback wire.
    let not_out = h.state_mut().editor_anchor_pos("not1", "out").expect("not1.out drawn");
    let tin = h.state_mut().editor_pin_pos("ton1", "in").expect("in drawn");
    drag(&mut h, not_out, tin);
    h.state_mut().editor_wait_check();
    h.step();
    assert!(h.query_by_label_contains("error").is_some(), "a loop without a feedback point is an error");
    let tin = h.state_mut().editor_pin_pos("ton1", "in").expect("in drawn");
    pin_menu(&mut h, tin);
    h.get_by_label("make it a feedback wire (previous scan)").click();
    h.step();
    h.step();
    h.state_mut().editor_wait_check();
    h.step();
    assert!(h.query_by_label("compiles").is_some(), "the feedback wire breaks the loop");
    // A program output `lamp`, wired from the NOT.
    h.get_by_label("new port").click();
    h.step();
    h.get_by_label("new port").type_text("lamp");
    h.step();
    h.get_by_label("Add output").click();
    h.step();
    h.step();
    let lamp = h.state_mut().editor_anchor_pos("", "lamp").expect("the output port is drawn");
    let not_out = h.state_mut().editor_anchor_pos("not1", "out").expect("not1.out drawn");
    drag(&mut h, not_out, lamp);
    assert!(h.query_by_label_contains("connected not1.out -> output lamp").is_some());
    h.get_by_label("file").click();
    h.step();
    h.get_by_label("file").type_text(file.to_str().expect("utf-8 path"));
    h.step();
    h.get_by_label("Save as").click();
    h.step();
    h.step();
    assert!(file.exists(), "Save as wrote the file");
    let plan = fbd_engine::compile_file(&file, &Default::default()).expect("the saved blinker compiles");
    let mut rt = fbd_engine::Runtime::new(plan);
    let mut falls = Vec::new();
    let mut last = Value::Bool(false);
    for scan in 0..200u64 {
        rt.step();
        let v = rt.output("lamp").expect("lamp");
        if v == Value::Bool(false) && last == Value::Bool(true) {
            falls.push(scan);
        }
        last = v;
    }
    assert!(falls.len() >= 4, "it blinks: {falls:?}");
    // 100 ms = 20 scans of 5 ms, plus one scan to switch and one through the feedback wire.
    assert!(falls.windows(2).all(|w| w[1] - w[0] == 22), "{falls:?}");
}

/// Prepared values are written together in one scan, or forced together; the forces list
/// shows them and releases them.
#[test]
fn prepared_values_are_written_or_forced_together_and_forces_are_listed() {
    let mut h = harness(Wiring::Upd1, true, "prepared");
    h.step();
    h.state_mut().prepare("cell_1_1/mem.q", Value::Int(8));
    h.state_mut().prepare("cell_4_4/mem.q", Value::Int(16));
    h.state_mut().prepare("cell_1_1/mem.q", Value::Int(32)); // replaces the first
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
    h.state_mut().prepare("cell_2_2/mem.q", Value::Int(64));
    h.state_mut().prepare("cell_3_3/mem.q", Value::Int(128));
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

/// Watches, breakpoints, the panels and recent files are remembered between runs; watches and
/// breakpoints per program.
#[test]
fn watches_breakpoints_and_panels_persist_between_runs() {
    let name = "persist";
    let mut h = harness(Wiring::Upd1, true, name);
    h.step();
    h.state_mut().watch("score").expect("watch");
    h.get_by_label("Breakpoint").click();
    h.step();
    h.get_by_label("Breakpoint").type_text("rises:busy");
    h.step();
    h.get_by_label("Add").click();
    h.step();
    h.state_mut().save_settings();
    drop(h);
    // A new window on the same program: the watch, the breakpoint and the debugger are back.
    let settings = SettingsStore::at(temp_dir(name).join("settings.json"));
    let opts = Options {
        origin: Origin::Embedded(Wiring::Upd1),
        seed: 5,
        start_paused: true,
        best: BestStore::none(),
        show_debugger: false,
        settings: settings.clone(),
    };
    let mut h = Harness::builder().with_size(egui::vec2(1200.0, 850.0)).build_eframe(move |cc| App::new(cc, opts));
    h.step();
    h.step();
    assert_eq!(h.state().breakpoint_paths(), vec!["busy".to_string()]);
    assert!(h.query_by_label("rises:busy").is_some(), "the debugger is open again with the breakpoint listed");
    assert!(h.query_by_label("score").is_some(), "the watch is back");
    // Switching program remembers this one's under its own key.
    h.state_mut().online_change(Origin::Embedded(Wiring::SmartSpawn));
    h.step();
    h.state_mut().save_settings();
    let (saved, _) = settings.load();
    assert!(saved.debugger);
    assert!(!saved.programs.is_empty(), "{saved:?}");
    let upd1 =
        saved.programs.values().find(|p| p.watches.contains(&"score".to_string())).expect("the first program's record");
    assert_eq!(upd1.breakpoints, vec![("rises:busy".to_string(), true)]);
}

/// A PLCopen XML file opens like a diagram (imported on the way in) and runs.
#[test]
fn a_plcopen_xml_file_opens_and_runs() {
    let mut h = harness(Wiring::Upd1, false, "plcopen");
    h.step();
    let xml = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fbd-plcopen/tests/data/blink.xml");
    h.state_mut().open(Origin::File(xml));
    h.step();
    assert!(h.query_by_label_contains("blink.xml loaded").is_some(), "the status says so");
    h.state_mut().run_scans(40);
    h.step();
    assert!(h.query_by_label("count").is_some(), "the imported program's outputs are on the panel");
    assert_eq!(h.state().scan_count(), 40);
    // File → Export PLCopen XML writes the running program; it imports back.
    let out = temp_dir("plcopen").join("out.xml");
    h.state_mut().export_plcopen(Some(out.clone()));
    let text = std::fs::read_to_string(&out).expect("exported");
    let back = fbd_plcopen::import(&out, &text).expect("imports back");
    assert_eq!(back.doc.cycle_ms, Some(20.0));
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

/// File → Record restarts the program and records it; the recording replays bit for bit.
#[test]
fn a_game_recorded_in_the_window_replays_bit_for_bit() {
    let mut h = harness(Wiring::Upd1, false, "record");
    h.step();
    h.state_mut().start_recording();
    h.step();
    h.get_by_label("Start").click();
    settle(&mut h);
    let keys = [egui::Key::ArrowLeft, egui::Key::ArrowUp, egui::Key::ArrowRight, egui::Key::ArrowDown];
    for k in 0..30 {
        h.key_press(keys[k % 4]);
        settle(&mut h);
    }
    h.state_mut().run_scans(20);
    let path = temp_dir("record").join("game.json");
    h.state_mut().stop_recording(Some(path.clone())).expect("saved");
    let text = std::fs::read_to_string(&path).expect("written");
    let rec = fbd_engine::Recording::from_json(&text).expect("a recording");
    assert!(rec.scans >= 100 && !rec.hashes.is_empty(), "{} scans", rec.scans);
    let mut rt = fbd_engine::Runtime::with_seed(Wiring::Upd1.compile().expect("compiles"), 5);
    assert_eq!(rt.replay(&rec, true).expect("replays"), None, "every state hash matches");
    assert_eq!(rt.output("score"), Some(Value::Int(h.state().score())), "the same game");
}
