//! A [`Body`] from a loaded diagram: the program's top level or one macro definition, with the
//! library's pin lists. References that do not resolve are left out (a broken file can still be
//! drawn; the compiler reports it).

use std::collections::HashMap;

use fbd_engine::library;
use fbd_engine::load::Project;
use fbd_engine::model::{Block, PortOut, Wire};

use crate::{Body, Edge, Node, Source, Target};

/// The body of macro `name`, or of the program when `name` is `None`.
pub fn body(project: &Project, name: Option<&str>) -> Result<Body, String> {
    match name {
        None => {
            let root = project.root();
            let inputs = root.inputs.iter().map(|p| p.name.clone()).collect();
            Ok(build(project, &root.blocks, inputs, &root.outputs))
        }
        Some(n) => {
            let (_, _, m) = project.macro_def(n).ok_or_else(|| {
                let mut names: Vec<&str> = project.macros.keys().map(String::as_str).collect();
                names.sort_unstable();
                format!("no macro `{n}`; the macros of this diagram are: {}", names.join(", "))
            })?;
            let inputs = m.inputs.iter().map(|p| p.name.clone()).collect();
            Ok(build(project, &m.blocks, inputs, &m.outputs))
        }
    }
}

fn build(project: &Project, blocks: &[Block], inputs: Vec<String>, outputs: &[PortOut]) -> Body {
    let index: HashMap<&str, usize> = blocks.iter().enumerate().map(|(i, b)| (b.id.as_str(), i)).collect();
    let pins: Vec<(Vec<String>, Vec<String>)> = blocks.iter().map(|b| project.block_pins(b)).collect();
    let source = |w: &Wire| -> Option<(Source, bool)> {
        let (r, fb) = match w {
            Wire::Ref(r) => (r, false),
            Wire::Feedback { from, .. } => (from, true),
            Wire::Const(_) => return None,
        };
        match r.split_once('.') {
            Some((blk, pin)) => {
                let node = *index.get(blk)?;
                let k = pins[node].1.iter().position(|p| p == pin)?;
                let delayed =
                    library::lookup(&blocks[node].ty).and_then(|d| d.outputs.get(k)).is_some_and(|p| p.delayed);
                Some((Source::Out { node, pin: k }, fb || delayed))
            }
            None => inputs.iter().position(|p| p == r).map(|k| (Source::Port(k), fb)),
        }
    };
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        let ins: Vec<(String, Option<String>)> = pins[i]
            .0
            .iter()
            .map(|p| {
                let c = match b.inputs.get(p) {
                    Some(Wire::Const(v)) => Some(v.to_string()),
                    _ => None,
                };
                (p.clone(), c)
            })
            .collect();
        for (k, p) in pins[i].0.iter().enumerate() {
            if let Some(w) = b.inputs.get(p)
                && let Some((from, delayed)) = source(w)
            {
                edges.push(Edge { from, to: Target::In { node: i, pin: k }, delayed });
            }
        }
        nodes.push(Node { id: b.id.clone(), label: b.ty.clone(), inputs: ins, outputs: pins[i].1.clone() });
    }
    let mut outs = Vec::new();
    for (k, o) in outputs.iter().enumerate() {
        let c = match &o.from {
            Wire::Const(v) => Some(v.to_string()),
            _ => None,
        };
        if let Some((from, delayed)) = source(&o.from) {
            edges.push(Edge { from, to: Target::Port(k), delayed });
        }
        outs.push((o.name.clone(), c));
    }
    Body { nodes, inputs, outputs: outs, edges }
}
