//! PLCopen XML export and round trips: the export's structure as TC6 v2.01 requires it, every
//! committed diagram and the 2048 program exported and imported back computing the same, and
//! what the author wrote (comments, descriptions, how the panel shows the ports) kept.

use std::path::Path;

use fbd_engine::load::{FsProvider, load};
use fbd_engine::{CompileOptions, Runtime, Value, compile_project};

#[allow(dead_code)] // `data` is for the import tests
mod common;
use common::{compile_doc, exported};

#[test]
fn the_2048_program_exported_and_imported_back_plays_exactly_as_the_reference() {
    use fbd2048_game::{Command, FbdGame, check_command};
    use ref2048::Dir;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../diagrams/2048.json");
    let project = load(&FsProvider, &path).expect("loads");
    let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    assert!(xml.contains("<task name=\"task_main\" interval=\"T#5ms\""), "the cycle is the task interval");
    assert!(xml.contains("pouType=\"functionBlock\"") && xml.contains("name=\"Cell\""), "macros are function blocks");
    let back = fbd_plcopen::import(Path::new("2048.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.doc.macros.iter().filter(|m| m.name == "Cell").count(), 1);
    let mut g = FbdGame::new(compile_doc(&back.doc), 3).expect("a 2048 program");
    g.command(Command::Start).expect("start");
    let dirs = [Dir::Left, Dir::Up, Dir::Right, Dir::Down];
    let mut moves = 0;
    for k in 0..200 {
        let before = g.board().expect("board");
        let score = g.score();
        let d = dirs[(k * 3 + k / 7) % 4];
        g.command(Command::Move(d)).expect("move");
        let after = g.board().expect("board");
        check_command(before, d, after, g.score() - score, g.game_over()).unwrap_or_else(|m| panic!("move {k}: {m:?}"));
        moves += 1;
        if g.game_over() {
            break;
        }
    }
    assert!(moves >= 50, "{moves} moves");
}

/// import(export(x)) runs as x: every program output equal, every scan, for 2,000 scans of
/// random inputs, for every diagram in diagrams/ and examples/ (10,000 in the ignored run).
#[test]
fn every_committed_diagram_exported_and_imported_back_gives_the_same_trace() {
    same_trace_after_a_round_trip(2000);
}

/// `cargo test --release -p fbd-plcopen --test roundtrip ten_thousand -- --ignored`
#[test]
#[ignore]
fn ten_thousand_scans_of_the_same_trace_after_a_round_trip() {
    same_trace_after_a_round_trip(10_000);
}

fn same_trace_after_a_round_trip(scans: u64) {
    let files = [
        "diagrams/2048.json",
        "diagrams/2048-original.json",
        "diagrams/2048-smart-spawn.json",
        "examples/blinker.json",
        "examples/dosing.json",
        "examples/part-label.json",
        "examples/tank.json",
    ];
    for f in files {
        let (project, xml) = exported(f);
        let back = fbd_plcopen::import(Path::new("x.xml"), &xml).unwrap_or_else(|e| panic!("{f}: {e}"));
        let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
        let mut a = Runtime::with_seed(plan, 9);
        let mut b = Runtime::with_seed(compile_doc(&back.doc), 9);
        assert_eq!(a.plan().outputs.len(), b.plan().outputs.len(), "{f}");
        assert_eq!(a.plan().cycle_us, b.plan().cycle_us, "{f}: the cycle");
        let inputs: Vec<(String, fbd_engine::Type)> = a.plan().inputs.iter().map(|p| (p.name.clone(), p.ty)).collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for scan in 0..scans {
            // Inputs change now and then, as a hand on a panel: a cheap deterministic stream.
            for (name, ty) in &inputs {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if !x.is_multiple_of(7) {
                    continue;
                }
                let v = match ty.bank() {
                    fbd_engine::Bank::Bool => Value::Bool(x.is_multiple_of(2)),
                    fbd_engine::Bank::Int => Value::Int((x % 7) as i64),
                    fbd_engine::Bank::Real => Value::Real((x % 100) as f64 / 10.0),
                    fbd_engine::Bank::Str => Value::Str(fbd_engine::IecString::new(format!("s{}", x % 5).as_bytes())),
                };
                a.set_input(name, v).expect("input");
                b.set_input(name, v).expect("input");
            }
            a.step();
            b.step();
            assert_eq!(a.outputs(), b.outputs(), "{f}: outputs differ after scan {scan}");
        }
    }
}

/// The three 2048 wirings exported and imported back, 100,000 moves each through the reference
/// judge (random moves; a new game after each game over):
/// `cargo test --release -p fbd-plcopen --test roundtrip hundred_thousand -- --ignored --nocapture`.
#[test]
#[ignore]
fn a_hundred_thousand_moves_per_wiring_after_a_round_trip() {
    use fbd2048_game::{Command, FbdGame, check_command};
    use ref2048::Dir;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for f in ["diagrams/2048.json", "diagrams/2048-original.json", "diagrams/2048-smart-spawn.json"] {
        let project = load(&FsProvider, &root.join(f)).expect("loads");
        let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
        let back = fbd_plcopen::import(Path::new("x.xml"), &fbd_plcopen::export(&project, &plan)).expect("imports");
        let mut g = FbdGame::new(compile_doc(&back.doc), 17).expect("a 2048 program");
        g.command(Command::Start).expect("start");
        let dirs = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];
        let mut x: u64 = 88172645463325252;
        let (mut moves, mut games) = (0u64, 1u64);
        while moves < 100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let d = dirs[(x % 4) as usize];
            let before = g.board().expect("board");
            let score = g.score();
            g.command(Command::Move(d)).expect("move");
            let after = g.board().expect("board");
            check_command(before, d, after, g.score() - score, g.game_over())
                .unwrap_or_else(|m| panic!("{f} move {moves}: {m:?}"));
            moves += 1;
            if g.game_over() {
                g.command(Command::Start).expect("start");
                games += 1;
            }
        }
        eprintln!("{f}: {moves} moves in {games} games after the round trip, 0 mismatches");
    }
}

