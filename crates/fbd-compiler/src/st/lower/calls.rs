//! A function block instance called again in the scan (`t(IN := TRUE); IF t.Q THEN t(IN :=
//! FALSE); END_IF;`): each call after the first is a block of its own (`t__call`) that shares
//! the instance's state and outputs (the executor gives it the same slots), ordered after the
//! instance's calls before it and after every block that read what they left. A variable that
//! holds such an output (`x := t.Q;`) gets a copy before the next call, so it keeps the value
//! of its call. Readers after a call read its block; a read in a branch where it did not run
//! reads the same slots, which it left unchanged.

use fbd_model::library;
use fbd_model::model::{LeanBlock, Wire};
use fbd_st::Pos;

use super::Lowerer;

/// A block of the body as the lowering holds it: an instance of the body's `blocks`, or one
/// of the blocks it made (appended after them when it is done).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Blk {
    Body(usize),
    Made(usize),
}

impl Blk {
    /// Its index among the body's blocks once the made ones are appended after `first`.
    pub(super) fn index(self, first: usize) -> usize {
        match self {
            Blk::Body(i) => i,
            Blk::Made(k) => first + k,
        }
    }

    /// Which of two calls came later in the text.
    fn later(self, other: Blk) -> Blk {
        let key = |b: Blk| match b {
            Blk::Body(_) => 0,
            Blk::Made(k) => k + 1,
        };
        if key(other) > key(self) { other } else { self }
    }
}

/// A call of an instance after its first: its block, the instance's (whose state and outputs
/// it shares), and the blocks it runs after; indices among the body's blocks.
#[derive(Clone, Debug)]
pub(crate) struct SharedCall {
    pub block: usize,
    pub of: usize,
    pub after: Vec<usize>,
}

/// The calls made again, by the lowering: the block, the instance, the blocks it runs after.
pub(super) type Again = Vec<(Blk, usize, Vec<Blk>)>;

impl Lowerer<'_, '_> {
    /// The id of block `b`.
    pub(super) fn blk_id(&self, b: Blk) -> &str {
        match b {
            Blk::Body(i) => &self.body.blocks[i].id,
            Blk::Made(k) => &self.made[k].id,
        }
    }

    /// The id of the block whose outputs a read of instance `b` reads here: its latest call.
    pub(super) fn call_id(&self, b: usize) -> String {
        self.blk_id(self.current[b]).to_string()
    }

    /// Instance `b` called again with `inputs`: its block made, ordered after the calls
    /// before it and after what read them; `false` (with an error) when it cannot be.
    pub(super) fn call_again(&mut self, b: usize, inputs: Vec<(String, Wire)>, pos: Pos) -> bool {
        let ty = self.body.blocks[b].ty.to_string();
        if library::lookup(&ty).is_none() {
            self.error(
                pos,
                format!(
                    "`{}` ({ty}, a function block of the project) is called a second time in the scan: a second call is compiled for the library's function blocks so far",
                    self.body.blocks[b].id
                ),
            );
            return false;
        }
        let prev = self.current[b];
        let prefix = format!("{}.", self.blk_id(prev));
        let reads = |blk: &LeanBlock| blk.inputs.iter().any(|(_, w)| refers(w, &prefix));
        // A variable holding an output of the call before keeps that call's value.
        for v in 0..self.env.len() {
            if refers(&self.env[v], &prefix) {
                let ty = self.var_ty(v);
                let w = self.env[v].clone();
                self.env[v] = self.make(pos, "MOVE", vec![("in".into(), w)], Some(ty), "out");
            }
        }
        let mut after = vec![prev, self.last_call[b]];
        after.extend((0..self.made.len()).filter(|&k| reads(&self.made[k])).map(Blk::Made));
        for (i, blk) in self.body.blocks.iter().enumerate() {
            if reads(blk) {
                if library::lookup(&blk.ty).is_none() {
                    let msg = format!(
                        "`{}` is called again after `{}` (a function block of the project) read its output: not compiled yet",
                        self.body.blocks[b].id, blk.id
                    );
                    self.error(pos, msg);
                    return false;
                }
                after.push(Blk::Body(i));
            }
        }
        after.dedup();
        let mut block = self.body.blocks[b].clone();
        block.id = self.fresh(&format!("{}__call", self.body.blocks[b].id)).into();
        block.inputs.0 = inputs.into_iter().map(|(p, w)| (p.into_boxed_str(), w)).collect();
        self.made.push(block);
        let new = Blk::Made(self.made.len() - 1);
        self.again.push((new, b, after));
        self.current[b] = new;
        self.last_call[b] = new;
        true
    }

    /// A branch's condition `c` as a block of its own when it is an output of an instance
    /// called again: the branches after a call again, the merge of their values and the EN
    /// of what follows in the branch read the value the condition had, not the slot the
    /// call again writes.
    pub(super) fn pinned(&mut self, c: Wire, pos: Pos) -> Wire {
        let Wire::Ref(r) = &c else { return c };
        let Some((id, _)) = r.split_once('.') else { return c };
        // The instance whose output it is: by its name, or by a call again's block.
        let instance = match self.names.get(&id.to_ascii_uppercase()) {
            Some(super::Name::Instance(b)) => Some(*b),
            _ => self.again.iter().find(|(blk, _, _)| self.blk_id(*blk) == id).map(|(_, of, _)| *of),
        };
        let Some(b) = instance else { return c };
        if !self.called_again.contains(&self.body.blocks[b].id.to_ascii_uppercase()) {
            return c;
        }
        self.make(pos, "MOVE", vec![("in".into(), c)], Some(fbd_model::Type::Bool), "out")
    }

    /// After the branches of an IF or a CASE: each instance's latest call among them.
    pub(super) fn latest_calls(&mut self, arms: &[Vec<Blk>]) {
        for arm in arms {
            for (c, a) in self.current.iter_mut().zip(arm) {
                *c = c.later(*a);
            }
        }
    }

    /// The calls made again, with their blocks' indices once the made blocks are appended
    /// after the body's `first`.
    pub(super) fn shared_calls(&self, first: usize) -> Vec<SharedCall> {
        self.again
            .iter()
            .map(|(blk, of, after)| SharedCall {
                block: blk.index(first),
                of: *of,
                after: after.iter().map(|a| a.index(first)).collect(),
            })
            .collect()
    }
}

/// Whether `w` reads an output of the block whose outputs are named `prefix` (`t.`).
fn refers(w: &Wire, prefix: &str) -> bool {
    matches!(w, Wire::Ref(r) if r.starts_with(prefix))
}
