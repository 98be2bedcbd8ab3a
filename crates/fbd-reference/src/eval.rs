//! The reference interpreter: the expanded netlist evaluated block by block, by name, with
//! tagged values. No slot banks, no plan, no instruction selection, no grouping: each scan it
//! evaluates any block whose same-scan inputs are known until all are, then captures the
//! delayed values for the next scan. Slow on purpose; it is only ever compared with the engine.

use std::collections::HashMap;

use fbd_compiler::netlist::{Driver, NetBlock, Netlist};
use fbd_model::library::Kind;
use fbd_model::{Type, Value};
use fbd_plan::fault::FaultKind;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Internal state of the stateful blocks that is not an output.
#[derive(Clone, Debug, Default)]
struct Hidden {
    /// Edge memory (R_TRIG, F_TRIG, counters' cu/cd).
    m1: bool,
    m2: bool,
    /// Timer phase: 0 idle, 1 timing, 2 done.
    phase: u8,
    /// Timer start (ns).
    start: i64,
    /// The timer's `in` at the previous scan.
    prev_in: bool,
}

/// The reference interpreter of one program.
pub struct Reference {
    net: Netlist,
    /// Current value of every block output, by block and pin.
    outs: Vec<Vec<Value>>,
    hidden: Vec<Hidden>,
    /// Previous-scan values of feedback wires, by the wire's text form.
    feedback: HashMap<String, Value>,
    inputs: Vec<Value>,
    rngs: Vec<Option<ChaCha8Rng>>,
    scan: u64,
    /// Delayed values captured at the end of the last scan, applied at the start of the next:
    /// between scans a delayed output shows the value it had during the last scan.
    staged_feedback: Vec<(String, Value)>,
    staged_outs: Vec<(usize, usize, Value)>,
    /// Faults in the order they happened: scan, block path, kind.
    pub faults: Vec<(u64, String, FaultKind)>,
}

fn key(d: &Driver) -> String {
    format!("{d:?}")
}

impl Reference {
    /// A reference run of `net` with runtime seed `seed`.
    pub fn new(net: Netlist, seed: u64) -> Reference {
        let outs = net
            .blocks
            .iter()
            .map(|b| {
                b.outputs
                    .iter()
                    .map(|o| match (b.def.kind, b.init) {
                        (Kind::Memory | Kind::Delay | Kind::Sr | Kind::Rs, Some(v)) => {
                            as_type(v.coerce(o.ty).unwrap_or(v), o.ty)
                        }
                        _ => o.ty.zero(),
                    })
                    .collect()
            })
            .collect();
        let rngs = net
            .blocks
            .iter()
            .map(|b| (b.def.kind == Kind::Random).then(|| fbd_plan::random::random_stream(seed, &b.path, b.seed)))
            .collect();
        let inputs = net.inputs.iter().map(|p| p.default).collect();
        let hidden = vec![Hidden::default(); net.blocks.len()];
        let mut r = Reference {
            net,
            outs,
            hidden,
            feedback: HashMap::new(),
            inputs,
            rngs,
            scan: 0,
            staged_feedback: Vec::new(),
            staged_outs: Vec::new(),
            faults: Vec::new(),
        };
        // Each feedback wire's value before the first scan: its `init`, else what its source
        // holds then (a negated output's TRUE, a MEMORY's init), inner wires first.
        let drivers: Vec<Driver> = r
            .net
            .blocks
            .iter()
            .flat_map(|b| b.inputs.iter().map(|p| p.driver.clone()).chain(b.gates.iter().cloned()))
            .chain(r.net.outputs.iter().map(|o| o.driver.clone()))
            .collect();
        for d in &drivers {
            r.first_feedback(d);
        }
        r
    }

    fn first_feedback(&mut self, d: &Driver) {
        if let Driver::Feedback { src, init } = d {
            self.first_feedback(src);
            if self.feedback.contains_key(&key(d)) {
                return;
            }
            let ty = driver_type(&self.net, src);
            let v = match init.and_then(|v| v.coerce(ty)) {
                Some(v) => as_type(v, ty),
                None => self.read(src, ty),
            };
            self.feedback.insert(key(d), v);
        }
    }

    /// Sets program input `i` (the value must have its type).
    pub fn set_input(&mut self, i: usize, v: Value) {
        self.inputs[i] = v;
    }

    /// The netlist being run.
    pub fn netlist(&self) -> &Netlist {
        &self.net
    }

    /// The value a block's own output holds (before a negation of the pin): what the engine's
    /// `X.q` names.
    pub fn own_out(&self, block: usize, pin: usize) -> Value {
        self.outs[block][pin]
    }

    /// The current value of output `pin` of block `block`, as its readers see it (inverted on
    /// a negated output).
    pub fn out(&self, block: usize, pin: usize) -> Value {
        match (self.outs[block][pin], self.net.blocks[block].outputs[pin].negated) {
            (Value::Bool(x), true) => Value::Bool(!x),
            (v, true) => panic!("reference: a negated output is BOOL, got {v:?}"),
            (v, false) => v,
        }
    }

    /// The value of program output `k` after the last scan.
    pub fn output(&self, k: usize) -> Value {
        let o = &self.net.outputs[k];
        self.read(&o.driver, o.ty)
    }

    fn read(&self, d: &Driver, want: Type) -> Value {
        let v = match d {
            Driver::Const(v) => *v,
            Driver::Input(i) => self.inputs[*i],
            Driver::Out { block, pin } => self.out(*block, *pin),
            Driver::Feedback { .. } => self.feedback[&key(d)],
        };
        match v.coerce(want) {
            // A REAL holds f32 values: a constant written for it is its nearest f32.
            Some(Value::Real(r)) if want == Type::Real => Value::Real(r as f32 as f64),
            // An integer constant written for a ULINT is that ULINT, and back.
            Some(Value::Int(n)) if want.is_u64() => Value::ULInt(n as u64),
            Some(Value::ULInt(u)) if !want.is_u64() && want.is_int() => Value::Int(u as i64),
            Some(v) => v,
            None => panic!("reference: a {} where {want} is read: {d:?}", v.ty()),
        }
    }

    /// Whether reading `d` needs block `b` evaluated first in this scan.
    fn waits_on(&self, d: &Driver, done: &[bool]) -> bool {
        match d {
            Driver::Out { block, pin } => {
                let b = &self.net.blocks[*block];
                let delayed = b.def.outputs.get(*pin).is_some_and(|p| p.delayed);
                !delayed && !done[*block]
            }
            _ => false,
        }
    }

