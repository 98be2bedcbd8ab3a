//! The editor: a Cell definition changed and applied, a blinker drawn from scratch with the pointer.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fbd_engine::Value;
use fbd_hmi::App;
use fbd2048_game::Wiring;

use crate::*;

/// Edit the Cell definition in the editor so "Choice 1" gives 4s, Apply, and a new game starts
/// with two 4s; undo (Ctrl+Z) and Apply again, and new games start with 2s again.
#[test]
fn the_editor_changes_the_cell_definition_and_apply_loads_it_into_the_running_program() {
    let mut h = harness_dt(Wiring::Upd1, false, "editor-cell", 1.0 / 60.0);
    h.step();
    into_the_editor(&mut h);
    h.step();
    h.state_mut().editor_mut().open_body(fbd_edit::BodyId::Macro("Cell".into()));
    h.step();
    h.step();
    let at = h.state_mut().editor_mut().pin_pos("two_four", "in0").expect("the pin is drawn");
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
    h.state_mut().editor_mut().wait_check(); // the background compile
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

/// From the board to the Diagram tab's Edit mode.
pub(crate) fn into_the_editor(h: &mut Harness<'static, App>) {
    h.get_by_label("Diagram").click();
    h.step();
    h.get_by_label("Edit").click();
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

/// Types `file` into the editor's file field and presses Save as.
pub(crate) fn save_as(h: &mut Harness<'static, App>, file: &std::path::Path) {
    h.get_by_label("file").click();
    h.step();
    h.get_by_label("file").type_text(file.to_str().expect("utf-8 path"));
    h.step();
    h.get_by_label("Save as").click();
    h.step();
    h.step();
}

pub(crate) fn pin_menu(h: &mut Harness<'static, App>, at: egui::Pos2) {
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
    into_the_editor(&mut h);
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
    // Dragging a block moves it by what the pointer moved, on the 20-unit grid with its pins on
    // the grid lines (its top half a pitch above one), as the layout stores positions.
    let (before, centre) = h.state_mut().editor_mut().block_at("not1").expect("not1");
    drag(&mut h, centre, centre + egui::vec2(0.0, 120.0));
    let (after, _) = h.state_mut().editor_mut().block_at("not1").expect("not1");
    assert_eq!(h.state().editor().message(), "moved 1 block(s)");
    assert_eq!(after[0], before[0], "moved straight down");
    assert!(after[1] > before[1] + 40.0 && after[1] % 20.0 == 10.0, "{before:?} -> {after:?}");
    assert!(after[0] % 20.0 == 0.0 && before[1] % 20.0 == 10.0, "added on the grid too: {before:?}");
    for _ in 0..30 {
        h.step();
    }
    // An INT output dropped on a BOOL input is refused, with the reason.
    let q = h.state_mut().editor_mut().anchor_pos("ton1", "q").expect("ton1.q drawn");
    let not_in = h.state_mut().editor_mut().pin_pos("not1", "in").expect("not1.in drawn");
    let et = h.state_mut().editor_mut().anchor_pos("ton1", "et").expect("ton1.et drawn");
    drag(&mut h, et, not_in);
    assert_eq!(
        h.state().editor().message(),
        "not connected: `ton1.et` carries TIME, `not1.in` takes BOOL or a bit string"
    );
    for _ in 0..30 {
        h.step();
    }
    drag(&mut h, q, not_in);
    assert_eq!(
        h.state().editor().message(),
        "connected ton1.q -> not1.in",
        "the drag made the wire (from {q:?} to {not_in:?})"
    );
    // Dragging from an input back to an output reconnects it, with the same checks.
    for _ in 0..30 {
        h.step();
    }
    drag(&mut h, not_in, et);
    assert_eq!(h.state().editor().message(), "not connected: `not1.in` takes BOOL or a bit string, not TIME");
    for _ in 0..30 {
        h.step();
    }
    drag(&mut h, not_in, q);
    assert_eq!(h.state().editor().message(), "connected ton1.q -> not1.in");
    // The timer's period: a TIME constant on pt; an INT on its BOOL input is refused.
    let pt = h.state_mut().editor_mut().pin_pos("ton1", "pt").expect("pt drawn");
    // The menu's field takes what is typed at once, and Enter sets it.
    pin_menu(&mut h, pt);
    h.event(egui::Event::Text("T#100ms".into()));
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    assert!(h.query_by_label_contains("ton1.pt := T#100ms").is_some(), "{}", h.state().editor().message());
    let tin = h.state_mut().editor_mut().pin_pos("ton1", "in").expect("in drawn");
    pin_menu(&mut h, tin);
    h.get_by_label("constant").click();
    h.step();
    h.get_by_label("constant").type_text("3");
    h.step();
    h.get_by_label("set").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("`ton1.in` takes BOOL, not LINT").is_some(), "refused with the reason");
    // NOT -> the timer's input closes the loop; the menu makes it a feedback wire.
    let not_out = h.state_mut().editor_mut().anchor_pos("not1", "out").expect("not1.out drawn");
    let tin = h.state_mut().editor_mut().pin_pos("ton1", "in").expect("in drawn");
    drag(&mut h, not_out, tin);
    h.state_mut().editor_mut().wait_check();
    h.step();
    assert!(h.query_by_label_contains("error").is_some(), "a loop without a feedback point is an error");
    let tin = h.state_mut().editor_mut().pin_pos("ton1", "in").expect("in drawn");
    pin_menu(&mut h, tin);
    h.get_by_label("make it a feedback wire (previous scan)").click();
    h.step();
    h.step();
    h.state_mut().editor_mut().wait_check();
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
    let lamp = h.state_mut().editor_mut().anchor_pos("", "lamp").expect("the output port is drawn");
    let not_out = h.state_mut().editor_mut().anchor_pos("not1", "out").expect("not1.out drawn");
    // Dropped on the port's name, not on its point: where the eye aims (it was refused).
    drag(&mut h, not_out, lamp + egui::Vec2::new(16.0, 0.0));
    assert!(
        h.query_by_label_contains("connected not1.out -> output lamp").is_some(),
        "{}",
        h.state().editor().message()
    );
    save_as(&mut h, &file);
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

/// The debugger panel is open or closed per mode, as CODESYS's perspectives switch with the
/// online state: opening the editor with the debugger open gives the canvas the width (beside
/// it the canvas had ~270 points), F12 there opens it for editing only, and each mode keeps its
/// choice, in the settings too.
#[test]
fn the_editor_and_the_online_views_each_keep_their_own_debugger_panel() {
    let debugger = |h: &Harness<'static, App>| h.query_by_label("Reset statistics").is_some();
    let mut h = harness(Wiring::Upd1, true, "perspectives");
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    assert!(debugger(&h), "opened with the debugger");
    h.get_by_label("Edit").click();
    h.step();
    h.step();
    assert!(!debugger(&h) && h.state().editing(), "the editor starts without it");
    h.key_press(egui::Key::F12);
    h.step();
    h.step();
    assert!(debugger(&h), "F12 opens it while editing");
    h.get_by_label("Online").click();
    h.step();
    h.step();
    assert!(debugger(&h), "the online view keeps its own");
    h.key_press(egui::Key::F12);
    h.step();
    h.step();
    assert!(!debugger(&h), "closed online");
    h.get_by_label("Edit").click();
    h.step();
    h.step();
    assert!(debugger(&h), "still open for editing");
    h.state_mut().save_settings();
    let saved = std::fs::read_to_string(temp_dir("perspectives").join("settings.json")).expect("saved");
    let v: serde_json::Value = serde_json::from_str(&saved).expect("json");
    assert_eq!((v["debugger"].as_bool(), v["debugger_editing"].as_bool()), (Some(false), Some(true)));
}

/// Unsaved edits are not lost without a word: New and loading another program ask first
/// (Save, Discard, Cancel); Cancel keeps the edits, Save writes them and goes on, Discard goes
/// on without them. (They were dropped silently.)
#[test]
fn new_and_loading_another_program_ask_about_unsaved_edits() {
    let mut h = tiny_in_the_editor("unsaved");
    let added = h.state_mut().editor_mut().workspace().add_block(&fbd_edit::BodyId::Program, "AND", [300.0, 200.0]);
    let added = added.expect("an AND");
    assert_eq!(h.state().unsaved_edits(), 1);
    // New: asked; Cancel keeps the edit.
    h.get_by_label("New").click();
    h.step();
    h.step();
    assert!(h.state().asking_about_unsaved() && h.query_by_label("Unsaved edits").is_some());
    h.get_by_label("Cancel").click();
    h.step();
    assert!(!h.state().asking_about_unsaved());
    assert_eq!(h.state().unsaved_edits(), 1, "the edit is still there");
    // Loading another program: asked; Save writes the file and then loads.
    h.state_mut().open(fbd_hmi::source::Origin::Embedded(Wiring::Original));
    h.step();
    h.step();
    assert!(h.state().asking_about_unsaved(), "loading waits for the answer");
    assert!(h.query_by_label_contains("loading diagrams/2048-original.json").is_some());
    h.get_by_label("Save changes").click();
    h.step();
    h.step();
    let saved = std::fs::read_to_string(temp_dir("unsaved").join("diagram.json")).expect("saved");
    assert!(saved.contains(&format!("\"{added}\"")), "the edit was written: {saved}");
    assert!(!h.state().asking_about_unsaved());
    assert!(h.state().score() == 0 && h.state().values().len() == 16, "the 2048 program runs now");
    assert!(h.query_all_by_label_contains("2048-original.json").count() > 0);
    // An edit of that one, then Discard: the new program replaces it.
    into_the_editor(&mut h);
    h.state_mut().editor_mut().workspace().add_block(&fbd_edit::BodyId::Program, "OR", [300.0, 200.0]).expect("an OR");
    h.get_by_label("New").click();
    h.step();
    h.step();
    h.get_by_label("Discard changes").click();
    h.step();
    h.step();
    assert!(!h.state().asking_about_unsaved());
    assert!(h.state_mut().editor_mut().workspace().root().blocks.is_empty(), "a new, empty program");
}

/// Enter in the Add field places the block whose type was typed, even when other types contain
/// it (`OR` is in FLOOR, XOR, MEMORY and SELECTOR: Enter did nothing), or the only match; with
/// several and none exact it says so.
#[test]
fn enter_in_the_add_field_places_the_typed_block() {
    let mut h = tiny_in_the_editor("add-enter");
    for (typed, want) in [("or", Some("or1")), ("EMOR", Some("memory1")), ("O", None)] {
        h.get_by_label("Add").click();
        h.step();
        h.get_by_label("Add").type_text(typed);
        h.step();
        h.key_press(egui::Key::Enter);
        h.step();
        h.step();
        let has = |id: &str| h.state().editor().message().contains(&format!("added `{id}`"));
        match want {
            Some(id) => assert!(has(id), "`{typed}`: {}", h.state().editor().message()),
            None => {
                assert!(h.state().editor().message().contains("types match `O`"), "{}", h.state().editor().message())
            }
        }
    }
}

/// A window on a one-block program (a scratch file `name`/diagram.json), in the editor.
fn tiny_in_the_editor(name: &str) -> Harness<'static, App> {
    let mut h = crate::file_window(
        name,
        r#"{"fbd": 1, "name": "tiny", "outputs": [{"name": "q", "type": "BOOL", "from": "n.out"}],
  "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": false}}]}"#,
    );
    h.step();
    into_the_editor(&mut h);
    h.step();
    h
}

