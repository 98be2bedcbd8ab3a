//! An ST loop's instructions: its loop variables copy their values in, the head computes the
//! test, a skip over the rest leaves the loop when the test is FALSE, the body runs, the loop
//! variables take the iteration's values and a jump goes back to the head.
//!
//! ```text
//!   copy in0 -> x        (each loop variable, at its block's place)
//!   SkipUnless guard, n  (a FOR's first test: to after the jump)
//! top:
//!   head ..              (the test's MOVE last of what it reads)
//!   SkipUnless en, n     (each EN of an instance the loop is in: to after the jump)
//!   SkipUnless test, n   (to after the jump)
//!   body ..
//!   copy next -> x       (each loop variable whose value changed)
//!   LoopBack top         (counted against the watchdog)
//! ```

use rustc_hash::FxHashMap as HashMap;

use super::Emitting;
use crate::expand::{Net, Src};
use crate::order::Mark;
use crate::typecheck::out_type;
use fbd_model::types::{Bank, Value};
use fbd_plan::Slot;
use fbd_plan::instr::{Instr, StrOp, truth_table};

/// What emission keeps of the loops between their marks.
#[derive(Default)]
pub(super) struct LoopEmission {
    /// Loop variable block → its loop.
    phi_of: HashMap<u32, u32>,
    /// A loop's test block → its loop.
    test_of: HashMap<u32, u32>,
    /// A loop's guard block → its loop; its record, when emitted.
    guard_of: HashMap<u32, u32>,
    guard_rec: Vec<u32>,
    /// Per loop: where an iteration starts, the skip of its test, its test's block record,
    /// and each loop variable's (iteration's end value, loop variable) slots.
    top: Vec<u32>,
    skip: Vec<Vec<u32>>,
    test_rec: Vec<u32>,
    backs: Vec<Vec<(Slot, Slot)>>,
}

impl LoopEmission {
    pub(super) fn of(net: &Net) -> LoopEmission {
        let n = net.loops.len();
        let mut e = LoopEmission {
            top: vec![0; n],
            skip: vec![Vec::new(); n],
            test_rec: vec![0; n],
            guard_rec: vec![0; n],
            backs: vec![Vec::new(); n],
            ..LoopEmission::default()
        };
        for (l, lp) in net.loops.iter().enumerate() {
            e.test_of.insert(lp.test, l as u32);
            if let Some(g) = lp.guard {
                e.guard_of.insert(g, l as u32);
            }
            for &p in &lp.phis {
                e.phi_of.insert(p, l as u32);
            }
        }
        e
    }

    /// Whether block `i` is a loop variable.
    pub(super) fn is_phi(&self, i: usize) -> bool {
        !self.phi_of.is_empty() && self.phi_of.contains_key(&(i as u32))
    }

    /// Block `i`, just recorded as `rec`: kept when it is a loop's test.
    pub(super) fn recorded(&mut self, i: usize, rec: usize) {
        if let Some(&l) = self.test_of.get(&(i as u32)) {
            self.test_rec[l as usize] = rec as u32;
        }
        if let Some(&l) = self.guard_of.get(&(i as u32)) {
            self.guard_rec[l as usize] = rec as u32;
        }
    }
}

/// The blocks that write a loop variable's next value into the loop variable's own slot
/// (block → loop variable), so that no copy back is needed: the last write of a variable in
/// an iteration (`s := s + x` an ADD reading `s` and writing it), when nothing in the loop reads
/// the loop variable after it and it is a plain block of that loop (one output, no state, no
/// EN of its own, of the variable's type) that feeds one loop variable only. The copies back of a loop that does
/// this for all its variables are gone: the iteration costs its blocks, the test and the jump.
pub(super) fn shared_slots(net: &Net, t: &crate::typecheck::Tvars, order: &[usize]) -> HashMap<usize, usize> {
    let mut shared = HashMap::default();
    if net.loops.is_empty() {
        return shared;
    }
    let n = net.blocks.len();
    let mut pos = vec![u32::MAX; n];
    for (k, &b) in order.iter().enumerate() {
        pos[b] = k as u32;
    }
    // The last position in the order at which each loop variable is read.
    let phi_of: HashMap<usize, u32> =
        net.loops.iter().enumerate().flat_map(|(l, lp)| lp.phis.iter().map(move |&p| (p as usize, l as u32))).collect();
    let mut last_read = vec![0u32; n];
    for (r, b) in net.blocks.iter().enumerate() {
        let gates = net.gates.get(&(r as u32)).into_iter().flat_map(|g| g.iter());
        for src in b.inputs.iter().map(|p| &p.src).chain(gates) {
            if let Src::Out { block, .. } = src
                && phi_of.contains_key(block)
                && inside(net, r, phi_of[block])
            {
                last_read[*block] = last_read[*block].max(pos[r]);
            }
        }
    }
    let mut taken = rustc_hash::FxHashSet::default();
    for (&p, &l) in &phi_of {
        let Some(Src::Feedback { src, .. }) = net.blocks[p].inputs.get(2).map(|x| &x.src) else { continue };
        let Src::Out { block: b, pin: 0 } = **src else { continue };
        let nb = &net.blocks[b];
        let plain = nb.n_outputs() == 1 && !nb.def.stateful && !net.has_negated_output(b) && !phi_of.contains_key(&b);
        let here = net.in_loop(b).is_some_and(|a| a.loop_ == l);
        let typed = out_type(net, t, b, 0).is_some() && out_type(net, t, b, 0) == out_type(net, t, p, 0);
        // A function under an EN of its own writes its output's initial value before the EN's
        // skip (`write_off_values`): in the loop variable's slot, that would clobber it.
        let own_en = net.own_gate.contains(&(b as u32));
        if plain && here && typed && !own_en && last_read[p] <= pos[b] && taken.insert(b) {
            shared.insert(b, p);
        }
    }
    shared
}

