//! The online diagram: search, navigation into instances, the pointer, the block menu.

use egui_kittest::kittest::Queryable;
use fbd_engine::Value;
use fbd2048_game::Wiring;

use crate::*;

/// Types `q` into the diagram's Find box (over what it held) and presses Enter.
fn find(h: &mut egui_kittest::Harness<'_, fbd_hmi::App>, q: &str) {
    h.get_by_label("Find").click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_label("Find").type_text(q);
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
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
    find(&mut h, "cell_4_4");
    h.step();
    assert!(h.query_by_label_contains("found `cell_4_4`").is_some(), "the search found the block");
    let at = h.state_mut().diagram_mut().block_pos("cell_4_4").expect("drawn");
    let view = h.state().diagram().canvas();
    assert!(view.contains(at), "the found block is centred in the view: {at:?} in {view:?}");
    // Open it (what a double-click on it, or its context menu's "open", does).
    let page_found = h.state().diagram().page();
    assert!(h.state_mut().diagram_mut().open("cell_4_4"));
    h.step();
    assert_eq!(h.state().diagram().instance(), "cell_4_4");
    assert_eq!(h.state_mut().diagram_mut().output_value("Value"), Some(Value::Int(4)));
    assert!(h.query_by_label("cell_4_4").is_some(), "the breadcrumb names the instance");
    // A force shows in the diagram and on the board.
    h.state_mut().force("cell_4_4/mem.q", Value::Int(64)).expect("force");
    h.state_mut().run_scans(1);
    h.step();
    assert_eq!(h.state_mut().diagram_mut().output_value("Value"), Some(Value::Int(64)));
    assert_eq!(h.state().values()[15], 64);
    // Back to the program through the breadcrumb: the page it came from; the board's page has
    // v44.
    h.get_by_label("program").click();
    h.step();
    h.step();
    assert_eq!(h.state().diagram().page(), page_found, "the top level opens at the page one came from");
    find(&mut h, "cell_4_4");
    h.step();
    assert!(h.query_by_value("page 3/9: Board").is_some(), "Find went to the page of the block");
    assert_eq!(h.state_mut().diagram_mut().output_value("v44"), Some(Value::Int(64)));
    assert!(!h.state_mut().diagram_mut().open("no_such_instance"));
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
    assert!(h.state_mut().diagram_mut().open("proc_1"));
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
fn the_diagram_is_driven_by_the_pointer_double_click_in_and_context_menu_force() {
    let mut h = harness_dt(Wiring::Upd1, false, "diagram-pointer", 1.0 / 60.0);
    h.step();
    h.state_mut().set_board(board([8, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]));
    h.get_by_label("Diagram").click();
    h.step();
    find(&mut h, "cell_4_4");
    let at = h.state_mut().diagram_mut().block_pos("cell_4_4").expect("drawn");
    // A double click on the block opens its body (half a second after the last click, so
    // egui does not count a triple click).
    for _ in 0..30 {
        h.step();
    }
    click_at(&mut h, at, egui::PointerButton::Primary);
    click_at(&mut h, at, egui::PointerButton::Primary);
    h.step();
    assert_eq!(h.state().diagram().instance(), "cell_4_4", "the double click opened the instance");
    assert_eq!(h.state_mut().diagram_mut().output_value("Value"), Some(Value::Int(4)));
    // A right click on the cell's memory opens its menu; a number typed there is forced.
    find(&mut h, "mem");
    let mem = h.state_mut().diagram_mut().block_pos("mem").expect("the memory is drawn");
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
    assert_eq!(h.state_mut().diagram_mut().output_value("Value"), Some(Value::Int(64)));
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

/// The program's inputs are written from the drawing as in CODESYS's online mode: a double-click
/// on a BOOL input toggles it, a right-click opens its menu (write a typed number, force,
/// release). A right-click there said "right-click a block" and offered nothing.
#[test]
fn inputs_are_written_and_forced_from_the_online_diagram() {
    let mut h = crate::file_window_dt(
        "diagram-inputs",
        r#"{"fbd": 1, "name": "io",
  "inputs": [{"name": "go", "type": "BOOL"}, {"name": "level", "type": "INT"}],
  "outputs": [{"name": "out", "type": "INT", "from": "sel.out"}],
  "blocks": [{"id": "sel", "type": "SEL", "inputs": {"g": "go", "in0": 99, "in1": "level"}, "pos": [200, 50]}]}"#,
        1.0 / 60.0,
    );
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    let go = h.state_mut().diagram_mut().input_pos("go").expect("drawn");
    for _ in 0..30 {
        h.step();
    }
    click_at(&mut h, go, egui::PointerButton::Primary);
    click_at(&mut h, go, egui::PointerButton::Primary);
    h.step();
    h.state_mut().run_scans(1);
    h.step();
    assert_eq!(
        h.state_mut().diagram_mut().output_value("out"),
        Some(Value::Int(0)),
        "go is TRUE: SEL gives level (0), not 99"
    );
    let level = h.state_mut().diagram_mut().input_pos("level").expect("drawn");
    click_at(&mut h, level, egui::PointerButton::Secondary);
    h.step();
    h.step();
    h.get_by_label("value").click();
    h.step();
    h.get_by_label("value").type_text("7");
    h.step();
    h.step();
    h.get_by_label("force 7").click();
    h.step();
    h.state_mut().run_scans(1);
    h.step();
    assert_eq!(h.state_mut().diagram_mut().output_value("out"), Some(Value::Int(7)), "level forced to 7");
    // Released from the same menu; a double-click on go toggles it back off.
    click_at(&mut h, level, egui::PointerButton::Secondary);
    h.step();
    h.step();
    h.get_by_label("release").click();
    h.step();
    for _ in 0..30 {
        h.step();
    }
    click_at(&mut h, go, egui::PointerButton::Primary);
    click_at(&mut h, go, egui::PointerButton::Primary);
    h.step();
    h.state_mut().run_scans(1);
    h.step();
    assert_eq!(h.state_mut().diagram_mut().output_value("out"), Some(Value::Int(99)), "go FALSE again: SEL gives in0");
    assert!(h.state_mut().forces().is_empty(), "released");
}

/// A fitted drawing stays fitted when the canvas changes size (the debugger opened or closed
/// beside it, the window resized) until the user zooms or pans; then the view is theirs.
#[test]
fn a_fitted_diagram_refits_when_its_canvas_changes_size_until_the_user_moves_it() {
    let mut h = harness(Wiring::Upd1, true, "fit-hold");
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    // The whole page, which grows with the canvas (a sheet is drawn at full size).
    h.state_mut().diagram_mut().show_sheet(None);
    h.step();
    h.step();
    let narrow = (h.state().diagram().canvas(), h.state_mut().diagram_mut().block_pos("code").expect("drawn"));
    h.key_press(egui::Key::F12); // the debugger closes: the canvas widens
    h.step();
    h.step();
    let wide = (h.state().diagram().canvas(), h.state_mut().diagram_mut().block_pos("code").expect("drawn"));
    assert!(wide.0.width() > narrow.0.width() + 100.0, "{narrow:?} → {wide:?}");
    assert!(wide.1.x > narrow.1.x + 20.0, "the drawing grew with the canvas: {narrow:?} → {wide:?}");
    // The user zooms in: the view is theirs, and stays when the canvas narrows again.
    let centre = wide.0.center();
    wheel(&mut h, centre, 120.0);
    for _ in 0..20 {
        h.step(); // the wheel's scrolling is smoothed over frames
    }
    let zoomed = h.state_mut().diagram_mut().block_pos("code").expect("drawn");
    assert!(zoomed.distance(wide.1) > 5.0, "the wheel zoomed: {:?} → {zoomed:?}", wide.1);
    h.key_press(egui::Key::F12);
    h.step();
    h.step();
    assert!(h.state().diagram().canvas().width() < wide.0.width() - 100.0);
    // Where the canvas starts may move (the header wraps at another width): the view in it is kept.
    let narrow_again = h.state().diagram().canvas().min;
    let at = h.state_mut().diagram_mut().block_pos("code").expect("drawn");
    assert_eq!(at - narrow_again, zoomed - wide.0.min, "the user's view is kept");
}

/// The pointer on a wire says which signal it carries and its value; on a dashed (feedback)
/// wire also what the dashes mean, which nothing on screen said.
#[test]
fn a_wire_under_the_pointer_names_its_signal_and_what_dashes_mean() {
    let text = r#"{"fbd": 1, "name": "count", "cycle_ms": 5,
      "outputs": [{"name": "n", "type": "INT", "from": "inc.out"}, {"name": "over", "type": "BOOL", "from": "big.out"}],
      "blocks": [
        {"id": "inc", "type": "ADD", "inputs": {"in1": {"from": "inc.out", "feedback": true, "init": 0}, "in2": 1}},
        {"id": "big", "type": "GT", "inputs": {"in1": "inc.out", "in2": 2}}
      ]}"#;
    let mut h = crate::file_window("wire-hover", text);
    h.step();
    h.state_mut().run_scans(3);
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    let at = h.state_mut().diagram_mut().wire_pos("inc", "out").expect("the wire is drawn");
    h.hover_at(at);
    for _ in 0..10 {
        h.step(); // tooltips show after the pointer rests
    }
    assert!(
        h.query_all_by_label_contains("inc.out = 3").next().is_some(),
        "the tooltip names the signal and its value"
    );
    // inc.out feeds `big` and the port this scan, and itself through the feedback wire: only
    // that part is dashed.
    assert!(
        h.query_all_by_label_contains("its dashed part is a feedback wire").next().is_some(),
        "and says what the dashes mean"
    );
    // A plain wire says nothing about feedback.
    let at = h.state_mut().diagram_mut().wire_pos("big", "out").expect("drawn");
    h.hover_at(at);
    for _ in 0..10 {
        h.step();
    }
    assert!(h.query_all_by_label_contains("big.out = TRUE").next().is_some());
    assert!(h.query_all_by_label_contains("feedback wire").next().is_none());
}

