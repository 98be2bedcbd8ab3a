//! The executor: runs a plan's instruction array over the slot arrays. Nothing else.
//!
//! Every operand is a slot index resolved at compile time; instructions are grouped by kind
//! within each data-flow level so the one `match` of `Machine::step` predicts well (see
//! `../shared/design/performance-notes.md`). What each instruction computes lives with its
//! family, as methods of `Machine` inlined into that match: `logic.rs` (gates, bit strings),
//! `arith.rs` (integer and REAL arithmetic), `compare.rs` (comparisons, MIN/MAX/LIMIT),
//! `select.rs` (SEL, MUX, MOVE, SELECTOR), `memory.rs` (MEMORY, edges), `timers.rs` (timers
//! and counters), `convert.rs` (conversions between banks), `sources.rs` (NOW, SAW, RANDOM),
//! `strings.rs` (every block with a STRING operand). Nothing here allocates: faults go to a
//! ring that was sized when the runtime was built.

use rand_chacha::ChaCha8Rng;

use fbd_model::types::{Bank, IecString, Value};
use fbd_plan::{ScanPlan, Slot};

pub use fbd_plan::instr::{CmpOp, Instr};

mod arith;
mod compare;
mod convert;
mod logic;
mod memory;
mod select;
mod sources;
mod state;
mod strings;
mod timers;

pub use fbd_plan::fault::FaultKind;
pub use fbd_plan::random::random_stream;
pub use state::{Fault, FaultLog, State};

/// What one scan needs besides the plan and the state.
pub(crate) struct Ctx<'a> {
    pub now_us: u64,
    pub scan: u64,
    pub faults: &'a mut FaultLog,
}

/// Forced values applied after the instructions that write them.
pub(crate) struct ForceView<'a> {
    /// `mask[i]`: instruction i writes a forced slot.
    pub mask: &'a [bool],
    pub values: &'a [(Slot, Value)],
}

/// Runs the plan's instructions once, then captures the sources of the delayed slots.
/// Returns `false` when the watchdog stopped the scan (its fault is logged; nothing is
/// captured: the scan did not end).
pub(crate) fn run(plan: &ScanPlan, st: &mut State, ctx: &mut Ctx, forces: Option<&ForceView>) -> bool {
    let mut m = Machine::new(plan, st, ctx);
    let ended = match forces {
        None if !plan.skips => {
            for (i, ins) in plan.code.iter().enumerate() {
                m.i = i as u32;
                m.step(ins);
            }
            true
        }
        None => run_jumping::<false>(&mut m, plan, None),
        Some(f) => run_jumping::<true>(&mut m, plan, Some(f)),
    };
    if ended {
        commit_capture(plan, st);
    }
    ended
}

/// The instructions run by their index, which a skip moves forward and a loop's jump back
/// moves back; the loops' instructions counted against the plan's budget. `FORCED`: a forced
/// value is written again after each instruction that writes its slot.
#[inline(always)]
fn run_jumping<const FORCED: bool>(m: &mut Machine, plan: &ScanPlan, forces: Option<&ForceView>) -> bool {
    let mut i = 0;
    let mut spent: u64 = 0;
    while let Some(ins) = plan.code.get(i) {
        m.i = i as u32;
        if let Instr::LoopBack { n } = *ins {
            spent += n as u64;
            if spent > plan.loop_budget {
                m.fault(FaultKind::Watchdog);
                return false;
            }
            i -= n as usize;
            continue;
        }
        let skip = m.step(ins) as usize;
        if FORCED
            && let Some(f) = forces
            && f.mask[i]
        {
            m.apply_forces(f.values);
        }
        i += 1 + skip;
    }
    true
}

pub(crate) fn apply_forces(st: &mut State, values: &[(Slot, Value)]) {
    for &(s, v) in values {
        st.set(s, v);
    }
}

/// End of scan: every delayed slot's source is copied to its staging slot.
fn commit_capture(plan: &ScanPlan, st: &mut State) {
    for c in &plan.commits {
        match c.ty.bank() {
            Bank::Bool => st.bools[c.stage as usize] = st.bools[c.from as usize],
            Bank::Int => st.ints[c.stage as usize] = st.ints[c.from as usize],
            Bank::Real => st.reals[c.stage as usize] = st.reals[c.from as usize],
            Bank::Str => st.strs[c.stage as usize] = st.strs[c.from as usize],
        }
    }
}

/// Start of scan: delayed slots take the staged values. Doing this at the start rather than at
/// the end keeps, between scans, the value the delayed slot had *during* the last scan, which
/// is what a debugger should show; two phases make chains of delays shift by one each.
pub(crate) fn commit_apply(plan: &ScanPlan, st: &mut State) {
    for c in &plan.commits {
        match c.ty.bank() {
            Bank::Bool => st.bools[c.to as usize] = st.bools[c.stage as usize],
            Bank::Int => st.ints[c.to as usize] = st.ints[c.stage as usize],
            Bank::Real => st.reals[c.to as usize] = st.reals[c.stage as usize],
            Bank::Str => st.strs[c.to as usize] = st.strs[c.stage as usize],
        }
    }
}

