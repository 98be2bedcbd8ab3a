//! IEC 61131-3 literals and elementary type names. What a PLCopen file writes, and what a CODESYS user types into a debugger's write field (`16#FF`,
//! `1_000`, `T#500ms`): [`Value::parse`] takes them too.

use std::fmt;

use crate::types::{Bank, IecString, STRING_CAPACITY, Type, Value};

/// The engine type for an IEC elementary type name (case-insensitive).
pub fn elementary(name: &str) -> Option<Type> {
    Type::parse(name)
}

/// Values read from and written as text: what a write field, `--set`, a stimulus file and a
/// trace take and give.
impl Value {
    /// Parses a textual value for `ty`: `true`/`false`/`1`/`0` for BOOL, integers, floats,
    /// and the IEC 61131-3 literals a PLC programmer types (`16#FF`, `1_000`, `T#500ms` for a
    /// TIME, `INT#5`, `REAL#2`; see [`parse`]).
    pub fn parse(text: &str, ty: Type) -> Result<Value, String> {
        let t = text.trim();
        let iec = || parse(t).ok();
        let v = match ty.bank() {
            Bank::Bool => match t.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" => Ok(Value::Bool(true)),
                "false" | "0" | "off" => Ok(Value::Bool(false)),
                _ => match iec() {
                    Some(Value::Bool(b)) => Ok(Value::Bool(b)),
                    _ => Err(format!("`{t}` is not a BOOL (use true/false or 1/0)")),
                },
            },
            // A duration typed without its `T#` (`1s500ms`) is still one.
            Bank::Int if ty.is_time() => match iec().or_else(|| parse(&format!("T#{t}")).ok()) {
                Some(Value::Time(ns)) => Ok(Value::Time(ns)),
                _ => Err(format!("`{t}` is not a {ty} (e.g. T#500ms, T#1m30s, T#1.5s)")),
            },
            Bank::Int => t.parse::<i64>().map(Value::Int).or_else(|_| match iec() {
                Some(Value::Int(i)) => Ok(Value::Int(i)),
                Some(Value::ULInt(u)) => Ok(Value::ULInt(u)),
                _ => Err(format!("`{t}` is not a {ty} (e.g. 42, -7, 16#FF, 1_000)")),
            }),
            // A quoted literal with its escapes (`'a$Nb'`), or the text as typed.
            Bank::Str if t.starts_with('\'') => IecString::parse_literal(t).map(Value::Str),
            Bank::Str if text.len() > STRING_CAPACITY => {
                Err(format!("{} characters; a STRING holds {STRING_CAPACITY}", text.len()))
            }
            Bank::Str => Ok(Value::Str(IecString::new(text.as_bytes()))),
            // Finite only, as a REAL literal in a diagram: `nan` and `inf` parse as floats, and
            // a NaN written into a running program was computed with until a block faulted.
            Bank::Real => match t.parse::<f64>() {
                Ok(r) if r.is_finite() && ty.round(r).is_finite() => Ok(Value::Real(r)),
                Ok(_) => Err(format!("`{t}` is not a finite {ty}")),
                Err(_) => match iec() {
                    Some(Value::Real(r)) => Ok(Value::Real(r)),
                    Some(Value::Int(i)) => Ok(Value::Real(i as f64)),
                    _ => Err(format!("`{t}` is not a {ty} (e.g. 2.5, -0.1, 1.5E3, REAL#2)")),
                },
            },
        }?;
        ty.admit(v).map_err(|e| format!("`{t}`: {e}"))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{}", if *b { "TRUE" } else { "FALSE" }),
            Value::Int(i) => write!(f, "{i}"),
            Value::Real(r) => write!(f, "{r:?}"),
            Value::Time(ns) => f.write_str(&duration_literal(*ns)),
            Value::ULInt(u) => write!(f, "{u}"),
            Value::Str(s) => f.write_str(&s.literal()),
        }
    }
}