/// Whether block `b` runs in loop `l` (in it or in a loop inside it).
fn inside(net: &Net, b: usize, l: u32) -> bool {
    let mut at = net.in_loop(b);
    while let Some(a) = at {
        if a.loop_ == l {
            return true;
        }
        at = net.loops[a.loop_ as usize].parent;
    }
    false
}

impl Emitting<'_> {
    /// Loop variable `i` (a SEL: g, in0, in1): its value before the loop copied in; what
    /// its loop's end copies back noted. Its `in1` signal shows the iteration's end value (not
    /// a delayed copy of it).
    pub(super) fn phi(&mut self, net: &Net, i: usize) -> Option<u32> {
        let b = &net.blocks[i];
        let rec = self.blocks.recs.len();
        self.ins.clear();
        self.wired.clear();
        for (k, p) in b.inputs.iter().enumerate() {
            // `in1` reads the iteration's end in the same scan; `in0` may be the previous
            // scan's value (a variable read before its first write).
            let src = match &p.src {
                Src::Feedback { src, .. } if k == 2 => &**src,
                s => s,
            };
            let s = self.srcs.slot(net, src, &mut self.slots, &mut self.commits);
            self.wired.push(s);
        }
        let out = self.pins_out(net, i)[0];
        let (init, next) = (self.wired.get(1).copied()?, self.wired.get(2).copied()?);
        let l = self.loops.phi_of[&(i as u32)] as usize;
        if next != out {
            self.loops.backs[l].push((next, out));
        }
        let copy = self.copy(init, out);
        Some(self.push(copy, rec))
    }

    /// A loop's mark: where an iteration starts, the test's skip, or the copies back and the
    /// jump.
    pub(super) fn mark(&mut self, net: &Net, m: Mark) {
        match m {
            Mark::Start(l) => {
                // A guard that fails skips the whole loop.
                if let Some(g) = net.loops[l as usize].guard {
                    let slot = self.pins_out(net, g as usize)[0].idx;
                    let rec = self.loops.guard_rec[l as usize] as usize;
                    let at = self.push(Instr::SkipUnless { g: slot, n: 0 }, rec);
                    self.loops.skip[l as usize].push(at);
                }
                self.loops.top[l as usize] = self.code.len() as u32;
            }
            Mark::Test(l) => {
                let test = net.loops[l as usize].test as usize;
                let rec = self.loops.test_rec[l as usize] as usize;
                // A loop in an instance under an EN: its test is not computed while the EN is
                // FALSE, and the loop is left at once.
                let gates = net.gates.get(&(test as u32)).map_or(&[][..], |g| &g[..]);
                for g in gates {
                    let g = self.srcs.slot(net, g, &mut self.slots, &mut self.commits).idx;
                    let at = self.push(Instr::SkipUnless { g, n: 0 }, rec);
                    self.loops.skip[l as usize].push(at);
                }
                let g = self.pins_out(net, test)[0].idx;
                let at = self.push(Instr::SkipUnless { g, n: 0 }, rec);
                self.loops.skip[l as usize].push(at);
            }
            Mark::End(l) => {
                let l = l as usize;
                let rec = self.loops.test_rec[l] as usize;
                for (from, to) in std::mem::take(&mut self.loops.backs[l]) {
                    let copy = self.copy(from, to);
                    self.push(copy, rec);
                }
                let back = self.code.len() as u32 - self.loops.top[l];
                self.push(Instr::LoopBack { n: back }, rec);
                for skip in std::mem::take(&mut self.loops.skip[l]) {
                    let over = (self.code.len() - skip as usize - 1) as u32;
                    if let Instr::SkipUnless { n, .. } = &mut self.code[skip as usize] {
                        *n = over;
                    }
                }
            }
        }
    }

    /// `to := from`, two slots of one bank.
    pub(super) fn copy(&mut self, from: Slot, to: Slot) -> Instr {
        let a = from.idx;
        match to.ty.bank() {
            Bank::Bool => Instr::Gate { t: truth_table(|a, _, _| a), a, b: a, c: a, o: to.idx },
            Bank::Int => Instr::SelI { g: self.slots.constant(Value::Bool(false)).idx, a, b: a, o: to.idx },
            Bank::Real => Instr::MoveR { a, o: to.idx },
            Bank::Str => {
                let args = self.args.len() as u32;
                self.args.push(a);
                Instr::Str { op: StrOp::Move, args, n: 1, o: to.idx }
            }
        }
    }
}
