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
fn unresolved_globals_and_undeclared_types_are_refused_each_at_its_declaration() {
    // (An external of an elementary type no global declares is an extension's: a stand-in.)
    let vars = r#"<externalVars><variable name="shared"><type><derived name="Mode"/></type></variable></externalVars>
        <globalVars><variable name="g"><type><INT/></type></variable></globalVars>
        <localVars>
          <variable name="hmi"><type><derived name="ACME_REAL"/></type></variable>
          <variable name="mode"><type><derived name="Mode"/></type></variable>
        </localVars>"#;
    let e = errors(&program(vars, ""));
    assert!(
        e.contains("refused.xml:5:")
            && e.contains("`shared` is VAR_EXTERNAL, but no configuration or resource declares it"),
        "{e}"
    );
    assert!(!e.contains("`g`"), "a program's own VAR_GLOBAL is its variable: {e}");
    assert!(
        e.contains("refused.xml:8:") && e.contains("`hmi` is of type `ACME_REAL`, which the file does not declare"),
        "{e}"
    );
    assert!(
        e.contains("refused.xml:9:")
            && e.contains(
                "`mode` is of `Mode`, an enumeration; enumerations are imported in Structured Text bodies so far"
            ),
        "{e}"
    );
}

/// A configuration's globals, as Beremiz and OpenPLC projects declare their I/O and shared
/// state: the program's VAR_EXTERNALs are them (a located one its input or output, another its
/// variable with the global's initial value); in a function block a global is refused, and an
/// external of another type than its global.
#[test]
fn configuration_globals_are_the_programs_variables() {
    let xml = r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><pous>
    <pou name="p" pouType="program">
      <interface>
        <outputVars><variable name="y"><type><INT/></type></variable></outputVars>
        <externalVars>
          <variable name="start"><type><BOOL/></type></variable>
          <variable name="lamp"><type><BOOL/></type></variable>
          <variable name="count"><type><INT/></type></variable>
        </externalVars>
      </interface>
      <body><FBD>
        <inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>count</expression></inVariable>
        <inVariable localId="2"><position x="0" y="40"/><connectionPointOut/><expression>INT#1</expression></inVariable>
        <block localId="3" typeName="ADD"><position x="80" y="0"/>
          <inputVariables>
            <variable formalParameter="IN1"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable>
            <variable formalParameter="IN2"><connectionPointIn><connection refLocalId="2"/></connectionPointIn></variable>
          </inputVariables><inOutVariables/>
          <outputVariables><variable formalParameter="OUT"><connectionPointOut/></variable></outputVariables>
        </block>
        <outVariable localId="4"><position x="200" y="0"/><connectionPointIn><connection refLocalId="3" formalParameter="OUT"/></connectionPointIn><expression>count</expression></outVariable>
        <outVariable localId="7"><position x="200" y="40"/><connectionPointIn><connection refLocalId="3" formalParameter="OUT"/></connectionPointIn><expression>y</expression></outVariable>
        <inVariable localId="5"><position x="0" y="80"/><connectionPointOut/><expression>start</expression></inVariable>
        <outVariable localId="6"><position x="200" y="80"/><connectionPointIn><connection refLocalId="5"/></connectionPointIn><expression>lamp</expression></outVariable>
      </FBD></body>
    </pou>
  </pous></types>
  <instances><configurations><configuration name="config">
    <resource name="res">
      <task name="t" interval="T#10ms" priority="0"><pouInstance name="i" typeName="p"/></task>
      <globalVars><variable name="count"><type><INT/></type><initialValue><simpleValue value="32765"/></initialValue></variable></globalVars>
    </resource>
    <globalVars>
      <variable name="START" address="%IX0.0"><type><BOOL/></type></variable>
      <variable name="lamp" address="%QX0.0"><type><BOOL/></type></variable>
    </globalVars>
  </configuration></configurations></instances>
</project>"#;
    let imported = fbd_plcopen::import(Path::new("globals.xml"), xml).expect("imports");
    let names = |ps: Vec<&str>| ps.join(",");
    assert_eq!(names(imported.doc.inputs.iter().map(|p| p.name.as_str()).collect()), "start", "%IX: an input");
    assert!(imported.doc.outputs.iter().any(|p| p.name == "lamp"), "%QX: an output");
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    rt.set_input("start", Value::Bool(true)).expect("start");
    let mut counts = Vec::new();
    for _ in 0..3 {
        rt.step();
        counts.push(rt.output("y").map(|v| v.to_string()));
    }
    assert_eq!(rt.output("lamp"), Some(Value::Bool(true)));
    // The global's initial value, then an INT's wrap.
    assert_eq!(counts, [Some("32766".into()), Some("32767".into()), Some("-32768".into())]);

    let other_type = xml.replace(
        r#"<variable name="count"><type><INT/></type></variable>"#,
        r#"<variable name="count"><type><DINT/></type></variable>"#,
    );
    let e = errors(&other_type);
    assert!(e.contains("`count` is VAR_EXTERNAL DINT but the global is INT"), "{e}");
}