/// The export against the element structure TC6 v2.01 requires for what we write: required
/// children in their order, required attributes, and every connection to an element of its body.
/// A macro the program does not instance (2048.json's library has ProcessingMultiScan) goes out
/// with the types its ports give its blocks: a MEMORY of a DINT port with `init: 0` is a DINT
/// memory, not the LINT of its initial value's literal (matiec refused the DINT passed to it).
#[test]
fn a_macro_not_instanced_keeps_the_types_of_its_ports() {
    let (_, xml) = exported("diagrams/2048.json");
    let pou = xml.split("<pou name=\"ProcessingMultiScan\"").nth(1).expect("the macro goes out");
    let pou = pou.split("</pou>").next().unwrap_or_default();
    for m in ["out1", "out2", "out3", "out4"] {
        let decl = format!("<variable name=\"{m}\"><type><derived name=\"FBD_MEMORY_OF_DINT\"/>");
        assert!(pou.contains(&decl), "{m} is a DINT memory");
    }
}

#[test]
fn the_export_has_the_structure_tc6_v2_01_requires() {
    let (_, xml) = exported("diagrams/2048-original.json");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed");
    let elems = |n: roxmltree::Node| -> Vec<String> {
        n.children().filter(|c| c.is_element()).map(|c| c.tag_name().name().to_string()).collect()
    };
    let problems = std::cell::RefCell::new(Vec::new());
    let need = |n: roxmltree::Node, attrs: &[&str], children: &[&str]| {
        let mut problems = problems.borrow_mut();
        for a in attrs {
            if n.attribute(*a).is_none() {
                problems.push(format!("<{}> lacks @{a}", n.tag_name().name()));
            }
        }
        // Required children, in this order (others may stand between them).
        let got = elems(n);
        let mut at = 0;
        for c in children {
            match got[at..].iter().position(|g| g == c) {
                Some(k) => at += k + 1,
                None => problems.push(format!("<{}> lacks <{c}> (in order) in {got:?}", n.tag_name().name())),
            }
        }
    };
    let project_el = doc.root_element();
    assert_eq!(project_el.tag_name().namespace(), Some("http://www.plcopen.org/xml/tc6_0201"));
    need(project_el, &[], &["fileHeader", "contentHeader", "types", "instances"]);
    for n in doc.descendants().filter(|n| n.is_element()) {
        match n.tag_name().name() {
            "fileHeader" => need(n, &["companyName", "productName", "productVersion", "creationDateTime"], &[]),
            "contentHeader" => need(n, &["name"], &["coordinateInfo"]),
            "coordinateInfo" => need(n, &[], &["fbd", "ld", "sfc"]),
            "types" => need(n, &[], &["dataTypes", "pous"]),
            "pou" => {
                need(n, &["name", "pouType"], &["interface", "body"]);
                let kind = n.attribute("pouType").unwrap_or("");
                assert!(["program", "functionBlock", "function"].contains(&kind), "{kind}");
            }
            "variable" if n.parent().is_some_and(|p| p.tag_name().name().ends_with("Vars")) => {
                need(n, &["name"], &["type"])
            }
            "variable" => need(n, &["formalParameter"], &[]),
            "block" => {
                need(n, &["localId", "typeName"], &["position", "inputVariables", "inOutVariables", "outputVariables"])
            }
            "inVariable" => need(n, &["localId"], &["position", "connectionPointOut", "expression"]),
            "outVariable" => need(n, &["localId"], &["position", "connectionPointIn", "expression"]),
            "configuration" | "resource" => need(n, &["name"], &[]),
            "documentation" if n.next_sibling_element().is_some() => problems.borrow_mut().push(format!(
                "<documentation> of <{}> is not its last element",
                n.parent().unwrap().tag_name().name()
            )),
            "task" => need(n, &["name", "priority"], &["pouInstance"]),
            "pouInstance" => need(n, &["name", "typeName"], &[]),
            "connection" => {
                let body = n.ancestors().find(|a| a.tag_name().name() == "FBD").expect("in a body");
                let id = n.attribute("refLocalId").unwrap_or("");
                if !body.children().any(|e| e.attribute("localId") == Some(id)) {
                    problems.borrow_mut().push(format!("connection to {id}, not in its body"));
                }
            }
            _ => {}
        }
    }
    let problems = problems.into_inner();
    assert!(problems.is_empty(), "{} problems, the first: {:?}", problems.len(), &problems[..problems.len().min(5)]);
    // Every POU a block names exists (user POUs and the stand-ins), or is an IEC standard block.
    let pous: Vec<&str> =
        doc.descendants().filter(|n| n.tag_name().name() == "pou").filter_map(|n| n.attribute("name")).collect();
    for b in doc.descendants().filter(|n| n.tag_name().name() == "block") {
        let t = b.attribute("typeName").unwrap_or("");
        assert!(pous.contains(&t) || fbd_engine::library::lookup(t).is_some(), "block type {t} has no POU");
    }
}

