//! Coordinates and orthogonal routing. Wires turn only in the channels between columns; in each
//! channel a net that must turn gets a vertical track of its own. Where one net leaves a column
//! at the row another enters the next column, the first net's track must lie left of the
//! second's, or their horizontal pieces would overlap: the tracks are ordered by these
//! constraints (a topological order), ties broken so that fewer wires cross. Wires that go
//! back (to a column not right of their source) climb to a lane of their own above the drawing.

use std::collections::BTreeMap;

use crate::layers::{Graph, Kind};
use crate::{Body, CHAR_W, Layout, NetGeom, Options, PITCH, Point, Rect, Segment, Source, Stats, node_width};

#[derive(Default, Clone)]
struct Presence {
    left: Vec<i64>,
    right: Vec<i64>,
    /// The net's back lane, when its wire must reach it in this channel.
    lane: Option<i64>,
    /// Lanes of detours (see `Detour`) that the main track must reach too.
    detours: Vec<i64>,
}

/// Where the track order cannot satisfy every constraint (a cycle), the net's entries at the
/// conflicting rows are served by a second track right of all others, reached over a lane of
/// its own above the drawing.
struct Detour {
    net: usize,
    lane: i64,
    rows: Vec<i64>,
}

pub(crate) fn route(body: &Body, g: &Graph, top: &[i64], opts: &Options, tags: &crate::TagRoom) -> Layout {
    let ncols = g.cols.len();
    let room = channel_rooms(body, g, opts, tags);
    let (lane_of, mut lanes) = back_lanes(g);
    let colw = column_widths(body, g);
    let label_w = label_widths(body, g);
    let present_in = channels_of_nets(g, ncols.saturating_sub(1));
    let mut chan = presence(g, top, &lane_of, &present_in, ncols.saturating_sub(1));
    let (track, detours) = order_tracks(&chan, &mut lanes);
    // The detours' own tracks come after every other track of their channel.
    for (c, ds) in detours.iter().enumerate() {
        for d in ds {
            let p = chan[c].get_mut(&d.net).expect("a detoured net is present");
            p.right.retain(|r| !d.rows.contains(r));
            p.detours.push(d.lane);
        }
    }
    let (col_x, chan_x) = column_x(g, &colw, &label_w, &track, &detours, &room);
    let grid = Grid {
        g,
        top,
        base: (lanes as f64 + 2.0) * PITCH,
        room,
        colw,
        col_x,
        chan_x,
        chan,
        track,
        detours,
        present_in,
        lane_of,
    };
    let nodes = grid.node_geometry(body);
    let nets: Vec<NetGeom> = (0..g.nets.len()).map(|k| grid.net_geometry(k, &nodes)).collect();
    let last = ncols - 1;
    let width = grid.col_x[last] + grid.colw[last] + PITCH;
    let height = nodes.max_y + PITCH;
    let stats = stats(&nets);
    let NodeGeometry { blocks, in_anchors, out_anchors, input_ports, output_ports, .. } = nodes;
    Layout {
        blocks,
        in_anchors,
        out_anchors,
        input_ports,
        output_ports,
        nets,
        connectors: Vec::new(),
        width,
        height,
        stats,
    }
}

/// A lane above the drawing for each net with back targets; the lanes' count.
fn back_lanes(g: &Graph) -> (Vec<Option<i64>>, i64) {
    let mut lane_of: Vec<Option<i64>> = vec![None; g.nets.len()];
    let mut lanes = 0;
    for (k, net) in g.nets.iter().enumerate() {
        if !net.back.is_empty() {
            lane_of[k] = Some(-2 - lanes);
            lanes += 1;
        }
    }
    (lane_of, lanes)
}