/// Zoomed out, pins stand closer together than the pointer's reach: a drag ends on the pin
/// nearest the pointer (it took the first pin within reach: dropped on `in2`, the wire went to
/// `in1`).
#[test]
fn zoomed_out_a_drag_wires_the_pin_under_the_pointer() {
    let mut h = harness_dt(Wiring::Upd1, false, "editor-near-pin", 1.0 / 60.0);
    h.step();
    into_the_editor(&mut h);
    h.get_by_label("New").click();
    h.step();
    h.step();
    add_block(&mut h, "ADD");
    add_block(&mut h, "ADD");
    for _ in 0..30 {
        h.step();
    }
    // Zoom out around the canvas's centre until two pins are 6 px apart or less.
    // A new ADD shows the two inputs it needs and a free third (it showed none: nothing to
    // drop a wire on).
    for pin in ["in1", "in2", "in3"] {
        assert!(h.state_mut().editor_mut().pin_pos("add2", pin).is_some(), "{pin} drawn");
    }
    assert!(h.state_mut().editor_mut().pin_pos("add2", "in4").is_none());
    let centre = h.state_mut().editor_mut().pin_pos("add2", "in1").expect("drawn");
    for _ in 0..40 {
        let (a, b) =
            (h.state_mut().editor_mut().pin_pos("add2", "in1"), h.state_mut().editor_mut().pin_pos("add2", "in2"));
        if a.zip(b).is_some_and(|(a, b)| a.distance(b) <= 6.0) {
            break;
        }
        wheel(&mut h, centre, -120.0);
        for _ in 0..5 {
            h.step();
        }
    }
    let in1 = h.state_mut().editor_mut().pin_pos("add2", "in1").expect("drawn");
    let in2 = h.state_mut().editor_mut().pin_pos("add2", "in2").expect("drawn");
    assert!(in1.distance(in2) <= 6.0, "zoomed out: {in1:?} {in2:?}");
    let out = h.state_mut().editor_mut().anchor_pos("add1", "out").expect("drawn");
    drag(&mut h, out, in2);
    assert_eq!(h.state().editor().message(), "connected add1.out -> add2.in2");
}

