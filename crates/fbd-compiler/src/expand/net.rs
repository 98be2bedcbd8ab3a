//! The expanded program: primitive blocks whose every input names its driver ([`Src`]), the
//! aliases the debugger shows (macro pins, program outputs), and where each thing is written.

use std::borrow::Cow;

use fbd_model::json_path;
use fbd_model::library::{BlockDef, PinTy, Variadic};
use fbd_model::locate::Seg;
use fbd_model::model::Params;
use fbd_model::types::{Literal, Type, Value};
use fbd_plan::InstanceInfo;

/// A place in a source file: file index and JSON path.
#[derive(Clone, Debug)]
pub(crate) struct At {
    pub file: usize,
    pub path: Vec<Seg>,
}

impl At {
    pub(crate) fn new(file: usize, path: impl Into<Vec<Seg>>) -> At {
        At { file, path: path.into() }
    }
    pub(crate) fn join(&self, more: impl IntoIterator<Item = Seg>) -> At {
        let mut p = self.path.clone();
        p.extend(more);
        At { file: self.file, path: p }
    }
}

/// Where a block is written: compact, turned into an [`At`] only for an error.
/// Twelve bytes: a large program has one per block.
#[derive(Copy, Clone, Debug)]
pub(crate) struct BlockAt {
    pub file: u32,
    /// The macro whose body holds the block; `u32::MAX`: the program's.
    mac: u32,
    index: u32,
}

impl BlockAt {
    pub(crate) fn new(file: usize, mac: Option<usize>, index: usize) -> BlockAt {
        // The loader's file size limit keeps every index far below u32::MAX.
        BlockAt { file: file as u32, mac: mac.map_or(u32::MAX, |m| m as u32), index: index as u32 }
    }

    /// The file index.
    pub fn file(&self) -> usize {
        self.file as usize
    }

    /// The key of [`fbd_model::locate::BlockPositions`].
    pub fn key(&self) -> fbd_model::locate::BlockKey {
        ((self.mac != u32::MAX).then_some(self.mac as usize), self.index as usize)
    }

    /// The block object's place.
    pub fn at(&self) -> At {
        let path = match self.key() {
            (None, i) => json_path!["blocks", i].to_vec(),
            (Some(m), i) => json_path!["macros", m, "blocks", i].to_vec(),
        };
        At { file: self.file(), path }
    }

    /// A place inside the block object.
    pub fn join(&self, more: impl IntoIterator<Item = Seg>) -> At {
        self.at().join(more)
    }
}

/// Where a wire is written, computed only when an error needs it: resolving every pin of a
/// large program must not build a JSON path per pin.
#[derive(Copy, Clone)]
pub(crate) enum Loc<'a> {
    /// A place already built.
    At(&'a At),
    /// Input `pin` of the block at `block`.
    Pin { block: BlockAt, pin: &'a str },
}

impl Loc<'_> {
    pub(crate) fn at(self) -> At {
        match self {
            Loc::At(a) => a.clone(),
            Loc::Pin { block, pin } => block.join(json_path!["inputs", pin]),
        }
    }
}

/// What drives an input after resolution.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Src {
    /// A [`Literal`]: 16 bytes where a value is 136 (a STRING's); a large program has one per
    /// constant pin.
    Const(Literal),
    /// Output `pin` (index into the block's outputs, variadic ones last) of net block `block`.
    Out { block: usize, pin: usize },
    /// Program input by index.
    Input(usize),
    /// The previous scan's value of the inner source.
    Feedback { src: Box<Src>, init: Option<Box<Value>> },
}

/// One input pin of a net block (its name: [`NetBlock::input_name`]).
#[derive(Clone, Debug)]
pub(crate) struct NetPin {
    pub ty: PinTy,
    pub src: Src,
    /// A negated input: the block reads the inverse of `src` (BOOL only).
    pub negate: bool,
}

