//! PLCopen XML import of what other tools write: a Beremiz-style program imported and run,
//! located I/O, functions, EN, documentation and comment boxes, and errors with their places.
//! Structures are `structs.rs`; modifiers, control flow and in-out parameters `modifiers.rs`;
//! export and round trips `roundtrip.rs`.

use std::path::Path;

use fbd_engine::load::{MemProvider, load_text};
use fbd_engine::{CompileOptions, Runtime, Value, compile_project};

#[allow(dead_code)] // `exported` is for the export tests
mod common;
use common::{compile_doc, data};

#[test]
fn a_beremiz_style_blinker_imports_and_runs_with_the_task_cycle() {
    let (p, t) = data("blink.xml");
    let imported = fbd_plcopen::import(&p, &t).expect("imports");
    assert_eq!(imported.doc.cycle_ms, Some(20.0), "the task's interval is the cycle");
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    let (mut pulses, mut slow) = (Vec::new(), Vec::new());
    for scan in 0..40 {
        rt.step();
        if rt.output("pulse") == Some(Value::Bool(true)) {
            pulses.push(scan);
        }
        if rt.output("inst2_pulse") == Some(Value::Bool(true)) {
            slow.push(scan);
        }
    }
    // The file's second instance runs in its 100 ms task, every fifth scan, its outputs held
    // between (Beremiz's generator + matiec: 300 scans, 0 differences).
    let called: Vec<i32> = [5, 20, 35].iter().flat_map(|s| *s..*s + 5).collect();
    assert_eq!(slow, called);
    // TON 100 ms at 20 ms a scan: q after 5 scans; the NOT reads `pulse` of the previous scan
    // (read before written), so the timer restarts two scans later: a pulse every 7 scans.
    assert_eq!(pulses, vec![5, 12, 19, 26, 33], "{pulses:?}");
    assert_eq!(rt.output("count"), Some(Value::Int(5)), "the counter (R = NOT run) counts the rising edges");
    // The negated inputs stay negated pins, drawn as Beremiz drew them (they came in as NOT
    // blocks in front of the TON and the CTU).
    let main = imported.doc.macros.iter().find(|m| m.name == "main").expect("the program, run by two instances");
    let negated: Vec<(&str, &str, Vec<String>)> = main
        .blocks
        .iter()
        .filter(|b| !b.negated.is_empty())
        .map(|b| (b.id.as_str(), b.ty.as_str(), b.negated.to_vec()))
        .collect();
    assert_eq!(negated.len(), 2, "{negated:?}");
    assert!(negated.iter().any(|(_, ty, n)| *ty == "TON" && n == &["in"]), "{negated:?}");
    assert!(negated.iter().any(|(_, ty, n)| *ty == "CTU" && n == &["r"]), "{negated:?}");
    assert!(main.blocks.iter().all(|b| b.ty != "NOT"), "no NOT block added");
}

