//! The IEC 61131-3 elementary types a signal can have, the three storage banks they live in,
//! and a tagged value.

use std::fmt;

pub use crate::string::{IecString, STRING_CAPACITY};

/// The type of a signal: an IEC 61131-3 elementary type.
///
/// Every type lives in one of three slot banks ([`Bank`]): BOOL in the booleans, the integer
/// types in 64-bit integers (a narrow type's value always within its range: arithmetic wraps it
/// as the PLC does), REAL and LREAL in 64-bit floats (a REAL's value always an f32's: arithmetic
/// rounds it as an f32 PLC does), TIME and LTIME in 64-bit integers too, as nanoseconds
/// (matiec's resolution; a timer on a 0.3 ms cycle fires on the scan it should), ULINT and LWORD
/// as the 64 bits of their unsigned value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// A boolean.
    Bool,
    /// 8-bit signed integer.
    SInt,
    /// 16-bit signed integer.
    Int,
    /// 32-bit signed integer.
    DInt,
    /// 64-bit signed integer; overflow wraps and is reported as a fault.
    LInt,
    /// 8-bit unsigned integer.
    USInt,
    /// 16-bit unsigned integer.
    UInt,
    /// 32-bit unsigned integer.
    UDInt,
    /// 64-bit unsigned integer; arithmetic wraps, as matiec's C computes it.
    ULInt,
    /// 8-bit bit string (unsigned arithmetic, as matiec computes it).
    Byte,
    /// 16-bit bit string.
    Word,
    /// 32-bit bit string.
    DWord,
    /// 64-bit bit string.
    LWord,
    /// 32-bit float, rounded to an f32 after every operation.
    Real,
    /// 64-bit float; a NaN result is reported as a fault.
    LReal,
    /// A duration in nanoseconds (±292 years), as matiec's TIME holds it.
    Time,
    /// A long duration: nanoseconds too (CODESYS's LTIME; matiec has none).
    LTime,
    /// A string of single-byte characters, up to [`STRING_CAPACITY`] of them.
    String,
}

/// Where a type's values are stored: the executor's three slot arrays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bank {
    /// `bool` slots.
    Bool,
    /// `i64` slots.
    Int,
    /// `f64` slots.
    Real,
    /// Fixed-capacity string slots ([`IecString`]).
    Str,
}

impl Type {
    /// Every type, in the order menus list them.
    pub const ALL: [Type; 18] = [
        Type::Bool,
        Type::SInt,
        Type::Int,
        Type::DInt,
        Type::LInt,
        Type::USInt,
        Type::UInt,
        Type::UDInt,
        Type::ULInt,
        Type::Byte,
        Type::Word,
        Type::DWord,
        Type::LWord,
        Type::Real,
        Type::LReal,
        Type::Time,
        Type::LTime,
        Type::String,
    ];

