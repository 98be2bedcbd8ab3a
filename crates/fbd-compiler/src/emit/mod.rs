//! Emission: typed slots for every output, state and constant, the instruction array in plan
//! order (through `select`), the end-of-scan copies, and the plan's signal and block tables.

use rustc_hash::FxHashMap as HashMap;

mod loops;

use super::select::{Emitted, Operands, select_instruction};
use super::typecheck::{Tvars, out_type};
use super::{cycle_us, diag_at};
use crate::Project;
use crate::expand::{Net, Src};
use fbd_model::diag::Diagnostic;
use fbd_model::fnv::fnv1a;
use fbd_model::library::{Kind, PinTy};
use fbd_model::locate::BlockPositions;
use fbd_model::types::{Bank, IecString, Literal, Type, Value};
use fbd_plan::instr::Instr;
use fbd_plan::{BlockRec, Blocks, Commit, Names, PhaseTimes, PlanStats, PortInfo, ScanPlan, SignalKind, Signals, Slot};

/// The slots allocated so far, as their initial values per bank; equal constants share one.
pub(super) struct Slots {
    init_b: Vec<bool>,
    init_i: Vec<i64>,
    init_r: Vec<f64>,
    init_s: Vec<IecString>,
    consts: HashMap<(Type, u64), u32>,
}

impl Slots {
    pub(super) fn alloc(&mut self, v: Value) -> Slot {
        match v {
            Value::Bool(b) => {
                self.init_b.push(b);
                Slot { ty: Type::Bool, idx: self.init_b.len() as u32 - 1 }
            }
            Value::Int(_) | Value::Time(_) | Value::ULInt(_) => {
                self.init_i.push(v.as_i64().unwrap_or(0));
                Slot { ty: v.ty(), idx: self.init_i.len() as u32 - 1 }
            }
            Value::Real(r) => {
                self.init_r.push(r);
                Slot { ty: Type::LReal, idx: self.init_r.len() as u32 - 1 }
            }
            Value::Str(t) => {
                self.init_s.push(t);
                Slot { ty: Type::String, idx: self.init_s.len() as u32 - 1 }
            }
        }
    }
    /// A slot of type `ty` (its bank's array) holding `v` at first.
    pub(super) fn alloc_typed(&mut self, ty: Type, v: Value) -> Slot {
        Slot { ty, ..self.alloc(v) }
    }

    pub(super) fn init_of(&self, s: Slot) -> Value {
        match s.ty.bank() {
            Bank::Bool => Value::Bool(self.init_b[s.idx as usize]),
            Bank::Int => s.ty.int_value(self.init_i[s.idx as usize]),
            Bank::Real => Value::Real(self.init_r[s.idx as usize]),
            Bank::Str => Value::Str(self.init_s[s.idx as usize]),
        }
    }

    pub(super) fn constant(&mut self, v: Value) -> Slot {
        let bits = match v {
            Value::Bool(b) => b as u64,
            Value::Int(i) | Value::Time(i) => i as u64,
            Value::ULInt(u) => u,
            Value::Real(r) => r.to_bits(),
            // Strings are not shared: few programs hold two equal string constants.
            Value::Str(_) => return self.alloc(v),
        };
        if let Some(&idx) = self.consts.get(&(v.ty(), bits)) {
            return Slot { ty: v.ty(), idx };
        }
        let s = self.alloc(v);
        self.consts.insert((v.ty(), bits), s.idx);
        s
    }
}

/// How many signals the plan names and the bytes of their names, and the bytes of the
/// blocks' paths: the tables are sized exactly (on a large program, doubling growth would leave
/// up to half of the biggest tables unused at the compiler's peak memory).
struct NameBudget {
    signals: usize,
    signal_bytes: usize,
    block_bytes: usize,
}

