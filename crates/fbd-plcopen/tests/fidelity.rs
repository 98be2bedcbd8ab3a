//! Values an imported program computes as the PLC computes them, where the import once
//! computed others without a word. Each expected trace is what Beremiz's generator + matiec
//! compute for the same file (tools/plcopen/beremiz-check.py: 0 differences over 400 scans).

use fbd_engine::Value;

#[allow(dead_code)] // `data` and `exported` are for the other tests
mod common;
use common::{block, project, trace, var_in, var_out};

/// A self-resetting TON drawn with its `Q` negated into its own `IN` (OpenPLC's blinker): the
/// PLC reads NOT Q, TRUE, before the first call, so the timer starts at once. The feedback
/// read FALSE first, and the lamp ran one scan late for ever.
#[test]
fn a_feedback_through_a_negated_output_reads_not_q_before_the_first_call() {
    let vars = r#"<outputVars><variable name="lamp"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="TON0"><type><derived name="TON"/></type></variable></localVars>"#;
    let body = [
        block(1, "TON", Some("TON0"), 0, &[("IN", 1, Some("Q")), ("PT", 2, None)], &["!Q", "ET"]),
        var_in(2, 50, "T#100ms"),
        var_out(3, 0, 1, Some("Q"), "lamp"),
    ]
    .concat();
    let lamp: Vec<bool> = trace(&project("blink", vars, &body), &["lamp"], 14)
        .into_iter()
        .map(|row| row[0] == Value::Bool(true))
        .collect();
    // NOT Q: high while the 100 ms timer runs (5 scans of 20 ms), low for the scan it expires.
    let matiec = [true, true, true, true, true, false, true, true, true, true, true, true, false, true];
    assert_eq!(lamp, matiec);
}

