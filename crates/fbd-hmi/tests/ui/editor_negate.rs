//! Negating a pin in the editor: the pin's menu puts IEC 61131-3's circle on an input or an
//! output (and takes it off), and the program compiles with it.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fbd_hmi::App;

use crate::editor::{into_the_editor, pin_menu};

/// Opens the menu of the pin at `at` (after egui's double-click window), clicks `item` and
/// returns what the editor said and block `g`'s negated pins.
fn menu_item(h: &mut Harness<'static, App>, at: egui::Pos2, item: &str) -> (String, Vec<String>) {
    for _ in 0..30 {
        h.step();
    }
    pin_menu(h, at);
    h.get_by_label(item).click();
    h.step();
    h.step();
    let negated =
        h.state_mut().editor_mut().workspace().block(&fbd_edit::BodyId::Program, "g").expect("g").negated.to_vec();
    (h.state().editor().message().to_string(), negated)
}

/// Right-click a library block's BOOL input, "negate": the pin is negated in the program (the
/// menu then offers to remove it) and a program that needed a NOT block compiles without one.
#[test]
fn the_pin_menu_negates_an_input_and_takes_the_negation_off() {
    let mut h = crate::file_window(
        "negate",
        r#"{"fbd": 1, "name": "tiny", "inputs": [{"name": "a", "type": "BOOL"}],
  "outputs": [{"name": "q", "type": "BOOL", "from": "g.out"}],
  "blocks": [{"id": "g", "type": "AND", "inputs": {"in1": "a", "in2": true}, "pos": [200, 110]}]}"#,
    );
    h.step();
    into_the_editor(&mut h);
    h.step();
    h.step();
    let in2 = h.state_mut().editor_mut().pin_pos("g", "in2").expect("g.in2 drawn");
    let said = menu_item(&mut h, in2, "negate (circle at the pin)");
    assert_eq!(said, ("g.in2 reads the inverse of its wire".to_string(), vec!["in2".to_string()]));
    h.state_mut().editor_mut().wait_check();
    h.step();
    assert!(h.query_by_label("compiles").is_some(), "{}", h.state().editor().message());
    // The menu now takes the circle off.
    let said = menu_item(&mut h, in2, "remove the negation");
    assert_eq!(said, ("g.in2 reads its wire as it is".to_string(), vec![]));
    // An output pin's menu: only the negation (an output takes no constant).
    for _ in 0..30 {
        h.step();
    }
    let out = h.state_mut().editor_mut().anchor_pos("g", "out").expect("g.out drawn");
    pin_menu(&mut h, out);
    assert!(h.query_by_label("constant").is_none(), "no constant on an output");
    h.key_press(egui::Key::Escape);
    h.step();
    let said = menu_item(&mut h, out, "negate (circle at the pin)");
    assert_eq!(said, ("g.out gives the inverse of what the block computes".to_string(), vec!["out".to_string()]));
}

/// The debugger's tree says which pins are negated: an input shows its wire's value (the block
/// reads the inverse), an output what its readers get.
#[test]
fn the_signal_tree_marks_negated_pins() {
    let mut h = crate::file_window(
        "negate-tree",
        r#"{"fbd": 1, "name": "tiny", "inputs": [{"name": "a", "type": "BOOL"}],
  "outputs": [{"name": "q", "type": "BOOL", "from": "g.out"}],
  "blocks": [{"id": "g", "type": "AND", "inputs": {"in1": "a", "in2": true}, "negated": ["in2", "out"]}]}"#,
    );
    h.step();
    h.key_press(egui::Key::F12);
    h.step();
    h.get_by_label_contains("g  AND").click();
    h.step();
    h.step();
    assert!(h.query_by_label("in2 (negated)").is_some(), "the negated input is marked");
    assert!(h.query_by_label("out (negated)").is_some(), "the negated output is marked");
    assert!(h.query_by_label("in1").is_some() && h.query_by_label("in1 (negated)").is_none());
}