/// A block's comment shows when the pointer rests on the block, in the online view and in the
/// editor (the 2048 macros explain their blocks so; nothing on screen showed it).
#[test]
fn a_blocks_comment_shows_on_hover_online_and_in_the_editor() {
    let mut h = harness(Wiring::Upd1, false, "comment-hover");
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    assert!(h.state_mut().diagram_mut().open("cell_1_1"));
    crate::wait_for_layout(&mut h);
    h.step();
    let text = "two_four (SEL): Choice 1: a two or a four";
    let at = h.state_mut().diagram_mut().block_pos("two_four").expect("drawn");
    h.hover_at(at);
    for _ in 0..10 {
        h.step(); // tooltips show after the pointer rests
    }
    assert!(h.query_all_by_label_contains(text).next().is_some(), "online: the comment on hover");
    h.get_by_label("Edit").click();
    h.step();
    h.state_mut().editor_mut().open_body(fbd_edit::BodyId::Macro("Cell".into()));
    h.step();
    h.step();
    let (_, at) = h.state_mut().editor_mut().block_at("two_four").expect("drawn in the editor");
    h.hover_at(at + egui::vec2(0.0, -14.0)); // on the title, away from the pins
    for _ in 0..10 {
        h.step();
    }
    assert!(h.query_all_by_label_contains(text).next().is_some(), "editor: the comment on hover");
}