#[test]
fn problems_are_reported_with_their_places() {
    let p = Path::new("bad.xml");
    let e = fbd_plcopen::import(p, "<project><unclosed></project>").unwrap_err();
    assert!(e.0[0].message.contains("not well-formed") && e.0[0].line == Some(1), "{e}");
    // A file cut short is reported where it ends (the parser said 1:1).
    let e = fbd_plcopen::import(p, "<?xml version=\"1.0\"?>\n<project>\n  <types").unwrap_err();
    assert!(e.0[0].message.contains("never closed") || e.0[0].message.contains("end of stream"), "{e}");
    assert_eq!((e.0[0].line, e.0[0].col), (Some(3), Some(9)), "{e}");
    let e = fbd_plcopen::import(p, "<ppx:Project xmlns:ppx=\"www.iec.ch/public/TC65SC65BWG7TF10\"/>").unwrap_err();
    assert!(e.0[0].message.contains("IEC 61131-10"), "{e}");
    let (_, t) = data("blink.xml");
    let st = t
        .replace("<FBD>", "<IL><xhtml:p xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">LD x</xhtml:p></IL><FBD_>")
        .replace("</FBD>", "</FBD_>");
    let e = fbd_plcopen::import(p, &st).unwrap_err();
    assert!(
        e.0.iter()
            .any(|d| d.message.contains("the body is IL; only FBD, LD and ST bodies are imported") && d.line.is_some()),
        "{e}"
    );
    let lit = t.replace("T#100ms", "T#100xs").replace("typeName=\"CTU\"", "typeName=\"NO_SUCH\"");
    let e = fbd_plcopen::import(p, &lit).unwrap_err();
    // The timer's preset and the second task's interval are both `T#100xs`.
    assert_eq!(e.0.len(), 3, "every problem at once: {e}");
    assert!(e.0.iter().any(|d| d.message.contains("NO_SUCH")), "{e}");
    assert!(e.0.iter().any(|d| d.message.contains("`T#100xs`") && d.message.contains("task `slow`")), "{e}");
    assert!(e.0.iter().filter(|d| d.message.contains("T#100xs")).count() == 2, "{e}");
    // The unsupported features, each with its own message and place.
    let cases = [
        (
            t.replace("<variable formalParameter=\"PT\">", "<variable formalParameter=\"EN\" negated=\"true\"><connectionPointIn><connection refLocalId=\"9\"/></connectionPointIn></variable><variable formalParameter=\"PT\">"),
            "a negated or edge-triggered EN is not supported",
        ),
        (t.replace("<outVariable localId=\"6\">", "<outVariable localId=\"6\" storage=\"set\">"), "set/reset coils"),
        (t.replace("<expression>run</expression>", "<expression>run AND pulse</expression>"), "ST expressions in variables"),
        (t.replace("<continuation name=\"tick\"", "<continuation name=\"tock\""), "continuation `tock` has no connector"),
        (t.replace("<connection refLocalId=\"2\"/>", "<connection refLocalId=\"99\"/>"), "localId 99, which is not in this body"),
    ];
    for (xml, want) in cases {
        let e = fbd_plcopen::import(p, &xml).unwrap_err();
        assert!(e.0.iter().any(|d| d.message.contains(want) && d.line.is_some()), "want `{want}`: {e}");
    }
    // An input listed twice is two drivers: reported in the XML, not in the diagram it became
    // (the loader's error pointed into a JSON text the user never saw). Found by fuzzing.
    let (_, lights) = data("lights.xml");
    let twice = lights.replace(
        "<variable formalParameter=\"IN2\"><connectionPointIn><connection refLocalId=\"9\"/>",
        "<variable formalParameter=\"IN1\"><connectionPointIn><connection refLocalId=\"9\"/>",
    );
    assert_ne!(twice, lights);
    let e = fbd_plcopen::import(p, &twice).unwrap_err();
    assert!(
        e.0.iter().any(|d| d.message.contains("input `IN1` is connected twice (first at 82:") && d.line == Some(83)),
        "{e}"
    );
}

/// Located variables are the program's I/O; two outputs on one input are their OR.
#[test]
fn located_variables_are_io_and_a_wired_or_is_an_or() {
    let xml = r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0200">
  <types><pous>
    <pou name="io" pouType="program">
      <interface><localVars>
        <variable name="b1" address="%IX0.0"><type><BOOL/></type></variable>
        <variable name="b2" address="%IX0.1"><type><BOOL/></type></variable>
        <variable name="lamp" address="%QX0.0"><type><BOOL/></type></variable>
      </localVars></interface>
      <body><FBD>
        <inVariable localId="10000000001"><position x="0" y="0"/><connectionPointOut/><expression>b1</expression></inVariable>
        <inVariable localId="10000000002"><position x="0" y="0"/><connectionPointOut/><expression>b2</expression></inVariable>
        <outVariable localId="10000000003"><position x="0" y="0"/>
          <connectionPointIn><connection refLocalId="10000000001"/><connection refLocalId="10000000002"/></connectionPointIn>
          <expression>lamp</expression></outVariable>
      </FBD></body>
    </pou>
  </pous></types>
</project>"#;
    let imported = fbd_plcopen::import(Path::new("io.xml"), xml).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imported.doc.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), ["b1", "b2"]);
    assert_eq!(imported.doc.outputs.iter().map(|o| o.name.as_str()).collect::<Vec<_>>(), ["lamp"]);
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    for (a, b) in [(false, false), (true, false), (false, true), (true, true)] {
        rt.set_input("b1", Value::Bool(a)).expect("b1");
        rt.set_input("b2", Value::Bool(b)).expect("b2");
        rt.step();
        assert_eq!(rt.output("lamp"), Some(Value::Bool(a || b)), "{a} {b}");
    }
    // Exported again, a body without positions is laid out rather than piled at 0,0.
    let mut doc = imported.doc.clone();
    for b in doc.blocks.iter_mut() {
        b.pos = None;
    }
    let text = serde_json::to_string(&doc).expect("serialises");
    let project = load_text(&MemProvider::new(), Path::new("io.json"), text).expect("loads");
    let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    let blocks = roxmltree::Document::parse(&xml).expect("xml");
    let positions: Vec<(String, String)> = blocks
        .descendants()
        .filter(|n| n.tag_name().name() == "block")
        .filter_map(|b| b.children().find(|c| c.tag_name().name() == "position"))
        .map(|p| (p.attribute("x").unwrap_or("").to_string(), p.attribute("y").unwrap_or("").to_string()))
        .collect();
    assert!(!positions.is_empty() && positions.iter().all(|p| p.0 != "0" || p.1 != "0"), "{positions:?}");
}

