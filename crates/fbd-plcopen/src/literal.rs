//! IEC 61131-3 literals as PLCopen files write them: reading them is the engine's
//! (`fbd_model::iec`, which the debuggers' write fields use too), and this adds the task
//! interval and the text the export writes.

use fbd_model::Value;
use fbd_model::iec::duration_exact_ms;
pub use fbd_model::iec::{elementary, parse};

/// A task interval: `T#20ms`, `t#50ms`, `T#2ms`, or `00:00:00.100000` (as CODESYS writes it)
/// → milliseconds.
pub fn interval_ms(s: &str) -> Option<f64> {
    let t = s.trim();
    let upper = t.to_ascii_uppercase();
    if let Some(rest) = ["T#", "TIME#"].iter().find_map(|p| upper.strip_prefix(p)) {
        // Sub-millisecond intervals stay exact (T#500us is 0.5 ms).
        return duration_exact_ms(rest);
    }
    // ISO 8601, as CODESYS writes a task interval: `PT0.02S`, `PT1M30S`, `PT1H`.
    if let Some(iso) = upper.strip_prefix("PT") {
        let mut total = 0.0;
        let mut rest = iso;
        let mut seen = 0;
        while !rest.is_empty() {
            let n = rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
            let num: f64 = rest[..n].parse().ok()?;
            let (unit, ms) = match rest[n..].chars().next()? {
                'H' => (1, 3_600_000.0),
                'M' => (2, 60_000.0),
                'S' => (3, 1000.0),
                _ => return None,
            };
            if unit <= seen {
                return None;
            }
            seen = unit;
            total += num * ms;
            rest = &rest[n + 1..];
        }
        return (seen > 0).then_some(total);
    }
    let parts: Vec<&str> = t.split(':').collect();
    if parts.len() == 3 {
        let h: f64 = parts[0].parse().ok()?;
        let m: f64 = parts[1].parse().ok()?;
        let sec: f64 = parts[2].parse().ok()?;
        return Some(((h * 60.0 + m) * 60.0 + sec) * 1000.0);
    }
    None
}

/// A variable's initial value as a PLCopen file writes it: a literal, or for a STRING the text
/// itself when it is not quoted (Beremiz's editor writes `blup` for `'blup'`, and its
/// generator quotes it so).
pub fn initial_value(text: &str, ty: Option<fbd_model::Type>) -> Result<Value, String> {
    if ty == Some(fbd_model::Type::String) && !text.starts_with('\'') && !text.ends_with('\'') {
        return Value::parse(text, fbd_model::Type::String);
    }
    // A BOOL's 0 and 1 are IEC BOOL literals (svghmi writes `1`).
    match (ty, text.trim()) {
        (Some(fbd_model::Type::Bool), "0") => Ok(Value::Bool(false)),
        (Some(fbd_model::Type::Bool), "1") => Ok(Value::Bool(true)),
        _ => parse(text),
    }
}

/// A literal as IEC text (for export).
pub fn to_iec(v: Value) -> String {
    match v {
        Value::Bool(b) => if b { "TRUE" } else { "FALSE" }.into(),
        Value::Int(i) => i.to_string(),
        Value::Time(ns) => time_literal(ns),
        Value::ULInt(u) => u.to_string(),
        Value::Str(s) => s.literal(),
        Value::Real(r) => {
            // IEC 61131-3 wants a point in every REAL literal, before an exponent too:
            // `1e300` is no literal there (matiec refuses it), `1.0e300` is.
            let s = format!("{r:?}");
            match s.split_once('e') {
                Some((m, e)) if !m.contains('.') => format!("{m}.0e{e}"),
                Some(_) => s,
                None if s.contains('.') => s,
                None => format!("{s}.0"),
            }
        }
    }
}