/// A counter whose only type is its declaration (`cnt : INT`, fed by ADD with a literal) wraps
/// as an INT: at the 33rd scan of +1000 the PLC has -32536 and `positive` is FALSE (it was
/// computed as a LINT, 33000). A DINT likewise wraps at 2^31.
#[test]
fn a_local_variable_computes_in_its_declared_type() {
    for (ty, step, bits) in [("INT", 1000i64, 16u32), ("DINT", 100_000_000, 32), ("SINT", 7, 8)] {
        let vars = format!(
            r#"<outputVars><variable name="positive"><type><BOOL/></type></variable></outputVars>
            <localVars><variable name="cnt"><type><{ty}/></type></variable></localVars>"#
        );
        let body = [
            var_in(1, 0, "cnt"),
            var_in(2, 40, &step.to_string()),
            block(3, "ADD", None, 0, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
            var_out(4, 0, 3, Some("OUT"), "cnt"),
            var_in(5, 100, "cnt"),
            var_in(6, 140, "0"),
            block(7, "GT", None, 100, &[("IN1", 5, None), ("IN2", 6, None)], &["OUT"]),
            var_out(8, 100, 7, Some("OUT"), "positive"),
        ]
        .concat();
        let got = trace(&project("counter", &vars, &body), &["positive"], 40);
        let shift = 64 - bits;
        let mut wrapped = false;
        for (k, row) in got.iter().enumerate() {
            // Two's complement in the declared width, as the PLC's C computes it.
            let cnt = ((step * (k as i64 + 1)) << shift) >> shift;
            wrapped |= cnt < 0;
            assert_eq!(row[0], Value::Bool(cnt > 0), "{ty}: scan {k}, cnt = {cnt}");
        }
        assert!(wrapped, "{ty}: the run reaches the wrap");
    }
}

/// Located variables in every form the tools write keep their address and their part: an
/// `%I` is an input, a `%Q`/`%M` the body writes an output, one it only reads an input that
/// something outside sets (it was a constant 0); Beremiz's hierarchical and OpenPLC's double
/// word forms import (they were refused), and a malformed address is refused at its place.
#[test]
fn located_variables_in_every_form_keep_their_address_and_part() {
    let vars = r#"<localVars>
        <variable name="a" address="%ID0.2"><type><DINT/></type></variable>
        <variable name="b" address="%IW0.0.2.8192.0"><type><INT/></type></variable>
        <variable name="m" address="%MW3"><type><DINT/></type></variable>
        <variable name="total" address="%MD1"><type><DINT/></type></variable>
        <variable name="echo" address="%QW0"><type><INT/></type></variable>
      </localVars>"#;
    let body = [
        var_in(1, 0, "a"),
        var_in(2, 40, "m"),
        block(3, "ADD", None, 0, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
        var_out(4, 0, 3, Some("OUT"), "total"),
        var_in(5, 100, "b"),
        var_out(6, 100, 5, None, "echo"),
    ]
    .concat();
    let xml = project("located", vars, &body);
    let imported = fbd_plcopen::import(std::path::Path::new("l.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let at = |ports: Vec<(&str, Option<&str>)>, name: &str| {
        ports.iter().find(|p| p.0 == name).map(|p| p.1.map(str::to_string))
    };
    let ins: Vec<_> = imported.doc.inputs.iter().map(|p| (p.name.as_str(), p.address.as_deref())).collect();
    let outs: Vec<_> = imported.doc.outputs.iter().map(|p| (p.name.as_str(), p.address.as_deref())).collect();
    assert_eq!(at(ins.clone(), "a"), Some(Some("%ID0.2".into())));
    assert_eq!(at(ins.clone(), "b"), Some(Some("%IW0.0.2.8192.0".into())));
    assert_eq!(at(ins, "m"), Some(Some("%MW3".into())), "read only: an input");
    assert_eq!(at(outs.clone(), "total"), Some(Some("%MD1".into())), "written: an output");
    assert_eq!(at(outs, "echo"), Some(Some("%QW0".into())));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    rt.set_input("a", Value::Int(40)).expect("a");
    rt.set_input("m", Value::Int(2)).expect("m is settable");
    rt.set_input("b", Value::Int(-7)).expect("b");
    rt.step();
    assert_eq!(rt.output("total"), Some(Value::Int(42)));
    assert_eq!(rt.output("echo"), Some(Value::Int(-7)));

    for bad in ["%%", "hello"] {
        let vars =
            format!(r#"<localVars><variable name="x" address="{bad}"><type><BOOL/></type></variable></localVars>"#);
        let body = [var_in(1, 0, "x"), block(2, "NOT", None, 0, &[("IN", 1, None)], &["OUT"])].concat();
        let e = fbd_plcopen::import(std::path::Path::new("bad.xml"), &project("p", &vars, &body)).expect_err("refused");
        let e = e.to_string();
        assert!(e.contains("bad.xml:7:") && e.contains(&format!("`{bad}` is no located address")), "{e}");
    }
}

/// A program that writes its own `%IX` input: the reads after the write see what it wrote (the
/// input image is read again only at the next scan); they saw the raw input.
#[test]
fn a_write_to_an_input_variable_is_seen_by_the_reads_after_it() {
    let vars = r#"<outputVars><variable name="before"><type><BOOL/></type></variable><variable name="after"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="x" address="%IX0.0"><type><BOOL/></type></variable></localVars>"#;
    let body = [
        var_in(1, 0, "x"),
        var_out(2, 0, 1, None, "before"),
        var_in(3, 50, "x"),
        block(4, "NOT", None, 50, &[("IN", 3, None)], &["OUT"]),
        var_out(5, 50, 4, Some("OUT"), "x"),
        var_in(6, 100, "x"),
        var_out(7, 100, 6, None, "after"),
    ]
    .concat();
    let b = Value::Bool;
    assert_eq!(trace(&project("p", vars, &body), &["before", "after"], 2), vec![vec![b(false), b(true)]; 2]);
}

/// The export writes located variables where OpenPLC Editor and Beremiz do, as VARs of the
/// program with their address: matiec refuses an address in VAR_INPUT or VAR_OUTPUT ("invalid
/// input variable(s) declaration"), so every re-export of an OpenPLC program was unbuildable.
#[test]
fn the_export_declares_located_variables_as_located_vars_of_the_program() {
    let vars = r#"<localVars>
        <variable name="start" address="%IX0.0"><type><BOOL/></type></variable>
        <variable name="lamp" address="%QX0.0"><type><BOOL/></type></variable>
      </localVars><inputVars><variable name="plain"><type><BOOL/></type></variable></inputVars>"#;
    let body = [
        var_in(1, 0, "start"),
        var_in(2, 40, "plain"),
        block(3, "AND", None, 0, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
        var_out(4, 0, 3, Some("OUT"), "lamp"),
    ]
    .concat();
    let imported = fbd_plcopen::import(std::path::Path::new("l.xml"), &project("io", vars, &body))
        .unwrap_or_else(|e| panic!("{e}"));
    let text = serde_json::to_string(&imported.doc).expect("serialises");
    let p = fbd_engine::load::load_text(&fbd_engine::load::MemProvider::new(), std::path::Path::new("io.json"), text)
        .expect("loads");
    let plan = fbd_engine::compile_project(&p, &fbd_engine::CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&p, &plan);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed");
    let section = |name: &str| {
        doc.descendants()
            .find(|n| n.tag_name().name() == "variable" && n.attribute("name") == Some(name))
            .and_then(|v| v.parent())
            .map(|s| s.tag_name().name().to_string())
    };
    assert_eq!(section("start").as_deref(), Some("localVars"));
    assert_eq!(section("lamp").as_deref(), Some("localVars"));
    assert_eq!(section("plain").as_deref(), Some("inputVars"));
    for n in doc.descendants().filter(|n| matches!(n.tag_name().name(), "inputVars" | "outputVars")) {
        assert!(n.children().all(|v| v.attribute("address").is_none()), "an address in {}", n.tag_name().name());
    }
    // And back: the same ports at the same addresses.
    let back = fbd_plcopen::import(std::path::Path::new("x.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let ports = |d: &fbd_engine::model::Document| {
        let mut v: Vec<(String, Option<String>)> = d
            .inputs
            .iter()
            .map(|p| (p.name.clone(), p.address.clone()))
            .chain(d.outputs.iter().map(|p| (p.name.clone(), p.address.clone())))
            .collect();
        v.sort();
        v
    };
    assert_eq!(ports(&back.doc), ports(&imported.doc));
}

/// A variable written by two outVariables (legal IEC): the reads between the writes see the
/// first, the scan leaves the last (it was refused, "one driver per variable").
#[test]
fn a_variable_written_twice_is_read_between_the_writes_as_the_first() {
    let vars = r#"<inputVars><variable name="a"><type><BOOL/></type></variable></inputVars>
        <outputVars><variable name="x"><type><BOOL/></type></variable><variable name="mid"><type><BOOL/></type></variable></outputVars>"#;
    let body = [
        var_in(1, 0, "a"),
        var_out(2, 0, 1, None, "x"),
        var_in(3, 50, "x"),
        var_out(4, 50, 3, None, "mid"),
        block(5, "NOT", None, 100, &[("IN", 1, None)], &["OUT"]),
        var_out(6, 100, 5, Some("OUT"), "x"),
    ]
    .concat();
    let imported = fbd_plcopen::import(std::path::Path::new("w.xml"), &project("p", vars, &body))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    for a in [false, true, true, false] {
        rt.set_input("a", Value::Bool(a)).expect("a");
        rt.step();
        assert_eq!((rt.output("mid"), rt.output("x")), (Some(Value::Bool(a)), Some(Value::Bool(!a))), "a = {a}");
    }
}

/// Blocks and types of extension libraries (OpenPLC Editor's MQTT, Beremiz's python_poll and
/// svghmi's HMI_INT) import as stand-ins: the library's interface, outputs held at their
/// defaults, written and forced from outside, and said at import; an extension's global (a
/// VAR_EXTERNAL no configuration declares) is a variable something outside sets.
#[test]
fn extension_blocks_types_and_globals_import_as_stand_ins() {
    let vars = r#"<externalVars><variable name="MQTT_STATUS"><type><INT/></type></variable></externalVars>
        <outputVars><variable name="sent"><type><BOOL/></type></variable><variable name="level"><type><DINT/></type></variable>
          <variable name="reply"><type><string/></type></variable></outputVars>
        <localVars><variable name="MQTT_SEND0"><type><derived name="MQTT_SEND"/></type></variable>
          <variable name="python_poll0"><type><derived name="python_poll"/></type></variable>
          <variable name="shown"><type><derived name="HMI_INT"/></type></variable></localVars>"#;
    let body = [
        var_in(1, 0, "TRUE"),
        var_in(2, 20, "'plant/level'"),
        var_in(3, 40, "'42'"),
        block(
            4,
            "MQTT_SEND",
            Some("MQTT_SEND0"),
            0,
            &[("SEND", 1, None), ("TOPIC", 2, None), ("MESSAGE", 3, None)],
            &["SUCCESS"],
        ),
        var_out(5, 0, 4, Some("SUCCESS"), "sent"),
        block(6, "python_poll", Some("python_poll0"), 100, &[("TRIG", 1, None), ("CODE", 2, None)], &["ACK", "RESULT"]),
        var_out(7, 100, 6, Some("RESULT"), "reply"),
        var_in(8, 200, "MQTT_STATUS"),
        var_in(9, 240, "shown"),
        block(10, "ADD", None, 200, &[("IN1", 8, None), ("IN2", 9, None)], &["OUT"]),
        block(11, "INT_TO_DINT", None, 200, &[("IN", 10, Some("OUT"))], &["OUT"]),
        var_out(12, 200, 11, Some("OUT"), "level"),
    ]
    .concat();
    let imported = fbd_plcopen::import(std::path::Path::new("x.xml"), &project("p", vars, &body))
        .unwrap_or_else(|e| panic!("{e}"));
    let said = imported.warnings.join("\n");
    assert!(said.contains("stand-ins") && said.contains("MQTT_SEND") && said.contains("python_poll"), "{said}");
    assert!(said.contains("`MQTT_STATUS` is VAR_EXTERNAL"), "{said}");
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    rt.step();
    assert_eq!(rt.output("sent"), Some(Value::Bool(false)), "held at its default");
    assert_eq!(rt.output("level"), Some(Value::Int(0)));
    rt.write("MQTT_SEND0/SUCCESS.q", Value::Bool(true)).expect("a stand-in's output is writable");
    rt.force("python_poll0/RESULT.q", Value::parse("'ok'", fbd_engine::Type::String).expect("a STRING"))
        .expect("and forceable");
    rt.set_input("MQTT_STATUS", Value::Int(30000)).expect("the extension's global is set from outside");
    rt.set_input("shown", Value::Int(30000)).expect("an HMI_INT read only: an input");
    for _ in 0..3 {
        rt.step();
        assert_eq!(rt.output("sent"), Some(Value::Bool(true)), "the write stays");
    }
    assert_eq!(rt.output("reply").map(|v| v.to_string()), Some("'ok'".to_string()));
    // HMI_INT is an INT: 30000 + 30000 wraps as the PLC's.
    assert_eq!(rt.output("level"), Some(Value::Int(60000 - 65536)));
}