/// What the author wrote about the program survives the trip to PLCopen XML and back: every
/// block's comment (the 2048 macros explain their blocks in 28 of them), the descriptions of the
/// program, the macros and their ports. The export wrote none of it, so a program that went to
/// another tool and came back had lost every comment.
#[test]
fn comments_and_descriptions_survive_a_round_trip() {
    use std::collections::BTreeMap;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../diagrams/2048.json");
    let project = load(&FsProvider, &path).expect("loads");
    let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
    let back = fbd_plcopen::import(Path::new("2048.xml"), &fbd_plcopen::export(&project, &plan))
        .unwrap_or_else(|e| panic!("{e}"))
        .doc;
    // Functions (ADD, EQ) have no instance name in PLCopen and come back renamed: compare each
    // body's comments as a sorted list, and the function blocks' by id.
    let comments = |blocks: &[fbd_engine::model::Block]| {
        let mut c: Vec<String> = blocks.iter().filter_map(|b| b.comment.clone()).collect();
        c.sort();
        c
    };
    let mut total = 0;
    let macros: BTreeMap<&str, &fbd_engine::model::MacroDef> =
        back.macros.iter().map(|m| (m.name.as_str(), m)).collect();
    for f in &project.files {
        for m in &f.doc.macros {
            let b = macros[m.name.as_str()];
            assert_eq!(comments(&b.blocks), comments(&m.blocks), "macro {}", m.name);
            total += comments(&m.blocks).len();
            for blk in m.blocks.iter().filter(|x| x.comment.is_some()) {
                if let Some(same) = b.blocks.iter().find(|x| x.id == blk.id) {
                    assert_eq!(same.comment, blk.comment, "{}/{}", m.name, blk.id);
                }
            }
            assert_eq!(b.description, m.description, "macro {}", m.name);
            let ports = |d: &fbd_engine::model::MacroDef| -> Vec<Option<String>> {
                d.inputs
                    .iter()
                    .map(|p| p.description.clone())
                    .chain(d.outputs.iter().map(|p| p.description.clone()))
                    .collect()
            };
            assert_eq!(ports(b), ports(m), "the ports of macro {}", m.name);
        }
    }
    assert!(total >= 20, "the 2048 macros' comments: {total}");
    let root = project.root();
    assert_eq!(back.description, root.description, "the program's description");
    assert_eq!(comments(&back.blocks), comments(&root.blocks));
    let ins = |d: &fbd_engine::model::Document| -> Vec<Option<String>> {
        d.inputs.iter().map(|p| p.description.clone()).chain(d.outputs.iter().map(|p| p.description.clone())).collect()
    };
    assert_eq!(ins(&back), ins(root), "the program's inputs and outputs");
    // How the panel shows the inputs comes back too (PLCopen has no element for it: `addData`):
    // the 2048 command selector with its labels, the blinker's push buttons (they came back as
    // latching switches).
    let hmi = |d: &fbd_engine::model::Document| -> Vec<(fbd_engine::model::InputKind, Vec<String>)> {
        d.inputs.iter().map(|p| (p.kind, p.options.clone())).collect()
    };
    assert_eq!(hmi(&back), hmi(root));
    let kinds =
        |d: &fbd_engine::model::Document| -> Vec<Option<String>> { d.outputs.iter().map(|p| p.kind.clone()).collect() };
    assert_eq!(kinds(&back), kinds(root), "the outputs' kinds (display, lamp)");
    assert!(kinds(root).iter().any(|k| k.is_some()));
    assert_eq!(back.inputs[0].options.len(), 6, "up, right, down, left, start, reset");
    let blinker = load(&FsProvider, &path.with_file_name("../examples/blinker.json")).expect("blinker");
    let plan = compile_project(&blinker, &CompileOptions::default()).expect("compiles");
    let b = fbd_plcopen::import(Path::new("b.xml"), &fbd_plcopen::export(&blinker, &plan)).expect("imports").doc;
    assert!(b.inputs.iter().all(|p| p.kind == fbd_engine::model::InputKind::Button), "{:?}", hmi(&b));
}

