//! The compiler: diagram → [`ScanPlan`].
//!
//! Stages: load (with includes) → expand macros and resolve names (`expand.rs`) → infer and
//! check types → order by data flow, rejecting loops without a feedback point → allocate typed
//! slots and emit instructions, grouped by kind inside each data-flow level.

use std::time::Instant;

use rustc_hash::FxHashMap as HashMap;
use std::path::Path;

use crate::diag::{Diagnostic, Diagnostics};
use crate::expand::{self, At, Net, Src};
use crate::instr::{CmpOp, Instr, truth_table};
use crate::library::{Kind, PinTy};
use crate::load::{self, FsProvider, MemProvider, Project, SourceProvider};
use crate::order;
use crate::plan::{
    BlockRec, Blocks, Commit, Names, PhaseTimes, PlanStats, PortInfo, ScanPlan, SignalKind, Signals, Slot,
};
use crate::typecheck::{self, Tvars, out_type};
use crate::types::{Type, Value};

/// Compiler settings.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Largest number of primitive blocks a program may expand to (expansion-bomb guard).
    pub max_blocks: u64,
    /// Group instructions of one kind inside each data-flow level (faster; on by default).
    pub group_by_kind: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions { max_blocks: crate::limits::MAX_BLOCKS, group_by_kind: true }
    }
}

/// Loads and compiles the diagram at `path` from disk.
pub fn compile_file(path: impl AsRef<Path>, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    let project = load::load(&FsProvider, path.as_ref())?;
    compile_project_owned(project, opts)
}

/// Compiles diagram text; `path` names it in errors and anchors relative includes, which are
/// read through `provider`.
pub fn compile_str(
    provider: &dyn SourceProvider,
    path: impl AsRef<Path>,
    text: &str,
    opts: &CompileOptions,
) -> Result<ScanPlan, Diagnostics> {
    let project = load::load_text(provider, path.as_ref(), text.to_string())?;
    compile_project_owned(project, opts)
}

/// Compiles a self-contained diagram given as text (no includes).
pub fn compile(text: &str) -> Result<ScanPlan, Diagnostics> {
    compile_str(&MemProvider::new(), "<memory>", text, &CompileOptions::default())
}

/// Compiles a loaded project.
pub fn compile_project(project: &Project, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    let t0 = Instant::now();
    let net = expand::expand(project, opts.max_blocks).map_err(Diagnostics)?;
    compile_net(project, net, t0, opts)
}

/// Compiles a loaded project it takes over: the parsed bodies (blocks of the program and of
/// every macro) are dropped as soon as they are expanded, so on a large program the document,
/// the expanded netlist and the plan are never in memory all at once. Errors found later still
/// point into the files' texts, which are kept.
pub fn compile_project_owned(mut project: Project, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    let t0 = Instant::now();
    let net = expand::expand(&project, opts.max_blocks).map_err(Diagnostics)?;
    // From here on only the texts (error positions) and the program's ports are read.
    for f in &mut project.files {
        f.doc.blocks = Vec::new();
        for m in &mut f.doc.macros {
            m.blocks = Vec::new();
        }
    }
    compile_net(&project, net, t0, opts)
}

/// Every stage after expansion.
fn compile_net(project: &Project, mut net: Net, t0: Instant, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    let t1 = Instant::now();
    let types = match typecheck::infer_types(project, &net) {
        Ok(t) => t,
        Err(mut errors) => {
            // Loops without a feedback point do not depend on types: report both at once.
            if let Err(loops) = order::order_blocks(project, &net, &vec![None; net.blocks.len()], opts) {
                errors.extend(loops);
                errors.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
            }
            return Err(Diagnostics(errors));
        }
    };
    typecheck::coerce_constants(&mut net, &types);
    let t2 = Instant::now();
    let (order, levels) = order::order_blocks(project, &net, &types, opts).map_err(Diagnostics)?;
    let t3 = Instant::now();
    let mut plan = emit(project, &net, &types, &order, &levels).map_err(Diagnostics::from)?;
    plan.stats.phases = PhaseTimes { expand: t1 - t0, types: t2 - t1, order: t3 - t2, emit: t3.elapsed() };
    Ok(plan)
}

