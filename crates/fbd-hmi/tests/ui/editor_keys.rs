//! The editor's keys on blocks: copy, cut, paste and duplicate through the clipboard, select
//! all, and the arrow keys moving the selection.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fbd_hmi::App;

use crate::editor::into_the_editor;
use crate::*;

/// Ctrl+C, Ctrl+V, Ctrl+D and Ctrl+X on blocks (there was no way to copy a block): a copy
/// pasted at the pointer gets a fresh id and its constant, a duplicate stands two grid steps
/// off and is selected, a cut removes the block and leaves it on the clipboard; a paste into a
/// text field is the field's.
#[test]
fn blocks_are_copied_pasted_duplicated_and_cut() {
    let mut h = crate::file_window(
        "clipboard",
        r#"{"fbd": 1, "name": "tiny", "outputs": [{"name": "q", "type": "BOOL", "from": "n.out"}],
  "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": false}, "pos": [200, 110]}]}"#,
    );
    h.step();
    into_the_editor(&mut h);
    h.step();
    h.step();
    let (_, centre) = h.state_mut().editor_mut().block_at("n").expect("n drawn");
    click_at(&mut h, centre, egui::PointerButton::Primary);
    h.step();
    h.event(egui::Event::Copy);
    h.step();
    let text = h.state().editor().clipboard_text().expect("copied").to_string();
    assert!(h.state().editor().message().starts_with("copied 1 block"), "{}", h.state().editor().message());
    // Paste with the pointer on the canvas, away from the block.
    let at = centre + egui::vec2(0.0, 150.0);
    h.hover_at(at);
    h.event(egui::Event::Paste(text.clone()));
    h.step();
    h.step();
    assert_eq!(h.state().editor().message(), "pasted n2");
    let ws = h.state_mut().editor_mut().workspace().clone();
    let n2 = ws.block(&fbd_edit::BodyId::Program, "n2").expect("the copy");
    assert_eq!(n2.inputs.0, ws.block(&fbd_edit::BodyId::Program, "n").expect("n").inputs.0, "with its constant");
    let (pos2, centre2) = h.state_mut().editor_mut().block_at("n2").expect("n2 drawn");
    assert!((centre2.y - at.y).abs() < 60.0, "pasted where the pointer is: {centre2:?} for {at:?}");
    assert!(pos2[0] % 20.0 == 0.0 && pos2[1] % 20.0 == 10.0, "on the grid: {pos2:?}");
    // The pasted block is selected: Ctrl+D duplicates it two grid steps off.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::D);
    h.step();
    h.step();
    assert_eq!(h.state().editor().message(), "pasted n3");
    let (pos3, _) = h.state_mut().editor_mut().block_at("n3").expect("n3");
    assert_eq!(pos3, [pos2[0] + 40.0, pos2[1] + 40.0]);
    assert_eq!(h.state().editor().clipboard_text(), Some(text.as_str()), "a duplicate leaves the clipboard alone");
    h.event(egui::Event::Cut);
    h.step();
    h.step();
    assert!(h.state_mut().editor_mut().block_at("n3").is_none(), "cut");
    assert!(
        h.state().editor().clipboard_text().is_some_and(|t| t.contains("\"n3\"")),
        "the cut block is on the clipboard"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.step();
    h.step();
    assert!(h.state_mut().editor_mut().block_at("n3").is_some(), "Ctrl+Z undoes the cut");
    // In a text field, a paste is the field's.
    h.get_by_label("Add").click();
    h.step();
    h.event(egui::Event::Paste(text));
    h.step();
    h.step();
    assert!(h.state_mut().editor_mut().block_at("n4").is_none(), "no block pasted while typing");
}

/// Ctrl+A selects every block, the arrow keys move the selection a grid step (five with
/// Shift) as one undo step each, Escape clears the selection (after which arrows move
/// nothing).
#[test]
fn select_all_and_the_arrow_keys_move_the_selection() {
    let mut h = crate::file_window(
        "nudge",
        r#"{"fbd": 1, "name": "two", "outputs": [{"name": "q", "type": "BOOL", "from": "b.out"}],
  "blocks": [{"id": "a", "type": "NOT", "inputs": {"in": false}, "pos": [200, 110]},
             {"id": "b", "type": "NOT", "inputs": {"in": "a.out"}, "pos": [340, 110]}]}"#,
    );
    h.step();
    into_the_editor(&mut h);
    h.step();
    h.step();
    let at = |h: &mut Harness<'static, App>, id: &str| h.state_mut().editor_mut().block_at(id).expect("drawn").0;
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    assert_eq!(h.state().editor().message(), "2 block(s) selected");
    h.key_press(egui::Key::ArrowRight);
    h.step();
    h.step();
    assert_eq!((at(&mut h, "a"), at(&mut h, "b")), ([220.0, 110.0], [360.0, 110.0]), "one grid step right");
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::ArrowDown);
    h.step();
    h.step();
    assert_eq!(at(&mut h, "a"), [220.0, 210.0], "five steps down with Shift");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.step();
    h.step();
    assert_eq!(at(&mut h, "a"), [220.0, 110.0], "one undo step per press");
    h.key_press(egui::Key::Escape);
    h.step();
    h.key_press(egui::Key::ArrowLeft);
    h.step();
    h.step();
    assert_eq!(at(&mut h, "a"), [220.0, 110.0], "nothing selected, nothing moved");
}
