//! Instruction selection: the instruction of one block, specialised by kind, type and arity,
//! and its dispatch [`Family`], which the schedule groups by.

use super::emit::Slots;
use crate::expand;
use fbd_model::library::Kind;
use fbd_model::types::{Bank, Type, Value};
use fbd_plan::instr::{BitOp, CmpOp, Instr, MathFn, ShiftOp, StrOp, U64Bin, U64Op, truth_table};
use fbd_plan::{Commit, Slot};

/// The slots one block's instruction reads and writes.
pub(super) struct Operands<'a> {
    pub ins: &'a [Slot],
    pub outs: &'a [Slot],
    pub state: &'a [Slot],
    /// The block's resolved type variable (BOOL for non-generic blocks, where it is unused).
    pub ty: Type,
}

/// What instruction selection appends to besides the instruction itself.
pub(super) struct Emitted<'a> {
    pub slots: &'a mut Slots,
    pub args: &'a mut Vec<u32>,
    pub commits: &'a mut Vec<Commit>,
    pub rng_keys: &'a mut Vec<u64>,
}

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
    // A narrow type's ADD/SUB is AddSubI followed by a wrap: another family.
    let wide = ty.is_some_and(|t| t.width().is_none() && !t.is_u64());
    match (b.def.kind, ty.map(Type::bank)) {
        (Kind::And | Kind::Or | Kind::Xor, Some(Bank::Bool)) if two => Family::Gate,
        (Kind::Not, Some(Bank::Bool)) | (Kind::Sr | Kind::Rs, _) => Family::Gate,
        (Kind::Eq | Kind::Ne | Kind::Gt | Kind::Ge | Kind::Lt | Kind::Le, Some(Bank::Bool)) => Family::Gate,
        (Kind::Sel | Kind::Move | Kind::Memory, Some(Bank::Bool)) => Family::Gate,
        (Kind::Eq | Kind::Ne | Kind::Gt | Kind::Ge | Kind::Lt | Kind::Le, Some(Bank::Int))
            if !ty.is_some_and(Type::is_u64) =>
        {
            Family::CmpI
        }
        (Kind::Add, Some(Bank::Int)) if two && wide => Family::AddSubI,
        (Kind::Sub, Some(Bank::Int)) if wide => Family::AddSubI,
        (Kind::Sel | Kind::Move | Kind::Memory, Some(Bank::Int)) => Family::SelI,
        (k, _) => Family::Other(k, ty),
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

/// The instruction of one block, specialised by kind, type and arity; `None` for DELAY, which is
/// only an end-of-scan copy. Also returns the block's random stream index, for RANDOM. Each
/// family of kinds is chosen by a function of its own, as the executor computes them.
pub(super) fn select_instruction(
    b: &expand::NetBlock,
    ops: &Operands,
    out: &mut Emitted,
) -> (Option<Instr>, Option<u32>) {
    let (ins, outs, ty) = (ops.ins, ops.outs, ops.ty);
    if let Some(op) = string_op(b, ins, outs, ty) {
        return (Some(string_instruction(op, b.def.kind, ins, outs, out)), None);
    }
    // ULINT and the bit strings' logic first: their own instructions; the others by kind.
    let own = if ty.is_u64() { ulint_instruction(b.def.kind, ins, outs[0].idx, out.args, out.slots) } else { None };
    let own = own.or_else(|| {
        (ty.bank() == Bank::Int).then(|| bit_string_instruction(b.def.kind, ins, outs[0].idx, ty, out.args)).flatten()
    });
    if own.is_some() {
        return (own, None);
    }
    let s = Selecting { b, ops };
    let instr = match b.def.kind {
        Kind::And | Kind::Or | Kind::Xor | Kind::Not | Kind::Sr | Kind::Rs => Some(s.logic(out.args)),
        Kind::Eq | Kind::Ne | Kind::Gt | Kind::Ge | Kind::Lt | Kind::Le => Some(s.comparison()),
        Kind::Add
        | Kind::Mul
        | Kind::Min
        | Kind::Max
        | Kind::Sub
        | Kind::Div
        | Kind::Mod
        | Kind::Abs
        | Kind::Neg
        | Kind::Limit
        | Kind::Expt
        | Kind::Shl
        | Kind::Shr
        | Kind::Rol
        | Kind::Ror
        | Kind::Sqrt
        | Kind::Ln
        | Kind::Log
        | Kind::Exp
        | Kind::Sin
        | Kind::Cos
        | Kind::Tan
        | Kind::Asin
        | Kind::Acos
        | Kind::Atan => s.arithmetic(out.args),
        Kind::MulTime | Kind::DivTime => {
            let k = &ops.ins[1];
            Some(Instr::ScaleTime {
                div: b.def.kind == Kind::DivTime,
                a: ops.ins[0].idx,
                b: k.idx,
                o: outs[0].idx,
                real: k.ty.bank() == Bank::Real,
                u64: k.ty.is_u64(),
            })
        }
        Kind::Floor | Kind::Trunc | Kind::Frac | Kind::IntToReal | Kind::Convert => Some(s.conversion(out.slots)),
        Kind::Bcd => {
            use fbd_model::library::PinTy;
            let fixed = |p: PinTy| if let PinTy::Fixed(t) = p { t } else { ty };
            let (from, to) = (fixed(b.def.inputs[0].ty), fixed(b.def.outputs[0].ty));
            Some(Instr::Bcd {
                to_bcd: !from.is_bit_string(),
                a: ops.ins[0].idx,
                o: outs[0].idx,
                bits: to.width().map_or(64, |(w, _)| w as u8),
            })
        }
        Kind::Sel | Kind::Mux | Kind::Move => Some(s.selection(out)),
        Kind::Memory | Kind::Delay | Kind::RTrig | Kind::FTrig => s.memory(out),
        Kind::Ton | Kind::Tof | Kind::Tp | Kind::Ctu | Kind::Ctd | Kind::Ctud => Some(s.timer(out.args)),
        Kind::Now | Kind::Saw | Kind::Selector => Some(s.source()),
        Kind::Random => return s.random(out),
        // Every operand of these is a STRING, or its result is: `string_op` took them.
        Kind::Len
        | Kind::Left
        | Kind::Right
        | Kind::Mid
        | Kind::Concat
        | Kind::Insert
        | Kind::Delete
        | Kind::Replace
        | Kind::Find => None,
    };
    (instr, None)
}

/// One block being given its instruction: its operands and the helpers every family uses.
struct Selecting<'a> {
    b: &'a expand::NetBlock,
    ops: &'a Operands<'a>,
}