/// A macro opened from the instance list is fitted to the view, as the program was (it kept
/// the program's zoom: the Processing macro showed as a thin strip).
#[test]
fn an_instance_opened_from_the_list_is_fitted() {
    let mut h = harness(Wiring::Upd1, false, "instance-fit");
    h.step();
    h.get_by_label("Diagram").click();
    for _ in 0..4 {
        h.step();
    }
    let top = h.state().diagram().zoom();
    h.get_by_value("instance…").click();
    h.step();
    h.step();
    h.get_by_label_contains("proc_2 (Processing)").click();
    for _ in 0..4 {
        h.step();
    }
    assert_eq!(h.state().diagram().instance(), "proc_2");
    let zoom = h.state().diagram().zoom();
    // Fitted to its own drawing: its first sheet at full size, or the whole of it.
    assert!(zoom != top || h.state().diagram().sheets() > 1, "it kept the program's zoom: {zoom}");
    // Fitting again changes nothing: it was fitted to its own drawing.
    h.state_mut().diagram_mut().fit();
    for _ in 0..2 {
        h.step();
    }
    assert!(
        (h.state().diagram().zoom() - zoom).abs() < 1e-4,
        "not fitted: {zoom}, fitted {}",
        h.state().diagram().zoom()
    );
}

/// File > Export drawing writes the body the Diagram tab shows as SVG, as drawn on screen: the
/// top level's long nets as connector pairs, the values of the moment beside the pins; a macro
/// instance's body when one is open.
#[test]
fn the_shown_body_exports_as_an_svg_drawing_with_its_connectors_and_values() {
    let mut h = harness(Wiring::Upd1, false, "export-drawing");
    h.step();
    h.get_by_label("Start").click();
    settle(&mut h);
    h.get_by_label("Diagram").click();
    for _ in 0..4 {
        h.step();
    }
    // The whole top level (it opens at its first page).
    h.get_by_value("page 1/9: Commands").click();
    h.step();
    h.step();
    h.get_by_label_contains("whole body").click();
    for _ in 0..4 {
        h.step();
    }
    let dir = temp_dir("export-drawing");
    let top = dir.join("top.svg");
    h.state_mut().export_drawing(Some(top.clone()));
    assert!(h.state().status().starts_with("drawing written to"), "{}", h.state().status());
    let svg = std::fs::read_to_string(&top).expect("written");
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
    assert_eq!(svg.matches("<g class=\"block\" data-id=").count(), 156, "every block of the top level");
    assert!(svg.matches("<g class=\"connector\"").count() > 100, "the long nets as connector pairs");
    assert!(svg.contains("class=\"value\""), "the values beside the pins");
    assert!(h.state_mut().diagram_mut().open("cell_2_3"));
    for _ in 0..3 {
        h.step();
    }
    let cell = dir.join("cell.svg");
    h.state_mut().export_drawing(Some(cell.clone()));
    let svg = std::fs::read_to_string(&cell).expect("written");
    assert!(svg.contains("cell_2_3"), "titled by the instance");
    assert_eq!(svg.matches("<g class=\"block\" data-id=").count(), 10, "the Cell's blocks");
}