/// The export is a drawing another tool can open as it is: every block with its size and each
/// pin's connection point on its edge, every variable box with a place and a size, one box per
/// input of a body however many pins it feeds, and no box over another or over a block. Every
/// variable stood at (0, 0) with no size: Beremiz or CODESYS opened the blinker with 23 boxes
/// piled in the corner.
#[test]
fn the_export_is_a_drawing_with_nothing_piled_up() {
    for file in
        ["diagrams/2048.json", "diagrams/2048-original.json", "diagrams/2048-smart-spawn.json", "examples/blinker.json"]
    {
        let (_, xml) = exported(file);
        let doc = roxmltree::Document::parse(&xml).expect("well-formed");
        let num = |n: roxmltree::Node, a: &str| -> f64 {
            n.attribute(a)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{file}: <{}> lacks @{a}", n.tag_name().name()))
        };
        for body in doc.descendants().filter(|n| n.tag_name().name() == "FBD") {
            let mut boxes: Vec<(String, [f64; 4])> = Vec::new();
            let mut blocks: Vec<[f64; 4]> = Vec::new();
            let mut reads: Vec<String> = Vec::new();
            for e in body.children().filter(|c| c.is_element()) {
                let pos = child(e, "position").expect("a position");
                let (x, y, w, h) = (num(pos, "x"), num(pos, "y"), num(e, "width"), num(e, "height"));
                assert!(w > 0.0 && h > 0.0, "{file}: {:?} has no size", e.attribute("localId"));
                match e.tag_name().name() {
                    "block" => {
                        blocks.push([x, y, x + w, y + h]);
                        // Each pin's connection point on the block's left (inputs) or right
                        // (outputs) edge, within its height.
                        for (list, edge) in [("inputVariables", 0.0), ("outputVariables", w)] {
                            for v in child(e, list).expect(list).children().filter(|c| c.is_element()) {
                                let cp = v
                                    .children()
                                    .find(|c| c.tag_name().name().starts_with("connectionPoint"))
                                    .expect("a point");
                                let rel = child(cp, "relPosition")
                                    .unwrap_or_else(|| panic!("{file}: a pin without its point"));
                                assert_eq!(num(rel, "x"), edge, "{file}: {:?}", v.attribute("formalParameter"));
                                assert!((0.0..=h).contains(&num(rel, "y")), "{file}: a pin off its block");
                            }
                        }
                    }
                    tag => {
                        let expr = child(e, "expression").and_then(|x| x.text()).unwrap_or("").to_string();
                        if tag == "inVariable"
                            && expr.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                            && !expr.starts_with("fb_")
                            && !expr.contains('#')
                            && expr != "TRUE"
                            && expr != "FALSE"
                        {
                            reads.push(expr.clone());
                        }
                        boxes.push((expr, [x, y, x + w, y + h]));
                    }
                }
            }
            let over = |a: &[f64; 4], b: &[f64; 4]| a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
            for (k, (name, a)) in boxes.iter().enumerate() {
                for (other, b) in &boxes[k + 1..] {
                    assert!(!over(a, b), "{file}: `{name}` stands over `{other}`: {a:?} {b:?}");
                }
                assert!(!blocks.iter().any(|b| over(a, b)), "{file}: `{name}` stands over a block");
            }
            let mut unique = reads.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), reads.len(), "{file}: an input read through more than one box: {reads:?}");
        }
    }
}