    /// The IEC name used in diagrams (`BOOL`, `DINT`, `LREAL`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Type::Bool => "BOOL",
            Type::SInt => "SINT",
            Type::Int => "INT",
            Type::DInt => "DINT",
            Type::LInt => "LINT",
            Type::USInt => "USINT",
            Type::UInt => "UINT",
            Type::UDInt => "UDINT",
            Type::ULInt => "ULINT",
            Type::Byte => "BYTE",
            Type::Word => "WORD",
            Type::DWord => "DWORD",
            Type::LWord => "LWORD",
            Type::Real => "REAL",
            Type::LReal => "LREAL",
            Type::Time => "TIME",
            Type::LTime => "LTIME",
            Type::String => "STRING",
        }
    }

    /// Parses an IEC type name (case-insensitive, as IEC names are).
    pub fn parse(s: &str) -> Option<Type> {
        Type::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(s))
    }

    /// The slot bank the type's values live in.
    pub fn bank(self) -> Bank {
        match self {
            Type::Bool => Bank::Bool,
            Type::Real | Type::LReal => Bank::Real,
            Type::String => Bank::Str,
            _ => Bank::Int,
        }
    }

    /// Whether the type is one of the integer or bit-string types (not a duration, though it
    /// lives in the same bank).
    pub fn is_int(self) -> bool {
        self.bank() == Bank::Int && !self.is_time()
    }

    /// Whether the type is a duration (TIME, LTIME): compared, selected, added and subtracted,
    /// never multiplied as a number.
    pub fn is_time(self) -> bool {
        matches!(self, Type::Time | Type::LTime)
    }

    /// Whether the type is a bit string (BYTE, WORD, DWORD): no arithmetic on it in IEC
    /// 61131-3 (ADD is ANY_NUM), only comparison, selection and conversion.
    pub fn is_bit_string(self) -> bool {
        matches!(self, Type::Byte | Type::Word | Type::DWord | Type::LWord)
    }

    /// Whether the type is ULINT or LWORD: 64 unsigned bits in an `i64` slot, compared,
    /// divided and converted as unsigned.
    pub fn is_u64(self) -> bool {
        matches!(self, Type::ULInt | Type::LWord)
    }

    /// Whether the type is REAL or LREAL.
    pub fn is_real(self) -> bool {
        self.bank() == Bank::Real
    }

    /// The bits of a narrow integer type and whether it is signed; `None` for the 64-bit ones
    /// (LINT wraps at 64 bits and reports it, ULINT wraps as its C does) and the types of other
    /// banks.
    pub fn width(self) -> Option<(u32, bool)> {
        Some(match self {
            Type::SInt => (8, true),
            Type::Int => (16, true),
            Type::DInt => (32, true),
            Type::USInt | Type::Byte => (8, false),
            Type::UInt | Type::Word => (16, false),
            Type::UDInt | Type::DWord => (32, false),
            _ => return None,
        })
    }

    /// The smallest and largest value of an integer type that an `i64` holds (ULINT's and
    /// LWORD's above 2^63 - 1 do not: see [`Type::admit`]).
    pub fn int_range(self) -> Option<(i64, i64)> {
        match self.width() {
            Some((bits, true)) => Some((-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)),
            Some((bits, false)) => Some((0, (1i64 << bits) - 1)),
            None if matches!(self, Type::LInt | Type::Time | Type::LTime) => Some((i64::MIN, i64::MAX)),
            None if self.is_u64() => Some((0, i64::MAX)),
            None => None,
        }
    }

    /// `v` wrapped into the type's range, as two's complement arithmetic of its width leaves
    /// it (the identity for LINT and the other banks).
    #[inline(always)]
    pub fn wrap(self, v: i64) -> i64 {
        match self.width() {
            Some((bits, true)) => (v << (64 - bits)) >> (64 - bits),
            Some((bits, false)) => v & ((1i64 << bits) - 1),
            None => v,
        }
    }

    /// Whether a value of `self` may be used where `to` is expected without a conversion
    /// block: the same type, or a wider one of the same bank that holds every value of it
    /// (IEC 61131-3's implicit widening: SINT → INT → DINT → LINT, USINT → UINT → UDINT and
    /// each unsigned into a wider signed type, BYTE → WORD → DWORD, REAL → LREAL). The value
    /// is the same, so no instruction is needed.
    pub fn widens_to(self, to: Type) -> bool {
        if self == to {
            return true;
        }
        match (self, to) {
            (Type::Real, Type::LReal) | (Type::Time, Type::LTime) => true,
            (Type::Byte, Type::Word | Type::DWord | Type::LWord)
            | (Type::Word, Type::DWord | Type::LWord)
            | (Type::DWord, Type::LWord) => true,
            (Type::USInt | Type::UInt | Type::UDInt, Type::ULInt) => true,
            (Type::ULInt | Type::LWord, _) | (_, Type::ULInt | Type::LWord) => false,
            (a, b) if a.is_int() && b.is_int() && !matches!(a, Type::Byte | Type::Word | Type::DWord) => {
                let (Some((lo_a, hi_a)), Some((lo_b, hi_b))) = (a.int_range(), b.int_range()) else { return false };
                !matches!(b, Type::Byte | Type::Word | Type::DWord) && lo_b <= lo_a && hi_a <= hi_b
            }
            _ => false,
        }
    }

    /// The zero value of the type: what a slot holds before anything writes it.
    pub fn zero(self) -> Value {
        match self.bank() {
            Bank::Bool => Value::Bool(false),
            Bank::Int => self.int_value(0),
            Bank::Real => Value::Real(0.0),
            Bank::Str => Value::Str(IecString::EMPTY),
        }
    }

    /// The value of this type held as `i` in an integer slot: a duration's nanoseconds are a
    /// [`Value::Time`], everything else a [`Value::Int`].
    #[inline]
    pub fn int_value(self, i: i64) -> Value {
        match self {
            _ if self.is_time() => Value::Time(i),
            _ if self.is_u64() => Value::ULInt(i as u64),
            _ => Value::Int(i),
        }
    }

    /// `v` as a value of this type, or why it is none: an integer outside the type's range
    /// (`40000` is no INT), a REAL rounded to the nearest f32, an integer constant for a REAL
    /// pin converted. What a constant, an initial value, a written or forced value goes
    /// through.
    pub fn admit(self, v: Value) -> Result<Value, String> {
        match (self.bank(), v) {
            (Bank::Bool, Value::Bool(_)) | (Bank::Str, Value::Str(_)) => Ok(v),
            (_, Value::Time(_)) if self.is_time() => Ok(v),
            // 64 unsigned bits: any value from 0 up, the literal's bits kept.
            (_, Value::ULInt(_)) if self.is_u64() => Ok(v),
            (_, Value::Int(i)) if self.is_u64() => match u64::try_from(i) {
                Ok(u) => Ok(Value::ULInt(u)),
                Err(_) => Err(format!("{i} is out of the {self} range (0..{})", u64::MAX)),
            },
            (Bank::Int, Value::ULInt(u)) if !self.is_time() => match i64::try_from(u) {
                Ok(i) => self.admit(Value::Int(i)),
                Err(_) => Err(format!("{u} is out of the {self} range")),
            },
            (Bank::Int, Value::Int(i)) if !self.is_time() => match self.int_range() {
                Some((lo, hi)) if i < lo || i > hi => Err(format!("{i} is out of the {self} range ({lo}..{hi})")),
                _ => Ok(v),
            },
            (Bank::Real, Value::Real(r)) => Ok(Value::Real(self.round(r))),
            (Bank::Real, Value::Int(i)) => Ok(Value::Real(self.round(i as f64))),
            (Bank::Real, Value::ULInt(u)) => Ok(Value::Real(self.round(u as f64))),
            (_, Value::Int(i)) if self.is_time() => {
                Err(format!("{i} is not a {self}: a duration is written T#{i}ms, T#{i}s, ..."))
            }
            _ => Err(format!("{v} is not a {self}")),
        }
    }

    /// `v` written for a signal of this type: of its bank (an integer for a REAL converted)
    /// and within its range ([`Type::admit`]), or why not.
    pub fn fit(self, v: Value) -> Result<Value, String> {
        v.coerce(self).ok_or_else(|| format!("{v} is not a {self}")).and_then(|c| self.admit(c))
    }

    /// A float as the type holds it: REAL rounds to the nearest f32; LREAL keeps it.
    #[inline(always)]
    pub fn round(self, r: f64) -> f64 {
        if self == Type::Real { r as f32 as f64 } else { r }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A typed value, as read from or written to a signal.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Value {
    /// A BOOL value.
    Bool(bool),
    /// An INT value.
    Int(i64),
    /// A REAL value.
    Real(f64),
    /// A TIME (or LTIME) value in nanoseconds.
    Time(i64),
    /// A ULINT (or LWORD) value, or an integer literal above LINT's range.
    ULInt(u64),
    /// A STRING value.
    Str(IecString),
}

/// A constant as a program keeps it: a [`Value`] whose STRING text is boxed apart, 16 bytes (a
/// `Value` is 136, a STRING's size). A large program holds one per constant pin; boxing whole
/// values cost 136 bytes each.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// A BOOL value.
    Bool(bool),
    /// An INT value.
    Int(i64),
    /// A REAL value.
    Real(f64),
    /// A TIME value in nanoseconds.
    Time(i64),
    /// A ULINT value.
    ULInt(u64),
    /// A STRING value.
    Str(Box<IecString>),
}