/// Save writes only where the program was opened from: the embedded 2048 program and a new
/// one have no file of their own, so Save says so and points to Save as (saving the embedded
/// program wrote `diagrams/2048.json` under the folder the window was started in; a new one
/// wrote `untitled.json` there). After Save as, Save writes that file.
#[test]
fn save_refuses_a_program_without_a_file_and_save_as_gives_it_one() {
    let mut h = harness(Wiring::Upd1, false, "save-no-file");
    h.step();
    into_the_editor(&mut h);
    add_block(&mut h, "NOT");
    h.get_by_label("Save").click();
    h.step();
    let m = h.state().editor().message().to_string();
    assert!(m.contains("diagrams/2048.json is built into the program") && m.contains("Save as"), "{m}");
    h.get_by_label("New").click();
    h.step();
    h.step();
    h.get_by_label("Discard changes").click(); // the unsaved NOT
    h.step();
    h.step();
    add_block(&mut h, "NOT");
    h.get_by_label("Save").click();
    h.step();
    let m = h.state().editor().message().to_string();
    assert!(m.contains("the new program has no file yet") && m.contains("Save as"), "{m}");
    let file = temp_dir("save-no-file").join("mine.json");
    save_as(&mut h, &file);
    assert!(file.exists(), "{}", h.state().editor().message());
    add_block(&mut h, "NOT");
    h.get_by_label("Save").click();
    h.step();
    assert!(h.state().editor().message().starts_with("saved "), "{}", h.state().editor().message());
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(text.contains("\"not2\""), "the second block was saved: {text}");
}