/// A gate over up to three BOOL operands (unused ones repeat `a`; the table ignores them).
fn gate(f: fn(bool, bool, bool) -> bool, a: u32, b: u32, c: u32, o: u32) -> Instr {
    Instr::Gate { t: truth_table(f), a, b, c, o }
}

impl Selecting<'_> {
    /// Input `k`'s slot index.
    fn x(&self, k: usize) -> u32 {
        self.ops.ins[k].idx
    }

    /// Output `k`'s slot index.
    fn o(&self, k: usize) -> u32 {
        self.ops.outs[k].idx
    }

    /// The bank of the block's type variable.
    fn bank(&self) -> Bank {
        self.ops.ty.bank()
    }

    /// The inputs from `from` on as an operand list appended to `args`: (start, count).
    fn list(&self, from: usize, args: &mut Vec<u32>) -> (u32, u32) {
        let ins = self.ops.ins;
        let start = args.len() as u32;
        args.extend(ins[from..].iter().map(|s| s.idx));
        (start, (ins.len() - from) as u32)
    }

    /// AND, OR, XOR (two inputs a gate, more a list), NOT, SR, RS.
    fn logic(&self, args: &mut Vec<u32>) -> Instr {
        let (x, o) = (|k| self.x(k), self.o(0));
        let two = self.ops.ins.len() == 2;
        match self.b.def.kind {
            Kind::And if two => gate(|a, b, _| a & b, x(0), x(1), x(0), o),
            Kind::Or if two => gate(|a, b, _| a | b, x(0), x(1), x(0), o),
            Kind::Xor if two => gate(|a, b, _| a ^ b, x(0), x(1), x(0), o),
            Kind::And | Kind::Or | Kind::Xor => {
                let (args, n) = self.list(0, args);
                match self.b.def.kind {
                    Kind::And => Instr::AndN { args, n, o },
                    Kind::Or => Instr::OrN { args, n, o },
                    _ => Instr::XorN { args, n, o },
                }
            }
            // Set dominant: q := s OR (NOT r AND q); reset dominant: q := NOT r AND (s OR q).
            Kind::Sr => gate(|s, r, q| s || (!r && q), x(0), x(1), o, o),
            Kind::Rs => gate(|s, r, q| !r && (s || q), x(0), x(1), o, o),
            _ => gate(|a, _, _| !a, x(0), x(0), x(0), o),
        }
    }

    /// EQ, NE, GT, GE, LT, LE by the bank of their operands.
    fn comparison(&self) -> Instr {
        let op = match self.b.def.kind {
            Kind::Eq => CmpOp::Eq,
            Kind::Ne => CmpOp::Ne,
            Kind::Gt => CmpOp::Gt,
            Kind::Ge => CmpOp::Ge,
            Kind::Lt => CmpOp::Lt,
            _ => CmpOp::Le,
        };
        let (a, b, o) = (self.x(0), self.x(1), self.o(0));
        let first = self.ops.ins[0].ty;
        match first.bank() {
            Bank::Str => unreachable!("a STRING comparison is a string instruction"),
            Bank::Int if first.is_u64() => Instr::CmpU { m: op.mask(), a, b, o },
            Bank::Bool => Instr::Gate { t: bool_cmp_table(op), a, b, c: a, o },
            Bank::Int => Instr::CmpI { m: op.mask(), a, b, o },
            Bank::Real => Instr::CmpR { op, a, b, o },
        }
    }

    /// ADD, MUL, MIN, MAX (two inputs or a list), SUB, DIV, MOD, ABS, NEG, LIMIT, EXPT, the
    /// shifts and the numeric functions.
    fn arithmetic(&self, args: &mut Vec<u32>) -> Option<Instr> {
        let (x, o, kind, int) = (|k| self.x(k), self.o(0), self.b.def.kind, self.bank() == Bank::Int);
        Some(match kind {
            Kind::Add | Kind::Mul | Kind::Min | Kind::Max => self.variadic(args),
            Kind::Sub if int => Instr::AddSubI { sub: true, a: x(0), b: x(1), o },
            Kind::Sub => Instr::SubR { a: x(0), b: x(1), o },
            Kind::Div if int => Instr::DivI { a: x(0), b: x(1), o },
            Kind::Div => Instr::DivR { a: x(0), b: x(1), o },
            Kind::Mod => Instr::ModI { a: x(0), b: x(1), o },
            Kind::Abs if int => Instr::AbsI { a: x(0), o },
            Kind::Abs => Instr::AbsR { a: x(0), o },
            Kind::Neg if int => Instr::NegI { a: x(0), o },
            Kind::Neg => Instr::NegR { a: x(0), o },
            Kind::Limit if int => Instr::LimitI { mn: x(0), a: x(1), mx: x(2), o },
            Kind::Limit => Instr::LimitR { mn: x(0), a: x(1), mx: x(2), o },
            Kind::Expt => Instr::ExptR { a: x(0), b: x(1), o },
            Kind::Shl | Kind::Shr | Kind::Rol | Kind::Ror => {
                let op = shift_op(kind)?;
                Instr::ShiftW { op, bits: bit_width(self.ops.ty), a: x(0), n: x(1), o }
            }
            _ => Instr::MathR { f: math_fn(kind)?, a: x(0), o },
        })
    }

    /// ADD, MUL, MIN, MAX: two integer or LREAL inputs a binary instruction, more a list; a
    /// REAL list folded in f32 as matiec does; a narrow integer MUL wrapped at every step.
    fn variadic(&self, args: &mut Vec<u32>) -> Instr {
        let (x, o, ty) = (|k| self.x(k), self.o(0), self.ops.ty);
        let two = self.ops.ins.len() == 2;
        let (a_, n_) = self.list(0, args);
        let f32n = ty == Type::Real && !two;
        match (self.b.def.kind, self.bank(), ty.width()) {
            (Kind::Add, Bank::Int, _) if two => Instr::AddSubI { sub: false, a: x(0), b: x(1), o },
            (Kind::Add, Bank::Real, _) if two => Instr::AddR2 { a: x(0), b: x(1), o },
            (Kind::Add, Bank::Int, _) => Instr::AddIN { args: a_, n: n_, o },
            (Kind::Add, _, _) if f32n => Instr::AddR32N { args: a_, n: n_, o },
            (Kind::Add, _, _) => Instr::AddRN { args: a_, n: n_, o },
            (Kind::Mul, Bank::Int, Some((bits, signed))) => {
                Instr::MulINw { args: a_, n: n_, o, bits: bits as u8, signed }
            }
            (Kind::Mul, Bank::Int, None) => Instr::MulIN { args: a_, n: n_, o },
            (Kind::Mul, _, _) if f32n => Instr::MulR32N { args: a_, n: n_, o },
            (Kind::Mul, _, _) => Instr::MulRN { args: a_, n: n_, o },
            (Kind::Min, Bank::Int, _) => Instr::MinIN { args: a_, n: n_, o },
            (Kind::Min, _, _) => Instr::MinRN { args: a_, n: n_, o },
            (Kind::Max, Bank::Int, _) => Instr::MaxIN { args: a_, n: n_, o },
            _ => Instr::MaxRN { args: a_, n: n_, o },
        }
    }

    /// FLOOR, TRUNC, FRAC, the implicit INT → REAL, and the `A_TO_B` conversions.
    fn conversion(&self, slots: &mut Slots) -> Instr {
        let (a, o) = (self.x(0), self.o(0));
        match self.b.def.kind {
            Kind::Floor => Instr::Floor { a, o },
            Kind::Trunc => Instr::Trunc { a, o },
            Kind::Frac => Instr::Frac { a, o },
            Kind::IntToReal => Instr::IntToReal { a, o },
            _ => conversion(self.b, a, o, slots),
        }
    }

    /// SEL, MUX, MOVE by bank (STRING ones are string instructions).
    fn selection(&self, out: &mut Emitted) -> Instr {
        let (x, o, bank) = (|k| self.x(k), self.o(0), self.bank());
        match self.b.def.kind {
            Kind::Sel => match bank {
                Bank::Bool => gate(|g, a, b| if g { b } else { a }, x(0), x(1), x(2), o),
                Bank::Int => Instr::SelI { g: x(0), a: x(1), b: x(2), o },
                Bank::Real => Instr::SelR { g: x(0), a: x(1), b: x(2), o },
                Bank::Str => unreachable!("a STRING SEL is a string instruction"),
            },
            Kind::Mux => {
                let (args, n) = self.list(1, out.args);
                match bank {
                    Bank::Bool => Instr::MuxB { k: x(0), args, n, o },
                    Bank::Int => Instr::MuxI { k: x(0), args, n, o },
                    Bank::Real => Instr::MuxR { k: x(0), args, n, o },
                    Bank::Str => unreachable!("a STRING MUX is a string instruction"),
                }
            }
            _ => match bank {
                Bank::Bool => gate(|a, _, _| a, x(0), x(0), x(0), o),
                // A select whose both inputs are the source; the guard is any BOOL slot.
                Bank::Int => Instr::SelI { g: out.slots.constant(Value::Bool(false)).idx, a: x(0), b: x(0), o },
                Bank::Real => Instr::MoveR { a: x(0), o },
                Bank::Str => unreachable!("a STRING MOVE is a string instruction"),
            },
        }
    }

    /// MEMORY (its `prev` a delayed copy), DELAY (only a delayed copy: no instruction), and
    /// the edge detectors.
    fn memory(&self, out: &mut Emitted) -> Option<Instr> {
        let (x, o, ty, st) = (|k| self.x(k), |k| self.o(k), self.ops.ty, self.ops.state);
        match self.b.def.kind {
            Kind::Memory => {
                let stage = out.slots.alloc(out.slots.init_of(self.ops.outs[1]));
                out.commits.push(Commit { ty, from: o(0), to: o(1), stage: stage.idx });
                Some(match self.bank() {
                    // q := en ? x : q.
                    Bank::Bool => gate(|en, q, x| if en { x } else { q }, x(1), o(0), x(0), o(0)),
                    Bank::Int => Instr::SelI { g: x(1), a: o(0), b: x(0), o: o(0) },
                    Bank::Real => Instr::MemR { x: x(0), en: x(1), q: o(0) },
                    Bank::Str => unreachable!("a STRING MEMORY is a string instruction"),
                })
            }
            Kind::Delay => {
                let stage = out.slots.alloc(out.slots.init_of(self.ops.outs[0]));
                out.commits.push(Commit { ty, from: x(0), to: o(0), stage: stage.idx });
                None
            }
            Kind::RTrig => Some(Instr::RTrig { clk: x(0), m: st[0].idx, q: o(0) }),
            _ => Some(Instr::FTrig { clk: x(0), m: st[0].idx, q: o(0) }),
        }
    }

    /// TON, TOF, TP, CTU, CTD, CTUD: their operands as one run in `args`.
    fn timer(&self, args: &mut Vec<u32>) -> Instr {
        let (x, o, st) = (|k| self.x(k), |k| self.o(k), self.ops.state);
        let aux = args.len() as u32;
        match self.b.def.kind {
            Kind::Ton | Kind::Tof | Kind::Tp => {
                args.extend([x(0), x(1), o(0), o(1), st[0].idx, st[1].idx, st[2].idx]);
                match self.b.def.kind {
                    Kind::Ton => Instr::Ton { aux },
                    Kind::Tof => Instr::Tof { aux },
                    _ => Instr::Tp { aux },
                }
            }
            Kind::Ctu | Kind::Ctd => {
                args.extend([x(0), x(1), x(2), o(0), o(1), st[0].idx]);
                let unsigned = self.ops.ty.is_u64();
                if self.b.def.kind == Kind::Ctu { Instr::Ctu { aux, unsigned } } else { Instr::Ctd { aux, unsigned } }
            }
            _ => {
                args.extend([x(0), x(1), x(2), x(3), x(4), o(0), o(1), o(2), st[0].idx, st[1].idx]);
                Instr::Ctud { aux, unsigned: self.ops.ty.is_u64() }
            }
        }
    }

    /// NOW, SAW, SELECTOR.
    fn source(&self) -> Instr {
        let (x, o) = (|k| self.x(k), |k| self.o(k));
        match self.b.def.kind {
            Kind::Now => Instr::Now { ms: o(0), s: o(1) },
            Kind::Saw => Instr::Saw { period: x(0), lo: x(1), hi: x(2), o: o(0) },
            _ => {
                let outs = self.ops.outs;
                Instr::Selector { sel: x(0), first: outs.first().map(|s| s.idx).unwrap_or(0), n: outs.len() as u32 }
            }
        }
    }

    /// RANDOM: its stream keyed by its path and `params.seed`; returns the stream's index too.
    fn random(&self, out: &mut Emitted) -> (Option<Instr>, Option<u32>) {
        let key = fbd_plan::random::random_key(&self.b.path, self.b.params().seed);
        out.rng_keys.push(key);
        let rng = out.rng_keys.len() as u32 - 1;
        let aux = out.args.len() as u32;
        out.args.extend([rng, self.x(0), self.x(1), self.x(2), self.o(0), self.o(1)]);
        (Some(Instr::Random { aux }), Some(rng))
    }
}

