//! IEC 61131-3 literals and elementary types, mapped onto the engine's three types: BOOL;
//! every integer type → INT (64-bit); REAL and LREAL → REAL; TIME → INT milliseconds. What a
//! PLCopen file writes, and what a CODESYS user types into a debugger's write field (`16#FF`,
//! `1_000`, `T#500ms`): [`Value::parse`] takes them too.

use crate::types::{Type, Value};

/// The engine type for an IEC elementary type name, and whether the mapping widens it (ULINT
/// and LWORD are held as LINT: a value above 2^63 does not fit; TIME is LINT milliseconds).
pub fn elementary(name: &str) -> Option<(Type, bool)> {
    let u = name.to_ascii_uppercase();
    if let Some(t) = Type::parse(&u) {
        return Some((t, false));
    }
    Some(match u.as_str() {
        "ULINT" | "LWORD" => (Type::LInt, true),
        "TIME" | "LTIME" => (Type::LInt, false),
        _ => return None,
    })
}

/// Parses a literal: `TRUE`, `FALSE`, `-7`, `16#FF`, `2#1010`, `8#17`, `1_000`, `1.5E3`,
/// `INT#5`, `REAL#2.5`, `BOOL#1`, `T#1s500ms`, `TIME#2m`, `t#50ms`.
pub fn parse(text: &str) -> Result<Value, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("an empty literal".into());
    }
    let upper = t.to_ascii_uppercase();
    if let Some(rest) = strip_any(&upper, &["T#", "TIME#", "LTIME#", "LT#"]) {
        return duration_ms(rest).map(Value::Int).map_err(|why| format!("`{t}`: {why}"));
    }
    if let Some((ty, rest)) = upper.split_once('#')
        && let Some((tyv, _)) = elementary(ty)
        && !ty.chars().all(|c| c.is_ascii_digit())
    {
        let v = parse(rest)?;
        if let (Value::Int(i), Some((lo, hi))) = (v, int_range(ty))
            && (i128::from(i) < lo || i128::from(i) > hi)
        {
            return Err(format!("`{t}`: {rest} is out of the {ty} range ({lo}..{hi})"));
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

/// The values an IEC integer type holds (those the engine's 64-bit INT can hold of ULINT and
/// LWORD).
fn int_range(ty: &str) -> Option<(i128, i128)> {
    Some(match ty {
        "SINT" => (-128, 127),
        "INT" => (-32768, 32767),
        "DINT" => (i32::MIN.into(), i32::MAX.into()),
        "LINT" => (i64::MIN.into(), i64::MAX.into()),
        "USINT" | "BYTE" => (0, 255),
        "UINT" | "WORD" => (0, 65535),
        "UDINT" | "DWORD" => (0, u32::MAX.into()),
        "ULINT" | "LWORD" => (0, i64::MAX.into()),
        _ => return None,
    })
}

/// `v` as an INT, or why it is none.
fn signed(v: i128, t: &str) -> Result<Value, String> {
    i64::try_from(v).map(Value::Int).map_err(|_| format!("`{t}` is out of the INT range"))
}

fn strip_any<'a>(s: &'a str, prefixes: &[&str]) -> Option<&'a str> {
    prefixes.iter().find_map(|p| s.strip_prefix(p))
}

/// `1s500ms`, `2m`, `1h2m3s`, `1.5s`, `100ms`, `-5ms` → milliseconds. TIME is INT
/// milliseconds here: a duration finer than that (`T#1us`, `T#1.5ms`) or beyond the INT range
/// is refused, not rounded or saturated.
pub fn duration_ms(s: &str) -> Result<i64, String> {
    let ms = duration_exact_ms(s)
        .ok_or("not a duration: units d, h, m, s, ms, us, ns, largest first, each once (T#1s500ms)")?;
    if ms.fract() != 0.0 {
        return Err(format!("{ms} ms is finer than the millisecond a TIME holds here"));
    }
    if !ms.is_finite() || ms.abs() >= 9.2e18 {
        return Err("beyond the range of a TIME".into());
    }
    Ok(ms as i64)
}

/// A duration in milliseconds, fractions kept (`500us` is 0.5): a task interval may be
/// shorter than a millisecond.
pub fn duration_exact_ms(s: &str) -> Option<f64> {
    let s = s.trim().to_ascii_lowercase().replace('_', "");
    let (neg, mut rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.as_str()),
    };
    if rest.is_empty() {
        return None;
    }
    let mut total = 0.0f64;
    let units = ["d", "h", "m", "s", "ms", "us", "ns"];
    // Each unit once, largest first (`T#1m1m`, `T#1ms1s` are no durations).
    let mut next_unit = 0;
    while !rest.is_empty() {
        let n = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        if n == 0 {
            return None;
        }
        let num: f64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let unit = ["ms", "us", "ns", "d", "h", "m", "s"].into_iter().find(|u| rest.starts_with(u))?;
        rest = &rest[unit.len()..];
        let rank = units.iter().position(|u| *u == unit)?;
        if rank < next_unit {
            return None;
        }
        next_unit = rank + 1;
        total += num
            * match unit {
                "d" => 86_400_000.0,
                "h" => 3_600_000.0,
                "m" => 60_000.0,
                "s" => 1000.0,
                "ms" => 1.0,
                "us" => 0.001,
                _ => 0.000_001,
            };
    }
    Some(if neg { -total } else { total })
}