/// One primitive block after expansion.
#[derive(Clone, Debug)]
/// 72 bytes: a large program holds one per block while it is compiled.
pub(crate) struct NetBlock {
    pub path: Box<str>,
    pub def: &'static BlockDef,
    pub at: BlockAt,
    /// Number of variadic outputs (SELECTOR's q1..qn).
    pub n_var_out: u32,
    pub inputs: Box<[NetPin]>,
    pub data_type: Option<Type>,
    /// Parameters and order, which few blocks have.
    rare: Option<Box<(Params, Option<i64>)>>,
}

const _: () = assert!(std::mem::size_of::<NetBlock>() == 72);

/// Pin `k` of a block: its fixed pin `fixed` if it has one (of `n_fixed`), else a variadic one
/// (`in1`, `q3`, ...: the prefix and the number counted from `var.first`).
fn pin_name(fixed: Option<&'static str>, n_fixed: usize, var: Option<Variadic>, k: usize) -> Cow<'static, str> {
    match fixed {
        Some(name) => Cow::Borrowed(name),
        None => {
            let v = var.expect("a pin index within the block's pins");
            Cow::Owned(format!("{}{}", v.prefix, v.first + k - n_fixed))
        }
    }
}

impl NetBlock {
    /// A block at `path` (written at `at`) of library block `def`, its pins still to be
    /// resolved.
    pub fn new(path: Box<str>, def: &'static BlockDef, at: BlockAt, n_var_out: u32) -> NetBlock {
        NetBlock { path, def, at, n_var_out, inputs: Box::default(), data_type: None, rare: None }
    }

    /// With its parameters and order.
    pub fn with_params(mut self, params: &Params, order: Option<i64>) -> NetBlock {
        if *params != Params::NONE || order.is_some() {
            self.rare = Some(Box::new((params.clone(), order)));
        }
        self
    }

    /// Its compile-time parameters.
    pub fn params(&self) -> &Params {
        self.rare.as_ref().map_or(&Params::NONE, |r| &r.0)
    }

    /// Its explicit execution order.
    pub fn order(&self) -> Option<i64> {
        self.rare.as_ref().and_then(|r| r.1)
    }

    /// Number of variadic outputs.
    pub fn n_var_out(&self) -> usize {
        self.n_var_out as usize
    }

    /// Number of outputs, fixed then variadic.
    pub fn n_outputs(&self) -> usize {
        self.def.outputs.len() + self.n_var_out()
    }

    /// Name of input `k`: the fixed pins, then the variadic ones (`in1`, `in2`, ...).
    pub fn input_name(&self, k: usize) -> Cow<'static, str> {
        pin_name(self.def.inputs.get(k).map(|p| p.name), self.def.inputs.len(), self.def.var_inputs, k)
    }

    /// Name of output `k`.
    pub fn output_name(&self, k: usize) -> Cow<'static, str> {
        pin_name(self.def.outputs.get(k).map(|p| p.name), self.def.outputs.len(), self.def.var_outputs, k)
    }

    /// Index of the output named `pin`.
    pub fn output_index(&self, pin: &str) -> Option<usize> {
        if let Some(k) = self.def.outputs.iter().position(|p| p.name == pin) {
            return Some(k);
        }
        let v = self.def.var_outputs?;
        let num: usize = pin.strip_prefix(v.prefix)?.parse().ok()?;
        let k = num.checked_sub(v.first)?;
        (k < self.n_var_out() && pin == format!("{}{num}", v.prefix)).then_some(self.def.outputs.len() + k)
    }
}

/// A type a source must have: a macro port or a program output.
#[derive(Clone, Debug)]
pub(crate) struct TypeAssert {
    pub src: Src,
    pub ty: Type,
    pub at: At,
    pub what: String,
}

/// A named alias: a macro instance pin or a program output.
#[derive(Clone, Debug)]
pub(crate) struct Alias {
    pub path: String,
    pub src: Src,
    /// A negated macro instance pin (the debugger says so).
    pub negated: bool,
}

