//! Free placement, for the editor: every block exactly where its `pos` puts it (the user
//! placed it there), wires as orthogonal paths between the pins that turn where no block is in
//! the way (over or under the blocks between their ends where none is free), each run shifted
//! within its grid step off the runs of nets drawn before it (two nets along one stretch read
//! as one signal), or sharing the least where a channel is too full. Unlike [`crate::layout`]
//! it promises nothing about crossings; it is what a drawing being edited looks like (the 2048
//! program's top level, 156 blocks, in about 6-11 ms).

use std::collections::HashMap;

use crate::{Body, Layout, NetGeom, PITCH, Point, Rect, Segment, Source, Stats, Target, node_width};

/// Bodies with at most this many blocks get wires routed around blocks.
const AVOID_UP_TO: usize = 1_500;

/// Lays `body` out with block `i`'s top-left corner at `pos[i]` (a block without a position is
/// put below the others). Body inputs stand in a column left of the leftmost block, outputs
/// right of the rightmost one.
pub fn layout_free(body: &Body, pos: &[Option<[f64; 2]>]) -> Layout {
    let Placed { blocks, in_anchors, out_anchors, left } = place_blocks(body, pos);
    let (input_ports, output_ports, top) = place_ports(body, &blocks, (&in_anchors, &out_anchors), left);
    let mut nets = nets_by_source(body);
    let ends = Ends {
        input_ports: &input_ports,
        output_ports: &output_ports,
        in_anchors: &in_anchors,
        out_anchors: &out_anchors,
    };
    let (bends, length) = route_nets(&mut nets, &blocks, &ends);
    let mut width =
        output_ports.iter().map(|p| p.x + 6.0 * PITCH).fold(right_edge(&blocks, left) + 4.0 * PITCH, f64::max);
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
        connectors: body
            .connectors
            .iter()
            .map(|c| crate::ConnectorGeom { source: c.source, label: c.name.clone(), targets: c.targets.clone() })
            .collect(),
        width,
        height,
        stats: Stats { crossings: 0, bends, length },
    };
    crate::late::mark(body, &mut l);
    l
}

/// The blocks where their positions put them, and their pins.
struct Placed {
    blocks: Vec<Rect>,
    in_anchors: Vec<Vec<Point>>,
    out_anchors: Vec<Vec<Point>>,
    /// The leftmost block's left edge (the input ports stand left of it).
    left: f64,
}

/// Every block at its position (a block without one below the others), with its pins.
fn place_blocks(body: &Body, pos: &[Option<[f64; 2]>]) -> Placed {
    let n = body.nodes.len();
    let pos: Vec<Option<[f64; 2]>> = pos.iter().map(|p| crate::usable(*p)).collect();
    let pos = &pos[..];
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
    Placed { blocks, in_anchors, out_anchors, left }
}

/// The rightmost block's right edge (the output ports stand right of it).
fn right_edge(blocks: &[Rect], left: f64) -> f64 {
    blocks.iter().map(|r| r.x + r.w).fold(left + 4.0 * PITCH, f64::max)
}

/// The body's input ports left of the blocks and output ports right of them; and the topmost
/// block's top.
fn place_ports(
    body: &Body,
    blocks: &[Rect],
    (in_anchors, out_anchors): (&[Vec<Point>], &[Vec<Point>]),
    left: f64,
) -> (Vec<Point>, Vec<Point>, f64) {
    let right = right_edge(blocks, left);
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
    (input_ports, output_ports, top)
}

/// One net per source, its targets in the order of the body's edges.
fn nets_by_source(body: &Body) -> Vec<NetGeom> {
    let mut by_source: HashMap<Source, usize> = HashMap::new();
    let mut nets: Vec<NetGeom> = Vec::new();
    // A net the author named with a connector is drawn as its labels, not routed.
    let named = |e: &&crate::Edge| body.connectors.iter().any(|c| c.source == e.from && c.targets.contains(&e.to));
    for e in body.edges.iter().filter(|e| !named(e)) {
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
    nets
}

/// Where the wires end: the ports and the blocks' pins.
struct Ends<'a> {
    input_ports: &'a [Point],
    output_ports: &'a [Point],
    in_anchors: &'a [Vec<Point>],
    out_anchors: &'a [Vec<Point>],
}

