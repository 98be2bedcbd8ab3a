//! What an import refuses because converting it would change what the program computes:
//! globals, types the file does not declare, ambiguous bodies. Each error names its place;
//! every one is reported at once. Long connector chains are followed, circles named.

use std::path::Path;

use fbd_engine::{Runtime, Value};

#[allow(dead_code)] // `data` and `exported` are for the other tests
mod common;
use common::compile_doc;

fn program(vars: &str, body: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><dataTypes><dataType name="Mode"><baseType><enum><values><value name="A"/><value name="B"/></values></enum></baseType></dataType></dataTypes><pous>
    <pou name="p" pouType="program">
      <interface>{vars}</interface>
      <body><FBD>{body}</FBD></body>
    </pou>
  </pous></types>
</project>"#
    )
}

fn errors(xml: &str) -> String {
    match fbd_plcopen::import(Path::new("refused.xml"), xml) {
        Ok(_) => panic!("imported:\n{xml}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn globals_and_undeclared_types_are_refused_each_at_its_declaration() {
    let vars = r#"<externalVars><variable name="shared"><type><BOOL/></type></variable></externalVars>
        <globalVars><variable name="g"><type><INT/></type></variable></globalVars>
        <localVars>
          <variable name="hmi"><type><derived name="HMI_REAL"/></type></variable>
          <variable name="mode"><type><derived name="Mode"/></type></variable>
        </localVars>"#;
    let e = errors(&program(vars, ""));
    assert!(e.contains("refused.xml:5:") && e.contains("`shared` is VAR_EXTERNAL"), "{e}");
    assert!(e.contains("refused.xml:6:") && e.contains("`g` is VAR_GLOBAL"), "{e}");
    assert!(
        e.contains("refused.xml:8:") && e.contains("`hmi` is of type `HMI_REAL`, which the file does not declare"),
        "{e}"
    );
    assert!(e.contains("refused.xml:9:") && e.contains("`mode` is of type `Mode`, an enumeration"), "{e}");
}

#[test]
fn a_duplicate_local_id_and_a_duplicate_connector_are_refused() {
    let vars = r#"<outputVars><variable name="y"><type><BOOL/></type></variable></outputVars>"#;
    let body = r#"<inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>TRUE</expression></inVariable>
        <inVariable localId="1"><position x="0" y="40"/><connectionPointOut/><expression>FALSE</expression></inVariable>
        <connector name="c" localId="2"><position x="0" y="0"/><connectionPointIn><connection refLocalId="1"/></connectionPointIn></connector>
        <connector name="C" localId="3"><position x="0" y="0"/><connectionPointIn><connection refLocalId="1"/></connectionPointIn></connector>
        <continuation name="c" localId="4"><position x="0" y="0"/><connectionPointOut/></continuation>
        <outVariable localId="5"><position x="0" y="0"/><connectionPointIn><connection refLocalId="4"/></connectionPointIn><expression>y</expression></outVariable>"#;
    let e = errors(&program(vars, body));
    assert!(e.contains("refused.xml:7:") && e.contains("localId 1 is used twice (first at 6:"), "{e}");
    assert!(e.contains("refused.xml:9:") && e.contains("two connectors named `C` (first at 8:"), "{e}");
}

fn chain(hops: usize, closed: bool) -> String {
    let vars = r#"<inputVars><variable name="x"><type><BOOL/></type></variable></inputVars><outputVars><variable name="y"><type><BOOL/></type></variable></outputVars>"#;
    let mut body = String::from(
        r#"<inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>x</expression></inVariable>"#,
    );
    // connector k reads continuation k-1 (connector 0 reads x, or the last one if closed).
    for k in 0..hops {
        let from = if k == 0 { if closed { 10_000 + hops - 1 } else { 1 } } else { 10_000 + k - 1 };
        body += &format!(
            r#"<connector name="c{k}" localId="{}"><position x="0" y="0"/><connectionPointIn><connection refLocalId="{from}"/></connectionPointIn></connector><continuation name="c{k}" localId="{}"><position x="0" y="0"/><connectionPointOut/></continuation>"#,
            20_000 + k,
            10_000 + k
        );
    }
    body += &format!(
        r#"<outVariable localId="2"><position x="0" y="0"/><connectionPointIn><connection refLocalId="{}"/></connectionPointIn><expression>y</expression></outVariable>"#,
        10_000 + hops - 1
    );
    program(vars, &body)
}

#[test]
fn a_long_connector_chain_is_followed_and_a_circle_is_named() {
    let imported = fbd_plcopen::import(Path::new("chain.xml"), &chain(500, false)).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    rt.set_input("x", Value::Bool(true)).expect("x");
    rt.step();
    assert_eq!(rt.output("y"), Some(Value::Bool(true)), "500 hops from x to y");
    let e = errors(&chain(3, true));
    assert!(e.contains("leads round in a circle of connectors"), "{e}");
}

#[test]
fn a_formal_parameter_the_block_does_not_have_is_refused() {
    let vars = r#"<outputVars><variable name="y"><type><BOOL/></type></variable></outputVars>"#;
    let body = r#"<inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>TRUE</expression></inVariable>
        <block localId="2" typeName="AND"><position x="100" y="0"/>
          <inputVariables>
            <variable formalParameter="IN1"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable>
            <variable formalParameter="FOO"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable>
          </inputVariables><inOutVariables/>
          <outputVariables><variable formalParameter="OUT"><connectionPointOut/></variable></outputVariables>
        </block>
        <outVariable localId="3"><position x="200" y="0"/><connectionPointIn><connection refLocalId="2" formalParameter="Q"/></connectionPointIn><expression>y</expression></outVariable>"#;
    let e = errors(&program(vars, body));
    assert!(e.contains("refused.xml:10:") && e.contains("AND has no input `FOO`"), "{e}");
    assert!(
        e.contains("refused.xml:14:")
            && e.contains("connection to output `Q` of block `and_2` (AND), which has no such output"),
        "{e}"
    );
}

#[test]
fn a_task_running_an_unnamed_program_says_so_at_its_instance() {
    let xml = program("", "").replace(
        "</types>",
        r#"</types>
  <instances><configurations><configuration name="c"><resource name="r">
    <task name="t" interval="PT0.02S" priority="0"><pouInstance name="i" typeName=""/></task>
  </resource></configuration></configurations></instances>"#,
    );
    let e = errors(&xml);
    assert!(e.contains("refused.xml:10:") && e.contains("pouInstance has an empty typeName"), "{e}");
    // CODESYS's ISO 8601 interval is read: the same file naming its program imports at 20 ms.
    let named = xml.replace(r#"typeName="""#, r#"typeName="p""#);
    let imported = fbd_plcopen::import(Path::new("iso.xml"), &named).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imported.doc.cycle_ms, Some(20.0));
}