/// Where a block runs: in the head (the test) or the body of a loop, by its index in
/// [`Net::loops`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct InLoop {
    pub loop_: u32,
    pub body: bool,
}

/// A loop of an ST body, once per instance of the body: its blocks run again and again while
/// its test holds (`st::lower::loops` says how it is made).
#[derive(Clone, Debug)]
pub(crate) struct NetLoop {
    /// The loop it is in, if any.
    pub parent: Option<InLoop>,
    /// The MOVE whose BOOL output is TRUE while the loop goes on.
    pub test: u32,
    /// The loop variables (SEL blocks: `in0` copied in when the loop starts, `in1` a feedback
    /// wire from the value an iteration ends with).
    pub phis: Vec<u32>,
    /// A block before the loop whose BOOL output must be TRUE for the loop to run at all.
    pub guard: Option<u32>,
}

/// The expanded program.
#[derive(Debug, Default)]
pub(crate) struct Net {
    pub blocks: Vec<NetBlock>,
    /// Per block with a negated output, whether each output is (every reader gets the
    /// inverse). Beside the blocks, not in them: most blocks have none, and a large program
    /// holds a `NetBlock` per block.
    pub neg_out: rustc_hash::FxHashMap<u32, Box<[bool]>>,
    /// Per block under an EN (its own, and each enclosing instance's, outermost first): what
    /// drives each; the block is called only while all are TRUE. Beside the blocks, as
    /// `neg_out`: most blocks have none.
    pub gates: rustc_hash::FxHashMap<u32, Box<[Src]>>,
    /// The blocks among them with an EN of their own (the last of their gates).
    pub own_gate: rustc_hash::FxHashSet<u32>,
    /// Blocks from here on are the NOTs of negated macro instance pins (`inst/port:not`); what
    /// they read is type-checked at the instance's port, not at their own pin.
    pub first_negation: usize,
    pub instances: Vec<InstanceInfo>,
    pub macro_pins: Vec<Alias>,
    /// Every body's connectors by their path (`cnt`, `inst/cnt`), for the debugger.
    pub connectors: Vec<Alias>,
    pub outputs: Vec<Alias>,
    pub asserts: Vec<TypeAssert>,
    /// The loops of the ST bodies (none: every block runs once a scan).
    pub loops: Vec<NetLoop>,
    /// Per block, when there are loops: the innermost loop it is in.
    pub block_loop: Vec<Option<InLoop>>,
    /// Whether a body has loops: then `block_loop` is kept.
    pub has_loops: bool,
    /// An ST instance's call after its first: its block → the instance's block, whose state
    /// and output slots it uses (`st::lower::calls`).
    pub shares: rustc_hash::FxHashMap<u32, u32>,
    /// Blocks that run after others though they read nothing of them (a call again after the
    /// calls before it and their readers): block → the blocks before it.
    pub after: rustc_hash::FxHashMap<u32, Vec<u32>>,
}

impl Net {
    /// Adds a block, run where `in_loop` says.
    pub fn push(&mut self, nb: NetBlock, in_loop: Option<InLoop>) {
        self.blocks.push(nb);
        if self.has_loops {
            self.block_loop.push(in_loop);
        }
    }

    /// The innermost loop block `b` is in.
    pub fn in_loop(&self, b: usize) -> Option<InLoop> {
        self.block_loop.get(b).copied().flatten()
    }

    /// Whether output `k` of block `b` is negated.
    pub fn out_negated(&self, b: usize, k: usize) -> bool {
        self.neg_out.get(&(b as u32)).and_then(|n| n.get(k)).copied().unwrap_or(false)
    }
    /// Whether block `b` has a negated output.
    pub fn has_negated_output(&self, b: usize) -> bool {
        self.neg_out.contains_key(&(b as u32))
    }
}