/// The string operation of a block that has a STRING operand (its type variable, a fixed
/// pin, a conversion's end), or `None`.
fn string_op(b: &expand::NetBlock, ins: &[Slot], outs: &[Slot], ty: Type) -> Option<StrOp> {
    let any_string = ty == Type::String || ins.iter().chain(outs).any(|s| s.ty == Type::String);
    if !any_string {
        return None;
    }
    Some(match b.def.kind {
        Kind::Concat => StrOp::Concat,
        Kind::Left => StrOp::Left,
        Kind::Right => StrOp::Right,
        Kind::Mid => StrOp::Mid,
        Kind::Insert => StrOp::Insert,
        Kind::Delete => StrOp::Delete,
        Kind::Replace => StrOp::Replace,
        Kind::Find => StrOp::Find,
        Kind::Len => StrOp::Len,
        Kind::Eq => StrOp::Cmp(CmpOp::Eq.mask()),
        Kind::Ne => StrOp::Cmp(CmpOp::Ne.mask()),
        Kind::Gt => StrOp::Cmp(CmpOp::Gt.mask()),
        Kind::Ge => StrOp::Cmp(CmpOp::Ge.mask()),
        Kind::Lt => StrOp::Cmp(CmpOp::Lt.mask()),
        Kind::Le => StrOp::Cmp(CmpOp::Le.mask()),
        Kind::Sel => StrOp::Sel,
        Kind::Mux => StrOp::Mux,
        Kind::Move => StrOp::Move,
        Kind::Memory => StrOp::Memory,
        Kind::Min => StrOp::Min,
        Kind::Max => StrOp::Max,
        Kind::Limit => StrOp::Limit,
        Kind::Convert => match fbd_model::library::conversion(b.def)? {
            (from, Type::String) => StrOp::ToString(from),
            (Type::String, to) => StrOp::FromString(to),
            _ => return None,
        },
        _ => return None,
    })
}