/// The scan cycle in µs for a document's `cycle_ms` (default 5 ms).
pub(crate) fn cycle_us(cycle_ms: Option<f64>) -> u64 {
    let ms = cycle_ms.filter(|c| c.is_finite() && *c > 0.0).unwrap_or(5.0);
    ((ms * 1000.0).round() as u64).max(1)
}

pub(crate) fn diag_at(project: &Project, at: &At, msg: impl Into<String>) -> Diagnostic {
    project.diag(at.file, &at.path, msg)
}

// ---------------------------------------------------------------------------------------------
// Emission

struct Slots {
    init_b: Vec<bool>,
    init_i: Vec<i64>,
    init_r: Vec<f64>,
    consts: HashMap<(Type, u64), u32>,
}

impl Slots {
    fn alloc(&mut self, v: Value) -> Slot {
        match v {
            Value::Bool(b) => {
                self.init_b.push(b);
                Slot { ty: Type::Bool, idx: self.init_b.len() as u32 - 1 }
            }
            Value::Int(i) => {
                self.init_i.push(i);
                Slot { ty: Type::Int, idx: self.init_i.len() as u32 - 1 }
            }
            Value::Real(r) => {
                self.init_r.push(r);
                Slot { ty: Type::Real, idx: self.init_r.len() as u32 - 1 }
            }
        }
    }
    fn init_of(&self, s: Slot) -> Value {
        match s.ty {
            Type::Bool => Value::Bool(self.init_b[s.idx as usize]),
            Type::Int => Value::Int(self.init_i[s.idx as usize]),
            Type::Real => Value::Real(self.init_r[s.idx as usize]),
        }
    }

    fn constant(&mut self, v: Value) -> Slot {
        let bits = match v {
            Value::Bool(b) => b as u64,
            Value::Int(i) => i as u64,
            Value::Real(r) => r.to_bits(),
        };
        if let Some(&idx) = self.consts.get(&(v.ty(), bits)) {
            return Slot { ty: v.ty(), idx };
        }
        let s = self.alloc(v);
        self.consts.insert((v.ty(), bits), s.idx);
        s
    }
}

fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn emit(project: &Project, net: &Net, t: &Tvars, order: &[usize], levels: &[u32]) -> Result<ScanPlan, Diagnostic> {
    let mut slots = Slots { init_b: Vec::new(), init_i: Vec::new(), init_r: Vec::new(), consts: HashMap::default() };
    let root = project.root();
    // Sized exactly: on a large program, doubling growth would leave up to half of the biggest
    // tables unused at the compiler's peak memory.
    // The signal table's size, exactly: block outputs and input pins are named
    // `block.pin`; the aliases and feedback values come after.
    let (mut n_sig, mut sig_bytes) = (root.inputs.len(), 0usize);
    for b in &net.blocks {
        n_sig += b.n_outputs() + b.inputs.len();
        sig_bytes += (b.path.len() + 1) * (b.n_outputs() + b.inputs.len());
        sig_bytes += (0..b.inputs.len()).map(|k| b.input_name(k).len()).sum::<usize>();
        sig_bytes += (0..b.n_outputs()).map(|k| b.output_name(k).len()).sum::<usize>();
    }
    for a in net.macro_pins.iter().chain(&net.outputs) {
        n_sig += 1;
        sig_bytes += a.path.len();
    }
    sig_bytes += root.inputs.iter().map(|p| p.name.len()).sum::<usize>();
    // Names are stored back to back with 32-bit offsets (`plan::Names`); a program whose names
    // might not fit is refused here rather than cut short. The feedback values' names come
    // later: each is a source's name plus `@prev`, at most one per pin, hence the bound.
    let block_bytes: usize = net.blocks.iter().map(|b| b.path.len()).sum();
    let sig_bound = sig_bytes.saturating_mul(2).saturating_add(n_sig.saturating_mul(5));
    if let Some(bytes) = [sig_bound, block_bytes].into_iter().find(|&b| b > u32::MAX as usize) {
        return Err(project
            .diag(0, &[], format!("the expanded program's names take {bytes} bytes, more than the 4 GiB a plan holds"))
            .help("shorten block ids and macro instance names, or nest macros less deeply"));
    }
    let mut signals = Signals::with_capacity(n_sig, sig_bytes);

    // Program inputs.
    let mut inputs = Vec::new();
    let mut input_slots = Vec::new();
    for p in &root.inputs {
        let ty = p.ty.0;
        let default = p.default.and_then(|c| c.0.coerce(ty)).unwrap_or(ty.zero());
        let slot = slots.alloc(default);
        input_slots.push(slot);
        signals.push(&[&p.name], slot, SignalKind::ProgramInput);
        inputs.push(PortInfo { name: p.name.clone(), ty, slot, default, kind: p.kind, options: p.options.clone() });
    }

    // Outputs and state of every block, in plan order so that slots are touched in order.
    // Flat tables (a vector per block would cost more than the slots in it).
    let n = net.blocks.len();
    let mut out_first = vec![0u32; n];
    let mut out_slots: Vec<Slot> = Vec::with_capacity(n_sig);
    let mut state_first = vec![0u32; n + 1];
    let mut state_flat: Vec<Slot> = Vec::new();
    for &i in order {
        let b = &net.blocks[i];
        let tv = t[i];
        let init = b.params.init.and_then(|c| tv.and_then(|ty| c.0.coerce(ty)).or(Some(c.0)));
        out_first[i] = out_slots.len() as u32;
        for k in 0..b.n_outputs() {
            let name = b.output_name(k);
            let ty = out_type(net, t, i, k).unwrap_or(Type::Bool);
            let v = match (b.def.kind, init) {
                (Kind::Memory | Kind::Delay | Kind::Sr | Kind::Rs, Some(v)) => v,
                _ => ty.zero(),
            };
            let s = slots.alloc(v);
            out_slots.push(s);
            signals.push(&[&b.path, ".", &name], s, SignalKind::BlockOutput);
        }
        state_first[i] = state_flat.len() as u32;
        for (_, ty) in b.def.state {
            state_flat.push(slots.alloc(ty.zero()));
        }
    }
    let state_of = |i: usize| {
        let first = state_first[i] as usize;
        &state_flat[first..first + net.blocks[i].def.state.len()]
    };

    // Sources to slots; feedback wires get a delayed slot each (shared by equal wires).
    let mut commits: Vec<Commit> = Vec::new();
    let mut srcs = SourceSlots {
        project,
        net,
        input_slots,
        out_first,
        out_slots,
        feedback: HashMap::default(),
        fb_signals: Vec::new(),
    };

    let mut code = Vec::with_capacity(n);
    let mut args: Vec<u32> = Vec::new();
    let mut instr_block: Vec<u32> = Vec::with_capacity(n);
    let mut rng_keys = Vec::new();
    let n_pins: usize = net.blocks.iter().map(|b| b.inputs.len()).sum();
    let mut blocks = Blocks {
        names: Names::with_capacity(n, block_bytes),
        recs: Vec::with_capacity(n),
        pins_in: Vec::with_capacity(n_pins),
        pins_out: Vec::with_capacity(srcs.out_slots.len()),
        state: Vec::new(),
        index: Default::default(),
    };
    let mut max_level = 0;
    let mut positions: HashMap<usize, crate::locate::BlockPositions> = HashMap::default();
    let mut ins: Vec<Slot> = Vec::new();

    for &i in order {
        let b = &net.blocks[i];
        ins.clear();
        for p in &b.inputs {
            let s = srcs.slot(&p.src, &mut slots, &mut commits);
            ins.push(s);
        }
        let first_out = srcs.out_first[i] as usize;
        let outs = &srcs.out_slots[first_out..first_out + b.n_outputs()];
        let ty = t[i].unwrap_or(Type::Bool);
        // Every operand must sit in the bank its pin's type names: the executor indexes that
        // bank without looking. A mismatch is a compiler bug; refuse the plan rather than run it.
        for (k, (p, s)) in b.inputs.iter().zip(&ins).enumerate() {
            let want = match p.ty {
                PinTy::Fixed(w) => w,
                PinTy::T => ty,
            };
            if s.ty != want {
                let name = b.input_name(k);
                return Err(diag_at(
                    project,
                    &b.at.join(crate::json_path!["inputs", name.as_ref()]),
                    format!(
                        "internal compiler error: pin `{name}` of `{}` reads a {} slot, expected {want}",
                        b.path, s.ty
                    ),
                )
                .block(&b.path)
                .pin(name.to_string())
                .help("this is a bug in fbd-engine; please report it with this diagram"));
            }
        }
        let ops = Operands { ins: &ins, outs, state: state_of(i), ty };
        let (instr, rng) = select_instruction(
            b,
            &ops,
            &mut Emitted { slots: &mut slots, args: &mut args, commits: &mut commits, rng_keys: &mut rng_keys },
        );
        let instr_idx = instr.map(|ins| {
            code.push(ins);
            instr_block.push(blocks.recs.len() as u32);
            code.len() as u32 - 1
        });
        // Signals of the input pins (aliases of their drivers): they follow every output
        // signal, block after block in plan order.
        let first_in = blocks.pins_in.len() as u32;
        for (k, p) in b.inputs.iter().enumerate() {
            let kind = if matches!(p.src, Src::Const(_)) { SignalKind::Constant } else { SignalKind::BlockInput };
            let id = signals.push(&[&b.path, ".", &b.input_name(k)], ins[k], kind);
            blocks.pins_in.push(id);
        }
        // Output signals were pushed first, in plan order, after the program inputs.
        let first_out_pin = blocks.pins_out.len() as u32;
        let first_out_sig = (inputs.len() + first_out) as u32;
        blocks.pins_out.extend(first_out_sig..first_out_sig + b.n_outputs() as u32);
        max_level = max_level.max(levels[i]);
        let first_state = blocks.state.len() as u32;
        if b.def.stateful {
            blocks.state.extend_from_slice(outs);
            blocks.state.extend_from_slice(state_of(i));
        }
        let file_pos = positions
            .entry(b.at.file())
            .or_insert_with(|| crate::locate::block_positions(&project.files[b.at.file()].text));
        let line = file_pos.get(&b.at.key()).map_or(0, |p| u32::try_from(p.0).unwrap_or(0));
        blocks.names.push(&[&b.path]);
        blocks.recs.push(BlockRec {
            def: b.def,
            data_type: t[i],
            n_in: b.inputs.len() as u16,
            n_out: b.n_outputs() as u16,
            n_state: (blocks.state.len() as u32 - first_state) as u16,
            file: b.at.file,
            line,
            first_in,
            first_out: first_out_pin,
            first_state,
            instr: instr_idx.unwrap_or(u32::MAX),
            rng: rng.unwrap_or(u32::MAX),
            level: levels[i],
        });
    }
    drop(ins);
    let mut outputs = Vec::new();
    for a in &net.macro_pins {
        let slot = srcs.slot(&a.src, &mut slots, &mut commits);
        signals.push(&[&a.path], slot, SignalKind::MacroPin);
    }
    for (k, a) in net.outputs.iter().enumerate() {
        let slot = srcs.slot(&a.src, &mut slots, &mut commits);
        let p = &root.outputs[k];
        signals.push(&[&a.path], slot, SignalKind::ProgramOutput);
        outputs.push(PortInfo {
            name: p.name.clone(),
            ty: p.ty.0,
            slot,
            default: p.ty.0.zero(),
            kind: Default::default(),
            options: Vec::new(),
        });
    }
    for (path, slot) in std::mem::take(&mut srcs.fb_signals) {
        signals.push(&[&path], slot, SignalKind::Feedback);
    }
    drop(srcs);
    signals.finish();
    blocks.index = crate::plan::PathIndex::build(n, |i| blocks.names.get(i as usize));
    let stats = PlanStats {
        blocks: n,
        macros: project.macros.len(),
        instances: net.instances.len(),
        signals: signals.len(),
        instructions: code.len(),
        slots: [slots.init_b.len(), slots.init_i.len(), slots.init_r.len()],
        levels: if n == 0 { 0 } else { max_level as usize + 1 },
        files: project.files.len(),
        phases: PhaseTimes::default(),
    };
    let mut fp = fnv1a(&format!("{}:{}", code.len(), signals.len()));
    for s in signals.iter() {
        fp = (fp ^ fnv1a(s.path)).wrapping_mul(0x0000_0100_0000_01b3) ^ (s.slot.idx as u64) << 2 ^ s.slot.ty as u64;
    }
    let stages = commits.iter().map(|c| (Slot { ty: c.ty, idx: c.to }, Slot { ty: c.ty, idx: c.stage })).collect();
    Ok(ScanPlan {
        fingerprint: fp,
        stages,
        files: project.files.iter().map(|f| f.path.clone()).collect(),
        slot_owner: Default::default(),
        name: root.name.clone().unwrap_or_else(|| project.files[0].path.display().to_string()),
        cycle_us: cycle_us(root.cycle_ms),
        code,
        args,
        instr_block,
        commits,
        init_bool: slots.init_b,
        init_int: slots.init_i,
        init_real: slots.init_r,
        rng_keys,
        inputs,
        outputs,
        signals,
        blocks,
        instances: net.instances.clone(),
        stats,
    })
}

