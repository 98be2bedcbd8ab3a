//! Editing scenarios without a GUI: a blinker from scratch, a changed Cell definition, refused
//! connections, save that keeps the file structure, and random edits that undo exactly.

use std::path::{Path, PathBuf};

use fbd_edit::{BodyId, Workspace};
use fbd_engine::load::{FsProvider, load};
use fbd_engine::model::Wire;
use fbd_engine::{Runtime, Type, Value};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// An empty scratch directory, removed with everything in it when the guard drops.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("fbd-edit-{name}-")).tempdir().expect("temp dir")
}

fn open(rel: &str) -> Workspace {
    Workspace::from_project(&load(&FsProvider, &root().join(rel)).expect("loads"))
}

#[test]
fn a_blinker_built_from_scratch_blinks_with_its_period_after_saving() {
    let scratch = temp_dir("blinker");
    let dir = scratch.path();
    let mut w = Workspace::new_program(dir.join("blink.json"));
    let p = BodyId::Program;
    let t = w.add_block(&p, "TON", [100.0, 100.0]).expect("add TON");
    let n = w.add_block(&p, "NOT", [300.0, 100.0]).expect("add NOT");
    assert_eq!((t.as_str(), n.as_str()), ("ton1", "not1"));
    // The preset as a CODESYS user types it: an IEC TIME, 100 ms (it was "not a constant").
    w.set_constant(&p, &t, "pt", "T#100ms").expect("pt");
    // The timer's input is the inverted output of the previous scan: a feedback wire.
    w.set_input(&p, &t, "in", Wire::Feedback { from: format!("{n}.out"), init: None }).expect("feedback");
    w.connect(&p, &format!("{t}.q"), &n, "in").expect("connect q → NOT");
    w.add_output_port(&p, "lamp", Type::Bool, Wire::Ref(format!("{n}.out"))).expect("output");
    let written = w.save().expect("save");
    assert_eq!(written, vec![fbd_engine::load::normalize(&dir.join("blink.json"))]);
    // What was saved compiles on its own and blinks. A period is the timer's 100 ms (20
    // scans) plus one scan for q to switch the NOT and one for the feedback wire to carry it
    // back: 22 scans, 21 on and 1 off.
    let plan = fbd_engine::compile_file(dir.join("blink.json"), &Default::default()).expect("compiles");
    let mut rt = Runtime::new(plan);
    let mut edges = Vec::new();
    let mut last = Value::Bool(false);
    for scan in 0..200u64 {
        rt.step();
        let v = rt.output("lamp").expect("lamp");
        if v != last {
            edges.push((scan, v));
        }
        last = v;
    }
    let falls: Vec<u64> = edges.iter().filter(|(_, v)| *v == Value::Bool(false)).map(|(s, _)| *s).collect();
    assert!(falls.len() >= 4, "the lamp blinks: {edges:?}");
    for pair in falls.windows(2) {
        assert_eq!(pair[1] - pair[0], 22, "{edges:?}");
    }
}

#[test]
fn changing_the_cell_definition_changes_all_sixteen_cells_and_undo_restores_it() {
    let mut w = open("diagrams/2048.json");
    let cell = BodyId::Macro("Cell".into());
    w.set_constant(&cell, "two_four", "in0", "4").expect("Choice 1 gives a four");
    assert_eq!(w.dirty().len(), 1, "only the library that defines Cell changed: {:?}", w.dirty());
    assert!(w.dirty()[0].ends_with("lib/2048-macros.json"));
    let mut rt = Runtime::with_seed(w.compile().expect("compiles"), 7);
    rt.pulse_input("command", Value::Int(5)).expect("start");
    rt.step_n(50);
    let tiles: Vec<i64> = (1..=4)
        .flat_map(|r| (1..=4).map(move |c| format!("v{r}{c}")))
        .map(|o| match rt.output(&o) {
            Some(Value::Int(v)) => v,
            other => panic!("{o}: {other:?}"),
        })
        .filter(|v| *v != 0)
        .collect();
    assert_eq!(tiles, vec![4, 4], "a new game starts with two 4s");
    assert!(w.undo());
    assert!(w.dirty().is_empty(), "undo gives back the file as loaded");
    assert_eq!(w.block(&cell, "two_four").unwrap().inputs.0[1].1, Wire::constant(Value::Int(2)));
    assert!(w.redo());
    assert_eq!(w.block(&cell, "two_four").unwrap().inputs.0[1].1, Wire::constant(Value::Int(4)));
}