/// The names' sizes of the expanded program, or why they do not fit a plan: names are stored
/// back to back with 32-bit offsets (`plan::Names`), so a program whose names might not fit is
/// refused here rather than cut short.
fn name_budget(project: &Project, net: &Net) -> Result<NameBudget, Diagnostic> {
    let root = project.root();
    // Block outputs and input pins are named `block.pin`; the aliases and feedback values
    // come after.
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
    // The feedback values' signals come last, each named after its source plus `@prev`;
    // equal feedback wires share one, so this counts at most one per pin.
    for b in &net.blocks {
        for p in b.inputs.iter() {
            if let Src::Feedback { src, .. } = &p.src {
                n_sig += 1;
                sig_bytes += src_path(project, net, src).len() + "@prev".len();
            }
        }
    }
    let block_bytes: usize = net.blocks.iter().map(|b| b.path.len()).sum();
    if let Some(bytes) = [sig_bytes, block_bytes].into_iter().find(|&b| b > u32::MAX as usize) {
        return Err(project
            .diag(0, &[], format!("the expanded program's names take {bytes} bytes, more than the 4 GiB a plan holds"))
            .help("shorten block ids and macro instance names, or nest macros less deeply"));
    }
    Ok(NameBudget { signals: n_sig, signal_bytes: sig_bytes, block_bytes })
}

/// The program inputs: a slot each, holding its default, and its signal.
fn program_inputs(
    root: &fbd_model::model::DocumentOf<fbd_model::model::LeanBlock>,
    slots: &mut Slots,
    signals: &mut Signals,
) -> (Vec<PortInfo>, Vec<Slot>) {
    let mut inputs = Vec::with_capacity(root.inputs.len());
    let mut input_slots = Vec::with_capacity(root.inputs.len());
    for p in &root.inputs {
        let ty = p.ty.0;
        let default = p.default.and_then(|c| ty.fit(c.0).ok()).unwrap_or(ty.zero());
        let slot = slots.alloc_typed(ty, default);
        input_slots.push(slot);
        signals.push(&[&p.name], slot, SignalKind::ProgramInput);
        inputs.push(PortInfo {
            name: p.name.clone(),
            ty,
            slot,
            default,
            kind: p.kind,
            options: p.options.clone(),
            description: p.description.clone(),
            address: p.address.clone(),
        });
    }
    (inputs, input_slots)
}

/// Every block's output and state slots, in flat tables (a vector per block would cost more
/// than the slots in it).
struct BlockSlots {
    /// Per net block: where its output slots start in `out_slots`.
    out_first: Vec<u32>,
    /// The output pins' slots, what readers and the debugger see.
    out_slots: Vec<Slot>,
    /// Per net block: where its state slots start in `state_flat`.
    state_first: Vec<u32>,
    state_flat: Vec<Slot>,
    /// Where an output is negated: its index in `out_slots` → the slot the block writes.
    raw_out: HashMap<u32, Slot>,
    /// A negated output's own slot (the block writes it) → the pin's slot its readers read.
    negated_pin: HashMap<Slot, Slot>,
}

/// The output and state slots of every block, allocated in plan order so that slots are
/// touched in order, and the output signals.
fn block_slots(
    net: &Net,
    t: &Tvars,
    order: &[usize],
    n_sig: usize,
    slots: &mut Slots,
    signals: &mut Signals,
    shared: &HashMap<usize, usize>,
) -> BlockSlots {
    let n = net.blocks.len();
    let mut out_first = vec![0u32; n];
    let mut out_slots: Vec<Slot> = Vec::with_capacity(n_sig);
    let mut state_first = vec![0u32; n + 1];
    let mut state_flat: Vec<Slot> = Vec::new();
    let mut raw_out: HashMap<u32, Slot> = HashMap::default();
    let mut negated_pin: HashMap<Slot, Slot> = HashMap::default();
    for &i in order {
        let b = &net.blocks[i];
        let tv = t[i];
        let init = b.params().init.as_deref().and_then(|c| tv.and_then(|ty| ty.fit(c.0).ok()).or(Some(c.0)));
        out_first[i] = out_slots.len() as u32;
        // The slots the block writes, side by side (SELECTOR writes its outputs as a run).
        let first_raw = out_slots.len();
        for k in 0..b.n_outputs() {
            // A block that writes a loop variable's value for the next iteration writes it in
            // the loop variable's own slot (`loops::shared_slots`).
            if let Some(&phi) = shared.get(&i) {
                out_slots.push(out_slots[out_first[phi] as usize]);
                continue;
            }
            // A call of an ST instance after its first writes the instance's outputs.
            if let Some(&of) = net.shares.get(&(i as u32)) {
                out_slots.push(out_slots[out_first[of as usize] as usize + k]);
                continue;
            }
            let ty = out_type(net, t, i, k).unwrap_or(Type::Bool);
            let v = match (b.def.kind, init) {
                (Kind::Memory | Kind::Delay | Kind::Sr | Kind::Rs, Some(v)) => v,
                _ => ty.zero(),
            };
            out_slots.push(slots.alloc_typed(ty, v));
        }
        // A negated output keeps that slot (its state) to itself: it is the instance's own
        // output, what `X.q` names (the debugger, a write, a force), as Beremiz's and CODESYS's
        // debuggers show it: the negation belongs to the connection. The pin's slot, what every
        // reader reads, is its inverse, written by a NOT after the block.
        for k in 0..b.n_outputs() {
            let at = first_raw + k;
            let mut named = out_slots[at];
            if net.out_negated(i, k)
                && let Value::Bool(x) = slots.init_of(out_slots[at])
            {
                raw_out.insert(at as u32, out_slots[at]);
                let raw = out_slots[at];
                out_slots[at] = slots.alloc(Value::Bool(!x));
                negated_pin.insert(raw, out_slots[at]);
                named = raw;
            }
            signals.push(&[&b.path, ".", &b.output_name(k)], named, SignalKind::BlockOutput);
        }
        state_first[i] = state_flat.len() as u32;
        if let Some(&of) = net.shares.get(&(i as u32)) {
            // And keeps the instance's state.
            let first = state_first[of as usize] as usize;
            for k in 0..b.def.state.len() {
                state_flat.push(state_flat[first + k]);
            }
            continue;
        }
        for (_, ty) in b.def.state {
            state_flat.push(slots.alloc(ty.zero()));
        }
    }
    BlockSlots { out_first, out_slots, state_first, state_flat, raw_out, negated_pin }
}

