//! The instruction set: what the compiler emits and the executor runs. Slot operands are
//! resolved at compile time. Common blocks of different kinds share an instruction where that
//! costs nothing (a gate is a truth table, a comparison a mask, a move a select): a program
//! whose blocks alternate kinds then alternates fewer instructions, and each change of
//! instruction is a dispatch the CPU may mispredict (see the synthetic `chain` benchmark).

/// Comparison operator of a `Cmp*` instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum CmpOp {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

impl CmpOp {
    /// The comparison of `a` with `b`.
    #[inline(always)]
    pub fn apply<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
        }
    }

    /// The operator as a mask over the three outcomes of comparing two integers: bit 0 when
    /// `a < b`, bit 1 when `a == b`, bit 2 when `a > b` (see [`Instr::CmpI`]).
    pub const fn mask(self) -> u8 {
        match self {
            CmpOp::Eq => 0b010,
            CmpOp::Ne => 0b101,
            CmpOp::Gt => 0b100,
            CmpOp::Ge => 0b110,
            CmpOp::Lt => 0b001,
            CmpOp::Le => 0b011,
        }
    }

    /// The comparison whose [`CmpOp::mask`] is `m`.
    pub fn from_mask(m: u8) -> Option<CmpOp> {
        [CmpOp::Eq, CmpOp::Ne, CmpOp::Gt, CmpOp::Ge, CmpOp::Lt, CmpOp::Le].into_iter().find(|op| op.mask() == m)
    }
}

/// A bitwise operation on bit strings ([`Instr::BitsN`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BitOp {
    And,
    Or,
    Xor,
}

impl BitOp {
    /// The operation on two bit strings.
    #[inline(always)]
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            BitOp::And => a & b,
            BitOp::Or => a | b,
            BitOp::Xor => a ^ b,
        }
    }
}

/// Which shift a [`Instr::ShiftW`] does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ShiftOp {
    Shl,
    Shr,
    Rol,
    Ror,
}

impl ShiftOp {
    /// `v` (a value of `bits` bits, zero-extended) shifted or rotated by `n`.
    #[inline(always)]
    pub fn apply(self, v: i64, n: i64, bits: u32) -> i64 {
        // On the unsigned bits: an LWORD's top bit shifts right as a zero.
        let mask = width_mask(bits) as u64;
        let x = v as u64 & mask;
        let r = match self {
            ShiftOp::Shl if (0..bits as i64).contains(&n) => (x << n) & mask,
            ShiftOp::Shr if (0..bits as i64).contains(&n) => x >> n,
            ShiftOp::Shl | ShiftOp::Shr => 0,
            ShiftOp::Rol | ShiftOp::Ror => {
                let k = n.rem_euclid(bits as i64) as u32;
                let k = if self == ShiftOp::Ror { (bits - k) % bits } else { k };
                if k == 0 { x } else { ((x << k) | (x >> (bits - k))) & mask }
            }
        };
        r as i64
    }
}

/// The bits of a `bits`-wide value set: `0xFF` for 8, every bit for 64.
#[inline(always)]
pub fn width_mask(bits: u32) -> i64 {
    if bits >= 64 { -1 } else { (1i64 << bits) - 1 }
}

/// The two-operand ULINT operations of [`Instr::U64Bin`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum U64Bin {
    Sub,
    Div,
    Mod,
}

/// What a [`Instr::U64N`] computes over its operands, as unsigned 64-bit C arithmetic does
/// (wrapping, no fault).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum U64Op {
    Add,
    Mul,
    Min,
    Max,
}

impl U64Op {
    /// The operation on two values.
    #[inline(always)]
    pub fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            U64Op::Add => a.wrapping_add(b),
            U64Op::Mul => a.wrapping_mul(b),
            U64Op::Min => a.min(b),
            U64Op::Max => a.max(b),
        }
    }
}

/// Which numeric function a [`Instr::MathR`] computes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MathFn {
    Sqrt,
    Ln,
    Log,
    Exp,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
}

impl MathFn {
    /// The function applied to `x`.
    #[inline(always)]
    pub fn apply(self, x: f64) -> f64 {
        match self {
            MathFn::Sqrt => x.sqrt(),
            MathFn::Ln => x.ln(),
            MathFn::Log => x.log10(),
            MathFn::Exp => x.exp(),
            MathFn::Sin => x.sin(),
            MathFn::Cos => x.cos(),
            MathFn::Tan => x.tan(),
            MathFn::Asin => x.asin(),
            MathFn::Acos => x.acos(),
            MathFn::Atan => x.atan(),
        }
    }
}