/// A new program applied from the editor is the running one everywhere: the title names it
/// (it named the embedded 2048 program still), Record restarts it (it reloaded the 2048 program,
/// after asking about the new one's "unsaved edits"), Reload says it has no file, and after
/// Save as the title and Reload follow the file.
#[test]
fn a_program_applied_from_the_editor_is_the_one_the_title_record_and_reload_mean() {
    let mut h = harness(Wiring::Upd1, false, "applied-new");
    h.step();
    into_the_editor(&mut h);
    h.get_by_label("New").click();
    h.step();
    h.step();
    h.state_mut()
        .editor_mut()
        .workspace()
        .add_input_port(&fbd_edit::BodyId::Program, "start", fbd_engine::Type::Bool)
        .expect("an input");
    h.state_mut().editor_mut().after(Ok("input added".into()));
    h.state_mut().editor_mut().wait_check();
    h.step();
    let key_2048 = h.state().program_key().to_string();
    h.get_by_label("Apply").click();
    h.step();
    h.step();
    assert_ne!(h.state().program_key(), key_2048, "the new program runs");
    let title = "untitled.json (applied from the editor, no file)";
    assert!(h.query_by_label(title).is_some(), "the title names the running program");
    assert!(h.query_all_by_label_contains("2048.json (embedded)").next().is_none(), "and not the 2048 program");
    let key_new = h.state().program_key().to_string();
    h.state_mut().start_recording();
    h.step();
    assert!(!h.state().asking_about_unsaved(), "a restart of the running program loses no edit");
    assert_eq!(h.state().program_key(), key_new, "Record restarted the new program, not the 2048 program");
    assert!(h.state().status().starts_with("recording since this cold start"), "{}", h.state().status());
    assert!(h.state().status().contains("save the program too"), "{}", h.state().status());
    assert_eq!(h.state().unsaved_edits(), 1, "the editor's work is still there");
    h.state_mut().reload();
    h.step();
    assert!(h.state().status().contains("nothing to reload it from"), "{}", h.state().status());
    assert_eq!(h.state().program_key(), key_new);
    // Save as: the running program is that file's now.
    let file = temp_dir("applied-new").join("mine.json");
    save_as(&mut h, &file);
    assert!(file.exists(), "{}", h.state().editor().message());
    assert!(h.query_by_label(&file.display().to_string()).is_some(), "the title names the file");
    // The file saved is one to open again.
    h.get_by_label("File").click();
    h.step();
    h.step();
    h.get_by_label("Open recent").click();
    h.step();
    h.step();
    let listed = std::fs::canonicalize(&file).expect("exists").display().to_string();
    assert!(
        h.query_by_role_and_label(egui::accesskit::Role::Button, &listed).is_some(),
        "File > Open recent lists {listed}"
    );
    h.key_press(egui::Key::Escape);
    h.step();
    h.state_mut().reload();
    h.step();
    assert!(h.state().status().contains("online change"), "Reload reads the file: {}", h.state().status());
    assert_eq!(h.state().program_key(), key_new);
}

