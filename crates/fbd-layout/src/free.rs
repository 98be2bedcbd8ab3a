//! Free placement, for the editor: every block exactly where its `pos` puts it (the user
//! placed it there), wires as orthogonal paths between the pins that turn where no block is in
//! the way (over or under the blocks between their ends where none is free). Unlike
//! [`crate::layout`] it promises nothing about crossings; it is what a drawing being edited
//! looks like (the 2048 program's top level, 156 blocks, in about 6 ms).

use std::collections::HashMap;

use crate::{Body, Layout, NetGeom, PITCH, Point, Rect, Segment, Source, Stats, Target, node_width};

/// Bodies with at most this many blocks get wires routed around blocks.
const AVOID_UP_TO: usize = 1_500;

/// Lays `body` out with block `i`'s top-left corner at `pos[i]` (a block without a position is
/// put below the others). Body inputs stand in a column left of the leftmost block, outputs
/// right of the rightmost one.
pub fn layout_free(body: &Body, pos: &[Option<[f64; 2]>]) -> Layout {
    let n = body.nodes.len();
    let placed: Vec<[f64; 2]> = pos.iter().take(n).filter_map(|p| *p).collect();
    let left = placed.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min);
    let left = if left.is_finite() { left } else { 6.0 * PITCH };
    let mut next_free_y = placed.iter().map(|p| p[1]).fold(0.0f64, f64::max) + 6.0 * PITCH;
    let mut blocks = Vec::with_capacity(n);
    let mut in_anchors: Vec<Vec<Point>> = Vec::with_capacity(n);
    let mut out_anchors: Vec<Vec<Point>> = Vec::with_capacity(n);
    for (i, node) in body.nodes.iter().enumerate() {
        let [x, y] = match pos.get(i).copied().flatten() {
            Some(p) => p,
            None => {
                let p = [left, next_free_y];
                next_free_y += (node.inputs.len().max(node.outputs.len()) as f64 + 2.0) * PITCH;
                p
            }
        };
        let w = node_width(node);
        let rows = 1 + node.inputs.len().max(node.outputs.len()).max(1);
        blocks.push(Rect { x, y, w, h: rows as f64 * PITCH });
        let pin_y = |k: usize| y + PITCH / 2.0 + (k as f64 + 1.0) * PITCH;
        in_anchors.push((0..node.inputs.len()).map(|k| Point { x, y: pin_y(k) }).collect());
        out_anchors.push((0..node.outputs.len()).map(|k| Point { x: x + w, y: pin_y(k) }).collect());
    }
    let right = blocks.iter().map(|r| r.x + r.w).fold(left + 4.0 * PITCH, f64::max);
    let top = blocks.iter().map(|r| r.y).fold(f64::INFINITY, f64::min);
    let top = if top.is_finite() { top } else { 2.0 * PITCH };
    // A port stands level with the pin it is wired to, so that wire is straight (they stood in
    // a column from the top, half a pitch off the pins' grid: every port wire had a jog).
    let mut wanted_in: Vec<Option<f64>> = vec![None; body.inputs.len()];
    let mut wanted_out: Vec<Option<f64>> = vec![None; body.outputs.len()];
    for e in &body.edges {
        if let (Source::Port(k), Target::In { node, pin }) = (e.from, e.to) {
            let y = in_anchors[node][pin].y;
            wanted_in[k] = Some(wanted_in[k].map_or(y, |w: f64| w.min(y)));
        }
        if let (Source::Out { node, pin }, Target::Port(k)) = (e.from, e.to) {
            wanted_out[k] = Some(out_anchors[node][pin].y);
        }
    }
    let input_ports: Vec<Point> =
        port_column(&wanted_in, top).into_iter().map(|y| Point { x: left - 4.0 * PITCH, y }).collect();
    let output_ports: Vec<Point> =
        port_column(&wanted_out, top).into_iter().map(|y| Point { x: right + 3.0 * PITCH, y }).collect();

    // One net per source; each target reached by its own path from the source's stub.
    let mut by_source: HashMap<Source, usize> = HashMap::new();
    let mut nets: Vec<NetGeom> = Vec::new();
    for e in &body.edges {
        let k = *by_source.entry(e.from).or_insert_with(|| {
            nets.push(NetGeom {
                source: e.from,
                targets: Vec::new(),
                segments: Vec::new(),
                junctions: Vec::new(),
                delayed: e.delayed,
                late: Vec::new(), // set by `late::mark`
            });
            nets.len() - 1
        });
        nets[k].targets.push(e.to);
    }
    let source_at = |s: Source| match s {
        Source::Port(k) => input_ports[k],
        Source::Out { node, pin } => out_anchors[node][pin],
    };
    let target_at = |t: Target| match t {
        Target::Port(k) => output_ports[k],
        Target::In { node, pin } => in_anchors[node][pin],
    };
    let mut bends = 0;
    let mut length = 0.0;
    // Wires find their way around blocks in bodies of an editable size; the test is a scan of
    // every block per piece tried, so a body of thousands (a generated one) is drawn plainly.
    let obstacles: &[Rect] = if blocks.len() <= AVOID_UP_TO { &blocks } else { &[] };
    for (k, net) in nets.iter_mut().enumerate() {
        let s = source_at(net.source);
        // Vertical runs of different nets a few units apart, so they do not share a segment.
        let stub = PITCH / 2.0 + (k % 4) as f64 * 3.0;
        let ends: Vec<Point> = net.targets.iter().map(|&t| target_at(t)).collect();
        let forward: Vec<Point> = ends.iter().copied().filter(|t| t.x - s.x >= 2.0 * stub).collect();
        // A fan-out is one trunk, as on a panel: the first vertical run right of the source
        // from which no piece crosses a block (a wire drawn through a block reads as entering it).
        let trunk = if forward.is_empty() { None } else { clear_trunk(obstacles, s, &forward, stub) };
        let mut segs: Vec<Segment> = Vec::new();
        for &t in &ends {
            let path: Vec<Point> = if t.x - s.x >= 2.0 * stub {
                let mx = trunk.or_else(|| clear_trunk(obstacles, s, &[t], stub));
                match mx {
                    Some(mx) => vec![s, Point { x: mx, y: s.y }, Point { x: mx, y: t.y }, t],
                    None => around(obstacles, s, t, stub),
                }
            } else {
                // A wire back to the left: out, over the top of both ends, down into the pin.
                let over = s.y.min(t.y) - 2.0 * PITCH - (k % 4) as f64 * 3.0;
                let back = t.x - stub;
                vec![
                    s,
                    Point { x: s.x + stub, y: s.y },
                    Point { x: s.x + stub, y: over },
                    Point { x: back, y: over },
                    Point { x: back, y: t.y },
                    t,
                ]
            };
            for w in path.windows(2) {
                if w[0] != w[1] && !segs.contains(&(w[0], w[1])) {
                    length += (w[1].x - w[0].x).abs() + (w[1].y - w[0].y).abs();
                    segs.push((w[0], w[1]));
                }
            }
            bends += path.len().saturating_sub(2);
        }
        if net.targets.len() > 1 {
            if let Some(mx) = trunk {
                net.junctions.push(Point { x: mx, y: s.y });
            } else {
                net.junctions.push(Point { x: s.x + stub, y: s.y });
            }
        }
        net.segments = segs;
    }
    let mut width = output_ports.iter().map(|p| p.x + 6.0 * PITCH).fold(right + 4.0 * PITCH, f64::max);
    let mut height = blocks
        .iter()
        .map(|r| r.y + r.h)
        .fold(top + PITCH * (body.inputs.len().max(body.outputs.len()) as f64 + 2.0), f64::max);
    for (a, b) in nets.iter().flat_map(|n| n.segments.iter()) {
        width = width.max(a.x.max(b.x) + PITCH);
        height = height.max(a.y.max(b.y) + PITCH);
    }
    let mut l = Layout {
        blocks,
        in_anchors,
        out_anchors,
        input_ports,
        output_ports,
        nets,
        width,
        height,
        stats: Stats { crossings: 0, bends, length },
    };
    crate::late::mark(body, &mut l);
    l
}

