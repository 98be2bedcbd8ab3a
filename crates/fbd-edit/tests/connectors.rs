//! Connectors as the author edits them: a net made a connector pair and back, renamed, its uses
//! found, its source deleted; the program computes the same throughout.

use std::path::Path;

use fbd_edit::{BodyId, ConnectorUse, Workspace};
use fbd_engine::load::{FsProvider, load};
use fbd_engine::model::Wire;
use fbd_engine::{Runtime, Value};

fn open(rel: &str) -> Workspace {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    Workspace::from_project(&load(&FsProvider, &path).expect("loads"))
}

/// The tank's outputs over a level that falls and rises.
fn trace(w: &Workspace) -> Vec<Vec<Value>> {
    let mut rt = Runtime::new(w.compile().expect("compiles"));
    rt.write("enable", Value::Bool(true)).expect("enable");
    (0..40)
        .map(|k| {
            let level = if k < 20 { 100.0 - 5.0 * k as f64 } else { 5.0 * (k - 20) as f64 };
            rt.write("level", Value::Real(level)).expect("level");
            rt.step();
            rt.outputs().to_vec()
        })
        .collect()
}

#[test]
fn a_net_made_a_connector_pair_and_back_computes_the_same_and_restores_the_file() {
    let mut w = open("examples/tank.json");
    let p = BodyId::Program;
    let before = trace(&w);
    let text = w.texts().next().expect("a file").1.to_string();
    assert_eq!(w.make_connector(&p, "fill.q1", "filling").expect("make"), 1, "gate.in1 reads it");
    assert_eq!(w.connector_uses(&p, "filling"), vec![ConnectorUse::Pin { block: "gate".into(), pin: "in1".into() }]);
    assert_eq!(trace(&w), before);
    let e = w.make_connector(&p, "fill.q1", "again").expect_err("one connector per source");
    assert!(e.to_string().contains("already has connector `filling`"), "{e}");
    assert!(w.make_connector(&p, "high.out", "run").expect_err("taken").to_string().contains("already a connector"));
    w.remove_connector(&p, "filling").expect("back to a wire");
    assert_eq!(w.texts().next().expect("a file").1, text, "the wire is back as it was written");
}

#[test]
fn a_renamed_connector_takes_its_continuations_along() {
    let mut w = open("examples/tank.json");
    let p = BodyId::Program;
    let before = trace(&w);
    let uses = w.connector_uses(&p, "is_low");
    assert_eq!(uses.len(), 2, "{uses:?}");
    w.rename_connector(&p, "is_low", "below_20").expect("rename");
    assert!(w.connector_uses(&p, "is_low").is_empty());
    assert_eq!(w.connector_uses(&p, "below_20"), uses);
    assert_eq!(trace(&w), before);
    assert_eq!(
        w.connector_uses(&p, "run"),
        vec![ConnectorUse::Pin { block: "starved".into(), pin: "in1".into() }, ConnectorUse::Output("pump".into())]
    );
}

#[test]
fn deleting_a_connector_s_source_removes_it_and_its_continuations() {
    let mut w = open("examples/tank.json");
    let p = BodyId::Program;
    w.remove_blocks(&p, &["gate".to_string()]).expect("delete");
    assert!(w.connectors(&p).iter().all(|c| c.name != "run"));
    let starved = w.block(&p, "starved").expect("kept");
    assert!(starved.inputs.get("in1").is_none(), "its continuation went with the connector");
    assert_eq!(starved.inputs.get("in2"), Some(&Wire::Connector("is_low".into())));
    assert!(w.undo(), "undo");
    assert!(w.connectors(&p).iter().any(|c| c.name == "run"));
}
