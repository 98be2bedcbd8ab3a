//! Every export of a committed program is a TC6 v2.01 file other tools read as it is: a strict
//! reader of the official schema accepts it (the PyPI package `plcopen`, xsdata bindings of the
//! schema, with unknown elements and attributes as errors), and what Beremiz's generator needs
//! beyond the schema holds (a block's formal parameters named as its POU declares them, case
//! and all; every connection with the points it runs through).

use std::path::{Path, PathBuf};
use std::process::Command;

#[allow(dead_code)] // `data` and `compile_doc` are for the import tests
mod common;
use common::exported;

fn committed() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["diagrams", "examples"] {
        for e in std::fs::read_dir(root.join(dir)).expect("reads") {
            let p = e.expect("entry").path();
            // Test tables (`*.test.json`) sit beside the diagrams; they are no diagrams.
            if p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().ends_with(".test.json") {
                files.push(format!("{dir}/{}", p.file_name().expect("name").to_string_lossy()));
            }
        }
    }
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    files
}

#[test]
fn every_export_passes_a_strict_tc6_reader() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile_dir("exports");
    let mut paths: Vec<PathBuf> = Vec::new();
    for f in committed() {
        let (_, xml) = exported(&f);
        let p = dir.join(format!("{}.xml", f.replace('/', "_")));
        std::fs::write(&p, xml).expect("writes");
        paths.push(p);
    }
    let out = Command::new("python3")
        .arg(root.join("tools/plcopen/tc6-check.py"))
        .args(&paths)
        .output()
        .expect("python3 runs (the TC6 check needs `pip install plcopen==1.0.1`)");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "the strict TC6 reader refused an export (or is not installed: `pip install plcopen==1.0.1`):\n{text}"
    );
    assert_eq!(text.matches(": TC6 v2.01").count(), paths.len(), "{text}");
}

fn tempfile_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fbd-tc6-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn blocks_name_their_pins_as_their_pous_declare_them_and_connections_carry_points() {
    for f in committed() {
        let (_, xml) = exported(&f);
        let doc = roxmltree::Document::parse(&xml).expect("well-formed");
        let el = |n: &roxmltree::Node, name: &str| n.is_element() && n.tag_name().name() == name;
        let pous: Vec<roxmltree::Node> = doc.descendants().filter(|n| el(n, "pou")).collect();
        for b in doc.descendants().filter(|n| el(n, "block")) {
            let ty = b.attribute("typeName").expect("typeName");
            let Some(pou) = pous.iter().find(|p| p.attribute("name") == Some(ty)) else { continue };
            let declared: Vec<&str> = pou
                .descendants()
                .filter(|n| el(n, "inputVars") || el(n, "outputVars"))
                .flat_map(|v| v.children().filter(|c| el(c, "variable")))
                .filter_map(|v| v.attribute("name"))
                .collect();
            for v in b.descendants().filter(|n| el(n, "variable") && n.attribute("formalParameter").is_some()) {
                let formal = v.attribute("formalParameter").expect("formal");
                // EN and ENO every POU has without declaring them (IEC 61131-3).
                assert!(
                    declared.contains(&formal) || matches!(formal, "EN" | "ENO"),
                    "{f}: block {ty} pin `{formal}` is not declared as such in {declared:?}"
                );
            }
        }
        for c in doc.descendants().filter(|n| el(n, "connection")) {
            assert!(c.children().filter(|p| el(p, "position")).count() >= 2, "{f}: a connection without its points");
        }
        assert!(!xml.contains("relativePosition"), "{f}: TC6 names a connection point's place relPosition");
    }
}

/// Ports another tool cannot take go out as IEC identifiers (a reserved or standard name, a
/// name with `-`, a case twin) and come back under their own names.
#[test]
fn names_another_tool_cannot_take_are_renamed_and_restored() {
    let text = r#"{"fbd": 3, "name": "names",
        "inputs": [{"name": "a-b", "type": "BOOL"}, {"name": "IF", "type": "BOOL"}, {"name": "Speed", "type": "INT"}],
        "outputs": [{"name": "SPEED", "type": "INT", "from": "Speed"}, {"name": "rs", "type": "BOOL", "from": "x.out"},
                    {"name": "TRUE", "type": "BOOL", "from": "IF"}],
        "blocks": [{"id": "x", "type": "AND", "inputs": {"in1": "a-b", "in2": "IF"}}]}"#;
    let project =
        fbd_engine::load::load_text(&fbd_engine::load::MemProvider::new(), Path::new("names.json"), text.to_string())
            .expect("loads");
    let plan = fbd_engine::compile_project(&project, &fbd_engine::CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed");
    let declared: Vec<&str> =
        doc.descendants().filter(|n| n.tag_name().name() == "variable").filter_map(|v| v.attribute("name")).collect();
    for bad in ["a-b", "IF", "SPEED", "rs", "TRUE"] {
        assert!(!declared.contains(&bad), "{bad} declared as is: {declared:?}");
    }
    for good in ["FBD_a_b", "FBD_IF", "FBD_SPEED", "FBD_rs", "FBD_TRUE", "Speed"] {
        assert!(declared.contains(&good), "{good} missing: {declared:?}");
    }
    let back = fbd_plcopen::import(Path::new("names.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let names = |ports: Vec<&str>| ports.join(",");
    assert_eq!(names(back.doc.inputs.iter().map(|p| p.name.as_str()).collect()), "a-b,IF,Speed");
    assert_eq!(names(back.doc.outputs.iter().map(|p| p.name.as_str()).collect()), "SPEED,rs,TRUE");
    let dir = tempfile_dir("names");
    let p = dir.join("names.xml");
    std::fs::write(&p, &xml).expect("writes");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("python3").arg(root.join("tools/plcopen/tc6-check.py")).arg(&p).output().expect("python3");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
}

/// A block whose id another tool cannot take as an instance name (`sr` is the type SR there,
/// `a-b` reads as a subtraction) goes out under an IEC name and comes back under its id.
#[test]
fn instances_named_like_a_standard_block_are_renamed_and_restored() {
    let text = r#"{"fbd": 3, "name": "inst",
        "inputs": [{"name": "go", "type": "BOOL"}],
        "outputs": [{"name": "s", "type": "BOOL", "from": "sr.q1"}, {"name": "t", "type": "BOOL", "from": "a-b.q"}],
        "blocks": [{"id": "sr", "type": "SR", "inputs": {"s1": "go", "r": false}},
                   {"id": "a-b", "type": "R_TRIG", "inputs": {"clk": "go"}}]}"#;
    let project =
        fbd_engine::load::load_text(&fbd_engine::load::MemProvider::new(), Path::new("inst.json"), text.to_string())
            .expect("loads");
    let plan = fbd_engine::compile_project(&project, &fbd_engine::CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    assert!(xml.contains(r#"instanceName="FBD_sr""#) && xml.contains(r#"instanceName="FBD_a_b""#), "{xml}");
    let back = fbd_plcopen::import(Path::new("inst.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = back.doc.blocks.iter().map(|b| b.id.as_str()).collect();
    assert!(ids.contains(&"sr") && ids.contains(&"a-b"), "{ids:?}");
}
