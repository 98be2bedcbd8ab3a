//! The order a PLC runs an imported body in, without `executionOrderId`s: the statement
//! sequence Beremiz's generator writes (variables written in document order, each pulling the
//! blocks that feed it; then the blocks not called yet), and what each read sees in it. Each
//! expected trace is the one matiec runs from Beremiz's ST of the same body
//! (tools/plcopen/beremiz-check.py).

use std::path::Path;

use fbd_engine::{Runtime, Value};

#[allow(dead_code)] // `data` and `exported` are for the other tests
mod common;
use common::compile_doc;

fn project(name: &str, vars: &str, body: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <fileHeader companyName="fbd2048" productName="order" productVersion="1" creationDateTime="2026-01-01T00:00:00"/>
  <contentHeader name="order"><coordinateInfo><fbd><scaling x="1" y="1"/></fbd><ld><scaling x="1" y="1"/></ld><sfc><scaling x="1" y="1"/></sfc></coordinateInfo></contentHeader>
  <types><dataTypes/><pous>
    <pou name="{name}" pouType="program">
      <interface>{vars}</interface>
      <body><FBD>{body}</FBD></body>
    </pou>
  </pous></types>
  <instances><configurations><configuration name="c"><resource name="r">
    <task name="t" interval="T#20ms" priority="0"><pouInstance name="i" typeName="{name}"/></task>
  </resource></configuration></configurations></instances>
</project>"#
    )
}

