//! Columns, dummies and the order of the nodes in each column (crossing minimisation).

use crate::{Body, Source, Target};

/// What a node of the layered graph stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Block(usize),
    InPort(usize),
    OutPort(usize),
    /// Net `k` passing through a column.
    Dummy(usize),
}

/// A node of the layered graph.
#[derive(Clone, Debug)]
pub(crate) struct GNode {
    pub kind: Kind,
    pub col: usize,
    /// Rows it occupies: a block its title and pins, a port or dummy one.
    pub rows: usize,
}

/// One end of a link: a node and the row of its pin relative to the node's top row.
pub(crate) type End = (usize, usize);

/// One net: a source, its targets right of it (reached through dummies), its targets not right
/// of it (routed around the drawing).
#[derive(Clone, Debug)]
pub(crate) struct GNet {
    pub source: Source,
    pub targets: Vec<Target>,
    pub delayed: bool,
    pub src: End,
    pub fwd: Vec<End>,
    pub back: Vec<End>,
    /// Dummy node per column, for the columns strictly between the source and its last
    /// forward target.
    pub dummies: Vec<(usize, usize)>,
}

/// The layered graph.
pub(crate) struct Graph {
    pub nodes: Vec<GNode>,
    /// Node ids per column, top to bottom.
    pub cols: Vec<Vec<usize>>,
    pub nets: Vec<GNet>,
    /// Graph node of each body node, input port and output port.
    pub of_block: Vec<usize>,
    pub of_in: Vec<usize>,
    pub of_out: Vec<usize>,
    /// Per column, where the file puts its blocks (the leftmost stored x of the column's
    /// blocks), when the layout keeps stored positions; `None` for the ports' columns and
    /// when it does not.
    pub want_x: Vec<Option<f64>>,
    /// Rows the automatic layout holds nodes at: the blocks of a grid of lone blocks
    /// ([`wrap_lone_blocks`]), so that its rows stay rows.
    pub grid_rows: Vec<Option<i64>>,
}

impl Graph {
    /// The node and pin row of a source.
    pub fn source_end(&self, s: Source) -> End {
        match s {
            Source::Port(k) => (self.of_in[k], 0),
            Source::Out { node, pin } => (self.of_block[node], 1 + pin),
        }
    }
    /// The node and pin row of a target.
    pub fn target_end(&self, t: Target) -> End {
        match t {
            Target::Port(k) => (self.of_out[k], 0),
            Target::In { node, pin } => (self.of_block[node], 1 + pin),
        }
    }

    /// Links between adjacent columns: (left end, right end).
    pub fn links(&self) -> Vec<(End, End)> {
        let mut out = Vec::new();
        for net in &self.nets {
            let src_col = self.nodes[net.src.0].col;
            let at = |c: usize| -> End {
                if c == src_col {
                    net.src
                } else {
                    (net.dummies.iter().find(|d| d.0 == c).expect("dummy per column").1, 0)
                }
            };
            for d in &net.dummies {
                out.push((at(d.0 - 1), (d.1, 0)));
            }
            for &t in &net.fwd {
                out.push((at(self.nodes[t.0].col - 1), t));
            }
        }
        out
    }
}

/// Blocks that no wire ties to another block or an input port (a page of 16 Cells read only
/// through continuations) would stand in one tall column: six or more of them fill a square
/// grid instead, row by row in body order (`cell_1_1` .. `cell_1_4` across the first row).
fn wrap_lone_blocks(body: &Body, layer: &mut [usize]) -> Vec<(usize, usize)> {
    let mut linked = vec![false; body.nodes.len()];
    for e in &body.edges {
        if let Target::In { node: v, .. } = e.to {
            linked[v] = true;
            if let Source::Out { node: u, .. } = e.from {
                linked[u] = true;
            }
        }
    }
    let lone: Vec<usize> = (0..body.nodes.len()).filter(|&i| !linked[i]).collect();
    if lone.len() < 6 {
        return Vec::new();
    }
    let k = (lone.len() as f64).sqrt().ceil() as usize;
    lone.iter()
        .enumerate()
        .map(|(j, &i)| {
            layer[i] = j % k;
            (i, j / k)
        })
        .collect()
}

