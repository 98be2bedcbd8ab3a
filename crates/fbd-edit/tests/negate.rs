//! Negating an input in the editor (IEC 61131-3's circle at the pin): the one-block blinker a
//! LOGO! user draws, the refusals with their reasons, and undo.

use std::path::Path;

use fbd_edit::{BodyId, Workspace};
use fbd_engine::load::{FsProvider, load};
use fbd_engine::model::Wire;
use fbd_engine::{Runtime, Type, Value};

/// A TON whose negated input reads its own output of the previous scan: it blinks without a
/// NOT block, and the saved file says `"negated": ["in"]`.
#[test]
fn a_timer_with_a_negated_input_blinks_without_a_not_block() {
    let dir = tempfile::Builder::new().prefix("fbd-edit-negate-").tempdir().expect("temp dir");
    let mut w = Workspace::new_program(dir.path().join("blink.json"));
    let p = BodyId::Program;
    let t = w.add_block(&p, "TON", [100.0, 100.0]).expect("add TON");
    w.set_constant(&p, &t, "pt", "T#50ms").expect("pt");
    w.set_input(&p, &t, "in", Wire::Feedback { from: format!("{t}.q"), init: None }).expect("feedback");
    w.set_negated(&p, &t, "in", true).expect("negate");
    w.add_output_port(&p, "lamp", Type::Bool, Wire::Ref(format!("{t}.q"))).expect("output");
    w.save().expect("save");
    let text = std::fs::read_to_string(dir.path().join("blink.json")).expect("saved");
    assert!(text.contains("\"negated\": [\"in\"]"), "{text}");
    let plan = fbd_engine::compile_file(dir.path().join("blink.json"), &Default::default()).expect("compiles");
    let mut rt = Runtime::new(plan);
    let lamp: Vec<bool> = (0..60)
        .map(|_| {
            rt.step();
            rt.output("lamp") == Some(Value::Bool(true))
        })
        .collect();
    // 50 ms at 5 ms a scan: q after 10 scans of a TRUE input; the scan after, the feedback
    // brings q back negated (FALSE) and the timer resets; the next, it reads TRUE again and
    // starts: a one-scan pulse every 12 scans, as with a NOT block in the loop.
    let pulses: Vec<usize> = lamp.iter().enumerate().filter(|(_, on)| **on).map(|(k, _)| k).collect();
    assert_eq!(pulses, vec![10, 22, 34, 46, 58], "{lamp:?}");
    // Undone (the output port, then the negation), the input is plain again.
    w.undo();
    assert_eq!(w.undo_label(), Some(format!("negate {t}.in").as_str()));
    w.undo();
    let b = w.block(&p, &t).expect("block");
    assert!(b.negated.is_empty(), "undo removes the negation");
}