/// One function block used twice, located I/O, F_TRIG and TOF, a counter through an
/// inOutVariable, a 20 ms task: the expected trace.
#[test]
fn a_traffic_light_style_program_gives_its_expected_trace() {
    let (p, t) = data("lights.xml");
    let imported = fbd_plcopen::import(&p, &t).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imported.doc.cycle_ms, Some(20.0));
    assert_eq!(imported.doc.macros.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["Pulse"]);
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    let mut red = Vec::new();
    let mut green = Vec::new();
    for scan in 0..12u64 {
        rt.set_input("b1", Value::Bool(scan < 3)).expect("b1");
        rt.set_input("b2", Value::Bool(scan < 5)).expect("b2");
        rt.step();
        red.push(rt.output("red") == Some(Value::Bool(true)));
        green.push(rt.output("green") == Some(Value::Bool(true)));
        // The counter reads its own previous value through the inOutVariable.
        assert_eq!(rt.output("count"), Some(Value::Int(scan as i64 + 1)), "scan {scan}");
    }
    let on = |v: &[bool]| v.iter().enumerate().filter(|(_, b)| **b).map(|(k, _)| k).collect::<Vec<_>>();
    // TOF 60 ms = 3 scans after the input falls (scan 3): red through scan 5.
    assert_eq!(on(&red), vec![0, 1, 2, 3, 4, 5]);
    // F_TRIG pulses at scan 5 when b2 falls; the second instance holds it 3 more scans.
    assert_eq!(on(&green), vec![5, 6, 7, 8]);
}