/// A page larger than the view opens at its first sheet; Page Down and Page Up, over the
/// drawing, go to the next and the previous sheet (fitted at full size), and stop at the ends.
#[test]
fn page_down_and_page_up_turn_the_sheets_of_a_page() {
    let mut h = crate::harness_sized(Wiring::Upd1, "sheets", egui::vec2(1600.0, 1000.0));
    h.step();
    h.get_by_label("Diagram").click();
    for _ in 0..3 {
        h.step();
    }
    h.state_mut().diagram_mut().show_page(Some(2));
    for _ in 0..3 {
        h.step();
    }
    let n = h.state().diagram().sheets();
    assert!(n >= 2, "the Board page is larger than the view: {n} sheets");
    assert_eq!(h.state().diagram().sheet(), Some(0), "it opens at its first sheet");
    let centre = h.state().diagram().canvas().center();
    let zoom = h.state().diagram().zoom();
    for k in 1..n {
        h.hover_at(centre);
        h.key_press(egui::Key::PageDown);
        h.step();
        h.step();
        assert_eq!(h.state().diagram().sheet(), Some(k), "Page Down {k} times");
        assert_eq!(h.state().diagram().zoom(), zoom, "every sheet at full size");
    }
    // Past the page's last sheet: the next page, at its first sheet (it stayed on the last).
    h.hover_at(centre);
    h.key_press(egui::Key::PageDown);
    for _ in 0..3 {
        h.step();
    }
    assert_eq!(h.state().diagram().page(), Some(3), "the next page");
    assert_eq!(h.state().diagram().sheet(), Some(0));
    // Page Up before its first sheet: the page before, at its last sheet.
    h.hover_at(centre);
    h.key_press(egui::Key::PageUp);
    for _ in 0..3 {
        h.step();
    }
    assert_eq!(h.state().diagram().page(), Some(2), "back to the page before");
    assert_eq!(h.state().diagram().sheet(), Some(n - 1), "at its last sheet");
    h.hover_at(centre);
    h.key_press(egui::Key::PageUp);
    h.step();
    h.step();
    assert_eq!(h.state().diagram().sheet(), Some(n - 2), "Page Up goes back a sheet");
}

