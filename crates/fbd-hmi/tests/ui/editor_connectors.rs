//! A connector made in the editor: an output pin's menu turns its net into a connector pair
//! (the readers become continuations), renames it, and draws it as a wire again.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fbd_edit::BodyId;
use fbd_engine::model::Wire;
use fbd_hmi::App;

use crate::editor::{into_the_editor, pin_menu};

fn out_menu(h: &mut Harness<'static, App>) {
    for _ in 0..30 {
        h.step();
    }
    let out = h.state_mut().editor_mut().anchor_pos("g", "out").expect("g.out drawn");
    pin_menu(h, out);
}

fn reader(h: &mut Harness<'static, App>) -> Wire {
    let w = h.state_mut().editor_mut().workspace().block(&BodyId::Program, "n").expect("n").inputs.get("in").cloned();
    w.expect("n.in wired")
}

#[test]
fn an_output_pin_s_menu_makes_renames_and_removes_a_connector() {
    let mut h = crate::file_window(
        "connector",
        r#"{"fbd": 3, "name": "tiny", "inputs": [{"name": "a", "type": "BOOL"}],
  "outputs": [{"name": "q", "type": "BOOL", "from": "n.out"}],
  "blocks": [{"id": "g", "type": "AND", "inputs": {"in1": "a", "in2": true}, "pos": [200, 110]},
             {"id": "n", "type": "NOT", "inputs": {"in": "g.out"}, "pos": [400, 110]}]}"#,
    );
    h.step();
    into_the_editor(&mut h);
    h.step();
    out_menu(&mut h);
    h.get_by_label("connector").click();
    h.step();
    h.get_by_label("connector").type_text("both");
    h.step();
    h.get_by_label("make connector").click();
    h.step();
    h.step();
    assert_eq!(h.state().editor().message(), "connector `both` carries g.out to 1 reader(s)");
    assert_eq!(reader(&mut h), Wire::Connector("both".into()));
    h.state_mut().editor_mut().wait_check();
    h.step();
    assert!(h.query_by_label("compiles").is_some(), "{}", h.state().editor().message());
    // The menu now names it and offers a rename and the wire.
    out_menu(&mut h);
    assert!(h.query_by_label("connector `both`: 1 continuation(s)").is_some());
    h.get_by_label("rename to").click();
    h.step();
    h.get_by_label("rename to").type_text("g_and");
    h.step();
    h.get_by_label("rename connector").click();
    h.step();
    h.step();
    assert_eq!(reader(&mut h), Wire::Connector("g_and".into()));
    out_menu(&mut h);
    h.get_by_label("draw as a wire again").click();
    h.step();
    h.step();
    assert_eq!(reader(&mut h), Wire::Ref("g.out".into()));
    assert!(h.state_mut().editor_mut().workspace().connectors(&BodyId::Program).is_empty());
}