#[test]
fn connections_that_cannot_be_made_are_refused_with_the_reason() {
    let mut w = open("diagrams/2048.json");
    let plan = w.compile().expect("compiles");
    w.learn_types(&plan);
    let cell = BodyId::Macro("Cell".into());
    // An INT output onto a BOOL input (MEMORY is generic: its type comes from the compile).
    let e = w.connect(&cell, "mem.q", "set_empty", "in1").unwrap_err();
    assert!(e.0.contains("already has a driver"), "{e}");
    w.disconnect(&cell, "set_empty", "in1").expect("disconnect");
    let e = w.connect(&cell, "mem.q", "set_empty", "in1").unwrap_err();
    assert_eq!(e.0, "`mem.q` carries DINT, `set_empty.in1` takes BOOL");
    let e = w.set_constant(&cell, "set_empty", "in1", "3").unwrap_err();
    assert_eq!(e.0, "`set_empty.in1` takes BOOL, not LINT");
    // What is not a constant is said to be none (an empty field and `abc` were "out of the
    // INT range"); a number too large still is.
    for (typed, says) in [
        ("", "type a constant: TRUE, FALSE, an integer (4), a real (2.5) or an IEC literal (16#FF, T#500ms)"),
        ("  ", "type a constant: TRUE, FALSE, an integer (4), a real (2.5) or an IEC literal (16#FF, T#500ms)"),
        (
            "abc",
            "`abc` is not a constant: TRUE, FALSE, an integer (4), a real (2.5) or an IEC literal (16#FF, T#500ms)",
        ),
        (
            "1.2.3",
            "`1.2.3` is not a constant: TRUE, FALSE, an integer (4), a real (2.5) or an IEC literal (16#FF, T#500ms)",
        ),
        (
            "1-2",
            "`1-2` is not a constant: TRUE, FALSE, an integer (4), a real (2.5) or an IEC literal (16#FF, T#500ms)",
        ),
    ] {
        assert_eq!(w.set_constant(&cell, "set_empty", "in1", typed).unwrap_err().0, says, "{typed:?}");
    }
    let e = w.set_constant(&cell, "set_empty", "in1", "99999999999999999999").unwrap_err();
    assert!(e.0.contains("out of the LINT and ULINT ranges"), "{e}");
    let e = w.connect(&cell, "nothing.q", "set_empty", "in1").unwrap_err();
    assert_eq!(e.0, "no block `nothing` in macro `Cell`");
    let e = w.add_block(&cell, "Processing", [0.0, 0.0]);
    assert!(e.is_ok(), "Processing does not use Cell: {e:?}");
    let e = w.add_block(&BodyId::Macro("Processing".into()), "Processing", [0.0, 0.0]).unwrap_err();
    assert!(e.0.contains("would contain itself"), "{e}");
    // A refused edit changes nothing and is not an undo step.
    assert_eq!(w.undo_label(), Some("add Processing `processing1`"));
}