/// Each column's width: its widest node, on the grid.
fn column_widths(body: &Body, g: &Graph) -> Vec<f64> {
    let mut colw = vec![0.0f64; g.cols.len()];
    for nd in &g.nodes {
        let w = match nd.kind {
            Kind::Block(i) => node_width(&body.nodes[i]),
            Kind::InPort(k) => body.inputs[k].chars().count() as f64 * CHAR_W + PITCH,
            Kind::OutPort(k) => body.outputs[k].0.chars().count() as f64 * CHAR_W + PITCH,
            Kind::Dummy(_) => 0.0,
        };
        colw[nd.col] = colw[nd.col].max(w);
    }
    for w in &mut colw {
        *w = (*w / PITCH).ceil() * PITCH;
    }
    colw
}

/// The room constant labels take in each channel: they sit left of their pins, in the channel
/// before the column.
fn label_widths(body: &Body, g: &Graph) -> Vec<f64> {
    let mut label_w = vec![0.0f64; g.cols.len()];
    for nd in &g.nodes {
        let consts: Vec<usize> = match nd.kind {
            // A negated pin's constant stands a character further left, beyond the circle.
            Kind::Block(i) => {
                let n = &body.nodes[i];
                let text = |(k, c): (usize, &String)| c.chars().count() + usize::from(n.is_negated(k));
                n.inputs.iter().enumerate().filter_map(|(k, (_, c))| c.as_ref().map(|c| text((k, c)))).collect()
            }
            Kind::OutPort(k) => body.outputs[k].1.iter().map(|c| c.chars().count()).collect(),
            _ => Vec::new(),
        };
        if nd.col > 0 {
            for n in consts {
                label_w[nd.col - 1] = label_w[nd.col - 1].max(((n as f64 + 1.0) * CHAR_W / PITCH).ceil() * PITCH);
            }
        }
    }
    label_w
}

/// The channels each net can be present in: from the one before its source to the one before
/// its last column, and the ones before its back targets (every other channel would come out
/// empty; visiting them all made this quadratic).
fn channels_of_nets(g: &Graph, nchan: usize) -> Vec<Vec<usize>> {
    g.nets
        .iter()
        .map(|net| {
            let sc = g.nodes[net.src.0].col;
            let reach =
                net.fwd.iter().map(|t| g.nodes[t.0].col).chain(net.dummies.iter().map(|d| d.0)).max().unwrap_or(sc);
            let mut cs: Vec<usize> = (sc.saturating_sub(1)..reach.max(sc) + 1).collect();
            cs.extend(net.back.iter().map(|t| g.nodes[t.0].col.saturating_sub(1)));
            cs.retain(|&c| c < nchan);
            cs.sort_unstable();
            cs.dedup();
            cs
        })
        .collect()
}

/// The row of a node's pin `e` = (node, pin).
fn row_of(top: &[i64], e: (usize, usize)) -> i64 {
    top[e.0] + e.1 as i64
}

/// What each net does in each channel: the rows it leaves the column before at, enters the
/// column after at, and whether it climbs to its back lane there.
fn presence(
    g: &Graph,
    top: &[i64],
    lane_of: &[Option<i64>],
    present_in: &[Vec<usize>],
    nchan: usize,
) -> Vec<BTreeMap<usize, Presence>> {
    let mut chan: Vec<BTreeMap<usize, Presence>> = vec![BTreeMap::new(); nchan];
    for (k, net) in g.nets.iter().enumerate() {
        let sc = g.nodes[net.src.0].col;
        // Dummies sit in the columns right after the source, one per column.
        let at = |c: usize| -> Option<i64> {
            if c == sc {
                Some(row_of(top, net.src))
            } else {
                c.checked_sub(sc + 1).and_then(|i| net.dummies.get(i)).filter(|d| d.0 == c).map(|d| top[d.1])
            }
        };
        for &c in &present_in[k] {
            let mut p = Presence::default();
            if let Some(r) = at(c)
                && (at(c + 1).is_some() || net.fwd.iter().any(|t| g.nodes[t.0].col == c + 1))
            {
                p.left.push(r);
            }
            if let Some(r) = at(c + 1)
                && c + 1 != sc
            {
                p.right.push(r);
            }
            for &t in &net.fwd {
                if g.nodes[t.0].col == c + 1 {
                    p.right.push(row_of(top, t));
                }
            }
            if let Some(l) = lane_of[k] {
                if c == sc {
                    p.left.push(row_of(top, net.src));
                    p.lane = Some(l);
                }
                for &t in &net.back {
                    if g.nodes[t.0].col == c + 1 {
                        p.right.push(row_of(top, t));
                        p.lane = Some(l);
                    }
                }
            }
            p.left.sort_unstable();
            p.left.dedup();
            p.right.sort_unstable();
            p.right.dedup();
            if !p.left.is_empty() || !p.right.is_empty() {
                chan[c].insert(k, p);
            }
        }
    }
    chan
}

