//! Data-flow order: Kahn's algorithm over the reads that are not delayed, a schedule that
//! groups instructions of one kind, and a report naming every block of every loop that has no
//! feedback point. An ST loop's blocks are ordered together (`loops.rs`).

use std::collections::VecDeque;

use rustc_hash::FxHashMap as HashMap;

use super::typecheck::Tvars;
use super::{CompileOptions, diag_at};
use crate::Project;
use crate::expand::{Net, Src};
use fbd_model::diag::Diagnostic;
use fbd_model::library::Kind;

mod loops;
pub(crate) use loops::{Mark, order_loops};

/// Whether reading this source orders the reader after the source block in the same scan.
fn ordering_pred(net: &Net, s: &Src) -> Option<usize> {
    match s {
        Src::Out { block, pin } => {
            let b = &net.blocks[*block];
            let delayed = b.def.outputs.get(*pin).is_some_and(|p| p.delayed);
            if delayed { None } else { Some(*block) }
        }
        _ => None,
    }
}

/// Each block's successors in the scan (the blocks that read it, not delayed) and how many
/// blocks it reads so.
fn successors(net: &Net) -> (Vec<Vec<usize>>, Vec<u32>) {
    let n = net.blocks.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indeg = vec![0u32; n];
    for (i, b) in net.blocks.iter().enumerate() {
        // DELAY only copies at the end of the scan; but a negated input is the NOT placed at
        // the DELAY's place in the plan, which must come after what it negates (a DELAY has no
        // successor in the scan, so this orders no loop).
        if b.def.kind == Kind::Delay && !b.inputs.iter().any(|p| p.negate) {
            continue;
        }
        let gates = net.gates.get(&(i as u32)).into_iter().flat_map(|g| g.iter());
        for src in b.inputs.iter().map(|p| &p.src).chain(gates) {
            if let Some(s) = ordering_pred(net, src) {
                succ[s].push(i);
                indeg[i] += 1;
            }
        }
    }
    // An instance's call again comes after its calls before and their readers.
    for (&b, before) in &net.after {
        for &a in before {
            if a != b {
                succ[a as usize].push(b as usize);
                indeg[b as usize] += 1;
            }
        }
    }
    (succ, indeg)
}

pub(crate) fn order_blocks(
    project: &Project,
    net: &Net,
    t: &Tvars,
    opts: &CompileOptions,
) -> Result<Ordered, Vec<Diagnostic>> {
    let n = net.blocks.len();
    let (succ, mut indeg) = successors(net);
    let mut level = vec![0u32; n];
    let mut queue: VecDeque<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
    let mut seen = 0;
    while let Some(i) = queue.pop_front() {
        seen += 1;
        for &j in &succ[i] {
            level[j] = level[j].max(level[i] + 1);
            indeg[j] -= 1;
            if indeg[j] == 0 {
                queue.push_back(j);
            }
        }
    }
    if seen < n {
        return Err(report_cycles(project, net, &succ, &indeg));
    }
    if !net.loops.is_empty() {
        let (order, marks) = order_loops(net, &succ).map_err(|test| {
            let b = &net.blocks[test as usize];
            vec![
                diag_at(
                    project,
                    &b.at.at(),
                    "a value computed outside this loop both feeds it and reads what it computes in the same scan",
                )
                .block(&*b.path),
            ]
        })?;
        return Ok(Ordered { order, levels: level, marks });
    }
    let order = if opts.group_by_kind {
        schedule_by_kind(net, t, &succ)
    } else {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (level[i], net.blocks[i].order(), i));
        order
    };
    Ok(Ordered { order, levels: level, marks: Vec::new() })
}

/// The plan order: the blocks, each one's data-flow level, and where the ST loops' marks go.
pub(crate) struct Ordered {
    pub order: Vec<usize>,
    pub levels: Vec<u32>,
    /// Before the block at each position of `order`: a loop's start, test or end.
    pub marks: Vec<(u32, Mark)>,
}