#[test]
fn renames_follow_into_wires_ports_and_instances() {
    let mut w = open("diagrams/2048.json");
    let cell = BodyId::Macro("Cell".into());
    w.rename_block(&cell, "mem", "memory").expect("rename");
    assert!(w.macro_def("Cell").unwrap().outputs.iter().any(|p| p.from == Wire::Ref("memory.q".into())));
    w.rename_port(&cell, "Value", "Tile").expect("rename port");
    w.rename_port(&cell, "Four", "IsFour").expect("rename input port");
    let plan = w.compile().expect("still compiles after the renames");
    let mut rt = Runtime::new(plan);
    rt.step();
    assert!(rt.read("cell_1_1/memory.q").is_ok());
    let e = w.rename_block(&cell, "empty", "memory").unwrap_err();
    assert_eq!(e.0, "there is already a block `memory` in macro `Cell`");
    // Renamed to its own name (Rename pressed on an unchanged field): nothing happens, no undo
    // step (it said there was already a block, or a port, of that name: itself).
    let label = w.undo_label().map(str::to_string);
    w.rename_block(&cell, "memory", "memory").expect("its own name");
    w.rename_port(&cell, "Tile", "Tile").expect("its own name");
    assert_eq!(w.undo_label().map(str::to_string), label, "no undo step");
    assert!(w.rename_block(&cell, "nosuch", "nosuch").is_err());
    assert!(w.rename_port(&cell, "nosuch", "nosuch").is_err());
}

#[test]
fn save_as_writes_a_complete_copy_and_save_writes_only_changed_files() {
    let scratch = temp_dir("save-as");
    let dir = scratch.path();
    let mut w = open("diagrams/2048.json");
    let written = w.save_as(dir.join("mine.json")).expect("save as");
    assert_eq!(written.len(), 2, "the program and its library: {written:?}");
    assert!(dir.join("lib/2048-macros.json").exists());
    fbd_engine::compile_file(dir.join("mine.json"), &Default::default()).expect("the copy compiles on its own");
    assert!(w.save().expect("save").is_empty(), "nothing changed since");
    w.move_blocks(&BodyId::Program, &[("proc_1".into(), [0.0, 0.0])]).expect("move");
    assert_eq!(w.save().expect("save"), vec![fbd_engine::load::normalize(&dir.join("mine.json"))]);
}

/// Save as into a folder whose `lib/` holds another file of the library's name writes nothing
/// and says why (the program was written, the other file kept, and the copy did not load, while
/// the window said "wrote"); the same library there already is fine.
#[test]
fn save_as_refuses_a_folder_whose_library_file_differs() {
    let scratch = temp_dir("save-as-lib");
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join("lib")).expect("lib");
    std::fs::write(dir.join("lib/2048-macros.json"), "{\"fbd\": 3, \"macros\": []}\n").expect("theirs");
    let mut w = open("diagrams/2048.json");
    let e = w.save_as(dir.join("mine.json")).expect_err("refused");
    assert!(e.to_string().contains("2048-macros.json exists with other content"), "{e}");
    assert!(!dir.join("mine.json").exists(), "nothing written");
    assert_eq!(
        std::fs::read_to_string(dir.join("lib/2048-macros.json")).expect("kept"),
        "{\"fbd\": 3, \"macros\": []}\n"
    );
    // The library itself there already: the copy uses it.
    std::fs::copy(root().join("diagrams/lib/2048-macros.json"), dir.join("lib/2048-macros.json")).expect("copy");
    let written = w.save_as(dir.join("mine.json")).expect("save as");
    assert_eq!(written.len(), 1, "only the program: {written:?}");
    fbd_engine::compile_file(dir.join("mine.json"), &Default::default()).expect("the copy compiles");
}