/// The instruction of a block with a STRING operand: its operands listed in `args`.
fn string_instruction(op: StrOp, kind: Kind, ins: &[Slot], outs: &[Slot], out: &mut Emitted) -> Instr {
    let start = out.args.len() as u32;
    out.args.extend(ins.iter().map(|s| s.idx));
    if kind == Kind::Memory {
        let stage = out.slots.alloc(out.slots.init_of(outs[1]));
        out.commits.push(Commit { ty: Type::String, from: outs[0].idx, to: outs[1].idx, stage: stage.idx });
    }
    Instr::Str { op, args: start, n: ins.len() as u32, o: outs[0].idx }
}

/// What follows a block's instruction when its type is narrower than the 64 bits the
/// instruction computes in: a wrap of an INT, DINT, UINT... result into its range, a rounding
/// of a REAL result to an f32. Only arithmetic needs it: a selection, a comparison, a MIN or a
/// LIMIT of values already in range is in range; ABS and NEG of an f32 are exact.
pub(super) fn post_instruction(b: &expand::NetBlock, ty: Type, outs: &[Slot]) -> Option<Instr> {
    let o = outs.first()?.idx;
    let two = b.inputs.len() == 2;
    // A conversion into a narrow integer wraps; into REAL from LREAL rounds.
    if let Some((from, to)) = fbd_model::library::conversion(b.def) {
        return match (from.bank(), to.width()) {
            (Bank::Int | Bank::Real | Bank::Str, Some((bits, signed))) => {
                Some(Instr::WrapI { o, bits: bits as u8, signed })
            }
            (Bank::Real | Bank::Str, None) if to == Type::Real => Some(Instr::RoundR32 { o }),
            // matiec's TIME_TO_REAL: the double of the seconds, then a float of it.
            (Bank::Int, None) if to == Type::Real && from.is_time() => Some(Instr::RoundR32 { o }),
            // BOOL_TO_TIME: the 0 or 1 just written, as whole seconds (matiec's __int_to_time).
            (Bank::Bool, _) if to.is_time() => Some(Instr::IntToTime { a: o, o }),
            _ => None,
        };
    }
    match (b.def.kind, ty.width()) {
        // MUL of narrow integers wraps each step itself (MulINw).
        (Kind::Add | Kind::Sub | Kind::Div | Kind::Abs | Kind::Neg, Some((bits, signed))) => {
            Some(Instr::WrapI { o, bits: bits as u8, signed })
        }
        (Kind::Mul, Some(_)) => None,
        (k, None) if ty == Type::Real && (math_fn(k).is_some() || k == Kind::Expt) => Some(Instr::RoundR32 { o }),
        (Kind::Add | Kind::Mul, None) if ty == Type::Real && two => Some(Instr::RoundR32 { o }),
        (Kind::Sub | Kind::Div, None) if ty == Type::Real => Some(Instr::RoundR32 { o }),
        _ => None,
    }
}