/// A right-click on an input's name inside the block, or on its constant outside, opens that
/// pin's menu, as a click on the pin does (it opened an empty menu unless it hit the block's
/// very edge, where the hover hint said "right-click an input pin").
#[test]
fn a_right_click_on_an_input_name_or_its_constant_opens_the_pin_menu() {
    let mut h = tiny_in_the_editor("pin-label-menu");
    h.step();
    let pin = h.state_mut().editor_mut().pin_pos("n", "in").expect("n.in drawn");
    let out = h.state_mut().editor_mut().anchor_pos("n", "out").expect("n.out drawn");
    // The block is 3 pitches wide at least: a pitch is a third of pin-to-pin.
    let pitch = (out.x - pin.x) / 3.0;
    for (dx, what) in [(0.6 * pitch, "the name `in`"), (-0.6 * pitch, "the constant FALSE")] {
        pin_menu(&mut h, pin + egui::vec2(dx, 0.0));
        assert!(h.query_by_label("n.in").is_some(), "a right-click on {what} opens the menu of n.in");
        assert!(h.query_by_label("right-click a pin").is_none());
        h.key_press(egui::Key::Escape);
        h.step();
        h.step();
    }
    // Below the pin's row, inside the block: not the pin.
    pin_menu(&mut h, pin + egui::vec2(0.6 * pitch, 0.8 * pitch));
    assert!(h.query_by_label("right-click a pin").is_some());
}

/// The editor shows nothing live: with the task running it does not redraw on its own (it
/// polled 30 times a second like the online view, a whole core without a GPU). The online
/// view's live values are refreshed 10 times a second, the board's scan counter 4, and the
/// debugger opened in the editor (live values) 10 again.
#[test]
fn the_editor_does_not_poll_while_the_online_view_does() {
    let mut h = harness(Wiring::Upd1, false, "poll");
    h.step();
    h.state_mut().resume();
    h.step();
    let ms = |h: &Harness<'static, App>| h.state().poll_interval().map(|d| d.as_millis());
    assert_eq!(ms(&h), Some(250), "the board: the scan counter");
    h.get_by_label("Diagram").click();
    h.step();
    assert_eq!(ms(&h), Some(100), "the online view: live values");
    h.get_by_label("Edit").click();
    h.step();
    assert!(h.state().editing());
    assert_eq!(ms(&h), None, "the editor: nothing live");
    h.key_press(egui::Key::F12);
    h.step();
    assert_eq!(ms(&h), Some(100), "the debugger in the editor: live values");
    h.state_mut().pause();
    h.step();
    assert_eq!(ms(&h), None, "paused: nothing changes");
}