/// A program that imports but does not compile (an earlier export's timer with a LINT preset,
/// a TIME here): the compiler's error points at the element in the XML file the block comes
/// from, not into the diagram the import made.
#[test]
fn an_error_found_after_the_import_points_into_the_xml_file() {
    let vars = r#"<localVars><variable name="t"><type><derived name="FBD_TON_OF_LINT"/></type></variable></localVars>
        <outputVars><variable name="q"><type><BOOL/></type></variable></outputVars>"#;
    let body = r#"<inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>TRUE</expression></inVariable>
        <inVariable localId="2"><position x="0" y="40"/><connectionPointOut/><expression>100</expression></inVariable>
        <block localId="3" typeName="FBD_TON_OF_LINT" instanceName="t"><position x="80" y="0"/>
          <inputVariables>
            <variable formalParameter="IN"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable>
            <variable formalParameter="PT"><connectionPointIn><connection refLocalId="2"/></connectionPointIn></variable>
          </inputVariables><inOutVariables/>
          <outputVariables><variable formalParameter="Q"><connectionPointOut/></variable><variable formalParameter="ET"><connectionPointOut/></variable></outputVariables>
        </block>
        <outVariable localId="4"><position x="200" y="0"/><connectionPointIn><connection refLocalId="3" formalParameter="Q"/></connectionPointIn><expression>q</expression></outVariable>"#;
    let xml = program(vars, body);
    let path = Path::new("old-export.xml");
    let imported = fbd_plcopen::import(path, &xml).expect("imports");
    let e = fbd_plcopen::imported_project(&imported, path).expect_err("a LINT preset on a TIME pin").to_string();
    let line = xml.lines().position(|l| l.contains("<block localId=\"3\"")).expect("the block") + 1;
    assert!(e.contains(&format!("old-export.xml:{line}:")) && e.contains("pin `pt` of TON `t` expects TIME"), "{e}");
    assert!(!e.contains("as imported") && !e.contains(".json"), "{e}");
}

/// An element with a hundred thousand attributes (or namespace declarations) is refused at its
/// place in one pass over the file: the XML reader compares each new attribute with the others
/// (minutes for such a file); a `>` or `=` inside a value or a comment counts for nothing.
#[test]
fn an_element_with_too_many_attributes_is_refused_at_its_place() {
    let attrs: String = (0..100_000).map(|i| format!(" a{i}=\"x>y=z\"")).collect();
    let xml = format!(
        "<?xml version=\"1.0\"?>\n<!-- a=b -->\n<project xmlns=\"http://www.plcopen.org/xml/tc6_0201\">\n  <types{attrs}/></project>"
    );
    let e = errors(&xml);
    assert!(e.contains("refused.xml:4:3: this element has more than 64 attributes"), "{}", &e[..e.len().min(300)]);
    let few: String = (0..64).map(|i| format!(" a{i}=\"x\"")).collect();
    let ok = xml.replace(&attrs, &few);
    assert!(!errors(&ok).contains("attributes"), "64 are read");
}

/// A function block inside a FUNCTION is refused at the block (a function keeps no state
/// between calls in IEC; here the timer kept it); two programs and no task: the import says
/// which one it took.
#[test]
fn a_function_block_in_a_function_is_refused_and_the_program_taken_is_named() {
    let xml = r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><pous>
    <pou name="f" pouType="function">
      <interface><returnType><BOOL/></returnType><inputVars><variable name="x"><type><BOOL/></type></variable></inputVars>
        <localVars><variable name="t"><type><derived name="TON"/></type></variable></localVars></interface>
      <body><FBD>
        <inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>x</expression></inVariable>
        <inVariable localId="2"><position x="0" y="40"/><connectionPointOut/><expression>T#1s</expression></inVariable>
        <block localId="3" typeName="TON" instanceName="t"><position x="80" y="0"/>
          <inputVariables>
            <variable formalParameter="IN"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable>
            <variable formalParameter="PT"><connectionPointIn><connection refLocalId="2"/></connectionPointIn></variable>
          </inputVariables><inOutVariables/>
          <outputVariables><variable formalParameter="Q"><connectionPointOut/></variable><variable formalParameter="ET"><connectionPointOut/></variable></outputVariables>
        </block>
        <outVariable localId="4"><position x="200" y="0"/><connectionPointIn><connection refLocalId="3" formalParameter="Q"/></connectionPointIn><expression>f</expression></outVariable>
      </FBD></body>
    </pou>
    <pou name="p" pouType="program"><interface/><body><FBD/></body></pou>
  </pous></types>
</project>"#;
    let e = errors(xml);
    let line = xml.lines().position(|l| l.contains("<block localId=\"3\"")).expect("block") + 1;
    assert!(
        e.contains(&format!("refused.xml:{line}:"))
            && e.contains("function `f`: `t` (TON) is a function block instance"),
        "{e}"
    );
    let two = r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><pous>
    <pou name="first" pouType="program"><interface/><body><FBD/></body></pou>
    <pou name="second" pouType="program"><interface/><body><FBD/></body></pou>
  </pous></types>
</project>"#;
    let imported = fbd_plcopen::import(Path::new("two.xml"), two).expect("imports");
    assert!(
        imported.warnings.iter().any(|w| w.contains("imported `first`, the first of 2 programs (first, second)")),
        "{:?}",
        imported.warnings
    );
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
    // CODESYS's `typeName=""` names the program by the instance's name: here `i`, no POU.
    let e = errors(&xml);
    assert!(e.contains("refused.xml:10:") && e.contains("the task runs `i`, which is no program POU"), "{e}");
    let codesys = xml.replace(r#"name="i" typeName="""#, r#"name="p" typeName="""#);
    let imported = fbd_plcopen::import(Path::new("codesys.xml"), &codesys).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        imported.doc.blocks.is_empty() && imported.warnings.is_empty(),
        "CODESYS's PLC_PRG-style instance runs its POU"
    );
    // CODESYS's ISO 8601 interval is read: the same file naming its program imports at 20 ms.
    let named = xml.replace(r#"typeName="""#, r#"typeName="p""#);
    let imported = fbd_plcopen::import(Path::new("iso.xml"), &named).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imported.doc.cycle_ms, Some(20.0));
}
