//! The three signal types of the engine and a tagged value.

use std::fmt;

/// The type of a signal: what a slot of the runtime holds.
///
/// IEC 61131-3 names: `BOOL`, `LINT` (we call it `INT`, 64-bit) and `LREAL` (`REAL`, f64).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// A boolean.
    Bool,
    /// A 64-bit signed integer; overflow wraps and is reported as a fault.
    Int,
    /// A 64-bit float; a NaN result is reported as a fault.
    Real,
}

impl Type {
    /// The name used in diagrams (`BOOL`, `INT`, `REAL`).
    pub fn name(self) -> &'static str {
        match self {
            Type::Bool => "BOOL",
            Type::Int => "INT",
            Type::Real => "REAL",
        }
    }

    /// Parses a diagram type name.
    pub fn parse(s: &str) -> Option<Type> {
        match s {
            "BOOL" => Some(Type::Bool),
            "INT" => Some(Type::Int),
            "REAL" => Some(Type::Real),
            _ => None,
        }
    }

    /// The zero value of the type: what a slot holds before anything writes it.
    pub fn zero(self) -> Value {
        match self {
            Type::Bool => Value::Bool(false),
            Type::Int => Value::Int(0),
            Type::Real => Value::Real(0.0),
        }
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
}

impl Value {
    /// The type of the value.
    pub fn ty(self) -> Type {
        match self {
            Value::Bool(_) => Type::Bool,
            Value::Int(_) => Type::Int,
            Value::Real(_) => Type::Real,
        }
    }

    /// Converts to `ty` where that loses nothing a diagram author would care about:
    /// an INT constant may feed a REAL pin; nothing else converts implicitly.
    pub fn coerce(self, ty: Type) -> Option<Value> {
        match (self, ty) {
            (v, t) if v.ty() == t => Some(v),
            (Value::Int(i), Type::Real) => Some(Value::Real(i as f64)),
            _ => None,
        }
    }

    /// The value as a BOOL (`true` for non-zero numbers); used by conditions and plots.
    pub fn as_bool(self) -> bool {
        match self {
            Value::Bool(b) => b,
            Value::Int(i) => i != 0,
            Value::Real(r) => r != 0.0,
        }
    }

