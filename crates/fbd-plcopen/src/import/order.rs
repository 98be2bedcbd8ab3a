//! The order in which a PLC runs an imported FBD body: the statement sequence Beremiz's
//! generator (PLCGenerator.py) writes as ST, and so the order matiec runs.
//!
//! A body becomes one statement per block call and per variable written:
//! 1. the elements with an `executionOrderId` > 0, by that id;
//! 2. then every outVariable and inOutVariable, in document order (Beremiz sorts them by
//!    position with a comparison that never says "less", so the sort keeps document order);
//! 3. then every block not called yet, in document order.
//!
//! Computing a statement's inputs first calls, depth first and input by input, each block
//! that feeds it and has not been called (a block is marked called before its inputs, so a
//! loop reads the last call's outputs). An explicitly ordered block does not pull its feeders
//! forward: they run at their own place. A continuation is followed to its connector.
//!
//! What a read sees follows from the positions: a block output or a variable written earlier
//! in the sequence is this scan's value; one written later is the previous scan's.

use std::collections::{HashMap, HashSet};

use roxmltree::Node;

use super::{child, children};

/// A statement's place in the body's sequence, by the element's `localId`.
pub(super) struct Sequence {
    at: HashMap<String, usize>,
    len: usize,
}

impl Sequence {
    /// The place of the statement of element `local_id` (a block's call, a variable's write);
    /// elements that make no statement are at the end.
    pub(super) fn at(&self, local_id: Option<&str>) -> usize {
        local_id.and_then(|l| self.at.get(l).copied()).unwrap_or(self.len)
    }

    /// After every statement: where the end-of-scan value of a variable is read.
    pub(super) fn end(&self) -> usize {
        self.len + 1
    }
}

fn exec_id(n: Node) -> i64 {
    n.attribute("executionOrderId").and_then(|o| o.parse().ok()).unwrap_or(0)
}

enum Task<'a, 'i> {
    /// Call a block (if not called yet); `pull` says whether its feeders may be called first.
    Call(Node<'a, 'i>, bool),
    /// The call statement itself, after its inputs.
    Called(Node<'a, 'i>),
    /// Compute what a connectionPointIn reads.
    Inputs(Node<'a, 'i>, bool),
}

/// The statement sequence of a body's elements. Iterative: a chain of 100,000 blocks needs no
/// deep stack.
pub(super) fn sequence<'a, 'i>(elems: &[Node<'a, 'i>], by_id: &HashMap<&str, Node<'a, 'i>>) -> Sequence {
    let mut connectors: HashMap<&str, Node> = HashMap::new();
    for e in elems.iter().filter(|e| e.tag_name().name() == "connector") {
        connectors.entry(e.attribute("name").unwrap_or("")).or_insert(*e);
    }
    let is_statement = |e: &Node| matches!(e.tag_name().name(), "block" | "outVariable" | "inOutVariable");
    let mut ordered: Vec<(i64, Node)> =
        elems.iter().filter(|e| is_statement(e) && exec_id(**e) > 0).map(|e| (exec_id(*e), *e)).collect();
    ordered.sort_by_key(|(o, _)| *o);
    let mut roots: Vec<Node> = ordered.into_iter().map(|(_, e)| e).collect();
    let unordered = |kinds: &[&str]| {
        elems.iter().filter(|e| exec_id(**e) <= 0 && kinds.contains(&e.tag_name().name())).copied().collect::<Vec<_>>()
    };
    roots.extend(unordered(&["outVariable", "inOutVariable"]));
    roots.extend(unordered(&["block"]));

    let mut at: HashMap<String, usize> = HashMap::new();
    let mut called: HashSet<roxmltree::NodeId> = HashSet::new();
    let mut followed: HashSet<&str> = HashSet::new();
    let mut next = 0usize;
    for root in roots {
        let mut stack = match root.tag_name().name() {
            "block" => vec![Task::Call(root, true)],
            _ => vec![Task::Called(root), Task::Inputs(root, true)],
        };
        while let Some(t) = stack.pop() {
            match t {
                Task::Call(b, pull) => {
                    if !pull || !called.insert(b.id()) {
                        continue;
                    }
                    stack.push(Task::Called(b));
                    let pull_feeders = exec_id(b) <= 0;
                    let ins: Vec<Node> = child(b, "inputVariables")
                        .into_iter()
                        .flat_map(|i| children(i, "variable"))
                        .filter_map(|v| child(v, "connectionPointIn"))
                        .collect();
                    stack.extend(ins.into_iter().rev().map(|c| Task::Inputs(c, pull_feeders)));
                }
                Task::Called(e) => {
                    if let Some(l) = e.attribute("localId") {
                        at.entry(l.to_string()).or_insert(next);
                    }
                    next += 1;
                }
                Task::Inputs(e, pull) => {
                    let cpi = if e.tag_name().name() == "connectionPointIn" {
                        Some(e)
                    } else {
                        child(e, "connectionPointIn")
                    };
                    let Some(cpi) = cpi else { continue };
                    let conns: Vec<Node> = children(cpi, "connection").collect();
                    for c in conns.into_iter().rev() {
                        let Some(src) = c.attribute("refLocalId").and_then(|r| by_id.get(r)) else { continue };
                        match src.tag_name().name() {
                            "block" => stack.push(Task::Call(*src, pull)),
                            "continuation" => {
                                let name = src.attribute("name").unwrap_or("");
                                if let Some(conn) = connectors.get(name)
                                    && followed.insert(name)
                                {
                                    stack.push(Task::Inputs(*conn, pull));
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    Sequence { at, len: next }
}