/// Builds the layered graph of `body` and orders its columns. With `pos` (a position for every
/// block), the columns are the blocks' distinct x positions and their order the y positions;
/// only ports and dummies are ordered.
pub(crate) fn build(body: &Body, pos: Option<&[[f64; 2]]>) -> Graph {
    let n = body.nodes.len();
    // Same-scan wires between blocks order the columns; delayed ones do not, nor do the wires
    // that close a loop (a loop through a macro instance that delays inside).
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in body.edges.iter().filter(|e| !e.delayed) {
        if let (Source::Out { node: u, .. }, Target::In { node: v, .. }) = (e.from, e.to) {
            succ[u].push(v);
        }
    }
    for s in &mut succ {
        s.sort_unstable();
        s.dedup();
    }
    drop_back_edges(&mut succ);
    let mut layer = vec![0usize; n];
    let mut indeg = vec![0usize; n];
    for s in &succ {
        for &v in s {
            indeg[v] += 1;
        }
    }
    let mut queue: std::collections::VecDeque<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    while let Some(u) = queue.pop_front() {
        for &v in &succ[u] {
            layer[v] = layer[v].max(layer[u] + 1);
            indeg[v] -= 1;
            if indeg[v] == 0 {
                queue.push_back(v);
            }
        }
    }
    let grid = if pos.is_none() { wrap_lone_blocks(body, &mut layer) } else { Vec::new() };
    if let Some(pos) = pos {
        let mut xs: Vec<f64> = pos.iter().map(|p| p[0]).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| (*a - *b).abs() < crate::PITCH / 2.0);
        for (i, p) in pos.iter().enumerate() {
            layer[i] = xs.iter().rposition(|x| *x <= p[0] + crate::PITCH / 2.0).unwrap_or(0);
        }
    }
    let last = layer.iter().copied().max().map_or(1, |m| m + 2);
    let mut nodes = Vec::new();
    let mut of_in = Vec::new();
    let own = body.inputs.len() - body.remote_inputs;
    for k in 0..own {
        of_in.push(nodes.len());
        nodes.push(GNode { kind: Kind::InPort(k), col: 0, rows: 1 });
    }
    // Another page's signals take no place: they are read only through continuations (their
    // edges are connector pairs, never wires), so nothing routes from them.
    of_in.extend(std::iter::repeat_n(usize::MAX, body.remote_inputs));
    let mut of_block = Vec::new();
    for (i, b) in body.nodes.iter().enumerate() {
        of_block.push(nodes.len());
        let rows = 1 + b.inputs.len().max(b.outputs.len()).max(1);
        nodes.push(GNode { kind: Kind::Block(i), col: layer[i] + 1, rows });
    }
    let mut of_out = Vec::new();
    for k in 0..body.outputs.len() {
        of_out.push(nodes.len());
        nodes.push(GNode { kind: Kind::OutPort(k), col: last, rows: 1 });
    }
    let mut want_x: Vec<Option<f64>> = vec![None; last + 1];
    if let Some(pos) = pos {
        for (i, p) in pos.iter().enumerate() {
            let w = &mut want_x[layer[i] + 1];
            *w = Some(w.map_or(p[0], |x| x.min(p[0])));
        }
    }
    let mut grid_rows = vec![None; nodes.len()];
    let grid_pitch = grid.iter().map(|&(i, _)| nodes[of_block[i]].rows).max().unwrap_or(0) as i64 + 2;
    for &(i, r) in &grid {
        grid_rows[of_block[i]] = Some(r as i64 * grid_pitch);
    }
    let mut g = Graph { nodes, cols: Vec::new(), nets: Vec::new(), of_block, of_in, of_out, want_x, grid_rows };
    // Nets: one per source, in first-use order.
    // Each source's edges in edge order (grouped in one pass: a body of 100k blocks has as
    // many sources).
    let mut groups: Vec<(Source, Vec<&crate::Edge>)> = Vec::new();
    let mut group_of: std::collections::HashMap<Source, usize> = std::collections::HashMap::new();
    for e in &body.edges {
        let k = *group_of.entry(e.from).or_insert_with(|| {
            groups.push((e.from, Vec::new()));
            groups.len() - 1
        });
        groups[k].1.push(e);
    }
    for (s, edges) in groups {
        let src = g.source_end(s);
        let src_col = g.nodes[src.0].col;
        let mut fwd = Vec::new();
        let mut back = Vec::new();
        for e in &edges {
            let t = g.target_end(e.to);
            if g.nodes[t.0].col > src_col { fwd.push(t) } else { back.push(t) }
        }
        let reach = fwd.iter().map(|t| g.nodes[t.0].col).max().unwrap_or(src_col);
        let k = g.nets.len();
        let mut dummies = Vec::new();
        for c in src_col + 1..reach {
            dummies.push((c, g.nodes.len()));
            g.nodes.push(GNode { kind: Kind::Dummy(k), col: c, rows: 1 });
        }
        g.nets.push(GNet {
            source: s,
            targets: edges.iter().map(|e| e.to).collect(),
            delayed: edges.iter().any(|e| e.delayed),
            src,
            fwd,
            back,
            dummies,
        });
    }
    let ncols = last + 1;
    g.cols = vec![Vec::new(); ncols];
    for (i, nd) in g.nodes.iter().enumerate() {
        g.cols[nd.col].push(i);
    }
    match pos {
        None => order(&mut g),
        Some(pos) => {
            // Blocks by y; ports and dummies join by barycentre in the free slots.
            order(&mut g);
            for col in &mut g.cols {
                let mut blocks: Vec<usize> =
                    col.iter().copied().filter(|&v| matches!(g.nodes[v].kind, Kind::Block(_))).collect();
                blocks.sort_by(|&a, &b| {
                    let (Kind::Block(i), Kind::Block(j)) = (g.nodes[a].kind, g.nodes[b].kind) else { unreachable!() };
                    pos[i][1].total_cmp(&pos[j][1]).then(i.cmp(&j))
                });
                let mut it = blocks.into_iter();
                for slot in col.iter_mut() {
                    if matches!(g.nodes[*slot].kind, Kind::Block(_)) {
                        *slot = it.next().expect("as many blocks");
                    }
                }
            }
        }
    }
    g
}