/// Random edits, then undoing every one of them, give back the files byte for byte; redoing
/// them all gives back the edited files.
#[test]
fn random_edits_undo_to_the_original() {
    for seed in 0..40u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rel = if seed % 2 == 0 { "diagrams/2048.json" } else { "examples/blinker.json" };
        let mut w = open(rel);
        let original: Vec<String> = w.texts().map(|(_, t)| t.to_string()).collect();
        let mut bodies = vec![BodyId::Program];
        bodies.extend(w.macros().into_iter().map(|(m, _)| BodyId::Macro(m)));
        let mut steps = 0;
        for _ in 0..30 {
            let body = bodies[rng.random_range(0..bodies.len())].clone();
            let ids: Vec<String> = w.blocks(&body).unwrap().iter().map(|b| b.id.clone()).collect();
            if ids.is_empty() {
                continue;
            }
            let id = ids[rng.random_range(0..ids.len())].clone();
            let other = ids[rng.random_range(0..ids.len())].clone();
            let r = match rng.random_range(0..9) {
                0 => w
                    .add_block(&body, ["AND", "ADD", "TON", "SEL", "MEMORY"][rng.random_range(0..5)], [1.0, 2.0])
                    .map(|_| ()),
                1 => w.remove_blocks(&body, &[id]),
                2 => w.move_blocks(&body, &[(id, [rng.random_range(0..900) as f64, 20.0])]),
                3 => w.rename_block(&body, &id, &format!("{id}_r{steps}")),
                4 => {
                    let pin = w.block(&body, &id).and_then(|b| b.inputs.0.first().map(|(p, _)| p.clone()));
                    match pin {
                        Some(p) => w.disconnect(&body, &id, &p),
                        None => Ok(()),
                    }
                }
                5 => {
                    let outs = w.pins(&body, w.block(&body, &other).unwrap()).map(|p| p.outputs).unwrap_or_default();
                    let ins = w.pins(&body, w.block(&body, &id).unwrap()).map(|p| p.inputs).unwrap_or_default();
                    match (outs.first(), ins.last()) {
                        (Some((o, _)), Some((i, _))) => w.connect(&body, &format!("{other}.{o}"), &id, i),
                        _ => Ok(()),
                    }
                }
                6 => w.set_constant(&body, &id, "in1", ["1", "TRUE", "2.5"][rng.random_range(0..3)]),
                7 => {
                    let pick = if id == other { vec![id] } else { vec![id, other] };
                    w.extract_macro(&body, &pick, &format!("M{steps}")).map(|_| ())
                }
                _ => w.add_input_port(&body, &format!("p{steps}"), Type::Bool),
            };
            if r.is_ok() {
                steps += 1;
            }
        }
        assert!(steps > 5, "seed {seed}: only {steps} edits were possible");
        let edited: Vec<String> = w.texts().map(|(_, t)| t.to_string()).collect();
        while w.undo() {}
        let back: Vec<String> = w.texts().map(|(_, t)| t.to_string()).collect();
        assert!(back == original, "seed {seed}: undoing every edit did not give back the files");
        assert!(w.dirty().is_empty(), "seed {seed}");
        while w.redo() {}
        let again: Vec<String> = w.texts().map(|(_, t)| t.to_string()).collect();
        assert!(again == edited, "seed {seed}: redoing every edit did not give back the edited files");
    }
}

/// The four Choice blocks of the Cell become a macro of their own; the saved program still
/// plays 2048 exactly as the reference rules say.
#[test]
fn extracting_the_choice_blocks_of_a_cell_keeps_the_game_exact() {
    use fbd2048_game::{Command, FbdGame, check_command};
    use ref2048::Dir;
    let scratch = temp_dir("extract");
    let dir = scratch.path();
    let mut w = open("diagrams/2048.json");
    let plan = w.compile().expect("compiles");
    w.learn_types(&plan);
    let cell = BodyId::Macro("Cell".into());
    let choices: Vec<String> = ["two_four", "choice2", "choice3", "choice4"].map(String::from).to_vec();
    let before = w.blocks(&cell).unwrap().len();
    let inst = w.extract_macro(&cell, &choices, "Choice").expect("extract");
    assert_eq!(inst, "choice1");
    let def = w.macro_def("Choice").expect("the new macro");
    let ins: Vec<&str> = def.inputs.iter().map(|p| p.name.as_str()).collect();
    let outs: Vec<&str> = def.outputs.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(ins, ["Four", "set_empty_out", "Input", "start_set_out", "Clear"]);
    assert!(outs.contains(&"choice4_out"), "{outs:?}");
    assert_eq!(w.blocks(&cell).unwrap().len(), before - 4 + 1);
    w.save_as(dir.join("2048.json")).expect("save");
    let plan =
        fbd_engine::compile_file(dir.join("2048.json"), &Default::default()).expect("the saved program compiles");
    let mut g = FbdGame::new(plan, 11).expect("a 2048 program");
    g.command(Command::Start).expect("start");
    let dirs = [Dir::Left, Dir::Up, Dir::Right, Dir::Down];
    for k in 0..300 {
        let before = g.board().expect("board");
        let score = g.score();
        let d = dirs[(k * 7 + k / 5) % 4];
        g.command(Command::Move(d)).expect("move");
        let after = g.board().expect("board");
        check_command(before, d, after, g.score() - score, g.game_over()).unwrap_or_else(|m| panic!("move {k}: {m:?}"));
        if g.game_over() {
            break;
        }
    }
    assert!(w.undo(), "the extraction is one undo step");
    assert!(w.macro_def("Choice").is_none());
}