/// Every operand must sit in the bank its pin's type names: the executor indexes that bank
/// without looking. A mismatch is a compiler bug; the plan is refused rather than run.
fn operands_in_their_banks(
    project: &Project,
    b: &crate::expand::NetBlock,
    ins: &[Slot],
    ty: Type,
) -> Result<(), Diagnostic> {
    for (k, (p, s)) in b.inputs.iter().zip(ins).enumerate() {
        let want = match p.ty {
            PinTy::Fixed(w) => w,
            PinTy::T => ty,
        };
        if s.ty.bank() != want.bank() {
            let name = b.input_name(k);
            return Err(diag_at(
                project,
                &b.at.join(fbd_model::json_path!["inputs", name.as_ref()]),
                format!("internal compiler error: pin `{name}` of `{}` reads a {} slot, expected {want}", b.path, s.ty),
            )
            .block(&*b.path)
            .pin(name.to_string())
            .help("this is a bug in fbd-engine; please report it with this diagram"));
        }
    }
    Ok(())
}

/// The instructions a scan's loops may run: the watchdog (default three cycles) at
/// [`fbd_plan::INSTRUCTIONS_PER_US`].
fn loop_budget(watchdog_ms: Option<f64>, cycle_us: u64) -> u64 {
    let us = watchdog_ms.map_or(3 * cycle_us, |ms| (ms * 1000.0).round() as u64).max(1);
    us.saturating_mul(fbd_plan::INSTRUCTIONS_PER_US)
}

/// The signals that name another's slot, after every block's: macro instance pins, the
/// bodies' connectors, the program outputs (returned as ports), the feedback values.
fn alias_signals(
    srcs: &mut SourceSlots,
    net: &Net,
    slots: &mut Slots,
    commits: &mut Vec<Commit>,
    signals: &mut Signals,
    negated: &mut rustc_hash::FxHashSet<u32>,
) -> Vec<PortInfo> {
    let root = srcs.project.root();
    for a in &net.macro_pins {
        let slot = srcs.slot(net, &a.src, slots, commits);
        let id = signals.push(&[&a.path], slot, SignalKind::MacroPin);
        if a.negated {
            negated.insert(id);
        }
    }
    // A connector named like a program port (a port already has the name) is not named twice.
    let ports: rustc_hash::FxHashSet<&str> =
        root.inputs.iter().map(|p| p.name.as_str()).chain(root.outputs.iter().map(|p| p.name.as_str())).collect();
    for a in net.connectors.iter().filter(|a| !ports.contains(a.path.as_str())) {
        let slot = srcs.slot(net, &a.src, slots, commits);
        signals.push(&[&a.path], slot, SignalKind::Connector);
    }
    let mut outputs = Vec::with_capacity(net.outputs.len());
    for (k, a) in net.outputs.iter().enumerate() {
        let slot = srcs.slot(net, &a.src, slots, commits);
        let p = &root.outputs[k];
        signals.push(&[&a.path], slot, SignalKind::ProgramOutput);
        outputs.push(PortInfo {
            name: p.name.clone(),
            ty: p.ty.0,
            slot,
            default: p.ty.0.zero(),
            kind: Default::default(),
            options: Vec::new(),
            description: p.description.clone(),
            address: p.address.clone(),
        });
    }
    for (path, slot) in std::mem::take(&mut srcs.fb_signals) {
        signals.push(&[&path], slot, SignalKind::Feedback);
    }
    outputs
}