/// A topological order that keeps instructions of one kind together: among the blocks whose
/// inputs are all computed, take the kind with the most of them and run that kind until none
/// of it is ready; repeat. Any topological order gives the same results (a block only reads
/// what is already computed), so this choice only changes speed: long runs of one kind keep the
/// executor's dispatch branch predictable. Ties: kind order, then `order`, then file order.
fn schedule_by_kind(net: &Net, t: &Tvars, succ: &[Vec<usize>]) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = net.blocks.len();
    let key = |i: usize| super::family(&net.blocks[i], t[i]);
    let mut kinds: Vec<super::Family> = (0..n).map(key).collect();
    kinds.sort();
    kinds.dedup();
    let kind_of: Vec<usize> = (0..n).map(|i| kinds.binary_search(&key(i)).unwrap_or(0)).collect();
    let mut indeg = vec![0u32; n];
    for s in succ {
        for &j in s {
            indeg[j] += 1;
        }
    }
    let mut ready: Vec<BinaryHeap<Reverse<(i64, usize)>>> = vec![BinaryHeap::new(); kinds.len()];
    let prio = |i: usize| Reverse((net.blocks[i].order().unwrap_or(0), i));
    for i in (0..n).filter(|&i| indeg[i] == 0) {
        ready[kind_of[i]].push(prio(i));
    }
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let Some(k) = (0..kinds.len()).filter(|&k| !ready[k].is_empty()).max_by_key(|&k| (ready[k].len(), Reverse(k)))
        else {
            break; // unreachable for an acyclic graph
        };
        while let Some(Reverse((_, i))) = ready[k].pop() {
            order.push(i);
            for &j in &succ[i] {
                indeg[j] -= 1;
                if indeg[j] == 0 {
                    ready[kind_of[j]].push(prio(j));
                }
            }
        }
    }
    order
}

/// Names every block on every loop that has no feedback point (Tarjan's strongly connected
/// components over the blocks Kahn's algorithm could not order).
fn report_cycles(project: &Project, net: &Net, succ: &[Vec<usize>], indeg: &[u32]) -> Vec<Diagnostic> {
    let n = net.blocks.len();
    let stuck: Vec<bool> = indeg.iter().map(|&d| d > 0).collect();
    // Iterative Tarjan.
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut sccs: Vec<Vec<usize>> = Vec::new();
    for root in (0..n).filter(|&i| stuck[i]) {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k < succ[v].len() {
                let w = succ[v][*k];
                *k += 1;
                if !stuck[w] {
                    continue;
                }
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let is_cycle = comp.len() > 1 || succ[v].contains(&v);
                    if is_cycle {
                        comp.sort_unstable();
                        sccs.push(comp);
                    }
                }
            }
        }
    }
    sccs.sort();
    sccs.iter()
        .map(|comp| {
            let in_comp: std::collections::HashSet<usize> = comp.iter().copied().collect();
            // Shortest cycle through the first block, by BFS back to it.
            let start = comp[0];
            let mut prev: HashMap<usize, usize> = HashMap::default();
            let mut q = VecDeque::from([start]);
            let mut found = false;
            'bfs: while let Some(v) = q.pop_front() {
                for &w in &succ[v] {
                    if !in_comp.contains(&w) {
                        continue;
                    }
                    if w == start {
                        prev.insert(usize::MAX, v);
                        found = true;
                        break 'bfs;
                    }
                    if let std::collections::hash_map::Entry::Vacant(e) = prev.entry(w) {
                        e.insert(v);
                        q.push_back(w);
                    }
                }
            }
            let mut cycle = vec![start];
            if found {
                let mut v = prev[&usize::MAX];
                let mut back = Vec::new();
                while v != start {
                    back.push(v);
                    v = prev[&v];
                }
                back.reverse();
                cycle.extend(back);
            }
            cycle.push(start);
            let names: Vec<&str> = cycle.iter().map(|&i| &*net.blocks[i].path).collect();
            let b = &net.blocks[start];
            // A long loop is named by its ends: the message stays one readable line.
            let shown = if names.len() > 12 {
                format!(
                    "{} -> ... ({} more blocks) -> {}",
                    names[..8].join(" -> "),
                    names.len() - 10,
                    names[names.len() - 2..].join(" -> ")
                )
            } else {
                names.join(" -> ")
            };
            let mut msg = format!("loop without a feedback point: {shown}");
            if comp.len() + 1 > names.len() {
                if comp.len() <= 20 {
                    let all: Vec<&str> = comp.iter().map(|&i| &*net.blocks[i].path).collect();
                    msg.push_str(&format!("; blocks on the loop: {}", all.join(", ")));
                } else {
                    msg.push_str(&format!("; {} blocks are on loops with it", comp.len()));
                }
            }
            diag_at(project, &b.at.at(), msg).block(&*b.path).help(
                "mark one wire of the loop as feedback ({\"from\": \"blk.pin\", \"feedback\": true, \"init\": ...}), \
                 or read MEMORY.prev / a DELAY block: the loop then sees the previous scan's value",
            )
        })
        .collect()
}
