//! Rows: each node is pulled towards the median row its wires come from (or go to), and the
//! column's order and spacing are kept. For one column this is an isotonic regression, solved
//! exactly by pooling adjacent violators; sweeps alternate left to right and right to left.

use crate::layers::{Graph, Kind};

/// Rows between two nodes of a column: a block keeps the row above it free, for its id (a wire
/// there ran through the id); a dummy or a port may sit right under a block (its wire then runs
/// half a row below the block's frame).
fn gap(g: &Graph, _a: usize, b: usize) -> i64 {
    let block = |v: usize| matches!(g.nodes[v].kind, Kind::Block(_));
    if block(b) { 1 } else { 0 }
}

/// The top row of every node. `kept` gives the rows the file asks for (blocks with a stored
/// position): those nodes are held there with a weight that only the columns' spacing can
/// overrule; the others (ports, dummies) are placed around them.
pub(crate) fn rows(g: &Graph, kept: &[Option<i64>]) -> Vec<i64> {
    let mut top = vec![0i64; g.nodes.len()];
    for col in &g.cols {
        let mut y = 0;
        for (i, &v) in col.iter().enumerate() {
            if i > 0 {
                y += gap(g, col[i - 1], v);
            }
            top[v] = y;
            y += g.nodes[v].rows as i64;
        }
    }
    let links = g.links();
    // Each node's place in its column (the order is fixed here), and the links by the column
    // of their right end (swept down) and of their left end (up): a column's sweep reads only
    // its own links.
    let mut slot = vec![0usize; g.nodes.len()];
    for col in &g.cols {
        for (i, &v) in col.iter().enumerate() {
            slot[v] = i;
        }
    }
    let (mut by_right, mut by_left) = (vec![Vec::new(); g.cols.len()], vec![Vec::new(); g.cols.len()]);
    for &(a, b) in &links {
        by_right[g.nodes[b.0].col].push((a, b));
        by_left[g.nodes[a.0].col].push((a, b));
    }
    for sweep in 0..10 {
        let down = sweep % 2 == 0;
        let ncols = g.cols.len();
        let cols: Vec<usize> = if down { (1..ncols).collect() } else { (0..ncols.saturating_sub(1)).rev().collect() };
        for c in cols {
            let col = &g.cols[c];
            let mut wants: Vec<Vec<i64>> = vec![Vec::new(); col.len()];
            for &(a, b) in if down { &by_right[c] } else { &by_left[c] } {
                let (own, other) = if down { (b, a) } else { (a, b) };
                wants[slot[own.0]].push(top[other.0] + other.1 as i64 - own.1 as i64);
            }
            let desired: Vec<f64> = col
                .iter()
                .map(|&v| {
                    if let Some(r) = kept[v] {
                        return r as f64;
                    }
                    let w = &mut wants[slot[v]];
                    if w.is_empty() {
                        return top[v] as f64;
                    }
                    w.sort_unstable();
                    let m = w.len() / 2;
                    if w.len() % 2 == 1 { w[m] as f64 } else { (w[m - 1] + w[m]) as f64 / 2.0 }
                })
                .collect();
            // z_i = top_i - off_i must be non-decreasing, where off_i is the room the nodes
            // before i need.
            let mut off = vec![0i64; col.len()];
            for i in 1..col.len() {
                off[i] = off[i - 1] + g.nodes[col[i - 1]].rows as i64 + gap(g, col[i - 1], col[i]);
            }
            // Pools of (weighted sum, weight, count); a kept node weighs a thousand free ones.
            let mut pools: Vec<(f64, f64, usize)> = Vec::new();
            for i in 0..col.len() {
                let w = if kept[col[i]].is_some() { 1000.0 } else { 1.0 };
                pools.push(((desired[i] - off[i] as f64) * w, w, 1));
                while pools.len() > 1 {
                    let (s1, w1, n1) = pools[pools.len() - 1];
                    let (s0, w0, n0) = pools[pools.len() - 2];
                    if s0 / w0 > s1 / w1 {
                        pools.pop();
                        let last = pools.len() - 1;
                        pools[last] = (s0 + s1, w0 + w1, n0 + n1);
                    } else {
                        break;
                    }
                }
            }
            let mut i = 0;
            for (s, w, n) in pools {
                let z = (s / w).round() as i64;
                for _ in 0..n {
                    top[col[i]] = z + off[i];
                    i += 1;
                }
            }
        }
    }
    let min = top.iter().copied().min().unwrap_or(0);
    for t in &mut top {
        *t -= min;
    }
    top
}