/// Each channel's tracks (net → track index from the left), and the detours a cycle of
/// constraints needed, each with a lane of its own (counted on from `lanes`).
fn order_tracks(
    chan: &[BTreeMap<usize, Presence>],
    lanes: &mut i64,
) -> (Vec<BTreeMap<usize, usize>>, Vec<Vec<Detour>>) {
    let mut track: Vec<BTreeMap<usize, usize>> = vec![BTreeMap::new(); chan.len()];
    let mut detours: Vec<Vec<Detour>> = (0..chan.len()).map(|_| Vec::new()).collect();
    for (c, nets) in chan.iter().enumerate() {
        for (i, k) in channel_order(nets, &mut detours[c], lanes).into_iter().enumerate() {
            track[c].insert(k, i);
        }
    }
    (track, detours)
}

/// The order of the tracks of one channel's nets that must turn in it: a topological order of
/// "a before b when a leaves at a row where b arrives", ties broken so that fewer wires cross.
fn channel_order(nets: &BTreeMap<usize, Presence>, detours: &mut Vec<Detour>, lanes: &mut i64) -> Vec<usize> {
    let needs: Vec<usize> = nets
        .iter()
        .filter(|(_, p)| !(p.lane.is_none() && p.left.len() == 1 && p.right.len() == 1 && p.left[0] == p.right[0]))
        .map(|(k, _)| *k)
        .collect();
    let mut before: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut indeg: BTreeMap<usize, usize> = needs.iter().map(|&k| (k, 0)).collect();
    for &a in &needs {
        for &b in &needs {
            if a != b && nets[&a].left.iter().any(|r| nets[&b].right.contains(r)) {
                before.entry(a).or_default().push(b);
                *indeg.get_mut(&b).expect("needs a track") += 1;
            }
        }
    }
    // Ties: a wire that goes down takes a track further left the lower it starts, one that
    // goes up the higher it starts; that keeps their pieces from crossing each other.
    let key = |k: usize| -> (i64, i64) {
        let p = &nets[&k];
        let l = p.left.iter().sum::<i64>() * 2 / (p.left.len().max(1) as i64);
        let r = match p.lane {
            Some(lane) => lane * 2,
            None => p.right.iter().sum::<i64>() * 2 / (p.right.len().max(1) as i64),
        };
        if r >= l { (0, -l) } else { (1, l) }
    };
    let mut placed: Vec<usize> = Vec::new();
    let mut left: Vec<usize> = needs.clone();
    while !left.is_empty() {
        let ready: Vec<usize> = left.iter().copied().filter(|k| indeg[k] == 0).collect();
        let pick = if ready.is_empty() {
            // A cycle of constraints: the least constrained net is placed now, and its
            // entries at rows where a net not yet placed leaves take a detour.
            let pick = *left.iter().min_by_key(|k| (indeg[k], key(**k), **k)).expect("non-empty");
            let rows: Vec<i64> = nets[&pick]
                .right
                .iter()
                .copied()
                .filter(|r| left.iter().any(|&a| a != pick && nets[&a].left.contains(r)))
                .collect();
            detours.push(Detour { net: pick, lane: -2 - *lanes, rows });
            *lanes += 1;
            pick
        } else {
            *ready.iter().min_by_key(|k| (key(**k), **k)).expect("non-empty")
        };
        left.retain(|&k| k != pick);
        placed.push(pick);
        for b in before.get(&pick).cloned().unwrap_or_default() {
            if let Some(d) = indeg.get_mut(&b) {
                *d = d.saturating_sub(1);
            }
        }
    }
    placed
}