    /// Runs one scan at simulated time `now_us`.
    pub fn step(&mut self, now_us: u64) {
        for (k, v) in std::mem::take(&mut self.staged_feedback) {
            self.feedback.insert(k, v);
        }
        for (i, p, v) in std::mem::take(&mut self.staged_outs) {
            self.outs[i][p] = v;
        }
        let n = self.net.blocks.len();
        let mut done = vec![false; n];
        // DELAY computes nothing during the scan.
        for (i, b) in self.net.blocks.iter().enumerate() {
            if b.def.kind == Kind::Delay {
                done[i] = true;
            }
        }
        let mut left = done.iter().filter(|d| !**d).count();
        while left > 0 {
            let before = left;
            for i in 0..n {
                let b = &self.net.blocks[i];
                if done[i]
                    || b.inputs.iter().any(|p| self.waits_on(&p.driver, &done))
                    || b.gates.iter().any(|g| self.waits_on(g, &done))
                {
                    continue;
                }
                // Under an EN that is FALSE the block is not called: it keeps its outputs and
                // its state; an IEC function whose own EN alone is FALSE returns its type's
                // initial value (matiec's `TEST_EN`).
                let on: Vec<bool> = b.gates.iter().map(|g| self.read(g, Type::Bool) == Value::Bool(true)).collect();
                if on.iter().all(|g| *g) {
                    self.eval(i, now_us);
                } else if b.own_gate && b.def.is_iec_function() && on[..on.len() - 1].iter().all(|g| *g) {
                    for (k, o) in b.outputs.iter().enumerate() {
                        self.outs[i][k] = o.ty.zero();
                    }
                }
                done[i] = true;
                left -= 1;
            }
            assert!(left < before, "reference: a loop without a feedback point reached the evaluator");
        }
        // Delayed values for the next scan: read everything first, then update.
        let fb: Vec<(String, Value)> = self
            .feedback
            .keys()
            .cloned()
            .collect::<Vec<_>>()
            .into_iter()
            .map(|k| {
                let d = self.find_feedback(&k);
                let Driver::Feedback { src, .. } = &d else { unreachable!() };
                let ty = driver_type(&self.net, src);
                (k, self.read(src, ty))
            })
            .collect();
        let mut delayed: Vec<(usize, usize, Value)> = Vec::new();
        for (i, b) in self.net.blocks.iter().enumerate() {
            match b.def.kind {
                Kind::Memory => delayed.push((i, 1, self.outs[i][0])),
                Kind::Delay => delayed.push((i, 0, self.pin(&b.inputs[0]))),
                _ => {}
            }
        }
        self.staged_feedback = fb;
        self.staged_outs = delayed;
        self.scan += 1;
    }

    fn find_feedback(&self, k: &str) -> Driver {
        fn find(d: &Driver, k: &str) -> Option<Driver> {
            if let Driver::Feedback { src, .. } = d {
                if key(d) == k {
                    return Some(d.clone());
                }
                return find(src, k);
            }
            None
        }
        let blocks = self.net.blocks.iter().flat_map(|b| b.inputs.iter().map(|p| &p.driver).chain(&b.gates));
        let outs = self.net.outputs.iter().map(|o| &o.driver);
        blocks.chain(outs).find_map(|d| find(d, k)).expect("a feedback key names a wire")
    }

    fn fault(&mut self, i: usize, kind: FaultKind) {
        self.faults.push((self.scan, self.net.blocks[i].path.clone(), kind));
    }

    fn real_result(&mut self, i: usize, v: f64) -> Value {
        if v.is_nan() {
            self.fault(i, FaultKind::NotANumber);
        } else if v.is_infinite() {
            self.fault(i, FaultKind::RealOverflow);
        }
        Value::Real(v)
    }

    fn int_result(&mut self, i: usize, v: i128) -> Value {
        // Wrapping to 64 bits is the defined result of an overflow, with a fault.
        if v < i64::MIN as i128 || v > i64::MAX as i128 {
            self.fault(i, FaultKind::Overflow);
        }
        Value::Int(v as i64)
    }

    /// The result of integer arithmetic on `ty`, computed exactly: LINT wraps at 64 bits with
    /// a fault; a narrower type is taken modulo its size into its range, silently, as the PLC
    /// does (written here as a remainder, not as the engine's shifts).
    fn typed_int(&mut self, i: usize, ty: Type, v: i128) -> Value {
        match narrow_range(ty) {
            Some(_) if ty.is_u64() => Value::ULInt(self.within(ty, v) as u64),
            Some(_) => Value::Int(self.within(ty, v) as i64),
            None => self.int_result(i, v),
        }
    }

    /// `v` taken modulo the size of a narrow (or 64-bit unsigned) type into its range; LINT's
    /// `v` as it is.
    fn within(&self, ty: Type, v: i128) -> i128 {
        match narrow_range(ty) {
            Some((lo, size)) => (v - lo).rem_euclid(size) + lo,
            None => v,
        }
    }

