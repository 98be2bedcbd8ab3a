//! The executor: runs a plan's instruction array over the slot arrays. Nothing else.
//!
//! Every operand is a slot index resolved at compile time; instructions are grouped by kind
//! within each data-flow level so the `match` below predicts well (see
//! `../shared/design/performance-notes.md`). Nothing here allocates: faults go to a ring that
//! was sized when the runtime was built.

use std::hint::select_unpredictable;

use rand::Rng;

use fbd_model::types::{Bank, Value};
use fbd_plan::instr::U64Bin;
use fbd_plan::{ScanPlan, Slot};

pub use fbd_plan::instr::{CmpOp, Instr};

mod state;
mod strings;

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

/// Runs every instruction once, then captures the sources of the delayed slots.
pub(crate) fn run(plan: &ScanPlan, st: &mut State, ctx: &mut Ctx, forces: Option<&ForceView>) {
    match forces {
        None => {
            for (i, ins) in plan.code.iter().enumerate() {
                step(plan, st, ctx, i, ins);
            }
        }
        Some(f) => {
            for (i, ins) in plan.code.iter().enumerate() {
                step(plan, st, ctx, i, ins);
                if f.mask[i] {
                    apply_forces(st, f.values);
                }
            }
        }
    }
    commit_capture(plan, st);
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

#[inline(always)]
fn step(plan: &ScanPlan, st: &mut State, ctx: &mut Ctx, i: usize, ins: &Instr) {
    let State { bools: b, ints: n_, reals: r, strs, rngs } = st;
    macro_rules! fault {
        ($k:expr) => {
            ctx.faults.push(Fault { scan: ctx.scan, instr: i as u32, kind: $k })
        };
    }
    macro_rules! list {
        ($args:expr, $n:expr) => {
            &plan.args[*$args as usize..(*$args + *$n) as usize]
        };
    }
    macro_rules! real_out {
        ($o:expr, $v:expr) => {{
            let v: f64 = $v;
            // One comparison for both: a NaN, or a REAL overflow (an infinite result was
            // passed on without a word, and reported only where it later made a NaN).
            if !v.is_finite() {
                fault!(if v.is_nan() { FaultKind::NotANumber } else { FaultKind::RealOverflow });
            }
            r[*$o as usize] = v;
        }};
    }
    macro_rules! int_ov {
        ($o:expr, $pair:expr) => {{
            let (v, ov) = $pair;
            if ov {
                fault!(FaultKind::Overflow);
            }
            n_[*$o as usize] = v;
        }};
    }
    match ins {
        Instr::Str { op, args, n, o } => {
            let banks = strings::Banks { b, n: n_, r, s: strs };
            if let Some(k) = strings::step(*op, list!(args, n), *o, banks) {
                fault!(k);
            }
        }
        Instr::Gate { t, a, b: bb, c, o } => {
            let k = b[*a as usize] as u32 | (b[*bb as usize] as u32) << 1 | (b[*c as usize] as u32) << 2;
            b[*o as usize] = (*t >> k) & 1 != 0
        }
        Instr::CmpI { m, a, b: bb, o } => {
            let (x, y) = (n_[*a as usize], n_[*bb as usize]);
            b[*o as usize] = (*m >> ((x >= y) as u32 + (x > y) as u32)) & 1 != 0
        }
        Instr::AddSubI { sub, a, b: bb, o } => {
            let (x, y) = (n_[*a as usize], n_[*bb as usize]);
            int_ov!(o, if *sub { x.overflowing_sub(y) } else { x.overflowing_add(y) })
        }
        Instr::BitsN { op, args, n, o } => {
            let l = list!(args, n);
            let first = l.first().map_or(0, |&s| n_[s as usize]);
            n_[*o as usize] = l.iter().skip(1).fold(first, |acc, &s| op.apply(acc, n_[s as usize]))
        }
        Instr::NotW { a, o, bits } => n_[*o as usize] = !n_[*a as usize] & fbd_plan::instr::width_mask(*bits as u32),
        Instr::U64N { op, args, n, o } => {
            let l = list!(args, n);
            let first = l.first().map_or(0, |&s| n_[s as usize] as u64);
            n_[*o as usize] = l.iter().skip(1).fold(first, |acc, &s| op.apply(acc, n_[s as usize] as u64)) as i64
        }
        Instr::U64Bin { op, a, b: bb, o } => {
            let (x, y) = (n_[*a as usize] as u64, n_[*bb as usize] as u64);
            n_[*o as usize] = match op {
                U64Bin::Sub => x.wrapping_sub(y) as i64,
                _ if y == 0 => {
                    fault!(FaultKind::DivisionByZero);
                    0
                }
                U64Bin::Div => (x / y) as i64,
                U64Bin::Mod => (x % y) as i64,
            }
        }
        Instr::CmpU { m, a, b: bb, o } => {
            let (x, y) = (n_[*a as usize] as u64, n_[*bb as usize] as u64);
            b[*o as usize] = (*m >> ((x >= y) as u32 + (x > y) as u32)) & 1 != 0
        }
        Instr::LimitU { mn, a, mx, o } => {
            let (v, lo, hi) = (n_[*a as usize] as u64, n_[*mn as usize] as u64, n_[*mx as usize] as u64);
            n_[*o as usize] = (if v > lo { v.min(hi) } else { lo }) as i64
        }
        Instr::U64ToReal { a, o, r32 } => {
            let u = n_[*a as usize] as u64;
            r[*o as usize] = if *r32 { u as f32 as f64 } else { u as f64 }
        }
        Instr::AndN { args, n, o } => b[*o as usize] = list!(args, n).iter().all(|&s| b[s as usize]),
        Instr::OrN { args, n, o } => b[*o as usize] = list!(args, n).iter().any(|&s| b[s as usize]),
        Instr::XorN { args, n, o } => b[*o as usize] = list!(args, n).iter().fold(false, |acc, &s| acc ^ b[s as usize]),
        Instr::CmpR { op, a, b: bb, o } => b[*o as usize] = op.apply(r[*a as usize], r[*bb as usize]),
        Instr::AddIN { args, n, o } => {
            let mut acc = 0i64;
            let mut ov = false;
            for &s in list!(args, n) {
                let (v, f) = acc.overflowing_add(n_[s as usize]);
                acc = v;
                ov |= f;
            }
            int_ov!(o, (acc, ov))
        }
        Instr::MulIN { args, n, o } => {
            let mut acc = 1i64;
            let mut ov = false;
            for &s in list!(args, n) {
                let (v, f) = acc.overflowing_mul(n_[s as usize]);
                acc = v;
                ov |= f;
            }
            int_ov!(o, (acc, ov))
        }
        Instr::DivI { a, b: bb, o } => {
            let d = n_[*bb as usize];
            if d == 0 {
                fault!(FaultKind::DivisionByZero);
                n_[*o as usize] = 0;
            } else {
                int_ov!(o, n_[*a as usize].overflowing_div(d))
            }
        }
        Instr::ModI { a, b: bb, o } => {
            let d = n_[*bb as usize];
            if d == 0 {
                fault!(FaultKind::DivisionByZero);
                n_[*o as usize] = 0;
            } else {
                // i64::MIN % -1 is 0 mathematically; overflowing_rem gives (0, true).
                n_[*o as usize] = n_[*a as usize].wrapping_rem(d);
            }
        }
        Instr::AbsI { a, o } => {
            let v = n_[*a as usize];
            int_ov!(o, v.overflowing_abs())
        }
        Instr::NegI { a, o } => {
            let v = n_[*a as usize];
            int_ov!(o, v.overflowing_neg())
        }
        Instr::MinIN { args, n, o } => {
            n_[*o as usize] = list!(args, n).iter().map(|&s| n_[s as usize]).min().unwrap_or(0)
        }
        Instr::MaxIN { args, n, o } => {
            n_[*o as usize] = list!(args, n).iter().map(|&s| n_[s as usize]).max().unwrap_or(0)
        }
        // As matiec: IN > MN ? (IN < MX ? IN : MX) : MN (mn wins when mn > mx).
        Instr::LimitI { mn, a, mx, o } => {
            let (v, lo, hi) = (n_[*a as usize], n_[*mn as usize], n_[*mx as usize]);
            n_[*o as usize] = if v > lo { v.min(hi) } else { lo }
        }
        Instr::WrapI { o, bits, signed } => {
            let v = n_[*o as usize];
            let sh = 64 - *bits as u32;
            n_[*o as usize] = if *signed { (v << sh) >> sh } else { v & ((1i64 << *bits) - 1) };
        }
        Instr::RoundR32 { o } => {
            let v = r[*o as usize];
            let x = v as f32 as f64;
            // An f32 overflows where the f64 it came from did not (REAL: 3e38 * 10).
            if !x.is_finite() && v.is_finite() {
                fault!(FaultKind::RealOverflow);
            }
            r[*o as usize] = x;
        }
        Instr::MulINw { args, n, o, bits, signed } => {
            let sh = 64 - *bits as u32;
            let mask = (1i64 << *bits) - 1;
            let mut acc = 1i64;
            for &s in list!(args, n) {
                let v = acc.wrapping_mul(n_[s as usize]);
                acc = if *signed { (v << sh) >> sh } else { v & mask };
            }
            n_[*o as usize] = acc
        }
        Instr::MathR { f, a, o } => real_out!(o, f.apply(r[*a as usize])),
        Instr::ShiftW { op, bits, a, n, o } => {
            n_[*o as usize] = op.apply(n_[*a as usize], n_[*n as usize], *bits as u32)
        }
        Instr::ExptR { a, b: bb, o } => real_out!(o, r[*a as usize].powf(r[*bb as usize])),
        Instr::IntToR32 { a, o } => r[*o as usize] = n_[*a as usize] as f32 as f64,
        Instr::RealToIntEven { a, o, unsigned } => {
            let v = r[*a as usize];
            let v = if *unsigned && v < 0.0 { 0.0 } else { v.round_ties_even() };
            n_[*o as usize] = to_int(v, ctx, i)
        }
        Instr::IntToTime { a, o } => {
            let v = n_[*a as usize];
            n_[*o as usize] = v.checked_mul(NS_PER_S).unwrap_or_else(|| {
                fault!(FaultKind::Overflow);
                if v < 0 { i64::MIN } else { i64::MAX }
            })
        }
        Instr::RealToTime { a, o } => {
            let v = r[*a as usize];
            let secs = v.trunc();
            let ns = ((v - secs) * 1e9) as i64;
            let t = (secs.abs() < 1e10).then(|| (secs as i64).checked_mul(NS_PER_S)?.checked_add(ns)).flatten();
            n_[*o as usize] = t.unwrap_or_else(|| {
                fault!(if v.is_nan() { FaultKind::NotANumber } else { FaultKind::Overflow });
                if v.is_nan() {
                    0
                } else if v < 0.0 {
                    i64::MIN
                } else {
                    i64::MAX
                }
            })
        }
        Instr::TimeToInt { a, o } => n_[*o as usize] = n_[*a as usize] / NS_PER_S,
        Instr::TimeToReal { a, o } => {
            let v = n_[*a as usize];
            r[*o as usize] = (v / NS_PER_S) as f64 + (v % NS_PER_S) as f64 / 1e9
        }
        Instr::BoolToNum { a, o, real } => {
            let v = b[*a as usize];
            if *real { r[*o as usize] = v as i64 as f64 } else { n_[*o as usize] = v as i64 }
        }
        Instr::AddR32N { args, n, o } => {
            let l = list!(args, n);
            let first = l.first().map_or(0.0, |&s| r[s as usize] as f32);
            real_out!(o, l.iter().skip(1).fold(first, |acc, &s| acc + r[s as usize] as f32) as f64)
        }
        Instr::MulR32N { args, n, o } => {
            real_out!(o, list!(args, n).iter().fold(1.0f32, |acc, &s| acc * r[s as usize] as f32) as f64)
        }
        Instr::AddR2 { a, b: bb, o } => real_out!(o, r[*a as usize] + r[*bb as usize]),
        Instr::AddRN { args, n, o } => {
            real_out!(o, list!(args, n).iter().map(|&s| r[s as usize]).sum())
        }
        Instr::SubR { a, b: bb, o } => real_out!(o, r[*a as usize] - r[*bb as usize]),
        Instr::MulRN { args, n, o } => {
            real_out!(o, list!(args, n).iter().map(|&s| r[s as usize]).product())
        }
        Instr::DivR { a, b: bb, o } => {
            let d = r[*bb as usize];
            if d == 0.0 {
                fault!(FaultKind::DivisionByZero);
                r[*o as usize] = 0.0;
            } else {
                real_out!(o, r[*a as usize] / d)
            }
        }
        Instr::AbsR { a, o } => real_out!(o, r[*a as usize].abs()),
        Instr::NegR { a, o } => real_out!(o, -r[*a as usize]),
        // Folded from the first input, not from ±∞: MIN(NaN, NaN) is NaN (a fault), not +∞.
        Instr::MinRN { args, n, o } => {
            let l = list!(args, n);
            // As matiec folds it: a later input replaces the minimum only when smaller, so a
            // NaN first stays and a NaN later is passed over.
            real_out!(
                o,
                l[1..].iter().fold(r[l[0] as usize], |m, &s| if m > r[s as usize] { r[s as usize] } else { m })
            )
        }
        Instr::MaxRN { args, n, o } => {
            let l = list!(args, n);
            real_out!(
                o,
                l[1..].iter().fold(r[l[0] as usize], |m, &s| if m < r[s as usize] { r[s as usize] } else { m })
            )
        }
        Instr::LimitR { mn, a, mx, o } => {
            // As matiec, whose comparisons make a NaN in give mn.
            let (v, lo, hi) = (r[*a as usize], r[*mn as usize], r[*mx as usize]);
            real_out!(o, if v > lo { if v < hi { v } else { hi } } else { lo })
        }
        Instr::Floor { a, o } => n_[*o as usize] = to_int(r[*a as usize].floor(), ctx, i),
        Instr::Trunc { a, o } => n_[*o as usize] = to_int(r[*a as usize].trunc(), ctx, i),
        Instr::Frac { a, o } => real_out!(o, r[*a as usize].fract()),
        Instr::IntToReal { a, o } => r[*o as usize] = n_[*a as usize] as f64,
        Instr::SelI { g, a, b: bb, o } => n_[*o as usize] = n_[select_unpredictable(b[*g as usize], *bb, *a) as usize],
        Instr::SelR { g, a, b: bb, o } => r[*o as usize] = r[select_unpredictable(b[*g as usize], *bb, *a) as usize],
        Instr::MuxB { k, args, n, o } => {
            b[*o as usize] = match mux_index(n_[*k as usize], *n) {
                Some(j) => b[plan.args[(*args + j) as usize] as usize],
                None => {
                    fault!(FaultKind::IndexOutOfRange);
                    false
                }
            }
        }
        Instr::MuxI { k, args, n, o } => {
            n_[*o as usize] = match mux_index(n_[*k as usize], *n) {
                Some(j) => n_[plan.args[(*args + j) as usize] as usize],
                None => {
                    fault!(FaultKind::IndexOutOfRange);
                    0
                }
            }
        }
        Instr::MuxR { k, args, n, o } => {
            r[*o as usize] = match mux_index(n_[*k as usize], *n) {
                Some(j) => r[plan.args[(*args + j) as usize] as usize],
                None => {
                    fault!(FaultKind::IndexOutOfRange);
                    0.0
                }
            }
        }
        Instr::MoveR { a, o } => r[*o as usize] = r[*a as usize],
        Instr::MemR { x, en, q } => {
            if b[*en as usize] {
                r[*q as usize] = r[*x as usize]
            }
        }
        Instr::RTrig { clk, m, q } => {
            let c = b[*clk as usize];
            b[*q as usize] = c && !b[*m as usize];
            b[*m as usize] = c;
        }
        Instr::FTrig { clk, m, q } => {
            let c = b[*clk as usize];
            b[*q as usize] = !c && !b[*m as usize];
            b[*m as usize] = !c;
        }
        Instr::Ton { aux } => {
            let a = &plan.args[*aux as usize..*aux as usize + 7];
            let (x, pt, q, et, s, start, prev) = (&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6]);
            let now = (ctx.now_us as i64).saturating_mul(1000);
            let input = b[*x as usize];
            let pt = preset(n_[*pt as usize], ctx, i);
            if n_[*s as usize] == 0 && !b[*prev as usize] && input {
                n_[*s as usize] = 1;
                b[*q as usize] = false;
                n_[*start as usize] = now;
            } else if !input {
                n_[*et as usize] = 0;
                b[*q as usize] = false;
                n_[*s as usize] = 0;
            } else if n_[*s as usize] == 1 {
                let t0 = n_[*start as usize];
                if t0.saturating_add(pt) <= now {
                    n_[*s as usize] = 2;
                    b[*q as usize] = true;
                    n_[*et as usize] = pt;
                } else {
                    n_[*et as usize] = now - t0;
                }
            }
            b[*prev as usize] = input;
        }
        Instr::Tof { aux } => {
            let a = &plan.args[*aux as usize..*aux as usize + 7];
            let (x, pt, q, et, s, start, prev) = (&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6]);
            let now = (ctx.now_us as i64).saturating_mul(1000);
            let input = b[*x as usize];
            let pt = preset(n_[*pt as usize], ctx, i);
            if n_[*s as usize] == 0 && b[*prev as usize] && !input {
                n_[*s as usize] = 1;
                n_[*start as usize] = now;
            } else if input {
                n_[*et as usize] = 0;
                n_[*s as usize] = 0;
            } else if n_[*s as usize] == 1 {
                let t0 = n_[*start as usize];
                if t0.saturating_add(pt) <= now {
                    n_[*s as usize] = 2;
                    n_[*et as usize] = pt;
                } else {
                    n_[*et as usize] = now - t0;
                }
            }
            b[*q as usize] = input || n_[*s as usize] == 1;
            b[*prev as usize] = input;
        }
        Instr::Tp { aux } => {
            let a = &plan.args[*aux as usize..*aux as usize + 7];
            let (x, pt, q, et, s, start, prev) = (&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6]);
            let now = (ctx.now_us as i64).saturating_mul(1000);
            let input = b[*x as usize];
            let pt = preset(n_[*pt as usize], ctx, i);
            if n_[*s as usize] == 0 && !b[*prev as usize] && input {
                n_[*s as usize] = 1;
                b[*q as usize] = true;
                n_[*start as usize] = now;
            } else if n_[*s as usize] == 1 {
                let t0 = n_[*start as usize];
                if t0.saturating_add(pt) <= now {
                    n_[*s as usize] = 2;
                    b[*q as usize] = false;
                    n_[*et as usize] = pt;
                } else {
                    n_[*et as usize] = now - t0;
                }
            }
            if n_[*s as usize] == 2 && !input {
                n_[*et as usize] = 0;
                n_[*s as usize] = 0;
            }
            b[*prev as usize] = input;
        }
        Instr::Ctu { aux } => {
            let a = &plan.args[*aux as usize..*aux as usize + 6];
            let (cu, rr, pv, q, cv, m) = (&a[0], &a[1], &a[2], &a[3], &a[4], &a[5]);
            let c = b[*cu as usize];
            let edge = c && !b[*m as usize];
            b[*m as usize] = c;
            if b[*rr as usize] {
                n_[*cv as usize] = 0;
            } else if edge && n_[*cv as usize] < n_[*pv as usize] {
                n_[*cv as usize] += 1;
            }
            b[*q as usize] = n_[*cv as usize] >= n_[*pv as usize];
        }
        Instr::Ctd { aux } => {
            let a = &plan.args[*aux as usize..*aux as usize + 6];
            let (cd, ld, pv, q, cv, m) = (&a[0], &a[1], &a[2], &a[3], &a[4], &a[5]);
            let c = b[*cd as usize];
            let edge = c && !b[*m as usize];
            b[*m as usize] = c;
            if b[*ld as usize] {
                n_[*cv as usize] = n_[*pv as usize];
            } else if edge && n_[*cv as usize] > 0 {
                n_[*cv as usize] -= 1;
            }
            b[*q as usize] = n_[*cv as usize] <= 0;
        }
        Instr::Ctud { aux } => {
            let o = &plan.args[*aux as usize..*aux as usize + 10];
            let (cu, cd, rr, ld, pv, qu, qd, cv, mu, md) = (o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9]);
            let (cu, cd) = (b[cu as usize], b[cd as usize]);
            let up = cu && !b[mu as usize];
            let down = cd && !b[md as usize];
            b[mu as usize] = cu;
            b[md as usize] = cd;
            let preset = n_[pv as usize];
            let v = &mut n_[cv as usize];
            if b[rr as usize] {
                *v = 0;
            } else if b[ld as usize] {
                *v = preset;
            } else if !(up && down) {
                if up && *v < preset {
                    *v += 1;
                } else if down && *v > 0 {
                    *v -= 1;
                }
            }
            let v = n_[cv as usize];
            b[qu as usize] = v >= n_[pv as usize];
            b[qd as usize] = v <= 0;
        }
        Instr::Now { ms, s } => {
            n_[*ms as usize] = (ctx.now_us / 1000) as i64;
            r[*s as usize] = ctx.now_us as f64 / 1e6;
        }
        Instr::Saw { period, lo, hi, o } => {
            let p_ms = n_[*period as usize];
            let (lo, hi) = (r[*lo as usize], r[*hi as usize]);
            if p_ms <= 0 {
                fault!(FaultKind::BadArgument);
                r[*o as usize] = lo;
            } else {
                let p_us = (p_ms as u64).saturating_mul(1000);
                let phase = (ctx.now_us % p_us) as f64 / p_us as f64;
                real_out!(o, lo + (hi - lo) * phase);
            }
        }
        Instr::Random { aux } => {
            let a = &plan.args[*aux as usize..*aux as usize + 6];
            let (rng, en, lo, hi, x, n) = (&a[0], &a[1], &a[2], &a[3], &a[4], &a[5]);
            if b[*en as usize] {
                let g = &mut rngs[*rng as usize];
                // 53 random bits give every representable multiple of 2^-53 in [0, 1).
                r[*x as usize] = (g.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
                let (lo, hi) = (n_[*lo as usize], n_[*hi as usize]);
                n_[*n as usize] = if hi < lo {
                    fault!(FaultKind::BadArgument);
                    lo
                } else {
                    let span = (hi as i128 - lo as i128 + 1) as u128;
                    // Lemire's multiply-shift: unbiased enough for spans far below 2^64
                    // and exactly reproducible.
                    let pick = ((g.next_u64() as u128 * span) >> 64) as i128;
                    (lo as i128 + pick) as i64
                };
            }
        }
        Instr::Selector { sel, first, n } => {
            let k = n_[*sel as usize];
            for j in 0..*n {
                b[(*first + j) as usize] = k == j as i64 + 1;
            }
        }
    }
}

/// A timer preset: a negative one counts as 0 and is a fault (else `et` would go negative).
#[inline]
fn preset(pt: i64, ctx: &mut Ctx, i: usize) -> i64 {
    // Used as it is, as matiec's timers use it (elapsed at once, et := pt), and reported.
    if pt < 0 {
        ctx.faults.push(Fault { scan: ctx.scan, instr: i as u32, kind: FaultKind::BadArgument });
    }
    pt
}

#[inline]
fn mux_index(k: i64, n: u32) -> Option<u32> {
    if k >= 0 && k < n as i64 { Some(k as u32) } else { None }
}

/// Nanoseconds in a second: a TIME's unit.
const NS_PER_S: i64 = 1_000_000_000;

#[inline]
fn to_int(v: f64, ctx: &mut Ctx, i: usize) -> i64 {
    // `as` saturates (and maps NaN to 0); flag when it had to.
    if v.is_nan() || v < i64::MIN as f64 || v >= i64::MAX as f64 {
        ctx.faults.push(Fault {
            scan: ctx.scan,
            instr: i as u32,
            kind: if v.is_nan() { FaultKind::NotANumber } else { FaultKind::Overflow },
        });
    }
    v as i64
}