/// Parses a literal: `TRUE`, `FALSE`, `-7`, `16#FF`, `2#1010`, `8#17`, `1_000`, `1.5E3`,
/// `INT#5`, `REAL#2.5`, `BOOL#1`, `T#1s500ms`, `TIME#2m`, `t#50ms`, `'text'`, `STRING#'text'`.
pub fn parse(text: &str) -> Result<Value, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("an empty literal".into());
    }
    if t.starts_with('\'') {
        return crate::types::IecString::parse_literal(t).map(Value::Str);
    }
    if let Some(rest) = t.get(..7).filter(|p| p.eq_ignore_ascii_case("STRING#")).and(t.get(7..)) {
        return crate::types::IecString::parse_literal(rest).map(Value::Str);
    }
    let upper = t.to_ascii_uppercase();
    if let Some(rest) = strip_any(&upper, &["T#", "TIME#", "LTIME#", "LT#"]) {
        return duration_ns(rest).map(Value::Time).map_err(|why| format!("`{t}`: {why}"));
    }
    if let Some((ty, rest)) = upper.split_once('#')
        && let Some(tyv) = elementary(ty)
        && !ty.chars().all(|c| c.is_ascii_digit())
    {
        let v = parse(rest)?;
        let whole = match v {
            Value::Int(i) => Some(i128::from(i)),
            Value::ULInt(u) => Some(i128::from(u)),
            _ => None,
        };
        if let (Some(i), Some((lo, hi))) = (whole, int_range(ty))
            && (i < lo || i > hi)
        {
            return Err(format!("`{t}`: {rest} is out of the {ty} range ({lo}..{hi})"));
        }
        if tyv.is_u64()
            && let Some(i) = whole
        {
            return Ok(Value::ULInt(i as u64));
        }
        return v.coerce(tyv).ok_or_else(|| format!("`{t}`: {rest} is not a {}", tyv.name()));
    }
    match upper.as_str() {
        "TRUE" => return Ok(Value::Bool(true)),
        "FALSE" => return Ok(Value::Bool(false)),
        _ => {}
    }
    let (neg, body) = match upper.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, upper.strip_prefix('+').unwrap_or(&upper)),
    };
    let raw = body.split_once('#').map_or(body, |(_, x)| x);
    // IEC: digits, single underscores between them; no sign after a base, no second sign.
    if raw.is_empty() || raw.starts_with('_') || raw.ends_with('_') || raw.contains("__") {
        return Err(format!("`{t}`: an underscore stands only between two digits"));
    }
    if raw.starts_with(['+', '-']) {
        return Err(format!("`{t}` has a sign where a digit belongs"));
    }
    let body = body.replace('_', "");
    if let Some((base, digits)) = body.split_once('#') {
        let radix = match base {
            "2" => 2,
            "8" => 8,
            "16" => 16,
            _ => return Err(format!("`{t}`: base {base} is not 2, 8 or 16")),
        };
        let v = i128::from_str_radix(digits, radix).map_err(|_| format!("`{t}` is not a base-{radix} integer"))?;
        return signed(if neg { -v } else { v }, t);
    }
    if body.contains(['.', 'E']) {
        let r: f64 = body.parse().map_err(|_| format!("`{t}` is not a number"))?;
        if !r.is_finite() {
            return Err(format!("`{t}` is out of the REAL range"));
        }
        return Ok(Value::Real(if neg { -r } else { r }));
    }
    let v: i128 = body.parse().map_err(|_| format!("`{t}` is not a literal (TRUE, 42, 16#FF, 2.5, T#100ms)"))?;
    // The sign before the range: -9223372036854775808 is an INT, its digits alone are not.
    signed(if neg { -v } else { v }, t)
}

