//! The compiled form of a diagram: typed value slots and a flat instruction array in data-flow
//! order, plus the tables the debugger needs (signal paths, blocks, ports).

use rustc_hash::FxHashMap as HashMap;
use std::path::PathBuf;

use crate::exec::Instr;
use crate::library::Kind;
use crate::model::InputKind;
use crate::types::{Type, Value};

/// A typed slot: index into the runtime's BOOL, INT or REAL array.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// Which array.
    pub ty: Type,
    /// Index in it.
    pub idx: u32,
}

/// What a signal path names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SignalKind {
    /// A program input (`command`).
    ProgramInput,
    /// A program output (`score`): an alias of the signal that drives it.
    ProgramOutput,
    /// A block output (`cell_1_1/mem.q`): written by the block.
    BlockOutput,
    /// A block input (`cell_1_1/mem.en`): an alias of its driver, read-only.
    BlockInput,
    /// A macro instance pin (`cell_1_1.value`): an alias of what it is bound to, read-only.
    MacroPin,
    /// A feedback wire's delayed copy (`blk.pin@fb`).
    Feedback,
    /// A constant (`blk.pin` wired to a literal): read-only.
    Constant,
}

impl SignalKind {
    /// Whether a write or force on this path is accepted. Aliases are refused so that a force
    /// never silently changes every other reader of the same driver.
    pub fn writable(self) -> bool {
        matches!(self, SignalKind::ProgramInput | SignalKind::BlockOutput | SignalKind::Feedback)
    }
}

/// One named signal, as read from [`ScanPlan::signals`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SignalInfo<'a> {
    /// Hierarchical path: `inst/inner/block.pin`, `inst.pin`, or a program port name.
    pub path: &'a str,
    /// Where its value lives.
    pub slot: Slot,
    /// What it is.
    pub kind: SignalKind,
}

/// One primitive block after macro expansion, as read from [`ScanPlan::blocks`].
#[derive(Copy, Clone, Debug)]
pub struct BlockInfo<'a> {
    /// Hierarchical path (`cell_1_1/mem`).
    pub path: &'a str,
    /// Library type name.
    pub type_name: &'static str,
    /// The primitive.
    pub kind: Kind,
    /// The resolved type variable, for generic blocks.
    pub data_type: Option<Type>,
    /// File that defines it: index into [`ScanPlan::files`].
    pub file: u32,
    /// Line of the block's definition.
    pub line: Option<u32>,
    /// Input pins, as indices into [`ScanPlan::signals`] (the pin name is the part of the path
    /// after the last `.`, see [`ScanPlan::pin_name`]).
    pub inputs: &'a [u32],
    /// Output pins, as signal indices.
    pub outputs: &'a [u32],
    /// Every slot that holds state across scans (outputs of stateful blocks and internals).
    pub state: &'a [Slot],
    /// Position in the instruction array, if the block has an instruction (DELAY has none).
    pub instr: Option<u32>,
    /// For RANDOM blocks: index of the block's random stream.
    pub rng: Option<u32>,
    /// Data-flow level: 0 for blocks fed only by inputs, constants and feedback.
    pub level: u32,
}

/// Names stored back to back in one string. A large program has hundreds of thousands of
/// paths; a `String` each would cost more (pointer, length, capacity, allocator rounding) than
/// the values they name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    text: String,
    /// End of name `i` in `text`; it starts where name `i - 1` ends.
    ends: Vec<u32>,
}

impl Names {
    pub(crate) fn with_capacity(names: usize, bytes: usize) -> Names {
        Names { text: String::with_capacity(bytes), ends: Vec::with_capacity(names) }
    }

    /// Appends the concatenation of `parts` as one name.
    pub(crate) fn push(&mut self, parts: &[&str]) {
        for p in parts {
            self.text.push_str(p);
        }
        // The compiler refuses a program whose names could exceed 4 GiB before it builds a plan.
        debug_assert!(u32::try_from(self.text.len()).is_ok(), "names above 4 GiB");
        self.ends.push(self.text.len() as u32);
    }

    pub(crate) fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Gives back the capacity that sizing by estimate left unused.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

/// Every named signal of a plan: paths in one name arena, slots and kinds beside them,
/// found by path through a compact hash index.
#[derive(Clone, Debug, Default)]
pub struct Signals {
    pub(crate) names: Names,
    pub(crate) slots: Vec<Slot>,
    pub(crate) kinds: Vec<SignalKind>,
    pub(crate) index: PathIndex,
}

impl Signals {
    pub(crate) fn with_capacity(n: usize, bytes: usize) -> Signals {
        Signals {
            names: Names::with_capacity(n, bytes),
            slots: Vec::with_capacity(n),
            kinds: Vec::with_capacity(n),
            index: PathIndex::default(),
        }
    }