/// The first child element of `n` named `tag`.
fn child<'a, 'i>(n: roxmltree::Node<'a, 'i>, tag: &str) -> Option<roxmltree::Node<'a, 'i>> {
    n.children().find(|c| c.tag_name().name() == tag)
}

/// Constants at the ends of their ranges go out as IEC literals and come back to the same bits:
/// `1e300` was no IEC literal (no point), and the smallest INT did not read back ("neither a
/// declared variable nor a literal").
#[test]
fn extreme_constants_survive_a_round_trip() {
    use fbd_engine::load::{MemProvider, load_text};
    let text = r#"{"fbd": 1, "name": "lit",
      "outputs": [{"name": "y", "type": "REAL", "from": "a.out"}, {"name": "z", "type": "INT", "from": "b.out"},
                  {"name": "r", "type": "INT", "from": "c.out"}, {"name": "i", "type": "REAL", "from": "d.out"}],
      "blocks": [{"id": "a", "type": "ADD", "inputs": {"in1": 1e300, "in2": 1e-300, "in3": -0.0, "in4": 2.5e-8}},
                 {"id": "b", "type": "ADD", "inputs": {"in1": -9223372036854775808, "in2": 9223372036854775807}},
                 {"id": "c", "type": "REAL_TO_INT", "inputs": {"in": -2.5}},
                 {"id": "d", "type": "INT_TO_REAL", "inputs": {"in": 7}}]}"#;
    let project = load_text(&MemProvider::new(), Path::new("lit.json"), text.to_string()).expect("loads");
    let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    assert!(
        xml.contains("<expression>LREAL#1.0e300</expression>"),
        "a REAL literal with its point (typed: a function of literals)"
    );
    // The conversions by the types the export declares (REAL_TO_INT takes a 32-bit REAL).
    assert!(xml.contains("typeName=\"LREAL_TO_LINT\"") && xml.contains("typeName=\"LINT_TO_LREAL\""));
    let back = fbd_plcopen::import(Path::new("lit.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    let (mut a, mut b) = (Runtime::new(plan), Runtime::new(compile_doc(&back.doc)));
    a.step();
    b.step();
    for out in ["y", "z", "r", "i"] {
        let (x, y) = (a.output(out).expect("out"), b.output(out).expect("out"));
        assert!(x.same_bits(y), "{out}: {x:?} came back as {y:?}");
    }
    assert_eq!(b.output("z"), Some(Value::Int(-1)));
}

/// Negated inputs and outputs go out as `negated="true"` on the block's variables and come back
/// as negated pins: the same pins, the same trace. An unconnected negated pin goes out as its
/// default, negated (an open input reads the callee's default elsewhere).
#[test]
fn negated_inputs_survive_a_round_trip() {
    use fbd_engine::load::{MemProvider, load_text};
    let text = r#"{"fbd": 1, "name": "neg",
      "inputs": [{"name": "a", "type": "BOOL"}, {"name": "c", "type": "BOOL"}],
      "outputs": [{"name": "x", "type": "BOOL", "from": "and1.out"}, {"name": "n", "type": "INT", "from": "ctu1.cv"}, {"name": "m", "type": "INT", "from": "ctu2.cv"},
                  {"name": "s", "type": "BOOL", "from": "sel1.out"}, {"name": "t", "type": "BOOL", "from": "ton1.q"},
                  {"name": "l", "type": "BOOL", "from": "sr1.q1"}, {"name": "r", "type": "BOOL", "from": "and2.out"},
                  {"name": "p1q", "type": "BOOL", "from": "p1.q"}, {"name": "p2q", "type": "BOOL", "from": "p2.q"},
                  {"name": "p3q", "type": "BOOL", "from": "p3.q"}],
      "blocks": [
        {"id": "and1", "type": "AND", "inputs": {"in1": "a", "in2": "c"}, "negated": ["in2"]},
        {"id": "ctu1", "type": "CTU", "inputs": {"cu": "a", "r": "c", "pv": 100}, "negated": ["cu"]},
        {"id": "ctu2", "type": "CTU", "inputs": {"cu": "a", "pv": 100}, "negated": ["r"]},
        {"id": "sel1", "type": "SEL", "inputs": {"g": "a", "in0": "c", "in1": true}, "negated": ["in0", "in1"]},
        {"id": "ton1", "type": "TON", "inputs": {"in": "c", "pt": 20}, "negated": ["in"]},
        {"id": "sr1", "type": "SR", "inputs": {"s1": "a", "r": "c"}, "negated": ["q1"]},
        {"id": "and2", "type": "AND", "inputs": {"in1": "sr1.q1", "in2": "ton1.q"}, "negated": ["out"]},
        {"id": "p1", "type": "Pass", "inputs": {"a": "c"}, "negated": ["a"]},
        {"id": "p2", "type": "Pass", "inputs": {"a": "c"}, "negated": ["q"]},
        {"id": "p3", "type": "Pass", "negated": ["a"]}
      ],
      "macros": [{"name": "Pass", "inputs": [{"name": "a", "type": "BOOL", "default": false}],
                  "outputs": [{"name": "q", "type": "BOOL", "from": "m.out"}],
                  "blocks": [{"id": "m", "type": "MOVE", "inputs": {"in": "a"}}]}]}"#;
    let project = load_text(&MemProvider::new(), Path::new("neg.json"), text.to_string()).expect("loads");
    let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
    let xml = fbd_plcopen::export(&project, &plan);
    assert_eq!(xml.matches(" negated=\"true\"").count(), 11, "{xml}");
    let back = fbd_plcopen::import(Path::new("neg.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    for b in &project.root().blocks {
        let got = back.doc.blocks.iter().find(|x| x.id == b.id).unwrap_or_else(|| panic!("{} came back", b.id));
        assert_eq!(got.negated, b.negated, "{}", b.id);
    }
    let mut x = Runtime::new(plan);
    let mut y = Runtime::new(compile_doc(&back.doc));
    for scan in 0..80u32 {
        for rt in [&mut x, &mut y] {
            rt.set_input("a", Value::Bool(scan % 5 < 2)).expect("a");
            rt.set_input("c", Value::Bool(scan % 9 < 4)).expect("c");
            rt.step();
        }
        assert_eq!(x.outputs(), y.outputs(), "after scan {scan}");
    }
    assert!(x.output("n").is_some_and(|n| n != Value::Int(0)), "the counter counted");
    assert_eq!(x.output("m"), Some(Value::Int(0)), "an open R negated holds the counter reset");
    assert_eq!(x.output("p3q"), Some(Value::Bool(true)), "a macro's open input negated: its default inverted");
}

/// What the export writes, imported and exported again, is written the same, byte for byte:
/// names, ids, positions, stand-ins and order all come back (the program's name came back as
/// the POU's, `p2048`, and every function's id as `sel_2`).
#[test]
fn export_import_export_is_a_fixed_point() {
    use fbd_engine::load::{MemProvider, load_text};
    for file in
        ["diagrams/2048.json", "diagrams/2048-original.json", "diagrams/2048-smart-spawn.json", "examples/blinker.json"]
    {
        let (_, xml) = exported(file);
        let back = fbd_plcopen::import(Path::new("x.xml"), &xml).unwrap_or_else(|e| panic!("{file}: {e}"));
        let text = serde_json::to_string(&back.doc).expect("serialises");
        let project = load_text(&MemProvider::new(), Path::new("x.json"), text).expect("loads");
        let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
        let again = fbd_plcopen::export(&project, &plan);
        if again != xml {
            let line = xml.lines().zip(again.lines()).position(|(a, b)| a != b).unwrap_or(0);
            panic!(
                "{file}: line {} differs:\n{}\n{}",
                line + 1,
                xml.lines().nth(line).unwrap_or(""),
                again.lines().nth(line).unwrap_or("")
            );
        }
    }
}

/// A description's spaces around its line breaks come back as written (each line was
/// trimmed), while the indentation another tool's XML puts in front of every line is dropped.
#[test]
fn spaces_around_line_breaks_survive_a_round_trip() {
    let text = r#"{"fbd": 3, "name": "d", "description": "first line \n  second  line\n\nthird",
      "outputs": [{"name": "q", "type": "BOOL", "from": true}], "blocks": []}"#;
    let project =
        fbd_engine::load::load_text(&fbd_engine::load::MemProvider::new(), Path::new("d.json"), text.to_string())
            .expect("loads");
    let plan = compile_project(&project, &CompileOptions::default()).expect("compiles");
    let back = fbd_plcopen::import(Path::new("d.xml"), &fbd_plcopen::export(&project, &plan)).expect("imports").doc;
    assert_eq!(back.description.as_deref(), Some("first line \n  second  line\n\nthird"));
}