/// Removes the edges that close a cycle (found by depth-first search from each node in index
/// order), so that the rest is acyclic.
fn drop_back_edges(succ: &mut [Vec<usize>]) {
    let n = succ.len();
    let mut state = vec![0u8; n]; // 0 new, 1 on the stack, 2 done
    let mut drop: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        state[root] = 1;
        while let Some(&mut (u, ref mut k)) = stack.last_mut() {
            if let Some(&v) = succ[u].get(*k) {
                *k += 1;
                match state[v] {
                    0 => {
                        state[v] = 1;
                        stack.push((v, 0));
                    }
                    1 => drop.push((u, v)),
                    _ => {}
                }
            } else {
                state[u] = 2;
                stack.pop();
            }
        }
    }
    for (u, v) in drop {
        succ[u].retain(|&w| w != v);
    }
}

/// Position of an end for barycentres and crossing counts: its node's index in the column plus
/// the pin's fraction of the node.
fn pos(g: &Graph, index: &[usize], e: End) -> f64 {
    index[e.0] as f64 + e.1 as f64 / (g.nodes[e.0].rows as f64 + 1.0)
}

fn crossings(g: &Graph, links: &[(End, End)], index: &[usize]) -> usize {
    let mut by_col: Vec<Vec<(f64, f64)>> = vec![Vec::new(); g.cols.len()];
    for &(a, b) in links {
        by_col[g.nodes[a.0].col].push((pos(g, index, a), pos(g, index, b)));
    }
    let mut total = 0;
    for v in by_col {
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                if (v[i].0 - v[j].0) * (v[i].1 - v[j].1) < 0.0 {
                    total += 1;
                }
            }
        }
    }
    total
}

