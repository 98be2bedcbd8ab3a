//! A [`Body`] from a loaded diagram: the program's top level or one macro definition, with the
//! library's pin lists. References that do not resolve are left out (a broken file can still be
//! drawn; the compiler reports it).

use std::collections::HashMap;

use fbd_model::library;
use fbd_model::load::Project;
use fbd_model::model::{Block, Connector, PortOut, Wire};

use crate::{Body, Edge, NamedNet, Node, Source, Target};

/// The body of macro `name`, or of the program when `name` is `None`.
pub fn body(project: &Project, name: Option<&str>) -> Result<Body, String> {
    body_with(project, name, false)
}

/// [`body`] as the editor draws it: a block with a family of inputs (`in1..inN` of ADD, AND,
/// MUX...) shows at least the fewest it needs and one free pin after those in use, where a
/// wire is dropped to add an input (a new ADD had no input pin at all to drop a wire on).
pub fn body_for_editing(project: &Project, name: Option<&str>) -> Result<Body, String> {
    body_with(project, name, true)
}

fn body_with(project: &Project, name: Option<&str>, spare: bool) -> Result<Body, String> {
    match name {
        None => {
            let root = project.root();
            let inputs = root.inputs.iter().map(|p| p.name.clone()).collect();
            Ok(build(project, (&root.blocks, &root.connectors), inputs, &root.outputs, spare))
        }
        Some(n) => {
            let (_, _, m) = project.macro_def(n).ok_or_else(|| {
                let mut names: Vec<&str> = project.macros.keys().map(String::as_str).collect();
                names.sort_unstable();
                format!("no macro `{n}`; the macros of this diagram are: {}", names.join(", "))
            })?;
            let inputs = m.inputs.iter().map(|p| p.name.clone()).collect();
            Ok(build(project, (&m.blocks, &m.connectors), inputs, &m.outputs, spare))
        }
    }
}

/// What a wire of the body reads, with a continuation followed to its connector's `from`
/// (through connectors of connectors, a circle left out): the wire and the connector's name.
fn through_connectors<'w>(connectors: &'w [Connector], w: &'w Wire) -> (&'w Wire, Option<&'w str>) {
    let Wire::Connector(name) = w else { return (w, None) };
    let mut at = w;
    for _ in 0..=connectors.len() {
        match at {
            Wire::Connector(n) => match connectors.iter().find(|c| c.name == *n) {
                Some(c) => at = &c.from,
                None => return (at, Some(name)),
            },
            other => return (other, Some(name)),
        }
    }
    (at, Some(name))
}