/// The numeric function a block kind computes (EXPT, of two inputs, has its own instruction).
fn math_fn(kind: Kind) -> Option<MathFn> {
    Some(match kind {
        Kind::Sqrt => MathFn::Sqrt,
        Kind::Ln => MathFn::Ln,
        Kind::Log => MathFn::Log,
        Kind::Exp => MathFn::Exp,
        Kind::Sin => MathFn::Sin,
        Kind::Cos => MathFn::Cos,
        Kind::Tan => MathFn::Tan,
        Kind::Asin => MathFn::Asin,
        Kind::Acos => MathFn::Acos,
        Kind::Atan => MathFn::Atan,
        _ => return None,
    })
}

/// A ULINT block's instruction (unsigned, wrapping, as its C computes it: LINT's compare
/// signed and report a signed overflow), or `None` for a kind whose LINT instruction serves.
fn ulint_instruction(kind: Kind, ins: &[Slot], o: u32, args: &mut Vec<u32>, slots: &mut Slots) -> Option<Instr> {
    let x = |k: usize| ins[k].idx;
    let n_ary = |op, args: &mut Vec<u32>| {
        let start = args.len() as u32;
        args.extend(ins.iter().map(|s| s.idx));
        Instr::U64N { op, args: start, n: ins.len() as u32, o }
    };
    Some(match kind {
        Kind::Add => n_ary(U64Op::Add, args),
        Kind::Mul => n_ary(U64Op::Mul, args),
        Kind::Min => n_ary(U64Op::Min, args),
        Kind::Max => n_ary(U64Op::Max, args),
        Kind::Sub => Instr::U64Bin { op: U64Bin::Sub, a: x(0), b: x(1), o },
        Kind::Div => Instr::U64Bin { op: U64Bin::Div, a: x(0), b: x(1), o },
        Kind::Mod => Instr::U64Bin { op: U64Bin::Mod, a: x(0), b: x(1), o },
        Kind::Neg => Instr::U64Bin { op: U64Bin::Sub, a: slots.constant(Value::ULInt(0)).idx, b: x(0), o },
        Kind::Abs => Instr::SelI { g: slots.constant(Value::Bool(false)).idx, a: x(0), b: x(0), o },
        Kind::Limit => Instr::LimitU { mn: x(0), a: x(1), mx: x(2), o },
        _ => return None,
    })
}