/// The truth table of a boolean function of three inputs for [`Instr::Gate`]: bit `k` is
/// `f(a, b, c)` where `a` is bit 0 of `k`, `b` bit 1 and `c` bit 2.
pub fn truth_table(f: fn(bool, bool, bool) -> bool) -> u8 {
    let mut t = 0u8;
    let mut k = 0;
    while k < 8 {
        if f(k & 1 != 0, k & 2 != 0, k & 4 != 0) {
            t |= 1 << k;
        }
        k += 1;
    }
    t
}

/// One instruction. Field names are slot indices into the array of the instruction's type
/// (`a`, `b`: operands, `o`: result); `args`/`n` index the plan's operand list for n-ary blocks.
/// What a [`Instr::Str`] computes: every block with a STRING operand, one family (strings
/// are copied 127 bytes at a time; dispatch is not what their cost is).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum StrOp {
    /// Operands: in1..inN.
    Concat,
    /// in, l.
    Left,
    /// in, l.
    Right,
    /// in, l, p.
    Mid,
    /// in1, in2, p.
    Insert,
    /// in, l, p.
    Delete,
    /// in1, in2, l, p.
    Replace,
    /// in1, in2; an INT result.
    Find,
    /// in; an INT result.
    Len,
    /// a, b; a BOOL result: the [`CmpOp::mask`] of the comparison.
    Cmp(u8),
    /// g, in0, in1.
    Sel,
    /// k, in0..inN.
    Mux,
    /// in.
    Move,
    /// in, en; the result is also read (q := en ? in : q).
    Memory,
    /// in1..inN.
    Min,
    /// in1..inN.
    Max,
    /// mn, in, mx.
    Limit,
    /// in, of the type given; a STRING result.
    ToString(fbd_model::types::Type),
    /// in; a result of the type given (before its wrap or rounding).
    FromString(fbd_model::types::Type),
}