fn build(
    project: &Project,
    (blocks, connectors): (&[Block], &[Connector]),
    inputs: Vec<String>,
    outputs: &[PortOut],
    spare: bool,
) -> Body {
    let index: HashMap<&str, usize> = blocks.iter().enumerate().map(|(i, b)| (b.id.as_str(), i)).collect();
    let pins: Vec<(Vec<String>, Vec<String>)> = blocks
        .iter()
        .map(|b| {
            let (ins, outs) = project.block_pins(b);
            (if spare { with_spare_inputs(b, ins) } else { ins }, outs)
        })
        .collect();
    let source = |w: &Wire| -> Option<(Source, bool)> {
        let (r, fb) = match w {
            Wire::Ref(r) => (r, false),
            Wire::Feedback { from, .. } => (from, true),
            Wire::Const(_) | Wire::Connector(_) => return None,
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
    // Each connector of the body, with the readers of its continuations.
    let mut named: Vec<NamedNet> = Vec::new();
    let mut add_edge = |edges: &mut Vec<Edge>, w: &Wire, to: Target| {
        let (w, name) = through_connectors(connectors, w);
        let Some((from, delayed)) = source(w) else { return };
        edges.push(Edge { from, to, delayed });
        if let Some(name) = name {
            match named.iter_mut().find(|n| n.name == name) {
                Some(n) => n.targets.push(to),
                None => named.push(NamedNet { name: name.to_string(), source: from, targets: vec![to] }),
            }
        }
    };
    for (i, b) in blocks.iter().enumerate() {
        let ins: Vec<(String, Option<String>)> = pins[i]
            .0
            .iter()
            .map(|p| {
                let c = match b.inputs.get(p).map(|w| through_connectors(connectors, w).0) {
                    Some(Wire::Const(v)) => Some(v.to_string()),
                    _ => None,
                };
                (p.clone(), c)
            })
            .collect();
        for (k, p) in pins[i].0.iter().enumerate() {
            if let Some(w) = b.inputs.get(p) {
                add_edge(&mut edges, w, Target::In { node: i, pin: k });
            }
        }
        nodes.push(Node {
            id: b.id.clone(),
            label: b.ty.clone(),
            inputs: ins,
            outputs: pins[i].1.clone(),
            negated: if b.negated.is_empty() {
                Vec::new()
            } else {
                pins[i].0.iter().map(|p| b.negated.contains(p)).collect()
            },
            negated_outputs: if b.negated.is_empty() {
                Vec::new()
            } else {
                pins[i].1.iter().map(|p| b.negated.contains(p)).collect()
            },
            comment: b.comment.clone(),
        });
    }
    let mut outs = Vec::new();
    for (k, o) in outputs.iter().enumerate() {
        let c = match through_connectors(connectors, &o.from).0 {
            Wire::Const(v) => Some(v.to_string()),
            _ => None,
        };
        add_edge(&mut edges, &o.from, Target::Port(k));
        outs.push((o.name.clone(), c));
    }
    // A connector no continuation reads is still drawn at its source.
    for c in connectors {
        if !named.iter().any(|n| n.name == c.name)
            && let Some((from, _)) = source(through_connectors(connectors, &c.from).0)
        {
            named.push(NamedNet { name: c.name.clone(), source: from, targets: Vec::new() });
        }
    }
    Body { nodes, inputs, outputs: outs, edges, connectors: named, remote_inputs: 0 }
}

/// `ins` (a library block's pins) with its input family as the editor shows it
/// ([`library::Variadic::editable`]); other pins first, as they were.
fn with_spare_inputs(b: &Block, ins: Vec<String>) -> Vec<String> {
    let Some(v) = library::lookup(&b.ty).and_then(|d| d.var_inputs) else { return ins };
    let family = v.editable(ins.iter().map(String::as_str));
    let mut out: Vec<String> = ins.into_iter().filter(|p| !family.contains(p)).collect();
    out.extend(family);
    out
}

/// Where the automatic layout puts each block of `b` (top-left corners, in node order). A body
/// with `pages` is laid out page by page, the pages side by side in two columns in their order
/// (the first top left, the second top right, ...), so that the whole body shows them as the
/// sheets they are and each page keeps its own drawing.
fn laid_out_positions(b: &Body, pages: &[(String, Vec<usize>)]) -> Vec<[f64; 2]> {
    if pages.is_empty() {
        return crate::layout(b).blocks.iter().map(|r| [r.x, r.y]).collect();
    }
    let laid: Vec<(Vec<usize>, crate::Layout)> = pages
        .iter()
        .map(|(_, nodes)| {
            let (page, back) = crate::page::page_body(b, nodes);
            (back, crate::layout(&page))
        })
        .collect();
    let gap = 4.0 * crate::PITCH;
    let col_w = [0, 1].map(|c| laid.iter().skip(c).step_by(2).map(|(_, l)| l.width).fold(0.0, f64::max));
    let mut pos = vec![[0.0, 0.0]; b.nodes.len()];
    let on_grid = |v: f64| (v / crate::PITCH).ceil() * crate::PITCH;
    let mut y = 0.0;
    for pair in laid.chunks(2) {
        for (c, (back, l)) in pair.iter().enumerate() {
            let x0 = if c == 0 { 0.0 } else { on_grid(col_w[0] + gap) };
            for (k, r) in l.blocks.iter().enumerate() {
                pos[back[k]] = [x0 + r.x, y + r.y];
            }
        }
        y = on_grid(y + pair.iter().map(|(_, l)| l.height).fold(0.0, f64::max) + gap);
    }
    pos
}

/// The pages of the program's body (`name` `None`) or of macro `name`: each page's title and
/// its blocks as indices into [`Body::nodes`], in the page's order; blocks on no page make a
/// last page, "more". Empty for a body without pages (and for an unknown macro).
pub fn pages(project: &Project, name: Option<&str>) -> Vec<(String, Vec<usize>)> {
    let (blocks, pages) = match name {
        None => (&project.root().blocks, &project.root().pages),
        Some(n) => match project.macro_def(n) {
            Some((_, _, m)) => (&m.blocks, &m.pages),
            None => return Vec::new(),
        },
    };
    if pages.is_empty() {
        return Vec::new();
    }
    let index: HashMap<&str, usize> = blocks.iter().enumerate().map(|(i, b)| (b.id.as_str(), i)).collect();
    let mut placed = vec![false; blocks.len()];
    let mut out: Vec<(String, Vec<usize>)> = pages
        .iter()
        .map(|p| {
            let nodes: Vec<usize> = p
                .blocks
                .iter()
                .filter_map(|id| index.get(id.as_str()).copied())
                .filter(|&i| !std::mem::replace(&mut placed[i], true))
                .collect();
            (p.name.clone(), nodes)
        })
        .collect();
    let rest: Vec<usize> = (0..blocks.len()).filter(|&i| !placed[i]).collect();
    if !rest.is_empty() {
        out.push(("more".to_string(), rest));
    }
    out
}

/// The stored positions (`pos`) of the blocks of a body, in [`Body::nodes`] order.
pub fn positions(project: &Project, name: Option<&str>) -> Vec<Option<[f64; 2]>> {
    let blocks = match name {
        None => &project.root().blocks,
        Some(n) => match project.macro_def(n) {
            Some((_, _, m)) => &m.blocks,
            None => return Vec::new(),
        },
    };
    blocks.iter().map(|b| b.pos).collect()
}

/// The text of every file of `project` with the `pos` of each block of each body (the program
/// and every macro defined in the file) set to where [`crate::layout`] puts it; the rest of the
/// text is kept as written. Only files whose text changes are returned.
pub fn with_positions(project: &Project) -> Vec<(std::path::PathBuf, String)> {
    use fbd_model::locate::{Seg, value_span};
    let mut out = Vec::new();
    for (fi, f) in project.files.iter().enumerate() {
        let mut bodies: Vec<(Option<&str>, Vec<Seg>)> = Vec::new();
        if fi == 0 && !f.doc.blocks.is_empty() {
            bodies.push((None, vec![Seg::Key("blocks".into())]));
        }
        for (mi, m) in f.doc.macros.iter().enumerate() {
            bodies.push((
                Some(m.name.as_str()),
                vec![Seg::Key("macros".into()), Seg::Index(mi), Seg::Key("blocks".into())],
            ));
        }
        let mut edits: Vec<(usize, usize, String)> = Vec::new();
        for (name, prefix) in bodies {
            let Ok(b) = body(project, name) else { continue };
            for (bi, [x, y]) in laid_out_positions(&b, &pages(project, name)).into_iter().enumerate() {
                let pos = format!("[{x}, {y}]");
                let mut at = prefix.clone();
                at.push(Seg::Index(bi));
                let mut pos_at = at.clone();
                pos_at.push(Seg::Key("pos".into()));
                if let Some((s, e)) = value_span(&f.text, &pos_at) {
                    if f.text[s..e] != pos {
                        edits.push((s, e, pos));
                    }
                } else if let Some((s, _)) = value_span(&f.text, &at) {
                    edits.push((s + 1, s + 1, format!("\"pos\": {pos}, ")));
                }
            }
        }
        if edits.is_empty() {
            continue;
        }
        edits.sort_by_key(|e| std::cmp::Reverse(e.0));
        let mut text = f.text.clone();
        for (s, e, new) in edits {
            text.replace_range(s..e, &new);
        }
        out.push((f.path.clone(), text));
    }
    out
}
