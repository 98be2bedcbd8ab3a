//! fbd-plan: the compiled form of a diagram, the container the compiler writes and the VM runs
//! (as wasmi keeps its instruction set in a crate of its own).
//!
//! A [`ScanPlan`] is typed value slots and a flat [instruction](instr) array in data-flow
//! order, plus the tables the debugger needs (signal paths, blocks, ports; `tables.rs`). The
//! [faults](fault) a scan may record and the [RANDOM stream](random) are part of what an
//! instruction means, so they live here too: the executor and the reference evaluator share
//! them.

pub mod fault;
pub mod instr;
pub mod random;

use rustc_hash::FxHashMap as HashMap;
use std::path::PathBuf;

use crate::instr::Instr;
use fbd_model::model::InputKind;
use fbd_model::types::{Bank, Type, Value};

/// A typed slot: index into one of the runtime's banks (BOOL, integer, float, STRING).
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
    /// A connector, a named net of a body (`cnt`, `inst/cnt`: an imported program's variable
    /// by its IEC name): an alias of what drives it; a write or force goes to that driver.
    Connector,
}

impl SignalKind {
    /// Whether a write or force on this path is accepted. Aliases are refused so that a force
    /// never silently changes every other reader of the same driver.
    pub fn writable(self) -> bool {
        matches!(self, SignalKind::ProgramInput | SignalKind::BlockOutput | SignalKind::Feedback)
    }
}

mod tables;

pub use tables::{BlockInfo, Blocks, SignalInfo, Signals, Table, TableIter};
pub use tables::{BlockRec, Names, PathIndex};

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
    /// What the diagram says the port is for (shown on hover in a panel).
    pub description: Option<String>,
    /// Its IEC 61131-3 location (`%IX0.0`), where `fbd serve` puts it in the Modbus map.
    pub address: Option<String>,
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
    /// Slots: BOOL, integer, REAL, STRING banks.
    pub slots: [usize; 4],
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

/// Where a block the ST lowering made stands in its body's text, read off its path: the
/// lowering names a block by the place of what it computes (`L4C1_while`: line 4, column 1,
/// a WHILE; `batch/L3C10_add` in the instance `batch`). `None` for any other block.
pub fn st_place(path: &str) -> Option<StPlace<'_>> {
    let (instance, id) = path.rsplit_once('/').unwrap_or(("", path));
    let (lc, word) = id.strip_prefix('L')?.split_once('_')?;
    let (line, col) = lc.split_once('C')?;
    Some(StPlace { instance, line: line.parse().ok()?, col: col.parse().ok()?, word })
}

/// A block's place in an ST body ([`st_place`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StPlace<'a> {
    /// The instance whose body it is (`""`: the program's).
    pub instance: &'a str,
    /// Line in the body's text, from 1.
    pub line: u32,
    /// Column in that line, from 1.
    pub col: u32,
    /// What the block computes (`while`, `add`, ...), as named.
    pub word: &'a str,
}

/// The rate at which the watchdog time becomes a budget of loop instructions
/// ([`ScanPlan::loop_budget`]): about the executor's speed on a loop body (docs/st.md).
pub const INSTRUCTIONS_PER_US: u64 = 200;