#[allow(missing_docs)]
#[derive(Copy, Clone, Debug)]
pub enum Instr {
    /// A block with a STRING operand: `args[..n]` are its operands' slot indices (each in its
    /// own bank), `o` the result's.
    Str {
        op: StrOp,
        args: u32,
        n: u32,
        o: u32,
    },
    /// AND, OR or XOR of `n` bit strings (BYTE, WORD, DWORD), bit by bit.
    BitsN {
        op: BitOp,
        args: u32,
        n: u32,
        o: u32,
    },
    /// ADD, MUL, MIN or MAX of `n` ULINTs (or LWORDs), unsigned, wrapping.
    U64N {
        op: U64Op,
        args: u32,
        n: u32,
        o: u32,
    },
    /// a - b (wrapping), a / b or a MOD b of ULINTs, unsigned; by zero 0 and a fault.
    U64Bin {
        op: U64Bin,
        a: u32,
        b: u32,
        o: u32,
    },
    /// A comparison of two ULINTs (or LWORDs), unsigned (`m` as for [`Instr::CmpI`]).
    CmpU {
        m: u8,
        a: u32,
        b: u32,
        o: u32,
    },
    /// matiec's LIMIT on ULINTs, unsigned.
    LimitU {
        mn: u32,
        a: u32,
        mx: u32,
        o: u32,
    },
    /// A ULINT to the nearest float (one rounding: to REAL with `r32`).
    U64ToReal {
        a: u32,
        o: u32,
        r32: bool,
    },
    /// NOT of a bit string of `bits` bits: every bit of the type inverted.
    NotW {
        a: u32,
        o: u32,
        bits: u8,
    },
    AndN {
        args: u32,
        n: u32,
        o: u32,
    },
    OrN {
        args: u32,
        n: u32,
        o: u32,
    },
    XorN {
        args: u32,
        n: u32,
        o: u32,
    },
    /// `o := (a ? b)` for the comparison whose [`CmpOp::mask`] is `m`: EQ, NE, GT, GE, LT and
    /// LE of integers are one instruction, computed without a branch on the operator.
    CmpI {
        m: u8,
        a: u32,
        b: u32,
        o: u32,
    },
    /// `o := t[a | b << 1 | c << 2]` (BOOL slots; `t` from [`truth_table`]): every boolean
    /// function of up to three inputs is one instruction: AND and OR of two, NOT, XOR of two,
    /// comparisons of BOOLs, SEL and MOVE of BOOLs, a BOOL MEMORY (`c` = `o` = q), SR and RS.
    /// Programs are mostly such gates; one kind of instruction for all of them keeps the
    /// executor's dispatch predictable where gates of different kinds alternate.
    Gate {
        t: u8,
        a: u32,
        b: u32,
        c: u32,
        o: u32,
    },
    /// `o := a + b`, or `a - b` when `sub` (INT, overflow is a fault): ADD of two and SUB as
    /// one instruction, for the same reason as [`Instr::Gate`].
    AddSubI {
        sub: bool,
        a: u32,
        b: u32,
        o: u32,
    },
    CmpR {
        op: CmpOp,
        a: u32,
        b: u32,
        o: u32,
    },
    /// INT equality, the most common comparison, without the operator dispatch.
    /// INT inequality.
    AddIN {
        args: u32,
        n: u32,
        o: u32,
    },
    MulIN {
        args: u32,
        n: u32,
        o: u32,
    },
    DivI {
        a: u32,
        b: u32,
        o: u32,
    },
    ModI {
        a: u32,
        b: u32,
        o: u32,
    },
    AbsI {
        a: u32,
        o: u32,
    },
    NegI {
        a: u32,
        o: u32,
    },
    MinIN {
        args: u32,
        n: u32,
        o: u32,
    },
    MaxIN {
        args: u32,
        n: u32,
        o: u32,
    },
    LimitI {
        mn: u32,
        a: u32,
        mx: u32,
        o: u32,
    },
    AddR2 {
        a: u32,
        b: u32,
        o: u32,
    },
    AddRN {
        args: u32,
        n: u32,
        o: u32,
    },
    SubR {
        a: u32,
        b: u32,
        o: u32,
    },
    MulRN {
        args: u32,
        n: u32,
        o: u32,
    },
    DivR {
        a: u32,
        b: u32,
        o: u32,
    },
    AbsR {
        a: u32,
        o: u32,
    },
    NegR {
        a: u32,
        o: u32,
    },
    MinRN {
        args: u32,
        n: u32,
        o: u32,
    },
    MaxRN {
        args: u32,
        n: u32,
        o: u32,
    },
    LimitR {
        mn: u32,
        a: u32,
        mx: u32,
        o: u32,
    },
    Floor {
        a: u32,
        o: u32,
    },
    Trunc {
        a: u32,
        o: u32,
    },
    Frac {
        a: u32,
        o: u32,
    },
    IntToReal {
        a: u32,
        o: u32,
    },
    /// `o := g ? b : a` (INT; `g` a BOOL slot): also MOVE (`a` = `b`) and MEMORY (`a` = `o` =
    /// q, `b` = x, `g` = en), so a run of selects, moves and memories dispatches once.
    SelI {
        g: u32,
        a: u32,
        b: u32,
        o: u32,
    },
    SelR {
        g: u32,
        a: u32,
        b: u32,
        o: u32,
    },
    MuxB {
        k: u32,
        args: u32,
        n: u32,
        o: u32,
    },
    MuxI {
        k: u32,
        args: u32,
        n: u32,
        o: u32,
    },
    MuxR {
        k: u32,
        args: u32,
        n: u32,
        o: u32,
    },
    MoveR {
        a: u32,
        o: u32,
    },
    MemR {
        x: u32,
        en: u32,
        q: u32,
    },
    RTrig {
        clk: u32,
        m: u32,
        q: u32,
    },
    FTrig {
        clk: u32,
        m: u32,
        q: u32,
    },
    /// Timers: operands in `args[aux..aux + 7]`: in, pt (INT ms), q, et, state (INT),
    /// start (INT), prev_in (BOOL). Rare blocks keep their operands out of line so that every
    /// instruction fits in 20 bytes.
    Ton {
        aux: u32,
    },
    Tof {
        aux: u32,
    },
    Tp {
        aux: u32,
    },
    /// Operands in `args[aux..aux + 6]`: cu, r, pv, q, cv, m.
    /// `unsigned`: a ULINT counter, whose values compare as unsigned.
    Ctu {
        aux: u32,
        unsigned: bool,
    },
    /// Operands in `args[aux..aux + 6]`: cd, ld, pv, q, cv, m.
    Ctd {
        aux: u32,
        unsigned: bool,
    },
    /// Operands in `args[aux..aux + 10]`: cu cd r ld pv qu qd cv mu md.
    Ctud {
        aux: u32,
        unsigned: bool,
    },
    Now {
        ms: u32,
        s: u32,
    },
    /// A narrow integer result wrapped into its type's range (two's complement of `bits`,
    /// sign-extended or zero-extended), after the 64-bit instruction that computed it: what a
    /// PLC's INT, DINT, UINT... arithmetic gives.
    WrapI {
        o: u32,
        bits: u8,
        signed: bool,
    },
    /// A REAL (f32) result rounded to the nearest f32 after the 64-bit float instruction that
    /// computed it (exact for +, -, *, /: an f64 result rounded once is the f32 operation's).
    RoundR32 {
        o: u32,
    },
    /// Product of `n` narrow integers, each step wrapped to `bits` (no 64-bit overflow).
    MulINw {
        args: u32,
        n: u32,
        o: u32,
        bits: u8,
        signed: bool,
    },
    /// A numeric function of a float (SQRT, LN, LOG, EXP, SIN...), in f64 as C's libm computes
    /// it; a RoundR32 after it for a REAL.
    MathR {
        f: MathFn,
        a: u32,
        o: u32,
    },
    /// A shift or rotation of a bit string of `bits` bits (SHL, SHR, ROL, ROR) by `n`.
    ShiftW {
        op: ShiftOp,
        bits: u8,
        a: u32,
        n: u32,
        o: u32,
    },
    /// in1 to the power in2 (C's pow).
    ExptR {
        a: u32,
        b: u32,
        o: u32,
    },
    /// An integer to the nearest f32 (one rounding, not two through f64).
    IntToR32 {
        a: u32,
        o: u32,
    },
    /// A float to an integer as matiec converts it: to nearest, halves to even; with
    /// `unsigned`, a negative value gives 0; with `u64` (ULINT, LWORD), 2^63..2^64 is the
    /// value's bits. Wrapped into the target type by a WrapI after it.
    RealToIntEven {
        a: u32,
        o: u32,
        unsigned: bool,
        u64: bool,
    },
    /// An integer as a TIME of that many seconds (matiec's reading of INT_TO_TIME); beyond a
    /// TIME's ±292 years saturates and is reported.
    IntToTime {
        a: u32,
        o: u32,
    },
    /// A float as a TIME of that many seconds, as matiec computes it: the whole seconds, plus
    /// the fraction's nanoseconds truncated.
    RealToTime {
        a: u32,
        o: u32,
    },
    /// A TIME's whole seconds (toward zero; matiec's TIME_TO_INT). Wrapped into the target
    /// type by a WrapI after it.
    TimeToInt {
        a: u32,
        o: u32,
    },
    /// A TIME in seconds as a float (seconds plus nanoseconds / 1e9, as matiec adds them).
    TimeToReal {
        a: u32,
        o: u32,
    },
    /// BOOL to 0 or 1 in an integer or float slot.
    BoolToNum {
        a: u32,
        o: u32,
        real: bool,
    },
    /// Sum of `n` REALs, each step rounded to an f32 (as an f32 PLC adds them pairwise).
    AddR32N {
        args: u32,
        n: u32,
        o: u32,
    },
    /// Product of `n` REALs, each step rounded to an f32.
    MulR32N {
        args: u32,
        n: u32,
        o: u32,
    },
    Saw {
        period: u32,
        lo: u32,
        hi: u32,
        o: u32,
    },
    /// Operands in `args[aux..aux + 6]`: rng, en, lo, hi, x, n.
    Random {
        aux: u32,
    },
    Selector {
        sel: u32,
        first: u32,
        n: u32,
    },
    /// A TIME (integer slot `a`, ns) multiplied (`div`: divided) by the number in slot `b`
    /// of bank `real` (else an integer slot, `u64`: a ULINT), as matiec's MUL/DIV of a TIME.
    ScaleTime {
        div: bool,
        a: u32,
        b: u32,
        o: u32,
        real: bool,
        u64: bool,
    },
    /// An unsigned integer to BCD digits (`to_bcd`), or BCD digits to one, cut to `bits`
    /// (64: all), as matiec's `__uint_to_bcd` / `__bcd_to_uint` and their C casts.
    Bcd {
        to_bcd: bool,
        a: u32,
        o: u32,
        bits: u8,
    },
    /// Skips the next `n` instructions when BOOL slot `g` is FALSE: the instructions of a
    /// block whose EN is FALSE, which is not called (its outputs and state keep their values,
    /// its timers see the clock again when it is called next), as IEC 61131-3 and matiec have
    /// it. A block under several ENs (an instance in a gated instance) has one per EN.
    SkipUnless {
        g: u32,
        n: u32,
    },
    /// Goes back `n` instructions, to the head of a loop (an ST WHILE, REPEAT or FOR): its
    /// next iteration. The head's test leaves the loop with a [`Instr::SkipUnless`] over it.
    /// Each jump counts `n` instructions against the scan's watchdog budget
    /// (`ScanPlan::loop_budget`): a scan over it stops its task with a watchdog fault.
    LoopBack {
        n: u32,
    },
}

impl Instr {
    /// The variant's name (`Gate`, `MulI`, ...), for messages about instructions a backend
    /// (C, Structured Text) does not support.
    pub fn name(&self) -> String {
        let debug = format!("{self:?}");
        debug.split([' ', '{', '(']).next().unwrap_or("?").to_string()
    }
}

// Keep instructions small: the plan is streamed through the cache every scan.
const _: () = assert!(std::mem::size_of::<Instr>() <= 20);
