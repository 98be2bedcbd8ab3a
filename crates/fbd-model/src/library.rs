//! The block library: every primitive block type, defined once.
//!
//! A [`BlockDef`] gives the pins, their types, what is generic, which outputs carry the previous
//! scan's value, and the documentation. The compiler, the debugger's pin names, `fbd blocks` and
//! `docs/blocks.md` all read this table; the executor implements the semantics in `exec`.

use crate::types::{Type, Value};

/// Which primitive a block is. One variant per library entry.
#[allow(missing_docs)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    And,
    Or,
    Xor,
    Not,
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
    Add,
    Sub,
    Mul,
    Div,
    MulTime,
    DivTime,
    Mod,
    Abs,
    Neg,
    Min,
    Max,
    Limit,
    Floor,
    Trunc,
    Frac,
    Sqrt,
    Ln,
    Log,
    Exp,
    Expt,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Shl,
    Shr,
    Rol,
    Ror,
    Len,
    Left,
    Right,
    Mid,
    Concat,
    Insert,
    Delete,
    Replace,
    Find,
    IntToReal,
    /// `A_TO_B`: the IEC conversions between the elementary types ([`conversion`]).
    Convert,
    /// BCD_TO_* and *_TO_BCD: a bit string of BCD digits and an unsigned integer.
    Bcd,
    Sel,
    Mux,
    Move,
    Memory,
    Delay,
    Sr,
    Rs,
    RTrig,
    FTrig,
    Ton,
    Tof,
    Tp,
    Ctu,
    Ctd,
    Ctud,
    Now,
    Saw,
    Random,
    Selector,
}

/// The type of a pin: fixed, or the block's type variable `T`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PinTy {
    /// Always this type.
    Fixed(Type),
    /// The block's type variable, fixed by the wiring or `data_type`.
    T,
}

/// What the type variable `T` of a generic block may be.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Generic {
    /// The block has no type variable.
    No,
    /// A number: an integer type (not a bit string) or REAL, LREAL (IEC's ANY_NUM).
    Num,
    /// A number or a duration (IEC's ANY_MAGNITUDE: ADD, SUB).
    Magnitude,
    /// A number, a duration or a STRING: what MIN, MAX and LIMIT order (matiec has them for
    /// each).
    Ordered,
    /// An integer type, not a bit string (IEC's ANY_INT: the counters).
    Int,
    /// REAL or LREAL (IEC's ANY_REAL: the numeric functions).
    Real,
    /// A bit string: BYTE, WORD, DWORD (the shifts and rotations).
    Bits,
    /// An integer type, SINT to ULINT (IEC's ANY_INT with ULINT: MOD; matiec has no MOD of a
    /// bit string).
    Integer,
    /// BOOL or a bit string (IEC's ANY_BIT: AND, OR, XOR, NOT).
    Logic,
    /// Any elementary type (BOOL, the integers and bit strings, the floats, TIME, STRING).
    Any,
}

impl Generic {
    /// What the constraint admits, in words (for an error).
    pub fn describe(self) -> &'static str {
        match self {
            Generic::No => "its fixed types",
            Generic::Num => "numbers",
            Generic::Magnitude => "numbers and durations",
            Generic::Ordered => "numbers, bit strings, durations and STRING",
            Generic::Int => "integers",
            Generic::Real => "REAL and LREAL",
            Generic::Bits => "bit strings (BYTE, WORD, DWORD)",
            Generic::Integer => "integer types (SINT to ULINT)",
            Generic::Logic => "BOOL and bit strings (BYTE, WORD, DWORD)",
            Generic::Any => "every type",
        }
    }

    /// Whether `t` satisfies the constraint.
    pub fn admits(self, t: Type) -> bool {
        match self {
            Generic::No => false,
            Generic::Num => t.is_int() && !t.is_bit_string() || t.is_real(),
            Generic::Magnitude => t.is_int() && !t.is_bit_string() || t.is_real() || t.is_time(),
            // matiec has MIN, MAX and LIMIT of every elementary type but BOOL: bit strings too.
            Generic::Ordered => Generic::Magnitude.admits(t) || t == Type::String || t.is_bit_string(),
            // The counters: matiec has them of every integer type, ULINT (CTU_ULINT) too.
            Generic::Int => t.is_int() && !t.is_bit_string() && !t.is_time(),
            Generic::Real => t.is_real(),
            Generic::Bits => t.is_bit_string(),
            Generic::Integer => t.is_int() && !t.is_time() && !t.is_bit_string(),
            Generic::Logic => t == Type::Bool || t.is_bit_string(),
            Generic::Any => true,
        }
    }
}

/// One pin of a block.
#[derive(Copy, Clone, Debug)]
pub struct PinDef {
    /// Lower-case IEC name (`in`, `pt`, `q`, `et`, ...).
    pub name: &'static str,
    /// Its type.
    pub ty: PinTy,
    /// For inputs: the value when left unconnected; `None` makes the pin required.
    pub default: Option<Value>,
    /// For outputs: carries the previous scan's value, so a loop through it is legal.
    pub delayed: bool,
}

/// A numbered family of pins: `in1..inN` (variadic inputs) or `q1..qN` (SELECTOR outputs).
#[derive(Copy, Clone, Debug)]
pub struct Variadic {
    /// Name prefix (`in`, `q`).
    pub prefix: &'static str,
    /// Number of the first pin (0 for MUX's `in0`, else 1).
    pub first: usize,
    /// Fewest pins allowed.
    pub min: usize,
    /// Type of every pin in the family.
    pub ty: PinTy,
}

impl Variadic {
    /// The pins of the family an editor shows for a block whose pins in use are `used`: from
    /// the first up to the fewest allowed or the last in use, and one free pin after them
    /// (where a wire is dropped to add one). Names outside the family are ignored.
    pub fn editable<'a>(&self, used: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let index = |p: &str| p.strip_prefix(self.prefix)?.parse::<usize>().ok().filter(|k| *k >= self.first);
        let n = used.into_iter().filter_map(index).map(|k| k + 1 - self.first).max().unwrap_or(0);
        (0..n.max(self.min) + 1).map(|k| format!("{}{}", self.prefix, self.first + k)).collect()
    }
}

/// The definition of a library block type.
#[derive(Debug)]
pub struct BlockDef {
    /// The diagram type name (`AND`, `TON`, ...).
    pub name: &'static str,
    /// The primitive.
    pub kind: Kind,
    /// Constraint on `T`.
    pub generic: Generic,
    /// Fixed inputs, before any variadic ones.
    pub inputs: &'static [PinDef],
    /// Variadic inputs (`in1..inN`), counted from the wiring.
    pub var_inputs: Option<Variadic>,
    /// Fixed outputs.
    pub outputs: &'static [PinDef],
    /// Variadic outputs (`q1..qN`), counted from `params.n`.
    pub var_outputs: Option<Variadic>,
    /// Internal state slots (not pins), kept by snapshots and online change.
    pub state: &'static [(&'static str, Type)],
    /// Holds state from scan to scan (outputs included), so online change may keep it.
    pub stateful: bool,
    /// Parameters it accepts.
    pub params: &'static [&'static str],
    /// One line: what it does.
    pub summary: &'static str,
    /// Semantics in detail, quirks included.
    pub semantics: &'static str,
    /// A block as it is written in a diagram.
    pub example: &'static str,
}