/// Per channel, where its tracks start right of the pins of the column before it, on the grid:
/// after the room a view keeps for values, or a connector's tag standing there.
fn channel_rooms(body: &Body, g: &Graph, opts: &Options, tags: &crate::TagRoom) -> Vec<f64> {
    let mut room = vec![opts.value_room.max(0.0); g.cols.len().saturating_sub(1)];
    if !tags.is_empty() {
        let (mut block_col, mut port_col) = (vec![None; body.nodes.len()], vec![None; body.inputs.len()]);
        for n in &g.nodes {
            match n.kind {
                Kind::Block(i) => block_col[i] = Some(n.col),
                Kind::InPort(k) => port_col[k] = Some(n.col),
                Kind::OutPort(_) | Kind::Dummy(_) => {}
            }
        }
        for &(source, w) in tags {
            let col = match source {
                Source::Out { node, .. } => block_col.get(node).copied().flatten(),
                Source::Port(k) => port_col.get(k).copied().flatten(),
            };
            if let Some(r) = col.and_then(|c| room.get_mut(c)) {
                *r = r.max(w);
            }
        }
    }
    room.iter().map(|r| (r / PITCH).ceil() * PITCH).collect()
}

/// The x of every column and of every channel. Stored positions: the whole drawing moves by
/// one offset (set by the first stored column), so each column stands where the user put it
/// relative to the others, as in the editor; a column moves further right only where the
/// channel before it needs the room.
fn column_x(
    g: &Graph,
    colw: &[f64],
    label_w: &[f64],
    track: &[BTreeMap<usize, usize>],
    detours: &[Vec<Detour>],
    room: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let ncols = g.cols.len();
    let mut col_x = vec![PITCH; ncols];
    let mut chan_x = vec![0.0f64; ncols.saturating_sub(1)];
    let mut shift: Option<f64> = None;
    for c in 0..ncols - 1 {
        chan_x[c] = col_x[c] + colw[c];
        let w = ((track[c].len() + detours[c].len() + 1) as f64 * PITCH + label_w[c] + room[c]).max(2.0 * PITCH);
        let mut x = chan_x[c] + w;
        if let Some(want) = g.want_x.get(c + 1).copied().flatten() {
            x = x.max(want + *shift.get_or_insert(x - want));
        }
        col_x[c + 1] = x;
    }
    (col_x, chan_x)
}

/// Where the nodes stand.
struct NodeGeometry {
    blocks: Vec<Rect>,
    in_anchors: Vec<Vec<Point>>,
    out_anchors: Vec<Vec<Point>>,
    input_ports: Vec<Point>,
    output_ports: Vec<Point>,
    max_y: f64,
}

/// The drawing's grid once tracks are chosen: columns, channels, tracks and lanes.
struct Grid<'a> {
    g: &'a Graph,
    top: &'a [i64],
    /// y of row 0 (the lanes above it).
    base: f64,
    /// Per channel: where its tracks start, right of the pins before it.
    room: Vec<f64>,
    colw: Vec<f64>,
    col_x: Vec<f64>,
    chan_x: Vec<f64>,
    chan: Vec<BTreeMap<usize, Presence>>,
    track: Vec<BTreeMap<usize, usize>>,
    detours: Vec<Vec<Detour>>,
    present_in: Vec<Vec<usize>>,
    lane_of: Vec<Option<i64>>,
}

