//! ST bodies imported: the text kept and run, a syntax error at the XML file's line and column.

use std::path::Path;

fn project(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <fileHeader companyName="t" productName="t" productVersion="1" creationDateTime="2026-01-01T00:00:00"/>
  <contentHeader name="t"><coordinateInfo><fbd><scaling x="1" y="1"/></fbd><ld><scaling x="1" y="1"/></ld><sfc><scaling x="1" y="1"/></sfc></coordinateInfo></contentHeader>
  <types><dataTypes/><pous>
    <pou name="main" pouType="program">
      <interface>
        <inputVars><variable name="go"><type><BOOL/></type></variable></inputVars>
        <outputVars><variable name="n"><type><INT/></type></variable></outputVars>
        <localVars><variable name="c"><type><derived name="CTU"/></type></variable></localVars>
      </interface>
      <body><ST><xhtml:p><![CDATA[{body}]]></xhtml:p></ST></body>
    </pou>
  </pous></types>
  <instances><configurations><configuration name="config"><resource name="r">
    <task name="t" interval="T#20ms" priority="0"><pouInstance name="i" typeName="main"/></task>
  </resource></configuration></configurations></instances>
</project>
"#
    )
}

#[test]
fn an_st_program_imports_and_runs_its_counter() {
    let xml = project("c(CU := go, PV := 3);\nn := c.CV * 10;");
    let imported = fbd_plcopen::import(Path::new("p.xml"), &xml).expect("imports");
    assert_eq!(imported.doc.st.len(), 2, "the text is kept");
    let project = fbd_plcopen::imported_project(&imported, Path::new("p.xml")).expect("compiles");
    let plan = fbd_compiler::compile_project(&project, &Default::default()).expect("compiles");
    let mut rt = fbd_engine::Runtime::new(plan);
    let mut got = Vec::new();
    for k in 0..6 {
        rt.set_input("go", fbd_engine::Value::Bool(k % 2 == 1)).expect("go");
        rt.step();
        got.push(rt.read("n").expect("n").as_i64().expect("an INT"));
    }
    assert_eq!(got, [0, 10, 10, 20, 20, 30]);
}

#[test]
fn a_syntax_error_is_at_the_xml_line_and_column_of_the_text() {
    let xml = project("n := 1;\nn := n +;");
    let err = fbd_plcopen::import(Path::new("p.xml"), &xml).expect_err("refused");
    let d = &err.0[0];
    // The CDATA starts on line 12; the second ST line is line 13, its `;` at column 9.
    assert_eq!((d.line, d.col), (Some(13), Some(9)), "{d}");
    assert!(d.message.contains("ST 2:9: expected an expression"), "{d}");
}