    /// Appends a signal named by the concatenation of `path`; returns its index.
    pub(crate) fn push(&mut self, path: &[&str], slot: Slot, kind: SignalKind) -> u32 {
        self.names.push(path);
        self.slots.push(slot);
        self.kinds.push(kind);
        self.slots.len() as u32 - 1
    }

    /// Builds the path index once every signal is in (first occurrence wins for equal paths).
    pub(crate) fn finish(&mut self) {
        self.names.shrink_to_fit();
        self.index = PathIndex::build(self.names.len(), |i| self.names.get(i as usize));
    }

    /// Number of signals.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Signal `i`; panics if `i` is out of range, like indexing.
    pub fn at(&self, i: usize) -> SignalInfo<'_> {
        SignalInfo { path: self.names.get(i), slot: self.slots[i], kind: self.kinds[i] }
    }

    /// Signal `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<SignalInfo<'_>> {
        (i < self.len()).then(|| self.at(i))
    }

    /// Every signal, in index order.
    pub fn iter(&self) -> TableIter<'_, Signals> {
        TableIter { table: self, range: 0..self.len() }
    }

    /// Index of the signal with this path.
    pub fn id(&self, path: &str) -> Option<usize> {
        self.index.get(path, |i| self.names.get(i as usize)).map(|i| i as usize)
    }
}

/// A table of the plan whose rows are read as views ([`Signals`], [`Blocks`]).
pub trait Table {
    /// The view of one row.
    type Row<'a>
    where
        Self: 'a;
    /// Row `i`.
    fn row(&self, i: usize) -> Self::Row<'_>;
}

impl Table for Signals {
    type Row<'a> = SignalInfo<'a>;
    fn row(&self, i: usize) -> SignalInfo<'_> {
        self.at(i)
    }
}

impl Table for Blocks {
    type Row<'a> = BlockInfo<'a>;
    fn row(&self, i: usize) -> BlockInfo<'_> {
        self.at(i)
    }
}

/// The rows of a [`Table`] in index order.
#[derive(Clone, Debug)]
pub struct TableIter<'a, T> {
    table: &'a T,
    range: std::ops::Range<usize>,
}

impl<'a, T: Table> Iterator for TableIter<'a, T> {
    type Item = T::Row<'a>;
    fn next(&mut self) -> Option<T::Row<'a>> {
        self.range.next().map(|i| self.table.row(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.range.size_hint()
    }
    fn nth(&mut self, n: usize) -> Option<T::Row<'a>> {
        self.range.nth(n).map(|i| self.table.row(i))
    }
}

impl<T: Table> ExactSizeIterator for TableIter<'_, T> {}

impl<T: Table> DoubleEndedIterator for TableIter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.range.next_back().map(|i| self.table.row(i))
    }
}

impl<'a> IntoIterator for &'a Signals {
    type Item = SignalInfo<'a>;
    type IntoIter = TableIter<'a, Signals>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a Blocks {
    type Item = BlockInfo<'a>;
    type IntoIter = TableIter<'a, Blocks>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A block as stored: ranges into the plan's shared pin and state arrays instead of a vector
/// each (a large program has one per block).
#[derive(Clone, Debug)]
pub(crate) struct BlockRec {
    pub def: &'static crate::library::BlockDef,
    pub data_type: Option<Type>,
    pub n_in: u16,
    pub n_out: u16,
    pub n_state: u16,
    pub file: u32,
    /// 0: unknown.
    pub line: u32,
    pub first_in: u32,
    pub first_out: u32,
    pub first_state: u32,
    /// `u32::MAX`: none.
    pub instr: u32,
    /// `u32::MAX`: none.
    pub rng: u32,
    pub level: u32,
}

/// Every primitive block of a plan, in the order of the plan's topological sort.
#[derive(Clone, Debug, Default)]
pub struct Blocks {
    pub(crate) names: Names,
    pub(crate) recs: Vec<BlockRec>,
    /// Signal indices of every block's input pins, block after block.
    pub(crate) pins_in: Vec<u32>,
    /// Signal indices of every block's outputs.
    pub(crate) pins_out: Vec<u32>,
    /// State slots of every stateful block.
    pub(crate) state: Vec<Slot>,
    pub(crate) index: PathIndex,
}

impl Blocks {
    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// Block `i`; panics if `i` is out of range, like indexing.
    pub fn at(&self, i: usize) -> BlockInfo<'_> {
        let r = &self.recs[i];
        let range = |first: u32, n: u16| first as usize..first as usize + n as usize;
        BlockInfo {
            path: self.names.get(i),
            type_name: r.def.name,
            kind: r.def.kind,
            data_type: r.data_type,
            file: r.file,
            line: (r.line != 0).then_some(r.line),
            inputs: &self.pins_in[range(r.first_in, r.n_in)],
            outputs: &self.pins_out[range(r.first_out, r.n_out)],
            state: &self.state[range(r.first_state, r.n_state)],
            instr: (r.instr != u32::MAX).then_some(r.instr),
            rng: (r.rng != u32::MAX).then_some(r.rng),
            level: r.level,
        }
    }