/// Save as never writes over a file without asking: an existing file other than the program's
/// own asks Overwrite or Cancel first. And the path typed for one program is not left in the
/// field for the next one (one click wrote the 2048 program over the blinker's file).
#[test]
fn save_as_asks_before_writing_over_a_file_and_forgets_another_program_s_path() {
    let mut h = harness(Wiring::Upd1, false, "save-as-ask");
    h.step();
    into_the_editor(&mut h);
    add_block(&mut h, "NOT");
    let dir = temp_dir("save-as-ask");
    let other = dir.join("someone-elses.json");
    std::fs::write(&other, "keep me").expect("write");
    save_as(&mut h, &other);
    assert_eq!(std::fs::read_to_string(&other).expect("read"), "keep me", "written over without asking");
    assert!(h.state().editor().message().contains("exists"), "{}", h.state().editor().message());
    h.get_by_label("Cancel").click();
    h.step();
    h.step();
    assert_eq!(std::fs::read_to_string(&other).expect("read"), "keep me", "Cancel kept it");
    h.get_by_label("Save as").click();
    h.step();
    h.step();
    h.get_by_label("Overwrite").click();
    h.step();
    h.step();
    let text = std::fs::read_to_string(&other).expect("read");
    assert!(text.contains("\"not1\""), "Overwrite wrote the program: {text}");
    // Its own file again: no question.
    add_block(&mut h, "NOT");
    h.get_by_label("Save as").click();
    h.step();
    h.step();
    assert!(std::fs::read_to_string(&other).expect("read").contains("\"not2\""), "{}", h.state().editor().message());
    // Another program: the field is empty, Save as asks for a path.
    let label = dir.join("part-label.json");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/part-label.json"), &label).expect("copy");
    h.state_mut().open(fbd_hmi::source::Origin::File(label.clone()));
    h.step();
    h.step();
    assert!(h.state().status().contains("part-label"), "{}", h.state().status());
    into_the_editor(&mut h);
    // Nothing said of the program before ("wrote …" of the other file stood there).
    assert!(!h.state().editor().message().contains("wrote"), "{}", h.state().editor().message());
    h.get_by_label("Save as").click();
    h.step();
    h.step();
    assert!(h.state().editor().message().contains("type a path"), "{}", h.state().editor().message());
    assert!(std::fs::read_to_string(&other).expect("read").contains("\"not2\""), "the other program's file kept");
}

/// Blocks added one after another at the view's centre stand apart, each clear of the one
/// before and of the line its error takes below it (the second landed under the first, and its
/// error bar hid the id).
#[test]
fn blocks_added_in_a_row_do_not_land_on_each_other() {
    let mut h = harness(Wiring::Upd1, false, "add-apart");
    h.step();
    into_the_editor(&mut h);
    h.get_by_label("New").click();
    h.step();
    h.step();
    for _ in 0..3 {
        add_block(&mut h, "MUX");
    }
    let mut ys = Vec::new();
    for id in ["mux1", "mux2", "mux3"] {
        let out = h.state_mut().editor_mut().anchor_pos(id, "out").unwrap_or_else(|| panic!("{id} drawn"));
        ys.push(out.y);
    }
    ys.sort_by(f32::total_cmp);
    // A MUX of three inputs is 100 units tall at the editor's zoom 1; apart means more than
    // that plus the error line.
    for w in ys.windows(2) {
        assert!(w[1] - w[0] > 100.0, "blocks on each other: {ys:?}");
    }
}

/// Types `text` into the field labelled `label`, replacing what it holds.
fn retype(h: &mut Harness<'static, App>, label: &str, text: &str) {
    h.get_by_label(label).click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_label(label).type_text(text);
    h.step();
}