const _: () = assert!(std::mem::size_of::<Literal>() == 16);

impl Literal {
    /// The value.
    pub fn value(&self) -> Value {
        match self {
            Literal::Bool(b) => Value::Bool(*b),
            Literal::Int(i) => Value::Int(*i),
            Literal::Real(r) => Value::Real(*r),
            Literal::Time(t) => Value::Time(*t),
            Literal::ULInt(u) => Value::ULInt(*u),
            Literal::Str(s) => Value::Str(**s),
        }
    }

    /// The type of the value.
    pub fn ty(&self) -> Type {
        self.value().ty()
    }
}

impl From<Value> for Literal {
    fn from(v: Value) -> Literal {
        match v {
            Value::Bool(b) => Literal::Bool(b),
            Value::Int(i) => Literal::Int(i),
            Value::Real(r) => Literal::Real(r),
            Value::Time(t) => Literal::Time(t),
            Value::ULInt(u) => Literal::ULInt(u),
            Value::Str(s) => Literal::Str(Box::new(s)),
        }
    }
}

impl std::fmt::Display for Literal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value().fmt(f)
    }
}

impl Value {
    /// The type of the value.
    pub fn ty(self) -> Type {
        match self {
            Value::Bool(_) => Type::Bool,
            Value::Int(_) => Type::LInt,
            Value::Real(_) => Type::LReal,
            Value::Time(_) => Type::Time,
            Value::ULInt(_) => Type::ULInt,
            Value::Str(_) => Type::String,
        }
    }