/// The author's connectors survive a round trip through PLCopen: exported as `connector` and
/// `continuation` elements and imported back as the same connectors, read by the same pins.
#[test]
fn connectors_go_out_as_connector_and_continuation_and_come_back() {
    let (project, xml) = exported("examples/tank.json");
    let root = project.root();
    assert_eq!(xml.matches("<connector localId=").count(), root.connectors.len(), "a connector element each");
    for c in &root.connectors {
        assert!(xml.contains(&format!("name=\"{}\"", c.name)), "{} is in the XML", c.name);
    }
    assert_eq!(xml.matches("<continuation ").count(), 5, "one per reader (4 pins and the output `pump`)");
    let back = fbd_plcopen::import(Path::new("tank.xml"), &xml).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.doc.connectors, root.connectors, "the same names carrying the same outputs");
    let pins = |doc: &fbd_engine::model::Document| -> Vec<(String, String, fbd_engine::model::Wire)> {
        let mut v: Vec<_> = doc
            .blocks
            .iter()
            .flat_map(|b| b.inputs.0.iter().map(|(p, w)| (b.id.clone(), p.clone(), w.clone())))
            .filter(|(_, _, w)| matches!(w, fbd_engine::model::Wire::Connector(_)))
            .collect();
        v.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        v
    };
    assert_eq!(pins(&back.doc), pins(root), "every continuation is read by the same pin");
}

/// Located variables keep their addresses through the import and back out (`fbd serve` puts
/// them where OpenPLC does).
#[test]
fn located_addresses_survive_a_round_trip() {
    let (p, t) = common::data("lights.xml");
    let first = fbd_plcopen::import(&p, &t).expect("imports");
    let addresses = |d: &fbd_engine::model::Document| -> Vec<Option<String>> {
        d.inputs.iter().map(|p| p.address.clone()).chain(d.outputs.iter().map(|p| p.address.clone())).collect()
    };
    assert_eq!(addresses(&first.doc).iter().flatten().count(), 4, "{:?}", addresses(&first.doc));
    let plan = common::compile_doc(&first.doc);
    let project = fbd_engine::load::load_text(
        &fbd_engine::MemProvider::new(),
        Path::new("lights.json"),
        serde_json::to_string(&first.doc).expect("JSON"),
    )
    .expect("loads");
    let xml = fbd_plcopen::export(&project, &plan);
    assert!(xml.contains("<variable name=\"b1\" address=\"%IX0.0\">"), "the address goes out");
    let back = fbd_plcopen::import(Path::new("x.xml"), &xml).expect("imports again");
    assert_eq!(addresses(&back.doc), addresses(&first.doc));
}