/// A program without a file of its own (embedded, imported, new) is not saved under its name:
/// Save refuses with the reason, writing nothing, until Save as gives it a place.
#[test]
fn save_refuses_a_program_without_a_file_until_save_as() {
    let scratch = temp_dir("no-file");
    let dir = scratch.path();
    let mut w = Workspace::new_program(dir.join("untitled.json"));
    w.set_no_file("the new program has no file yet");
    w.add_block(&BodyId::Program, "NOT", [100.0, 100.0]).expect("add");
    let e = w.save().expect_err("refused");
    assert_eq!(e.to_string(), "the new program has no file yet; choose where it goes with Save as");
    assert!(!dir.join("untitled.json").exists(), "nothing written");
    w.save_as(dir.join("mine.json")).expect("save as");
    w.add_block(&BodyId::Program, "NOT", [300.0, 100.0]).expect("add");
    assert_eq!(w.save().expect("save"), vec![fbd_engine::load::normalize(&dir.join("mine.json"))]);
}

/// Copy and paste: a timer and the NOT closing its loop (a feedback wire), plus an input from a
/// block not copied. Pasted beside the originals, the copies are wired to each other, the
/// outside wire stays, the program compiles and both loops blink alike; pasted into a macro
/// where that outside source does not exist, the wire is dropped; one undo removes a paste;
/// text that is not copied blocks is refused.
#[test]
fn copied_blocks_paste_with_their_wires_and_new_ids() {
    let mut w = Workspace::new_program("copy.json");
    let p = BodyId::Program;
    let en = w.add_block(&p, "NOT", [0.0, 100.0]).expect("a NOT");
    w.set_constant(&p, &en, "in", "FALSE").expect("in");
    let t = w.add_block(&p, "TON", [100.0, 100.0]).expect("TON");
    let a = w.add_block(&p, "AND", [60.0, 100.0]).expect("AND");
    let n = w.add_block(&p, "NOT", [300.0, 100.0]).expect("NOT");
    let e = w.set_constant(&p, &t, "pt", "100").expect_err("a LINT preset");
    assert_eq!(e.0, format!("`{t}.pt` takes TIME, not LINT (a duration is written T#100ms)"));
    w.set_constant(&p, &t, "pt", "T#100ms").expect("pt");
    w.connect(&p, &format!("{en}.out"), &a, "in1").expect("en -> and");
    w.set_input(&p, &a, "in2", Wire::Feedback { from: format!("{n}.out"), init: None }).expect("feedback");
    w.connect(&p, &format!("{a}.out"), &t, "in").expect("and -> ton");
    w.connect(&p, &format!("{t}.q"), &n, "in").expect("q -> not");
    w.add_output_port(&p, "lamp", Type::Bool, Wire::Ref(format!("{n}.out"))).expect("lamp");
    let text = w.copy_blocks(&p, &[t.clone(), a.clone(), n.clone()]).expect("copy");
    let pasted = w.paste_blocks(&p, &text, [0.0, 200.0]).expect("paste");
    assert_eq!(pasted, vec!["ton2", "and2", "not3"], "fresh ids of the same stems");
    let input = |w: &Workspace, body: &BodyId, b: &str, pin: &str| {
        w.block(body, b).expect("block").inputs.0.iter().find(|(q, _)| q == pin).map(|(_, x)| x.clone())
    };
    assert_eq!(input(&w, &p, "ton2", "in"), Some(Wire::Ref("and2.out".into())), "wired to the copy");
    assert_eq!(input(&w, &p, "not3", "in"), Some(Wire::Ref("ton2.q".into())));
    assert_eq!(input(&w, &p, "and2", "in2"), Some(Wire::Feedback { from: "not3.out".into(), init: None }));
    assert_eq!(input(&w, &p, "and2", "in1"), Some(Wire::Ref(format!("{en}.out"))), "the outside wire stays");
    assert_eq!(input(&w, &p, "ton2", "pt"), Some(Wire::constant(Value::Time(100_000_000))), "constants come along");
    assert_eq!(w.block(&p, "ton2").expect("ton2").pos, Some([100.0, 300.0]), "moved by the offset");
    w.add_output_port(&p, "lamp2", Type::Bool, Wire::Ref("not3.out".into())).expect("lamp2");
    let plan = w.compile().expect("the program with the copy compiles");
    let mut rt = Runtime::new(plan);
    for _ in 0..100 {
        rt.step();
        assert_eq!(rt.output("lamp"), rt.output("lamp2"), "the copy blinks as the original");
    }
    assert!(w.undo() && w.undo(), "undo the port, then the paste");
    assert!(w.block(&p, "ton2").is_none() && w.block(&p, &t).is_some(), "one undo removes the paste");
    // Into a macro, where the outside source does not exist.
    let mut w = open("examples/blinker.json");
    let text = w.copy_blocks(&p, &["done".into(), "not_done".into()]).expect("copy");
    let m = BodyId::Macro("Blinker".into());
    let pasted = w.paste_blocks(&m, &text, [0.0, 0.0]).expect("paste into the macro");
    assert_eq!(pasted, vec!["done", "not_done"], "the ids are free there");
    assert_eq!(input(&w, &m, "not_done", "in"), Some(Wire::Ref("done.out".into())), "wired to the copy");
    assert_eq!(input(&w, &m, "done", "in1"), None, "the wire from `slow`, which is not in the macro, is dropped");
    assert_eq!(input(&w, &m, "done", "in2"), Some(Wire::constant(Value::Int(3))));
    for bad in [
        "hello",
        "{\"fbd_blocks\": 1, \"blocks\": [{\"id\": \"x\", \"type\": \"NOPE\"}]}",
        "{\"fbd_blocks\": 2, \"blocks\": []}",
    ] {
        let e = w.paste_blocks(&p, bad, [0.0, 0.0]).expect_err("refused");
        assert!(!e.0.is_empty(), "{bad}: {e:?}");
    }
    assert!(w.paste_blocks(&p, "hello", [0.0, 0.0]).unwrap_err().0.contains("no copied blocks"));
}