/// The slots one block's instruction reads and writes.
struct Operands<'a> {
    ins: &'a [Slot],
    outs: &'a [Slot],
    state: &'a [Slot],
    /// The block's resolved type variable (BOOL for non-generic blocks, where it is unused).
    ty: Type,
}

/// What instruction selection appends to besides the instruction itself.
struct Emitted<'a> {
    slots: &'a mut Slots,
    args: &'a mut Vec<u32>,
    commits: &'a mut Vec<Commit>,
    rng_keys: &'a mut Vec<u64>,
}

/// The instruction of one block, specialised by kind, type and arity; `None` for DELAY, which is
/// only an end-of-scan copy. Also returns the block's random stream index, for RANDOM.
/// Which instruction a block compiles to, as far as dispatch is concerned: blocks that share
/// an instruction (see `instr`) share a family, so the schedule can run them together. Must
/// agree with [`select_instruction`]; a disagreement costs speed only.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Family {
    Gate,
    CmpI,
    AddSubI,
    SelI,
    Other(Kind, Option<Type>),
}

/// The [`Family`] of a block whose type variable resolved to `ty`.
pub(crate) fn family(b: &expand::NetBlock, ty: Option<Type>) -> Family {
    let two = b.inputs.len() == 2;
    match (b.def.kind, ty) {
        (Kind::And | Kind::Or | Kind::Xor, _) if two => Family::Gate,
        (Kind::Not | Kind::Sr | Kind::Rs, _) => Family::Gate,
        (Kind::Eq | Kind::Ne | Kind::Gt | Kind::Ge | Kind::Lt | Kind::Le, Some(Type::Bool)) => Family::Gate,
        (Kind::Sel | Kind::Move | Kind::Memory, Some(Type::Bool)) => Family::Gate,
        (Kind::Eq | Kind::Ne | Kind::Gt | Kind::Ge | Kind::Lt | Kind::Le, Some(Type::Int)) => Family::CmpI,
        (Kind::Add, Some(Type::Int)) if two => Family::AddSubI,
        (Kind::Sub, Some(Type::Int)) => Family::AddSubI,
        (Kind::Sel | Kind::Move | Kind::Memory, Some(Type::Int)) => Family::SelI,
        (k, t) => Family::Other(k, t),
    }
}