/// The heights of a column of ports: each at the height it wants (that of the pin it is wired
/// to), a pitch apart at least, in the order of those heights; an unwired port wants the row of
/// its place in the list, on the pins' grid below `top` (the topmost block's top).
fn port_column(wanted: &[Option<f64>], top: f64) -> Vec<f64> {
    let row = |k: usize| top + PITCH / 2.0 + PITCH * (k as f64 + 1.0);
    let mut order: Vec<(f64, usize)> = wanted.iter().enumerate().map(|(k, w)| (w.unwrap_or(row(k)), k)).collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut ys = vec![0.0; wanted.len()];
    let mut next = f64::NEG_INFINITY;
    for (y, k) in order {
        ys[k] = y.max(next);
        next = ys[k] + PITCH;
    }
    ys
}

/// Whether the axis-parallel piece `a`-`b` passes through a block (its inside: running along
/// an edge, or ending on one where a pin is, is not through).
fn through_block(blocks: &[Rect], a: Point, b: Point) -> bool {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    blocks.iter().any(|r| x0 < r.x + r.w && x1 > r.x && y0 < r.y + r.h && y1 > r.y)
}

/// The x of a vertical run from source `s` to every target in `ends` (all right of it) whose
/// pieces cross no block: the first one right of the source's stub, on the grid's steps.
fn clear_trunk(blocks: &[Rect], s: Point, ends: &[Point], stub: f64) -> Option<f64> {
    let last = ends.iter().map(|t| t.x - stub).fold(f64::INFINITY, f64::min);
    let (lo, hi) = ends.iter().fold((s.y, s.y), |(lo, hi), t| (lo.min(t.y), hi.max(t.y)));
    let mut mx = s.x + stub;
    while mx <= last {
        let clear = !through_block(blocks, s, Point { x: mx, y: s.y })
            && !through_block(blocks, Point { x: mx, y: lo }, Point { x: mx, y: hi })
            && ends.iter().all(|t| !through_block(blocks, Point { x: mx, y: t.y }, *t));
        if clear {
            return Some(mx);
        }
        mx += PITCH;
    }
    None
}