/// A program drawn in the editor gets its HMI inputs as the file format has them: a push button,
/// a selector with its position labels, defaults and descriptions (the editor could only add,
/// rename and retype ports, so a `start` input was a switch until the JSON was edited by hand),
/// and a macro input a default (so an instance may leave it open). What does not fit is refused
/// with the reason; a retype drops what no longer fits; undo restores.
#[test]
fn port_details_set_how_the_panel_shows_an_input_and_what_it_is_for() {
    use fbd_edit::PortDetails;
    use fbd_engine::model::InputKind;
    let scratch = temp_dir("ports");
    let mut w = Workspace::new_program(scratch.path().join("p.json"));
    let p = BodyId::Program;
    w.add_input_port(&p, "start", Type::Bool).expect("start");
    w.add_input_port(&p, "mode", Type::LInt).expect("mode");
    w.add_output_port(&p, "speed", Type::LInt, Wire::Ref("mode".into())).expect("speed");
    let button =
        PortDetails { kind: InputKind::Button, description: Some(" starts the fan ".into()), ..Default::default() };
    w.set_port_details(&p, "start", button).expect("a BOOL button");
    let selector = PortDetails {
        kind: InputKind::Selector,
        default: Some(Value::Int(1)),
        options: vec!["off".into(), " slow".into(), "".into(), "fast".into()],
        description: None,
        address: None,
    };
    w.set_port_details(&p, "mode", selector).expect("an INT selector");
    w.set_port_details(&p, "speed", PortDetails { description: Some("rpm / 100".into()), ..Default::default() })
        .expect("an output's description");
    let plan = w.compile().expect("compiles");
    let start = plan.inputs.iter().find(|i| i.name == "start").expect("start");
    assert_eq!((start.kind, start.description.as_deref()), (InputKind::Button, Some("starts the fan")));
    let mode = plan.inputs.iter().find(|i| i.name == "mode").expect("mode");
    assert_eq!(
        (mode.kind, mode.default, mode.options.clone()),
        (InputKind::Selector, Value::Int(1), vec!["off".to_string(), "slow".into(), "fast".into()])
    );
    assert_eq!(plan.outputs[0].description.as_deref(), Some("rpm / 100"));
    assert_eq!(w.port_details(&p, "mode").map(|d| d.kind), Some(InputKind::Selector));
    // Refused, with the reason, and nothing changed.
    let before: Vec<(&str, PortDetails)> =
        ["start", "mode", "speed"].iter().map(|n| (*n, w.port_details(&p, n).expect("a port"))).collect();
    let refused = [
        (
            "mode",
            PortDetails { kind: InputKind::Button, ..Default::default() },
            "`mode` is LINT, but a button input is BOOL",
        ),
        (
            "start",
            PortDetails { options: vec!["a".into()], ..Default::default() },
            "options label a selector's positions",
        ),
        (
            "start",
            PortDetails { default: Some(Value::Real(2.5)), ..Default::default() },
            "the default 2.5 is not a BOOL",
        ),
        ("speed", PortDetails { default: Some(Value::Int(3)), ..Default::default() }, "an output has no default"),
        ("speed", PortDetails { kind: InputKind::Switch, ..Default::default() }, "only a program input has a kind"),
        ("nope", PortDetails::default(), "has no port `nope`"),
    ];
    for (port, d, says) in refused {
        let e = w.set_port_details(&p, port, d).expect_err(says);
        assert!(e.0.contains(says), "{port}: {e:?}");
    }
    for port in ["start", "mode", "speed"] {
        assert_eq!(w.port_details(&p, port), before.iter().find(|(n, _)| *n == port).map(|(_, d)| d.clone()), "{port}");
    }
    // Retyped to BOOL, the selector becomes a number field with no options; its default 1 is
    // IEC's BOOL literal TRUE.
    w.retype_port(&p, "mode", Type::Bool).expect("retype");
    let d = w.port_details(&p, "mode").expect("mode");
    assert_eq!((d.kind, d.options.len(), d.default), (InputKind::Number, 0, Some(Value::Bool(true))));
    w.undo();
    assert_eq!(w.port_details(&p, "mode").map(|d| d.kind), Some(InputKind::Selector), "undo restores");
    // What the program is for; blank removes it; undo restores.
    w.set_description(&p, "  A fan.  ").expect("description");
    assert_eq!(w.description(&p), Some("A fan."));
    w.set_description(&p, " ").expect("blank");
    assert_eq!(w.description(&p), None);
    w.undo();
    assert_eq!(w.description(&p), Some("A fan."));
    // A macro input's default lets an instance leave it open.
    let mut cell = open("diagrams/2048.json");
    let m = BodyId::Macro("Cell".into());
    let port = cell.macro_def("Cell").expect("Cell").inputs[0].name.clone();
    cell.set_port_details(&m, &port, PortDetails { default: Some(Value::Bool(false)), ..Default::default() })
        .expect("a macro input's default");
    assert_eq!(cell.port_details(&m, &port).and_then(|d| d.default), Some(Value::Bool(false)));
}

