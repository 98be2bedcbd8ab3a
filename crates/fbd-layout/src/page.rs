//! One page of a body: some of its blocks, with every net to or from another page drawn as a
//! connector named after its source (`block.pin`), as CODESYS's page connectors and a printed
//! FBD's cross references. A page is a [`Body`] of its own, so every layout lays it out.

use std::collections::HashMap;

use crate::{Body, Edge, NamedNet, Source, Target};

/// The page of `body` holding `nodes` (indices into `body.nodes`, in page order). Body input
/// ports read on the page are its ports; a source on another page read here becomes a remote
/// input (`Body::remote_inputs`) whose readers get continuations; an output pin read on another
/// page gets a connector; a body output port is drawn on the page of its source (one driven by
/// an input port, on every page that reads that port). Returns the page and, per page node, its
/// index in `body`.
pub fn page_body(body: &Body, nodes: &[usize]) -> (Body, Vec<usize>) {
    let new_of: HashMap<usize, usize> = nodes.iter().enumerate().map(|(k, &n)| (n, k)).collect();
    let on_page = |s: Source| match s {
        Source::Out { node, .. } => new_of.contains_key(&node),
        Source::Port(_) => true,
    };
    let mut page = Body { nodes: nodes.iter().map(|&n| body.nodes[n].clone()).collect(), ..Body::default() };
    // Body input ports as the page uses them, then the remote sources.
    let mut ports: HashMap<usize, usize> = HashMap::new();
    let mut remote: Vec<Source> = Vec::new();
    let mut source_of = |page: &mut Body, s: Source| -> Source {
        match s {
            Source::Out { node, pin } if new_of.contains_key(&node) => Source::Out { node: new_of[&node], pin },
            Source::Port(k) => Source::Port(*ports.entry(k).or_insert_with(|| {
                page.inputs.push(body.inputs[k].clone());
                page.inputs.len() - 1
            })),
            off_page => {
                let k = remote.iter().position(|r| *r == off_page).unwrap_or_else(|| {
                    remote.push(off_page);
                    remote.len() - 1
                });
                Source::Port(usize::MAX - k)
            }
        }
    };
    let read_here = |p: usize| {
        body.edges
            .iter()
            .any(|e| e.from == Source::Port(p) && matches!(e.to, Target::In { node, .. } if new_of.contains_key(&node)))
    };
    let outputs_here: Vec<usize> = (0..body.outputs.len())
        .filter(|&k| {
            body.edges.iter().find(|e| e.to == Target::Port(k)).is_some_and(|e| match e.from {
                Source::Out { node, .. } => new_of.contains_key(&node),
                Source::Port(p) => read_here(p),
            })
        })
        .collect();
    let out_of: HashMap<usize, usize> = outputs_here.iter().enumerate().map(|(k, &o)| (o, k)).collect();
    page.outputs = outputs_here.iter().map(|&o| body.outputs[o].clone()).collect();
    let target_of = |t: Target| match t {
        Target::In { node, pin } => new_of.get(&node).map(|&n| Target::In { node: n, pin }),
        Target::Port(k) => out_of.get(&k).map(|&o| Target::Port(o)),
    };
    let mut named: Vec<NamedNet> = Vec::new();
    let mut name = |label: String, source: Source, target: Option<Target>| match named
        .iter_mut()
        .find(|n| n.name == label && n.source == source)
    {
        Some(n) => n.targets.extend(target),
        None => named.push(NamedNet { name: label, source, targets: target.into_iter().collect() }),
    };
    for e in &body.edges {
        let author = body.connectors.iter().find(|c| c.source == e.from && c.targets.contains(&e.to));
        match (on_page(e.from), target_of(e.to)) {
            (true, Some(to)) => {
                let from = source_of(&mut page, e.from);
                page.edges.push(Edge { from, to, delayed: e.delayed });
                if let Some(c) = author {
                    name(c.name.clone(), from, Some(to));
                }
            }
            (false, Some(to)) => {
                let from = source_of(&mut page, e.from);
                let label = author.map_or_else(|| crate::svg::net_name(body, e.from), |c| c.name.clone());
                page.edges.push(Edge { from, to, delayed: e.delayed });
                name(label, from, Some(to));
            }
            (true, None) => {
                // Read on another page: a connector at the source (a body input port is drawn
                // on each page that reads it, so it needs none).
                if let Source::Out { .. } = e.from {
                    let from = source_of(&mut page, e.from);
                    let label = author.map_or_else(|| crate::svg::net_name(body, e.from), |c| c.name.clone());
                    name(label, from, None);
                }
            }
            (false, None) => {}
        }
    }
    // An author's connector no one reads, at its source on this page.
    for c in body.connectors.iter().filter(|c| c.targets.is_empty() && on_page(c.source)) {
        let from = source_of(&mut page, c.source);
        name(c.name.clone(), from, None);
    }
    // Remote sources after the ports: `usize::MAX - k` becomes their index.
    let first_remote = page.inputs.len();
    page.inputs.extend(remote.iter().map(|&s| crate::svg::net_name(body, s)));
    page.remote_inputs = remote.len();
    let fix = |s: &mut Source| {
        if let Source::Port(k) = s
            && *k > usize::MAX / 2
        {
            *k = first_remote + (usize::MAX - *k);
        }
    };
    page.edges.iter_mut().for_each(|e| fix(&mut e.from));
    named.iter_mut().for_each(|n| fix(&mut n.source));
    page.connectors = named;
    (page, nodes.to_vec())
}

/// The stored positions of a page's blocks (`back`: per page node, its index in the body's
/// `pos`), moved together so that the page starts where a drawing does: `fbd layout` stores
/// the pages side by side, and a page drawn alone keeps its own drawing, not its place among
/// the others (the rows of a lower page were kept below an empty sheet).
pub fn page_positions(pos: &[Option<[f64; 2]>], back: &[usize]) -> Vec<Option<[f64; 2]>> {
    let mine: Vec<Option<[f64; 2]>> = back.iter().map(|&n| pos.get(n).copied().flatten()).collect();
    let min = |axis: usize| mine.iter().flatten().map(|p| p[axis]).fold(f64::INFINITY, f64::min);
    let (x0, y0) = (min(0), min(1));
    if !x0.is_finite() || !y0.is_finite() {
        return mine;
    }
    // The first column and row where a page laid out alone has them.
    let to = |v: f64, first: f64| v - first + crate::PITCH * 4.0;
    mine.into_iter().map(|p| p.map(|[x, y]| crate::snap([to(x, x0), to(y, y0)]))).collect()
}

/// The frame of each page in a drawing of the whole body laid out as `layout`: the rectangle
/// around its blocks (`pages`: each page's node indices), with a margin for pin names and the
/// constants left of the blocks; `None` for a page without blocks.
pub fn frames(layout: &crate::Layout, pages: &[Vec<usize>]) -> Vec<Option<crate::Rect>> {
    let m = 2.0 * crate::PITCH;
    pages
        .iter()
        .map(|nodes| {
            let (x0, y0, x1, y1) = nodes
                .iter()
                .filter_map(|&k| layout.blocks.get(k))
                .fold((f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY), |(a, b, c, d), r| {
                    (a.min(r.x), b.min(r.y), c.max(r.x + r.w), d.max(r.y + r.h))
                });
            (x0 <= x1).then_some(crate::Rect { x: x0 - 2.0 * m, y: y0 - m, w: x1 - x0 + 3.0 * m, h: y1 - y0 + 2.0 * m })
        })
        .collect()
}