    /// Block `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<BlockInfo<'_>> {
        (i < self.len()).then(|| self.at(i))
    }

    /// Every block, in plan order.
    pub fn iter(&self) -> TableIter<'_, Blocks> {
        TableIter { table: self, range: 0..self.len() }
    }

    /// Index of the block with this path.
    pub fn id(&self, path: &str) -> Option<usize> {
        self.index.get(path, |i| self.names.get(i as usize)).map(|i| i as usize)
    }
}

/// A program input or output.
#[derive(Clone, Debug)]
pub struct PortInfo {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Its slot (for inputs: the latched value the blocks read).
    pub slot: Slot,
    /// For inputs: the value before anything is written.
    pub default: Value,
    /// For inputs: how an HMI presents it.
    pub kind: InputKind,
    /// For selector inputs: position labels.
    pub options: Vec<String>,
}

/// A copy made at the end of every scan: feedback wires, DELAY and MEMORY.prev.
#[derive(Copy, Clone, Debug)]
pub struct Commit {
    /// Type of both slots.
    pub ty: Type,
    /// Read at the end of the scan.
    pub from: u32,
    /// Written after every commit has read its source (two-phase, so chains of delays work).
    pub to: u32,
    /// Staging slot for the two-phase copy.
    pub stage: u32,
}

/// Sizes reported by `fbd check`.
#[derive(Clone, Debug, Default)]
pub struct PlanStats {
    /// Primitive blocks after expansion.
    pub blocks: usize,
    /// Distinct macros defined (over all files).
    pub macros: usize,
    /// Macro instances after expansion.
    pub instances: usize,
    /// Named signals.
    pub signals: usize,
    /// Instructions in the plan.
    pub instructions: usize,
    /// Slots: BOOL, INT, REAL.
    pub slots: [usize; 3],
    /// Data-flow levels.
    pub levels: usize,
    /// Files read (the program and its includes).
    pub files: usize,
    /// Time spent in each compiler phase.
    pub phases: PhaseTimes,
}

/// Wall time of each compiler phase (loading and parsing are not included).
#[derive(Clone, Debug, Default)]
pub struct PhaseTimes {
    /// Macro expansion and name resolution.
    pub expand: std::time::Duration,
    /// Type inference and checking.
    pub types: std::time::Duration,
    /// Data-flow ordering and scheduling.
    pub order: std::time::Duration,
    /// Slot allocation, instruction emission, signal tables.
    pub emit: std::time::Duration,
}

/// A macro instance after expansion.
#[derive(Clone, Debug)]
pub struct InstanceInfo {
    /// Its path (`cell_1_1`).
    pub path: String,
    /// The macro's name.
    pub macro_name: String,
}

/// Finds items by path without storing any path a second time: an open-addressing table of
/// item numbers (4 bytes a bucket, at most three quarters full) probed linearly, each candidate
/// compared with its path. First occurrence wins for equal paths.
#[derive(Clone, Debug, Default)]
pub(crate) struct PathIndex {
    /// 0: empty; else the item's index + 1.
    buckets: Vec<u32>,
    /// `64 - log2(buckets.len())`: the hash's top bits pick the first bucket.
    shift: u32,
}