/// A diagram written by hand in a layout of its own is not "unsaved" when opened: only an edit
/// makes it so (the editor said "1 unsaved file(s)" at once and closing asked to save it), and
/// undoing the edit makes it clean again.
#[test]
fn a_hand_written_file_is_clean_until_edited() {
    let scratch = temp_dir("hand");
    let path = scratch.path().join("hand.json");
    let text =
        "{\"fbd\":1,\"name\":\"hand\",\n\n  \"blocks\":[{\"id\":\"n\",\"type\":\"NOT\",\"inputs\":{\"in\":true}}]}\n";
    std::fs::write(&path, text).expect("write");
    let mut w = Workspace::from_project(&load(&FsProvider, &path).expect("loads"));
    assert!(w.dirty().is_empty(), "{:?}", w.dirty());
    w.rename_block(&BodyId::Program, "n", "inv").expect("rename");
    assert_eq!(w.dirty().len(), 1);
    w.undo();
    assert!(w.dirty().is_empty());
    assert_eq!(std::fs::read_to_string(&path).expect("read"), text, "nothing was written");
}

/// A program port's IEC address, typed in the port's details: where `fbd serve` puts it.
#[test]
fn a_program_port_takes_a_located_address_and_a_wrong_one_is_refused() {
    use fbd_edit::PortDetails;
    let scratch = temp_dir("address");
    let mut w = Workspace::new_program(scratch.path().join("p.json"));
    let p = BodyId::Program;
    w.add_input_port(&p, "start", Type::Bool).expect("start");
    w.add_output_port(&p, "lamp", Type::Bool, Wire::Ref("start".into())).expect("lamp");
    let at = |a: &str| PortDetails { address: Some(a.into()), ..Default::default() };
    w.set_port_details(&p, "start", at(" %ix0.0 ")).expect("an input at %IX0.0");
    w.set_port_details(&p, "lamp", at("%QX0.0")).expect("an output at %QX0.0");
    let plan = w.compile().expect("compiles");
    assert_eq!(plan.inputs[0].address.as_deref(), Some("%IX0.0"));
    assert_eq!(plan.outputs[0].address.as_deref(), Some("%QX0.0"));
    let e = w.set_port_details(&p, "lamp", at("%IX0.1")).expect_err("an output is no %I");
    assert!(e.0.contains("an output is located at %Q or %M"), "{e:?}");
    let e = w.set_port_details(&p, "start", at("%XB0")).expect_err("no such address");
    assert!(e.0.contains("no located address"), "{e:?}");
    let e = w.set_port_details(&p, "start", at("%I*")).expect_err("a port's address is whole");
    assert!(e.0.contains("needs a full address"), "{e:?}");
    assert_eq!(w.port_details(&p, "start").and_then(|d| d.address).as_deref(), Some("%IX0.0"));
}