    /// The bank the value lives in.
    pub fn bank(self) -> Bank {
        self.ty().bank()
    }

    /// Converts to the bank of `ty` where that loses nothing a diagram author would care
    /// about: an integer constant may feed a REAL pin; nothing else converts implicitly. (The
    /// range of a narrow type is [`Type::admit`]'s to check.)
    pub fn coerce(self, ty: Type) -> Option<Value> {
        match (self, ty.bank()) {
            _ if self.ty().is_time() != ty.is_time() => None,
            (v, b) if v.bank() == b => Some(v),
            // IEC's BOOL literals include 0 and 1 (`BOOL#1`, or `1` where a BOOL is read).
            (Value::Int(i @ (0 | 1)), Bank::Bool) => Some(Value::Bool(i == 1)),
            (Value::Int(i), Bank::Real) => Some(Value::Real(i as f64)),
            (Value::ULInt(u), Bank::Real) => Some(Value::Real(u as f64)),
            _ => None,
        }
    }

    /// The value as a BOOL (`true` for non-zero numbers); used by conditions and plots.
    pub fn as_bool(self) -> bool {
        match self {
            Value::Bool(b) => b,
            Value::Int(i) | Value::Time(i) => i != 0,
            Value::ULInt(u) => u != 0,
            Value::Real(r) => r != 0.0,
            Value::Str(s) => !s.is_empty(),
        }
    }

