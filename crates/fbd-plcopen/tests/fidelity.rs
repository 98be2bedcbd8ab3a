//! Values an imported program computes as the PLC computes them, where the import once
//! computed others without a word. Each expected trace is what Beremiz's generator + matiec
//! compute for the same file (tools/plcopen/beremiz-check.py: 0 differences over 400 scans).

use fbd_engine::Value;

#[allow(dead_code)] // `data` and `exported` are for the other tests
mod common;
use common::{block, project, tc6, trace, var_in, var_out};

/// The counter the tests of a local's type read: `cnt : TY := ADD(cnt, STEP)`,
/// `positive := GT(cnt, 0)`.
fn counter(ty: &str, step: i64) -> String {
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
    project("counter", &vars, &body)
}

/// Elements 1 to 4 of a body: `var := ADD(var, step)`, a count the other elements read
/// (element 2 is the literal `step`).
fn count_up(var: &str, step: &str) -> String {
    [
        var_in(1, 0, var),
        var_in(2, 0, step),
        block(3, "ADD", None, 0, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
        var_out(4, 0, 3, Some("OUT"), var),
    ]
    .concat()
}

/// Each row of a trace as its values' texts joined by spaces.
fn rows_text(rows: &[Vec<Value>]) -> Vec<String> {
    rows.iter().map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")).collect()
}

/// A project's import, which must succeed.
fn import_ok(xml: &str) -> fbd_plcopen::Imported {
    fbd_plcopen::import(std::path::Path::new("fidelity.xml"), xml).unwrap_or_else(|e| panic!("{e}"))
}

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
        let got = trace(&counter(ty, step), &["positive"], 40);
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
        <variable name="m" address="%MD3"><type><DINT/></type></variable>
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
    let imported = import_ok(&xml);
    let at = |ports: Vec<(&str, Option<&str>)>, name: &str| {
        ports.iter().find(|p| p.0 == name).map(|p| p.1.map(str::to_string))
    };
    let ins: Vec<_> = imported.doc.inputs.iter().map(|p| (p.name.as_str(), p.address.as_deref())).collect();
    let outs: Vec<_> = imported.doc.outputs.iter().map(|p| (p.name.as_str(), p.address.as_deref())).collect();
    assert_eq!(at(ins.clone(), "a"), Some(Some("%ID0.2".into())));
    assert_eq!(at(ins.clone(), "b"), Some(Some("%IW0.0.2.8192.0".into())));
    assert_eq!(at(ins, "m"), Some(Some("%MD3".into())), "read only: an input");
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
    // A type of another size than its location: matiec refuses the project, so does the import.
    let vars = r#"<localVars><variable name="flow" address="%IX0.1"><type><INT/></type></variable></localVars>"#;
    let body = [var_in(1, 0, "flow"), block(2, "ABS", None, 0, &[("IN", 1, None)], &["OUT"])].concat();
    let e = fbd_plcopen::import(std::path::Path::new("size.xml"), &project("p", vars, &body)).expect_err("refused");
    assert!(
        e.to_string().contains("size.xml:7:") && e.to_string().contains("`flow`: INT is 16 bit(s) and %IX0.1 holds 1"),
        "{e}"
    );
    // Two variables at one address: refused at the second, the first named (the compiler
    // refused it later, with "please report it").
    let vars = r#"<localVars><variable name="motor" address="%Q3.0"><type><BOOL/></type></variable>
        <variable name="valve" address="%QX3.0"><type><BOOL/></type></variable></localVars>"#;
    let body = [var_in(1, 0, "TRUE"), var_out(2, 0, 1, None, "motor"), var_out(3, 40, 1, None, "valve")].concat();
    let e = fbd_plcopen::import(std::path::Path::new("twice.xml"), &project("p", vars, &body)).expect_err("refused");
    assert!(
        e.to_string().contains("twice.xml:8:")
            && e.to_string().contains("`valve` at %QX3.0: `motor` is at that address too"),
        "{e}"
    );
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
    let imported = import_ok(&project("io", vars, &body));
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
    let back = import_ok(&xml);
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
    let imported = import_ok(&project("p", vars, &body));
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
    let imported = import_ok(&project("p", vars, &body));
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

/// Every variable of an imported program answers by its IEC name, a plain local too (`cnt`:
/// "unknown signal" before): read, written where it is driven, forced, as a PLC's debugger
/// names it; a function block's locals by the instance's path.
#[test]
fn a_local_variable_answers_by_its_iec_name() {
    let imported = import_ok(&counter("INT", 1000));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    rt.step_n(3);
    assert_eq!(rt.read("cnt").ok(), Some(Value::Int(3000)));
    rt.write("cnt", Value::Int(-5000)).expect("a variable is written by its name");
    rt.step();
    assert_eq!(rt.read("cnt").ok(), Some(Value::Int(-4000)), "the program went on from the written value");
    assert_eq!(rt.output("positive"), Some(Value::Bool(false)));
    rt.force("cnt", Value::Int(7)).expect("and forced");
    rt.step_n(2);
    assert_eq!((rt.read("cnt").ok(), rt.output("positive")), (Some(Value::Int(7)), Some(Value::Bool(true))));
}

/// An input nothing drives takes its IEC default, as matiec runs it (a TON whose PT is open
/// runs with T#0s; an ADD whose IN1 the file lists open adds 0); `1` wired to a BOOL pin is
/// IEC's BOOL literal; ENO to EN to ENO is followed to the first EN. Each was refused.
#[test]
fn open_inputs_take_their_defaults_and_iec_literals_and_eno_chains_are_read() {
    let vars = r#"<inputVars><variable name="a"><type><BOOL/></type></variable><variable name="n"><type><INT/></type></variable></inputVars>
        <outputVars><variable name="q"><type><BOOL/></type></variable><variable name="sum"><type><INT/></type></variable>
          <variable name="one"><type><BOOL/></type></variable><variable name="chained"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="t"><type><derived name="TON"/></type></variable></localVars>"#;
    let open_in1 = r#"<block localId="4" typeName="ADD"><position x="100" y="100"/><inputVariables>
          <variable formalParameter="IN1"><connectionPointIn/></variable>
          <variable formalParameter="IN2"><connectionPointIn><connection refLocalId="3"/></connectionPointIn></variable>
        </inputVariables><inOutVariables/><outputVariables><variable formalParameter="OUT"><connectionPointOut/></variable></outputVariables></block>"#;
    let body = [
        var_in(1, 0, "a"),
        block(2, "TON", Some("t"), 0, &[("IN", 1, None)], &["Q", "ET"]),
        var_out(10, 0, 2, Some("Q"), "q"),
        var_in(3, 100, "n"),
        open_in1.to_string(),
        var_out(11, 100, 4, Some("OUT"), "sum"),
        var_in(5, 200, "1"),
        block(6, "AND", None, 200, &[("IN1", 5, None), ("IN2", 1, None)], &["OUT"]),
        var_out(12, 200, 6, Some("OUT"), "one"),
        // NOT with EN := a, then MOVE with EN := NOT's ENO: MOVE's ENO is `a`.
        block(7, "NOT", None, 300, &[("EN", 1, None), ("IN", 1, None)], &["ENO", "OUT"]),
        block(8, "MOVE", None, 300, &[("EN", 7, Some("ENO")), ("IN", 1, None)], &["ENO", "OUT"]),
        var_out(13, 300, 8, Some("ENO"), "chained"),
    ]
    .concat();
    let imported = import_ok(&project("p", vars, &body));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    // matiec's TON with PT = T#0s: Q the scan after IN rises (the rising scan starts it).
    for (a, n, q) in [(false, 5, false), (true, -3, false), (true, 7, true)] {
        rt.set_input("a", Value::Bool(a)).expect("a");
        rt.set_input("n", Value::Int(n)).expect("n");
        rt.step();
        let got: Vec<Option<Value>> = ["q", "sum", "one", "chained"].iter().map(|o| rt.output(o)).collect();
        let b = |x| Some(Value::Bool(x));
        assert_eq!(got, vec![b(q), Some(Value::Int(n)), b(a), b(a)], "a = {a}, n = {n}");
    }
}

/// A SINGLE (event) task on something no configuration declares is refused at its place (it
/// was run as a cyclic one, every scan; `tests/tasks.rs` runs one on a global), and a second
/// program instance runs beside the first, each with its own outputs (the second was dropped
/// silently, then said).
#[test]
fn an_event_task_on_no_global_is_refused_and_a_second_program_instance_runs() {
    let vars = r#"<outputVars><variable name="y"><type><BOOL/></type></variable></outputVars>"#;
    let body = [var_in(1, 0, "TRUE"), var_out(2, 0, 1, None, "y")].concat();
    let xml = project("p", vars, &body);
    let single =
        xml.replace(r#"<task name="t" interval="T#20ms" priority="0">"#, r#"<task name="t" single="go" priority="0">"#);
    let e = fbd_plcopen::import(std::path::Path::new("s.xml"), &single).expect_err("refused").to_string();
    assert!(e.contains("s.xml:12:") && e.contains("task `t` is SINGLE on `go`, which is no global"), "{e}");
    let two = xml.replace(
        r#"<pouInstance name="i" typeName="p"/>"#,
        r#"<pouInstance name="i" typeName="p"/><pouInstance name="j" typeName="p"/>"#,
    );
    let imported = import_ok(&two);
    let ids: Vec<&str> = imported.doc.blocks.iter().map(|b| b.id.as_str()).collect();
    assert_eq!(ids, ["i", "j"]);
    let outputs: Vec<&str> = imported.doc.outputs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(outputs, ["y", "j_y"], "the second instance's `y` is named for it");
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    rt.step();
    assert_eq!((rt.output("y"), rt.output("j_y")), (Some(Value::Bool(true)), Some(Value::Bool(true))));
}

/// A file of function blocks only (a library) imports as a library of macros, compiled and
/// usable by an instance (it was "no program POU to run").
#[test]
fn a_file_of_function_blocks_only_imports_as_a_library() {
    let fb = [
        var_in(1, 0, "a"),
        var_in(2, 40, "b"),
        block(3, "AND", None, 0, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
        var_out(4, 0, 3, Some("OUT"), "q"),
    ]
    .concat();
    let pou = format!(
        r#"<pou name="Both" pouType="functionBlock">
      <interface><inputVars><variable name="a"><type><BOOL/></type></variable><variable name="b"><type><BOOL/></type></variable></inputVars>
        <outputVars><variable name="q"><type><BOOL/></type></variable></outputVars></interface>
      <body><FBD>{fb}</FBD></body>
    </pou>"#
    );
    let xml = tc6(&pou, "");
    let path = std::path::Path::new("lib.xml");
    let imported = fbd_plcopen::import(path, &xml).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imported.doc.macros.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["Both"]);
    assert!(imported.doc.blocks.is_empty() && imported.doc.name.as_deref() == Some("order")); // the contentHeader's name
    assert!(imported.warnings.iter().any(|w| w.contains("a library of 1 function blocks")), "{:?}", imported.warnings);
    fbd_plcopen::imported_project(&imported, path).unwrap_or_else(|e| panic!("the library compiles: {e}"));
    // An instance of it computes the AND.
    let mut doc = imported.doc.clone();
    doc.inputs = serde_json::from_str(r#"[{"name": "x", "type": "BOOL"}]"#).expect("inputs");
    doc.blocks =
        serde_json::from_str(r#"[{"id": "u", "type": "Both", "inputs": {"a": "x", "b": true}}]"#).expect("blocks");
    doc.outputs = serde_json::from_str(r#"[{"name": "y", "type": "BOOL", "from": "u.q"}]"#).expect("outputs");
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&doc));
    rt.set_input("x", Value::Bool(true)).expect("x");
    rt.step();
    assert_eq!(rt.output("y"), Some(Value::Bool(true)));
}

/// A global declared by the configuration and again by its resource is refused at the second
/// declaration (the configuration's was taken without a word).
#[test]
fn a_global_declared_twice_is_refused_at_the_second() {
    let vars = r#"<externalVars><variable name="g"><type><INT/></type></variable></externalVars>
        <outputVars><variable name="y"><type><INT/></type></variable></outputVars>"#;
    let body = [var_in(1, 0, "g"), var_out(2, 0, 1, None, "y")].concat();
    let xml = project("p", vars, &body).replace(
        r#"<configuration name="c"><resource name="r">"#,
        r#"<configuration name="c"><globalVars><variable name="g"><type><INT/></type><initialValue><simpleValue value="1"/></initialValue></variable></globalVars>
    <resource name="r"><globalVars><variable name="G"><type><INT/></type><initialValue><simpleValue value="2"/></initialValue></variable></globalVars>"#,
    );
    let e = fbd_plcopen::import(std::path::Path::new("g.xml"), &xml).expect_err("refused").to_string();
    assert!(e.contains("g.xml:13:") && e.contains("global `G` is declared twice (first at 12:"), "{e}");
}

/// IEC names ignore case: a variable and an input answer in any case (`CNT`, `Cnt`), where no
/// two names differ only by case.
#[test]
fn names_are_found_in_any_case() {
    let vars = r#"<inputVars><variable name="Start"><type><BOOL/></type></variable></inputVars>
        <outputVars><variable name="y"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="cnt"><type><BOOL/></type></variable></localVars>"#;
    let body =
        [var_in(1, 0, "Start"), var_out(2, 0, 1, None, "cnt"), var_in(3, 50, "cnt"), var_out(4, 50, 3, None, "y")]
            .concat();
    let imported = import_ok(&project("p", vars, &body));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    rt.set_input("START", Value::Bool(true)).expect("an input in another case");
    rt.step();
    assert_eq!(rt.read("CNT").ok(), Some(Value::Bool(true)), "a variable in another case");
    assert_eq!(rt.find_signal("Cnt"), rt.find_signal("cnt"));
}

/// The export writes an imported program's variables back as variables (a local written from
/// what drives it): a program whose variables the import had dissolved into wires went out with
/// none, and Beremiz's generator refused it ("No variable defined"); imported again, the same.
#[test]
fn the_export_keeps_a_program_s_variables() {
    let path = std::path::Path::new("v.xml");
    let imported = fbd_plcopen::import(path, &counter("INT", 1000)).unwrap_or_else(|e| panic!("{e}"));
    let p = fbd_plcopen::imported_project(&imported, path).unwrap_or_else(|e| panic!("{e}"));
    let plan = fbd_engine::compile_project(&p, &fbd_engine::CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&p, &plan);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed");
    let declared = doc.descendants().any(|n| {
        n.tag_name().name() == "variable"
            && n.attribute("name") == Some("cnt")
            && n.parent().is_some_and(|s| s.tag_name().name() == "localVars")
    });
    let written = doc.descendants().any(|n| {
        n.tag_name().name() == "outVariable"
            && n.descendants().any(|e| e.tag_name().name() == "expression" && e.text() == Some("cnt"))
    });
    assert!(declared && written, "{xml}");
    let back = import_ok(&xml);
    assert!(back.doc.connectors.iter().any(|c| c.name == "cnt"), "the variable comes back");
}

/// A typed literal types the generic block it feeds, as matiec types the call: ADD(INT#30000,
/// INT#30000) is an INT, -5536, not positive (it was computed as a LINT: 60000).
#[test]
fn a_typed_literal_types_the_block_it_feeds() {
    let vars = r#"<outputVars><variable name="positive"><type><BOOL/></type></variable></outputVars>"#;
    let body = [
        var_in(1, 0, "INT#30000"),
        var_in(2, 40, "INT#30000"),
        block(3, "ADD", None, 0, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
        var_in(5, 100, "0"),
        block(7, "GT", None, 100, &[("IN1", 3, Some("OUT")), ("IN2", 5, None)], &["OUT"]),
        var_out(8, 100, 7, Some("OUT"), "positive"),
    ]
    .concat();
    assert_eq!(trace(&project("lit", vars, &body), &["positive"], 1), vec![vec![Value::Bool(false)]]);
}

/// `1` and `0` are IEC's BOOL literals as a BOOL variable's initial value too (svghmi writes
/// `1`): it was refused, "not a BOOL".
#[test]
fn a_bool_initialised_with_1_is_true() {
    let vars = r#"<outputVars><variable name="y"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="on"><type><BOOL/></type><initialValue><simpleValue value="1"/></initialValue></variable>
          <variable name="off"><type><BOOL/></type><initialValue><simpleValue value="0"/></initialValue></variable></localVars>"#;
    let body = [
        var_in(1, 0, "on"),
        var_in(2, 40, "off"),
        block(3, "XOR", None, 0, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
        var_out(4, 0, 3, Some("OUT"), "y"),
    ]
    .concat();
    assert_eq!(trace(&project("b", vars, &body), &["y"], 1), vec![vec![Value::Bool(true)]]);
}

/// BOOL_TO_TIME, which matiec's standard library has (TRUE is T#1s: the BOOL as whole
/// seconds), imports and computes so (it was "no standard block").
#[test]
fn bool_to_time_is_the_bool_in_whole_seconds() {
    let vars = r#"<inputVars><variable name="a"><type><BOOL/></type></variable></inputVars>
        <outputVars><variable name="t"><type><TIME/></type></variable></outputVars>"#;
    let body = [
        var_in(1, 0, "a"),
        block(2, "BOOL_TO_TIME", None, 0, &[("IN", 1, None)], &["OUT"]),
        var_out(3, 0, 2, Some("OUT"), "t"),
    ]
    .concat();
    let imported = import_ok(&project("bt", vars, &body));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    for (a, ns) in [(true, 1_000_000_000), (false, 0)] {
        rt.set_input("a", Value::Bool(a)).expect("a");
        rt.step();
        assert_eq!(rt.output("t"), Some(Value::Time(ns)), "a = {a}");
    }
}

/// EN on a function block: while EN is FALSE the TON and the CTU are not called (their
/// outputs and state hold); called again, the TON reads the clock (its ET jumps to the time
/// since its start), and the CTU sees the edge between its last call and this one. Refused
/// before ("its state would have to freeze"). The expected rows are matiec's.
#[test]
fn en_on_a_function_block_holds_it_while_false() {
    let vars = r#"<outputVars><variable name="q"><type><BOOL/></type></variable><variable name="et"><type><TIME/></type></variable>
          <variable name="cv"><type><INT/></type></variable><variable name="gate"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="k"><type><INT/></type></variable><variable name="odd"><type><BOOL/></type></variable>
          <variable name="TON0"><type><derived name="TON"/></type></variable><variable name="CTU0"><type><derived name="CTU"/></type></variable></localVars>"#;
    let body = [
        count_up("k", "1"),
        var_in(5, 100, "k"),
        var_in(6, 100, "8"),
        block(7, "MOD", None, 100, &[("IN1", 5, None), ("IN2", 6, None)], &["OUT"]),
        var_in(8, 100, "4"),
        block(9, "LT", None, 100, &[("IN1", 7, Some("OUT")), ("IN2", 8, None)], &["OUT"]),
        var_out(10, 100, 9, Some("OUT"), "gate"),
        var_in(11, 200, "2"),
        block(12, "MOD", None, 200, &[("IN1", 5, None), ("IN2", 11, None)], &["OUT"]),
        var_in(13, 200, "1"),
        block(14, "EQ", None, 200, &[("IN1", 12, Some("OUT")), ("IN2", 13, None)], &["OUT"]),
        var_out(15, 200, 14, Some("OUT"), "odd"),
        var_in(16, 300, "gate"),
        var_in(17, 300, "TRUE"),
        var_in(18, 300, "T#100ms"),
        block(
            19,
            "TON",
            Some("TON0"),
            300,
            &[("EN", 16, None), ("IN", 17, None), ("PT", 18, None)],
            &["ENO", "Q", "ET"],
        ),
        var_out(20, 300, 19, Some("Q"), "q"),
        var_out(21, 300, 19, Some("ET"), "et"),
        var_in(22, 400, "odd"),
        var_in(23, 400, "100"),
        block(
            24,
            "CTU",
            Some("CTU0"),
            400,
            &[("EN", 16, None), ("CU", 22, None), ("PV", 23, None)],
            &["ENO", "Q", "CV"],
        ),
        var_out(25, 400, 24, Some("CV"), "cv"),
    ]
    .concat();
    let rows = trace(&project("gated", vars, &body), &["gate", "q", "et", "cv"], 20);
    let got: Vec<String> = rows
        .iter()
        .map(|r| {
            let ms = match r[2] {
                Value::Time(ns) => ns / 1_000_000,
                _ => -1,
            };
            format!("{} {} {ms} {}", r[0] == Value::Bool(true), r[1] == Value::Bool(true), r[3].as_i64().unwrap_or(-1))
        })
        .collect();
    // Beremiz's generator + matiec, 200 scans, 0 differences (these are its first 20).
    let matiec = [
        "true false 0 1",
        "true false 20 1",
        "true false 40 2",
        "false false 40 2",
        "false false 40 2",
        "false false 40 2",
        "false false 40 2",
        "true true 100 2",
        "true true 100 3",
        "true true 100 3",
        "true true 100 4",
        "false true 100 4",
        "false true 100 4",
        "false true 100 4",
        "false true 100 4",
        "true true 100 4",
        "true true 100 5",
        "true true 100 5",
        "true true 100 6",
        "false true 100 6",
    ];
    assert_eq!(got, matiec);
}

/// MUL and DIV of a TIME by a number (IEC's; matiec's `__time_mul` / `__time_div`): they were
/// refused ("pin `in1` of DIV expects LINT, but constant T#100ms is TIME", Beremiz's wxHMI
/// test project, which now runs as Beremiz + matiec run it: 7,000 values, 0 differences). The
/// expected rows are matiec's functions (iec_std_lib.h) compiled and called with the same
/// operands: Beremiz's generator types this body's temporaries INT, so the file itself does
/// not build there (wxHMI's DIV feeds a TON's PT, which it types TIME).
#[test]
fn a_time_multiplied_and_divided_by_numbers_as_matiec_computes_it() {
    let vars = r#"<outputVars><variable name="longer"><type><TIME/></type></variable><variable name="shorter"><type><TIME/></type></variable>
          <variable name="third"><type><TIME/></type></variable><variable name="quarter"><type><TIME/></type></variable></outputVars>
        <localVars><variable name="n"><type><INT/></type></variable><variable name="k"><type><INT/></type></variable>
          <variable name="t"><type><TIME/></type><initialValue><simpleValue value="T#-1s500ms"/></initialValue></variable>
          <variable name="r"><type><REAL/></type><initialValue><simpleValue value="0.25"/></initialValue></variable></localVars>"#;
    let body = [
        count_up("n", "1"),
        var_in(5, 100, "n"),
        var_in(6, 100, "4"),
        block(7, "MOD", None, 100, &[("IN1", 5, None), ("IN2", 6, None)], &["OUT"]),
        block(8, "ADD", None, 100, &[("IN1", 7, Some("OUT")), ("IN2", 2, None)], &["OUT"]),
        var_out(9, 100, 8, Some("OUT"), "k"),
        var_in(10, 200, "T#1s500ms"),
        var_in(11, 200, "k"),
        block(12, "MUL", None, 200, &[("IN1", 10, None), ("IN2", 11, None)], &["OUT"]),
        var_out(13, 200, 12, Some("OUT"), "longer"),
        var_in(14, 300, "t"),
        block(15, "DIV", None, 300, &[("IN1", 14, None), ("IN2", 11, None)], &["OUT"]),
        var_out(16, 300, 15, Some("OUT"), "shorter"),
        var_in(17, 400, "T#1s"),
        var_in(18, 400, "REAL#3.0"),
        block(19, "DIV", None, 400, &[("IN1", 17, None), ("IN2", 18, None)], &["OUT"]),
        var_out(20, 400, 19, Some("OUT"), "third"),
        var_in(21, 500, "T#2s"),
        var_in(22, 500, "r"),
        block(23, "MUL", None, 500, &[("IN1", 21, None), ("IN2", 22, None)], &["OUT"]),
        var_out(24, 500, 23, Some("OUT"), "quarter"),
    ]
    .concat();
    let rows = trace(&project("scaled", vars, &body), &["longer", "shorter", "third", "quarter"], 4);
    let ns: Vec<Vec<i64>> =
        rows.iter().map(|r| r.iter().map(|v| if let Value::Time(ns) = v { *ns } else { i64::MIN }).collect()).collect();
    let matiec: [[i64; 4]; 4] = [
        [3_000_000_000, -750_000_000, 333_333_333, 500_000_000],
        [4_500_000_000, -500_000_000, 333_333_333, 500_000_000],
        [6_000_000_000, -375_000_000, 333_333_333, 500_000_000],
        [1_500_000_000, -1_500_000_000, 333_333_333, 500_000_000],
    ];
    assert_eq!(ns, matiec);
}

/// The ULINT counters (CTU_ULINT, CTD_ULINT, CTUD_ULINT) compare as unsigned, as matiec's:
/// with a preset of 2^63 and more a signed counter never counted up (the preset read as
/// negative) and CTD's Q was TRUE at once. They were refused ("matiec has no counter of
/// ULINT", which it has). The expected rows are Beremiz's generator + matiec's.
#[test]
fn ulint_counters_count_as_unsigned() {
    let vars = r#"<outputVars><variable name="up"><type><ULINT/></type></variable><variable name="up_q"><type><BOOL/></type></variable>
          <variable name="down"><type><ULINT/></type></variable><variable name="down_q"><type><BOOL/></type></variable>
          <variable name="both"><type><ULINT/></type></variable><variable name="both_qu"><type><BOOL/></type></variable></outputVars>
        <localVars><variable name="n"><type><INT/></type></variable><variable name="odd"><type><BOOL/></type></variable>
          <variable name="first"><type><BOOL/></type><initialValue><simpleValue value="TRUE"/></initialValue></variable>
          <variable name="CTU0"><type><derived name="CTU_ULINT"/></type></variable><variable name="CTD0"><type><derived name="CTD_ULINT"/></type></variable>
          <variable name="CTUD0"><type><derived name="CTUD_ULINT"/></type></variable></localVars>"#;
    let body = [
        count_up("n", "1"),
        var_in(5, 100, "n"),
        var_in(6, 100, "2"),
        block(7, "MOD", None, 100, &[("IN1", 5, None), ("IN2", 6, None)], &["OUT"]),
        block(8, "EQ", None, 100, &[("IN1", 7, Some("OUT")), ("IN2", 2, None)], &["OUT"]),
        var_out(9, 100, 8, Some("OUT"), "odd"),
        var_in(10, 200, "odd"),
        var_in(11, 200, "16#8000000000000002"),
        var_in(12, 200, "first"),
        block(13, "CTU_ULINT", Some("CTU0"), 200, &[("CU", 10, None), ("PV", 11, None)], &["Q", "CV"]),
        var_out(14, 200, 13, Some("CV"), "up"),
        var_out(15, 200, 13, Some("Q"), "up_q"),
        block(
            16,
            "CTD_ULINT",
            Some("CTD0"),
            300,
            &[("CD", 10, None), ("LD", 12, None), ("PV", 11, None)],
            &["Q", "CV"],
        ),
        var_out(17, 300, 16, Some("CV"), "down"),
        var_out(18, 300, 16, Some("Q"), "down_q"),
        block(
            19,
            "CTUD_ULINT",
            Some("CTUD0"),
            400,
            &[("CU", 10, None), ("LD", 12, None), ("PV", 11, None)],
            &["QU", "QD", "CV"],
        ),
        var_out(20, 400, 19, Some("CV"), "both"),
        var_out(21, 400, 19, Some("QU"), "both_qu"),
        var_in(22, 500, "FALSE"),
        var_out(23, 500, 22, None, "first"),
    ]
    .concat();
    let rows = trace(&project("counters", vars, &body), &["up", "up_q", "down", "down_q", "both", "both_qu"], 6);
    let got = rows_text(&rows);
    // Beremiz's generator + matiec: 300 scans, 2,700 values, 0 differences (the first 6).
    let matiec = [
        "1 FALSE 9223372036854775810 FALSE 9223372036854775810 TRUE",
        "1 FALSE 9223372036854775810 FALSE 9223372036854775810 TRUE",
        "2 FALSE 9223372036854775809 FALSE 9223372036854775810 TRUE",
        "2 FALSE 9223372036854775809 FALSE 9223372036854775810 TRUE",
        "3 FALSE 9223372036854775808 FALSE 9223372036854775810 TRUE",
        "3 FALSE 9223372036854775808 FALSE 9223372036854775810 TRUE",
    ];
    assert_eq!(got, matiec);
}

/// The BCD conversions by the names Beremiz's palette gives them (`UINT_TO_BCD`, a WORD;
/// `BCD_TO_UINT`; `BCD_TO_UDINT` of a WORD, which matiec's overloads take): they were refused
/// as unknown blocks. A number of more digits than the
/// result holds is cut as matiec's C cast cuts it; a BCD with a digit above 9 gives 0 (matiec:
/// 0 with ENO FALSE; here also a fault). The expected rows are Beremiz's generator + matiec's.
#[test]
fn bcd_conversions_as_matiec_computes_them() {
    let vars = r#"<outputVars><variable name="bcd"><type><WORD/></type></variable><variable name="back"><type><UINT/></type></variable>
          <variable name="wide"><type><UDINT/></type></variable><variable name="bad"><type><UINT/></type></variable></outputVars>
        <localVars><variable name="n"><type><UINT/></type><initialValue><simpleValue value="9990"/></initialValue></variable></localVars>"#;
    let body = [
        count_up("n", "UINT#7"),
        var_in(5, 100, "n"),
        block(6, "UINT_TO_BCD", None, 100, &[("IN", 5, None)], &["OUT"]),
        var_out(7, 100, 6, Some("OUT"), "bcd"),
        block(8, "BCD_TO_UINT", None, 200, &[("IN", 6, Some("OUT"))], &["OUT"]),
        var_out(9, 200, 8, Some("OUT"), "back"),
        block(10, "BCD_TO_UDINT", None, 300, &[("IN", 6, Some("OUT"))], &["OUT"]),
        var_out(11, 300, 10, Some("OUT"), "wide"),
        var_in(12, 400, "WORD#16#00FA"),
        block(13, "BCD_TO_UINT", None, 400, &[("IN", 12, None)], &["OUT"]),
        var_out(14, 400, 13, Some("OUT"), "bad"),
    ]
    .concat();
    let rows = trace(&project("bcdtest", vars, &body), &["bcd", "back", "wide", "bad"], 4);
    let got = rows_text(&rows);
    // Beremiz's generator + matiec: 300 scans, 1,500 values, 0 differences (the first 4:
    // 10004 has five digits, cut to a WORD's four as matiec's C cast cuts them).
    let matiec = ["39319 9997 9997 0", "4 4 4 0", "17 11 11 0", "24 18 18 0"];
    assert_eq!(got, matiec);
}

/// A block reading a function's output while the function's EN is FALSE reads the type's
/// initial value (matiec's function returns it: `TEST_EN`), a negated output's TRUE; a
/// variable written straight from it keeps its value (Beremiz writes it under `IF ENO`); a
/// user function's result likewise, its other outputs hold (never written back). Here the
/// readers read the last result (`read` was 102 in scan 2, `fread` 3).
#[test]
fn a_function_under_a_false_en_gives_its_readers_the_initial_value() {
    let twice = [
        var_in(1, 0, "X"),
        var_in(2, 40, "2"),
        block(3, "MUL", None, 0, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
        var_out(4, 0, 3, Some("OUT"), "TWICE"),
        var_out(5, 100, 1, None, "SAME"),
    ]
    .concat();
    let function = format!(
        r#"<pou name="TWICE" pouType="function"><interface><returnType><INT/></returnType>
      <inputVars><variable name="X"><type><INT/></type></variable></inputVars>
      <outputVars><variable name="SAME"><type><INT/></type></variable></outputVars></interface>
      <body><FBD>{twice}</FBD></body></pou>"#
    );
    let vars = r#"<outputVars><variable name="gate"><type><BOOL/></type></variable><variable name="direct"><type><INT/></type></variable>
          <variable name="read"><type><INT/></type></variable><variable name="nread"><type><BOOL/></type></variable>
          <variable name="fread"><type><INT/></type></variable><variable name="sread"><type><INT/></type></variable></outputVars>
        <localVars><variable name="k"><type><INT/></type></variable></localVars>"#;
    let body = [
        count_up("k", "1"),
        var_in(5, 100, "k"),
        var_in(6, 100, "4"),
        block(7, "MOD", None, 100, &[("IN1", 5, None), ("IN2", 6, None)], &["OUT"]),
        var_in(8, 100, "2"),
        block(9, "LT", None, 100, &[("IN1", 7, Some("OUT")), ("IN2", 8, None)], &["OUT"]),
        var_out(10, 100, 9, Some("OUT"), "gate"),
        var_in(11, 200, "gate"),
        var_in(12, 200, "100"),
        block(13, "ADD", None, 200, &[("EN", 11, None), ("IN1", 5, None), ("IN2", 12, None)], &["ENO", "OUT"]),
        var_out(14, 200, 13, Some("OUT"), "direct"),
        var_in(15, 300, "1"),
        block(16, "ADD", None, 300, &[("IN1", 13, Some("OUT")), ("IN2", 15, None)], &["OUT"]),
        var_out(17, 300, 16, Some("OUT"), "read"),
        var_in(18, 400, "FALSE"),
        var_in(27, 400, "TRUE"),
        block(19, "AND", None, 400, &[("EN", 11, None), ("IN1", 27, None), ("IN2", 27, None)], &["ENO", "!OUT"]),
        block(20, "OR", None, 400, &[("IN1", 19, Some("OUT")), ("IN2", 18, None)], &["OUT"]),
        var_out(21, 400, 20, Some("OUT"), "nread"),
        block(22, "TWICE", None, 500, &[("EN", 11, None), ("X", 5, None)], &["ENO", "OUT", "SAME"]),
        block(23, "ADD", None, 500, &[("IN1", 22, Some("OUT")), ("IN2", 15, None)], &["OUT"]),
        var_out(24, 500, 23, Some("OUT"), "fread"),
        block(25, "ADD", None, 600, &[("IN1", 22, Some("SAME")), ("IN2", 15, None)], &["OUT"]),
        var_out(26, 600, 25, Some("OUT"), "sread"),
    ]
    .concat();
    let xml = project("gatedf", vars, &body).replace("<pous>", &format!("<pous>{function}"));
    let rows = trace(&xml, &["gate", "direct", "read", "nread", "fread", "sread"], 8);
    // Beremiz's generator + matiec (tools/plcopen/beremiz-check.py), 400 scans, 0 differences:
    // these are its first 8.
    let matiec = [
        "TRUE 101 102 FALSE 3 2",
        "FALSE 101 1 TRUE 1 2",
        "FALSE 101 1 TRUE 1 2",
        "TRUE 104 105 FALSE 9 5",
        "TRUE 105 106 FALSE 11 6",
        "FALSE 105 1 TRUE 1 6",
        "FALSE 105 1 TRUE 1 6",
        "TRUE 108 109 FALSE 17 9",
    ];
    assert_eq!(rows_text(&rows), matiec);
}

/// The export reads a gated function's output through a connector of its own (Beremiz guards
/// a variable written straight from a block with EN): named clear of the body's connectors, so
/// a user's connector of that name is not taken for it, and the re-import computes the same.
#[test]
fn the_connector_of_a_gated_function_is_named_clear_of_the_body_s() {
    let text = r#"{"fbd": 3, "cycle_ms": 10,
      "inputs": [{"name": "g", "type": "BOOL"}, {"name": "x", "type": "INT"}],
      "blocks": [{"id": "a", "type": "ADD", "inputs": {"in1": "x", "in2": 1, "EN": "g"}, "data_type": "INT"},
                 {"id": "b", "type": "MUL", "inputs": {"in1": "a.out", "in2": 2}, "data_type": "INT"},
                 {"id": "c", "type": "NOT", "inputs": {"in": "g"}}],
      "connectors": [{"name": "c_en_a_out", "from": "c.out"}],
      "outputs": [{"name": "y", "type": "INT", "from": "b.out"}, {"name": "z", "type": "BOOL", "from": {"connector": "c_en_a_out"}}]}"#;
    let project =
        fbd_engine::load::load_text(&fbd_engine::MemProvider::new(), std::path::Path::new("p.json"), text.into())
            .expect("loads");
    let plan = fbd_engine::compile_project(&project, &Default::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    let back = import_ok(&xml);
    let mut rts = [fbd_engine::Runtime::new(plan), fbd_engine::Runtime::new(common::compile_doc(&back.doc))];
    for (k, g) in [true, false, true].into_iter().enumerate() {
        let rows: Vec<(Option<Value>, Option<Value>)> = rts
            .iter_mut()
            .map(|rt| {
                rt.set_input("g", Value::Bool(g)).expect("g");
                rt.set_input("x", Value::Int(k as i64 + 5)).expect("x");
                rt.step();
                (rt.output("y"), rt.output("z"))
            })
            .collect();
        assert_eq!(rows[0], rows[1], "scan {k}");
        // While EN is FALSE the ADD gives 0, so the MUL 0.
        let want = if g { (k as i64 + 6) * 2 } else { 0 };
        assert_eq!(rows[0], (Some(Value::Int(want)), Some(Value::Bool(!g))), "scan {k}");
    }
}

/// IEC's first-edition time functions, which matiec has and OpenPLC programs use: ADD_TIME,
/// SUB_TIME, MUL_TIME and DIV_TIME are ADD, SUB, MULTIME and DIVTIME (refused before).
#[test]
fn first_edition_time_functions_are_the_generic_ones() {
    let vars = r#"<outputVars><variable name="sum"><type><TIME/></type></variable><variable name="diff"><type><TIME/></type></variable><variable name="twice"><type><TIME/></type></variable><variable name="half"><type><TIME/></type></variable></outputVars>"#;
    let body = [
        var_in(1, 0, "T#5s"),
        var_in(2, 40, "T#2s"),
        var_in(3, 80, "2"),
        block(4, "ADD_TIME", None, 0, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
        block(5, "SUB_TIME", None, 100, &[("IN1", 1, None), ("IN2", 2, None)], &["OUT"]),
        block(6, "MUL_TIME", None, 200, &[("IN1", 1, None), ("IN2", 3, None)], &["OUT"]),
        block(7, "DIV_TIME", None, 300, &[("IN1", 1, None), ("IN2", 3, None)], &["OUT"]),
        var_out(8, 0, 4, Some("OUT"), "sum"),
        var_out(9, 100, 5, Some("OUT"), "diff"),
        var_out(10, 200, 6, Some("OUT"), "twice"),
        var_out(11, 300, 7, Some("OUT"), "half"),
    ]
    .concat();
    let rows = trace(&project("times", vars, &body), &["sum", "diff", "twice", "half"], 1);
    assert_eq!(rows_text(&rows), ["T#7s T#3s T#10s T#2s500ms"]);
}