const B: PinTy = PinTy::Fixed(Type::Bool);
const I: PinTy = PinTy::Fixed(Type::LInt);
const R: PinTy = PinTy::Fixed(Type::LReal);
const D: PinTy = PinTy::Fixed(Type::Time);
const S: PinTy = PinTy::Fixed(Type::String);
/// A string function's position or length: an INT, as IEC declares it (a wider integer is
/// taken too: matiec's are ANY_INT).
const N: PinTy = PinTy::Fixed(Type::LInt);
/// LEN's and FIND's result: IEC's INT.
const NI: PinTy = PinTy::Fixed(Type::Int);
const T: PinTy = PinTy::T;

const fn p(name: &'static str, ty: PinTy) -> PinDef {
    PinDef { name, ty, default: None, delayed: false }
}
const fn pd(name: &'static str, ty: PinTy, default: Value) -> PinDef {
    PinDef { name, ty, default: Some(default), delayed: false }
}
const fn delayed(name: &'static str, ty: PinTy) -> PinDef {
    PinDef { name, ty, default: None, delayed: true }
}
const fn var(prefix: &'static str, first: usize, min: usize, ty: PinTy) -> Option<Variadic> {
    Some(Variadic { prefix, first, min, ty })
}

macro_rules! def {
    ($name:literal, $kind:ident, $gen:ident, in [$($i:expr),*], var $var:expr, out [$($o:expr),*], varout $vo:expr,
     state [$($s:expr),*], stateful $st:literal, params [$($pa:literal),*], $sum:literal, $sem:literal, $ex:literal) => {
        BlockDef {
            name: $name, kind: Kind::$kind, generic: Generic::$gen,
            inputs: &[$($i),*], var_inputs: $var, outputs: &[$($o),*], var_outputs: $vo,
            state: &[$($s),*], stateful: $st, params: &[$($pa),*],
            summary: $sum, semantics: $sem, example: $ex,
        }
    };
}