/// A path from `s` to `t` (right of it) around the blocks in between: out of the source,
/// along a free row above or below, down or up next to the target, into its pin. Where no row
/// within reach is free, the plain path (through them).
fn around(blocks: &[Rect], s: Point, t: Point, stub: f64) -> Vec<Point> {
    let (a, b) = (s.x + stub, t.x - stub);
    for k in 1..=40 {
        for y in [t.y.min(s.y) - k as f64 * PITCH, t.y.max(s.y) + k as f64 * PITCH] {
            let path = [s, Point { x: a, y: s.y }, Point { x: a, y }, Point { x: b, y }, Point { x: b, y: t.y }, t];
            if path.windows(2).all(|w| !through_block(blocks, w[0], w[1])) {
                return path.to_vec();
            }
        }
    }
    vec![s, Point { x: a, y: s.y }, Point { x: a, y: t.y }, t]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Edge, Node};

    /// An AND block with two inputs.
    fn node(id: &str) -> Node {
        Node {
            id: id.into(),
            label: "AND".into(),
            inputs: vec![("in1".into(), None), ("in2".into(), None)],
            outputs: vec!["out".into()],
        }
    }

    #[test]
    fn blocks_stay_exactly_where_they_were_put_and_every_wire_reaches_its_pin() {
        let body = Body {
            nodes: vec![node("a"), node("b")],
            inputs: vec!["x".into()],
            outputs: vec![("y".into(), None)],
            edges: vec![
                Edge { from: Source::Port(0), to: Target::In { node: 0, pin: 0 }, delayed: false },
                Edge { from: Source::Out { node: 0, pin: 0 }, to: Target::In { node: 1, pin: 1 }, delayed: false },
                // b's output back into a: a wire to the left.
                Edge { from: Source::Out { node: 1, pin: 0 }, to: Target::In { node: 0, pin: 1 }, delayed: true },
                Edge { from: Source::Out { node: 1, pin: 0 }, to: Target::Port(0), delayed: false },
            ],
        };
        let l = layout_free(&body, &[Some([200.0, 100.0]), Some([500.0, 60.0])]);
        assert_eq!((l.blocks[0].x, l.blocks[0].y), (200.0, 100.0));
        assert_eq!((l.blocks[1].x, l.blocks[1].y), (500.0, 60.0));
        for net in &l.nets {
            let s = l.source_anchor(net.source);
            assert!(net.segments.iter().any(|(a, _)| *a == s), "the net starts at its source");
            for &t in &net.targets {
                let t = l.target_anchor(t);
                assert!(net.segments.iter().any(|(_, b)| *b == t), "the net ends at {t:?}");
            }
            for (a, b) in &net.segments {
                assert!(a.x == b.x || a.y == b.y, "orthogonal");
            }
        }
    }

    /// A wire does not cross a block standing between its ends: it goes around (over or under)
    /// or turns where the way is free (it was drawn straight through, reading as a pin of the
    /// block it crossed).
    #[test]
    fn wires_go_around_the_blocks_in_their_way() {
        let body = Body {
            nodes: vec![node("a"), node("wall"), node("b"), node("c")],
            inputs: Vec::new(),
            outputs: Vec::new(),
            edges: vec![
                // a -> b straight across `wall`; a -> c below, across its column too.
                Edge { from: Source::Out { node: 0, pin: 0 }, to: Target::In { node: 2, pin: 0 }, delayed: false },
                Edge { from: Source::Out { node: 0, pin: 0 }, to: Target::In { node: 3, pin: 1 }, delayed: false },
            ],
        };
        // `wall` (18 inputs: tall) stands right in the way, from above a's row to below c's.
        let mut body = body;
        body.nodes[1].inputs = (1..=18).map(|k| (format!("in{k}"), None)).collect();
        let l =
            layout_free(&body, &[Some([100.0, 90.0]), Some([300.0, 10.0]), Some([500.0, 90.0]), Some([500.0, 190.0])]);
        assert!(l.blocks[1].y + l.blocks[1].h > 250.0, "the wall covers both rows: {:?}", l.blocks[1]);
        for net in &l.nets {
            for &t in &net.targets {
                let t = l.target_anchor(t);
                assert!(net.segments.iter().any(|(_, b)| *b == t), "the net ends at {t:?}");
            }
            for (a, b) in &net.segments {
                assert!(!through_block(&l.blocks, *a, *b), "{a:?}-{b:?} crosses a block");
            }
        }
    }

    /// A port stands level with the pin it is wired to, so its wire is one straight segment
    /// (ports stood in a column from the top, half a pitch off the pins' grid, and every port
    /// wire had a jog); ports wanting the same height stand a pitch apart, unwired ones on the
    /// pins' grid.
    #[test]
    fn ports_stand_level_with_their_pins() {
        let body = Body {
            nodes: vec![node("a"), node("b")],
            inputs: vec!["x".into(), "y".into(), "unwired".into()],
            outputs: vec![("q".into(), None), ("r".into(), None)],
            edges: vec![
                Edge { from: Source::Port(0), to: Target::In { node: 1, pin: 1 }, delayed: false },
                Edge { from: Source::Port(1), to: Target::In { node: 1, pin: 1 }, delayed: false },
                Edge { from: Source::Port(1), to: Target::In { node: 0, pin: 0 }, delayed: false },
                Edge { from: Source::Out { node: 1, pin: 0 }, to: Target::Port(1), delayed: false },
                Edge { from: Source::Out { node: 0, pin: 0 }, to: Target::Port(0), delayed: false },
            ],
        };
        let l = layout_free(&body, &[Some([200.0, 110.0]), Some([200.0, 250.0])]);
        // y feeds a.in1 (the higher pin) and b.in2; x only b.in2.
        assert_eq!(l.input_ports[1].y, l.in_anchors[0][0].y);
        assert_eq!(l.input_ports[0].y, l.in_anchors[1][1].y);
        assert_eq!(l.output_ports[0].y, l.out_anchors[0][0].y);
        assert_eq!(l.output_ports[1].y, l.out_anchors[1][0].y);
        let wire_of = |s: Source| l.nets.iter().find(|n| n.source == s).expect("a net");
        let x = wire_of(Source::Port(0));
        let level = l.input_ports[0].y;
        assert!(x.segments.iter().all(|(a, b)| a.y == level && b.y == level), "a straight wire: {:?}", x.segments);
        let ys: Vec<f64> = l.input_ports.iter().map(|p| p.y).collect();
        for (i, a) in ys.iter().enumerate() {
            assert_eq!(a.rem_euclid(PITCH), 0.0, "port {i} on the pins' grid: {ys:?}");
            for b in &ys[i + 1..] {
                assert!((a - b).abs() >= PITCH, "ports a pitch apart: {ys:?}");
            }
        }
    }
}
