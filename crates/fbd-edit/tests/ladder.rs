//! Editing a ladder network: rungs, contacts in series and in parallel, coils, modifiers,
//! deletion; the saved file compiles and runs as drawn; undo; refusals with their reasons.

use fbd_edit::ladder::Place;
use fbd_edit::{BodyId, Workspace};
use fbd_engine::model::{LdKind, LdModifier, Wire};
use fbd_engine::{Runtime, Type, Value};

fn shape(w: &Workspace) -> Vec<(String, String, Vec<String>)> {
    w.ladder(&BodyId::Program)
        .iter()
        .map(|e| {
            let from = e.from.iter().map(|w| if let Wire::Ref(r) = w { r.clone() } else { "?".into() }).collect();
            (e.id.clone(), e.var.clone(), from)
        })
        .collect()
}

/// A seal-in rung built edit by edit: each edit places the contact where a ladder editor does;
/// the saved program runs it; deleting the seal-in contact bridges nothing and leaves `start`.
#[test]
fn a_seal_in_rung_is_built_edit_by_edit_and_runs_as_drawn() {
    let dir = tempfile::Builder::new().prefix("fbd-edit-ladder-").tempdir().expect("temp dir");
    let file = dir.path().join("motor.json");
    let mut w = Workspace::new_program(&file);
    let p = BodyId::Program;
    w.add_input_port(&p, "start", Type::Bool).expect("start");
    w.add_input_port(&p, "stop", Type::Bool).expect("stop");
    let coil = w.add_rung(&p, "start", "motor").expect("a rung");
    assert_eq!(coil, "coil1");
    let stop = w.add_contact(&p, "contact1", Place::After, "stop").expect("stop after start");
    w.set_modifier(&p, &stop, LdModifier::Negated).expect("normally closed");
    let seal = w.add_contact(&p, "contact1", Place::Parallel, "motor").expect("the seal-in");
    let s = |id: &str, var: &str, from: &[&str]| {
        (id.to_string(), var.to_string(), from.iter().map(|f| f.to_string()).collect::<Vec<_>>())
    };
    assert_eq!(
        shape(&w),
        [
            s("contact1", "start", &["rail"]),
            s(&seal, "motor", &["rail"]),
            s(&stop, "stop", &["contact1", &seal]),
            s("coil1", "motor", &[&stop]),
        ]
    );
    assert_eq!(
        w.variables(&p).iter().map(|v| v.name.as_str()).collect::<Vec<_>>(),
        ["motor"],
        "the coil's variable declared"
    );
    // Refused with the reason, nothing changed.
    assert!(w.add_coil(&p, "coil1", "start").expect_err("an input").0.contains("is an input"));
    assert!(
        w.add_contact(&p, "coil1", Place::After, "nothing").expect_err("undeclared").0.contains("no input or variable")
    );
    assert!(w.set_modifier(&p, "contact1", LdModifier::Set).is_err(), "a contact is not set");
    w.save().expect("save");
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(text.contains("\"fbd\": 5"), "a file with a network is version 5: {text}");
    let plan = fbd_engine::compile_file(&file, &Default::default()).expect("compiles");
    let mut rt = Runtime::new(plan);
    let mut motor = Vec::new();
    for (start, stop) in [(false, false), (true, false), (false, false), (false, false), (false, true), (false, false)]
    {
        rt.set_input("start", Value::Bool(start)).expect("start");
        rt.set_input("stop", Value::Bool(stop)).expect("stop");
        rt.step();
        motor.push(rt.read("motor").expect("motor") == Value::Bool(true));
    }
    assert_eq!(motor, [false, true, true, true, false, false], "held by the seal-in, dropped by stop");
    // Deleting the seal-in: `stop` reads `start` alone; undone, it is back.
    w.delete_element(&p, &seal).expect("delete");
    assert_eq!(shape(&w)[1], s(&stop, "stop", &["contact1"]));
    w.undo();
    assert_eq!(w.ladder(&p).len(), 4);
    // A contact before the coil's source, and a coil after a contact.
    let before = w.add_contact(&p, &stop, Place::Before, "start").expect("before");
    assert_eq!(w.ladder(&p).iter().find(|e| e.id == stop).expect("stop").from, [Wire::Ref(before.clone())]);
    let lamp = w.add_coil(&p, &stop, "lamp").expect("a second coil");
    assert_eq!(w.ladder(&p).iter().find(|e| e.id == lamp).expect("lamp").kind, LdKind::Coil);
}