/// File → Print on A4 sheets: the page the Diagram tab shows, as numbered PNG sheets of A4
/// with 8-point text, said on the status line.
#[test]
fn print_on_sheets_writes_the_shown_page_as_numbered_a4_sheets() {
    let mut h = harness(Wiring::Upd1, false, "print-sheets");
    h.step();
    h.get_by_label("Diagram").click();
    for _ in 0..4 {
        h.step();
    }
    let dir = temp_dir("print-sheets");
    let png = dir.join("commands.png");
    h.state_mut().print_sheets(Some(png.clone()));
    let status = h.state().status().to_string();
    assert!(status.starts_with("printed on ") && status.contains("text 8 pt"), "{status}");
    let n: usize =
        status["printed on ".len()..].split_whitespace().next().and_then(|w| w.parse().ok()).expect("a count");
    for k in 1..=n {
        let bytes = std::fs::read(dir.join(format!("commands-{k}.png"))).expect("a sheet written");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "sheet {k} is a PNG");
    }
    assert!(!dir.join(format!("commands-{}.png", n + 1)).exists(), "{n} sheets, no more");
    assert!(!png.exists(), "the name is a stem: NAME.png itself is not written");
}

/// "Where does cell_2_3's value go?": Find on the connector's name marks its tag at the source
/// and every continuation, all of them in view.
#[test]
fn find_on_a_connector_name_marks_its_source_and_every_continuation_in_view() {
    let mut h = harness(Wiring::Upd1, false, "diagram-connector");
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    find(&mut h, "cell_2_3.Value");
    h.step();
    // The top level is drawn on pages: Find went to the page of cell_2_3 (the board), where the
    // connector stands at the cell's output, and names the pages that read it.
    let (label, points) = h.state_mut().diagram_mut().found_connector().expect("a connector was found");
    assert_eq!(label, "cell_2_3.Value");
    assert!(h.query_by_value("page 3/9: Board").is_some());
    let view = h.state().diagram().canvas();
    for p in &points {
        assert!(view.contains(*p), "every tag in view: {p:?} outside {view:?}");
    }
    assert!(
        h.state().diagram().message()
            == "connector `cell_2_3.Value` marked at its source · read on page 2 Processing, page 7 Full, page 8 Win, page 9 Pairs and game over",
        "the cross reference: {}",
        h.state().diagram().message()
    );
    // On a page that reads it, Find marks its continuations.
    find(&mut h, "line2_3");
    find(&mut h, "cell_2_3.Value");
    let (_, points) = h.state_mut().diagram_mut().found_connector().expect("found again");
    assert!(points.len() >= 3, "the continuations on the processors' page: {points:?}");
    let view = h.state().diagram().canvas();
    for p in &points[1..] {
        assert!(view.contains(*p), "every continuation in view: {p:?} outside {view:?}");
    }
    assert!(h.query_by_label_contains("connector `cell_2_3.Value`").is_some(), "the message says what was found");
}