/// The plan's fingerprint: its code size and signal table, so a snapshot restores only into
/// the plan it was taken from.
fn fingerprint(code_len: usize, signals: &Signals) -> u64 {
    let mut fp = fnv1a(format!("{code_len}:{}", signals.len()).as_bytes());
    for s in signals.iter() {
        fp = (fp ^ fnv1a(s.path.as_bytes())).wrapping_mul(0x0000_0100_0000_01b3)
            ^ (s.slot.idx as u64) << 2
            ^ s.slot.ty as u64;
    }
    fp
}

/// The plan of an expanded, typed program whose blocks run in `order` (with their data-flow
/// `levels`). The tables only emission reads (`positions`, `order`, `levels`) are taken, so
/// that they are dropped before the plan's last tables are built, and each block's pins are
/// dropped from `net` once the block is emitted (the plan has them then).
pub(super) fn emit(
    project: &Project,
    positions: Vec<BlockPositions>,
    net: &mut Net,
    t: &Tvars,
    order: Vec<usize>,
    levels: Vec<u32>,
    marks: Vec<(u32, crate::order::Mark)>,
) -> Result<ScanPlan, Diagnostic> {
    let mut slots = Slots {
        init_b: Vec::new(),
        init_i: Vec::new(),
        init_r: Vec::new(),
        init_s: Vec::new(),
        consts: HashMap::default(),
    };
    let NameBudget { signals: n_sig, signal_bytes: sig_bytes, block_bytes } = name_budget(project, net)?;
    let mut signals = Signals::with_capacity(n_sig, sig_bytes);
    let (inputs, input_slots) = program_inputs(project.root(), &mut slots, &mut signals);
    let n = net.blocks.len();
    let BlockSlots { out_first, out_slots, state_first, state_flat, raw_out, negated_pin } =
        block_slots(net, t, &order, n_sig, &mut slots, &mut signals, &loops::shared_slots(net, t, &order));
    let n_pins: usize = net.blocks.iter().map(|b| b.inputs.len()).sum();
    let blocks = Blocks {
        names: Names::with_capacity(n, block_bytes),
        recs: Vec::with_capacity(n),
        pins_in: Vec::with_capacity(n_pins),
        pins_out: Vec::with_capacity(out_slots.len()),
        state: Vec::new(),
        index: Default::default(),
    };
    let mut e = Emitting {
        project,
        t,
        levels,
        n_inputs: inputs.len(),
        slots,
        signals,
        // Sources to slots; feedback wires get a delayed slot each (shared by equal wires).
        srcs: SourceSlots {
            project,
            input_slots,
            out_first,
            out_slots,
            feedback: HashMap::default(),
            fb_signals: Vec::new(),
        },
        state_first,
        state_flat,
        raw_out,
        commits: Vec::new(),
        code: Vec::with_capacity(n),
        args: Vec::new(),
        instr_block: Vec::with_capacity(n),
        rng_keys: Vec::new(),
        blocks,
        max_level: 0,
        positions,
        negated: Default::default(),
        ins: Vec::new(),
        wired: Vec::new(),
        outs: Vec::new(),
        loops: loops::LoopEmission::of(net),
    };
    let mut marks = marks.into_iter().peekable();
    for (at, &i) in order.iter().enumerate() {
        while let Some((_, m)) = marks.next_if(|&(p, _)| p as usize == at) {
            e.mark(net, m);
        }
        e.block(net, i)?;
        // Read only by this block's emission: the plan holds what they became.
        net.blocks[i].inputs = Box::default();
    }
    for (_, m) in marks {
        e.mark(net, m);
    }
    drop(order);
    Ok(e.finish(net, inputs, negated_pin))
}