impl Grid<'_> {
    fn y(&self, row: i64) -> f64 {
        self.base + row as f64 * PITCH
    }

    fn track_x(&self, c: usize, k: usize) -> f64 {
        self.chan_x[c] + self.room[c] + (self.track[c][&k] + 1) as f64 * PITCH
    }

    fn node_geometry(&self, body: &Body) -> NodeGeometry {
        let (g, top) = (self.g, self.top);
        let mut geo = NodeGeometry {
            blocks: vec![Rect { x: 0.0, y: 0.0, w: 0.0, h: 0.0 }; body.nodes.len()],
            in_anchors: vec![Vec::new(); body.nodes.len()],
            out_anchors: vec![Vec::new(); body.nodes.len()],
            input_ports: vec![Point { x: 0.0, y: 0.0 }; body.inputs.len()],
            output_ports: vec![Point { x: 0.0, y: 0.0 }; body.outputs.len()],
            max_y: 0.0,
        };
        for (v, nd) in g.nodes.iter().enumerate() {
            let x = self.col_x[nd.col];
            match nd.kind {
                Kind::Block(i) => {
                    let n = &body.nodes[i];
                    let w = node_width(n);
                    let r = Rect { x, y: self.y(top[v]) - PITCH / 2.0, w, h: nd.rows as f64 * PITCH };
                    geo.max_y = geo.max_y.max(r.y + r.h);
                    geo.blocks[i] = r;
                    geo.in_anchors[i] =
                        (0..n.inputs.len()).map(|k| Point { x, y: self.y(top[v] + 1 + k as i64) }).collect();
                    geo.out_anchors[i] =
                        (0..n.outputs.len()).map(|k| Point { x: x + w, y: self.y(top[v] + 1 + k as i64) }).collect();
                }
                Kind::InPort(k) => geo.input_ports[k] = Point { x: x + self.colw[0], y: self.y(top[v]) },
                Kind::OutPort(k) => geo.output_ports[k] = Point { x, y: self.y(top[v]) },
                Kind::Dummy(_) => {}
            }
            geo.max_y = geo.max_y.max(self.y(top[v]) + PITCH / 2.0);
        }
        geo
    }

    /// Where net `k` leaves column `c` at `row` (its source's right edge, or a dummy's right
    /// end).
    fn leave_x(&self, k: usize, c: usize, row: i64, nodes: &NodeGeometry) -> f64 {
        let (g, net) = (self.g, &self.g.nets[k]);
        if g.nodes[net.src.0].col == c && row_of(self.top, net.src) == row {
            match g.nodes[net.src.0].kind {
                Kind::Block(i) => nodes.blocks[i].x + nodes.blocks[i].w,
                Kind::InPort(p) => nodes.input_ports[p].x,
                _ => self.col_x[c] + self.colw[c],
            }
        } else {
            self.col_x[c] + self.colw[c]
        }
    }

    /// Net `k`'s segments: through the columns it crosses, in each channel straight or over
    /// its track (and detours), and along its back lane.
    fn net_geometry(&self, k: usize, nodes: &NodeGeometry) -> NetGeom {
        let (top, net) = (self.top, &self.g.nets[k]);
        let y = |row: i64| self.y(row);
        let mut segs: Vec<Segment> = Vec::new();
        let mut push = |a: Point, b: Point| {
            if a != b {
                segs.push((a, b));
            }
        };
        for &(c, d) in &net.dummies {
            push(Point { x: self.col_x[c], y: y(top[d]) }, Point { x: self.col_x[c] + self.colw[c], y: y(top[d]) });
        }
        let mut lane_span: Option<(f64, f64)> = None;
        for &c in &self.present_in[k] {
            let Some(p) = self.chan[c].get(&k) else { continue };
            let enter = self.col_x[c + 1];
            if !self.track[c].contains_key(&k) {
                // Straight through the channel.
                let r = p.left[0];
                push(Point { x: self.leave_x(k, c, r, nodes), y: y(r) }, Point { x: enter, y: y(r) });
                continue;
            }
            let tx = self.track_x(c, k);
            let (mut lo, mut hi) = (i64::MAX, i64::MIN);
            for &r in &p.left {
                push(Point { x: self.leave_x(k, c, r, nodes), y: y(r) }, Point { x: tx, y: y(r) });
                (lo, hi) = (lo.min(r), hi.max(r));
            }
            for &r in &p.right {
                push(Point { x: tx, y: y(r) }, Point { x: enter, y: y(r) });
                (lo, hi) = (lo.min(r), hi.max(r));
            }
            if let Some(l) = p.lane {
                (lo, hi) = (lo.min(l), hi.max(l));
                lane_span = Some(lane_span.map_or((tx, tx), |(a, b)| (a.min(tx), b.max(tx))));
            }
            for &l in &p.detours {
                lo = lo.min(l);
            }
            push(Point { x: tx, y: y(lo) }, Point { x: tx, y: y(hi) });
            for (i, d) in self.detours[c].iter().enumerate().filter(|(_, d)| d.net == k) {
                let dx = self.chan_x[c] + self.room[c] + (self.track[c].len() + i + 1) as f64 * PITCH;
                let bottom = d.rows.iter().copied().max().unwrap_or(d.lane);
                push(Point { x: tx, y: y(d.lane) }, Point { x: dx, y: y(d.lane) });
                push(Point { x: dx, y: y(d.lane) }, Point { x: dx, y: y(bottom) });
                for &r in &d.rows {
                    push(Point { x: dx, y: y(r) }, Point { x: enter, y: y(r) });
                }
            }
        }
        if let (Some((a, b)), Some(l)) = (lane_span, self.lane_of[k]) {
            push(Point { x: a, y: y(l) }, Point { x: b, y: y(l) });
        }
        let junctions = junctions(&segs);
        NetGeom {
            source: net.source,
            targets: net.targets.clone(),
            segments: segs,
            junctions,
            delayed: net.delayed,
            late: Vec::new(), // set by `late::mark`
        }
    }
}