/// At Fit on a 1600×1000 window, each page of the 2048 top level is drawn several times larger
/// than the whole body, and each sheet of it (a page larger than the view is read sheet by
/// sheet) with its text at full size, 11 px or more (block types, connector names), where the
/// whole body is too small for any (figures in docs/hmi.md).
#[test]
fn every_page_of_the_top_level_is_drawn_larger_at_fit_than_the_whole_body() {
    let mut h = crate::harness_sized(Wiring::Upd1, "legible", egui::vec2(1600.0, 1000.0));
    h.step();
    h.get_by_label("Diagram").click();
    for _ in 0..3 {
        h.step();
    }
    let pages = h.state_mut().diagram_mut().pages();
    assert_eq!(pages.len(), 9, "{pages:?}");
    h.state_mut().diagram_mut().show_page(None);
    for _ in 0..3 {
        h.step();
    }
    let whole = h.state().diagram().zoom();
    assert_eq!(h.state().diagram().text_px(), None, "the whole top level at Fit has no legible text");
    for (k, title) in pages.iter().enumerate() {
        h.state_mut().diagram_mut().show_page(Some(k));
        for _ in 0..3 {
            h.step();
        }
        let z = h.state().diagram().zoom();
        let sheets = h.state().diagram().sheets();
        eprintln!("page {title}: zoom {z:.2}, text {:?} px, {sheets} sheets", h.state().diagram().text_px());
        assert!(z > 2.5 * whole, "page {title} at Fit: zoom {z} against {whole} for the whole body");
        for k in 0..sheets {
            h.state_mut().diagram_mut().show_sheet(Some(k));
            for _ in 0..3 {
                h.step();
            }
            let px = h.state().diagram().text_px();
            assert!(px.is_some_and(|px| px >= 11.0), "page {title}, sheet {} at Fit: text {px:?} px", k + 1);
        }
        // The whole page, on request: smaller, still with its text.
        h.state_mut().diagram_mut().show_sheet(None);
        for _ in 0..3 {
            h.step();
        }
        assert!(h.state().diagram().text_px().is_some_and(|px| px >= 6.0), "page {title} whole at Fit draws its text");
    }
}

/// Another program forgets the previous one's Find: its text, its message and what it marked
/// (they stayed, naming blocks the new program does not have).
#[test]
fn find_is_forgotten_when_another_program_runs() {
    let mut h = harness(Wiring::Upd1, false, "diagram-find-forgotten");
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    find(&mut h, "cell_2_3.Value");
    h.step();
    assert!(!h.state().diagram().message().is_empty(), "Find said what it found");
    h.state_mut().online_change(fbd_hmi::source::Origin::Embedded(Wiring::SmartSpawn));
    h.step();
    assert_eq!(h.state().diagram().message(), "", "the message went with the program");
    assert!(h.query_by_value("cell_2_3.Value").is_none(), "the Find field is empty");
}

/// Back from a macro instance by the breadcrumb, the program opens at the page one came from
/// (it opened page 1).
#[test]
fn the_breadcrumb_returns_to_the_page_one_came_from() {
    let mut h = harness(Wiring::Upd1, false, "diagram-breadcrumb");
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    h.state_mut().diagram_mut().show_page(Some(2));
    h.step();
    h.step();
    assert!(h.state_mut().diagram_mut().open("cell_2_3"), "the instance opens");
    h.step();
    h.step();
    assert_eq!(h.state().diagram().instance(), "cell_2_3");
    h.get_by_label("program").click();
    h.step();
    h.step();
    assert_eq!(h.state().diagram().instance(), "");
    assert_eq!(h.state().diagram().page(), Some(2), "back at the Board page");
}