    /// The value as f64 (BOOL as 0/1); used by trend plots.
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Bool(b) => b as i64 as f64,
            Value::Int(i) => i as f64,
            Value::ULInt(u) => u as f64,
            Value::Real(r) => r,
            // Milliseconds: what a trend of a timer's et reads in.
            Value::Time(ns) => ns as f64 / 1e6,
            // Its length: what a trend of a string can show.
            Value::Str(s) => s.len() as f64,
        }
    }

    /// Bitwise equality: `Real(NaN) == Real(NaN)` here, so traces compare bit for bit.
    pub fn same_bits(self, other: Value) -> bool {
        match (self, other) {
            (Value::Real(a), Value::Real(b)) => a.to_bits() == b.to_bits(),
            (a, b) => a == b,
        }
    }

    /// The value as a signal of type `ty` is written out: a REAL as its f32's shortest form
    /// (`49.29982`, what a PLC's REAL prints; the f64 digits of the same number,
    /// `49.29981994628906`, read as a value it does not have), everything else as `Display`.
    pub fn text_as(self, ty: Type) -> String {
        match (self, ty) {
            (Value::Real(r), Type::Real) => format!("{:?}", r as f32),
            (v, _) => v.to_string(),
        }
    }

    /// The integer a slot of the value's bank holds (a duration's nanoseconds, a BOOL as 0/1).
    pub fn as_i64(self) -> Option<i64> {
        match self {
            Value::Int(i) | Value::Time(i) => Some(i),
            Value::ULInt(u) => Some(u as i64),
            _ => None,
        }
    }

    /// The value as a drawing shows it beside a pin: BOOL and INT in full, a REAL to five
    /// significant digits (`0.67997`, `679.97`, `1.2346e7`; at least one decimal, so it still
    /// reads as a REAL). `Display` gives every digit (`0.6799679474004608`), which ran across
    /// the blocks and wires of a drawing; the debugger's tree and the tooltips keep that.
    pub fn short(self) -> String {
        // A STRING beside a pin: its first 20 characters (126 ran across the drawing).
        if let Value::Str(t) = self
            && t.len() > 20
        {
            let lit = IecString::new(&t.as_bytes()[..20]).literal();
            return format!("{}…'", &lit[..lit.len() - 1]);
        }
        let Value::Real(r) = self else { return self.to_string() };
        if r == 0.0 || !r.is_finite() {
            return self.to_string();
        }
        let a = r.abs();
        if (1e-4..1e6).contains(&a) {
            let before = a.log10().floor() as i32 + 1;
            let s = format!("{r:.*}", (5 - before).max(1) as usize);
            // Five significant digits, then the zeros rounding left at the end trimmed (keep one).
            let t = s.trim_end_matches('0');
            if t.ends_with('.') { format!("{t}0") } else { t.to_string() }
        } else {
            let s = format!("{r:.4e}");
            let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
            let m = m.trim_end_matches('0');
            let m = if m.ends_with('.') { format!("{m}0") } else { m.to_string() };
            format!("{m}e{e}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drawing_shows_a_real_to_five_significant_digits() {
        let cases = [
            (0.6799679474004608, "0.67997"),
            (679.9679474004608, "679.97"),
            (67996.79474004608, "67996.8"),
            (1.4054054054054055, "1.4054"),
            (-12.715840, "-12.716"),
            (2.5, "2.5"),
            (1.0, "1.0"),
            (9.999996, "10.0"),
            (0.000123456, "0.00012346"),
            (0.00001234, "1.234e-5"),
            (12345678.0, "1.2346e7"),
            (1e20, "1.0e20"),
            (0.0, "0.0"),
        ];
        for (r, want) in cases {
            assert_eq!(Value::Real(r).short(), want, "{r}");
        }
        assert_eq!(Value::Int(-1234567).short(), "-1234567");
        assert_eq!(Value::Bool(false).short(), "FALSE");
        assert_eq!(Value::Real(f64::INFINITY).short(), Value::Real(f64::INFINITY).to_string());
        let long = Value::Str(IecString::new("abcdefghijklmnopqrstuvwxyz".as_bytes()));
        assert_eq!(long.short(), "'abcdefghijklmnopqrst…'");
        assert_eq!(Value::Str(IecString::new(b"it's")).short(), "'it$'s'");
    }

    #[test]
    fn a_real_is_written_as_its_f32() {
        let r = Value::Real(0.1f32 as f64);
        assert_eq!(r.text_as(Type::Real), "0.1");
        assert_eq!(r.text_as(Type::LReal), "0.10000000149011612", "an LREAL keeps every digit");
        assert_eq!(Value::Int(-5).text_as(Type::Int), "-5");
    }
}