fn path_hash(path: &str) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    h.write(path.as_bytes());
    // Fibonacci hashing: the top bits of the product depend on every bit of the hash.
    h.finish().wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl PathIndex {
    /// Indexes items `0..n`; `path_of` gives an item's path.
    pub(crate) fn build<'a>(n: usize, path_of: impl Fn(u32) -> &'a str) -> PathIndex {
        // At least one bucket stays empty, so every probe ends.
        let len = (n + n / 3 + 1).next_power_of_two();
        let mut ix = PathIndex { buckets: vec![0; len], shift: 64 - len.trailing_zeros() };
        let mask = len - 1;
        for i in 0..n as u32 {
            let p = path_of(i);
            let mut b = ix.first_bucket(p);
            loop {
                match ix.buckets[b] {
                    0 => {
                        ix.buckets[b] = i + 1;
                        break;
                    }
                    j if path_of(j - 1) == p => break,
                    _ => b = (b + 1) & mask,
                }
            }
        }
        ix
    }

    fn first_bucket(&self, path: &str) -> usize {
        // A shift of 64 (one bucket) would overflow; `checked_shr` gives bucket 0 then.
        path_hash(path).checked_shr(self.shift).unwrap_or(0) as usize
    }

    /// The item with this path; `path_of` gives an item's path.
    pub(crate) fn get<'a>(&self, path: &str, path_of: impl Fn(u32) -> &'a str) -> Option<u32> {
        if self.buckets.is_empty() {
            return None;
        }
        let mask = self.buckets.len() - 1;
        let mut b = self.first_bucket(path);
        loop {
            match self.buckets[b] {
                0 => return None,
                j if path_of(j - 1) == path => return Some(j - 1),
                _ => b = (b + 1) & mask,
            }
        }
    }
}

/// A compiled program: what [`crate::Runtime`] executes.
#[derive(Clone, Debug)]
pub struct ScanPlan {
    /// Program name from the diagram.
    pub name: String,
    /// Scan cycle in microseconds.
    pub cycle_us: u64,
    pub(crate) code: Vec<Instr>,
    pub(crate) args: Vec<u32>,
    pub(crate) instr_block: Vec<u32>,
    pub(crate) commits: Vec<Commit>,
    pub(crate) init_bool: Vec<bool>,
    pub(crate) init_int: Vec<i64>,
    pub(crate) init_real: Vec<f64>,
    /// Per RANDOM block: the stream key (path hash mixed with params.seed).
    pub(crate) rng_keys: Vec<u64>,
    /// Program inputs.
    pub inputs: Vec<PortInfo>,
    /// Program outputs.
    pub outputs: Vec<PortInfo>,
    /// Every named signal.
    pub signals: Signals,
    /// Every primitive block, in the order of the plan's topological sort.
    pub blocks: Blocks,
    /// Delayed slot → its staging slot (see [`Commit`]).
    pub(crate) stages: HashMap<Slot, Slot>,
    /// The files the program was read from (the program first).
    pub files: Vec<PathBuf>,
    /// Slot → the signal that owns it (input, block output, feedback value), built on first use.
    pub(crate) slot_owner: std::sync::OnceLock<HashMap<Slot, u32>>,
    /// Macro instances.
    pub instances: Vec<InstanceInfo>,
    /// Sizes.
    pub stats: PlanStats,
    /// Hash of the signal table and code size: a snapshot restores only into the same plan.
    pub fingerprint: u64,
}

