//! What the PLCopen tests share: their data files and compiling an imported document.

use std::path::Path;

use fbd_engine::load::{MemProvider, load_text};
use fbd_engine::{CompileOptions, Runtime, Value, compile_project};

pub fn data(name: &str) -> (std::path::PathBuf, String) {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    let t = std::fs::read_to_string(&p).expect("test data");
    (p, t)
}

pub fn compile_doc(doc: &fbd_engine::model::Document) -> fbd_engine::ScanPlan {
    let text = serde_json::to_string(doc).expect("serialises");
    let project = load_text(&MemProvider::new(), Path::new("imported.json"), text).expect("loads");
    compile_project(&project, &CompileOptions::default()).expect("compiles")
}

/// A committed diagram (path from the repository's root), loaded and exported.
pub fn exported(file: &str) -> (fbd_engine::load::Project, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let project = fbd_engine::load::load(&fbd_engine::load::FsProvider, &root.join(file)).expect("loads");
    let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    (project, xml)
}

/// A PLCopen project of one program `name` (its interface `vars`, its FBD `body`) run by a
/// cyclic task of 20 ms.
pub fn project(name: &str, vars: &str, body: &str) -> String {
    let pou = format!(
        r#"<pou name="{name}" pouType="program">
      <interface>{vars}</interface>
      <body><FBD>{body}</FBD></body>
    </pou>"#
    );
    let task = format!(
        r#"<instances><configurations><configuration name="c"><resource name="r">
    <task name="t" interval="T#20ms" priority="0"><pouInstance name="i" typeName="{name}"/></task>
  </resource></configuration></configurations></instances>"#
    );
    tc6(&pou, &task)
}

/// A TC6 v2.01 project of these POUs (`<pou>` elements) and instances (an `<instances>`
/// element, or nothing for a library).
pub fn tc6(pous: &str, instances: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <fileHeader companyName="fbd2048" productName="order" productVersion="1" creationDateTime="2026-01-01T00:00:00"/>
  <contentHeader name="order"><coordinateInfo><fbd><scaling x="1" y="1"/></fbd><ld><scaling x="1" y="1"/></ld><sfc><scaling x="1" y="1"/></sfc></coordinateInfo></contentHeader>
  <types><dataTypes/><pous>
    {pous}
  </pous></types>
  {instances}
</project>"#
    )
}

/// Runs the program; with `FBD_ORDER_XML` set to a directory, also writes it there (as
/// `<outputs>.xml`) for tools/plcopen/beremiz-check.py to run on Beremiz and matiec.
pub fn trace(xml: &str, outputs: &[&str], scans: usize) -> Vec<Vec<Value>> {
    if let Some(dir) = std::env::var_os("FBD_ORDER_XML") {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        std::fs::write(Path::new(&dir).join(format!("{}-{n}.xml", outputs.join("-"))), xml).expect("writes");
    }
    let imported = fbd_plcopen::import(Path::new("order.xml"), xml).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    (0..scans)
        .map(|_| {
            rt.step();
            outputs.iter().map(|o| rt.output(o).unwrap_or_else(|| panic!("output {o}"))).collect()
        })
        .collect()
}

/// An inVariable reading `expr`.
pub fn var_in(id: u32, y: u32, expr: &str) -> String {
    format!(
        r#"<inVariable localId="{id}"><position x="0" y="{y}"/><connectionPointOut><relPosition x="0" y="0"/></connectionPointOut><expression>{expr}</expression></inVariable>"#
    )
}

/// An outVariable writing `expr` from element `from` (its output `param`).
pub fn var_out(id: u32, y: u32, from: u32, param: Option<&str>, expr: &str) -> String {
    let p = param.map(|p| format!(r#" formalParameter="{p}""#)).unwrap_or_default();
    format!(
        r#"<outVariable localId="{id}"><position x="300" y="{y}"/><connectionPointIn><connection refLocalId="{from}"{p}><position x="0" y="0"/></connection></connectionPointIn><expression>{expr}</expression></outVariable>"#
    )
}

/// A block: its inputs (formal, from element, its output), its outputs (`!Q` negated).
pub fn block(
    id: u32,
    ty: &str,
    inst: Option<&str>,
    y: u32,
    ins: &[(&str, u32, Option<&str>)],
    outs: &[&str],
) -> String {
    let inst = inst.map(|i| format!(r#" instanceName="{i}""#)).unwrap_or_default();
    let ins: String = ins
        .iter()
        .map(|(f, r, p)| {
            let p = p.map(|p| format!(r#" formalParameter="{p}""#)).unwrap_or_default();
            format!(r#"<variable formalParameter="{f}"><connectionPointIn><connection refLocalId="{r}"{p}><position x="0" y="0"/></connection></connectionPointIn></variable>"#)
        })
        .collect();
    // `!Q`: the output Q, negated.
    let outs: String = outs
        .iter()
        .map(|o| {
            let (o, neg) = o.strip_prefix('!').map_or((*o, ""), |o| (o, r#" negated="true""#));
            format!(r#"<variable formalParameter="{o}"{neg}><connectionPointOut><relPosition x="0" y="0"/></connectionPointOut></variable>"#)
        })
        .collect();
    format!(
        r#"<block localId="{id}" typeName="{ty}"{inst}><position x="100" y="{y}"/><inputVariables>{ins}</inputVariables><inOutVariables/><outputVariables>{outs}</outputVariables></block>"#
    )
}