/// AND, OR, XOR or NOT of bit strings (an integer bank's), bit by bit; `None` for other kinds.
fn bit_string_instruction(kind: Kind, ins: &[Slot], o: u32, ty: Type, args: &mut Vec<u32>) -> Option<Instr> {
    let op = match kind {
        Kind::Not => return Some(Instr::NotW { a: ins[0].idx, o, bits: bit_width(ty) }),
        Kind::And => BitOp::And,
        Kind::Or => BitOp::Or,
        Kind::Xor => BitOp::Xor,
        _ => return None,
    };
    let start = args.len() as u32;
    args.extend(ins.iter().map(|s| s.idx));
    Some(Instr::BitsN { op, args: start, n: ins.len() as u32, o })
}

/// The bits of a bit string type (64 for LWORD).
fn bit_width(ty: Type) -> u8 {
    ty.width().map_or(64, |(bits, _)| bits as u8)
}

/// The shift or rotation a block kind does.
fn shift_op(kind: Kind) -> Option<ShiftOp> {
    Some(match kind {
        Kind::Shl => ShiftOp::Shl,
        Kind::Shr => ShiftOp::Shr,
        Kind::Rol => ShiftOp::Rol,
        Kind::Ror => ShiftOp::Ror,
        _ => return None,
    })
}

