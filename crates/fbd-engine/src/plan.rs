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

/// One named signal.
#[derive(Clone, Debug)]
pub struct SignalInfo {
    /// Hierarchical path: `inst/inner/block.pin`, `inst.pin`, or a program port name.
    pub path: String,
    /// Where its value lives.
    pub slot: Slot,
    /// What it is.
    pub kind: SignalKind,
}

/// One primitive block after macro expansion.
#[derive(Clone, Debug)]
pub struct BlockInfo {
    /// Hierarchical path (`cell_1_1/mem`).
    pub path: String,
    /// Library type name.
    pub type_name: &'static str,
    /// The primitive.
    pub kind: Kind,
    /// The resolved type variable, for generic blocks.
    pub data_type: Option<Type>,
    /// File that defines it: index into [`ScanPlan::files`].
    pub file: u32,
    /// Line of the block's definition.
    pub line: Option<usize>,
    /// Drawing position from the JSON.
    pub pos: Option<[f64; 2]>,
    /// Input pins, as indices into [`ScanPlan::signals`] (the pin name is the part of the path
    /// after the last `.`, see [`ScanPlan::pin_name`]).
    pub inputs: Vec<u32>,
    /// Output pins, as signal indices.
    pub outputs: Vec<u32>,
    /// Every slot that holds state across scans (outputs of stateful blocks and internals).
    pub state: Vec<Slot>,
    /// Position in the instruction array, if the block has an instruction (DELAY has none).
    pub instr: Option<u32>,
    /// For RANDOM blocks: index of the block's random stream.
    pub rng: Option<u32>,
    /// Data-flow level: 0 for blocks fed only by inputs, constants and feedback.
    pub level: u32,
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

/// Finds items by path without storing every path a second time: the hash of each path maps
/// to the first item with that hash; items whose hash collides with another path's are kept
/// aside and found by comparison. First occurrence wins for equal paths.
#[derive(Clone, Debug, Default)]
pub(crate) struct PathIndex {
    first: HashMap<u64, u32>,
    collisions: Vec<u32>,
}

fn path_hash(path: &str) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    h.write(path.as_bytes());
    h.finish()
}

impl PathIndex {
    /// Indexes items 0..n by their paths.
    pub(crate) fn build<'a>(paths: impl ExactSizeIterator<Item = &'a str> + Clone) -> PathIndex {
        let all: Vec<&str> = paths.collect();
        let mut first = HashMap::with_capacity_and_hasher(all.len(), Default::default());
        let mut collisions = Vec::new();
        for (i, p) in all.iter().enumerate() {
            match first.entry(path_hash(p)) {
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(i as u32);
                }
                std::collections::hash_map::Entry::Occupied(e) => {
                    if all[*e.get() as usize] != *p && !collisions.iter().any(|&c: &u32| all[c as usize] == *p) {
                        collisions.push(i as u32);
                    }
                }
            }
        }
        PathIndex { first, collisions }
    }

    /// The item with this path; `path_of` gives an item's path.
    pub(crate) fn get<'a>(&self, path: &str, path_of: impl Fn(u32) -> &'a str) -> Option<u32> {
        if let Some(&i) = self.first.get(&path_hash(path))
            && path_of(i) == path
        {
            return Some(i);
        }
        self.collisions.iter().copied().find(|&i| path_of(i) == path)
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
    pub signals: Vec<SignalInfo>,
    pub(crate) signal_index: PathIndex,
    /// Every primitive block, in the order of the plan's topological sort.
    pub blocks: Vec<BlockInfo>,
    pub(crate) block_index: PathIndex,
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
    pub fn signal(&self, path: &str) -> Option<&SignalInfo> {
        self.signal_id(path).map(|i| &self.signals[i])
    }

    /// Index of the signal with this path.
    pub fn signal_id(&self, path: &str) -> Option<usize> {
        self.signal_index.get(path, |i| &self.signals[i as usize].path).map(|i| i as usize)
    }

    /// The signal that drives an alias (block input, macro pin, program output), as a path or,
    /// for a constant, its value. `None` for signals that are not aliases.
    pub fn driver(&self, sig: &SignalInfo) -> Option<String> {
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
                    Some(&i) => Some(self.signals[i as usize].path.clone()),
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
        let p = &self.signals[signal as usize].path;
        p.rsplit_once('.').map(|(_, pin)| pin).unwrap_or(p)
    }

    /// The file a block is defined in.
    pub fn block_file(&self, b: &BlockInfo) -> &std::path::Path {
        &self.files[b.file as usize]
    }

    /// The block with this path.
    pub fn block(&self, path: &str) -> Option<&BlockInfo> {
        self.block_index.get(path, |i| &self.blocks[i as usize].path).map(|i| &self.blocks[i as usize])
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
    pub fn instr_block(&self, i: usize) -> &BlockInfo {
        &self.blocks[self.instr_block[i] as usize]
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