/// EN on a function: while EN is FALSE the call does not run and the variable it writes keeps
/// the last result; a variable written from its ENO is written only while ENO is TRUE, as
/// Beremiz generates it.
#[test]
fn en_on_a_function_holds_the_variable_it_writes() {
    let xml = r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><pous>
    <pou name="acc" pouType="program">
      <interface>
        <inputVars><variable name="go"><type><BOOL/></type></variable></inputVars>
        <outputVars><variable name="sum"><type><LINT/></type></variable><variable name="done"><type><BOOL/></type></variable></outputVars>
      </interface>
      <body><FBD>
        <inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>go</expression></inVariable>
        <inVariable localId="2"><position x="0" y="20"/><connectionPointOut/><expression>sum</expression></inVariable>
        <inVariable localId="3"><position x="0" y="40"/><connectionPointOut/><expression>1</expression></inVariable>
        <block localId="4" typeName="ADD"><position x="100" y="0"/>
          <inputVariables>
            <variable formalParameter="EN"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable>
            <variable formalParameter="IN1"><connectionPointIn><connection refLocalId="2"/></connectionPointIn></variable>
            <variable formalParameter="IN2"><connectionPointIn><connection refLocalId="3"/></connectionPointIn></variable>
          </inputVariables><inOutVariables/>
          <outputVariables>
            <variable formalParameter="ENO"><connectionPointOut/></variable>
            <variable formalParameter="OUT"><connectionPointOut/></variable>
          </outputVariables>
        </block>
        <outVariable localId="5"><position x="200" y="0"/><connectionPointIn><connection refLocalId="4" formalParameter="OUT"/></connectionPointIn><expression>sum</expression></outVariable>
        <outVariable localId="6"><position x="200" y="20"/><connectionPointIn><connection refLocalId="4" formalParameter="ENO"/></connectionPointIn><expression>done</expression></outVariable>
      </FBD></body>
    </pou>
  </pous></types>
</project>"#;
    let imported = fbd_plcopen::import(Path::new("acc.xml"), xml).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    let mut trace = Vec::new();
    for scan in 0..8 {
        rt.set_input("go", Value::Bool(!(3..6).contains(&scan))).expect("go");
        rt.step();
        trace.push((rt.output("sum"), rt.output("done")));
    }
    let sums: Vec<i64> = trace
        .iter()
        .map(|(s, _)| match s {
            Some(Value::Int(i)) => *i,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(sums, vec![1, 2, 3, 3, 3, 3, 4, 5], "held while EN is FALSE");
    let dones: Vec<bool> = trace.iter().map(|(_, d)| *d == Some(Value::Bool(true))).collect();
    // Beremiz writes a variable straight from a block with EN only while its ENO is TRUE
    // (`IF ENO THEN done := ENO`): `done` never sees the FALSE (Beremiz's generator + matiec:
    // 0 differences; it followed ENO here before).
    assert_eq!(dones, vec![true; 8], "written only while ENO is TRUE");
    // A negated EN ran the call while `go` was TRUE all the same (the negation was dropped).
    let negated =
        xml.replace(r#"<variable formalParameter="EN">"#, r#"<variable formalParameter="EN" negated="true">"#);
    assert_ne!(negated, xml);
    let e = fbd_plcopen::import(Path::new("acc.xml"), &negated).unwrap_err();
    assert!(
        e.0.iter().any(|d| d.message.contains("a negated or edge-triggered EN is not supported") && d.line == Some(15)),
        "{e}"
    );
}

/// A user FUNCTION with an FBD body: its result (`returnType`) is written, and read back, by
/// the function's name in the body, and a call reads it as `OUT` (Beremiz, OpenPLC Editor) or
/// from an unnamed output. Its import used to fail with "`F` is written but not declared".
#[test]
fn a_user_function_returns_its_result_through_its_name() {
    let call = |id: u32, x: u32, out: &str| {
        format!(
            r#"<block localId="{id}" typeName="Clamp10"><position x="100" y="{id}"/>
          <inputVariables><variable formalParameter="X"><connectionPointIn><connection refLocalId="{x}"/></connectionPointIn></variable></inputVariables>
          <inOutVariables/><outputVariables><variable formalParameter="{out}"><connectionPointOut/></variable></outputVariables>
        </block>"#
        )
    };
    let xml = format!(
        r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><pous>
    <pou name="Clamp10" pouType="function">
      <interface>
        <returnType><INT/></returnType>
        <inputVars><variable name="X"><type><INT/></type></variable></inputVars>
      </interface>
      <body><FBD>
        <inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>X</expression></inVariable>
        <inVariable localId="2"><position x="0" y="20"/><connectionPointOut/><expression>10</expression></inVariable>
        <block localId="3" typeName="MIN"><position x="100" y="0"/>
          <inputVariables>
            <variable formalParameter="IN1"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable>
            <variable formalParameter="IN2"><connectionPointIn><connection refLocalId="2"/></connectionPointIn></variable>
          </inputVariables><inOutVariables/>
          <outputVariables><variable formalParameter="OUT"><connectionPointOut/></variable></outputVariables>
        </block>
        <outVariable localId="4"><position x="200" y="0"/><connectionPointIn><connection refLocalId="3"/></connectionPointIn><expression>Clamp10</expression></outVariable>
      </FBD></body>
    </pou>
    <pou name="main" pouType="program">
      <interface>
        <inputVars><variable name="a"><type><INT/></type></variable></inputVars>
        <outputVars><variable name="beremiz"><type><INT/></type></variable><variable name="codesys"><type><INT/></type></variable></outputVars>
      </interface>
      <body><FBD>
        <inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>a</expression></inVariable>
        {}
        {}
        <outVariable localId="4"><position x="200" y="0"/><connectionPointIn><connection refLocalId="2" formalParameter="OUT"/></connectionPointIn><expression>beremiz</expression></outVariable>
        <outVariable localId="5"><position x="200" y="20"/><connectionPointIn><connection refLocalId="3"/></connectionPointIn><expression>codesys</expression></outVariable>
      </FBD></body>
    </pou>
  </pous></types>
</project>"#,
        call(2, 1, "OUT"),
        call(3, 1, "")
    );
    let imported = fbd_plcopen::import(Path::new("clamp.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    for (a, want) in [(3, 3), (10, 10), (25, 10), (-4, -4)] {
        rt.set_input("a", Value::Int(a)).expect("a");
        rt.step();
        assert_eq!(
            (rt.output("beremiz"), rt.output("codesys")),
            (Some(Value::Int(want)), Some(Value::Int(want))),
            "a = {a}"
        );
    }
    // A result of a type this runtime lacks, and a result beside an output named OUT, are said.
    let odd = xml.replace("<returnType><INT/></returnType>", "<returnType><derived name=\"S_STATUS\"/></returnType>");
    let e = fbd_plcopen::import(Path::new("clamp.xml"), &odd).expect_err("refused").to_string();
    assert!(e.contains("clamp.xml:6:") && e.contains("function `Clamp10` returns S_STATUS"), "{e}");
    let twice = xml.replace(
        "<inputVars><variable name=\"X\">",
        "<outputVars><variable name=\"OUT\"><type><INT/></type></variable></outputVars><inputVars><variable name=\"X\">",
    );
    let e = fbd_plcopen::import(Path::new("clamp.xml"), &twice).expect_err("refused").to_string();
    assert!(e.contains("declares an output `OUT` as well as a result"), "{e}");
}

/// A file from CODESYS or Beremiz: a block's documentation becomes its comment (shown on hover),
/// the POU's documentation and the free comment boxes of its body (top to bottom) its
/// description, a variable's documentation its port's.
#[test]
fn documentation_and_comment_boxes_of_another_tool_are_imported() {
    let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <fileHeader companyName="x" productName="x" productVersion="1" creationDateTime="2020-01-01T00:00:00"/>
  <contentHeader name="p"><coordinateInfo><fbd><scaling x="1" y="1"/></fbd><ld><scaling x="1" y="1"/></ld><sfc><scaling x="1" y="1"/></sfc></coordinateInfo></contentHeader>
  <types><dataTypes/><pous>
    <pou name="main" pouType="program">
      <interface>
        <inputVars><variable name="go"><type><BOOL/></type><documentation><xhtml:p>start button</xhtml:p></documentation></variable></inputVars>
        <outputVars><variable name="lamp"><type><BOOL/></type></variable></outputVars>
      </interface>
      <body><FBD>
        <comment localId="9" height="40" width="200"><position x="10" y="300"/><content><xhtml:p><![CDATA[Second note,
            on two lines]]></xhtml:p></content></comment>
        <comment localId="8" height="40" width="200"><position x="10" y="5"/><content><xhtml:p>First note</xhtml:p></content></comment>
        <inVariable localId="1"><position x="0" y="50"/><connectionPointOut/><expression>go</expression></inVariable>
        <block localId="2" typeName="NOT"><position x="100" y="50"/>
          <inputVariables><variable formalParameter="IN"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable></inputVariables>
          <inOutVariables/><outputVariables><variable formalParameter="OUT"><connectionPointOut/></variable></outputVariables>
          <documentation><xhtml:p>the lamp is off while the button is held</xhtml:p></documentation>
        </block>
        <outVariable localId="3"><position x="200" y="50"/><connectionPointIn><connection refLocalId="2" formalParameter="OUT"/></connectionPointIn><expression>lamp</expression></outVariable>
      </FBD></body>
      <documentation><xhtml:p>A lamp and a button.</xhtml:p></documentation>
    </pou>
  </pous></types>
  <instances><configurations><configuration name="c"><resource name="r"><task name="t" interval="T#10ms" priority="0"><pouInstance name="i" typeName="main"/></task></resource></configuration></configurations></instances>
</project>"#;
    let doc = fbd_plcopen::import(Path::new("p.xml"), xml).unwrap_or_else(|e| panic!("{e}")).doc;
    assert_eq!(doc.blocks.len(), 1);
    assert_eq!(doc.blocks[0].comment.as_deref(), Some("the lamp is off while the button is held"));
    assert_eq!(doc.description.as_deref(), Some("A lamp and a button.\n\nFirst note\n\nSecond note,\non two lines"));
    assert_eq!(doc.inputs[0].description.as_deref(), Some("start button"));
    assert_eq!(doc.outputs[0].description, None);
}

/// A block standing far outside any drawing (1e30, as a broken or generated file may have it)
/// would make the program fail to load at a place in a file the user never saw: the body is
/// laid out anew instead, with a warning, and the program runs as before.
#[test]
fn positions_outside_the_drawing_are_dropped_with_a_warning() {
    let (p, t) = data("blink.xml");
    let t = t.replacen("<position x=\"120\" y=\"30\"/>", "<position x=\"1e30\" y=\"30\"/>", 1);
    let imported = fbd_plcopen::import(&p, &t).expect("imports");
    assert!(imported.doc.blocks.iter().all(|b| b.pos.is_none()), "the body is laid out anew");
    assert!(
        imported.warnings.iter().any(|w| w.contains("outside the drawing") && w.contains("laid out anew")),
        "{:?}",
        imported.warnings
    );
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    for _ in 0..40 {
        rt.step();
    }
    assert_eq!(rt.output("count"), Some(Value::Int(5)), "runs as before");
}

/// A function block's output read by a block that runs before it (explicit execution order)
/// is its last call's value, last scan's, as an IEC runtime computes it: here an ADD (order 1)
/// reads a counter (order 2). It was read as this scan's value (2 on the first edge, not 1).
#[test]
fn a_function_block_read_before_its_call_gives_last_scans_value() {
    let xml = r#"<?xml version="1.0"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <types><pous>
    <pou name="early" pouType="program">
      <interface>
        <inputVars><variable name="tick"><type><BOOL/></type></variable></inputVars>
        <outputVars><variable name="y"><type><LINT/></type></variable><variable name="cv"><type><LINT/></type></variable></outputVars>
        <localVars><variable name="ctr"><type><derived name="CTU"/></type></variable></localVars>
      </interface>
      <body><FBD>
        <inVariable localId="1"><position x="0" y="0"/><connectionPointOut/><expression>tick</expression></inVariable>
        <inVariable localId="2"><position x="0" y="40"/><connectionPointOut/><expression>1</expression></inVariable>
        <inVariable localId="3"><position x="0" y="80"/><connectionPointOut/><expression>100</expression></inVariable>
        <block localId="4" typeName="ADD" executionOrderId="1"><position x="100" y="0"/>
          <inputVariables>
            <variable formalParameter="IN1"><connectionPointIn><connection refLocalId="5" formalParameter="CV"/></connectionPointIn></variable>
            <variable formalParameter="IN2"><connectionPointIn><connection refLocalId="2"/></connectionPointIn></variable>
          </inputVariables><inOutVariables/>
          <outputVariables><variable formalParameter="OUT"><connectionPointOut/></variable></outputVariables>
        </block>
        <block localId="5" typeName="CTU" instanceName="ctr" executionOrderId="2"><position x="100" y="100"/>
          <inputVariables>
            <variable formalParameter="CU"><connectionPointIn><connection refLocalId="1"/></connectionPointIn></variable>
            <variable formalParameter="PV"><connectionPointIn><connection refLocalId="3"/></connectionPointIn></variable>
          </inputVariables><inOutVariables/>
          <outputVariables>
            <variable formalParameter="Q"><connectionPointOut/></variable>
            <variable formalParameter="CV"><connectionPointOut/></variable>
          </outputVariables>
        </block>
        <outVariable localId="6" executionOrderId="3"><position x="200" y="0"/><connectionPointIn><connection refLocalId="4" formalParameter="OUT"/></connectionPointIn><expression>y</expression></outVariable>
        <outVariable localId="7" executionOrderId="3"><position x="200" y="100"/><connectionPointIn><connection refLocalId="5" formalParameter="CV"/></connectionPointIn><expression>cv</expression></outVariable>
      </FBD></body>
    </pou>
  </pous></types>
</project>"#;
    let imported = fbd_plcopen::import(Path::new("early.xml"), xml).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(compile_doc(&imported.doc));
    let mut ys = Vec::new();
    for tick in [true, false, true, false] {
        rt.set_input("tick", Value::Bool(tick)).expect("tick");
        rt.step();
        ys.push((rt.output("y"), rt.output("cv")));
    }
    let i = |v| Some(Value::Int(v));
    assert_eq!(ys, vec![(i(1), i(1)), (i(2), i(1)), (i(2), i(2)), (i(3), i(2))], "y is last scan's count + 1");
}