/// A motor start/stop with seal-in drawn in ladder from an empty program, as a user draws it
/// in CODESYS or OpenPLC Editor: a rung of `start` into the coil `motor`, `stop` normally
/// closed after `start`, the seal-in contact `motor` in parallel with `start`; applied by online
/// change, it starts, holds and stops the motor; one undo takes the last edit back.
#[test]
fn a_seal_in_rung_is_drawn_in_ladder_from_an_empty_program_and_runs() {
    let program = r#"{"fbd": 3, "name": "motor", "inputs": [{"name": "start", "type": "BOOL", "kind": "button"},
        {"name": "stop", "type": "BOOL", "kind": "button"}]}"#;
    let mut h = file_window_dt("ladder-edit", program, 1.0 / 60.0);
    h.step();
    into_the_editor(&mut h);
    h.get_by_label("Ladder").click();
    h.step();
    retype(&mut h, "variable", "start");
    retype(&mut h, "coil", "motor");
    h.get_by_label("New rung").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("rung added").is_some(), "{}", h.state().editor().message());
    // `stop`, normally closed, after `start`.
    let start = h.state_mut().editor_mut().element_pos("contact1").expect("the start contact is drawn");
    click_at(&mut h, start, egui::PointerButton::Primary);
    retype(&mut h, "variable", "stop");
    h.get_by_label("Contact after").click();
    h.step();
    h.step();
    for _ in 0..30 {
        h.step(); // past egui's double-click window
    }
    let stop = h.state_mut().editor_mut().element_pos("contact2").expect("the stop contact is drawn");
    click_at(&mut h, stop, egui::PointerButton::Primary);
    h.get_by_label("|/|").click();
    h.step();
    // The seal-in: `motor` in parallel with `start`.
    for _ in 0..30 {
        h.step();
    }
    let start = h.state_mut().editor_mut().element_pos("contact1").expect("drawn");
    click_at(&mut h, start, egui::PointerButton::Primary);
    retype(&mut h, "variable", "motor");
    h.get_by_label("Contact parallel").click();
    h.step();
    h.step();
    use fbd_engine::model::{LdKind, LdKind::*, LdModifier, LdModifier::*};
    let net = h.state_mut().editor_mut().network();
    let shape: Vec<(LdKind, &str, LdModifier)> = net.iter().map(|(_, k, v, m)| (*k, v.as_str(), *m)).collect();
    assert_eq!(
        shape,
        [(Contact, "start", Plain), (Contact, "motor", Plain), (Contact, "stop", Negated), (Coil, "motor", Plain)],
        "{net:?}"
    );
    h.state_mut().editor_mut().wait_check();
    h.step();
    assert!(h.query_by_label("compiles").is_some(), "{}", h.state().editor().message());
    h.get_by_label("Apply").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("applied by online change").is_some());
    // Start: the seal-in holds the motor with start released; stop drops it.
    let press = |h: &mut Harness<'static, App>, input: &str| {
        h.state_mut().force(input, Value::Bool(true)).expect(input);
        h.state_mut().run_scans(2);
        h.state_mut().online_release_all();
        h.state_mut().run_scans(2);
        h.step();
    };
    assert_eq!(h.state().read("motor"), Some(Value::Bool(false)));
    press(&mut h, "start");
    assert_eq!(h.state().read("motor"), Some(Value::Bool(true)), "held by the seal-in contact");
    press(&mut h, "stop");
    assert_eq!(h.state().read("motor"), Some(Value::Bool(false)), "dropped by stop");
    // Undo takes the seal-in back.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.step();
    assert_eq!(h.state_mut().editor_mut().network().len(), 3, "the parallel contact undone");
    // A timer in the rung after `stop`, its preset set on the selected block.
    for _ in 0..30 {
        h.step();
    }
    let stop = h.state_mut().editor_mut().element_pos("contact2").expect("drawn");
    click_at(&mut h, stop, egui::PointerButton::Primary);
    h.step(); // the toolbar shows the selection's actions from the next frame
    retype(&mut h, "block", "TON");
    h.get_by_label("Block in rung").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("TON `ton1` added in the rung").is_some(), "{}", h.state().editor().message());
    for _ in 0..30 {
        h.step();
    }
    let ton = h.state_mut().editor_mut().block_centre("ton1").expect("the timer is drawn");
    click_at(&mut h, ton, egui::PointerButton::Primary);
    h.step();
    retype(&mut h, "input", "pt");
    retype(&mut h, "value", "T#100ms");
    h.get_by_label("Set input").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("ton1.pt := T#100ms").is_some(), "{}", h.state().editor().message());
}