impl ScanPlan {
    /// The signal with this path.
    pub fn signal(&self, path: &str) -> Option<SignalInfo<'_>> {
        self.signal_id(path).map(|i| self.signals.at(i))
    }

    /// Index of the signal with this path.
    pub fn signal_id(&self, path: &str) -> Option<usize> {
        self.signals.id(path)
    }

    /// The signal that drives an alias (block input, macro pin, program output), as a path or,
    /// for a constant, its value. `None` for signals that are not aliases.
    pub fn driver(&self, sig: SignalInfo<'_>) -> Option<String> {
        match sig.kind {
            SignalKind::ProgramInput | SignalKind::BlockOutput | SignalKind::Feedback => None,
            _ => {
                let owners = self.slot_owner.get_or_init(|| {
                    let mut m = HashMap::default();
                    for (i, s) in self.signals.iter().enumerate() {
                        if s.kind.writable() {
                            m.entry(s.slot).or_insert(i as u32);
                        }
                    }
                    m
                });
                match owners.get(&sig.slot) {
                    Some(&i) => Some(self.signals.at(i as usize).path.to_string()),
                    None => Some(self.init_value(sig.slot).to_string()),
                }
            }
        }
    }

    /// The value a slot holds before the first scan.
    pub fn init_value(&self, s: Slot) -> Value {
        match s.ty {
            Type::Bool => Value::Bool(self.init_bool[s.idx as usize]),
            Type::Int => Value::Int(self.init_int[s.idx as usize]),
            Type::Real => Value::Real(self.init_real[s.idx as usize]),
        }
    }

    /// The pin name of a block's signal (`q` for `cell/mem.q`).
    pub fn pin_name(&self, signal: u32) -> &str {
        let p = self.signals.at(signal as usize).path;
        p.rsplit_once('.').map(|(_, pin)| pin).unwrap_or(p)
    }

    /// The file a block is defined in.
    pub fn block_file(&self, b: &BlockInfo<'_>) -> &std::path::Path {
        &self.files[b.file as usize]
    }

    /// The block with this path.
    pub fn block(&self, path: &str) -> Option<BlockInfo<'_>> {
        self.blocks.id(path).map(|i| self.blocks.at(i))
    }

    /// Program input by name.
    pub fn input(&self, name: &str) -> Option<&PortInfo> {
        self.inputs.iter().find(|p| p.name == name)
    }

    /// Program output by name.
    pub fn output(&self, name: &str) -> Option<&PortInfo> {
        self.outputs.iter().find(|p| p.name == name)
    }

    /// The block that instruction `i` belongs to.
    pub fn instr_block(&self, i: usize) -> BlockInfo<'_> {
        self.blocks.at(self.instr_block[i] as usize)
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// Whether the plan has no instruction.
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    /// A readable listing of the plan, one instruction per line (`fbd check --plan`).
    pub fn listing(&self) -> String {
        let mut s = String::new();
        for (i, ins) in self.code.iter().enumerate() {
            let b = self.instr_block(i);
            s.push_str(&format!("{i:6}  L{:<4} {:<12} {:<32} {:?}\n", b.level, b.type_name, b.path, ins));
        }
        for c in &self.commits {
            s.push_str(&format!("commit  {} {} -> {}\n", c.ty, c.from, c.to));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Names {
        let mut n = Names::with_capacity(0, 0);
        for p in list {
            // Pushed in pieces, as the compiler does for `block.pin`.
            let mid = (0..=p.len() / 2).rev().find(|&k| p.is_char_boundary(k)).unwrap_or(0);
            let (a, b) = p.split_at(mid);
            n.push(&[a, b]);
        }
        n
    }

    #[test]
    fn names_give_back_what_was_pushed() {
        let list = ["", "a", "cell_1_1/mem.q", "", "x.in1", "ä/ö.ü"];
        let n = names(&list);
        assert_eq!(n.len(), list.len());
        for (i, p) in list.iter().enumerate() {
            assert_eq!(n.get(i), *p);
        }
    }

    #[test]
    fn the_path_index_finds_every_path_and_only_those() {
        for count in [0usize, 1, 2, 3, 7, 8, 100, 1000] {
            let list: Vec<String> = (0..count).map(|i| format!("b{i}.out")).collect();
            let refs: Vec<&str> = list.iter().map(String::as_str).collect();
            let n = names(&refs);
            let ix = PathIndex::build(n.len(), |i| n.get(i as usize));
            for (i, p) in list.iter().enumerate() {
                assert_eq!(ix.get(p, |i| n.get(i as usize)), Some(i as u32), "{p} of {count}");
            }
            for absent in ["", "b.out", "b0.ou", &format!("b{count}.out")] {
                assert_eq!(ix.get(absent, |i| n.get(i as usize)), None, "{absent} of {count}");
            }
        }
    }

    #[test]
    fn the_first_of_equal_paths_wins() {
        let n = names(&["a", "b", "a", "c", "b"]);
        let ix = PathIndex::build(n.len(), |i| n.get(i as usize));
        assert_eq!(ix.get("a", |i| n.get(i as usize)), Some(0));
        assert_eq!(ix.get("b", |i| n.get(i as usize)), Some(1));
        assert_eq!(ix.get("c", |i| n.get(i as usize)), Some(3));
    }

    #[test]
    fn signal_rows_read_back_and_iterate_both_ways() {
        let mut s = Signals::with_capacity(3, 0);
        let bool_slot = Slot { ty: Type::Bool, idx: 4 };
        let int_slot = Slot { ty: Type::Int, idx: 9 };
        assert_eq!(s.push(&["go"], bool_slot, SignalKind::ProgramInput), 0);
        assert_eq!(s.push(&["m", ".", "q"], int_slot, SignalKind::BlockOutput), 1);
        s.finish();
        assert_eq!(s.at(1), SignalInfo { path: "m.q", slot: int_slot, kind: SignalKind::BlockOutput });
        assert_eq!(s.id("m.q"), Some(1));
        assert_eq!(s.get(2), None);
        let fwd: Vec<&str> = s.iter().map(|r| r.path).collect();
        let back: Vec<&str> = s.iter().rev().map(|r| r.path).collect();
        assert_eq!((fwd, back), (vec!["go", "m.q"], vec!["m.q", "go"]));
        assert_eq!(s.iter().len(), 2);
    }
}