/// The pieces of one net indexed by the points they pass: how many end at a point (horizontal,
/// vertical) and how many pass through it (the interior of a horizontal at its height, of a
/// vertical at its x). Lookups instead of a pass over every piece per point, which made a net
/// with thousands of targets (a program input read everywhere) quadratic.
struct PieceIndex {
    ends: std::collections::HashMap<(u64, u64), (usize, usize)>,
    rows: std::collections::HashMap<u64, Vec<(f64, f64)>>,
    cols: std::collections::HashMap<u64, Vec<(f64, f64)>>,
}

/// A coordinate as a key (-0.0 and 0.0 are the same place).
fn key(v: f64) -> u64 {
    (v + 0.0).to_bits()
}

impl PieceIndex {
    fn new(segs: &[Segment]) -> PieceIndex {
        let mut ix = PieceIndex { ends: Default::default(), rows: Default::default(), cols: Default::default() };
        for s in segs {
            let horizontal = s.0.y == s.1.y;
            for p in [s.0, s.1] {
                let e = ix.ends.entry((key(p.x), key(p.y))).or_default();
                if horizontal { e.0 += 1 } else { e.1 += 1 }
            }
            if horizontal {
                ix.rows.entry(key(s.0.y)).or_default().push((s.0.x.min(s.1.x), s.0.x.max(s.1.x)));
            } else {
                ix.cols.entry(key(s.0.x)).or_default().push((s.0.y.min(s.1.y), s.0.y.max(s.1.y)));
            }
        }
        ix
    }

    /// Pieces ending at `p`: (horizontal, vertical).
    fn ending(&self, p: Point) -> (usize, usize) {
        self.ends.get(&(key(p.x), key(p.y))).copied().unwrap_or((0, 0))
    }

    /// Pieces `p` lies strictly inside of.
    fn through(&self, p: Point) -> usize {
        let inside = |list: Option<&Vec<(f64, f64)>>, v: f64| {
            list.map_or(0, |l| l.iter().filter(|r| r.0 < v && v < r.1).count())
        };
        inside(self.rows.get(&key(p.y)), p.x) + inside(self.cols.get(&key(p.x)), p.y)
    }
}

/// Points where three or more wire pieces of one net meet (a piece ending there counts once,
/// one passing through twice).
fn junctions(segs: &[Segment]) -> Vec<Point> {
    let ix = PieceIndex::new(segs);
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<Point> = Vec::new();
    for s in segs {
        for p in [s.0, s.1] {
            if !seen.insert((key(p.x), key(p.y))) {
                continue;
            }
            let (h, v) = ix.ending(p);
            if h + v + 2 * ix.through(p) >= 3 {
                out.push(p);
            }
        }
    }
    out
}