    /// The value as f64 (BOOL as 0/1); used by trend plots.
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Bool(b) => b as i64 as f64,
            Value::Int(i) => i as f64,
            Value::Real(r) => r,
        }
    }

    /// Bitwise equality: `Real(NaN) == Real(NaN)` here, so traces compare bit for bit.
    pub fn same_bits(self, other: Value) -> bool {
        match (self, other) {
            (Value::Real(a), Value::Real(b)) => a.to_bits() == b.to_bits(),
            (a, b) => a == b,
        }
    }

    /// The value as a drawing shows it beside a pin: BOOL and INT in full, a REAL to five
    /// significant digits (`0.67997`, `679.97`, `1.2346e7`; at least one decimal, so it still
    /// reads as a REAL). `Display` gives every digit (`0.6799679474004608`), which ran across
    /// the blocks and wires of a drawing; the debugger's tree and the tooltips keep that.
    pub fn short(self) -> String {
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

    /// Parses a textual value for `ty`: `true`/`false`/`1`/`0` for BOOL, integers, floats,
    /// and the IEC 61131-3 literals a PLC programmer types (`16#FF`, `1_000`, `T#500ms` as
    /// milliseconds, `INT#5`, `REAL#2`; see [`crate::iec::parse`]): a CODESYS user writing a
    /// timer preset as `T#500ms` into the debugger was told it was no INT.
    pub fn parse(text: &str, ty: Type) -> Result<Value, String> {
        let t = text.trim();
        let iec = || crate::iec::parse(t).ok();
        match ty {
            Type::Bool => match t.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" => Ok(Value::Bool(true)),
                "false" | "0" | "off" => Ok(Value::Bool(false)),
                _ => match iec() {
                    Some(Value::Bool(b)) => Ok(Value::Bool(b)),
                    _ => Err(format!("`{t}` is not a BOOL (use true/false or 1/0)")),
                },
            },
            Type::Int => t.parse::<i64>().map(Value::Int).or_else(|_| match iec() {
                Some(Value::Int(i)) => Ok(Value::Int(i)),
                _ => Err(format!("`{t}` is not an INT (e.g. 42, -7, 16#FF, 1_000, T#500ms)")),
            }),
            // Finite only, as a REAL literal in a diagram: `nan` and `inf` parse as floats, and
            // a NaN written into a running program was computed with until a block faulted.
            Type::Real => match t.parse::<f64>() {
                Ok(r) if r.is_finite() => Ok(Value::Real(r)),
                Ok(_) => Err(format!("`{t}` is not a finite REAL")),
                Err(_) => match iec() {
                    Some(Value::Real(r)) => Ok(Value::Real(r)),
                    Some(Value::Int(i)) => Ok(Value::Real(i as f64)),
                    _ => Err(format!("`{t}` is not a REAL (e.g. 2.5, -0.1, 1.5E3, REAL#2)")),
                },
            },
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{}", if *b { "TRUE" } else { "FALSE" }),
            Value::Int(i) => write!(f, "{i}"),
            Value::Real(r) => write!(f, "{r:?}"),
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
    }

    #[test]
    fn a_typed_real_is_finite() {
        assert_eq!(Value::parse(" 2.5 ", Type::Real), Ok(Value::Real(2.5)));
        for t in ["nan", "NaN", "inf", "-infinity", "1e999"] {
            assert_eq!(Value::parse(t, Type::Real), Err(format!("`{t}` is not a finite REAL")), "{t}");
        }
        assert_eq!(Value::parse("x", Type::Real), Err("`x` is not a REAL (e.g. 2.5, -0.1, 1.5E3, REAL#2)".to_string()));
        // IEC's REAL#1E999 is out of range too.
        assert!(Value::parse("REAL#1E999", Type::Real).is_err());
    }

    /// What a PLC programmer types into a write field: IEC literals, a timer preset as a TIME.
    #[test]
    fn iec_literals_are_typed_values_too() {
        let int = |t| Value::parse(t, Type::Int);
        assert_eq!(int("16#FF"), Ok(Value::Int(255)));
        assert_eq!(int("2#1010"), Ok(Value::Int(10)));
        assert_eq!(int("1_000"), Ok(Value::Int(1000)));
        assert_eq!(int("T#1s500ms"), Ok(Value::Int(1500)), "a TIME is INT milliseconds");
        assert_eq!(int("t#50ms"), Ok(Value::Int(50)));
        assert_eq!(int("INT#-5"), Ok(Value::Int(-5)));
        assert_eq!(int("-9223372036854775808"), Ok(Value::Int(i64::MIN)));
        // The IEC reader too (an exported constant of the smallest INT did not read back).
        assert_eq!(crate::iec::parse("-9223372036854775808"), Ok(Value::Int(i64::MIN)));
        assert_eq!(crate::iec::parse("-16#8000000000000000"), Ok(Value::Int(i64::MIN)));
        assert!(crate::iec::parse("9223372036854775808").unwrap_err().contains("out of the INT range"));
        assert!(int("1.5").is_err(), "no REAL for an INT");
        assert_eq!(Value::parse("REAL#2", Type::Real), Ok(Value::Real(2.0)));
        assert_eq!(Value::parse("16#10", Type::Real), Ok(Value::Real(16.0)));
        assert_eq!(Value::parse("1_000.5", Type::Real), Ok(Value::Real(1000.5)));
        assert_eq!(Value::parse("BOOL#TRUE", Type::Bool), Ok(Value::Bool(true)));
        assert!(Value::parse("T#5s", Type::Bool).is_err());
    }
}
