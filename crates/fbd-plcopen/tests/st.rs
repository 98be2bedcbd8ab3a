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

#[test]
fn an_st_function_starts_afresh_at_each_call_and_is_called_from_st() {
    let xml =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/st-function.xml")).expect("reads");
    let imported = fbd_plcopen::import(Path::new("st-function.xml"), &xml).expect("imports");
    let project = fbd_plcopen::imported_project(&imported, Path::new("st-function.xml")).expect("compiles");
    let plan = fbd_compiler::compile_project(&project, &Default::default()).expect("compiles");
    let mut rt = fbd_engine::Runtime::new(plan);
    let mut m = Vec::new();
    let mut n = Vec::new();
    for _ in 0..4 {
        rt.set_input("a", fbd_engine::Value::Int(3)).expect("a");
        rt.step();
        m.push(rt.read("m").expect("m").as_i64().expect("an INT"));
        n.push(rt.read("n").expect("n").as_i64().expect("an INT"));
    }
    // scale(1, 0): acc starts at 5 every call, 5 + 1 = 6, k = 0: the result -6.
    assert_eq!(m, [-6, -12, -18, -24], "a FUNCTION's local does not keep its value");
    // scale(3, 0) = -8 (the counter's CV is 0: no rising edge of `go`), scale(1, 2) = 12.
    assert_eq!(n, [4, 4, 4, 4]);
}

#[test]
fn an_error_the_compiler_finds_in_the_text_is_at_its_xml_place() {
    let xml = project("n := 1;\nn := nn + 1;");
    let imported = fbd_plcopen::import(Path::new("p.xml"), &xml).expect("parses");
    let err = fbd_plcopen::imported_project(&imported, Path::new("p.xml")).expect_err("an unknown name");
    let d = &err.0[0];
    // Line 2 of the text is line 13 of the file; `nn` at column 6.
    assert_eq!((d.line, d.col), (Some(13), Some(6)), "{d}");
    assert!(d.message.contains("ST 2:6: unknown name `nn` (did you mean `n`?)"), "{d}");
}

#[allow(dead_code)] // the other tests' helpers
mod common;