fn stats(nets: &[NetGeom]) -> Stats {
    let horizontal = |s: &Segment| s.0.y == s.1.y;
    let mut st = Stats::default();
    for n in nets {
        for s in &n.segments {
            st.length += (s.0.x - s.1.x).abs() + (s.0.y - s.1.y).abs();
        }
        // Corners: an end shared by a horizontal and a vertical piece and nothing else.
        let ix = PieceIndex::new(&n.segments);
        let mut ends: Vec<Point> = n.segments.iter().flat_map(|s| [s.0, s.1]).collect();
        ends.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        ends.dedup();
        for p in ends {
            if ix.ending(p) == (1, 1) && ix.through(p) == 0 {
                st.bends += 1;
            }
        }
    }
    // Crossings between nets: every horizontal-vertical crossing, less those within a net.
    let pieces = |segs: &mut dyn Iterator<Item = &Segment>| {
        let (mut hs, mut vs) = (Vec::new(), Vec::new());
        for s in segs {
            if horizontal(s) {
                hs.push((s.0.x.min(s.1.x), s.0.x.max(s.1.x), s.0.y));
            } else {
                vs.push((s.0.x, s.0.y.min(s.1.y), s.0.y.max(s.1.y)));
            }
        }
        (hs, vs)
    };
    let (hs, vs) = pieces(&mut nets.iter().flat_map(|n| n.segments.iter()));
    let within: usize = nets
        .iter()
        .map(|n| {
            let (hs, vs) = pieces(&mut n.segments.iter());
            crossings(&hs, &vs)
        })
        .sum();
    st.crossings = crossings(&hs, &vs) - within;
    st
}

/// How many horizontal pieces `(x0, x1, y)` cross vertical pieces `(x, y0, y1)` in both
/// interiors (`x0 < x < x1`, `y0 < y < y1`): a sweep over x with the open horizontals counted
/// by height, O(n log n) where every pair would be quadratic (a 20k-block body has ~10^5
/// pieces).
fn crossings(hs: &[(f64, f64, f64)], vs: &[(f64, f64, f64)]) -> usize {
    per_vertical(hs, vs).iter().sum()
}

