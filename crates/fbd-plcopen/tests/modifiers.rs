//! The modifiers PLCopen puts on variables and pins (`negated`, `edge`, `storage`), the
//! control-flow elements of an FBD body and in-out parameters: which the import honours
//! (negated pins stay negated pins) and which it refuses where they are written, since
//! imported without them the program computed another value than the PLC
//! (`src/import/modifiers.rs`).

use std::path::Path;

use fbd_engine::{Runtime, Value};

#[allow(dead_code)] // `exported` is for the export tests
mod common;
use common::{compile_doc, data};

/// The line of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).expect("in the file")].matches('\n').count() + 1
}

/// Refused where written: imported without them, a negated `run` read counted 5 where the PLC
/// counts 0. Written out as inactive (Beremiz writes every attribute), they are no modifiers.
#[test]
fn modifiers_the_import_does_not_honour_are_refused_where_they_are_written() {
    let p = Path::new("bad.xml");
    let (_, blink) = data("blink.xml");
    // (what is written, what it becomes, what is said) on blink.xml.
    let cases = [
        (
            "<inVariable localId=\"9\">",
            "<inVariable localId=\"9\" negated=\"true\">",
            "`run`: a negation on a variable read (negated=\"true\") is not supported",
        ),
        (
            "<inVariable localId=\"9\">",
            "<inVariable localId=\"9\" edge=\"falling\">",
            "`run`: an edge on a variable read (edge=\"falling\") is not supported",
        ),
        (
            "<outVariable localId=\"10\">",
            "<outVariable localId=\"10\" edge=\"rising\">",
            "`count`: an edge on a variable write (edge=\"rising\") is not supported",
        ),
        (
            "<variable formalParameter=\"PV\">",
            "<variable formalParameter=\"PV\" storage=\"set\">",
            "block `CTU`: storage on input `PV` (storage=\"set\") is not supported",
        ),
        (
            "<variable formalParameter=\"ET\">",
            "<variable formalParameter=\"ET\" edge=\"rising\">",
            "block `TON`: an edge on output `ET` (edge=\"rising\") is not supported",
        ),
        // A jump skips networks when its input is TRUE; here every block runs every scan.
        (
            "<outVariable localId=\"10\">",
            "<jump localId=\"20\" label=\"done\"><position x=\"1\" y=\"1\"/><connectionPointIn><connection refLocalId=\"9\"/></connectionPointIn></jump>\n<outVariable localId=\"10\">",
            "a jump `done` is not supported",
        ),
    ];
    for (from, to, want) in cases {
        let xml = blink.replace(from, to);
        assert_ne!(xml, blink, "{want}: the case changes the file");
        let line = line_of(&blink, from);
        let e = fbd_plcopen::import(p, &xml).unwrap_err();
        assert!(e.0.iter().any(|d| d.message.contains(want) && d.line == Some(line)), "want `{want}` at {line}: {e}");
    }
    let quiet = blink.replace(
        "<inVariable localId=\"9\">",
        "<inVariable localId=\"9\" negated=\"false\" edge=\"none\" storage=\"none\">",
    );
    assert!(fbd_plcopen::import(p, &quiet).is_ok());
}

/// In-out parameters (VAR_IN_OUT) are written back by the call; dropped, the variable kept its
/// value. Refused where declared and where connected, both at once.
#[test]
fn in_out_parameters_are_refused_where_declared_and_where_connected() {
    let (_, lights) = data("lights.xml");
    let in_out = lights
        .replacen(
            "<outputVars><variable name=\"count\">",
            "<inOutVars><variable name=\"acc\"><type><LINT/></type></variable></inOutVars>\n          <outputVars><variable name=\"count\">",
            1,
        )
        .replacen(
            "<inOutVariables/>",
            "<inOutVariables><variable formalParameter=\"acc\"><connectionPointIn><connection refLocalId=\"1\"/></connectionPointIn></variable></inOutVariables>",
            1,
        );
    let e = fbd_plcopen::import(Path::new("bad.xml"), &in_out).unwrap_err();
    assert!(e.0.iter().any(|d| d.message.contains("`acc` of `lights` is an in-out variable (VAR_IN_OUT)")), "{e}");
    assert!(
        e.0.iter().any(|d| d.message.contains("block `TOF`: in-out parameter `acc` (VAR_IN_OUT) is not supported")),
        "{e}"
    );
}

/// A negated output of a POU instance was read as if not negated (a wrong value, silently): now
/// a negated pin of the macro instance, and `red` is the inverse of what it was; a library
/// block's is a negated pin too (F_TRIG's Q here).
#[test]
fn negated_outputs_of_pou_instances_and_blocks_are_negated_pins() {
    let p = Path::new("neg.xml");
    let (_, lights) = data("lights.xml");
    let neg = lights.replacen(
        "<outputVariables><variable formalParameter=\"q\"><connectionPointOut/>",
        "<outputVariables><variable formalParameter=\"q\" negated=\"true\"><connectionPointOut/>",
        1,
    );
    assert_ne!(neg, lights);
    let negated = fbd_plcopen::import(p, &neg).unwrap_or_else(|e| panic!("{e}"));
    let p1 = negated.doc.blocks.iter().find(|b| b.id == "p1").expect("p1");
    assert_eq!((p1.ty.as_str(), p1.negated.as_slice()), ("Pulse", &["q".to_string()][..]));
    let plain = fbd_plcopen::import(p, &lights).unwrap_or_else(|e| panic!("{e}"));
    let (mut a, mut b) = (Runtime::new(compile_doc(&plain.doc)), Runtime::new(compile_doc(&negated.doc)));
    for scan in 0..30 {
        for rt in [&mut a, &mut b] {
            rt.set_input("b1", Value::Bool(scan % 9 < 2)).expect("b1");
            rt.step();
        }
        let (ra, rb) = (a.output("red"), b.output("red"));
        assert!(
            matches!((ra, rb), (Some(Value::Bool(x)), Some(Value::Bool(y))) if x != y),
            "scan {scan}: {ra:?} {rb:?}"
        );
    }
    let fall = lights.replace(
        "<outputVariables><variable formalParameter=\"Q\"><connectionPointOut/>",
        "<outputVariables><variable formalParameter=\"Q\" negated=\"true\"><connectionPointOut/>",
    );
    assert_ne!(fall, lights);
    let imported = fbd_plcopen::import(p, &fall).unwrap_or_else(|e| panic!("{e}"));
    let all = imported.doc.macros.iter().flat_map(|m| &m.blocks).chain(&imported.doc.blocks);
    let trig: Vec<&fbd_engine::model::Block> = all.filter(|b| b.ty == "F_TRIG").collect();
    assert!(
        trig.iter().any(|b| b.negated.as_slice() == ["q"]),
        "{:?}",
        trig.iter().map(|b| &b.negated).collect::<Vec<_>>()
    );
}