/// The truth table of a comparison of two BOOLs (FALSE < TRUE) as a gate over `a`, `b`.
fn bool_cmp_table(op: CmpOp) -> u8 {
    let mut t = 0u8;
    for k in 0..8u8 {
        if op.apply(k & 1 != 0, k & 2 != 0) {
            t |= 1 << k;
        }
    }
    t
}

fn select_instruction(b: &expand::NetBlock, ops: &Operands, out: &mut Emitted) -> (Option<Instr>, Option<u32>) {
    let (ins, outs, st, ty) = (ops.ins, ops.outs, ops.state, ops.ty);
    let x = |k: usize| ins[k].idx;
    let o = |k: usize| outs[k].idx;
    let Emitted { slots, args, commits, rng_keys } = out;
    let list = |from: usize, args: &mut Vec<u32>| -> (u32, u32) {
        let start = args.len() as u32;
        args.extend(ins[from..].iter().map(|s| s.idx));
        (start, (ins.len() - from) as u32)
    };
    // A gate over up to three BOOL operands (unused ones repeat `a`; the table ignores them).
    let gate =
        |f: fn(bool, bool, bool) -> bool, a: u32, b: u32, c: u32, o: u32| Instr::Gate { t: truth_table(f), a, b, c, o };
    let cmp = |op: CmpOp| match ins[0].ty {
        Type::Bool => Instr::Gate { t: bool_cmp_table(op), a: x(0), b: x(1), c: x(0), o: o(0) },
        Type::Int => Instr::CmpI { m: op.mask(), a: x(0), b: x(1), o: o(0) },
        Type::Real => Instr::CmpR { op, a: x(0), b: x(1), o: o(0) },
    };
    let mut rng = None;
    let instr: Option<Instr> = match b.def.kind {
        Kind::And if ins.len() == 2 => Some(gate(|a, b, _| a & b, x(0), x(1), x(0), o(0))),
        Kind::Or if ins.len() == 2 => Some(gate(|a, b, _| a | b, x(0), x(1), x(0), o(0))),
        Kind::Xor if ins.len() == 2 => Some(gate(|a, b, _| a ^ b, x(0), x(1), x(0), o(0))),
        Kind::And => {
            let (args_, n_) = list(0, args);
            Some(Instr::AndN { args: args_, n: n_, o: o(0) })
        }
        Kind::Or => {
            let (args_, n_) = list(0, args);
            Some(Instr::OrN { args: args_, n: n_, o: o(0) })
        }
        Kind::Xor => {
            let (args_, n_) = list(0, args);
            Some(Instr::XorN { args: args_, n: n_, o: o(0) })
        }
        Kind::Not => Some(gate(|a, _, _| !a, x(0), x(0), x(0), o(0))),
        Kind::Eq => Some(cmp(CmpOp::Eq)),
        Kind::Ne => Some(cmp(CmpOp::Ne)),
        Kind::Gt => Some(cmp(CmpOp::Gt)),
        Kind::Ge => Some(cmp(CmpOp::Ge)),
        Kind::Lt => Some(cmp(CmpOp::Lt)),
        Kind::Le => Some(cmp(CmpOp::Le)),
        Kind::Add | Kind::Mul | Kind::Min | Kind::Max => {
            let two = ins.len() == 2;
            let (a_, n_) = list(0, args);
            Some(match (b.def.kind, ty) {
                (Kind::Add, Type::Int) if two => Instr::AddSubI { sub: false, a: x(0), b: x(1), o: o(0) },
                (Kind::Add, Type::Real) if two => Instr::AddR2 { a: x(0), b: x(1), o: o(0) },
                (Kind::Add, Type::Int) => Instr::AddIN { args: a_, n: n_, o: o(0) },
                (Kind::Add, _) => Instr::AddRN { args: a_, n: n_, o: o(0) },
                (Kind::Mul, Type::Int) => Instr::MulIN { args: a_, n: n_, o: o(0) },
                (Kind::Mul, _) => Instr::MulRN { args: a_, n: n_, o: o(0) },
                (Kind::Min, Type::Int) => Instr::MinIN { args: a_, n: n_, o: o(0) },
                (Kind::Min, _) => Instr::MinRN { args: a_, n: n_, o: o(0) },
                (Kind::Max, Type::Int) => Instr::MaxIN { args: a_, n: n_, o: o(0) },
                _ => Instr::MaxRN { args: a_, n: n_, o: o(0) },
            })
        }
        Kind::Sub => Some(if ty == Type::Int {
            Instr::AddSubI { sub: true, a: x(0), b: x(1), o: o(0) }
        } else {
            Instr::SubR { a: x(0), b: x(1), o: o(0) }
        }),
        Kind::Div => Some(if ty == Type::Int {
            Instr::DivI { a: x(0), b: x(1), o: o(0) }
        } else {
            Instr::DivR { a: x(0), b: x(1), o: o(0) }
        }),
        Kind::Mod => Some(Instr::ModI { a: x(0), b: x(1), o: o(0) }),
        Kind::Abs => {
            Some(if ty == Type::Int { Instr::AbsI { a: x(0), o: o(0) } } else { Instr::AbsR { a: x(0), o: o(0) } })
        }
        Kind::Neg => {
            Some(if ty == Type::Int { Instr::NegI { a: x(0), o: o(0) } } else { Instr::NegR { a: x(0), o: o(0) } })
        }
        Kind::Limit => Some(if ty == Type::Int {
            Instr::LimitI { mn: x(0), a: x(1), mx: x(2), o: o(0) }
        } else {
            Instr::LimitR { mn: x(0), a: x(1), mx: x(2), o: o(0) }
        }),
        Kind::Floor => Some(Instr::Floor { a: x(0), o: o(0) }),
        Kind::Trunc => Some(Instr::Trunc { a: x(0), o: o(0) }),
        Kind::Frac => Some(Instr::Frac { a: x(0), o: o(0) }),
        Kind::IntToReal => Some(Instr::IntToReal { a: x(0), o: o(0) }),
        Kind::RealToInt => Some(Instr::RealToInt { a: x(0), o: o(0) }),
        Kind::Sel => Some(match ty {
            Type::Bool => gate(|g, a, b| if g { b } else { a }, x(0), x(1), x(2), o(0)),
            Type::Int => Instr::SelI { g: x(0), a: x(1), b: x(2), o: o(0) },
            Type::Real => Instr::SelR { g: x(0), a: x(1), b: x(2), o: o(0) },
        }),
        Kind::Mux => {
            let (a_, n_) = list(1, args);
            Some(match ty {
                Type::Bool => Instr::MuxB { k: x(0), args: a_, n: n_, o: o(0) },
                Type::Int => Instr::MuxI { k: x(0), args: a_, n: n_, o: o(0) },
                Type::Real => Instr::MuxR { k: x(0), args: a_, n: n_, o: o(0) },
            })
        }
        Kind::Move => Some(match ty {
            Type::Bool => gate(|a, _, _| a, x(0), x(0), x(0), o(0)),
            // A select whose both inputs are the source; the guard is any BOOL slot.
            Type::Int => Instr::SelI { g: slots.constant(Value::Bool(false)).idx, a: x(0), b: x(0), o: o(0) },
            Type::Real => Instr::MoveR { a: x(0), o: o(0) },
        }),
        Kind::Memory => {
            let stage = slots.alloc(slots.init_of(outs[1]));
            commits.push(Commit { ty, from: o(0), to: o(1), stage: stage.idx });
            Some(match ty {
                // q := en ? x : q.
                Type::Bool => gate(|en, q, x| if en { x } else { q }, x(1), o(0), x(0), o(0)),
                Type::Int => Instr::SelI { g: x(1), a: o(0), b: x(0), o: o(0) },
                Type::Real => Instr::MemR { x: x(0), en: x(1), q: o(0) },
            })
        }
        Kind::Delay => {
            let stage = slots.alloc(slots.init_of(outs[0]));
            commits.push(Commit { ty, from: x(0), to: o(0), stage: stage.idx });
            None
        }
        // Set dominant: q := s OR (NOT r AND q); reset dominant: q := NOT r AND (s OR q).
        Kind::Sr => Some(gate(|s, r, q| s || (!r && q), x(0), x(1), o(0), o(0))),
        Kind::Rs => Some(gate(|s, r, q| !r && (s || q), x(0), x(1), o(0), o(0))),
        Kind::RTrig => Some(Instr::RTrig { clk: x(0), m: st[0].idx, q: o(0) }),
        Kind::FTrig => Some(Instr::FTrig { clk: x(0), m: st[0].idx, q: o(0) }),
        Kind::Ton | Kind::Tof | Kind::Tp => {
            let aux = args.len() as u32;
            args.extend([x(0), x(1), o(0), o(1), st[0].idx, st[1].idx, st[2].idx]);
            Some(match b.def.kind {
                Kind::Ton => Instr::Ton { aux },
                Kind::Tof => Instr::Tof { aux },
                _ => Instr::Tp { aux },
            })
        }
        Kind::Ctu | Kind::Ctd => {
            let aux = args.len() as u32;
            args.extend([x(0), x(1), x(2), o(0), o(1), st[0].idx]);
            Some(if b.def.kind == Kind::Ctu { Instr::Ctu { aux } } else { Instr::Ctd { aux } })
        }
        Kind::Ctud => {
            let aux = args.len() as u32;
            args.extend([x(0), x(1), x(2), x(3), x(4), o(0), o(1), o(2), st[0].idx, st[1].idx]);
            Some(Instr::Ctud { aux })
        }
        Kind::Now => Some(Instr::Now { ms: o(0), s: o(1) }),
        Kind::Saw => Some(Instr::Saw { period: x(0), lo: x(1), hi: x(2), o: o(0) }),
        Kind::Random => {
            let key = crate::exec::random_key(&b.path, b.params.seed);
            rng_keys.push(key);
            rng = Some(rng_keys.len() as u32 - 1);
            let aux = args.len() as u32;
            args.extend([rng_keys.len() as u32 - 1, x(0), x(1), x(2), o(0), o(1)]);
            Some(Instr::Random { aux })
        }
        Kind::Selector => {
            Some(Instr::Selector { sel: x(0), first: outs.first().map(|s| s.idx).unwrap_or(0), n: outs.len() as u32 })
        }
    };
    (instr, rng)
}