/// Emission under way: the plan's parts, built block after block in plan order.
struct Emitting<'p> {
    project: &'p Project,
    t: &'p Tvars,
    levels: Vec<u32>,
    n_inputs: usize,
    slots: Slots,
    signals: Signals,
    srcs: SourceSlots<'p>,
    state_first: Vec<u32>,
    state_flat: Vec<Slot>,
    raw_out: HashMap<u32, Slot>,
    commits: Vec<Commit>,
    code: Vec<fbd_plan::instr::Instr>,
    args: Vec<u32>,
    instr_block: Vec<u32>,
    rng_keys: Vec<u64>,
    blocks: Blocks,
    max_level: u32,
    /// Block positions per file.
    positions: Vec<BlockPositions>,
    negated: rustc_hash::FxHashSet<u32>,
    /// The slots the block reads (after its negations), reused block after block.
    ins: Vec<Slot>,
    /// What each input pin's signal shows: its driver, before a negation.
    wired: Vec<Slot>,
    /// The slots the block writes.
    outs: Vec<Slot>,
    /// The ST loops' parts, from their marks.
    loops: loops::LoopEmission,
}

impl Emitting<'_> {
    /// Block `i`: its instructions, its pins' signals and its record.
    fn block(&mut self, net: &Net, i: usize) -> Result<(), Diagnostic> {
        let (instr, rng) = if self.loops.is_phi(i) { (self.phi(net, i), None) } else { self.instructions(net, i)? };
        let first_in = self.input_signals(net, i);
        let first_out = self.output_signals(net, i);
        self.loops.recorded(i, self.blocks.recs.len());
        self.record(net, i, [first_in, first_out], instr, rng);
        Ok(())
    }

    /// The output pins' slots of block `i`, what readers and the debugger see.
    fn pins_out(&self, net: &Net, i: usize) -> &[Slot] {
        let first = self.srcs.out_first[i] as usize;
        &self.srcs.out_slots[first..first + net.blocks[i].n_outputs()]
    }

    /// The instructions of block `i`: the NOTs of its negated inputs, its own (if it has one:
    /// returned with its random stream), the wrap of a narrow result, the NOTs of its negated
    /// outputs.
    fn instructions(&mut self, net: &Net, i: usize) -> Result<(Option<u32>, Option<u32>), Diagnostic> {
        let b = &net.blocks[i];
        let rec = self.blocks.recs.len();
        self.ins.clear();
        self.wired.clear();
        // Under an EN: one skip per EN, outermost first, each over the rest of the block. An
        // IEC function's pins take their off values before its own EN's skip.
        let mut skips = Vec::new();
        let gates = net.gates.get(&(i as u32)).map_or(&[][..], |g| &g[..]);
        for (k, g) in gates.iter().enumerate() {
            if k + 1 == gates.len() && net.own_gate.contains(&(i as u32)) && net.blocks[i].def.is_iec_function() {
                self.write_off_values(net, i, rec);
            }
            let s = self.srcs.slot(net, g, &mut self.slots, &mut self.commits);
            skips.push(self.push(fbd_plan::instr::Instr::SkipUnless { g: s.idx, n: 0 }, rec) as usize);
        }
        // The NOTs of this block's negated inputs go from here to the block's instruction.
        let (first_not, commits_before) = (self.code.len(), self.commits.len());
        for p in &b.inputs {
            let s = self.srcs.slot(net, &p.src, &mut self.slots, &mut self.commits);
            self.wired.push(s);
            let read = if p.negate {
                negation(s, &p.src, &mut self.slots, &mut self.code, &mut self.instr_block, rec)
            } else {
                s
            };
            self.ins.push(read);
        }
        // What the block writes: its pins' slots, or for a negated output the slot the NOT
        // after it reads.
        let first_out = self.srcs.out_first[i] as usize;
        let mut outs = std::mem::take(&mut self.outs);
        outs.clear();
        outs.extend(self.pins_out(net, i).iter().enumerate().map(|(k, &pin)| {
            if net.has_negated_output(i) {
                self.raw_out.get(&((first_out + k) as u32)).copied().unwrap_or(pin)
            } else {
                pin
            }
        }));
        let ty = self.t[i].unwrap_or(Type::Bool);
        operands_in_their_banks(self.project, b, &self.ins, ty)?;
        let first_state = self.state_first[i] as usize;
        let state = &self.state_flat[first_state..first_state + b.def.state.len()];
        let ops = Operands { ins: &self.ins, outs: &outs, state, ty };
        let (instr, rng) = select_instruction(
            b,
            &ops,
            &mut Emitted {
                slots: &mut self.slots,
                args: &mut self.args,
                commits: &mut self.commits,
                rng_keys: &mut self.rng_keys,
            },
        );
        let instr =
            fold_negations(instr, &mut self.code, &mut self.instr_block, first_not, &self.commits[commits_before..]);
        let instr_idx = instr.map(|ins| self.push(ins, rec));
        // A narrow integer or REAL result brought into its type, as the PLC computes it.
        if let Some(post) = super::select::post_instruction(b, ty, &outs) {
            self.push(post, rec);
        }
        // A negated output's pin (the only one whose slot is not the one the block writes).
        for (k, &raw) in outs.iter().enumerate() {
            let pin = self.pins_out(net, i)[k];
            if raw != pin {
                push_not(&mut self.code, &mut self.instr_block, raw, pin, rec);
            }
        }
        let end = self.code.len();
        for k in skips {
            if let fbd_plan::instr::Instr::SkipUnless { n, .. } = &mut self.code[k] {
                *n = (end - k - 1) as u32;
            }
        }
        self.outs = outs;
        Ok((instr_idx, rng))
    }

    /// Writes into each output of block `i` (an IEC function) what it holds while its own EN
    /// is FALSE: its type's initial value, so a negated pin's readers read TRUE (NOT of
    /// FALSE). The block, when called, overwrites them all.
    fn write_off_values(&mut self, net: &Net, i: usize, rec: usize) {
        let first_out = self.srcs.out_first[i] as usize;
        for k in 0..net.blocks[i].n_outputs() {
            let pin = self.pins_out(net, i)[k];
            match self.raw_out.get(&((first_out + k) as u32)).copied().filter(|_| net.has_negated_output(i)) {
                Some(raw) if raw != pin => {
                    self.write_constant(raw, raw.ty.zero(), rec);
                    self.write_constant(pin, Value::Bool(true), rec);
                }
                _ => self.write_constant(pin, pin.ty.zero(), rec),
            }
        }
    }

    /// `to := off`, an instruction of block record `rec`.
    fn write_constant(&mut self, to: Slot, off: Value, rec: usize) {
        let from = self.slots.constant(off);
        let copy = self.copy(from, to);
        self.push(copy, rec);
    }

    /// Appends an instruction of the block record `rec`; its index.
    fn push(&mut self, ins: fbd_plan::instr::Instr, rec: usize) -> u32 {
        self.code.push(ins);
        self.instr_block.push(rec as u32);
        self.code.len() as u32 - 1
    }

    /// Signals of block `i`'s input pins (aliases of their drivers): they follow every output
    /// signal, block after block in plan order. Returns the first one's index in `pins_in`.
    fn input_signals(&mut self, net: &Net, i: usize) -> u32 {
        let b = &net.blocks[i];
        let first_in = self.blocks.pins_in.len() as u32;
        for (k, p) in b.inputs.iter().enumerate() {
            let kind = if matches!(p.src, Src::Const(_)) { SignalKind::Constant } else { SignalKind::BlockInput };
            let id = self.signals.push(&[&b.path, ".", &b.input_name(k)], self.wired[k], kind);
            self.blocks.pins_in.push(id);
            if p.negate {
                self.negated.insert(id);
            }
        }
        first_in
    }

    /// Block `i`'s output signals, pushed first in plan order after the program inputs, listed
    /// in `pins_out`; returns where its list starts.
    fn output_signals(&mut self, net: &Net, i: usize) -> u32 {
        let n_out = net.blocks[i].n_outputs();
        let first_out_pin = self.blocks.pins_out.len() as u32;
        let first_out_sig = (self.n_inputs + self.srcs.out_first[i] as usize) as u32;
        self.blocks.pins_out.extend(first_out_sig..first_out_sig + n_out as u32);
        self.negated.extend((0..n_out).filter(|&k| net.out_negated(i, k)).map(|k| first_out_sig + k as u32));
        first_out_pin
    }

    /// Block `i`'s record: where its pins, state and instruction are, and its source line.
    fn record(&mut self, net: &Net, i: usize, [first_in, first_out]: [u32; 2], instr: Option<u32>, rng: Option<u32>) {
        let b = &net.blocks[i];
        self.max_level = self.max_level.max(self.levels[i]);
        let first_state = self.blocks.state.len() as u32;
        if b.def.stateful {
            let outs = std::mem::take(&mut self.outs);
            self.blocks.state.extend_from_slice(&outs);
            self.outs = outs;
            let first = self.state_first[i] as usize;
            self.blocks.state.extend_from_slice(&self.state_flat[first..first + b.def.state.len()]);
        }
        let line = self.positions[b.at.file()].get(&b.at.key()).map_or(0, |p| p.0 as u32);
        self.blocks.names.push(&[&b.path]);
        self.blocks.recs.push(BlockRec {
            def: b.def,
            data_type: self.t[i],
            n_in: b.inputs.len() as u16,
            n_out: b.n_outputs() as u16,
            n_state: (self.blocks.state.len() as u32 - first_state) as u16,
            file: b.at.file,
            line,
            first_in,
            first_out,
            first_state,
            instr: instr.unwrap_or(u32::MAX),
            rng: rng.unwrap_or(u32::MAX),
            level: self.levels[i],
        });
    }

    /// The plan: the program outputs and the aliases added, the tables indexed.
    fn finish(mut self, net: &Net, inputs: Vec<PortInfo>, negated_pin: HashMap<Slot, Slot>) -> ScanPlan {
        let project = self.project;
        let n = net.blocks.len();
        // Read block by block only: not kept beside the plan's last tables.
        self.positions = Vec::new();
        self.levels = Vec::new();
        let outputs = alias_signals(
            &mut self.srcs,
            net,
            &mut self.slots,
            &mut self.commits,
            &mut self.signals,
            &mut self.negated,
        );
        drop(self.srcs);
        self.signals.finish();
        let names = &self.blocks.names;
        self.blocks.index = fbd_plan::PathIndex::build(n, |i| names.get(i as usize));
        let slots = self.slots;
        let stats = PlanStats {
            blocks: n,
            macros: project.macros.len(),
            instances: net.instances.len(),
            signals: self.signals.len(),
            instructions: self.code.len(),
            slots: [slots.init_b.len(), slots.init_i.len(), slots.init_r.len(), slots.init_s.len()],
            levels: if n == 0 { 0 } else { self.max_level as usize + 1 },
            files: project.files.len(),
            phases: PhaseTimes::default(),
        };
        let root = project.root();
        let stages =
            self.commits.iter().map(|c| (Slot { ty: c.ty, idx: c.to }, Slot { ty: c.ty, idx: c.stage })).collect();
        ScanPlan {
            fingerprint: fingerprint(self.code.len(), &self.signals),
            stages,
            files: project.files.iter().map(|f| f.path.clone()).collect(),
            slot_owner: Default::default(),
            name: root.name.clone().unwrap_or_else(|| project.files[0].path.display().to_string()),
            cycle_us: cycle_us(root.cycle_ms),
            skips: self.code.iter().any(|i| matches!(i, Instr::SkipUnless { .. } | Instr::LoopBack { .. })),
            loop_budget: loop_budget(root.watchdog_ms, cycle_us(root.cycle_ms)),
            code: self.code,
            args: self.args,
            instr_block: self.instr_block,
            commits: self.commits,
            init_bool: slots.init_b,
            init_int: slots.init_i,
            init_real: slots.init_r,
            init_str: slots.init_s,
            rng_keys: self.rng_keys,
            inputs,
            outputs,
            signals: self.signals,
            blocks: self.blocks,
            instances: net.instances.clone(),
            negated: self.negated,
            negated_pin,
            stats,
        }
    }
}