#[test]
fn negations_that_cannot_be_made_are_refused_with_the_reason() {
    let mut w = Workspace::from_project(
        &load(&FsProvider, &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/blinker.json")).expect("loads"),
    );
    let p = BodyId::Program;
    // A macro instance's ports: its BOOL ones (the Blinker's `en`), not its INT ones.
    let e = w.set_negated(&p, "fast", "on_time", true).expect_err("a TIME port");
    assert!(e.0.contains("`fast.on_time` takes TIME: only a BOOL input can be negated"), "{e:?}");
    let e = w.set_negated(&p, "fast", "cycles", true).expect_err("an INT output port");
    assert!(e.0.contains("`fast.cycles` carries LINT: only a BOOL output can be negated"), "{e:?}");
    w.set_negated(&p, "fast", "en", true).expect("a BOOL port of a macro instance");
    w.set_negated(&p, "fast", "en", false).expect("and back");
    let c = w.add_block(&p, "CTU", [0.0, 300.0]).expect("CTU");
    let e = w.set_negated(&p, &c, "pv", true).expect_err("an INT pin");
    assert!(e.0.contains(&format!("`{c}.pv` takes an integer type: only a BOOL input can be negated")), "{e:?}");
    let e = w.set_negated(&p, "slow_en", "in3", true).expect_err("the spare variadic pin");
    assert!(e.0.contains("connect `slow_en.in3` first"), "{e:?}");
    let e = w.set_negated(&p, "latch", "q9", true).expect_err("no such pin");
    assert!(e.0.contains("`latch` (RS) has no pin `q9`"), "{e:?}");
    let e = w.set_negated(&p, c.as_str(), "cv", true).expect_err("an INT output");
    assert!(e.0.contains(&format!("`{c}.cv` carries an integer type: only a BOOL output can be negated")), "{e:?}");
    let m = w.add_block(&p, "MEMORY", [0.0, 500.0]).expect("MEMORY");
    let e = w.set_negated(&p, &m, "prev", true).expect_err("a delayed output");
    assert!(e.0.contains("carries the previous scan's value: it cannot be negated"), "{e:?}");
    w.remove_blocks(&p, std::slice::from_ref(&m)).expect("remove the MEMORY");
    // An output: the latch's q1 negated, and what reads it gets the inverse.
    w.set_negated(&p, "latch", "q1", true).expect("negate an output");
    // A negated variadic pin loses its negation when disconnected (it no longer exists).
    w.set_negated(&p, "slow_en", "in2", true).expect("negate");
    w.disconnect(&p, "slow_en", "in2").expect("disconnect");
    assert!(w.block(&p, "slow_en").expect("block").negated.is_empty());
    // A negated generic pin takes only BOOL: SEL's in0 negated, then an INT refused there.
    let s = w.add_block(&p, "SEL", [0.0, 400.0]).expect("SEL");
    w.set_negated(&p, &s, "in0", true).expect("negate a generic pin");
    let e = w.connect(&p, "slow.cycles", &s, "in0").expect_err("an INT wire");
    assert!(e.0.contains("`slow.cycles` carries LINT, `sel1.in0` is negated: it takes BOOL"), "{e:?}");
    let e = w.set_constant(&p, &s, "in0", "4").expect_err("an INT constant");
    assert!(e.0.contains("`sel1.in0` is negated: it takes BOOL, not LINT"), "{e:?}");
    // The program still compiles with the negations that were made (the counter and the
    // selector wired so that they compile).
    w.set_negated(&p, "slow_en", "in1", true).expect("negate in1");
    w.set_constant(&p, &c, "pv", "3").expect("pv");
    w.connect(&p, "latch.q1", &c, "cu").expect("cu");
    w.connect(&p, "latch.q1", &s, "g").expect("g");
    w.connect(&p, "latch.q1", &s, "in0").expect("in0");
    w.set_constant(&p, &s, "in1", "TRUE").expect("in1");
    w.connect(&p, "not_done.out", "slow_en", "in2").expect("in2 again");
    assert!(w.compile().is_ok(), "{:?}", w.compile().err().map(|e| e.to_string()));
}

/// A macro port renamed or removed: the instances' negations follow (a renamed port kept its
/// old name in `negated`, and the program stopped compiling).
#[test]
fn negations_of_macro_pins_follow_a_renamed_or_removed_port() {
    let mut w = Workspace::from_project(
        &load(&FsProvider, &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/blinker.json")).expect("loads"),
    );
    let p = BodyId::Program;
    let blinker = BodyId::Macro("Blinker".into());
    w.set_negated(&p, "fast", "en", true).expect("negate an input port");
    w.set_negated(&p, "slow", "q", true).expect("negate an output port");
    w.rename_port(&blinker, "en", "enable").expect("rename");
    w.rename_port(&blinker, "q", "lamp").expect("rename");
    assert_eq!(w.block(&p, "fast").expect("fast").negated.as_slice(), ["enable"]);
    assert_eq!(w.block(&p, "slow").expect("slow").negated.as_slice(), ["lamp"]);
    assert!(w.compile().is_ok(), "{:?}", w.compile().err().map(|e| e.to_string()));
    w.remove_port(&blinker, "lamp").expect("remove");
    assert!(w.block(&p, "slow").expect("slow").negated.is_empty(), "the removed port's negation goes with it");
}