    /// IEC's `A_TO_B` as matiec computes it: to BOOL, `<> 0`; from BOOL, 0 or 1; float to
    /// integer to nearest with halves to even (0 for a negative value into an unsigned type),
    /// then into the type's range; integer to integer into the range; to REAL, the nearest f32.
    fn convert(&mut self, i: usize, v: Value, to: Type) -> Value {
        const NS: i128 = 1_000_000_000;
        match (v, to) {
            (Value::Str(_), _) => panic!("reference: a STRING conversion is `eval`'s"),
            (Value::Time(t), to) if to.is_time() => Value::Time(t),
            // matiec's BOOL_TO_TIME: the BOOL as whole seconds.
            (Value::Bool(b), to) if to.is_time() => Value::Time(if b { NS as i64 } else { 0 }),
            // A ULINT: its bits as C casts them (to LINT: the same 64 bits, no fault).
            (Value::ULInt(u), Type::Bool) => Value::Bool(u != 0),
            (Value::ULInt(u), Type::Real) => Value::Real(u as f32 as f64),
            (Value::ULInt(u), Type::LReal) => Value::Real(u as f64),
            (Value::ULInt(u), to) if to.is_time() => self.time_saturated(i, u as i64 as i128 * NS),
            (Value::ULInt(u), Type::LInt) => Value::Int(u as i64),
            (Value::ULInt(u), to) => self.typed_int(i, to, u as i128),
            (Value::Int(n), to) if to.is_u64() => Value::ULInt(n as u64),
            // matiec's timespec: tv_sec and tv_nsec of one sign; TIME_TO_<int> is tv_sec.
            (Value::Time(t), to) if to.is_real() => {
                let (sec, nsec) = ((t as i128 / NS) as i64, (t as i128 % NS) as i64);
                let x = sec as f64 + nsec as f64 / 1e9;
                Value::Real(if to == Type::Real { x as f32 as f64 } else { x })
            }
            (Value::Time(t), to) => self.typed_int(i, to, t as i128 / NS),
            (Value::Int(n), to) if to.is_time() => self.time_saturated(i, n as i128 * NS),
            (Value::Real(r), to) if to.is_time() => {
                if r.is_nan() {
                    self.fault(i, FaultKind::NotANumber);
                    return Value::Time(0);
                }
                // matiec: {(long)IN, (long)((IN - (LINT)IN) * 1e9)}; a seconds count beyond a
                // TIME's saturates here, with a fault.
                if r.abs() >= 1e10 {
                    self.fault(i, FaultKind::Overflow);
                    return Value::Time(if r < 0.0 { i64::MIN } else { i64::MAX });
                }
                let sec = r as i64;
                let nsec = ((r - sec as f64) * 1e9) as i64;
                self.time_saturated(i, sec as i128 * NS + nsec as i128)
            }
            (Value::Bool(b), Type::Bool) => Value::Bool(b),
            (Value::Int(n), Type::Bool) => Value::Bool(n != 0),
            (Value::Real(r), Type::Bool) => Value::Bool(r != 0.0),
            (Value::Bool(b), t) if t.is_int() => self.typed_int(i, t, b as i128),
            (Value::Bool(b), _) => Value::Real(if b { 1.0 } else { 0.0 }),
            (Value::Int(n), Type::Real) => Value::Real((n as f32) as f64),
            (Value::Int(n), Type::LReal) => Value::Real(n as f64),
            (Value::Int(n), t) => self.typed_int(i, t, n as i128),
            // Only an overflow the conversion makes is a fault (an infinite or NaN input
            // passes as a MOVE passes it).
            (Value::Real(r), Type::Real) => {
                let x = (r as f32) as f64;
                if x.is_infinite() && r.is_finite() {
                    self.fault(i, FaultKind::RealOverflow);
                }
                Value::Real(x)
            }
            (Value::Real(r), Type::LReal) => Value::Real(r),
            (Value::Real(r), t) => {
                let unsigned = narrow_range(t).is_some_and(|(lo, _)| lo == 0);
                let whole = if unsigned && r < 0.0 { 0.0 } else { nearest_even(r) };
                // A ULINT or LWORD holds 2^63..2^64 as IEC means it (matiec's C passes it through
                // a LINT, undefined there: x86-64 gives 2^63 for all of them); beyond, the most
                // it holds, with a fault.
                const TWO_63: f64 = 9_223_372_036_854_775_808.0;
                if t.is_u64() && whole >= TWO_63 {
                    if whole >= 2.0 * TWO_63 {
                        self.fault(i, FaultKind::Overflow);
                    }
                    return Value::ULInt(whole as u64);
                }
                match self.int_of(i, whole) {
                    Value::Int(n) if t.is_u64() => Value::ULInt(n as u64),
                    Value::Int(n) => self.typed_int(i, t, n as i128),
                    other => other,
                }
            }
        }
    }

    /// CTU, CTD and CTUD as matiec counts: up to PV and not past it, down to 0; CTUD ignores
    /// edges of both inputs in one scan.
    fn counter(&mut self, i: usize, kind: Kind, ins: &[Value]) -> Vec<Value> {
        let bo = |k: usize| matches!(ins[k], Value::Bool(true));
        // Every integer type as an i128 (a ULINT's value unsigned), given back in its own.
        let io = |k: usize| match ins[k] {
            Value::Int(x) => x as i128,
            Value::ULInt(u) => u as i128,
            v => panic!("reference: an integer expected, got {v:?}"),
        };
        let cv_at = if kind == Kind::Ctud { 2 } else { 1 };
        let (mut cv, unsigned) = match self.outs[i][cv_at] {
            Value::Int(x) => (x as i128, false),
            Value::ULInt(u) => (u as i128, true),
            v => unreachable!("a counter's cv is an integer, not {v:?}"),
        };
        let out = |cv: i128| if unsigned { Value::ULInt(cv as u64) } else { Value::Int(cv as i64) };
        let h = &mut self.hidden[i];
        match kind {
            Kind::Ctu => {
                let edge = bo(0) && !h.m1;
                h.m1 = bo(0);
                if bo(1) {
                    cv = 0;
                } else if edge && cv < io(2) {
                    cv += 1;
                }
                vec![Value::Bool(cv >= io(2)), out(cv)]
            }
            Kind::Ctd => {
                let edge = bo(0) && !h.m1;
                h.m1 = bo(0);
                if bo(1) {
                    cv = io(2);
                } else if edge && cv > 0 {
                    cv -= 1;
                }
                vec![Value::Bool(cv <= 0), out(cv)]
            }
            _ => {
                let up = bo(0) && !h.m1;
                let down = bo(1) && !h.m2;
                h.m1 = bo(0);
                h.m2 = bo(1);
                if bo(2) {
                    cv = 0;
                } else if bo(3) {
                    cv = io(4);
                } else if up && !down && cv < io(4) {
                    cv += 1;
                } else if down && !up && cv > 0 {
                    cv -= 1;
                }
                vec![Value::Bool(cv >= io(4)), Value::Bool(cv <= 0), out(cv)]
            }
        }
    }

