//! Graphviz DOT export of a program or of one macro body, from the loaded diagram (before
//! expansion, so macro instances appear as single boxes with their pins).

use std::fmt::Write;

use fbd_model::library;
use fbd_model::load::Project;
use fbd_model::model::{Block, Connector, Wire};

/// Renders the program (`macro_name` = None) or the named macro as a DOT digraph.
pub fn to_dot(project: &Project, macro_name: Option<&str>) -> Result<String, String> {
    type Body<'a> = (String, &'a [Block], &'a [Connector], Vec<String>, Vec<(String, Wire)>);
    let (title, blocks, connectors, ins, outs): Body = match macro_name {
        None => {
            let d = project.root();
            (
                d.name.clone().unwrap_or_else(|| "program".into()),
                &d.blocks,
                &d.connectors,
                d.inputs.iter().map(|p| p.name.clone()).collect(),
                d.outputs.iter().map(|p| (p.name.clone(), p.from.clone())).collect(),
            )
        }
        Some(m) => {
            let Some((_, _, def)) = project.macro_def(m) else {
                let mut names: Vec<&String> = project.macros.keys().collect();
                names.sort();
                let list: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                return Err(format!("no macro `{m}`; macros in this diagram: {}", list.join(", ")));
            };
            (
                def.name.clone(),
                &def.blocks,
                &def.connectors,
                def.inputs.iter().map(|p| p.name.clone()).collect(),
                def.outputs.iter().map(|p| (p.name.clone(), p.from.clone())).collect(),
            )
        }
    };
    let mut s = String::new();
    let _ = writeln!(s, "digraph \"{}\" {{", esc(&title));
    let _ = writeln!(s, "  rankdir=LR;\n  node [shape=record, fontname=\"Helvetica\", fontsize=10];");
    for i in &ins {
        let _ = writeln!(s, "  \"in:{0}\" [shape=cds, label=\"{0}\"];", esc(i));
    }
    for (o, _) in &outs {
        let _ = writeln!(s, "  \"out:{0}\" [shape=cds, style=filled, fillcolor=\"#eeeeee\", label=\"{0}\"];", esc(o));
    }
    for b in blocks {
        let (in_pins, out_pins) = project.block_pins(b);
        let left: Vec<String> = in_pins.iter().map(|p| format!("<i_{0}> {0}", esc(p))).collect();
        let right: Vec<String> = out_pins.iter().map(|p| format!("<o_{0}> {0}", esc(p))).collect();
        let style = if library::lookup(&b.ty).is_some() { "" } else { ", style=filled, fillcolor=\"#dde8ff\"" };
        let _ = writeln!(
            s,
            "  \"{}\" [label=\"{{{{{}}}|{}\\n{}|{{{}}}}}\"{style}];",
            esc(&b.id),
            left.join("|"),
            esc(&b.id),
            esc(&b.ty),
            right.join("|")
        );
    }
    // Each constant is its own small node, named by a counter (a node id built from the pin's
    // port reference would hold quotes and a colon, which DOT reads as a port).
    let mut consts = 0usize;
    let mut edge = |s: &mut String, w: &Wire, to: &str| {
        let (from, fb) = match w {
            Wire::Ref(r) => (r.clone(), false),
            Wire::Feedback { from, .. } => (from.clone(), true),
            Wire::Connector(name) => {
                let _ = writeln!(s, "  \"conn:{}\" -> {to};", esc(name));
                return;
            }
            Wire::Const(v) => {
                consts += 1;
                let _ =
                    writeln!(s, "  \"const{consts}\" [shape=plaintext, label=\"{v}\"];\n  \"const{consts}\" -> {to};");
                return;
            }
        };
        let src = match from.split_once('.') {
            Some((b, p)) => format!("\"{}\":\"o_{}\"", esc(b), esc(p)),
            None => format!("\"in:{}\"", esc(&from)),
        };
        let attr = if fb { " [style=dashed, color=\"#c03030\", label=\"fb\"]" } else { "" };
        let _ = writeln!(s, "  {src} -> {to}{attr};");
    };
    for b in blocks {
        for (pin, w) in &b.inputs.0 {
            edge(&mut s, w, &format!("\"{}\":\"i_{}\"", esc(&b.id), esc(pin)));
        }
    }
    for (o, w) in &outs {
        edge(&mut s, w, &format!("\"out:{}\"", esc(o)));
    }
    // A connector is a node of its own, as a drawing shows it: its continuations leave it.
    for c in connectors {
        let node = format!("\"conn:{}\"", esc(&c.name));
        let _ = writeln!(s, "  {node} [shape=rarrow, label=\"{}\"];", esc(&c.name));
        edge(&mut s, &c.from, &node);
    }
    s.push_str("}\n");
    Ok(s)
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace(['{', '}', '|', '<', '>'], "_")
}