/// The instruction of an `A_TO_B` conversion from slot `a` into slot `o` (a narrow or REAL
/// result is brought into its type by [`post_instruction`]).
fn conversion(b: &expand::NetBlock, a: u32, o: u32, slots: &mut Slots) -> Instr {
    let (from, to) = fbd_model::library::conversion(b.def).unwrap_or((Type::LInt, Type::LInt));
    match (from.bank(), to.bank()) {
        (Bank::Str, _) | (_, Bank::Str) => unreachable!("a STRING conversion is a string instruction"),
        (Bank::Bool, Bank::Bool) => Instr::Gate { t: truth_table(|a, _, _| a), a, b: a, c: a, o },
        (Bank::Bool, _) => Instr::BoolToNum { a, o, real: to.is_real() },
        (Bank::Int, Bank::Bool) => Instr::CmpI { m: CmpOp::Ne.mask(), a, b: slots.constant(Value::Int(0)).idx, o },
        (Bank::Real, Bank::Bool) => Instr::CmpR { op: CmpOp::Ne, a, b: slots.constant(Value::Real(0.0)).idx, o },
        (Bank::Int, Bank::Int) if to.is_time() && !from.is_time() => Instr::IntToTime { a, o },
        (Bank::Int, Bank::Int) if from.is_time() && !to.is_time() => Instr::TimeToInt { a, o },
        (Bank::Real, Bank::Int) if to.is_time() => Instr::RealToTime { a, o },
        (Bank::Int, Bank::Real) if from.is_time() => Instr::TimeToReal { a, o },
        (Bank::Int, Bank::Real) if from.is_u64() => Instr::U64ToReal { a, o, r32: to == Type::Real },
        // A move: a select whose both inputs are the source.
        (Bank::Int, Bank::Int) => Instr::SelI { g: slots.constant(Value::Bool(false)).idx, a, b: a, o },
        (Bank::Int, Bank::Real) if to == Type::Real => Instr::IntToR32 { a, o },
        (Bank::Int, Bank::Real) => Instr::IntToReal { a, o },
        (Bank::Real, Bank::Int) => {
            Instr::RealToIntEven { a, o, unsigned: to.int_range().is_some_and(|r| r.0 == 0), u64: to.is_u64() }
        }
        (Bank::Real, Bank::Real) => Instr::MoveR { a, o },
    }
}