/// The slot a negated input reads: a constant's inverse, or a slot of its own written by a
/// NOT instruction placed just before the block's (attributed to the block `rec`).
fn negation(
    s: Slot,
    src: &Src,
    slots: &mut Slots,
    code: &mut Vec<fbd_plan::instr::Instr>,
    instr_block: &mut Vec<u32>,
    rec: usize,
) -> Slot {
    if let Src::Const(c) = src
        && let Literal::Bool(v) = *c
    {
        return slots.constant(Value::Bool(!v));
    }
    let Value::Bool(init) = slots.init_of(s) else {
        // Not BOOL: the type checker refused it; the operand check after this reports it.
        return s;
    };
    let o = slots.alloc(Value::Bool(!init));
    push_not(code, instr_block, s, o, rec);
    o
}

/// A gate reads its negated inputs through its truth table: the NOTs placed before it for them
/// (`code[first_not..]`) are folded into the table and dropped, so a negation costs a gate
/// nothing. A NOT whose slot is read elsewhere (a commit of the block) stays.
fn fold_negations(
    instr: Option<fbd_plan::instr::Instr>,
    code: &mut Vec<fbd_plan::instr::Instr>,
    instr_block: &mut Vec<u32>,
    first_not: usize,
    new_commits: &[fbd_plan::Commit],
) -> Option<fbd_plan::instr::Instr> {
    use fbd_plan::instr::Instr;
    let Some(Instr::Gate { mut t, mut a, mut b, mut c, o }) = instr else { return instr };
    if code.len() == first_not {
        return instr;
    }
    let mut kept = Vec::new();
    for &not in &code[first_not..] {
        let Instr::Gate { a: from, o: h, .. } = not else {
            kept.push(not);
            continue;
        };
        let read_elsewhere = h == o || new_commits.iter().any(|cm| cm.ty == Type::Bool && cm.from == h);
        if read_elsewhere || ![a, b, c].contains(&h) {
            kept.push(not);
            continue;
        }
        // Operand `pos` reads `h = NOT from`: read `from` and flip that variable of the table.
        for (pos, slot) in [&mut a, &mut b, &mut c].into_iter().enumerate() {
            if *slot == h {
                *slot = from;
                t = flip(t, pos);
            }
        }
    }
    let rec = instr_block.last().copied();
    code.truncate(first_not);
    instr_block.truncate(first_not);
    for not in kept {
        code.push(not);
        instr_block.push(rec.expect("a kept NOT has its block"));
    }
    Some(Instr::Gate { t, a, b, c, o })
}

