//! The editor's port column: a port's details (how the panel shows an input, its default, what
//! it is for), and a body with more ports than the column lists.

use egui_kittest::kittest::Queryable;
use fbd2048_game::Wiring;

use crate::editor::{into_the_editor, save_as};
use crate::*;

/// A program input drawn in the editor can be made a push button with a description (the port
/// list could only add, rename, retype and remove: a `start` input stayed a switch until the file
/// was edited by hand), and the program gets a description; saved, the file says so.
#[test]
fn a_program_input_becomes_a_push_button_in_the_port_details() {
    let dir = temp_dir("editor-port-details");
    let file = dir.join("ports.json");
    let mut h = harness_dt(Wiring::Upd1, false, "editor-port-details", 1.0 / 60.0);
    h.step();
    into_the_editor(&mut h);
    h.get_by_label("New").click();
    h.step();
    h.step();
    h.get_by_label("new port").click();
    h.step();
    h.get_by_label("new port").type_text("start");
    h.step();
    h.get_by_label("Add input").click();
    h.step();
    h.step();
    h.get_by_label("details").click();
    h.step();
    h.get_by_label("shown as").click();
    h.step();
    h.step();
    h.get_by_label("button").click();
    h.step();
    h.get_by_label("description").click();
    h.step();
    h.get_by_label("description").type_text("starts the fan");
    h.step();
    h.get_by_label("Apply details").click();
    h.step();
    h.step();
    assert_eq!(h.state().editor().message(), "details of `start` set");
    // And what the program is for.
    h.get_by_label("What the program is for").click();
    h.step();
    h.get_by_label("What the program is for").type_text("A fan with a start button.");
    h.step();
    h.get_by_label("Set description").click();
    h.step();
    h.step();
    assert_eq!(h.state().editor().message(), "description of the program set");
    save_as(&mut h, &file);
    let text = std::fs::read_to_string(&file).expect("saved");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    let input = &doc["inputs"][0];
    assert_eq!((input["name"].as_str(), input["kind"].as_str()), (Some("start"), Some("button")), "{text}");
    assert_eq!(input["description"].as_str(), Some("starts the fan"));
    assert_eq!(doc["description"].as_str(), Some("A fan with a start button."));
    // A port is removed from its details.
    h.get_by_label("new port").click();
    h.step();
    h.get_by_label("new port").type_text("spare");
    h.step();
    h.get_by_label("Add input").click();
    h.step();
    h.step();
    h.query_all_by_label("details").last().expect("the new port's details").click();
    h.step();
    h.get_by_label("Remove port").click();
    h.step();
    h.step();
    assert_eq!(h.state().editor().message(), "port `spare` removed");
}

/// A program with thousands of ports lists 40 in the editor's port column and finds the rest
/// by a part of their name (every port was laid out every frame, far past the column's bottom).
#[test]
fn the_port_column_lists_a_few_of_many_ports_and_finds_the_rest() {
    let text = crate::many_inputs(3000);
    let mut h = crate::file_window_dt("editor-many-ports", &text, 1.0 / 60.0);
    h.step();
    into_the_editor(&mut h);
    crate::wait_for_layout(&mut h);
    h.step();
    assert!(h.query_by_label("in0").is_some(), "the first ports are listed");
    assert!(h.query_by_label("in2999").is_none(), "not every port");
    assert!(h.query_by_label("2961 more of 3001 ports: type part of a name in find port").is_some());
    h.get_by_label("find port").click();
    h.step();
    h.get_by_label("find port").type_text("in2999");
    h.step();
    h.step();
    assert!(h.query_by_label("in2999").is_some(), "found by its name");
    assert!(h.query_by_label("in0").is_none(), "and only the ports that match");
    // The one found is edited as any other: its details open and stay while the filter changes.
    h.get_by_label("details").click();
    h.step();
    h.get_by_label("find port").type_text("x");
    h.step();
    h.step();
    assert!(h.query_by_label("in2999").is_some(), "the port whose details are open stays listed");
    assert!(h.query_by_label("Apply details").is_some());
}