/// A timer put in a rung: its IN powered from the contact before it, the coil after it reading
/// its Q; with its preset set, the coil comes on that long after the contact closes.
#[test]
fn a_timer_in_a_rung_delays_its_coil() {
    let dir = tempfile::Builder::new().prefix("fbd-edit-ladder-ton-").tempdir().expect("temp dir");
    let file = dir.path().join("delay.json");
    let mut w = Workspace::new_program(&file);
    let p = BodyId::Program;
    w.add_input_port(&p, "go", Type::Bool).expect("go");
    w.add_rung(&p, "go", "lamp").expect("a rung");
    let ton = w.add_block_in_rung(&p, "contact1", "TON").expect("a timer in the rung");
    assert_eq!(w.ladder(&p)[1].from, [Wire::Ref(format!("{ton}.q"))], "the coil reads the timer's Q");
    assert!(w.add_block_in_rung(&p, "contact1", "NOSUCH").is_err());
    w.set_constant(&p, &ton, "pt", "T#20ms").expect("preset");
    w.save().expect("save");
    let mut rt = Runtime::new(fbd_engine::compile_file(&file, &Default::default()).expect("compiles"));
    rt.set_input("go", Value::Bool(true)).expect("go");
    let lamp: Vec<bool> = (0..7)
        .map(|_| {
            rt.step();
            rt.read("lamp").expect("lamp") == Value::Bool(true)
        })
        .collect();
    // 20 ms at 5 ms a scan: Q in the fifth scan of IN TRUE (the timer starts in the first).
    assert_eq!(lamp, [false, false, false, false, true, true, true]);
}

/// A network drawn at the file's positions (an imported OpenPLC program) keeps them through
/// edits: each new element gets a place beside what it is wired to, what stood there moves
/// right or down, and no two elements overlap.
#[test]
fn edits_keep_a_positioned_network_drawn_where_it_was() {
    let text = r#"{"fbd": 5, "inputs": [{"name": "a", "type": "BOOL"}, {"name": "b", "type": "BOOL"}],
      "variables": [{"name": "q", "type": "BOOL"}],
      "ladder": [
        {"id": "c1", "kind": "contact", "var": "a", "from": ["rail"], "pos": [100, 40]},
        {"id": "c2", "kind": "contact", "var": "b", "from": ["c1"], "pos": [160, 40]},
        {"id": "k1", "kind": "coil", "var": "q", "from": ["c2"], "pos": [400, 40]}
      ]}"#;
    let dir = tempfile::Builder::new().prefix("fbd-edit-ladder-pos-").tempdir().expect("temp dir");
    let file = dir.path().join("placed.json");
    std::fs::write(&file, text).expect("write");
    let project = fbd_engine::load::load(&fbd_engine::load::FsProvider, &file).expect("loads");
    let mut w = Workspace::from_project(&project);
    let p = BodyId::Program;
    let after = w.add_contact(&p, "c1", Place::After, "b").expect("after c1");
    let par = w.add_contact(&p, "c2", Place::Parallel, "a").expect("parallel with c2");
    let pos = |w: &Workspace, id: &str| w.ladder(&p).iter().find(|e| e.id == id).and_then(|e| e.pos).expect(id);
    assert_eq!(pos(&w, &after), [160.0, 40.0], "after c1, where c2 stood");
    assert_eq!(pos(&w, "c2"), [220.0, 40.0], "c2 moved right");
    assert_eq!(pos(&w, &par), [220.0, 80.0], "the parallel contact a row under c2");
    let rung = w.add_rung(&p, "a", "q").expect("a rung");
    assert_eq!(pos(&w, "k1"), [460.0, 40.0], "the coil moved right with its row");
    assert_eq!(pos(&w, &rung), [460.0, 140.0], "the new rung's coil under the network, with the coils");
    w.add_coil(&p, "k1", "q").expect("a second coil");
    let all: Vec<[f64; 2]> = w.ladder(&p).iter().map(|e| e.pos.expect("every element placed")).collect();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert!((a[0] - b[0]).abs() >= 40.0 || (a[1] - b[1]).abs() >= 20.0, "{a:?} and {b:?} overlap: {all:?}");
        }
    }
}