/// Each target reached by its own path from the source's stub; returns the bends and the
/// length of the wires.
fn route_nets(nets: &mut [NetGeom], blocks: &[Rect], e: &Ends) -> (usize, f64) {
    let source_at = |s: Source| match s {
        Source::Port(k) => e.input_ports[k],
        Source::Out { node, pin } => e.out_anchors[node][pin],
    };
    let target_at = |t: Target| match t {
        Target::Port(k) => e.output_ports[k],
        Target::In { node, pin } => e.in_anchors[node][pin],
    };
    let mut bends = 0;
    let mut length = 0.0;
    // Wires find their way around blocks in bodies of an editable size; the test is a scan of
    // every block per piece tried, so a body of thousands (a generated one) is drawn plainly.
    let obstacles = Obstacles::new(if blocks.len() <= AVOID_UP_TO { blocks } else { &[] });
    let obstacles = &obstacles;
    // Pieces already drawn, by row and column: a piece of another net on the same line over
    // the same stretch would read as one wire (the nets merged on screen).
    let mut occ = Occupied::default();
    let stub = PITCH / 2.0;
    for (k, net) in nets.iter_mut().enumerate() {
        let s = source_at(net.source);
        let ends: Vec<Point> = net.targets.iter().map(|&t| target_at(t)).collect();
        let forward: Vec<Point> = ends.iter().copied().filter(|t| t.x - s.x >= 2.0 * stub).collect();
        // A fan-out is one trunk, as on a panel: the first vertical run right of the source
        // from which no piece crosses a block (a wire drawn through a block reads as entering
        // it) nor runs along another net's piece.
        let trunk = if forward.is_empty() { None } else { clear_trunk(obstacles, &occ, k, s, &forward, stub).strict };
        let mut segs: Vec<Segment> = Vec::new();
        for &t in &ends {
            let path: Vec<Point> = if t.x - s.x >= 2.0 * stub {
                // Along no other net's run if possible (a trunk, else a way around), else only
                // clear of blocks (a channel too full for its nets: they share runs rather
                // than cross blocks).
                let straight = |mx: f64| vec![s, Point { x: mx, y: s.y }, Point { x: mx, y: t.y }, t];
                let one =
                    if trunk.is_some() { Found::default() } else { clear_trunk(obstacles, &occ, k, s, &[t], stub) };
                let way = if trunk.or(one.strict).is_some() {
                    Found::default()
                } else {
                    around(obstacles, &occ, k, s, t, stub)
                };
                trunk
                    .or(one.strict)
                    .map(straight)
                    .or(way.strict)
                    .or_else(|| one.lenient.map(straight))
                    .or(way.lenient)
                    .unwrap_or_else(|| straight(s.x + stub))
            } else {
                back_path(obstacles, &occ, k, s, t)
            };
            for w in path.windows(2) {
                if w[0] != w[1] && !segs.contains(&(w[0], w[1])) {
                    length += (w[1].x - w[0].x).abs() + (w[1].y - w[0].y).abs();
                    segs.push((w[0], w[1]));
                    occ.take(k, w[0], w[1]);
                }
            }
            bends += path.len().saturating_sub(2);
        }
        if net.targets.len() > 1 {
            // Where the branches part: the trunk, or the first bend out of the source.
            let at = trunk.map_or_else(
                || segs.first().map_or(Point { x: s.x + stub, y: s.y }, |(_, b)| *b),
                |mx| Point { x: mx, y: s.y },
            );
            net.junctions.push(at);
        }
        net.segments = segs;
    }
    (bends, length)
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

/// The blocks wires go around, sorted along both axes: a piece is tested against the blocks
/// in its narrow band only (a vertical run against a column's blocks), not every block.
struct Obstacles {
    by_x: Vec<Rect>,
    by_y: Vec<Rect>,
    max_w: f64,
    max_h: f64,
}

impl Obstacles {
    fn new(blocks: &[Rect]) -> Obstacles {
        let mut by_x = blocks.to_vec();
        by_x.sort_by(|a, b| a.x.total_cmp(&b.x));
        let mut by_y = blocks.to_vec();
        by_y.sort_by(|a, b| a.y.total_cmp(&b.y));
        let max_w = blocks.iter().map(|r| r.w).fold(0.0, f64::max);
        let max_h = blocks.iter().map(|r| r.h).fold(0.0, f64::max);
        Obstacles { by_x, by_y, max_w, max_h }
    }

    /// [`through_block`], on the blocks that can be in the way.
    fn hit(&self, a: Point, b: Point) -> bool {
        let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
        let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
        let inside = |r: &Rect| x0 < r.x + r.w && x1 > r.x && y0 < r.y + r.h && y1 > r.y;
        if x1 - x0 <= y1 - y0 {
            let from = self.by_x.partition_point(|r| r.x <= x0 - self.max_w);
            self.by_x[from..].iter().take_while(|r| r.x < x1).any(inside)
        } else {
            let from = self.by_y.partition_point(|r| r.y <= y0 - self.max_h);
            self.by_y[from..].iter().take_while(|r| r.y < y1).any(inside)
        }
    }
}

/// Whether the axis-parallel piece `a`-`b` passes through a block (its inside: running along
/// an edge, or ending on one where a pin is, is not through). The plain test of every block,
/// which [`Obstacles::hit`] must agree with.
#[cfg(test)]
fn through_block(blocks: &[Rect], a: Point, b: Point) -> bool {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    blocks.iter().any(|r| x0 < r.x + r.w && x1 > r.x && y0 < r.y + r.h && y1 > r.y)
}

/// The pieces on one line: (from, to, net) along it.
type Line = Vec<(f64, f64, usize)>;

/// Where pieces of wire stand, by line: a vertical piece by its x, a horizontal one by its y.
#[derive(Default)]
struct Occupied {
    vertical: HashMap<u64, Line>,
    horizontal: HashMap<u64, Line>,
}

impl Occupied {
    fn line(&self, a: Point, b: Point) -> (Option<&Line>, f64, f64) {
        if a.x == b.x {
            (self.vertical.get(&a.x.to_bits()), a.y.min(b.y), a.y.max(b.y))
        } else {
            (self.horizontal.get(&a.y.to_bits()), a.x.min(b.x), a.x.max(b.x))
        }
    }

    /// How much of the path runs along other nets' pieces (0 when it is free).
    fn shared(&self, net: usize, path: &[Point]) -> f64 {
        path.windows(2)
            .filter(|w| w[0] != w[1])
            .map(|w| {
                let (on, lo, hi) = self.line(w[0], w[1]);
                on.map_or(0.0, |v| {
                    v.iter().filter(|&&(_, _, n)| n != net).map(|&(l, h, _)| (h.min(hi) - l.max(lo)).max(0.0)).sum()
                })
            })
            .sum()
    }

    fn take(&mut self, net: usize, a: Point, b: Point) {
        let (map, key, lo, hi) = if a.x == b.x {
            (&mut self.vertical, a.x.to_bits(), a.y.min(b.y), a.y.max(b.y))
        } else {
            (&mut self.horizontal, a.y.to_bits(), a.x.min(b.x), a.x.max(b.x))
        };
        map.entry(key).or_default().push((lo, hi, net));
    }
}

/// Offsets tried around a grid column, nearest first: they stay between the grid's lines, where
/// no block edge is (blocks stand on the lines), so the block test of the column holds for all.
const SHIFTS: [f64; 5] = [0.0, -4.0, 4.0, -8.0, 8.0];

/// What a search found: the first way along no other net's run, and the first way clear of
/// blocks only (for a channel too full for its nets: they share runs rather than cross blocks).
struct Found<T> {
    strict: Option<T>,
    lenient: Option<T>,
}

impl<T> Default for Found<T> {
    fn default() -> Self {
        Found { strict: None, lenient: None }
    }
}

/// The x of a vertical run from source `s` to every target in `ends` (all right of it) whose
/// pieces cross no block: the first one right of the source's stub, on the grid's steps,
/// shifted a little within its step where another net's run is in the way (strict), or not
/// (lenient). The block test is made once per step: the shifts stay inside it.
fn clear_trunk(blocks: &Obstacles, occ: &Occupied, net: usize, s: Point, ends: &[Point], stub: f64) -> Found<f64> {
    let last = ends.iter().map(|t| t.x - stub).fold(f64::INFINITY, f64::min);
    let (lo, hi) = ends.iter().fold((s.y, s.y), |(lo, hi), t| (lo.min(t.y), hi.max(t.y)));
    let mut found = Found::default();
    // Where every run shares with other nets somewhere: the one that shares least.
    let mut least: Option<(f64, f64)> = None;
    let mut mx = s.x + stub;
    while mx <= last {
        let clear = !blocks.hit(s, Point { x: mx, y: s.y })
            && !blocks.hit(Point { x: mx, y: lo }, Point { x: mx, y: hi })
            && ends.iter().all(|t| !blocks.hit(Point { x: mx, y: t.y }, *t));
        if clear {
            for x in SHIFTS.iter().map(|d| mx + d) {
                let mut pieces = vec![s, Point { x, y: s.y }, Point { x, y: lo }, Point { x, y: hi }];
                for t in ends {
                    pieces.extend([Point { x, y: t.y }, *t]);
                }
                let cost = pieces.chunks(2).map(|w| occ.shared(net, w)).sum::<f64>();
                if cost == 0.0 {
                    found.strict = Some(x);
                    return found;
                }
                if least.is_none_or(|(c, _)| cost < c) {
                    least = Some((cost, x));
                    found.lenient = Some(x);
                }
            }
        }
        mx += PITCH;
    }
    found
}

/// A path from `s` to `t` (right of it) around the blocks in between: out of the source,
/// along a row above or below clear of blocks, down or up next to the target, into its pin;
/// strict: along no other net's run either. Nothing where no row within reach is clear.
fn around(blocks: &Obstacles, occ: &Occupied, net: usize, s: Point, t: Point, stub: f64) -> Found<Vec<Point>> {
    let path = |d: f64, y: f64| {
        let (a, b) = (s.x + stub + d, t.x - stub - d);
        vec![s, Point { x: a, y: s.y }, Point { x: a, y }, Point { x: b, y }, Point { x: b, y: t.y }, t]
    };
    let mut found = Found::default();
    // Where every way runs along other nets somewhere: the one that shares least.
    let mut least: Option<(f64, Vec<Point>)> = None;
    for k in 1..=40 {
        // Between the rows of pins (which stand on the grid's lines) and the blocks' edges
        // (half a pitch off them): a run along either reads as part of it.
        let off = k as f64 * PITCH - PITCH / 4.0;
        for y in [t.y.min(s.y) - off, t.y.max(s.y) + off] {
            if path(0.0, y).windows(2).any(|w| blocks.hit(w[0], w[1])) {
                continue;
            }
            for d in SHIFTS {
                let p = path(d, y);
                let cost = occ.shared(net, &p);
                if cost == 0.0 {
                    found.strict = Some(p);
                    return found;
                }
                if least.as_ref().is_none_or(|(c, _)| cost < *c) {
                    least = Some((cost, p));
                }
            }
        }
    }
    found.lenient = least.map(|(_, p)| p);
    found
}

/// A wire back to the left (a feedback wire, mostly): out of the source, along a row over (or
/// under) both ends and every block between them, into the pin; its runs shifted where another
/// net's are. (It took the row two pitches over the higher end, through any taller block in
/// between, the source's own included.)
fn back_path(blocks: &Obstacles, occ: &Occupied, net: usize, s: Point, t: Point) -> Vec<Point> {
    let path = |d: f64, over: f64| {
        let (out, back) = (s.x + PITCH / 2.0 + d, t.x - PITCH / 2.0 - d);
        vec![
            s,
            Point { x: out, y: s.y },
            Point { x: out, y: over },
            Point { x: back, y: over },
            Point { x: back, y: t.y },
            t,
        ]
    };
    let clear = |p: &[Point]| p.windows(2).all(|w| !blocks.hit(w[0], w[1]));
    // A quarter pitch off the grid: between the rows of pins and the blocks' edges.
    let (hi, lo) = (s.y.min(t.y), s.y.max(t.y));
    // Where every way runs along other nets somewhere: the one that shares least.
    let mut least: Option<(f64, Vec<Point>)> = None;
    for k in 2..=60 {
        let off = k as f64 * PITCH - PITCH / 4.0;
        for over in [hi - off, lo + off] {
            if !clear(&path(0.0, over)) {
                continue;
            }
            for d in SHIFTS {
                let p = path(d, over);
                let cost = occ.shared(net, &p);
                if cost == 0.0 {
                    return p;
                }
                if least.as_ref().is_none_or(|(c, _)| cost < *c) {
                    least = Some((cost, p));
                }
            }
        }
    }
    if let Some((_, p)) = least {
        return p;
    }
    path(0.0, hi - 2.0 * PITCH + PITCH / 4.0)
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
            negated: Default::default(),
            negated_outputs: Vec::new(),
            comment: None,
        }
    }

    #[test]
    fn blocks_stay_exactly_where_they_were_put_and_every_wire_reaches_its_pin() {
        let body = Body {
            connectors: Vec::new(),
            remote_inputs: 0,
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
            connectors: Vec::new(),
            remote_inputs: 0,
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
            connectors: Vec::new(),
            remote_inputs: 0,
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

    /// The banded block test agrees with the test of every block, on blocks of several sizes
    /// and pieces of every length (a deterministic pseudo-random sample).
    #[test]
    fn the_banded_block_test_agrees_with_the_plain_one() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let blocks: Vec<Rect> = (0..300)
            .map(|_| Rect {
                x: (next(100) * 20) as f64,
                y: (next(100) * 20 + 10) as f64,
                w: (3 + next(8)) as f64 * 20.0,
                h: (2 + next(12)) as f64 * 20.0,
            })
            .collect();
        let obs = Obstacles::new(&blocks);
        for _ in 0..20_000 {
            let a = Point { x: next(2100) as f64, y: next(2100) as f64 };
            let len = next(1200) as f64;
            let b = if next(2) == 0 { Point { x: a.x + len, y: a.y } } else { Point { x: a.x, y: a.y - len } };
            assert_eq!(obs.hit(a, b), through_block(&blocks, a, b), "{a:?}-{b:?}");
        }
    }
}