/// A ladder program is drawn as ladder in the Diagram tab (rails, rungs, contacts and coils),
/// and a right-click on a contact forces its variable, as CODESYS's online mode does: the
/// seal-in holds the motor, and forcing `stop` TRUE from the drawing drops it.
#[test]
fn a_ladder_program_is_drawn_as_rungs_and_a_contact_forces_its_variable() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/motor-ld.json")).expect("example");
    let mut h = file_window("ladder-view", &text);
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("Ladder · 5 rungs · 6 contacts · 2 blocks").is_some(), "the ladder view");
    // Find marks the contacts and coils on a variable and says how many.
    h.get_by_label("Find").click();
    h.step();
    h.get_by_label("Find").type_text("motor");
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    assert!(h.query_by_label_contains("`motor`: 2 element(s)").is_some(), "{}", h.state().diagram().message());
    // Start the motor (a press: forced, run, released): the seal-in contact holds it.
    h.state_mut().force("start", Value::Bool(true)).expect("start");
    h.state_mut().run_scans(2);
    h.state_mut().online_release_all();
    h.state_mut().run_scans(2);
    h.step();
    assert_eq!(h.state().read("motor"), Some(Value::Bool(true)), "held by the seal-in contact");
    let stop = h.state_mut().diagram_mut().element_pos("stop_c").expect("the stop contact is drawn");
    click_at(&mut h, stop, egui::PointerButton::Secondary);
    h.step();
    h.step();
    assert!(h.query_all_by_label_contains("contact `stop`").next().is_some(), "the contact's menu");
    h.query_all_by_label("force TRUE").next().expect("a force button").click();
    h.step();
    h.state_mut().run_scans(2);
    h.step();
    assert_eq!(h.state().read("stop"), Some(Value::Bool(true)));
    assert_eq!(h.state().read("motor"), Some(Value::Bool(false)), "stop forced TRUE from the drawing");
}

/// A function block of the program written in ladder opens, from the rung its instance stands
/// in, by a double-click, with that instance's values; the breadcrumb goes back.
#[test]
fn a_ladder_function_block_opens_from_its_rung() {
    let text = r#"{"fbd": 5, "inputs": [{"name": "s", "type": "BOOL"}, {"name": "r", "type": "BOOL"}],
      "macros": [{"name": "Latch", "inputs": [{"name": "set", "type": "BOOL"}, {"name": "rst", "type": "BOOL"}],
        "outputs": [{"name": "q", "type": "BOOL", "from": "m"}], "blocks": [],
        "variables": [{"name": "m", "type": "BOOL"}],
        "ladder": [
          {"id": "cs", "kind": "contact", "var": "set", "from": ["rail"]},
          {"id": "ks", "kind": "coil", "var": "m", "modifier": "set", "from": ["cs"]},
          {"id": "cr", "kind": "contact", "var": "rst", "from": ["rail"]},
          {"id": "kr", "kind": "coil", "var": "m", "modifier": "reset", "from": ["cr"]}
        ]}],
      "variables": [{"name": "lamp", "type": "BOOL"}],
      "blocks": [{"id": "latch", "type": "Latch", "inputs": {"set": "s", "rst": "r"}}],
      "ladder": [{"id": "k", "kind": "coil", "var": "lamp", "from": ["latch.q"]}]}"#;
    let mut h = file_window_dt("ladder-fb", text, 1.0 / 60.0);
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("Ladder · 1 rung · 0 contacts · 1 block").is_some(), "the program's network");
    for _ in 0..30 {
        h.step();
    }
    let at = h.state_mut().diagram_mut().ladder_block_pos("latch").expect("the instance is drawn");
    click_at(&mut h, at, egui::PointerButton::Primary);
    click_at(&mut h, at, egui::PointerButton::Primary);
    h.step();
    h.step();
    assert_eq!(h.state().diagram().instance(), "latch", "the double click opened the instance");
    assert!(
        h.query_by_label_contains("Ladder · 2 rungs · 2 contacts · 0 blocks").is_some(),
        "the function block's network"
    );
    h.get_by_label("program").click();
    h.step();
    h.step();
    assert_eq!(h.state().diagram().instance(), "");
    assert!(h.query_by_label_contains("Ladder · 1 rung").is_some(), "back at the program's network");
}