/// A program's tasks name their blocks: a renamed block stays in its task (and an event task's
/// wire follows it), a deleted one leaves it; the program compiles after each.
#[test]
fn tasks_follow_a_renamed_block_and_lose_a_deleted_one() {
    let text = r#"{"fbd": 4, "cycle_ms": 10,
      "blocks": [{"id": "a", "type": "NOT", "inputs": {"in": false}}, {"id": "b", "type": "NOT", "inputs": {"in": true}},
                 {"id": "c", "type": "NOT", "inputs": {"in": false}}],
      "outputs": [{"name": "y", "type": "BOOL", "from": "c.out"}],
      "tasks": [{"name": "slow", "interval_ms": 30, "programs": ["a", "b"]}, {"name": "ev", "single": "a.out", "programs": ["c"]}]}"#;
    let project = fbd_engine::load::load_text(&fbd_engine::MemProvider::new(), Path::new("t.json"), text.to_string())
        .expect("loads");
    let mut w = Workspace::from_project(&project);
    let p = BodyId::Program;
    w.rename_block(&p, "a", "first").expect("rename");
    assert_eq!(w.root().tasks[0].programs, ["first", "b"]);
    assert_eq!(w.root().tasks[1].single, Some(Wire::Ref("first.out".into())));
    w.compile().expect("compiles after the rename");
    w.remove_blocks(&p, &["b".to_string()]).expect("delete");
    assert_eq!(w.root().tasks[0].programs, ["first"]);
    w.compile().expect("compiles after the delete");
}
