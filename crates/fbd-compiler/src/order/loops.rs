//! The order of a program with ST loops: each loop's blocks together, as one node of the
//! order around it; inside, its loop variables, then its head (the test), then its body,
//! each part ordered by data flow with the loops nested in it as nodes again.
//!
//! A read that crosses a loop's edge orders the whole loop: a block before it that it reads
//! comes before all of it, a block that reads it after all of it. A read from a loop's head
//! by its body is what the layout does anyway; a loop variable's value at an iteration's end
//! is a feedback wire, which orders nothing.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::expand::{Net, Src};

/// Where a loop's instructions begin and end in the plan, placed before the block at that
/// position of the order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// After its loop variables (which copy their values in): where an iteration starts.
    Start(u32),
    /// After its head: the test leaves the loop when FALSE.
    Test(u32),
    /// After its body: the loop variables take the iteration's values, and back.
    End(u32),
}

/// Where each loop's marks go: before the block at that position of the order.
pub(crate) type Marks = Vec<(u32, Mark)>;

/// A node of one level: a block, or a loop (`n + l`).
type Node = usize;

/// A part of the program where nodes are ordered among themselves: the top (0), a loop's
/// head (`1 + 2l`) or its body (`2 + 2l`).
fn part_of(net: &Net, node: Node) -> usize {
    let n = net.blocks.len();
    let at = if node < n { net.in_loop(node) } else { net.loops[node - n].parent };
    at.map_or(0, |a| 1 + 2 * a.loop_ as usize + a.body as usize)
}

/// The loop node a node is inside, if any.
fn up(net: &Net, node: Node) -> Option<Node> {
    let n = net.blocks.len();
    let at = if node < n { net.in_loop(node) } else { net.loops[node - n].parent };
    at.map(|a| n + a.loop_ as usize)
}

fn depth(net: &Net, mut node: Node) -> usize {
    let mut d = 0;
    while let Some(p) = up(net, node) {
        node = p;
        d += 1;
    }
    d
}

/// `s` → `i` (a read in the scan) lifted to the nodes of the part both are in: `None` when it
/// is ordered by a loop's layout (head before body).
fn lift(net: &Net, mut a: Node, mut b: Node) -> Option<(Node, Node)> {
    let (mut da, mut db) = (depth(net, a), depth(net, b));
    while da > db {
        a = up(net, a)?;
        da -= 1;
    }
    while db > da {
        b = up(net, b)?;
        db -= 1;
    }
    while part_of(net, a) != part_of(net, b) {
        a = up(net, a)?;
        b = up(net, b)?;
    }
    (a != b).then_some((a, b))
}

/// The plan order of the blocks and where each loop's marks go, or the loop a value outside
/// it both feeds and reads in the same scan (no order can compute that).
pub(crate) fn order_loops(net: &Net, succ: &[Vec<usize>]) -> Result<(Vec<usize>, Marks), u32> {
    let n = net.blocks.len();
    let nodes = n + net.loops.len();
    let parts = 1 + 2 * net.loops.len();
    let mut members: Vec<Vec<Node>> = vec![Vec::new(); parts];
    for node in 0..nodes {
        members[part_of(net, node)].push(node);
    }
    let mut next: Vec<Vec<Node>> = vec![Vec::new(); nodes];
    let mut indeg = vec![0u32; nodes];
    // A loop's guard comes before it, whether or not a block of it reads the guard; so does a
    // block outside the loop whose output is a loop variable's next value (`m := inst.CV` in
    // the loop: the copy back reads it, through a feedback wire that orders nothing).
    let guards = net.loops.iter().filter_map(|l| Some((l.guard? as usize, l.test as usize)));
    let nexts = net.loops.iter().flat_map(|l| {
        l.phis.iter().filter_map(move |&p| match net.blocks[p as usize].inputs.get(2).map(|x| &x.src) {
            Some(Src::Feedback { src, .. }) => match **src {
                Src::Out { block, .. } => Some((block, l.test as usize)),
                _ => None,
            },
            _ => None,
        })
    });
    let reads = succ.iter().enumerate().flat_map(|(s, readers)| readers.iter().map(move |&i| (s, i)));
    for (s, i) in reads.chain(guards).chain(nexts) {
        if let Some((a, b)) = lift(net, s, i) {
            next[a].push(b);
            indeg[b] += 1;
        }
    }
    let phis: rustc_hash::FxHashSet<usize> =
        net.loops.iter().flat_map(|l| l.phis.iter().map(|&p| p as usize)).collect();
    let mut out = Orderer { net, members, next, indeg, phis, order: Vec::with_capacity(n), marks: Vec::new() };
    out.part(0)?;
    Ok((out.order, out.marks))
}

struct Orderer<'n> {
    net: &'n Net,
    members: Vec<Vec<Node>>,
    next: Vec<Vec<Node>>,
    indeg: Vec<u32>,
    phis: rustc_hash::FxHashSet<usize>,
    order: Vec<usize>,
    marks: Marks,
}

impl Orderer<'_> {
    /// The nodes of part `p` in data-flow order, each loop among them laid out in place.
    fn part(&mut self, p: usize) -> Result<(), u32> {
        let n = self.net.blocks.len();
        // Ties: the block made first (the text's order), a loop by its test.
        let key = |node: Node| if node < n { node } else { self.net.loops[node - n].test as usize };
        let list = std::mem::take(&mut self.members[p]);
        let mut ready: BinaryHeap<Reverse<(usize, Node)>> =
            list.iter().filter(|&&x| self.indeg[x] == 0).map(|&x| Reverse((key(x), x))).collect();
        let mut done = 0;
        while let Some(Reverse((_, x))) = ready.pop() {
            done += 1;
            if x < n {
                if !self.phis.contains(&x) {
                    self.order.push(x);
                }
            } else {
                self.lay_out(x - n)?;
            }
            for k in 0..self.next[x].len() {
                let y = self.next[x][k];
                self.indeg[y] -= 1;
                if self.indeg[y] == 0 {
                    ready.push(Reverse((key(y), y)));
                }
            }
        }
        if done < list.len() {
            // A node of this part waits on itself through a loop around it.
            let stuck = list.iter().find(|&&x| self.indeg[x] > 0).copied().unwrap_or(0);
            let l = if stuck >= n { stuck - n } else { self.net.in_loop(stuck).map_or(0, |a| a.loop_ as usize) };
            return Err(self.net.loops.get(l).map_or(0, |l| l.test));
        }
        Ok(())
    }

    /// Loop `l`: its loop variables, the start, its head, the test, its body, the end.
    fn lay_out(&mut self, l: usize) -> Result<(), u32> {
        let at = |o: &Orderer| o.order.len() as u32;
        self.order.extend(self.net.loops[l].phis.iter().map(|&p| p as usize));
        self.marks.push((at(self), Mark::Start(l as u32)));
        self.part(1 + 2 * l)?;
        self.marks.push((at(self), Mark::Test(l as u32)));
        self.part(2 + 2 * l)?;
        self.marks.push((at(self), Mark::End(l as u32)));
        Ok(())
    }
}