/// Runs the program; with `FBD_ORDER_XML` set to a directory, also writes it there (as
/// `<outputs>.xml`) for tools/plcopen/beremiz-check.py to run on Beremiz and matiec.
fn trace(xml: &str, outputs: &[&str], scans: usize) -> Vec<Vec<Value>> {
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

fn var_in(id: u32, y: u32, expr: &str) -> String {
    format!(
        r#"<inVariable localId="{id}"><position x="0" y="{y}"/><connectionPointOut><relPosition x="0" y="0"/></connectionPointOut><expression>{expr}</expression></inVariable>"#
    )
}

fn var_out(id: u32, y: u32, from: u32, param: Option<&str>, expr: &str) -> String {
    let p = param.map(|p| format!(r#" formalParameter="{p}""#)).unwrap_or_default();
    format!(
        r#"<outVariable localId="{id}"><position x="300" y="{y}"/><connectionPointIn><connection refLocalId="{from}"{p}><position x="0" y="0"/></connection></connectionPointIn><expression>{expr}</expression></outVariable>"#
    )
}

fn block(id: u32, ty: &str, inst: Option<&str>, y: u32, ins: &[(&str, u32, Option<&str>)], outs: &[&str]) -> String {
    let inst = inst.map(|i| format!(r#" instanceName="{i}""#)).unwrap_or_default();
    let ins: String = ins
        .iter()
        .map(|(f, r, p)| {
            let p = p.map(|p| format!(r#" formalParameter="{p}""#)).unwrap_or_default();
            format!(r#"<variable formalParameter="{f}"><connectionPointIn><connection refLocalId="{r}"{p}><position x="0" y="0"/></connection></connectionPointIn></variable>"#)
        })
        .collect();
    let outs: String =
        outs.iter().map(|o| format!(r#"<variable formalParameter="{o}"><connectionPointOut><relPosition x="0" y="0"/></connectionPointOut></variable>"#)).collect();
    format!(
        r#"<block localId="{id}" typeName="{ty}"{inst}><position x="100" y="{y}"/><inputVariables>{ins}</inputVariables><inOutVariables/><outputVariables>{outs}</outputVariables></block>"#
    )
}

/// A variable's initial value holds until its write, even when the write is a constant: the
/// "first cycle" flag of OpenPLC's traffic light.
#[test]
fn an_initial_value_is_read_until_the_write_later_in_the_body() {
    let vars = r#"<outputVars><variable name="seen"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="first"><type><BOOL/></type><initialValue><simpleValue value="TRUE"/></initialValue></variable></localVars>"#;
    let body = [
        var_in(1, 0, "first"),
        var_out(2, 0, 1, None, "seen"),
        var_in(3, 100, "FALSE"),
        var_out(4, 100, 3, None, "first"),
    ]
    .concat();
    let t = trace(&project("p", vars, &body), &["seen"], 3);
    let b = Value::Bool;
    assert_eq!(t, vec![vec![b(true)], vec![b(false)], vec![b(false)]]);
}

/// Document order decides whether a read sees this scan's write or the previous scan's.
#[test]
fn document_order_decides_which_scan_a_variable_read_sees() {
    let vars = r#"<outputVars><variable name="cnt"><type><LINT/></type></variable><variable name="copy"><type><LINT/></type></variable></outputVars>"#;
    let add = block(10, "ADD", None, 200, &[("IN1", 11, None), ("IN2", 12, None)], &["OUT"]);
    let parts = [var_in(11, 200, "cnt"), var_in(12, 240, "1"), add, var_in(13, 0, "cnt")];
    let copy_first =
        [parts.concat(), var_out(14, 0, 13, None, "copy"), var_out(15, 200, 10, Some("OUT"), "cnt")].concat();
    let count_first =
        [parts.concat(), var_out(15, 200, 10, Some("OUT"), "cnt"), var_out(14, 0, 13, None, "copy")].concat();
    let i = Value::Int;
    // copy := cnt; cnt := ADD(cnt, 1): the copy is one behind.
    assert_eq!(
        trace(&project("p", vars, &copy_first), &["cnt", "copy"], 3),
        vec![vec![i(1), i(0)], vec![i(2), i(1)], vec![i(3), i(2)]]
    );
    // cnt := ADD(cnt, 1); copy := cnt: the copy is this scan's.
    assert_eq!(
        trace(&project("p", vars, &count_first), &["cnt", "copy"], 3),
        vec![vec![i(1), i(1)], vec![i(2), i(2)], vec![i(3), i(3)]]
    );
}

/// A loop between two function block instances, with no feedback variable: legal IEC; the
/// instance called first reads the other's outputs of its last call.
#[test]
fn a_direct_loop_between_function_block_instances_reads_the_last_call() {
    let vars = r#"<outputVars><variable name="qa"><type><BOOL/></type></variable><variable name="qb"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="a"><type><derived name="SR"/></type></variable><variable name="b"><type><derived name="SR"/></type></variable></localVars>"#;
    let body = [
        var_in(1, 0, "TRUE"),
        var_in(2, 100, "FALSE"),
        block(3, "SR", Some("a"), 0, &[("S1", 1, None), ("R", 4, Some("Q1"))], &["Q1"]),
        block(4, "SR", Some("b"), 100, &[("S1", 3, Some("Q1")), ("R", 2, None)], &["Q1"]),
        var_out(5, 0, 3, Some("Q1"), "qa"),
        var_out(6, 100, 4, Some("Q1"), "qb"),
    ]
    .concat();
    // qa := a.Q1 pulls a, whose R pulls b, which reads a.Q1 of a's last call (FALSE at first).
    let b = Value::Bool;
    assert_eq!(
        trace(&project("p", vars, &body), &["qa", "qb"], 3),
        vec![vec![b(true), b(false)], vec![b(true), b(true)], vec![b(true), b(true)]]
    );
}

/// The same loop drawn with a connector and a continuation reads the same values: a
/// continuation read before its source's call is the last call's value as a wire would be
/// (imported as a feedback wire, not as a continuation of this scan's value).
#[test]
fn a_continuation_is_read_in_the_body_s_order_as_the_wire_it_stands_for() {
    let vars = r#"<outputVars><variable name="qa"><type><BOOL/></type></variable><variable name="qb"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="a"><type><derived name="SR"/></type></variable><variable name="b"><type><derived name="SR"/></type></variable></localVars>"#;
    let continuation = |id: u32, name: &str| {
        format!(
            r#"<continuation localId="{id}" name="{name}"><position x="0" y="0"/><connectionPointOut><relPosition x="0" y="0"/></connectionPointOut></continuation>"#
        )
    };
    let connector = |id: u32, name: &str, from: u32, param: &str| {
        format!(
            r#"<connector localId="{id}" name="{name}"><position x="0" y="0"/><connectionPointIn><connection refLocalId="{from}" formalParameter="{param}"><position x="0" y="0"/></connection></connectionPointIn></connector>"#
        )
    };
    let body = [
        var_in(1, 0, "TRUE"),
        var_in(2, 100, "FALSE"),
        block(3, "SR", Some("a"), 0, &[("S1", 1, None), ("R", 4, Some("Q1"))], &["Q1"]),
        block(4, "SR", Some("b"), 100, &[("S1", 7, None), ("R", 2, None)], &["Q1"]),
        var_out(5, 0, 3, Some("Q1"), "qa"),
        var_out(6, 100, 4, Some("Q1"), "qb"),
        continuation(7, "a_q"),
        connector(8, "a_q", 3, "Q1"),
    ]
    .concat();
    let b = Value::Bool;
    assert_eq!(
        trace(&project("p", vars, &body), &["qa", "qb"], 3),
        vec![vec![b(true), b(false)], vec![b(true), b(true)], vec![b(true), b(true)]],
        "as the loop wired directly (the test above)"
    );
}