/// Every library block, in documentation order.
pub static LIBRARY: &[BlockDef] = &[
    def!("AND", And, Logic, in [], var var("in", 1, 2, T), out [p("out", T)], varout None, state [], stateful false, params [],
        "Logical AND of in1..inN (N ≥ 2); of bit strings, bit by bit.", "out := in1 AND ... AND inN.",
        r#"{"id": "a", "type": "AND", "inputs": {"in1": "start", "in2": "t.q"}}"#),
    def!("OR", Or, Logic, in [], var var("in", 1, 2, T), out [p("out", T)], varout None, state [], stateful false, params [],
        "Logical OR of in1..inN (N ≥ 2); of bit strings, bit by bit.", "out := in1 OR ... OR inN.",
        r#"{"id": "o", "type": "OR", "inputs": {"in1": "a.out", "in2": false}}"#),
    def!("XOR", Xor, Logic, in [], var var("in", 1, 2, T), out [p("out", T)], varout None, state [], stateful false, params [],
        "Logical XOR of in1..inN (N ≥ 2): TRUE when an odd number of inputs is TRUE; of bit strings, bit by bit.", "out := in1 XOR ... XOR inN (parity, as IEC's extensible XOR).",
        r#"{"id": "x", "type": "XOR", "inputs": {"in1": "a.out", "in2": "b.out"}}"#),
    def!("NOT", Not, Logic, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Logical negation; of a bit string, every bit inverted (NOT WORD#1 is 16#FFFE).", "out := NOT in.",
        r#"{"id": "n", "type": "NOT", "inputs": {"in": "t.q"}}"#),
    def!("EQ", Eq, Any, in [p("in1", T), p("in2", T)], var None, out [p("out", B)], varout None, state [], stateful false, params [],
        "in1 = in2.", "out := in1 = in2. REAL compares by IEEE equality (NaN is never equal).",
        r#"{"id": "empty", "type": "EQ", "inputs": {"in1": "mem.q", "in2": 0}}"#),
    def!("NE", Ne, Any, in [p("in1", T), p("in2", T)], var None, out [p("out", B)], varout None, state [], stateful false, params [],
        "in1 <> in2.", "out := in1 <> in2.",
        r#"{"id": "ne", "type": "NE", "inputs": {"in1": "a.out", "in2": 0}}"#),
    def!("GT", Gt, Any, in [p("in1", T), p("in2", T)], var None, out [p("out", B)], varout None, state [], stateful false, params [],
        "in1 > in2.", "out := in1 > in2 (BOOL: FALSE < TRUE).",
        r#"{"id": "gt", "type": "GT", "inputs": {"in1": "c.cv", "in2": 3}}"#),
    def!("GE", Ge, Any, in [p("in1", T), p("in2", T)], var None, out [p("out", B)], varout None, state [], stateful false, params [],
        "in1 >= in2.", "out := in1 >= in2.",
        r#"{"id": "ge", "type": "GE", "inputs": {"in1": "c.cv", "in2": 3}}"#),
    def!("LT", Lt, Any, in [p("in1", T), p("in2", T)], var None, out [p("out", B)], varout None, state [], stateful false, params [],
        "in1 < in2.", "out := in1 < in2. The design's four sign: LT(frac, 0.1).",
        r#"{"id": "four", "type": "LT", "inputs": {"in1": "f.out", "in2": 0.1}}"#),
    def!("LE", Le, Any, in [p("in1", T), p("in2", T)], var None, out [p("out", B)], varout None, state [], stateful false, params [],
        "in1 <= in2.", "out := in1 <= in2.",
        r#"{"id": "le", "type": "LE", "inputs": {"in1": "x.out", "in2": 10}}"#),
    def!("ADD", Add, Magnitude, in [], var var("in", 1, 2, T), out [p("out", T)], varout None, state [], stateful false, params [],
        "Sum of in1..inN.", "out := in1 + ... + inN. INT overflow wraps and is reported as a fault; a REAL result that is NaN or ±infinity (REAL overflow) is reported.",
        r#"{"id": "sum", "type": "ADD", "inputs": {"in1": "a.out", "in2": 1}}"#),
    def!("SUB", Sub, Magnitude, in [p("in1", T), p("in2", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Difference.", "out := in1 - in2. INT overflow wraps and is reported; so is a REAL result of ±infinity (REAL overflow) or NaN.",
        r#"{"id": "d", "type": "SUB", "inputs": {"in1": "a.out", "in2": 1}}"#),
    def!("MUL", Mul, Num, in [], var var("in", 1, 2, T), out [p("out", T)], varout None, state [], stateful false, params [],
        "Product of in1..inN.", "out := in1 * ... * inN. INT overflow wraps and is reported; so is a REAL result of ±infinity (REAL overflow) or NaN.",
        r#"{"id": "m", "type": "MUL", "inputs": {"in1": "f.out", "in2": 16.0}}"#),
    def!("DIV", Div, Num, in [p("in1", T), p("in2", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Quotient.", "out := in1 / in2; INT division truncates toward zero. Division by zero gives 0 and a fault (the scan goes on). i64::MIN / -1 wraps and is reported; so is a REAL quotient of ±infinity (REAL overflow, 1e308 / 1e-10) or NaN.",
        r#"{"id": "q", "type": "DIV", "inputs": {"in1": "now.s", "in2": "saw.out"}}"#),
    def!("MULTIME", MulTime, Num, in [p("in1", D), p("in2", T)], var None, out [p("out", D)], varout None, state [], stateful false, params [],
        "A duration times a number (IEC's MUL of a TIME and a number).",
        "out := in1 * in2, computed as matiec's MUL(TIME, number): the seconds and the nanoseconds of in1 each multiplied as LREALs, the nanoseconds' product as a C int (reported where it is out of that range: C leaves it undefined), truncated. A result outside TIME, or a NaN or infinite factor, is reported.",
        r#"{"id": "longer", "type": "MULTIME", "inputs": {"in1": "T#1s500ms", "in2": 3}}"#),
    def!("DIVTIME", DivTime, Num, in [p("in1", D), p("in2", T)], var None, out [p("out", D)], varout None, state [], stateful false, params [],
        "A duration divided by a number (IEC's DIV of a TIME by a number).",
        "out := in1 / in2, computed as matiec's DIV(TIME, number): the seconds and the nanoseconds of in1 each divided as LREALs, truncated. Division by zero gives T#0s and a fault; a result outside TIME is reported.",
        r#"{"id": "half", "type": "DIVTIME", "inputs": {"in1": "T#100ms", "in2": 2}}"#),
    def!("MOD", Mod, Integer, in [p("in1", T), p("in2", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Remainder of integer division.", "out := in1 MOD in2, with the sign of in1 (as Rust's and C's %), in any integer type, SINT to ULINT (unsigned ones as unsigned; matiec has no MOD of a bit string). MOD by zero gives 0 and a fault.",
        r#"{"id": "col", "type": "MOD", "inputs": {"in1": "k.out", "in2": 4}}"#),
    def!("ABS", Abs, Num, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Absolute value.", "out := |in|. ABS of the most negative INT wraps and is reported.",
        r#"{"id": "a", "type": "ABS", "inputs": {"in": "d.out"}}"#),
    def!("NEG", Neg, Num, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Negation.", "out := -in. NEG of the most negative INT wraps and is reported.",
        r#"{"id": "n", "type": "NEG", "inputs": {"in": "d.out"}}"#),
    def!("MIN", Min, Ordered, in [], var var("in", 1, 2, T), out [p("out", T)], varout None, state [], stateful false, params [],
        "Smallest of in1..inN.", "out := MIN(in1, ..., inN), folded as matiec does: a later input replaces the minimum when smaller, so a NaN in1 gives NaN (a fault) and a later NaN is passed over.",
        r#"{"id": "lo", "type": "MIN", "inputs": {"in1": "a.out", "in2": 100}}"#),
    def!("MAX", Max, Ordered, in [], var var("in", 1, 2, T), out [p("out", T)], varout None, state [], stateful false, params [],
        "Largest of in1..inN.", "out := MAX(in1, ..., inN), folded as matiec does: a later input replaces the maximum when larger, so a NaN in1 gives NaN (a fault) and a later NaN is passed over.",
        r#"{"id": "hi", "type": "MAX", "inputs": {"in1": "a.out", "in2": 0}}"#),
    def!("LIMIT", Limit, Ordered, in [p("mn", T), p("in", T), p("mx", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Clamp in to [mn, mx].", "out := in > mn ? (in < mx ? in : mx) : mn, as matiec computes it: mn wins when mn > mx, and a REAL NaN gives mn (IEC's text, MIN(MAX(in, mn), mx), gives mx there).",
        r#"{"id": "l", "type": "LIMIT", "inputs": {"mn": 0, "in": "a.out", "mx": 10}}"#),
    def!("FLOOR", Floor, No, in [p("in", R)], var None, out [p("out", I)], varout None, state [], stateful false, params [],
        "Round down to a LINT.", "out := ⌊in⌋ as LINT. Beyond LINT's range (±∞ too) the result saturates at the nearest end and a NaN gives 0, each with a fault (C leaves both undefined: matiec's x86 code gives -2^63).",
        r#"{"id": "k", "type": "FLOOR", "inputs": {"in": "m.out"}}"#),
    def!("TRUNC", Trunc, No, in [p("in", R)], var None, out [p("out", I)], varout None, state [], stateful false, params [],
        "Round toward zero to a LINT.", "out := trunc(in) as INT. NaN or out of range is reported as for FLOOR.",
        r#"{"id": "t", "type": "TRUNC", "inputs": {"in": "x.out"}}"#),
    def!("FRAC", Frac, No, in [p("in", R)], var None, out [p("out", R)], varout None, state [], stateful false, params [],
        "Fractional part.", "out := in - trunc(in) (keeps the sign of in). The design takes decimal digits with MUL then FRAC.",
        r#"{"id": "f", "type": "FRAC", "inputs": {"in": "m.out"}}"#),
    def!("SQRT", Sqrt, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Square root.", "out := the square root of in (as C's sqrt, then an f32 for REAL). A negative in gives NaN, reported.",
        r#"{"id": "r", "type": "SQRT", "inputs": {"in": "a.out"}}"#),
    def!("LN", Ln, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Natural logarithm.", "out := ln(in). 0 gives -infinity and a negative in NaN, both reported.",
        r#"{"id": "l", "type": "LN", "inputs": {"in": "a.out"}}"#),
    def!("LOG", Log, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Logarithm to base 10.", "out := log10(in). 0 gives -infinity and a negative in NaN, both reported.",
        r#"{"id": "l", "type": "LOG", "inputs": {"in": "a.out"}}"#),
    def!("EXP", Exp, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Natural exponential.", "out := e to the power in; past the type's range +infinity, reported.",
        r#"{"id": "e", "type": "EXP", "inputs": {"in": "a.out"}}"#),
    def!("EXPT", Expt, Real, in [p("in1", T), p("in2", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Exponentiation.", "out := in1 to the power in2 (as C's pow). A negative in1 to a fractional power gives NaN, reported.",
        r#"{"id": "p", "type": "EXPT", "inputs": {"in1": "a.out", "in2": 2.0}}"#),
    def!("SIN", Sin, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Sine of an angle in radians.", "out := sin(in).",
        r#"{"id": "s", "type": "SIN", "inputs": {"in": "a.out"}}"#),
    def!("COS", Cos, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Cosine of an angle in radians.", "out := cos(in).",
        r#"{"id": "c", "type": "COS", "inputs": {"in": "a.out"}}"#),
    def!("TAN", Tan, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Tangent of an angle in radians.", "out := tan(in).",
        r#"{"id": "t", "type": "TAN", "inputs": {"in": "a.out"}}"#),
    def!("ASIN", Asin, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Arc sine in radians.", "out := asin(in); outside [-1, 1] NaN, reported.",
        r#"{"id": "a", "type": "ASIN", "inputs": {"in": "x.out"}}"#),
    def!("ACOS", Acos, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Arc cosine in radians.", "out := acos(in); outside [-1, 1] NaN, reported.",
        r#"{"id": "a", "type": "ACOS", "inputs": {"in": "x.out"}}"#),
    def!("ATAN", Atan, Real, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Arc tangent in radians.", "out := atan(in).",
        r#"{"id": "a", "type": "ATAN", "inputs": {"in": "x.out"}}"#),
    def!("SHL", Shl, Bits, in [p("in", T), p("n", I)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Shift left.", "out := in shifted left by n bits, zeros shifted in; n at or past the width gives 0 (matiec's C leaves n of 32 and more, and a negative n, undefined).",
        r#"{"id": "s", "type": "SHL", "inputs": {"in": "w.out", "n": 4}}"#),
    def!("SHR", Shr, Bits, in [p("in", T), p("n", I)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Shift right.", "out := in shifted right by n bits, zeros shifted in; n at or past the width gives 0.",
        r#"{"id": "s", "type": "SHR", "inputs": {"in": "w.out", "n": 4}}"#),
    def!("ROL", Rol, Bits, in [p("in", T), p("n", I)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Rotate left.", "out := in rotated left by n bits (n modulo the width, as matiec).",
        r#"{"id": "r", "type": "ROL", "inputs": {"in": "w.out", "n": 1}}"#),
    def!("ROR", Ror, Bits, in [p("in", T), p("n", I)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Rotate right.", "out := in rotated right by n bits (n modulo the width, as matiec).",
        r#"{"id": "r", "type": "ROR", "inputs": {"in": "w.out", "n": 1}}"#),
    def!("LEN", Len, No, in [p("in", S)], var None, out [p("out", NI)], varout None, state [], stateful false, params [],
        "Length of a STRING.", "out := the number of characters of in.",
        r#"{"id": "n", "type": "LEN", "inputs": {"in": "msg"}}"#),
    def!("LEFT", Left, No, in [p("in", S), p("l", N)], var None, out [p("out", S)], varout None, state [], stateful false, params [],
        "The first l characters.", "out := the first l characters of in (all of it when l is longer). A negative l gives '' and a fault (matiec: ENO FALSE).",
        r#"{"id": "l", "type": "LEFT", "inputs": {"in": "msg", "l": 3}}"#),
    def!("RIGHT", Right, No, in [p("in", S), p("l", N)], var None, out [p("out", S)], varout None, state [], stateful false, params [],
        "The last l characters.", "out := the last l characters of in. A negative l gives '' and a fault.",
        r#"{"id": "r", "type": "RIGHT", "inputs": {"in": "msg", "l": 2}}"#),
    def!("MID", Mid, No, in [p("in", S), p("l", N), p("p", N)], var None, out [p("out", S)], varout None, state [], stateful false, params [],
        "l characters from position p.", "out := l characters of in from position p (1 is the first); p past the end gives ''. p = 0 reads, as matiec's C does, the length byte before the first character, and is a fault. A negative l or p gives '' and a fault.",
        r#"{"id": "m", "type": "MID", "inputs": {"in": "msg", "l": 2, "p": 3}}"#),
    def!("CONCAT", Concat, No, in [], var var("in", 1, 2, S), out [p("out", S)], varout None, state [], stateful false, params [],
        "in1..inN joined.", "out := in1 followed by in2 ... inN, cut at 126 characters (matiec's STR_MAX_LEN).",
        r#"{"id": "c", "type": "CONCAT", "inputs": {"in1": "'T='", "in2": "t.out"}}"#),
    def!("INSERT", Insert, No, in [p("in1", S), p("in2", S), p("p", N)], var None, out [p("out", S)], varout None, state [], stateful false, params [],
        "in2 inserted after p characters of in1.", "out := the first p characters of in1, in2, then the rest of in1 (p past the end appends), cut at 126 characters. A negative p gives '' and a fault; p is taken modulo 256, as matiec passes it in its byte-wide length type (257 inserts after the first character there and here), and above 255 raises a fault so the wrap is seen.",
        r#"{"id": "i", "type": "INSERT", "inputs": {"in1": "msg", "in2": "'-'", "p": 2}}"#),
    def!("DELETE", Delete, No, in [p("in", S), p("l", N), p("p", N)], var None, out [p("out", S)], varout None, state [], stateful false, params [],
        "l characters deleted from position p.", "out := in without the l characters from position p (1 is the first); p past the end leaves in. l and p are taken modulo 256, as matiec passes them (a byte-wide length), with a fault above 255; p = 0 is undefined in matiec (it copies 255 bytes): here it reads as 1, with a fault. A negative l or p gives '' and a fault.",
        r#"{"id": "d", "type": "DELETE", "inputs": {"in": "msg", "l": 1, "p": 1}}"#),
    def!("REPLACE", Replace, No, in [p("in1", S), p("in2", S), p("l", N), p("p", N)], var None, out [p("out", S)], varout None, state [], stateful false, params [],
        "l characters of in1 from position p replaced.", "out := in1 with its l characters from position p replaced by the first l characters of in2, as matiec computes it (IEC's text and CODESYS put all of in2 in: REPLACE('abcde', 'XYZ', 1, 2) is 'aXcde' here and in matiec, 'aXYZcde' there). p past the end appends. l and p are taken modulo 256 as for DELETE (a fault above 255), and so is p + l, where the rest of in1 resumes, as matiec adds them in its byte-wide type; p = 0 and a rest that would overflow matiec's 126 characters are undefined: clamped, with a fault.",
        r#"{"id": "r", "type": "REPLACE", "inputs": {"in1": "msg", "in2": "'ab'", "l": 2, "p": 1}}"#),
    def!("FIND", Find, No, in [p("in1", S), p("in2", S)], var None, out [p("out", NI)], varout None, state [], stateful false, params [],
        "Position of in2 in in1.", "out := the position (1-based) of in2 in in1, 0 when absent or in2 is ''. As matiec's search, which does not backtrack after a partial match: FIND('aab', 'ab') is 0 here and in matiec, 2 in IEC's text and CODESYS.",
        r#"{"id": "f", "type": "FIND", "inputs": {"in1": "msg", "in2": "','"}}"#),
    def!("LINT_TO_LREAL", IntToReal, No, in [p("in", I)], var None, out [p("out", R)], varout None, state [], stateful false, params [],
        "Convert LINT to LREAL.", "out := in as LREAL (exact up to 2^53).",
        r#"{"id": "r", "type": "LINT_TO_LREAL", "inputs": {"in": "c.cv"}}"#),
    def!("SEL", Sel, Any, in [p("g", B), p("in0", T), p("in1", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Binary selection (the design's \"Choice\").", "out := in1 if g else in0.",
        r#"{"id": "two_four", "type": "SEL", "inputs": {"g": "four", "in0": 2, "in1": 4}}"#),
    def!("MUX", Mux, Any, in [p("k", I)], var var("in", 0, 1, T), out [p("out", T)], varout None, state [], stateful false, params [],
        "Select in<k> of in0..inN-1.", "out := in<k>. k out of range gives the zero of T and a fault.",
        r#"{"id": "m", "type": "MUX", "inputs": {"k": "sel", "in0": 10, "in1": 20, "in2": 30}}"#),
    def!("MOVE", Move, Any, in [p("in", T)], var None, out [p("out", T)], varout None, state [], stateful false, params [],
        "Copy.", "out := in.",
        r#"{"id": "c", "type": "MOVE", "inputs": {"in": "a.out"}}"#),
    def!("MEMORY", Memory, Any, in [p("in", T), p("en", B)], var None, out [p("q", T), delayed("prev", T)], varout None, state [], stateful true, params ["init"],
        "Holds a value; writes it when enabled (the design's \"Memory\").",
        "q := in if en else q (the written value is visible in the same scan). prev := q as it was at the end of the previous scan; a loop through prev is legal (it is a feedback point). q and prev start at params.init (default zero).",
        r#"{"id": "mem", "type": "MEMORY", "inputs": {"in": "choice.out", "en": "write.out"}, "params": {"init": 0}}"#),
    def!("DELAY", Delay, Any, in [p("in", T)], var None, out [delayed("q", T)], varout None, state [], stateful true, params ["init"],
        "One-scan delay (z⁻¹): the feedback point as a block.",
        "q := the value in had at the end of the previous scan; params.init before the first scan. A loop through q is legal.",
        r#"{"id": "z", "type": "DELAY", "inputs": {"in": "n.out"}, "params": {"init": false}}"#),
    def!("SR", Sr, No, in [p("s1", B), p("r", B)], var None, out [p("q1", B)], varout None, state [], stateful true, params ["init"],
        "Set-dominant bistable.", "q1 := s1 OR (NOT r AND q1) (IEC SR).",
        r#"{"id": "latch", "type": "SR", "inputs": {"s1": "start", "r": "stop"}}"#),
    def!("RS", Rs, No, in [p("s", B), p("r1", B)], var None, out [p("q1", B)], varout None, state [], stateful true, params ["init"],
        "Reset-dominant bistable.", "q1 := NOT r1 AND (s OR q1) (IEC RS).",
        r#"{"id": "lock", "type": "RS", "inputs": {"s": "cmd", "r1": "done"}}"#),
    def!("R_TRIG", RTrig, No, in [p("clk", B)], var None, out [p("q", B)], varout None, state [("m", Type::Bool)], stateful true, params [],
        "Rising edge: TRUE for one scan when clk goes FALSE→TRUE.", "q := clk AND NOT m; m := clk. m starts FALSE, so clk TRUE on the first scan gives q TRUE.",
        r#"{"id": "edge", "type": "R_TRIG", "inputs": {"clk": "button"}}"#),
    def!("F_TRIG", FTrig, No, in [p("clk", B)], var None, out [p("q", B)], varout None, state [("m", Type::Bool)], stateful true, params [],
        "Falling edge: TRUE for one scan when clk goes TRUE→FALSE.", "q := NOT clk AND NOT m; m := NOT clk. As in matiec's standard library, m starts FALSE, so q is TRUE on the first scan when clk starts FALSE.",
        r#"{"id": "fall", "type": "F_TRIG", "inputs": {"clk": "button"}}"#),
    def!("TON", Ton, No, in [p("in", B), p("pt", D)], var None, out [p("q", B), p("et", D)], varout None, state [("state", Type::LInt), ("start", Type::Time), ("prev_in", Type::Bool)], stateful true, params [],
        "On-delay timer (pt, et TIMEs of the simulated clock, to the nanosecond).",
        "On a rising edge of in the timer starts (q FALSE, et 0); while in stays TRUE, et := now - start until et reaches pt, then q := TRUE and et := pt; when in is FALSE, q := FALSE, et := 0. As matiec's TON. A negative pt is used as it is (elapsed at once, et := pt: matiec's reading) and is a fault.",
        r#"{"id": "t", "type": "TON", "inputs": {"in": "start", "pt": "T#500ms"}}"#),
    def!("TOF", Tof, No, in [p("in", B), p("pt", D)], var None, out [p("q", B), p("et", D)], varout None, state [("state", Type::LInt), ("start", Type::Time), ("prev_in", Type::Bool)], stateful true, params [],
        "Off-delay timer.",
        "q := TRUE while in is TRUE and for pt after its falling edge; et counts from the falling edge up to pt; in TRUE resets et to 0. As matiec's TOF. A negative pt is used as it is (elapsed at once, et := pt: matiec's reading) and is a fault.",
        r#"{"id": "t", "type": "TOF", "inputs": {"in": "motor", "pt": "T#2s"}}"#),
    def!("TP", Tp, No, in [p("in", B), p("pt", D)], var None, out [p("q", B), p("et", D)], varout None, state [("state", Type::LInt), ("start", Type::Time), ("prev_in", Type::Bool)], stateful true, params [],
        "Pulse timer, not retriggerable.",
        "A rising edge of in while idle gives q := TRUE for pt; edges during the pulse are ignored; after the pulse et holds pt until in is FALSE. As matiec's TP. A negative pt is used as it is (elapsed at once, et := pt: matiec's reading) and is a fault.",
        r#"{"id": "p", "type": "TP", "inputs": {"in": "button", "pt": "T#100ms"}}"#),
    def!("CTU", Ctu, Int, in [p("cu", B), pd("r", B, Value::Bool(false)), p("pv", T)], var None, out [p("q", B), p("cv", T)], varout None, state [("m", Type::Bool)], stateful true, params [],
        "Up counter.", "r: cv := 0; else on a rising edge of cu, cv := cv + 1 unless cv is the largest value of its type (it saturates, as matiec's CTU at PVmax). q := cv >= pv.",
        r#"{"id": "c", "type": "CTU", "inputs": {"cu": "pulse.q", "pv": 3}}"#),
    def!("CTD", Ctd, Int, in [p("cd", B), pd("ld", B, Value::Bool(false)), p("pv", T)], var None, out [p("q", B), p("cv", T)], varout None, state [("m", Type::Bool)], stateful true, params [],
        "Down counter.", "ld: cv := pv; else on a rising edge of cd, cv := cv - 1 while cv > 0 (as matiec). q := cv <= 0.",
        r#"{"id": "c", "type": "CTD", "inputs": {"cd": "pulse.q", "ld": "load", "pv": 5}}"#),
    def!("CTUD", Ctud, Int, in [pd("cu", B, Value::Bool(false)), pd("cd", B, Value::Bool(false)), pd("r", B, Value::Bool(false)), pd("ld", B, Value::Bool(false)), p("pv", T)], var None,
        out [p("qu", B), p("qd", B), p("cv", T)], varout None, state [("mu", Type::Bool), ("md", Type::Bool)], stateful true, params [],
        "Up-down counter.", "r: cv := 0; elsif ld: cv := pv; else simultaneous rising edges of cu and cd are ignored, a cu edge counts up while cv < pv, a cd edge counts down while cv > 0 (as matiec). qu := cv >= pv, qd := cv <= 0.",
        r#"{"id": "c", "type": "CTUD", "inputs": {"cu": "up", "cd": "down", "pv": 10}}"#),
    def!("NOW", Now, No, in [], var None, out [p("ms", I), p("s", R)], varout None, state [], stateful false, params [],
        "Controller time from the simulated clock.", "ms := scans × cycle in ms; s := the same in seconds. Scan 0 sees 0.",
        r#"{"id": "now", "type": "NOW"}"#),
    def!("SAW", Saw, No, in [pd("period", I, Value::Int(1000)), pd("lo", R, Value::Real(0.0)), pd("hi", R, Value::Real(1.0))], var None, out [p("out", R)], varout None, state [], stateful false, params [],
        "Sawtooth ramp generator (the design's \"algorithms 2, 3, 4\").",
        "out := lo + (hi - lo) × (now mod period) / period, with now and period in ms of the simulated clock. period <= 0 gives lo and a fault.",
        r#"{"id": "saw1", "type": "SAW", "inputs": {"period": 37, "lo": 1.0, "hi": 2.0}}"#),
    def!("RANDOM", Random, No, in [pd("en", B, Value::Bool(true)), pd("lo", I, Value::Int(0)), pd("hi", I, Value::Int(1))], var None, out [p("x", R), p("n", I)], varout None, state [], stateful true, params ["seed"],
        "Seeded pseudo-random numbers (ChaCha8).",
        "Each scan with en TRUE draws x uniform in [0, 1) and n uniform in [lo, hi]; with en FALSE both hold. hi < lo gives n := lo and a fault. The stream is seeded from the runtime seed, the block's path and params.seed, so a run replays bit for bit.",
        r#"{"id": "rnd", "type": "RANDOM", "inputs": {"lo": 1, "hi": 16}}"#),
    def!("SELECTOR", Selector, No, in [p("sel", I)], var None, out [], varout var("q", 1, 1, B), state [], stateful false, params ["n"],
        "Manual one-of-n selector: q<sel> is TRUE, every other q is FALSE.",
        "q<i> := (sel = i) for i in 1..=n (params.n). sel = 0 or out of range selects nothing.",
        r#"{"id": "cmd", "type": "SELECTOR", "inputs": {"sel": "command"}, "params": {"n": 6}}"#),
];

impl BlockDef {
    /// The group an editor's palette lists the block under (the IEC 61131-3 standard
    /// function groups, roughly).
    pub fn category(&self) -> &'static str {
        use Kind::*;
        match self.kind {
            And | Or | Xor | Not => "bit logic",
            Eq | Ne | Gt | Ge | Lt | Le => "comparison",
            Add | Sub | Mul | Div | MulTime | DivTime | Mod | Abs | Neg | Min | Max | Limit | Floor | Trunc | Frac => {
                "arithmetic"
            }
            Sqrt | Ln | Log | Exp | Expt | Sin | Cos | Tan | Asin | Acos | Atan => "numeric functions",
            Shl | Shr | Rol | Ror => "bit shifts",
            Len | Left | Right | Mid | Concat | Insert | Delete | Replace | Find => "strings",
            IntToReal | Convert | Bcd => "conversion",
            Sel | Mux | Move | Selector => "selection",
            Memory | Delay | Sr | Rs | RTrig | FTrig => "memory and edges",
            Ton | Tof | Tp | Ctu | Ctd | Ctud => "timers and counters",
            Now | Saw | Random => "time and random",
        }
    }

    /// Whether IEC 61131-3 (and so CODESYS, Beremiz, OpenPLC) has this block by its name and
    /// pins: the logic, comparison, arithmetic, selection, timer, counter, edge and bistable
    /// blocks it defines, the conversions, the numeric functions, the shifts and the string
    /// functions. MULTIME and DIVTIME are IEC's MUL and DIV of a TIME. The others (MEMORY,
    /// DELAY, NOW, RANDOM...) are this library's own.
    pub fn is_iec_standard(&self) -> bool {
        use Kind::*;
        match self.kind {
            Convert | Bcd | IntToReal | Trunc => true,
            _ if matches!(self.category(), "numeric functions" | "bit shifts" | "strings") => true,
            And | Or | Xor | Not | Eq | Ne | Gt | Ge | Lt | Le => true,
            Add | Sub | Mul | Div | MulTime | DivTime | Mod | Abs | Min | Max | Limit => true,
            Sel | Mux | Move => true,
            Ctu | Ctd | Ctud | Ton | Tof | Tp | RTrig | FTrig | Sr | Rs => true,
            _ => false,
        }
    }

    /// Whether the block is an IEC standard function (no state between calls): called while
    /// its own EN is FALSE it is not run and returns its type's initial value (0, FALSE, '',
    /// T#0s), as matiec's functions do, so a block reading it reads that.
    pub fn is_iec_function(&self) -> bool {
        self.is_iec_standard() && !self.stateful
    }
}

/// The enable input every block has besides its own pins (IEC 61131-3's EN): while what
/// drives it is FALSE the block is not called, so a function block's outputs and state keep
/// their values (a timer's elapsed time is read from the clock again when it is called next,
/// as matiec's timers do) and an IEC function's outputs read their type's initial value
/// ([`BlockDef::is_iec_function`]); on a macro instance it holds every block inside. A macro that declares a port
/// of this name has that port instead. ENO is not a pin: it is EN (read EN's driver).
pub const ENABLE: &str = "EN";

/// Looks up a library block by its diagram type name: one of [`LIBRARY`], or an IEC
/// conversion `A_TO_B` ([`conversion`]).
pub fn lookup(name: &str) -> Option<&'static BlockDef> {
    // Called for every block several times while compiling: hashed, not a scan of the library.
    static INDEX: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, &'static BlockDef>> =
        std::sync::OnceLock::new();
    INDEX.get_or_init(|| LIBRARY.iter().chain(conversions()).map(|d| (d.name, d)).collect()).get(name).copied()
}

/// Every block type: the library, then the conversions (what an editor's palette offers).
pub fn all() -> impl Iterator<Item = &'static BlockDef> {
    LIBRARY.iter().chain(conversions())
}

/// matiec's BCD conversions: `BYTE_BCD_TO_USINT` (a bit string of BCD digits to an unsigned
/// integer) and `USINT_TO_BCD_BYTE` (back) for every bit string and unsigned type, and the
/// short names `BCD_TO_USINT` (from any bit string: an LWORD input, which takes the narrower
/// ones) and `USINT_TO_BCD` (to the bit string of the integer's width).
fn bcd_conversions() -> Vec<BlockDef> {
    let bits = [Type::Byte, Type::Word, Type::DWord, Type::LWord];
    let uints = [Type::USInt, Type::UInt, Type::UDInt, Type::ULInt];
    let mut named: Vec<(String, Type, Type)> = Vec::new();
    for (k, u) in uints.into_iter().enumerate() {
        for b in bits {
            named.push((format!("{b}_BCD_TO_{u}"), b, u));
            named.push((format!("{u}_TO_BCD_{b}"), u, b));
        }
        named.push((format!("BCD_TO_{u}"), Type::LWord, u));
        named.push((format!("{u}_TO_BCD"), u, bits[k]));
    }
    named
        .into_iter()
        .map(|(name, a, b)| {
            let to_bcd = !a.is_bit_string();
            let summary = if to_bcd { format!("{a} to {b} of BCD digits.") } else { format!("{a} of BCD digits to {b}.") };
            let semantics = if to_bcd {
                "out := in's decimal digits, one per 4 bits, cut to out's width (as matiec's C cast). A digit past the 16th has no place in 64 bits (C leaves it undefined): dropped, reported."
            } else {
                "out := the number in's 4-bit digits spell, cut to out's width (as matiec's C cast). A digit above 9 gives 0 and a fault, as matiec gives 0 with ENO FALSE."
            };
            one_in_one_out(name, Kind::Bcd, (a, b), summary, semantics)
        })
        .collect()
}

/// A function of one input `in` of type `a` and one output `out` of type `b` (a conversion, a
/// BCD conversion), built once at start-up: its texts are leaked, as the static library's are.
fn one_in_one_out(
    name: String,
    kind: Kind,
    (a, b): (Type, Type),
    summary: String,
    semantics: &'static str,
) -> BlockDef {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let ins: &'static [PinDef] =
        Box::leak(Box::new([PinDef { name: "in", ty: PinTy::Fixed(a), default: None, delayed: false }]));
    let outs: &'static [PinDef] =
        Box::leak(Box::new([PinDef { name: "out", ty: PinTy::Fixed(b), default: None, delayed: false }]));
    BlockDef {
        example: leak(format!(r#"{{"id": "c", "type": "{name}", "inputs": {{"in": "x.out"}}}}"#)),
        name: leak(name),
        kind,
        generic: Generic::No,
        inputs: ins,
        var_inputs: None,
        outputs: outs,
        var_outputs: None,
        state: &[],
        stateful: false,
        params: &[],
        summary: leak(summary),
        semantics,
    }
}

/// The types a conversion `A_TO_B` converts between.
pub fn conversion(def: &BlockDef) -> Option<(Type, Type)> {
    match (def.kind, def.inputs.first()?.ty, def.outputs.first()?.ty) {
        (Kind::Convert, PinTy::Fixed(a), PinTy::Fixed(b)) => Some((a, b)),
        _ => None,
    }
}

/// Every `A_TO_B` between two different elementary types, except the one the static library
/// defines (LINT_TO_LREAL): built once, one definition for the family.
fn conversions() -> &'static [BlockDef] {
    static ALL: std::sync::OnceLock<Vec<BlockDef>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut defs = Vec::new();
        for a in Type::ALL {
            for b in Type::ALL {
                let name = format!("{a}_TO_{b}");
                // matiec declares TIME_TO_BOOL but defines none (it does not link); LTIME none.
                let bool_time = (a.is_time() && b == Type::Bool) || (a == Type::Bool && b == Type::LTime);
                if a == b || bool_time || LIBRARY.iter().any(|d| d.name == name) {
                    continue;
                }
                let rule = match (a.bank(), b.bank()) {
                    (_, crate::types::Bank::Str) => string_rule(a),
                    (crate::types::Bank::Str, _) => from_string_rule(b),
                    _ if a.is_time() && b.is_time() => "out := in (the same nanoseconds).",
                    _ if a == Type::Bool && b.is_time() => "out := T#1s for TRUE, T#0s for FALSE (matiec: the BOOL as whole seconds).",
                    _ if b.is_time() && a.is_real() => {
                        "out := in seconds (matiec: whole seconds plus the fraction's nanoseconds, truncated; CODESYS reads milliseconds). Beyond ±292 years saturates and is reported."
                    }
                    _ if b.is_time() => {
                        "out := in seconds (matiec's reading; CODESYS reads milliseconds). Beyond ±292 years saturates and is reported."
                    }
                    _ if a.is_time() && b.is_real() => "out := in in seconds (matiec's reading; CODESYS gives milliseconds).",
                    _ if a.is_time() => {
                        "out := in's whole seconds, toward zero, wrapped into the type (matiec's reading; CODESYS gives milliseconds)."
                    }
                    (_, crate::types::Bank::Bool) => "out := in <> 0.",
                    (crate::types::Bank::Bool, _) => "out := 1 if in else 0.",
                    (crate::types::Bank::Real, crate::types::Bank::Int) if b.is_u64() => {
                        "out := in rounded to the nearest integer, halves to even, 0 for a negative in. 2^63 to 2^64 is the value (matiec's C passes it through a LINT, undefined there: x86-64 gives 2^63 for each); beyond 2^64, the largest value, with a fault."
                    }
                    (crate::types::Bank::Real, crate::types::Bank::Int) if b.int_range().is_some_and(|r| r.0 == 0) => {
                        "out := in rounded to the nearest integer, halves to even, 0 for a negative in, then wrapped into the type (as matiec)."
                    }
                    (crate::types::Bank::Real, crate::types::Bank::Int) => {
                        "out := in rounded to the nearest integer, halves to even, then wrapped into the type (as matiec). NaN or beyond LINT is reported and saturates as for FLOOR."
                    }
                    (crate::types::Bank::Int, crate::types::Bank::Real) => "out := in as the nearest value of the float type.",
                    (crate::types::Bank::Real, crate::types::Bank::Real) => "out := in (to REAL: the nearest f32).",
                    _ => "out := in wrapped into the type's range (two's complement, as a C cast in matiec).",
                };
                defs.push(one_in_one_out(name, Kind::Convert, (a, b), format!("Convert {a} to {b}."), rule));
            }
        }
        defs.extend(bcd_conversions());
        defs
    })
}

/// How `A_TO_STRING` writes a value, as matiec's `*_to_string`.
fn string_rule(a: Type) -> &'static str {
    match a {
        Type::Bool => "out := 'TRUE' or 'FALSE'.",
        _ if a.is_bit_string() => "out := the value in hexadecimal, lower case, as matiec writes it ('16#ff').",
        _ if a.is_real() => {
            "out := the value as C's %.10g writes it, as matiec does (REAL_TO_STRING(0.1) is '0.1000000015': the f32's digits)."
        }
        _ if a.is_time() => {
            "out := as matiec writes it: days first, then hours, minutes, seconds as far as needed, the rest as %g milliseconds ('T#0d0h0m1s500ms', 'T#2d')."
        }
        _ => "out := the value in decimal.",
    }
}

/// How `STRING_TO_B` reads a string, as matiec's `__string_to_*`.
fn from_string_rule(b: Type) -> &'static str {
    match b {
        Type::Bool => "out := in is '1' or 'TRUE' in any case.",
        _ if b.is_real() => {
            "out := with a '.' after the first character, C's atof (the longest prefix that reads as a number); else as STRING_TO_LINT. As matiec."
        }
        _ if b.is_time() => {
            "out := whole seconds, as matiec reads them: with a '.', atof's value truncated; else as STRING_TO_LINT; beyond ±292 years saturates and is reported. CODESYS reads a duration literal."
        }
        _ => {
            "out := as matiec reads it: 2#, 8#, 16# digits from the right; a decimal from the right over at most 20 digits, starting over at a '.' or a letter and skipping spaces and signs, the sign the first character's; then wrapped into the type. Never a fault."
        }
    }
}

/// The library reference as Markdown (`docs/blocks.md` is this text; a test keeps it fresh).
pub fn markdown() -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "# Block library\n");
    let _ = writeln!(
        s,
        "Generated from `crates/fbd-model/src/library.rs` by `fbd blocks --markdown`; do not edit by hand.\n"
    );
    let _ = writeln!(
        s,
        "`T` is a block's type variable: fixed by what is wired to its `T` pins, or by `data_type`, and then exactly one type \
         (a DINT and a LINT on one ADD are a type error, as in matiec: convert one). \
         Num = every integer type but the bit strings, and REAL, LREAL (IEC's ANY_NUM: no ADD on a WORD, as matiec); Any = every type. \
         Types: BOOL; SINT, INT, DINT, LINT (8, 16, 32, 64-bit signed); USINT, UINT, UDINT, ULINT (unsigned); BYTE, WORD, DWORD, LWORD (bit strings); \
         REAL (32-bit float), LREAL (64-bit); TIME, LTIME (durations); STRING (up to 126 single-byte characters, matiec's STR_MAX_LEN; a constant is written \"'text'\"). Arithmetic on a narrow type or ULINT wraps as the PLC's (INT: 32767 + 1 = -32768) and is no fault; \
         a REAL result is rounded to an f32 after every operation (ADD of three REALs: pairwise). \
         A fixed-type pin (a LINT `k`) takes a narrower integer as it is (IEC's implicit widening). \
         TIME and LTIME are nanoseconds of the simulated clock (T#500ms). \
         A fault (division by zero, LINT overflow, a REAL result of NaN or ±infinity, index out of range) is recorded with the block path and the scan; \
         it never stops the scan.\n"
    );
    for d in LIBRARY {
        let _ = writeln!(s, "## {}\n\n{}\n", d.name, d.summary);
        let pin = |p: &PinDef| {
            let ty = match p.ty {
                PinTy::Fixed(t) => t.name(),
                PinTy::T => "T",
            };
            let mut t = format!("`{}`: {}", p.name, ty);
            if let Some(v) = p.default {
                let _ = write!(t, " (default {v})");
            }
            if p.delayed {
                t.push_str(" (previous scan's value)");
            }
            t
        };
        let mut ins: Vec<String> = d.inputs.iter().map(pin).collect();
        if let Some(v) = d.var_inputs {
            let ty = match v.ty {
                PinTy::T => "T",
                PinTy::Fixed(t) => t.name(),
            };
            ins.push(format!("`{0}{1}` .. `{0}N`: {2} (at least {3})", v.prefix, v.first, ty, v.min));
        }
        let mut outs: Vec<String> = d.outputs.iter().map(pin).collect();
        if let Some(v) = d.var_outputs {
            outs.push(format!("`{0}1` .. `{0}N`: BOOL (N = params.n)", v.prefix));
        }
        let generic = match d.generic {
            Generic::No => String::new(),
            Generic::Num => "; T: Num".into(),
            Generic::Magnitude => "; T: Num or TIME".into(),
            Generic::Ordered => "; T: Num, a bit string, TIME or STRING".into(),
            Generic::Int => "; T: an integer type".into(),
            Generic::Real => "; T: REAL or LREAL".into(),
            Generic::Bits => "; T: BYTE, WORD or DWORD".into(),
            Generic::Integer => "; T: an integer type, SINT to ULINT".into(),
            Generic::Logic => "; T: BOOL, BYTE, WORD or DWORD".into(),
            Generic::Any => "; T: Any".into(),
        };
        let _ = writeln!(s, "- inputs: {}", if ins.is_empty() { "none".into() } else { ins.join(", ") });
        let _ = writeln!(s, "- outputs: {}{generic}", outs.join(", "));
        if !d.params.is_empty() {
            let _ =
                writeln!(s, "- params: {}", d.params.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "));
        }
        let _ = writeln!(s, "- semantics: {}\n", d.semantics);
        let _ = writeln!(s, "```json\n{}\n```\n", d.example);
    }
    let names: Vec<&str> = Type::ALL.iter().map(|t| t.name()).collect();
    let _ = writeln!(s, "## A_TO_B (conversions)\n");
    let _ = writeln!(
        s,
        "`A_TO_B` for any two different types A and B of {} (except LINT_TO_LREAL and LREAL_TO_LINT above): input `in`: A, output `out`: B. {} conversions.\n",
        names.join(", "),
        conversions().len()
    );
    let mut rules: Vec<(&str, Vec<&str>)> = Vec::new();
    for d in conversions() {
        match rules.iter_mut().find(|(r, _)| *r == d.semantics) {
            Some((_, v)) => v.push(d.name),
            None => rules.push((d.semantics, vec![d.name])),
        }
    }
    for (rule, names) in rules {
        let shown: Vec<&str> = names.iter().take(4).copied().collect();
        let more = if names.len() > 4 { format!(" and {} more", names.len() - 4) } else { String::new() };
        let _ = writeln!(s, "- {rule} ({}{more})", shown.join(", "));
    }
    s.push_str("\n```json\n{\"id\": \"c\", \"type\": \"DINT_TO_REAL\", \"inputs\": {\"in\": \"count.out\"}}\n```\n");
    s
}
