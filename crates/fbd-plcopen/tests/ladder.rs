//! Ladder (LD) bodies run as Beremiz's generator + matiec run them: the expected values here
//! are the sequential reading of the rungs, and tools/plcopen/beremiz-check.py gives the same
//! for each file (`FBD_ORDER_XML=dir` writes them out; 0 differences over 400 scans).

use fbd_engine::Value;

#[allow(dead_code)] // the other tests' helpers
mod common;
use common::tc6;

/// A left power rail.
fn rail(id: u32, y: u32) -> String {
    format!(
        r#"<leftPowerRail localId="{id}" height="40" width="10"><position x="0" y="{y}"/><connectionPointOut formalParameter=""/></leftPowerRail>"#
    )
}

/// The connections into a connection point.
fn from(ids: &[u32]) -> String {
    let c: String = ids.iter().map(|i| format!(r#"<connection refLocalId="{i}"/>"#)).collect();
    format!("<connectionPointIn>{c}</connectionPointIn>")
}

/// A contact on `var` (`attrs`: `negated="true"`, `edge="rising"`...) fed by `ids`.
fn contact(id: u32, y: u32, var: &str, attrs: &str, ids: &[u32]) -> String {
    let attrs = if attrs.contains("negated") { attrs.to_string() } else { format!(r#"negated="false" {attrs}"#) };
    format!(
        r#"<contact localId="{id}" height="20" width="20" {attrs}><position x="100" y="{y}"/>{}<connectionPointOut/><variable>{var}</variable></contact>"#,
        from(ids)
    )
}

/// A coil on `var` (`attrs`: `storage="set"`, `negated="true"`...) fed by `ids`.
fn coil(id: u32, y: u32, var: &str, attrs: &str, ids: &[u32]) -> String {
    let attrs = if attrs.contains("negated") { attrs.to_string() } else { format!(r#"negated="false" {attrs}"#) };
    format!(
        r#"<coil localId="{id}" height="20" width="20" {attrs}><position x="300" y="{y}"/>{}<connectionPointOut/><variable>{var}</variable></coil>"#,
        from(ids)
    )
}

fn bools(names: &[(&str, &str)]) -> String {
    names.iter().map(|(n, _)| format!(r#"<variable name="{n}"><type><BOOL/></type></variable>"#)).collect()
}

/// With `FBD_ORDER_XML` set to a directory, writes the file and its inputs per scan there (as
/// `NAME.xml`, `NAME.stim`) for tools/plcopen/beremiz-check.py.
fn keep(name: &str, xml: &str, inputs: &[(&str, Vec<bool>)]) {
    let Some(dir) = std::env::var_os("FBD_ORDER_XML") else { return };
    let dir = std::path::Path::new(&dir);
    std::fs::write(dir.join(format!("{name}.xml")), xml).expect("writes");
    let mut stim = String::new();
    for (n, values) in inputs {
        for (scan, v) in values.iter().enumerate() {
            stim.push_str(&format!("{scan} {n}={}\n", if *v { "TRUE" } else { "FALSE" }));
        }
    }
    std::fs::write(dir.join(format!("{name}.stim")), stim).expect("writes");
}

fn ladder_project(name: &str, vars: &str, body: &str) -> String {
    let pou = format!(
        r#"<pou name="{name}" pouType="program"><interface>{vars}</interface><body><LD>{body}</LD></body></pou>"#
    );
    let task = format!(
        r#"<instances><configurations><configuration name="c"><resource name="r">
    <task name="t" interval="T#20ms" priority="0"><pouInstance name="i" typeName="{name}"/></task>
  </resource></configuration></configurations></instances>"#
    );
    tc6(&pou, &task)
}

/// A motor started and stopped with a seal-in contact in parallel with the start button, a
/// pulse on the start button's rising edge, a latch set and reset by coils of two rungs, and a
/// contact that feeds two coils: the second coil reads the variable the first one wrote in the
/// same scan (the contact is read again for each coil, as Beremiz writes each coil's
/// statement), so `y` follows `x` scan by scan.
#[test]
fn rungs_run_as_their_statements_in_order() {
    let inputs = format!("<inputVars>{}</inputVars>", bools(&[("start", ""), ("stop", "")]));
    let outputs = format!(
        "<outputVars>{}</outputVars>",
        bools(&[("motor", ""), ("pulse", ""), ("latched", ""), ("x", ""), ("y", "")])
    );
    let body = [
        rail(1, 0),
        contact(3, 0, "start", "", &[1]),
        contact(4, 40, "motor", "", &[1]),
        contact(5, 0, "stop", r#"negated="true""#, &[3, 4]),
        coil(6, 0, "motor", "", &[5]),
        contact(7, 80, "start", r#"edge="rising""#, &[1]),
        coil(8, 80, "pulse", "", &[7]),
        contact(9, 120, "start", "", &[1]),
        coil(10, 120, "latched", r#"storage="set""#, &[9]),
        contact(11, 160, "stop", "", &[1]),
        coil(12, 160, "latched", r#"storage="reset""#, &[11]),
        contact(20, 200, "x", "", &[1]),
        coil(21, 200, "x", r#"negated="true""#, &[20]),
        coil(22, 240, "y", "", &[20]),
    ]
    .concat();
    let xml = ladder_project("conveyor", &format!("{inputs}{outputs}"), &body);
    let imported = fbd_plcopen::import(std::path::Path::new("ladder.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    // The rungs read sequentially, as matiec runs the ST Beremiz writes.
    let (mut motor, mut latched, mut x, mut start_before) = (false, false, false, false);
    let presses =
        [(false, false), (true, false), (true, false), (false, false), (false, true), (false, false), (true, true)];
    keep("conveyor", &xml, &[("start", presses.map(|p| p.0).to_vec()), ("stop", presses.map(|p| p.1).to_vec())]);
    for (scan, (start, stop)) in presses.into_iter().enumerate() {
        rt.set_input("start", Value::Bool(start)).expect("start");
        rt.set_input("stop", Value::Bool(stop)).expect("stop");
        rt.step();
        motor = (start || motor) && !stop;
        let pulse = start && !start_before;
        start_before = start;
        latched = (latched || start) && !stop;
        x = !x;
        let read = |n: &str| rt.output(n).unwrap_or_else(|| panic!("{n}"));
        let got = [read("motor"), read("pulse"), read("latched"), read("x"), read("y")];
        let want = [motor, pulse, latched, x, x].map(Value::Bool);
        assert_eq!(got, want, "scan {scan}: start {start}, stop {stop} (motor, pulse, latched, x, y)");
    }
}

/// A timer in a rung: its IN from a contact, its Q through a coil, called once where the coil's
/// statement first needs it.
#[test]
fn a_timer_in_a_rung_feeds_its_coil() {
    let vars = format!(
        "<inputVars>{}</inputVars><outputVars>{}</outputVars><localVars><variable name=\"T1\"><type><derived name=\"TON\"/></type></variable></localVars>",
        bools(&[("run", "")]),
        bools(&[("done", "")])
    );
    let timer = r#"<block localId="5" typeName="TON" instanceName="T1" height="60" width="50"><position x="150" y="0"/>
        <inputVariables>
          <variable formalParameter="IN"><connectionPointIn><connection refLocalId="3"/></connectionPointIn></variable>
          <variable formalParameter="PT"><connectionPointIn><connection refLocalId="4"/></connectionPointIn></variable>
        </inputVariables><inOutVariables/>
        <outputVariables><variable formalParameter="Q"><connectionPointOut><relPosition x="50" y="10"/></connectionPointOut></variable><variable formalParameter="ET"><connectionPointOut><relPosition x="50" y="30"/></connectionPointOut></variable></outputVariables></block>"#;
    let pt = r#"<inVariable localId="4" height="20" width="40"><position x="100" y="40"/><connectionPointOut/><expression>T#60ms</expression></inVariable>"#;
    let q = r#"<coil localId="6" height="20" width="20" negated="false"><position x="300" y="0"/><connectionPointIn><connection refLocalId="5" formalParameter="Q"><position x="300" y="10"/><position x="200" y="10"/></connection></connectionPointIn><connectionPointOut/><variable>done</variable></coil>"#;
    let body = [rail(1, 0), contact(3, 0, "run", "", &[1]), pt.to_string(), timer.to_string(), q.to_string()].concat();
    let xml = ladder_project("timer", &vars, &body);
    let imported = fbd_plcopen::import(std::path::Path::new("timer.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    let mut done = Vec::new();
    let runs = [true, true, true, true, true, false, true];
    keep("timer", &xml, &[("run", runs.to_vec())]);
    for run in runs {
        rt.set_input("run", Value::Bool(run)).expect("run");
        rt.step();
        done.push(rt.output("done") == Some(Value::Bool(true)));
    }
    // 20 ms scans: Q once 60 ms of IN have elapsed (the fourth scan of IN TRUE), FALSE with IN.
    assert_eq!(done, [false, false, false, true, true, false, false]);
}

/// A contact or coil that is not connected, or names an element the body lacks, is refused at
/// its line with what is wrong; every such problem at once.
#[test]
fn a_broken_rung_is_refused_at_its_element() {
    let vars = format!("<outputVars>{}</outputVars>", bools(&[("a", ""), ("b", "")]));
    let loose = r#"<contact localId="3" height="20" width="20" negated="false"><position x="100" y="0"/><connectionPointIn/><connectionPointOut/><variable>a</variable></contact>"#;
    let body = [
        rail(1, 0),
        "\n".to_string(),
        loose.to_string(),
        coil(4, 0, "a", "", &[3]),
        "\n".to_string(),
        coil(5, 40, "b", "", &[99]),
    ]
    .concat();
    let xml = ladder_project("broken", &vars, &body);
    let e = fbd_plcopen::import(std::path::Path::new("broken.xml"), &xml).expect_err("refused").to_string();
    assert!(e.contains("contact `a` is not connected on its left"), "{e}");
    assert!(e.contains("element 99"), "{e}");
    let line_of = |needle: &str| xml[..xml.find(needle).expect("in the file")].matches('\n').count() + 1;
    assert!(e.contains(&format!("broken.xml:{}:", line_of(r#"<contact localId="3""#))), "{e}");
    assert!(e.contains(&format!("broken.xml:{}:", line_of(r#"<connection refLocalId="99""#))), "{e}");
}

/// Power through a coil is the AND of the coil's connections (Beremiz's generator reads them
/// as a series there), while the coil's own statement ORs them: with `a` and `b` in parallel
/// into coil `x` and coil `y` after it, `x := a OR b` and `y := a AND b`.
#[test]
fn power_through_a_coil_is_the_and_of_its_connections() {
    let vars = format!(
        "<inputVars>{}</inputVars><outputVars>{}</outputVars>",
        bools(&[("a", ""), ("b", "")]),
        bools(&[("x", ""), ("y", "")])
    );
    let body = [
        rail(1, 0),
        contact(2, 0, "a", "", &[1]),
        contact(3, 40, "b", "", &[1]),
        coil(4, 0, "x", "", &[2, 3]),
        coil(5, 0, "y", "", &[4]),
    ]
    .concat();
    let xml = ladder_project("through", &vars, &body);
    let imported = fbd_plcopen::import(std::path::Path::new("through.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    let cases = [(false, false), (true, false), (false, true), (true, true)];
    keep("through", &xml, &[("a", cases.map(|c| c.0).to_vec()), ("b", cases.map(|c| c.1).to_vec())]);
    for (a, b) in cases {
        rt.set_input("a", Value::Bool(a)).expect("a");
        rt.set_input("b", Value::Bool(b)).expect("b");
        rt.step();
        assert_eq!(
            (rt.output("x"), rt.output("y")),
            (Some(Value::Bool(a || b)), Some(Value::Bool(a && b))),
            "a {a}, b {b}"
        );
    }
}

/// An ENO read where the block's EN is a variable written later in the body: the reader sees
/// the variable as the block's call saw it (the previous scan's write). The import named the
/// variable as if it were a program input, and the program did not compile. (An FBD body: the
/// generated ladder programs found it.)
#[test]
fn an_eno_whose_en_is_a_variable_reads_it_where_the_block_is_called() {
    let vars = format!(
        "<inputVars>{}</inputVars><outputVars>{}<variable name=\"n\"><type><INT/></type></variable></outputVars><localVars>{}</localVars>",
        bools(&[("a", "")]),
        bools(&[("q", "")]),
        bools(&[("m", "")])
    );
    let body = [
        common::var_in(1, 0, "m"),
        common::var_in(2, 40, "n"),
        common::var_in(3, 80, "1"),
        common::block(4, "ADD", None, 0, &[("EN", 1, None), ("IN1", 2, None), ("IN2", 3, None)], &["ENO", "OUT"]),
        common::var_out(5, 0, 4, Some("ENO"), "q"),
        common::var_in(6, 120, "a"),
        common::var_out(7, 120, 6, None, "m"),
    ]
    .concat();
    let xml = common::project("enoread", &vars, &body);
    let imported = fbd_plcopen::import(std::path::Path::new("eno.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    let runs = [true, false, false, true, true];
    keep("eno", &xml, &[("a", runs.to_vec())]);
    let mut got = Vec::new();
    for a in runs {
        rt.set_input("a", Value::Bool(a)).expect("a");
        rt.step();
        got.push(rt.output("q"));
    }
    // m is the previous scan's a: the ADD runs at scans 1 and 4 (not at 0: it reads m before
    // m is written); q is written, TRUE, only while ENO is TRUE, as Beremiz guards it.
    let want = [false, true, true, true, true].map(|q| Some(Value::Bool(q)));
    assert_eq!(got, want);
}

/// Two connections into a block's EN are a wired OR, as on any input: the EN was dropped and
/// the block ran every scan (an LD rung of the corpus feeds a MUL's EN from two edge contacts'
/// R_TRIG blocks; found by it).
#[test]
fn a_wired_or_into_en_enables_the_block_when_either_is_true() {
    let vars = format!(
        "<inputVars>{}</inputVars><outputVars><variable name=\"n\"><type><INT/></type></variable></outputVars>",
        bools(&[("a", ""), ("b", "")])
    );
    let add = r#"<block localId="5" typeName="ADD" height="80" width="60"><position x="100" y="0"/><inputVariables>
        <variable formalParameter="EN"><connectionPointIn><connection refLocalId="1"><position x="100" y="10"/></connection><connection refLocalId="2"><position x="100" y="10"/></connection></connectionPointIn></variable>
        <variable formalParameter="IN1"><connectionPointIn><connection refLocalId="3"><position x="100" y="30"/></connection></connectionPointIn></variable>
        <variable formalParameter="IN2"><connectionPointIn><connection refLocalId="4"><position x="100" y="50"/></connection></connectionPointIn></variable>
        </inputVariables><inOutVariables/><outputVariables>
        <variable formalParameter="ENO"><connectionPointOut><relPosition x="60" y="10"/></connectionPointOut></variable>
        <variable formalParameter="OUT"><connectionPointOut><relPosition x="60" y="30"/></connectionPointOut></variable>
        </outputVariables></block>"#;
    let body = [
        common::var_in(1, 0, "a"),
        common::var_in(2, 40, "b"),
        common::var_in(3, 80, "n"),
        common::var_in(4, 120, "1"),
        add.to_string(),
        common::var_out(6, 0, 5, Some("OUT"), "n"),
    ]
    .concat();
    let xml = common::project("enor", &vars, &body);
    let imported = fbd_plcopen::import(std::path::Path::new("enor.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = fbd_engine::Runtime::new(common::compile_doc(&imported.doc));
    let cases = [(false, false), (true, false), (false, false), (false, true), (true, true), (false, false)];
    keep("enor", &xml, &[("a", cases.map(|c| c.0).to_vec()), ("b", cases.map(|c| c.1).to_vec())]);
    let mut n = 0;
    for (a, b) in cases {
        rt.set_input("a", Value::Bool(a)).expect("a");
        rt.set_input("b", Value::Bool(b)).expect("b");
        rt.step();
        n += i64::from(a || b);
        assert_eq!(rt.output("n"), Some(Value::Int(n)), "a {a}, b {b}");
    }
}

/// `fbd export` writes a ladder body back as LD, and its import is the same network (element
/// for element, in order) computing the same values scan for scan, with every input driven.
/// (Beremiz + matiec build the export to the same values: tools/plcopen/ladder-check.sh.)
#[test]
fn a_ladder_program_goes_out_as_ladder_and_comes_back_the_same() {
    let (project, xml) = common::exported("examples/motor-ld.json");
    assert!(xml.contains("<LD>") && !xml.contains("<FBD>"), "written as LD");
    assert!(xml.contains("storage=\"set\"") && xml.contains("storage=\"reset\""), "set and reset coils");
    let back = fbd_plcopen::import(std::path::Path::new("motor-ld.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let shape = |l: &[fbd_engine::model::LdElement]| {
        l.iter().map(|e| (e.kind, e.modifier, e.var.clone(), e.from.len())).collect::<Vec<_>>()
    };
    assert_eq!(shape(&back.doc.ladder), shape(&project.root().ladder), "the same network, in order");
    let plan = fbd_engine::compile_project(&project, &fbd_engine::CompileOptions::default()).expect("compiles");
    let mut ours = fbd_engine::Runtime::new(plan);
    let mut theirs = fbd_engine::Runtime::new(common::compile_doc(&back.doc));
    let inputs = ["start", "stop", "overload", "reset"];
    for scan in 0..600u64 {
        for (k, name) in inputs.iter().enumerate() {
            // Each input toggled at its own period (a prime apart), so every combination comes.
            let v = Value::Bool((scan / [7, 11, 29, 13][k]) % 2 == 1);
            ours.set_input(name, v).expect(name);
            theirs.set_input(name, v).expect(name);
        }
        ours.step();
        theirs.step();
        for out in ["motor", "fault", "fan", "starts"] {
            assert_eq!(ours.output(out), theirs.output(out), "{out} at scan {scan}");
        }
    }
}