/// A program written in Structured Text from an empty body, as a user types one in CODESYS:
/// the text saved to the body, its errors listed with their lines until what it names is
/// declared, then applied by online change and run: the seal-in holds, the edge counts.
#[test]
fn an_st_program_is_typed_its_errors_listed_declared_and_applied() {
    let program = r#"{"fbd": 5, "name": "motor", "inputs": [{"name": "start", "type": "BOOL", "kind": "button"},
        {"name": "stop", "type": "BOOL", "kind": "button"}],
        "variables": [{"name": "motor", "type": "BOOL"}],
        "outputs": [{"name": "running", "type": "BOOL", "from": "motor"}]}"#;
    let mut h = file_window_dt("st-edit", program, 1.0 / 60.0);
    h.step();
    into_the_editor(&mut h);
    h.get_by_label("ST").click();
    h.step();
    h.step();
    assert!(h.query_by_label("0 lines").is_some(), "the ST mode");
    h.get_by_role_and_label(egui::accesskit::Role::MultilineTextInput, "Structured Text").click();
    h.step();
    h.get_by_role_and_label(egui::accesskit::Role::MultilineTextInput, "Structured Text")
        .type_text("motor := (start OR motor) AND NOT stop; edge(CLK := motor); IF edge.Q THEN n := n + 1; END_IF;");
    h.step();
    h.get_by_label("Save to body").click();
    h.step();
    h.state_mut().editor_mut().wait_check();
    h.step();
    h.step();
    assert!(
        h.query_by_label_contains("line 1:41: unknown name `edge`").is_some(),
        "{:?}",
        h.state().editor().message()
    );
    // Declared: the instance and the counter.
    retype(&mut h, "declare", "edge");
    retype(&mut h, "as", "R_TRIG");
    h.get_by_label("Declare").click();
    h.step();
    retype(&mut h, "declare", "n");
    retype(&mut h, "as", "INT");
    h.get_by_label("Declare").click();
    h.step();
    h.state_mut().editor_mut().wait_check();
    h.step();
    h.step();
    assert!(h.query_by_label("compiles").is_some(), "{:?}", h.state().editor().message());
    // An output added beside the text is the variable of its name (declared if it was not).
    retype(&mut h, "new port", "sealed");
    h.get_by_label("Add output").click();
    h.step();
    h.step();
    assert!(
        h.query_by_label_contains("output `sealed` added: the variable `sealed` the text writes").is_some(),
        "{}",
        h.state().editor().message()
    );
    assert!(h.query_by_label_contains("sealed : BOOL").is_some(), "declared");
    h.get_by_role_and_label(egui::accesskit::Role::MultilineTextInput, "Structured Text").click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::End);
    h.get_by_role_and_label(egui::accesskit::Role::MultilineTextInput, "Structured Text")
        .type_text(" sealed := motor AND NOT start;");
    h.step();
    h.get_by_label("Save to body").click();
    h.step();
    h.state_mut().editor_mut().wait_check();
    h.step();
    h.step();
    assert!(h.query_by_label("compiles").is_some(), "{:?}", h.state().editor().message());
    h.get_by_label("Apply").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("applied by online change").is_some(), "{}", h.state().editor().message());
    h.state_mut().force("start", Value::Bool(true)).expect("start");
    h.state_mut().run_scans(2);
    h.state_mut().online_release_all();
    h.state_mut().run_scans(2);
    h.step();
    assert_eq!(h.state().read("running"), Some(Value::Bool(true)), "held by the seal-in");
    assert_eq!(h.state().read("n"), Some(Value::Int(1)), "the rising edge counted once");
    assert_eq!(h.state().read("sealed"), Some(Value::Bool(true)), "the new output, written by the text");
    // Undo takes the edits back one by one: the text that writes `sealed`, the output and its
    // variable, then the declaration of `n`: the text names it again undeclared.
    for _ in 0..4 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        h.step();
    }
    h.state_mut().editor_mut().wait_check();
    h.step();
    h.step();
    assert!(
        h.query_all_by_label_contains("line 1:76: unknown name `n`").next().is_some(),
        "{:?}",
        h.state().editor().message()
    );
}
