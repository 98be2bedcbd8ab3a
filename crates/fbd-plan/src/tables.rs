//! The plan's signal and block tables: every path in one name arena, a block's pins and state
//! as ranges of shared arrays, a compact path index; read as views ([`SignalInfo`],
//! [`BlockInfo`]), so a large program costs no allocation per signal or block.

use super::{SignalKind, Slot};
use fbd_model::library::Kind;
use fbd_model::types::Type;

/// One named signal, as read from [`ScanPlan::signals`](super::ScanPlan::signals).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SignalInfo<'a> {
    /// Hierarchical path: `inst/inner/block.pin`, `inst.pin`, or a program port name.
    pub path: &'a str,
    /// Where its value lives.
    pub slot: Slot,
    /// What it is.
    pub kind: SignalKind,
}

/// One primitive block after macro expansion, as read from
/// [`ScanPlan::blocks`](super::ScanPlan::blocks).
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
    /// File that defines it: index into [`ScanPlan::files`](super::ScanPlan::files).
    pub file: u32,
    /// Line of the block's definition.
    pub line: Option<u32>,
    /// Input pins, as indices into [`ScanPlan::signals`](super::ScanPlan::signals) (the pin
    /// name is the part of the path after the last `.`, see
    /// [`ScanPlan::pin_name`](super::ScanPlan::pin_name)).
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
pub struct Names {
    text: String,
    /// End of name `i` in `text`; it starts where name `i - 1` ends.
    ends: Vec<u32>,
}

impl Names {
    /// An empty arena with room for `names` names of `bytes` bytes together.
    pub fn with_capacity(names: usize, bytes: usize) -> Names {
        Names { text: String::with_capacity(bytes), ends: Vec::with_capacity(names) }
    }

    /// Appends the concatenation of `parts` as one name.
    pub fn push(&mut self, parts: &[&str]) {
        for p in parts {
            self.text.push_str(p);
        }
        // The compiler refuses a program whose names could exceed 4 GiB before it builds a plan.
        debug_assert!(u32::try_from(self.text.len()).is_ok(), "names above 4 GiB");
        self.ends.push(self.text.len() as u32);
    }

    /// Name `i`.
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }

    /// How many names it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether it holds no name.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Gives back the capacity that sizing by estimate left unused.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

/// Every named signal of a plan: paths in one name arena, slots and kinds beside them,
/// found by path through a compact hash index.
#[derive(Clone, Debug, Default)]
pub struct Signals {
    /// The signals' paths, by signal index.
    pub names: Names,
    /// Where each signal's value lives.
    pub slots: Vec<Slot>,
    /// What each signal names.
    pub kinds: Vec<SignalKind>,
    /// Signal index by path.
    pub index: PathIndex,
}

impl Signals {
    /// An empty table with room for `n` signals whose paths take `bytes` bytes.
    pub fn with_capacity(n: usize, bytes: usize) -> Signals {
        Signals {
            names: Names::with_capacity(n, bytes),
            slots: Vec::with_capacity(n),
            kinds: Vec::with_capacity(n),
            index: PathIndex::default(),
        }
    }

    /// Appends a signal named by the concatenation of `path`; returns its index.
    pub fn push(&mut self, path: &[&str], slot: Slot, kind: SignalKind) -> u32 {
        self.names.push(path);
        self.slots.push(slot);
        self.kinds.push(kind);
        self.slots.len() as u32 - 1
    }

    /// Builds the path index once every signal is in (first occurrence wins for equal paths).
    pub fn finish(&mut self) {
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
pub struct BlockRec {
    /// The library block it is.
    pub def: &'static fbd_model::library::BlockDef,
    /// The type a generic block was resolved to.
    pub data_type: Option<Type>,
    /// Input pins (connected or not).
    pub n_in: u16,
    /// Output pins.
    pub n_out: u16,
    /// State slots.
    pub n_state: u16,
    /// The source file it comes from (index into the plan's files).
    pub file: u32,
    /// Its line in that file; 0: unknown.
    pub line: u32,
    /// Its first input in the plan's `pins_in`.
    pub first_in: u32,
    /// Its first output in `pins_out`.
    pub first_out: u32,
    /// Its first state slot in `state`.
    pub first_state: u32,
    /// The instruction that computes it; `u32::MAX`: none.
    pub instr: u32,
    /// Its random stream (RANDOM blocks); `u32::MAX`: none.
    pub rng: u32,
    /// Its data-flow level (0: reads only inputs, constants and delayed values).
    pub level: u32,
}

/// Every primitive block of a plan, in the order of the plan's topological sort.
#[derive(Clone, Debug, Default)]
pub struct Blocks {
    /// The blocks' paths, by block index.
    pub names: Names,
    /// The blocks, by block index.
    pub recs: Vec<BlockRec>,
    /// Signal indices of every block's input pins, block after block.
    pub pins_in: Vec<u32>,
    /// Signal indices of every block's outputs.
    pub pins_out: Vec<u32>,
    /// State slots of every stateful block.
    pub state: Vec<Slot>,
    /// Block index by path.
    pub index: PathIndex,
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

/// Finds items by path without storing any path a second time: an open-addressing table of
/// item numbers (4 bytes a bucket, at most three quarters full) probed linearly, each candidate
/// compared with its path. First occurrence wins for equal paths.
#[derive(Clone, Debug, Default)]
pub struct PathIndex {
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
    pub fn build<'a>(n: usize, path_of: impl Fn(u32) -> &'a str) -> PathIndex {
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
    pub fn get<'a>(&self, path: &str, path_of: impl Fn(u32) -> &'a str) -> Option<u32> {
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
        let int_slot = Slot { ty: Type::LInt, idx: 9 };
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