/// The values an IEC integer type holds.
fn int_range(ty: &str) -> Option<(i128, i128)> {
    Some(match ty {
        "SINT" => (-128, 127),
        "INT" => (-32768, 32767),
        "DINT" => (i32::MIN.into(), i32::MAX.into()),
        "LINT" => (i64::MIN.into(), i64::MAX.into()),
        "USINT" | "BYTE" => (0, 255),
        "UINT" | "WORD" => (0, 65535),
        "UDINT" | "DWORD" => (0, u32::MAX.into()),
        "ULINT" | "LWORD" => (0, u64::MAX.into()),
        _ => return None,
    })
}

/// `v` as an integer value: a LINT, or above LINT's range a ULINT; or why it is none.
fn signed(v: i128, t: &str) -> Result<Value, String> {
    i64::try_from(v)
        .map(Value::Int)
        .or_else(|_| u64::try_from(v).map(Value::ULInt))
        .map_err(|_| format!("`{t}` is out of the LINT and ULINT ranges"))
}

fn strip_any<'a>(s: &'a str, prefixes: &[&str]) -> Option<&'a str> {
    prefixes.iter().find_map(|p| s.strip_prefix(p))
}

/// A duration literal's units, largest first, with their nanoseconds.
const UNITS: [(&str, i128); 7] = [
    ("d", 86_400_000_000_000),
    ("h", 3_600_000_000_000),
    ("m", 60_000_000_000),
    ("s", 1_000_000_000),
    ("ms", 1_000_000),
    ("us", 1_000),
    ("ns", 1),
];

/// `1s500ms`, `2m`, `1h2m3s`, `1.5s`, `100ms`, `-5ms`, `1us` → nanoseconds, exactly (a
/// TIME's resolution; digits below it truncated, as matiec truncates). A duration beyond ±292
/// years is refused, not saturated.
pub fn duration_ns(s: &str) -> Result<i64, String> {
    const SYNTAX: &str = "not a duration: units d, h, m, s, ms, us, ns, largest first, each once (T#1s500ms)";
    let s = s.trim().to_ascii_lowercase().replace('_', "");
    let (neg, mut rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.as_str()),
    };
    if rest.is_empty() {
        return Err(SYNTAX.into());
    }
    let mut total: i128 = 0;
    let mut next_unit = 0;
    while !rest.is_empty() {
        let n = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let (whole, frac) = rest[..n].split_once('.').unwrap_or((&rest[..n], ""));
        if whole.is_empty() || frac.contains('.') || whole.len() > 30 || frac.len() > 30 {
            return Err(SYNTAX.into());
        }
        rest = &rest[n..];
        // Longest unit name first: `ms` is not `m` followed by `s`.
        let unit = ["ms", "us", "ns", "d", "h", "m", "s"].into_iter().find(|u| rest.starts_with(u)).ok_or(SYNTAX)?;
        rest = &rest[unit.len()..];
        let rank = UNITS.iter().position(|(u, _)| *u == unit).ok_or(SYNTAX)?;
        if rank < next_unit {
            return Err(SYNTAX.into());
        }
        next_unit = rank + 1;
        let scale = UNITS[rank].1;
        let whole: i128 = whole.parse().map_err(|_| SYNTAX)?;
        let frac_scaled = if frac.is_empty() {
            0
        } else {
            let digits: i128 = frac.parse().map_err(|_| SYNTAX)?;
            // Below the nanosecond truncated, as matiec does (`T#300.0000005ms`, the export's
            // form, is 300 ms).
            digits * scale / 10i128.pow(frac.len() as u32)
        };
        total = whole
            .checked_mul(scale)
            .and_then(|w| w.checked_add(frac_scaled))
            .and_then(|v| total.checked_add(v))
            .ok_or("beyond the range of a TIME")?;
        if total > i64::MAX as i128 + 1 {
            return Err("beyond the range of a TIME (±292 years)".into());
        }
    }
    let total = if neg { -total } else { total };
    i64::try_from(total).map_err(|_| "beyond the range of a TIME (±292 years)".to_string())
}