/// [`crossings`] per vertical piece: how many horizontals each crosses.
fn per_vertical(hs: &[(f64, f64, f64)], vs: &[(f64, f64, f64)]) -> Vec<usize> {
    let mut ys: Vec<f64> = hs.iter().map(|h| h.2).collect();
    ys.sort_by(f64::total_cmp);
    ys.dedup();
    // At one x: horizontals ending there close first and those starting there open last, so
    // a vertical there crosses neither (interiors only).
    const CLOSE: u8 = 0;
    const QUERY: u8 = 1;
    const OPEN: u8 = 2;
    let mut events: Vec<(f64, u8, usize)> = Vec::with_capacity(2 * hs.len() + vs.len());
    for (k, h) in hs.iter().enumerate() {
        events.push((h.0, OPEN, k));
        events.push((h.1, CLOSE, k));
    }
    for (k, v) in vs.iter().enumerate() {
        events.push((v.0, QUERY, k));
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    // A Fenwick tree over the ranks of the heights.
    let mut tree = vec![0i64; ys.len() + 1];
    let add = |tree: &mut Vec<i64>, rank: usize, d: i64| {
        let mut i = rank + 1;
        while i < tree.len() {
            tree[i] += d;
            i += i & i.wrapping_neg();
        }
    };
    let below = |tree: &Vec<i64>, rank: usize| {
        let (mut i, mut n) = (rank, 0i64);
        while i > 0 {
            n += tree[i];
            i -= i & i.wrapping_neg();
        }
        n
    };
    let rank = |y: f64| ys.partition_point(|&v| v < y);
    let mut counts = vec![0usize; vs.len()];
    for (_, kind, k) in events {
        match kind {
            OPEN => add(&mut tree, rank(hs[k].2), 1),
            CLOSE => add(&mut tree, rank(hs[k].2), -1),
            _ => {
                let (_, y0, y1) = vs[k];
                let lo = ys.partition_point(|&v| v <= y0);
                counts[k] = (below(&tree, rank(y1)) - below(&tree, lo)).max(0) as usize;
            }
        }
    }
    counts
}

/// How many crossings with other nets each net has (a crossing counts for both nets): the
/// vertical pieces' crossings with every horizontal, and the horizontals' with every vertical
/// (the same sweep, the axes swapped), less the net's crossings with itself.
pub(crate) fn net_crossings(nets: &[NetGeom]) -> Vec<usize> {
    let horizontal = |s: &Segment| s.0.y == s.1.y;
    let (mut hs, mut vs, mut h_net, mut v_net) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (k, n) in nets.iter().enumerate() {
        for s in &n.segments {
            if horizontal(s) {
                hs.push((s.0.x.min(s.1.x), s.0.x.max(s.1.x), s.0.y));
                h_net.push(k);
            } else {
                vs.push((s.0.x, s.0.y.min(s.1.y), s.0.y.max(s.1.y)));
                v_net.push(k);
            }
        }
    }
    let mut count = vec![0usize; nets.len()];
    for (k, c) in per_vertical(&hs, &vs).into_iter().enumerate() {
        count[v_net[k]] += c;
    }
    // Horizontals as the verticals of the transposed drawing.
    let t_vs: Vec<(f64, f64, f64)> = hs.iter().map(|&(x0, x1, y)| (y, x0, x1)).collect();
    let t_hs: Vec<(f64, f64, f64)> = vs.iter().map(|&(x, y0, y1)| (y0, y1, x)).collect();
    for (k, c) in per_vertical(&t_hs, &t_vs).into_iter().enumerate() {
        count[h_net[k]] += c;
    }
    for (k, n) in nets.iter().enumerate() {
        let (mut h, mut v) = (Vec::new(), Vec::new());
        for s in &n.segments {
            if horizontal(s) {
                h.push((s.0.x.min(s.1.x), s.0.x.max(s.1.x), s.0.y));
            } else {
                v.push((s.0.x, s.0.y.min(s.1.y), s.0.y.max(s.1.y)));
            }
        }
        count[k] -= 2 * crossings(&h, &v);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Source;

    /// A piece from one (x, y) to another.
    type Piece = ((f64, f64), (f64, f64));

    fn net(k: usize, segs: &[Piece]) -> NetGeom {
        NetGeom {
            source: Source::Port(k),
            targets: Vec::new(),
            segments: segs.iter().map(|&((a, b), (c, d))| (Point { x: a, y: b }, Point { x: c, y: d })).collect(),
            junctions: Vec::new(),
            delayed: false,
            late: Vec::new(),
        }
    }

    /// A crossing counts for both nets; a net crossing itself counts for neither; pieces that
    /// only touch do not cross.
    #[test]
    fn each_net_counts_its_crossings_with_the_others() {
        let nets = [
            // A horizontal from x 0 to 100 at y 50, and a vertical of its own crossing it.
            net(0, &[((0.0, 50.0), (100.0, 50.0)), ((20.0, 0.0), (20.0, 100.0))]),
            // A vertical at x 60 crossing net 0's horizontal.
            net(1, &[((60.0, 0.0), (60.0, 100.0))]),
            // A horizontal at y 10 crossing net 0's vertical and net 1's.
            net(2, &[((0.0, 10.0), (100.0, 10.0))]),
            // A vertical ending on net 0's horizontal: touching, not crossing.
            net(3, &[((80.0, 50.0), (80.0, 90.0))]),
        ];
        assert_eq!(net_crossings(&nets), vec![2, 2, 2, 0]);
        assert_eq!(stats(&nets).crossings, 3, "the total counts each crossing once");
    }
}
