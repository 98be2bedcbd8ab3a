//! What the executor works on: the slot arrays ([`State`]), the faults a scan records
//! ([`FaultLog`], sized once, never allocating), and the random streams of RANDOM blocks.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::plan::{ScanPlan, Slot};
use crate::types::{Bank, IecString, Value};

/// What went wrong in a block during a scan. The block still produced a value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// DIV or MOD by zero; the result is 0.
    DivisionByZero,
    /// Integer overflow; the result wrapped (or, for a REAL converted to an integer, saturated).
    Overflow,
    /// A REAL result is NaN, or a NaN was converted to an integer (the result 0).
    NotANumber,
    /// A REAL result is ±infinity: it passed the largest REAL (1.8e308), or came from an
    /// infinite input, which only such an overflow makes (inputs and constants are finite).
    RealOverflow,
    /// MUX index out of range; the result is the zero of the type.
    IndexOutOfRange,
    /// An invalid argument (SAW period <= 0, RANDOM hi < lo, a negative timer preset).
    BadArgument,
}

impl FaultKind {
    /// Short description.
    pub fn describe(self) -> &'static str {
        match self {
            FaultKind::DivisionByZero => "division by zero (result 0)",
            FaultKind::Overflow => "integer overflow (result wrapped; a REAL beyond an integer type saturates)",
            FaultKind::NotANumber => "NaN (a REAL result; converted to an integer, the result 0)",
            FaultKind::RealOverflow => "REAL overflow (result ±infinity)",
            FaultKind::IndexOutOfRange => "MUX index out of range (result 0)",
            FaultKind::BadArgument => "invalid argument",
        }
    }
}

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
        match v {
            Value::Bool(b) => self.bools[s.idx as usize] = b,
            Value::Int(i) | Value::Time(i) => self.ints[s.idx as usize] = i,
            Value::ULInt(u) => self.ints[s.idx as usize] = u as i64,
            Value::Real(r) => self.reals[s.idx as usize] = r,
            Value::Str(t) => self.strs[s.idx as usize] = t,
        }
    }
}

/// The random stream of one RANDOM block: ChaCha8, portable and stable across platforms.
fn rng_for(seed: u64, key: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ key.rotate_left(17) ^ 0x9E37_79B9_7F4A_7C15)
}

/// The stream key of a RANDOM block: a hash of its path mixed with its `params.seed`.
pub(crate) fn random_key(path: &str, param_seed: Option<u64>) -> u64 {
    crate::fnv::fnv1a(path.as_bytes()) ^ param_seed.unwrap_or(0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The random stream of the RANDOM block at `path` for runtime seed `seed`: part of the
/// definition of a run (a recording replays because of it), so other evaluators can draw the
/// same numbers. Each scan with `en` draws `x` from one `next_u64` (its top 53 bits) and then `n`
/// from another (`lo + ((u * (hi - lo + 1)) >> 64)`).
pub fn random_stream(seed: u64, path: &str, param_seed: Option<u64>) -> ChaCha8Rng {
    rng_for(seed, random_key(path, param_seed))
}