/// A duration as its IEC literal, each unit once, largest first: `T#1s500ms`, `T#-5ms`,
/// `T#1ms1us`, `T#0s`. [`duration_ns`] reads it back to the same nanoseconds.
pub fn duration_literal(ns: i64) -> String {
    if ns == 0 {
        return "T#0s".into();
    }
    let mut out = String::from(if ns < 0 { "T#-" } else { "T#" });
    let mut rest = (ns as i128).unsigned_abs();
    for (unit, scale) in UNITS {
        let scale = scale as u128;
        let n = rest / scale;
        rest %= scale;
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    out
}

/// A duration in milliseconds, fractions kept (`500us` is 0.5): a task interval may be
/// shorter than a millisecond. The same reading as [`duration_ns`].
pub fn duration_exact_ms(s: &str) -> Option<f64> {
    duration_ns(s).ok().map(|ns| ns as f64 / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_real_is_finite() {
        assert_eq!(Value::parse(" 2.5 ", Type::LReal), Ok(Value::Real(2.5)));
        for t in ["nan", "NaN", "inf", "-infinity", "1e999"] {
            assert_eq!(Value::parse(t, Type::LReal), Err(format!("`{t}` is not a finite LREAL")), "{t}");
        }
        assert_eq!(
            Value::parse("x", Type::LReal),
            Err("`x` is not a LREAL (e.g. 2.5, -0.1, 1.5E3, REAL#2)".to_string())
        );
        // IEC's REAL#1E999 is out of range too.
        assert!(Value::parse("REAL#1E999", Type::LReal).is_err());
    }

    /// What a PLC programmer types into a write field: IEC literals, a timer preset as a TIME.
    #[test]
    fn iec_literals_are_typed_values_too() {
        let int = |t| Value::parse(t, Type::LInt);
        assert_eq!(int("16#FF"), Ok(Value::Int(255)));
        assert_eq!(int("2#1010"), Ok(Value::Int(10)));
        assert_eq!(int("1_000"), Ok(Value::Int(1000)));
        assert!(int("T#1s500ms").is_err(), "a TIME is no LINT");
        let time = |t| Value::parse(t, Type::Time);
        assert_eq!(time("T#1s500ms"), Ok(Value::Time(1_500_000_000)));
        assert_eq!(time("t#50ms"), Ok(Value::Time(50_000_000)));
        assert_eq!(time("250us"), Ok(Value::Time(250_000)), "a duration typed without its T#");
        assert!(time("500").unwrap_err().contains("T#500ms"), "a bare number is no TIME");
        assert_eq!(Value::parse("T#2s", Type::LTime), Ok(Value::Time(2_000_000_000)));
        assert_eq!(int("INT#-5"), Ok(Value::Int(-5)));
        assert_eq!(int("-9223372036854775808"), Ok(Value::Int(i64::MIN)));
        // The IEC reader too (an exported constant of the smallest INT did not read back).
        assert_eq!(parse("-9223372036854775808"), Ok(Value::Int(i64::MIN)));
        assert_eq!(parse("-16#8000000000000000"), Ok(Value::Int(i64::MIN)));
        assert_eq!(parse("9223372036854775808"), Ok(Value::ULInt(1 << 63)), "above LINT: a ULINT");
        assert!(parse("18446744073709551616").unwrap_err().contains("out of the LINT and ULINT ranges"));
        assert!(int("1.5").is_err(), "no REAL for an INT");
        assert_eq!(Value::parse("REAL#2", Type::LReal), Ok(Value::Real(2.0)));
        assert_eq!(Value::parse("16#10", Type::LReal), Ok(Value::Real(16.0)));
        assert_eq!(Value::parse("1_000.5", Type::LReal), Ok(Value::Real(1000.5)));
        assert_eq!(Value::parse("BOOL#TRUE", Type::Bool), Ok(Value::Bool(true)));
        assert!(Value::parse("T#5s", Type::Bool).is_err());
    }
}