    /// RANDOM: with `en`, x uniform in [0, 1) from the top 53 bits of a draw, then n uniform in
    /// [lo, hi] by a 128-bit multiply of a second draw; without, both hold.
    fn random(&mut self, i: usize, ins: &[Value]) -> Vec<Value> {
        let (Value::Bool(en), Value::Int(lo), Value::Int(hi)) = (ins[0], ins[1], ins[2]) else {
            panic!("reference: RANDOM's pins are BOOL, INT, INT, got {ins:?}")
        };
        if !en {
            return self.outs[i].clone();
        }
        let g = self.rngs[i].as_mut().expect("RANDOM has a stream");
        let x = (g.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let n = if hi < lo {
            self.fault(i, FaultKind::BadArgument);
            lo
        } else {
            let span = (hi as i128 - lo as i128 + 1) as u128;
            let u = self.rngs[i].as_mut().expect("stream").next_u64() as u128;
            (lo as i128 + ((u * span) >> 64) as i128) as i64
        };
        vec![Value::Real(x), Value::Int(n)]
    }

    /// A string block's result; a fault where matiec refuses the arguments or is undefined.
    fn string_block(&mut self, i: usize, kind: Kind, ins: &[Value]) -> Vec<Value> {
        let (v, fault) = crate::strings::eval(kind, ins);
        if fault {
            self.fault(i, FaultKind::BadArgument);
        }
        vec![v]
    }

    /// A duration sum or difference computed exactly: beyond ±2^63 ns is a fault, and the value
    /// wraps as 64-bit arithmetic leaves it.
    fn time_result(&mut self, i: usize, v: i128) -> Value {
        if v < i64::MIN as i128 || v > i64::MAX as i128 {
            self.fault(i, FaultKind::Overflow);
        }
        Value::Time(v as i64)
    }

    /// A converted duration: beyond ±2^63 ns is a fault and the nearest bound.
    fn time_saturated(&mut self, i: usize, v: i128) -> Value {
        if v < i64::MIN as i128 || v > i64::MAX as i128 {
            self.fault(i, FaultKind::Overflow);
        }
        Value::Time(v.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
    }

    fn int_of(&mut self, i: usize, v: f64) -> Value {
        if v.is_nan() {
            self.fault(i, FaultKind::NotANumber);
            return Value::Int(0);
        }
        // ±2^63: the INT range's bounds as exact REALs.
        const TWO_63: f64 = 9_223_372_036_854_775_808.0;
        if !(-TWO_63..TWO_63).contains(&v) {
            self.fault(i, FaultKind::Overflow);
        }
        Value::Int(v as i64)
    }

    /// What a block reads at input `p`: its driver's value, inverted on a negated pin.
    fn pin(&self, p: &fbd_compiler::netlist::NetPin) -> Value {
        match (self.read(&p.driver, p.ty), p.negated) {
            (Value::Bool(x), true) => Value::Bool(!x),
            (v, true) => panic!("reference: a negated pin reads BOOL, got {v:?}"),
            (v, false) => v,
        }
    }

    /// Evaluates block `i`: reads its inputs by driver and writes its outputs.
    fn eval(&mut self, i: usize, now_us: u64) {
        let b = self.net.blocks[i].clone();
        let ins: Vec<Value> = b.inputs.iter().map(|p| self.pin(p)).collect();
        let ty = b.ty.unwrap_or(Type::Bool);
        use Kind::*;
        let out: Vec<Value> = match b.def.kind {
            Kind::Len
            | Kind::Left
            | Kind::Right
            | Kind::Mid
            | Kind::Concat
            | Kind::Insert
            | Kind::Delete
            | Kind::Replace
            | Kind::Find => self.string_block(i, b.def.kind, &ins),
            Kind::Min | Kind::Max | Kind::Limit if ty == Type::String => self.string_block(i, b.def.kind, &ins),
            // Bit strings: bit by bit, on the value as a row of the type's bits.
            And | Or | Xor | Not => self.logic(i, &b, ty, &ins),
            Eq | Ne | Gt | Ge | Lt | Le => self.comparison(i, &b, ty, &ins),
            Add | Sub | Mul | Div | Mod | Abs | Neg | Min | Max | Limit | Sqrt | Ln | Log | Exp | Expt | Sin | Cos
            | Tan | Asin | Acos | Atan | Shl | Shr | Rol | Ror => self.arithmetic(i, &b, ty, &ins),
            MulTime | DivTime => self.scale_time(i, b.def.kind == DivTime, &ins),
            Bcd => self.bcd(i, &b, &ins),
            Floor | Trunc | Frac | IntToReal | Convert => self.conversion(i, &b, ty, &ins),
            Sel | Mux | Move | Memory | Delay | Sr | Rs | RTrig | FTrig => self.selection(i, &b, ty, &ins),
            Ton | Tof | Tp | Ctu | Ctd | Ctud | Now | Saw | Random | Selector => {
                self.timers_and_sources(i, &b, ty, &ins, now_us)
            }
        };
        for (k, v) in out.into_iter().enumerate() {
            self.outs[i][k] = v;
        }
    }

    /// BCD_TO_* and *_TO_BCD, read through the decimal and hexadecimal texts of the values:
    /// a number's decimal digits are the BCD's hexadecimal ones (the 17th and later have no
    /// place in 64 bits: reported); a BCD with a hexadecimal digit above 9 is 0, reported.
    fn bcd(&mut self, i: usize, b: &NetBlock, ins: &[Value]) -> Vec<Value> {
        let x: u64 = match ins[0] {
            Value::Int(v) => v as u64,
            Value::ULInt(u) => u,
            v => panic!("reference: BCD of a {v:?}"),
        };
        let to = b.outputs[0].ty;
        let to_bcd = !b.inputs[0].ty.is_bit_string();
        let v = if to_bcd {
            let digits = x.to_string();
            if digits.len() > 16 {
                self.fault(i, FaultKind::Overflow);
            }
            let kept = &digits[digits.len().saturating_sub(16)..];
            u64::from_str_radix(kept, 16).expect("decimal digits read as hexadecimal")
        } else {
            let hex = format!("{x:x}");
            if hex.chars().any(|c| !c.is_ascii_digit()) {
                self.fault(i, FaultKind::BadArgument);
                0
            } else {
                hex.parse::<u64>().expect("at most 16 decimal digits")
            }
        };
        let cut = match to.width() {
            Some((w, _)) => v & ((1u64 << w) - 1),
            None => v,
        };
        vec![if to.is_u64() { Value::ULInt(cut) } else { Value::Int(cut as i64) }]
    }

    /// MULTIME / DIVTIME: matiec's `__time_mul` / `__time_div` followed line by line on its
    /// timespec (seconds and nanoseconds, normalised once), C's conversions spelled out.
    fn scale_time(&mut self, i: usize, div: bool, ins: &[Value]) -> Vec<Value> {
        let Value::Time(t) = ins[0] else { panic!("reference: MULTIME/DIVTIME of a {:?}", ins[0]) };
        let k = match ins[1] {
            Value::Real(r) => r,
            Value::ULInt(u) => u as f64,
            v => v.as_i64().expect("a number") as f64,
        };
        if k.is_nan() {
            self.fault(i, FaultKind::NotANumber);
            return vec![Value::Time(0)];
        }
        if div && k == 0.0 {
            self.fault(i, FaultKind::DivisionByZero);
            return vec![Value::Time(0)];
        }
        let (tv_sec, tv_nsec) = (t / 1_000_000_000, t % 1_000_000_000);
        let (mut sec, mut nsec): (i128, i128);
        let s_f;
        if div {
            s_f = tv_sec as f64 / k;
            let s = s_f as i64;
            sec = s as i128;
            nsec = (tv_nsec as f64 / k + (s_f - s as f64) * 1_000_000_000.0) as i64 as i128;
        } else {
            s_f = tv_sec as f64 * k;
            let s = s_f as i64;
            let prod = tv_nsec as f64 * k;
            // Outside a C int (or NaN: zero nanoseconds times an infinity) C leaves it undefined.
            if prod.is_nan() || prod <= i32::MIN as f64 - 1.0 || prod >= i32::MAX as f64 + 1.0 {
                self.fault(i, FaultKind::Overflow);
            }
            let ns = prod as i32;
            let (quot, rem) = (ns / 1_000_000_000, ns % 1_000_000_000);
            sec = s as i128 + quot as i128;
            nsec = (rem as f64 + (s_f - s as f64) * 1_000_000_000.0) as i64 as i128;
        }
        // __normalize_timespec: one step each way.
        if nsec < -1_000_000_000 || (sec > 0 && nsec < 0) {
            sec -= 1;
            nsec += 1_000_000_000;
        }
        if nsec > 1_000_000_000 || (sec < 0 && nsec > 0) {
            sec += 1;
            nsec -= 1_000_000_000;
        }
        let total = sec * 1_000_000_000 + nsec;
        if !s_f.is_finite() || s_f.abs() >= 9.2e18 || total < i64::MIN as i128 || total > i64::MAX as i128 {
            self.fault(i, FaultKind::Overflow);
        }
        vec![Value::Time(total as i64)]
    }

    /// AND, OR, XOR, NOT: of BOOLs, or bit by bit of bit strings.
    #[allow(unused_variables)]
    fn logic(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::And | Kind::Or | Kind::Xor if ty.is_bit_string() => {
                let bits: Vec<u64> = (0..ins.len()).map(|k| wide(k) as u64).collect();
                let v = match b.def.kind {
                    Kind::And => bits.iter().fold(u64::MAX, |a, x| a & x),
                    Kind::Or => bits.iter().fold(0, |a, x| a | x),
                    _ => bits.iter().fold(0, |a, x| a ^ x),
                };
                vec![self.typed_int(i, ty, v as i128)]
            }
            Kind::Not if ty.is_bit_string() => {
                let (_, size) = narrow_range(ty).expect("a bit string is narrow");
                vec![self.typed_int(i, ty, size - 1 - wide(0))]
            }
            Kind::And => vec![Value::Bool((0..ins.len()).all(bo))],
            Kind::Or => vec![Value::Bool((0..ins.len()).any(bo))],
            Kind::Xor => vec![Value::Bool((0..ins.len()).filter(|&k| bo(k)).count() % 2 == 1)],
            Kind::Not => vec![Value::Bool(!bo(0))],
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// EQ, NE, GT, GE, LT, LE of any two values of one type (a NaN compares as NE only).
    #[allow(unused_variables)]
    fn comparison(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::Eq | Kind::Ne | Kind::Gt | Kind::Ge | Kind::Lt | Kind::Le => {
                use std::cmp::Ordering::*;
                let ord = match (ins[0], ins[1]) {
                    (Value::Bool(a), Value::Bool(c)) => Some(a.cmp(&c)),
                    (Value::Int(a), Value::Int(c)) | (Value::Time(a), Value::Time(c)) => Some(a.cmp(&c)),
                    (Value::ULInt(a), Value::ULInt(c)) => Some(a.cmp(&c)),
                    (Value::Real(a), Value::Real(c)) => a.partial_cmp(&c),
                    (Value::Str(a), Value::Str(c)) => Some(a.as_bytes().cmp(c.as_bytes())),
                    (a, c) => panic!("reference: comparing {a:?} with {c:?}"),
                };
                let r = match (b.def.kind, ord) {
                    (_, None) => b.def.kind == Kind::Ne,
                    (Kind::Eq, Some(o)) => o == Equal,
                    (Kind::Ne, Some(o)) => o != Equal,
                    (Kind::Gt, Some(o)) => o == Greater,
                    (Kind::Ge, Some(o)) => o != Less,
                    (Kind::Lt, Some(o)) => o == Less,
                    (_, Some(o)) => o != Greater,
                };
                vec![Value::Bool(r)]
            }
            // Durations: exact nanoseconds; past ±2^63 ns wraps and is a fault, as LINT.
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// Arithmetic of every type: TIMEs exact in ns, narrow integers in their range, REALs
    /// rounded to f32, the numeric functions and the shifts.
    fn arithmetic(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        use Kind::*;
        match b.def.kind {
            Add | Sub | Min | Max | Limit if ty.is_time() => self.time_arithmetic(i, b, ty, ins),
            Add | Mul => self.add_mul(i, b, ty, ins),
            Sub | Div | Mod | Abs | Neg => self.sub_div(i, b, ty, ins),
            Min | Max | Limit => self.extremes(i, b, ty, ins),
            _ => self.functions_and_shifts(i, b, ty, ins),
        }
    }

    /// ADD, SUB, MIN, MAX, LIMIT of TIMEs: exact nanoseconds; past ±2^63 ns wraps and is a fault, as LINT.
    #[allow(unused_variables)]
    fn time_arithmetic(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::Add if ty.is_time() => {
                // Step by step in 64 bits, as LINT's ADD: an overflow on the way is one.
                let mut acc = dur(0) as i64;
                let mut over = false;
                for k in 1..ins.len() {
                    let exact = acc as i128 + dur(k);
                    over |= exact < i64::MIN as i128 || exact > i64::MAX as i128;
                    acc = exact as i64;
                }
                if over {
                    self.fault(i, FaultKind::Overflow);
                }
                vec![Value::Time(acc)]
            }
            Kind::Sub if ty.is_time() => vec![self.time_result(i, dur(0) - dur(1))],
            Kind::Min | Kind::Max | Kind::Limit if ty.is_time() => {
                let v = match b.def.kind {
                    Kind::Min => (0..ins.len()).map(dur).min(),
                    Kind::Max => (0..ins.len()).map(dur).max(),
                    // matiec's LIMIT, as for the integers.
                    _ if dur(1) <= dur(0) => Some(dur(0)),
                    _ if dur(1) >= dur(2) => Some(dur(2)),
                    _ => Some(dur(1)),
                };
                vec![Value::Time(v.unwrap_or(0) as i64)]
            }
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// ADD and MUL: narrow integers wrapped at every step, REALs in f32 as matiec folds them, the rest exactly (an overflow a fault).
    #[allow(unused_variables)]
    fn add_mul(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::Add | Kind::Mul if narrow_range(ty).is_some() => {
                let add = b.def.kind == Kind::Add;
                let mut acc = wide(0);
                for k in 1..ins.len() {
                    acc = if add { acc + wide(k) } else { acc * wide(k) };
                    // Each step within the type, so the product never leaves i128.
                    acc = self.within(ty, acc);
                }
                vec![self.typed_int(i, ty, acc)]
            }
            Kind::Add | Kind::Mul if ty == Type::Real => {
                let add = b.def.kind == Kind::Add;
                let mut acc = ro(0) as f32;
                for k in 1..ins.len() {
                    acc = if add { acc + ro(k) as f32 } else { acc * ro(k) as f32 };
                }
                vec![self.real_result(i, acc as f64)]
            }
            Kind::Add | Kind::Mul => {
                let add = b.def.kind == Kind::Add;
                if ty == Type::LInt {
                    // Exact in i128 step by step, wrapped like the 64-bit machine would.
                    let mut acc: i64 = io(0);
                    let mut over = false;
                    for k in 1..ins.len() {
                        let exact = if add { acc as i128 + io(k) as i128 } else { acc as i128 * io(k) as i128 };
                        over |= exact < i64::MIN as i128 || exact > i64::MAX as i128;
                        acc = exact as i64;
                    }
                    if over {
                        self.fault(i, FaultKind::Overflow);
                    }
                    vec![Value::Int(acc)]
                } else {
                    let mut acc = ro(0);
                    for k in 1..ins.len() {
                        acc = if add { acc + ro(k) } else { acc * ro(k) };
                    }
                    vec![self.real_result(i, acc)]
                }
            }
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// SUB, DIV, MOD, ABS, NEG.
    #[allow(unused_variables)]
    fn sub_div(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::Sub => match ty {
                Type::Real => vec![self.real_result(i, (ro(0) as f32 - ro(1) as f32) as f64)],
                t if t.is_int() => vec![self.typed_int(i, t, wide(0) - wide(1))],
                _ => vec![self.real_result(i, ro(0) - ro(1))],
            },
            Kind::Div => match ty {
                t if t.is_int() && wide(1) == 0 => {
                    self.fault(i, FaultKind::DivisionByZero);
                    vec![self.typed_int(i, t, 0)]
                }
                t if t.is_int() => vec![self.typed_int(i, t, wide(0) / wide(1))],
                _ if ro(1) == 0.0 => {
                    self.fault(i, FaultKind::DivisionByZero);
                    vec![Value::Real(0.0)]
                }
                Type::Real => vec![self.real_result(i, (ro(0) as f32 / ro(1) as f32) as f64)],
                _ => vec![self.real_result(i, ro(0) / ro(1))],
            },
            // In the block's type, an unsigned one as unsigned (i128 holds both).
            Kind::Mod => {
                if wide(1) == 0 {
                    self.fault(i, FaultKind::DivisionByZero);
                    vec![self.typed_int(i, ty, 0)]
                } else {
                    vec![self.typed_int(i, ty, wide(0) % wide(1))]
                }
            }
            Kind::Abs => match ty {
                t if t.is_int() => vec![self.typed_int(i, t, wide(0).abs())],
                _ => vec![self.real_result(i, ro(0).abs())],
            },
            Kind::Neg => match ty {
                t if t.is_int() => vec![self.typed_int(i, t, -wide(0))],
                _ => vec![self.real_result(i, -ro(0))],
            },
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// MIN, MAX and LIMIT, folded as matiec folds them.
    #[allow(unused_variables)]
    fn extremes(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::Min | Kind::Max => {
                let min = b.def.kind == Kind::Min;
                if ty.is_int() {
                    let it = (0..ins.len()).map(wide);
                    let v = if min { it.min() } else { it.max() }.unwrap_or(0);
                    vec![self.typed_int(i, ty, v)]
                } else {
                    // matiec's fold: op1 := (op1 > tmp) ? tmp : op1 for MIN, `<` for MAX; a NaN
                    // first input stays, a later one is passed over.
                    let mut acc = ro(0);
                    for k in 1..ins.len() {
                        let x = ro(k);
                        let replace = if min {
                            acc.partial_cmp(&x) == Some(std::cmp::Ordering::Greater)
                        } else {
                            acc.partial_cmp(&x) == Some(std::cmp::Ordering::Less)
                        };
                        if replace {
                            acc = x;
                        }
                    }
                    vec![self.real_result(i, acc)]
                }
            }
            // matiec's LIMIT: IN > MN ? (IN < MX ? IN : MX) : MN.
            Kind::Limit => match ty {
                t if t.is_int() => {
                    let (mn, x, mx) = (wide(0), wide(1), wide(2));
                    let v = if x <= mn {
                        mn
                    } else if x >= mx {
                        mx
                    } else {
                        x
                    };
                    vec![self.typed_int(i, ty, v)]
                }
                _ => {
                    let (mn, x, mx) = (ro(0), ro(1), ro(2));
                    // x > mn fails for a NaN x too: then mn.
                    use std::cmp::Ordering::{Greater, Less};
                    let v = if x.partial_cmp(&mn) != Some(Greater) {
                        mn
                    } else if x.partial_cmp(&mx) != Some(Less) {
                        mx
                    } else {
                        x
                    };
                    vec![self.real_result(i, v)]
                }
            },
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// The numeric functions (a REAL's result rounded to f32) and the shifts and rotations.
    #[allow(unused_variables)]
    fn functions_and_shifts(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::Sqrt
            | Kind::Ln
            | Kind::Log
            | Kind::Exp
            | Kind::Expt
            | Kind::Sin
            | Kind::Cos
            | Kind::Tan
            | Kind::Asin
            | Kind::Acos
            | Kind::Atan => {
                let v = numeric(b.def.kind, ro(0), if ins.len() > 1 { ro(1) } else { 0.0 });
                // A REAL's result: the f64 one's nearest f32 (as C computes `float f = sin(x)`).
                vec![self.real_result(i, if ty == Type::Real { v as f32 as f64 } else { v })]
            }
            Kind::Shl | Kind::Shr | Kind::Rol | Kind::Ror => {
                vec![self.typed_int(i, ty, shift(b.def.kind, ty, wide(0), io(1)))]
            }
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// FLOOR, TRUNC, FRAC, the implicit INT → REAL and the `A_TO_B` conversions.
    #[allow(unused_variables)]
    fn conversion(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::Floor => vec![self.int_of(i, ro(0).floor())],
            Kind::Trunc => vec![self.int_of(i, ro(0).trunc())],
            Kind::Frac => vec![self.real_result(i, ro(0) - ro(0).trunc())],
            Kind::IntToReal => vec![Value::Real(io(0) as f64)],
            Kind::Convert => {
                let (from, to) = fbd_model::library::conversion(b.def).expect("a conversion's types");
                vec![match (from, to) {
                    (_, Type::String) => crate::strings::to_string(ins[0], from),
                    (Type::String, _) => match crate::strings::from_string(ins[0], to) {
                        // Seconds beyond a TIME's nanoseconds: saturated, and a fault.
                        Value::Time(ns) if ns == i64::MIN || ns == i64::MAX => {
                            self.fault(i, FaultKind::Overflow);
                            Value::Time(ns)
                        }
                        Value::Int(n) if to.is_u64() => Value::ULInt(n as u64),
                        Value::Int(n) => self.typed_int(i, to, n as i128),
                        // As LREAL_TO_REAL: an overflow the rounding makes is a fault.
                        Value::Real(r) if to == Type::Real => {
                            let x = r as f32 as f64;
                            if x.is_infinite() && r.is_finite() {
                                self.fault(i, FaultKind::RealOverflow);
                            }
                            Value::Real(x)
                        }
                        v => v,
                    },
                    _ => self.convert(i, ins[0], to),
                }]
            }
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// SEL, MUX, MOVE, MEMORY, SR, RS and the edge detectors.
    #[allow(unused_variables)]
    fn selection(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value]) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::Sel => vec![if bo(0) { ins[2] } else { ins[1] }],
            Kind::Mux => {
                let k = io(0);
                let n = ins.len() as i64 - 1;
                if (0..n).contains(&k) {
                    vec![ins[k as usize + 1]]
                } else {
                    self.fault(i, FaultKind::IndexOutOfRange);
                    vec![ty.zero()]
                }
            }
            Kind::Move => vec![ins[0]],
            Kind::Memory => {
                let q = if bo(1) { ins[0] } else { self.outs[i][0] };
                vec![q, self.outs[i][1]]
            }
            Kind::Delay => unreachable!("DELAY is not evaluated"),
            Kind::Sr => vec![Value::Bool(bo(0) || (!bo(1) && self.outs[i][0].as_bool()))],
            Kind::Rs => vec![Value::Bool(!bo(1) && (bo(0) || self.outs[i][0].as_bool()))],
            Kind::RTrig | Kind::FTrig => {
                let clk = bo(0);
                let h = &mut self.hidden[i];
                let q = if b.def.kind == Kind::RTrig {
                    let q = clk && !h.m1;
                    h.m1 = clk;
                    q
                } else {
                    let q = !clk && !h.m1;
                    h.m1 = !clk;
                    q
                };
                vec![Value::Bool(q)]
            }
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// Timers, counters, NOW, SAW, RANDOM, SELECTOR.
    #[allow(unused_variables)]
    fn timers_and_sources(&mut self, i: usize, b: &NetBlock, ty: Type, ins: &[Value], now_us: u64) -> Vec<Value> {
        let a = Ins(ins);
        let (bo, io, ro, wide, dur) = (|k| a.bo(k), |k| a.io(k), |k| a.ro(k), |k| a.wide(k), |k| a.dur(k));
        match b.def.kind {
            Kind::Ton | Kind::Tof | Kind::Tp => self.timer(i, b.def.kind, bo(0), dur(1) as i64, now_us as i64 * 1000),
            Kind::Ctu | Kind::Ctd | Kind::Ctud => self.counter(i, b.def.kind, ins),
            Kind::Now => vec![Value::Int((now_us / 1000) as i64), Value::Real(now_us as f64 / 1e6)],
            Kind::Saw => {
                let (period, lo, hi) = (io(0), ro(1), ro(2));
                if period <= 0 {
                    self.fault(i, FaultKind::BadArgument);
                    vec![Value::Real(lo)]
                } else {
                    let p_us = (period as u128 * 1000).min(u64::MAX as u128) as u64;
                    let phase = (now_us % p_us) as f64 / p_us as f64;
                    vec![self.real_result(i, lo + (hi - lo) * phase)]
                }
            }
            Kind::Random => self.random(i, ins),
            Kind::Selector => {
                let sel = io(0);
                (1..=b.outputs.len() as i64).map(|k| Value::Bool(sel == k)).collect()
            }
            k => unreachable!("{k:?} is not of this family"),
        }
    }

    /// TON, TOF and TP as documented in docs/blocks.md (matiec's state machines). A negative
    /// preset counts as 0 and is a fault.
    fn timer(&mut self, i: usize, kind: Kind, input: bool, pt: i64, now: i64) -> Vec<Value> {
        // matiec's timers take a negative preset as it is; it is reported.
        if pt < 0 {
            self.fault(i, FaultKind::BadArgument);
        }
        let Value::Bool(mut q) = self.outs[i][0] else { unreachable!() };
        let Value::Time(mut et) = self.outs[i][1] else { unreachable!() };
        let h = &mut self.hidden[i];
        let rising = !h.prev_in && input;
        let falling = h.prev_in && !input;
        let elapsed_done = |h: &Hidden| h.start.saturating_add(pt) <= now;
        match kind {
            Kind::Ton => {
                if h.phase == 0 && rising {
                    h.phase = 1;
                    q = false;
                    h.start = now;
                } else if !input {
                    et = 0;
                    q = false;
                    h.phase = 0;
                } else if h.phase == 1 {
                    if elapsed_done(h) {
                        h.phase = 2;
                        q = true;
                        et = pt;
                    } else {
                        et = now - h.start;
                    }
                }
            }
            Kind::Tof => {
                if h.phase == 0 && falling {
                    h.phase = 1;
                    h.start = now;
                } else if input {
                    et = 0;
                    h.phase = 0;
                } else if h.phase == 1 {
                    if elapsed_done(h) {
                        h.phase = 2;
                        et = pt;
                    } else {
                        et = now - h.start;
                    }
                }
                q = input || h.phase == 1;
            }
            _ => {
                if h.phase == 0 && rising {
                    h.phase = 1;
                    q = true;
                    h.start = now;
                } else if h.phase == 1 {
                    if elapsed_done(h) {
                        h.phase = 2;
                        q = false;
                        et = pt;
                    } else {
                        et = now - h.start;
                    }
                }
                if h.phase == 2 && !input {
                    et = 0;
                    h.phase = 0;
                }
            }
        }
        h.prev_in = input;
        vec![Value::Bool(q), Value::Time(et)]
    }
}

/// The type a driver carries.
pub fn driver_type(net: &Netlist, d: &Driver) -> Type {
    match d {
        Driver::Const(v) => v.ty(),
        Driver::Input(i) => net.inputs[*i].ty,
        Driver::Out { block, pin } => net.blocks[*block].outputs[*pin].ty,
        Driver::Feedback { src, .. } => driver_type(net, src),
    }
}

/// An initial value as a signal of `ty` holds it: a REAL's as its nearest f32, a ULINT's as
/// a ULINT.
fn as_type(v: Value, ty: Type) -> Value {
    match v {
        Value::Real(r) if ty == Type::Real => Value::Real(r as f32 as f64),
        Value::Int(n) if ty.is_u64() => Value::ULInt(n as u64),
        Value::ULInt(u) if !ty.is_u64() && ty.is_int() => Value::Int(u as i64),
        v => v,
    }
}

/// The smallest value and the number of values of a narrow integer type (all but LINT).
fn narrow_range(ty: Type) -> Option<(i128, i128)> {
    let (lo, hi): (i128, i128) = match ty {
        Type::SInt => (-128, 127),
        Type::Int => (-32768, 32767),
        Type::DInt => (-2147483648, 2147483647),
        Type::USInt | Type::Byte => (0, 255),
        Type::UInt | Type::Word => (0, 65535),
        Type::UDInt | Type::DWord => (0, 4294967295),
        Type::ULInt | Type::LWord => (0, u64::MAX as i128),
        _ => return None,
    };
    Some((lo, hi - lo + 1))
}

/// To the nearest integer, halves to the even one (2.5 → 2, 3.5 → 4, -2.5 → -2).
fn nearest_even(r: f64) -> f64 {
    let f = r.floor();
    let d = r - f;
    if d > 0.5 || (d == 0.5 && f % 2.0 != 0.0) { f + 1.0 } else { f }
}

/// A numeric function of `x` (and `y`, EXPT's exponent) in f64.
fn numeric(kind: Kind, x: f64, y: f64) -> f64 {
    match kind {
        Kind::Sqrt => x.sqrt(),
        Kind::Ln => x.ln(),
        Kind::Log => x.log10(),
        Kind::Exp => x.exp(),
        Kind::Expt => x.powf(y),
        Kind::Sin => x.sin(),
        Kind::Cos => x.cos(),
        Kind::Tan => x.tan(),
        Kind::Asin => x.asin(),
        Kind::Acos => x.acos(),
        Kind::Atan => x.atan(),
        k => panic!("reference: {k:?} is no numeric function"),
    }
}

/// SHL, SHR, ROL or ROR of `v`, a bit string of type `ty`, by `n`, in arithmetic rather than
/// the engine's shifts.
fn shift(kind: Kind, ty: Type, v: i128, n: i64) -> i128 {
    let bits = narrow_range(ty).map_or(32, |(_, size)| size.trailing_zeros() as i64);
    let size = 1i128 << bits;
    match kind {
        Kind::Shl if (0..bits).contains(&n) => (v * (1i128 << n)) % size,
        Kind::Shr if (0..bits).contains(&n) => v / (1i128 << n),
        Kind::Shl | Kind::Shr => 0,
        // One bit at a time, the top one coming round to the bottom (or back).
        kind => {
            let mut x = v;
            for _ in 0..n.rem_euclid(bits) {
                x = if kind == Kind::Rol { (x * 2) % size + x / (size / 2) } else { x / 2 + (x % 2) * (size / 2) };
            }
            x
        }
    }
}

/// A block's input values, read as the type its pin has (a wrong one is a bug of the reference
/// or of the netlist: it panics with the value found).
struct Ins<'a>(&'a [Value]);

impl Ins<'_> {
    fn bo(&self, k: usize) -> bool {
        match self.0[k] {
            Value::Bool(x) => x,
            v => panic!("reference: BOOL expected, got {v:?}"),
        }
    }

    fn io(&self, k: usize) -> i64 {
        match self.0[k] {
            Value::Int(x) => x,
            v => panic!("reference: INT expected, got {v:?}"),
        }
    }

    fn ro(&self, k: usize) -> f64 {
        match self.0[k] {
            Value::Real(x) => x,
            v => panic!("reference: REAL expected, got {v:?}"),
        }
    }

    /// An integer input as its mathematical value (a ULINT's above 2^63 too).
    fn wide(&self, k: usize) -> i128 {
        match self.0[k] {
            Value::Int(x) => x as i128,
            Value::ULInt(u) => u as i128,
            v => panic!("reference: an integer expected, got {v:?}"),
        }
    }

    fn dur(&self, k: usize) -> i128 {
        match self.0[k] {
            Value::Time(x) => x as i128,
            v => panic!("reference: TIME expected, got {v:?}"),
        }
    }
}