/// Maps resolved sources to slots, creating the delayed slot of each feedback wire once.
struct SourceSlots<'a> {
    project: &'a Project,
    net: &'a Net,
    input_slots: Vec<Slot>,
    /// Per net block: where its output slots start in `out_slots`.
    out_first: Vec<u32>,
    out_slots: Vec<Slot>,
    feedback: HashMap<(Slot, u64), Slot>,
    /// The feedback values' signals, named after their sources.
    fb_signals: Vec<(String, Slot)>,
}

impl SourceSlots<'_> {
    fn slot(&mut self, s: &Src, slots: &mut Slots, commits: &mut Vec<Commit>) -> Slot {
        match s {
            Src::Const(v) => slots.constant(*v),
            Src::Input(i) => self.input_slots[*i],
            Src::Out { block, pin } => self.out_slots[self.out_first[*block] as usize + *pin],
            Src::Feedback { src, init } => {
                let from = self.slot(src, slots, commits);
                let init = init.and_then(|v| v.coerce(from.ty)).unwrap_or(from.ty.zero());
                let key = (from, init.as_f64().to_bits());
                if let Some(&d) = self.feedback.get(&key) {
                    return d;
                }
                let to = slots.alloc(init);
                let stage = slots.alloc(init);
                commits.push(Commit { ty: from.ty, from: from.idx, to: to.idx, stage: stage.idx });
                self.feedback.insert(key, to);
                let name = src_path(self.project, self.net, src);
                self.fb_signals.push((format!("{name}@prev"), to));
                to
            }
        }
    }
}

fn src_path(project: &Project, net: &Net, s: &Src) -> String {
    match s {
        Src::Const(v) => v.to_string(),
        Src::Input(i) => project.root().inputs[*i].name.clone(),
        Src::Out { block, pin } => format!("{}.{}", net.blocks[*block].path, net.blocks[*block].output_name(*pin)),
        Src::Feedback { src, .. } => format!("{}@prev", src_path(project, net, src)),
    }
}