/// `fbd export` writes an ST function block back as ST (its text in a CDATA section, its
/// variables and instances declared), and its import computes the same values scan for scan.
/// (Beremiz + matiec build it to the same values: docs/plcopen.md.)
#[test]
fn an_st_function_block_goes_out_as_st_and_comes_back_the_same() {
    let (project, xml) = common::exported("examples/batch-st.json");
    assert!(xml.contains("<ST>") && xml.contains("<xhtml:p><![CDATA[start_edge(CLK := start);"), "written as ST");
    assert!(xml.contains("<variable name=\"mix_t\"><type><derived name=\"TON\"/>"), "its instances declared");
    let back = fbd_plcopen::import(Path::new("batch-st.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let batch = back.doc.macros.iter().find(|m| m.name == "BATCH").expect("the function block");
    assert_eq!(batch.st, project.macro_def("BATCH").expect("BATCH").2.st, "the same text");
    let plan = fbd_engine::compile_project(&project, &fbd_engine::CompileOptions::default()).expect("compiles");
    let mut ours = fbd_engine::Runtime::new(plan);
    let mut theirs = fbd_engine::Runtime::new(common::compile_doc(&back.doc));
    for scan in 0..1500u64 {
        let level = fbd_engine::Value::Int([0, 50, 85, 99, 3][(scan / 97 % 5) as usize]);
        for (name, v) in [
            ("start", fbd_engine::Value::Bool(scan % 400 == 1)),
            ("stop", fbd_engine::Value::Bool(scan % 1100 == 900)),
            ("level", level),
        ] {
            ours.set_input(name, v).expect(name);
            theirs.set_input(name, v).expect(name);
        }
        ours.step();
        theirs.step();
        for out in ["fill", "mix", "drain", "stage", "batches", "overfill"] {
            assert_eq!(ours.output(out), theirs.output(out), "{out} at scan {scan}");
        }
    }
    assert!(ours.output("batches").and_then(|v| v.as_i64()).is_some_and(|b| b > 0), "batches ran");
}

/// A name another IEC tool reads as a keyword (`step`, of SFC) in an ST body: the export
/// refuses, naming it, rather than write a text matiec cannot compile.
#[test]
fn an_st_body_naming_a_keyword_is_not_exported() {
    let text = r#"{"fbd": 6, "variables": [{"name": "step", "type": "INT"}],
      "outputs": [{"name": "n", "type": "INT", "from": "step"}], "st": ["step := step + 1;"]}"#;
    let project = fbd_engine::load::project_of_document(
        Path::new("s.json"),
        fbd_engine::load::parse_document(Path::new("s.json"), text).expect("parses"),
        text.to_string(),
    )
    .expect("loads");
    let why = fbd_plcopen::not_exportable(&project).expect("refused");
    assert!(why.contains("naming `step`") && why.contains("rename it"), "{why}");
}

/// An imported ST FUNCTION (called from ST and from FBD) is exported as a FUNCTION: its return
/// type, its locals with their initial values, called without an instance; imported back it
/// computes what it computed (Beremiz + matiec run the export alike: docs/plcopen.md).
#[test]
fn an_st_function_is_exported_as_a_function_and_imported_back_the_same() {
    let xml =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/st-function.xml")).expect("reads");
    let imported = fbd_plcopen::import(Path::new("st-function.xml"), &xml).expect("imports");
    let project = fbd_plcopen::imported_project(&imported, Path::new("st-function.xml")).expect("compiles");
    assert_eq!(fbd_plcopen::not_exportable(&project), None);
    let plan = fbd_compiler::compile_project(&project, &Default::default()).expect("compiles");
    let exported = fbd_plcopen::export(&project, &plan);
    assert!(exported.contains(r#"pouType="function""#) && exported.contains("<returnType><INT/></returnType>"));
    assert!(!exported.contains(r#"typeName="scale" instanceName"#), "a FUNCTION has no instance");
    let again = fbd_plcopen::import(Path::new("again.xml"), &exported).expect("the export imports");
    let again = fbd_plcopen::imported_project(&again, Path::new("again.xml")).expect("and compiles");
    let (mut a, mut b) = (
        fbd_engine::Runtime::new(plan),
        fbd_engine::Runtime::new(fbd_compiler::compile_project(&again, &Default::default()).expect("compiles")),
    );
    for k in 0..50 {
        for rt in [&mut a, &mut b] {
            rt.set_input("a", fbd_engine::Value::Int(k % 7 - 3)).expect("a");
            rt.step();
        }
        for o in ["m", "n"] {
            assert_eq!(a.read(o).expect(o), b.read(o).expect(o), "scan {k}: `{o}`");
        }
    }
}

/// An enumeration of the file's `dataTypes` (one with an initial value of its own, one whose
/// value name another shares): its variables imported in an ST body, run by name, and written
/// back as the file had them.
#[test]
fn an_enumeration_is_imported_run_and_exported_by_its_values_names() {
    let types = r#"<dataTypes>
    <dataType name="Mode"><baseType><enum><values><value name="idle"/><value name="run"/><value name="hold"/></values></enum></baseType></dataType>
    <dataType name="Lamp"><baseType><enum><values><value name="off"/><value name="hold"/></values></enum></baseType><initialValue><simpleValue value="Lamp#hold"/></initialValue></dataType>
  </dataTypes>"#;
    let body = "IF go THEN m := run; ELSIF m = run THEN m := Mode#hold; END_IF;\n\
                CASE m OF idle: n := 1; run: n := 2; ELSE n := 3; END_CASE;\n\
                IF lamp = Lamp#hold AND m = Mode#hold THEN n := n + 10; lamp := off; END_IF;";
    let xml = project(body).replace("<dataTypes/>", types).replace(
        "<localVars><variable name=\"c\">",
        "<localVars><variable name=\"m\"><type><derived name=\"Mode\"/></type></variable>\
         <variable name=\"lamp\"><type><derived name=\"Lamp\"/></type></variable><variable name=\"c\">",
    );
    let imported = fbd_plcopen::import(Path::new("p.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imported.doc.types.len(), 2);
    let run = |doc: &fbd_model::model::Document| {
        let mut rt = fbd_engine::Runtime::new(common::compile_doc(doc));
        (0..5)
            .map(|k| {
                rt.set_input("go", fbd_engine::Value::Bool(k == 1)).expect("go");
                rt.step();
                rt.read("n").expect("n").as_i64().expect("an INT")
            })
            .collect::<Vec<i64>>()
    };
    // idle; go: run; then hold with the lamp on (its type's init): 13, the lamp off: 3.
    assert_eq!(run(&imported.doc), [1, 2, 13, 3, 3]);
    let project = fbd_plcopen::imported_project(&imported, Path::new("p.xml")).expect("a project");
    let plan = fbd_compiler::compile_project(&project, &Default::default()).expect("compiles");
    let out = fbd_plcopen::export(&project, &plan);
    assert!(out.contains(r#"<dataType name="Lamp"><baseType><enum><values><value name="off"/><value name="hold"/></values></enum></baseType><initialValue><simpleValue value="Lamp#hold"/>"#), "{out}");
    assert!(out.contains(r#"<variable name="m"><type><derived name="Mode"/></type></variable>"#), "{out}");
    let back = fbd_plcopen::import(Path::new("back.xml"), &out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    assert_eq!(back.doc.types, imported.doc.types);
    assert_eq!(run(&back.doc), [1, 2, 13, 3, 3]);
}

/// An enumeration's variable in an FBD body is refused at its declaration, saying where
/// enumerations are imported.
#[test]
fn an_enumeration_in_an_fbd_body_is_refused_at_its_place() {
    let xml = project("n := 1;")
        .replace("<dataTypes/>", r#"<dataTypes><dataType name="Mode"><baseType><enum><values><value name="a"/></values></enum></baseType></dataType></dataTypes>"#)
        .replace("<localVars><variable name=\"c\">", "<localVars><variable name=\"m\"><type><derived name=\"Mode\"/></type></variable><variable name=\"c\">")
        .replace("<body><ST><xhtml:p><![CDATA[n := 1;]]></xhtml:p></ST></body>", "<body><FBD/></body>");
    let err = fbd_plcopen::import(Path::new("p.xml"), &xml).expect_err("refused").to_string();
    assert!(
        err.contains("p.xml:10:20:")
            && err.contains(
                "variable `m` is of `Mode`, an enumeration; enumerations are imported in Structured Text bodies so far"
            ),
        "{err}"
    );
}

/// Arrays in an ST body: one of a type the file names in its `dataTypes`, one written out in
/// the variable, their `arrayValue`s (a `repeatCount` too): imported, run, exported as the file
/// had them and imported back the same.
#[test]
fn arrays_are_imported_run_and_exported_with_their_initial_elements() {
    let types = r#"<dataTypes>
    <dataType name="Row"><baseType><array><dimension lower="1" upper="3"/><baseType><INT/></baseType></array></baseType></dataType>
  </dataTypes>"#;
    let body = "row[LIMIT(1, n + 1, 3)] := row[1] + 1;\n\
                grid[1, 0] := NOT grid[0, 1];\n\
                n := row[1] + row[2] * 10 + row[3] * 100 + BOOL_TO_INT(grid[1, 0]) * 1000;";
    let xml = project(body).replace("<dataTypes/>", types).replace(
        "<localVars><variable name=\"c\">",
        "<localVars><variable name=\"row\"><type><derived name=\"Row\"/></type><initialValue><arrayValue>\
         <value repeatCount=\"2\"><simpleValue value=\"4\"/></value></arrayValue></initialValue></variable>\
         <variable name=\"grid\"><type><array><dimension lower=\"0\" upper=\"1\"/><dimension lower=\"0\" upper=\"1\"/>\
         <baseType><BOOL/></baseType></array></type></variable><variable name=\"c\">",
    );
    let imported = fbd_plcopen::import(Path::new("p.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let row = imported.doc.variables.iter().find(|v| v.name == "row").expect("row");
    assert_eq!(row.init_elements.len(), 2, "repeatCount 2");
    let run = |doc: &fbd_model::model::Document| {
        let mut rt = fbd_engine::Runtime::new(common::compile_doc(doc));
        (0..4)
            .map(|_| {
                rt.step();
                rt.read("n").expect("n").as_i64().expect("an INT")
            })
            .collect::<Vec<i64>>()
    };
    // row starts [4, 4, 0]; scan 0 writes row[1] := 5 (n was 0), then row[3] := 6 (n is 1045).
    let got = run(&imported.doc);
    assert_eq!(got, [1045, 1645, 1645, 1645]);
    let project = fbd_plcopen::imported_project(&imported, Path::new("p.xml")).expect("a project");
    let plan = fbd_compiler::compile_project(&project, &Default::default()).expect("compiles");
    let out = fbd_plcopen::export(&project, &plan);
    assert!(out.contains(r#"<dataType name="Row"><baseType><array><dimension lower="1" upper="3"/><baseType><INT/></baseType></array></baseType></dataType>"#), "{out}");
    assert!(out.contains(r#"<variable name="grid"><type><array><dimension lower="0" upper="1"/><dimension lower="0" upper="1"/><baseType><BOOL/></baseType></array></type></variable>"#), "{out}");
    let back = fbd_plcopen::import(Path::new("back.xml"), &out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    assert_eq!(back.doc.types, imported.doc.types);
    assert_eq!(run(&back.doc), got);
}

/// An array's variable in an FBD body is refused at its declaration.
#[test]
fn an_array_in_an_fbd_body_is_refused_at_its_place() {
    let xml = project("n := 1;")
        .replace("<localVars><variable name=\"c\">", "<localVars><variable name=\"m\"><type><array><dimension lower=\"0\" upper=\"1\"/><baseType><INT/></baseType></array></type></variable><variable name=\"c\">")
        .replace("<body><ST><xhtml:p><![CDATA[n := 1;]]></xhtml:p></ST></body>", "<body><FBD/></body>");
    let err = fbd_plcopen::import(Path::new("p.xml"), &xml).expect_err("refused").to_string();
    assert!(
        err.contains("p.xml:10:20:")
            && err.contains(
                "variable `m` is an array (ARRAY[0..1] OF INT); arrays are imported in Structured Text bodies so far"
            ),
        "{err}"
    );
}

/// A port named like an enumeration's value would be a variable of that name in the export,
/// which matiec reads instead of the value: the export renames it (as it renames a reserved
/// word), so the text's `state := running` still names the value.
#[test]
fn a_port_named_like_an_enumeration_s_value_is_renamed_in_the_export() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/weigh-station-st.json"))
        .expect("example")
        .replace(r#""name": "run_lamp""#, r#""name": "running""#);
    let path = std::path::Path::new("ws.json");
    let project = fbd_engine::load::load_text(&fbd_engine::MemProvider::default(), path, text).expect("loads");
    let plan = fbd_engine::compile_project(&project, &fbd_engine::CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    assert!(xml.contains(r#"<variable name="FBD_running">"#), "renamed");
    assert!(!xml.contains(r#"<variable name="running">"#), "no variable hides the value");
    assert!(xml.contains("state := running;"), "the text still names the value");
}