/// A TIME as a literal every IEC compiler reads to the same nanoseconds: units from the largest
/// present down without a gap (matiec refuses `T#1h5ms`), sub-second parts as fractional
/// milliseconds (matiec has no `us`, `ns`), and half a nanosecond more: matiec converts a
/// duration literal through a long double and truncates, which reads `T#300ms` as
/// 299.999999 ms; `T#300.0000005ms` is 300 ms there, and in any tool that truncates below a
/// nanosecond.
pub fn time_literal(ns: i64) -> String {
    let sign = if ns < 0 { "-" } else { "" };
    let abs = (ns as i128).unsigned_abs();
    let (secs, sub) = (abs / 1_000_000_000, abs % 1_000_000_000);
    let fields = [(secs / 86_400, "d"), (secs / 3_600 % 24, "h"), (secs / 60 % 60, "m"), (secs % 60, "s")];
    let Some(first) = fields.iter().position(|(n, _)| *n != 0) else {
        return if sub == 0 { "T#0s".into() } else { format!("T#{sign}{}.{:06}5ms", sub / 1_000_000, sub % 1_000_000) };
    };
    let last = if sub != 0 { fields.len() - 1 } else { fields.iter().rposition(|(n, _)| *n != 0).unwrap_or(first) };
    let mut out = format!("T#{sign}");
    for (n, unit) in &fields[first..=last] {
        out.push_str(&format!("{n}{unit}"));
    }
    if sub != 0 {
        out.push_str(&format!("{}.{:06}5ms", sub / 1_000_000, sub % 1_000_000));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fbd_model::Type;

    /// Every REAL is written with a point (IEC's grammar: digits `.` digits, then an exponent),
    /// and reads back to the same bits.
    #[test]
    fn a_real_literal_always_has_its_point() {
        for (v, text) in
            [(1e300, "1.0e300"), (1e-300, "1.0e-300"), (1.5e300, "1.5e300"), (-0.0, "-0.0"), (5.0, "5.0"), (0.1, "0.1")]
        {
            assert_eq!(to_iec(Value::Real(v)), text);
            let back = parse(text).expect("parses");
            assert!(back.same_bits(Value::Real(v)), "{text} read back as {back:?}");
        }
    }

    /// What the export writes for a TIME: no gap in the units, no `us`, the half nanosecond;
    /// and it reads back to the same duration.
    #[test]
    fn a_time_literal_is_one_matiec_reads_exactly() {
        for (ns, text) in [
            (0, "T#0s"),
            (300_000_000, "T#300.0000005ms"),
            (-5_000_000, "T#-5.0000005ms"),
            (3_600_000_000_000, "T#1h"),
            (3_600_005_000_000, "T#1h0m0s5.0000005ms"),
            (86_400_000_000_000 + 1_000, "T#1d0h0m0s0.0010005ms"),
            (61_000_000_000, "T#1m1s"),
        ] {
            assert_eq!(time_literal(ns), text);
            assert_eq!(parse(text), Ok(Value::Time(ns)), "{text} reads back");
        }
    }

    #[test]
    fn iec_literals_of_every_form_parse() {
        assert_eq!(parse("TRUE"), Ok(Value::Bool(true)));
        assert_eq!(parse("false"), Ok(Value::Bool(false)));
        assert_eq!(parse("16#FF"), Ok(Value::Int(255)));
        assert_eq!(parse("2#1010"), Ok(Value::Int(10)));
        assert_eq!(parse("8#17"), Ok(Value::Int(15)));
        assert_eq!(parse("1_000"), Ok(Value::Int(1000)));
        assert_eq!(parse("1.5E3"), Ok(Value::Real(1500.0)));
        assert_eq!(parse("INT#5"), Ok(Value::Int(5)));
        assert_eq!(parse("REAL#2"), Ok(Value::Real(2.0)));
        assert_eq!(parse("-7"), Ok(Value::Int(-7)));
        assert_eq!(parse("T#1s500ms"), Ok(Value::Time(1_500_000_000)));
        assert_eq!(parse("TIME#2m"), Ok(Value::Time(120_000_000_000)));
        assert_eq!(parse("t#50ms"), Ok(Value::Time(50_000_000)));
        assert_eq!(parse("T#1us"), Ok(Value::Time(1_000)), "a TIME holds nanoseconds");
        assert_eq!(parse("T#1.5ms"), Ok(Value::Time(1_500_000)));
        assert_eq!(parse("T#-2.5s"), Ok(Value::Time(-2_500_000_000)));
        assert_eq!(parse("LT#1d2h"), Ok(Value::Time(93_600_000_000_000)));
        assert_eq!(parse("T#1.0000000019s"), Ok(Value::Time(1_000_000_001)), "below a nanosecond truncated");
        assert!(parse("16#GG").is_err());
        assert!(parse("T#5x").is_err());
        assert_eq!(parse("DINT#-2147483648"), Ok(Value::Int(-2147483648)));
        assert_eq!(parse("WORD#16#FFFF"), Ok(Value::Int(65535)));
        // Out of their type's range, or not IEC's grammar: refused, each with why.
        for (bad, why) in [
            ("INT#40000", "out of the INT range (-32768..32767)"),
            ("SINT#200", "out of the SINT range"),
            ("USINT#-1", "out of the USINT range (0..255)"),
            ("1__0", "underscore"),
            ("_1", "underscore"),
            ("1_", "underscore"),
            ("16#-1", "sign where a digit belongs"),
            ("--5", "sign where a digit belongs"),
            ("T#1m1m", "largest first, each once"),
            ("T#1ms1s", "largest first, each once"),
            ("T#999999999999999d", "beyond the range of a TIME"),
        ] {
            let e = parse(bad).expect_err(bad);
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert_eq!(interval_ms("T#20ms"), Some(20.0));
        assert_eq!(interval_ms("t#50ms"), Some(50.0));
        assert_eq!(interval_ms("00:00:00.100000"), Some(100.0));
        assert_eq!(interval_ms("T#500us"), Some(0.5));
        assert_eq!(interval_ms("PT0.02S"), Some(20.0), "CODESYS's ISO 8601 form");
        assert_eq!(interval_ms("PT1M30S"), Some(90_000.0));
        assert_eq!(interval_ms("PT5S1M"), None, "largest unit first");
        assert_eq!(to_iec(Value::Real(2.0)), "2.0");
        assert_eq!(elementary("UDINT"), Some(Type::UDInt));
        assert_eq!(elementary("ULINT"), Some(Type::ULInt));
        assert_eq!(parse("18446744073709551615"), Ok(Value::ULInt(u64::MAX)), "above LINT: a ULINT");
        assert_eq!(parse("LWORD#16#FFFFFFFFFFFFFFFF"), Ok(Value::ULInt(u64::MAX)));
        assert!(parse("LINT#18446744073709551615").unwrap_err().contains("out of the LINT range"));
        assert_eq!(elementary("LREAL"), Some(Type::LReal));
    }
}
