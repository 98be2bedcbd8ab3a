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
            if p.extension().is_some_and(|x| x == "json") {
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
    let dir = tempfile_dir();
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

fn tempfile_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("fbd-tc6-{}", std::process::id()));
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
                assert!(
                    declared.contains(&formal),
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
