//! Where each statement of a ladder body and each block call runs in the scan: the sequence
//! Beremiz's generator writes (PLCGenerator.py). The coils and stores, in list order, are the
//! statements; computing a statement's sources first calls, depth first and source by source,
//! every block it reaches that has not been called (a block is marked called before its
//! inputs, so a loop reads the last call's outputs); then every block not called yet, in list
//! order, with its feeders. A contact's variable is read, never called: a contact on `ton.Q`
//! reads the output the timer has at that moment.

use std::collections::HashSet;

use fbd_model::model::{LdKind, Wire};

use super::{Body, Name, Names};

/// One place in the sequence.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Item {
    /// The statement of ladder element `k` (a coil or a store).
    Statement(usize),
    /// The call of block `k`.
    Block(usize),
}

/// The sequence: each item in the order it runs, and where each runs.
pub(super) struct Sequence {
    pub(super) items: Vec<Item>,
    /// Each block's place.
    pub(super) block_at: Vec<usize>,
}

enum Task {
    Call(usize),
    Done(Item),
    Source(String),
    Wire(Wire),
}

/// The sequence of `body`. Iterative: a chain of 100,000 blocks needs no deep stack.
pub(super) fn sequence(body: &Body, names: &Names) -> Sequence {
    let mut block_at = vec![usize::MAX; body.blocks.len()];
    let mut items = Vec::new();
    let mut called = vec![false; body.blocks.len()];
    let mut followed: HashSet<String> = HashSet::new();
    let roots = body
        .ladder
        .iter()
        .enumerate()
        .filter(|(_, e)| e.writes() && !e.from.is_empty())
        .map(|(k, _)| Item::Statement(k))
        .chain((0..body.blocks.len()).map(Item::Block));
    for root in roots {
        let mut seen_elements: HashSet<usize> = HashSet::new();
        let mut stack = match root {
            Item::Block(b) => vec![Task::Call(b)],
            Item::Statement(k) => {
                let mut s = vec![Task::Done(root)];
                s.extend(body.ladder[k].from.iter().rev().map(|f| Task::Wire(f.clone())));
                s
            }
        };
        while let Some(t) = stack.pop() {
            match t {
                Task::Call(b) => {
                    if std::mem::replace(&mut called[b], true) {
                        continue;
                    }
                    stack.push(Task::Done(Item::Block(b)));
                    stack.extend(body.blocks[b].inputs.0.iter().rev().map(|(_, w)| Task::Wire(w.clone())));
                }
                Task::Done(item) => {
                    if let Item::Block(b) = item {
                        block_at[b] = items.len();
                    }
                    items.push(item);
                }
                Task::Source(s) => match names.resolve(&s) {
                    Some(Name::Output(b, _)) => stack.push(Task::Call(b)),
                    Some(Name::Element(o)) if seen_elements.insert(o) => {
                        let e = &body.ladder[o];
                        if e.kind != LdKind::Store {
                            stack.extend(e.from.iter().rev().map(|f| Task::Wire(f.clone())));
                        }
                    }
                    _ => {}
                },
                Task::Wire(w) => match w {
                    Wire::Ref(r) => stack.push(Task::Source(r)),
                    Wire::Connector(n) => {
                        if followed.insert(n.clone())
                            && let Some(c) = body.connectors.iter().find(|c| c.name == n)
                        {
                            stack.push(Task::Wire(c.from.clone()));
                        }
                    }
                    Wire::Const(_) | Wire::Feedback { .. } => {}
                },
            }
        }
    }
    Sequence { items, block_at }
}