/// Barycentre sweeps, alternately left to right and right to left; the order with the fewest
/// crossings wins. Nodes without a neighbour on the swept side keep their slots.
fn order(g: &mut Graph) {
    let links = g.links();
    let mut index = vec![0usize; g.nodes.len()];
    let reindex = |g: &Graph, index: &mut Vec<usize>| {
        for col in &g.cols {
            for (i, &v) in col.iter().enumerate() {
                index[v] = i;
            }
        }
    };
    reindex(g, &mut index);
    // The links by the column of their right end (swept down) and of their left end (up), in
    // link order, so that a column's sweep reads only its own links.
    let (mut by_right, mut by_left) = (vec![Vec::new(); g.cols.len()], vec![Vec::new(); g.cols.len()]);
    for &(a, b) in &links {
        by_right[g.nodes[b.0].col].push((a, b));
        by_left[g.nodes[a.0].col].push((a, b));
    }
    let mut best = (crossings(g, &links, &index), g.cols.clone());
    for sweep in 0..16 {
        let down = sweep % 2 == 0;
        let ncols = g.cols.len();
        let cols: Vec<usize> = if down { (1..ncols).collect() } else { (0..ncols.saturating_sub(1)).rev().collect() };
        for c in cols {
            // Per node of the column, by its place in the column.
            let mut sum = vec![(0.0f64, 0usize); g.cols[c].len()];
            for &(a, b) in if down { &by_right[c] } else { &by_left[c] } {
                let (own, other) = if down { (b, a) } else { (a, b) };
                // Aim the own pin at the other pin: subtract the own pin's offset.
                let p = pos(g, &index, other) - own.1 as f64 / (g.nodes[own.0].rows as f64 + 1.0);
                sum[index[own.0]].0 += p;
                sum[index[own.0]].1 += 1;
            }
            let col = &g.cols[c];
            let of = |v: usize| sum[index[v]];
            let movable: Vec<usize> = col.iter().copied().filter(|&v| of(v).1 > 0).collect();
            let slots: Vec<usize> = col.iter().enumerate().filter(|(_, v)| of(**v).1 > 0).map(|(i, _)| i).collect();
            let mut sorted = movable.clone();
            sorted.sort_by(|&x, &y| {
                let kx = of(x).0 / of(x).1 as f64;
                let ky = of(y).0 / of(y).1 as f64;
                kx.total_cmp(&ky).then(index[x].cmp(&index[y]))
            });
            let mut new_col = col.clone();
            for (slot, v) in slots.into_iter().zip(sorted) {
                new_col[slot] = v;
            }
            // Only this column moved.
            for (i, &v) in new_col.iter().enumerate() {
                index[v] = i;
            }
            g.cols[c] = new_col;
        }
        let x = crossings(g, &links, &index);
        if x < best.0 {
            best = (x, g.cols.clone());
        }
    }
    g.cols = best.1;
    reindex(g, &mut index);
    transpose(g, &links, &mut index);
}

/// Swaps neighbours in a column while that removes crossings (the "transpose" step). A swap of
/// two neighbours changes only the crossings between their own links (every other pair keeps
/// its order), so only those are counted: the cost is their degrees, not the column's links.
fn transpose(g: &mut Graph, links: &[(End, End)], index: &mut [usize]) {
    // Each node's links from the column before (`ins`) and to the column after (`outs`).
    let mut ins: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    let mut outs: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    for (k, &(a, b)) in links.iter().enumerate() {
        outs[a.0].push(k);
        ins[b.0].push(k);
    }
    // Crossings between the links of `u` and those of `v`, on each side.
    let between = |g: &Graph, index: &[usize], u: usize, v: usize| -> usize {
        let mut n = 0;
        for (lu, lv) in [(&ins[u], &ins[v]), (&outs[u], &outs[v])] {
            for &i in lu {
                for &j in lv {
                    let ((a1, b1), (a2, b2)) = (links[i], links[j]);
                    if (pos(g, index, a1) - pos(g, index, a2)) * (pos(g, index, b1) - pos(g, index, b2)) < 0.0 {
                        n += 1;
                    }
                }
            }
        }
        n
    };
    for _ in 0..4 {
        let mut improved = false;
        for c in 0..g.cols.len() {
            for i in 0..g.cols[c].len().saturating_sub(1) {
                let (a, b) = (g.cols[c][i], g.cols[c][i + 1]);
                let before = between(g, index, a, b);
                g.cols[c].swap(i, i + 1);
                index.swap(a, b);
                if between(g, index, a, b) < before {
                    improved = true;
                } else {
                    g.cols[c].swap(i, i + 1);
                    index.swap(a, b);
                }
            }
        }
        if !improved {
            break;
        }
    }
}