/// A function block written in Structured Text opens, from its instance, as its text with the
/// values of the scan beside each line (CODESYS's inline monitoring): the batch sequence's step
/// and its timer's output as the program runs.
#[test]
fn an_st_function_block_shows_its_text_with_live_values() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/batch-st.json")).expect("example");
    let mut h = file_window("st-view", &text);
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    assert!(h.state_mut().diagram_mut().open("batch"), "the instance opens");
    h.state_mut().force("start", Value::Bool(true)).expect("start");
    h.state_mut().force("level", Value::Int(90)).expect("level");
    h.state_mut().run_scans(3);
    h.step();
    h.step();
    assert!(h.query_by_label_contains("Structured Text · 21 lines").is_some(), "the ST view");
    assert!(h.query_by_label_contains("mix := stage = 2;").is_some(), "the text, line by line");
    assert!(h.query_all_by_label("stage = 2").next().is_some(), "the stage's value beside its lines");
    assert!(h.query_all_by_label("mix = TRUE").next().is_some(), "a BOOL's value");
    assert!(h.query_all_by_label("mix_t.Q = FALSE").next().is_some(), "an instance output's value");
    h.state_mut().run_scans(200);
    h.step();
    h.step();
    assert!(h.query_all_by_label("stage = 3").next().is_some(), "the values follow the scan");
    assert!(h.query_all_by_label("stage = 2").next().is_none(), "and only the newest");
    // An input of the function block shows as its instance's pin.
    assert!(h.query_all_by_label("stop = FALSE").next().is_some(), "the block's input");
    // A right-click on a value forces it, as the block and ladder views' menus do: `fill`
    // forced TRUE from the text reaches the program's output.
    let at = h.query_all_by_label("fill = FALSE").next().expect("fill's value").rect().center();
    click_at(&mut h, at, egui::PointerButton::Secondary);
    h.step();
    h.query_all_by_label("force TRUE").next().expect("the value's menu").click();
    h.step();
    h.state_mut().run_scans(2);
    h.step();
    h.step();
    assert_eq!(h.state().read("fill"), Some(Value::Bool(true)), "forced from the text");
    assert!(h.query_all_by_label("fill = TRUE").next().is_some(), "shown forced");
}

/// In the online ST view an enumeration's value shows by its name and an array by its first
/// elements (every element on hover).
#[test]
fn an_st_view_shows_enumerations_by_name_and_arrays_by_their_elements() {
    let text = r#"{"fbd": 7, "name": "typed",
  "types": [{"name": "Mode", "enum": ["idle", "filling", "held"]}],
  "inputs": [{"name": "go", "type": "BOOL"}],
  "variables": [{"name": "mode", "type": "Mode"}, {"name": "buf", "type": "ARRAY[1..8] OF INT", "init": [10, 20, 30]},
                {"name": "n", "type": "INT"}],
  "st": ["IF go THEN mode := filling; ELSE mode := held; END_IF;", "n := n + 1;", "buf[LIMIT(1, n, 8)] := n * 100;"]}"#;
    let mut h = file_window("st-typed", text);
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    h.state_mut().force("go", Value::Bool(true)).expect("go");
    h.state_mut().run_scans(2);
    h.step();
    h.step();
    assert!(h.query_all_by_label("mode = filling").next().is_some(), "the value's name");
    assert!(h.query_all_by_label("buf = [100, 200, 30, 0, 0, 0, ..]").next().is_some(), "the first elements");
    h.state_mut().force("go", Value::Bool(false)).expect("go");
    h.state_mut().run_scans(1);
    h.step();
    h.step();
    assert!(h.query_all_by_label("mode = held").next().is_some(), "the newest value's name");
}
