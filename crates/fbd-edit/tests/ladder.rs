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