/// One scan's machine: the slot banks borrowed apart, the plan's operand lists, the clock and
/// the fault log, and the index of the instruction running (a fault names it).
pub(super) struct Machine<'a> {
    b: &'a mut [bool],
    n: &'a mut [i64],
    r: &'a mut [f64],
    s: &'a mut [IecString],
    rngs: &'a mut [ChaCha8Rng],
    args: &'a [u32],
    now_us: u64,
    scan: u64,
    faults: &'a mut FaultLog,
    i: u32,
}

impl<'a> Machine<'a> {
    fn new(plan: &'a ScanPlan, st: &'a mut State, ctx: &'a mut Ctx<'_>) -> Machine<'a> {
        let State { bools, ints, reals, strs, rngs } = st;
        Machine {
            b: bools,
            n: ints,
            r: reals,
            s: strs,
            rngs,
            args: &plan.args,
            now_us: ctx.now_us,
            scan: ctx.scan,
            faults: &mut *ctx.faults,
            i: 0,
        }
    }

    /// The dispatch: one arm per instruction, each a call into its family. Returns how many
    /// of the following instructions to skip (a `SkipUnless` whose EN is FALSE).
    #[inline(always)]
    fn step(&mut self, ins: &Instr) -> u32 {
        match *ins {
            Instr::SkipUnless { g, n } => return if self.b[g as usize] { 0 } else { n },
            // Taken by `run_jumping`, which never passes it here.
            Instr::LoopBack { .. } => {}
            Instr::Str { op, args, n, o } => self.string(op, args, n, o),
            Instr::Gate { t, a, b, c, o } => self.gate(t, a, b, c, o),
            Instr::CmpI { m, a, b, o } => self.cmp_i(m, a, b, o),
            Instr::AddSubI { sub, a, b, o } => self.add_sub_i(sub, a, b, o),
            Instr::BitsN { op, args, n, o } => self.bits_n(op, args, n, o),
            Instr::NotW { a, o, bits } => self.not_w(a, o, bits),
            Instr::U64N { op, args, n, o } => self.u64_n(op, args, n, o),
            Instr::U64Bin { op, a, b, o } => self.u64_bin(op, a, b, o),
            Instr::CmpU { m, a, b, o } => self.cmp_u(m, a, b, o),
            Instr::LimitU { mn, a, mx, o } => self.limit_u(mn, a, mx, o),
            Instr::U64ToReal { a, o, r32 } => self.u64_to_real(a, o, r32),
            Instr::AndN { args, n, o } => self.and_n(args, n, o),
            Instr::OrN { args, n, o } => self.or_n(args, n, o),
            Instr::XorN { args, n, o } => self.xor_n(args, n, o),
            Instr::CmpR { op, a, b, o } => self.cmp_r(op, a, b, o),
            Instr::AddIN { args, n, o } => self.add_i_n(args, n, o),
            Instr::MulIN { args, n, o } => self.mul_i_n(args, n, o),
            Instr::DivI { a, b, o } => self.div_i(a, b, o),
            Instr::ModI { a, b, o } => self.mod_i(a, b, o),
            Instr::AbsI { a, o } => self.abs_i(a, o),
            Instr::NegI { a, o } => self.neg_i(a, o),
            Instr::MinIN { args, n, o } => self.min_i_n(args, n, o),
            Instr::MaxIN { args, n, o } => self.max_i_n(args, n, o),
            Instr::LimitI { mn, a, mx, o } => self.limit_i(mn, a, mx, o),
            Instr::WrapI { o, bits, signed } => self.wrap_i(o, bits, signed),
            Instr::RoundR32 { o } => self.round_r32(o),
            Instr::MulINw { args, n, o, bits, signed } => self.mul_i_n_wrapped(args, n, o, bits, signed),
            Instr::MathR { f, a, o } => self.math_r(f, a, o),
            Instr::ShiftW { op, bits, a, n, o } => self.shift_w(op, bits, a, n, o),
            Instr::ExptR { a, b, o } => self.expt_r(a, b, o),
            Instr::IntToR32 { a, o } => self.int_to_r32(a, o),
            Instr::RealToIntEven { a, o, unsigned, u64 } => self.real_to_int_even(a, o, unsigned, u64),
            Instr::IntToTime { a, o } => self.int_to_time(a, o),
            Instr::RealToTime { a, o } => self.real_to_time(a, o),
            Instr::TimeToInt { a, o } => self.time_to_int(a, o),
            Instr::TimeToReal { a, o } => self.time_to_real(a, o),
            Instr::Bcd { to_bcd, a, o, bits } => self.bcd(to_bcd, a, o, bits),
            Instr::ScaleTime { div, a, b, o, real, u64 } => self.scale_time(div, a, (b, real, u64), o),
            Instr::BoolToNum { a, o, real } => self.bool_to_num(a, o, real),
            Instr::AddR32N { args, n, o } => self.add_r32_n(args, n, o),
            Instr::MulR32N { args, n, o } => self.mul_r32_n(args, n, o),
            Instr::AddR2 { a, b, o } => self.add_r2(a, b, o),
            Instr::AddRN { args, n, o } => self.add_r_n(args, n, o),
            Instr::SubR { a, b, o } => self.sub_r(a, b, o),
            Instr::MulRN { args, n, o } => self.mul_r_n(args, n, o),
            Instr::DivR { a, b, o } => self.div_r(a, b, o),
            Instr::AbsR { a, o } => self.real_out(o, self.r[a as usize].abs()),
            Instr::NegR { a, o } => self.real_out(o, -self.r[a as usize]),
            Instr::MinRN { args, n, o } => self.min_r_n(args, n, o),
            Instr::MaxRN { args, n, o } => self.max_r_n(args, n, o),
            Instr::LimitR { mn, a, mx, o } => self.limit_r(mn, a, mx, o),
            Instr::Floor { a, o } => self.floor(a, o),
            Instr::Trunc { a, o } => self.trunc(a, o),
            Instr::Frac { a, o } => self.real_out(o, self.r[a as usize].fract()),
            Instr::IntToReal { a, o } => self.int_to_real(a, o),
            Instr::SelI { g, a, b, o } => self.sel_i(g, a, b, o),
            Instr::SelR { g, a, b, o } => self.sel_r(g, a, b, o),
            Instr::MuxB { k, args, n, o } => self.mux_b(k, args, n, o),
            Instr::MuxI { k, args, n, o } => self.mux_i(k, args, n, o),
            Instr::MuxR { k, args, n, o } => self.mux_r(k, args, n, o),
            Instr::MoveR { a, o } => self.r[o as usize] = self.r[a as usize],
            Instr::MemR { x, en, q } => self.mem_r(x, en, q),
            Instr::RTrig { clk, m, q } => self.r_trig(clk, m, q),
            Instr::FTrig { clk, m, q } => self.f_trig(clk, m, q),
            Instr::Ton { aux } => self.ton(aux),
            Instr::Tof { aux } => self.tof(aux),
            Instr::Tp { aux } => self.tp(aux),
            Instr::Ctu { aux, unsigned } => self.ctu(aux, unsigned),
            Instr::Ctd { aux, unsigned } => self.ctd(aux, unsigned),
            Instr::Ctud { aux, unsigned } => self.ctud(aux, unsigned),
            Instr::Now { ms, s } => self.now(ms, s),
            Instr::Saw { period, lo, hi, o } => self.saw(period, lo, hi, o),
            Instr::Random { aux } => self.random(aux),
            Instr::Selector { sel, first, n } => self.selector(sel, first, n),
        }
        0
    }

    /// Records a fault of the running instruction.
    #[inline(always)]
    fn fault(&mut self, kind: FaultKind) {
        self.faults.push(Fault { scan: self.scan, instr: self.i, kind });
    }

    /// The operand list `args..args + n` of a variadic instruction.
    #[inline(always)]
    fn list(&self, args: u32, n: u32) -> &'a [u32] {
        &self.args[args as usize..(args + n) as usize]
    }

    /// Writes a REAL result; one comparison finds both a NaN and a REAL overflow (an infinite
    /// result was passed on without a word, and reported only where it later made a NaN).
    #[inline(always)]
    fn real_out(&mut self, o: u32, v: f64) {
        if !v.is_finite() {
            self.fault(if v.is_nan() { FaultKind::NotANumber } else { FaultKind::RealOverflow });
        }
        self.r[o as usize] = v;
    }

    /// Writes an integer result computed with its overflow flag.
    #[inline(always)]
    fn int_out(&mut self, o: u32, (v, overflowed): (i64, bool)) {
        if overflowed {
            self.fault(FaultKind::Overflow);
        }
        self.n[o as usize] = v;
    }

    /// A forced value written again after the instruction that wrote its slot.
    fn apply_forces(&mut self, values: &[(Slot, Value)]) {
        for &(s, v) in values {
            state::set_slot((&mut *self.b, &mut *self.n, &mut *self.r, &mut *self.s), s.idx as usize, v);
        }
    }

    /// A timer preset: a negative one is used as it is, as matiec's timers use it (elapsed at
    /// once, et := pt), and reported.
    #[inline(always)]
    fn preset(&mut self, pt: i64) -> i64 {
        if pt < 0 {
            self.fault(FaultKind::BadArgument);
        }
        pt
    }

    /// A REAL brought to LINT: `as` saturates (and maps NaN to 0); a fault says when it had to.
    #[inline(always)]
    fn saturate_to_lint(&mut self, v: f64) -> i64 {
        if v.is_nan() || v < i64::MIN as f64 || v >= i64::MAX as f64 {
            self.fault(if v.is_nan() { FaultKind::NotANumber } else { FaultKind::Overflow });
        }
        v as i64
    }
}

/// Nanoseconds in a second: a TIME's unit.
const NS_PER_S: i64 = 1_000_000_000;
