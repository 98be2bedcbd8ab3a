//! What the executor works on: the slot arrays ([`State`]), the faults a scan records
//! ([`FaultLog`], sized once, never allocating), and the random streams of RANDOM blocks.

use rand_chacha::ChaCha8Rng;

use fbd_model::types::{Bank, IecString, Value};
use fbd_plan::fault::FaultKind;
use fbd_plan::random::rng_for;
use fbd_plan::{ScanPlan, Slot};

/// One recorded fault.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Scan number (0-based) it happened in.
    pub scan: u64,
    /// Instruction index; [`ScanPlan::instr_block`] names the block.
    pub instr: u32,
    /// What happened.
    pub kind: FaultKind,
}

/// The most recent faults in a ring sized once, plus a total count.
#[derive(Clone, Debug)]
pub struct FaultLog {
    ring: crate::ring::Ring<Fault>,
    /// Faults ever recorded.
    pub total: u64,
}

impl FaultLog {
    /// A log that keeps the last `capacity` faults.
    pub fn new(capacity: usize) -> FaultLog {
        FaultLog { ring: crate::ring::Ring::new(capacity), total: 0 }
    }

    #[cold]
    pub(super) fn push(&mut self, f: Fault) {
        self.total += 1;
        self.ring.push(f);
    }

    /// The kept faults, oldest first.
    pub fn recent(&self) -> Vec<Fault> {
        self.ring.to_vec()
    }

    /// The newest fault kept.
    pub fn last(&self) -> Option<Fault> {
        self.ring.last().copied()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.ring.clear();
        self.total = 0;
    }
}

/// Every value a running program holds: the slot arrays and the random streams.
/// Cloning it is a snapshot.
#[derive(Debug, PartialEq)]
pub struct State {
    /// BOOL slots.
    pub bools: Vec<bool>,
    /// INT slots.
    pub ints: Vec<i64>,
    /// REAL slots.
    pub reals: Vec<f64>,
    /// STRING slots.
    pub strs: Vec<IecString>,
    /// One stream per RANDOM block.
    pub rngs: Vec<ChaCha8Rng>,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            bools: self.bools.clone(),
            ints: self.ints.clone(),
            reals: self.reals.clone(),
            strs: self.strs.clone(),
            rngs: self.rngs.clone(),
        }
    }

    /// Field by field, so that a snapshot taken into a recycled one (or a restore) reuses the
    /// arrays it has instead of allocating new ones.
    fn clone_from(&mut self, source: &State) {
        self.bools.clone_from(&source.bools);
        self.ints.clone_from(&source.ints);
        self.reals.clone_from(&source.reals);
        self.strs.clone_from(&source.strs);
        self.rngs.clone_from(&source.rngs);
    }
}

impl State {
    /// The initial state of `plan` for runtime seed `seed`.
    pub fn new(plan: &ScanPlan, seed: u64) -> State {
        State {
            bools: plan.init_bool.clone(),
            ints: plan.init_int.clone(),
            reals: plan.init_real.clone(),
            strs: plan.init_str.clone(),
            rngs: plan.rng_keys.iter().map(|k| rng_for(seed, *k)).collect(),
        }
    }

    /// Reads a slot.
    #[inline]
    pub fn get(&self, s: Slot) -> Value {
        match s.ty.bank() {
            Bank::Bool => Value::Bool(self.bools[s.idx as usize]),
            Bank::Int => s.ty.int_value(self.ints[s.idx as usize]),
            Bank::Real => Value::Real(self.reals[s.idx as usize]),
            Bank::Str => Value::Str(self.strs[s.idx as usize]),
        }
    }

    /// Whether slot `s` holds `v`, bit for bit (`v` of the slot's type).
    #[inline]
    pub fn holds(&self, s: Slot, v: &Value) -> bool {
        let i = s.idx as usize;
        match v {
            Value::Bool(b) => self.bools[i] == *b,
            Value::Int(x) | Value::Time(x) => self.ints[i] == *x,
            Value::ULInt(u) => self.ints[i] == *u as i64,
            Value::Real(r) => self.reals[i].to_bits() == r.to_bits(),
            Value::Str(t) => self.strs[i] == *t,
        }
    }

    /// Writes a slot; the value must already have the slot's type.
    #[inline]
    pub fn set(&mut self, s: Slot, v: Value) {
        set_slot((&mut self.bools, &mut self.ints, &mut self.reals, &mut self.strs), s.idx as usize, v);
    }
}

/// Writes `v` into slot `i` of the bank its type lives in (the banks as the executor borrows
/// them): the one place a value goes into the slot arrays.
pub(super) fn set_slot((b, n, r, s): (&mut [bool], &mut [i64], &mut [f64], &mut [IecString]), i: usize, v: Value) {
    match v {
        Value::Bool(x) => b[i] = x,
        Value::Int(x) | Value::Time(x) => n[i] = x,
        Value::ULInt(u) => n[i] = u as i64,
        Value::Real(x) => r[i] = x,
        Value::Str(t) => s[i] = t,
    }
}