/// A compiled program: what the VM (`fbd_vm::Runtime`) executes.
#[derive(Clone, Debug)]
pub struct ScanPlan {
    /// Program name from the diagram.
    pub name: String,
    /// Scan cycle in microseconds.
    pub cycle_us: u64,
    /// The instructions, in data-flow order: one scan runs them front to back.
    pub code: Vec<Instr>,
    /// Whether `code` holds a [`Instr::SkipUnless`] (a block under an EN) or a
    /// [`Instr::LoopBack`]: only then does a scan run the loop that can jump, which costs a
    /// program without one about 15 % of its scan (measured on the synthetic chain).
    pub skips: bool,
    /// How many instructions a scan's loops may run (the sum of its [`Instr::LoopBack`]s'
    /// lengths) before the watchdog stops the task: the watchdog time at
    /// [`INSTRUCTIONS_PER_US`], so the same program stops at the same iteration on every
    /// machine.
    pub loop_budget: u64,
    /// Operand lists of variadic instructions (slot indices), addressed by their ranges.
    pub args: Vec<u32>,
    /// Per instruction: the index of the block it computes (faults and breakpoints name it).
    pub instr_block: Vec<u32>,
    /// Delayed outputs (feedback points): copied into the slots readers see at the scan's end.
    pub commits: Vec<Commit>,
    /// Initial values of the BOOL slots (a cold start loads them).
    pub init_bool: Vec<bool>,
    /// Initial values of the integer slots (every integer type, widened to 64 bits).
    pub init_int: Vec<i64>,
    /// Initial values of the REAL/LREAL slots.
    pub init_real: Vec<f64>,
    /// Initial values of the STRING slots.
    pub init_str: Vec<fbd_model::types::IecString>,
    /// Per RANDOM block: the stream key (path hash mixed with params.seed).
    pub rng_keys: Vec<u64>,
    /// Program inputs.
    pub inputs: Vec<PortInfo>,
    /// Program outputs.
    pub outputs: Vec<PortInfo>,
    /// Every named signal.
    pub signals: Signals,
    /// Every primitive block, in the order of the plan's topological sort.
    pub blocks: Blocks,
    /// Delayed slot → its staging slot (see [`Commit`]).
    pub stages: HashMap<Slot, Slot>,
    /// The files the program was read from (the program first).
    pub files: Vec<PathBuf>,
    /// Slot → the signal that owns it (input, block output, feedback value), built on first use.
    pub slot_owner: std::sync::OnceLock<HashMap<Slot, u32>>,
    /// Macro instances.
    pub instances: Vec<InstanceInfo>,
    /// The signals of negated pins (a library block's input: the wire, before the circle; an
    /// output: the inverse the readers get; a macro instance's input: what the inside gets).
    pub negated: rustc_hash::FxHashSet<u32>,
    /// A negated output's own slot (what its block writes and keeps as its state, SR's latch;
    /// what `X.q` names) → the pin's slot its readers read, NOT of it: a write or a force of
    /// the output lands inverted there too.
    pub negated_pin: HashMap<Slot, Slot>,
    /// Sizes.
    pub stats: PlanStats,
    /// Hash of the signal table and code size: a snapshot restores only into the same plan.
    pub fingerprint: u64,
}

impl ScanPlan {
    /// Whether the runtime seed changes anything: only RANDOM blocks draw from it. (The 2048
    /// design's Random macro draws from the clock instead, so its game depends on when the
    /// commands come, not on the seed.)
    pub fn uses_seed(&self) -> bool {
        !self.rng_keys.is_empty()
    }

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
            _ => match self.owner(sig) {
                Some(i) => Some(self.signals.at(i).path.to_string()),
                None => Some(self.init_value(sig.slot).to_string()),
            },
        }
    }

    /// The writable signal whose slot an alias names (none for a constant).
    pub fn owner(&self, sig: SignalInfo<'_>) -> Option<usize> {
        let owners = self.slot_owner.get_or_init(|| {
            let mut m = HashMap::default();
            for (i, s) in self.signals.iter().enumerate() {
                if s.kind.writable() {
                    m.entry(s.slot).or_insert(i as u32);
                }
            }
            m
        });
        owners.get(&sig.slot).map(|&i| i as usize)
    }

    /// The value a slot holds before the first scan.
    pub fn init_value(&self, s: Slot) -> Value {
        match s.ty.bank() {
            Bank::Bool => Value::Bool(self.init_bool[s.idx as usize]),
            Bank::Int => s.ty.int_value(self.init_int[s.idx as usize]),
            Bank::Real => Value::Real(self.init_real[s.idx as usize]),
            Bank::Str => Value::Str(self.init_str[s.idx as usize]),
        }
    }

    /// The pin name of a block's signal (`q` for `cell/mem.q`).
    pub fn pin_name(&self, signal: u32) -> &str {
        let p = self.signals.at(signal as usize).path;
        p.rsplit_once('.').map(|(_, pin)| pin).unwrap_or(p)
    }

    /// Whether `signal` is a negated pin of its block (drawn with IEC 61131-3's circle).
    pub fn is_negated_pin(&self, signal: u32) -> bool {
        self.negated.contains(&signal)
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