/// The truth table `t` with its variable `pos` (0: a, 1: b, 2: c) inverted.
fn flip(t: u8, pos: usize) -> u8 {
    (0..8).filter(|k| t & (1 << (k ^ (1 << pos))) != 0).fold(0, |acc, k| acc | 1 << k)
}

/// `to := NOT from`, an instruction of block record `rec`.
fn push_not(code: &mut Vec<fbd_plan::instr::Instr>, instr_block: &mut Vec<u32>, from: Slot, to: Slot, rec: usize) {
    let t = fbd_plan::instr::truth_table(|a, _, _| !a);
    code.push(fbd_plan::instr::Instr::Gate { t, a: from.idx, b: from.idx, c: from.idx, o: to.idx });
    instr_block.push(rec as u32);
}

/// Maps resolved sources to slots, creating the delayed slot of each feedback wire once.
struct SourceSlots<'a> {
    project: &'a Project,
    input_slots: Vec<Slot>,
    /// Per net block: where its output slots start in `out_slots`.
    out_first: Vec<u32>,
    out_slots: Vec<Slot>,
    /// By source and initial value (its exact text: two STRINGs, or two ULINTs above 2^53,
    /// are two values).
    feedback: HashMap<(Slot, String), Slot>,
    /// The feedback values' signals, named after their sources.
    fb_signals: Vec<(String, Slot)>,
}

impl SourceSlots<'_> {
    /// The slot of `s`, a source of `net`.
    fn slot(&mut self, net: &Net, s: &Src, slots: &mut Slots, commits: &mut Vec<Commit>) -> Slot {
        match s {
            Src::Const(v) => slots.constant(v.value()),
            Src::Input(i) => self.input_slots[*i],
            Src::Out { block, pin } => self.out_slots[self.out_first[*block] as usize + *pin],
            Src::Feedback { src, init } => {
                let from = self.slot(net, src, slots, commits);
                // Without an `init`, what the source holds before the first scan: a negated
                // output's is TRUE (NOT of FALSE), as the PLC reads NOT Q before the first call.
                let init = init.as_deref().and_then(|v| from.ty.fit(*v).ok()).unwrap_or_else(|| slots.init_of(from));
                let key = (from, format!("{init:?}"));
                if let Some(&d) = self.feedback.get(&key) {
                    return d;
                }
                let to = slots.alloc(init);
                let stage = slots.alloc(init);
                commits.push(Commit { ty: from.ty, from: from.idx, to: to.idx, stage: stage.idx });
                self.feedback.insert(key, to);
                let name = src_path(self.project, net, src);
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
