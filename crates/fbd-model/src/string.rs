//! STRING: a fixed-capacity byte string ([`IecString`], copied, never allocated) and the
//! IEC 61131-3 string functions as matiec's C library computes them (`lib/C/iec_std_lib.h`,
//! `iec_std_functions.h`): the PLC our exports are checked on. Where matiec's C is undefined
//! (a position of 0 for DELETE, a position past 127 for INSERT) the result here is a choice
//! of ours and the caller reports a fault; where matiec computes something IEC's text does not
//! (REPLACE inserts only the first L characters of IN2, FIND does not backtrack) this follows
//! matiec. `docs/blocks.md` lists each.

use std::fmt;

/// The characters a STRING holds: matiec's `STR_MAX_LEN`. A longer result is cut to it, as
/// matiec's functions cut theirs.
pub const STRING_CAPACITY: usize = 126;

/// A STRING value: up to [`STRING_CAPACITY`] bytes (IEC's STRING is single-byte characters).
#[derive(Copy, Clone)]
pub struct IecString {
    len: u8,
    bytes: [u8; STRING_CAPACITY],
}

impl IecString {
    /// The empty string.
    pub const EMPTY: IecString = IecString { len: 0, bytes: [0; STRING_CAPACITY] };

    /// `b` as a STRING, cut to the capacity.
    pub fn new(b: &[u8]) -> IecString {
        let mut s = IecString::EMPTY;
        s.push(b);
        s
    }

    /// The bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// The number of characters.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends what fits of `b`.
    #[inline]
    pub fn push(&mut self, b: &[u8]) {
        let n = b.len().min(STRING_CAPACITY - self.len as usize);
        self.bytes[self.len as usize..self.len as usize + n].copy_from_slice(&b[..n]);
        self.len += n as u8;
    }

    /// The string as an IEC literal: `'it$'s'`, with `$` escapes for `$`, `'` and every byte
    /// outside printable ASCII (`$N`, `$T`, `$0A`...).
    pub fn literal(&self) -> String {
        let mut s = String::with_capacity(self.len() + 2);
        s.push('\'');
        for &c in self.as_bytes() {
            match c {
                b'$' => s.push_str("$$"),
                b'\'' => s.push_str("$'"),
                b'\n' => s.push_str("$N"),
                b'\r' => s.push_str("$R"),
                b'\t' => s.push_str("$T"),
                0x0c => s.push_str("$P"),
                0x20..=0x7e => s.push(c as char),
                _ => s.push_str(&format!("${c:02X}")),
            }
        }
        s.push('\'');
        s
    }

    /// Parses an IEC single-byte string literal (`'abc'`, `'it$'s'`, `'$0A'`), or says why
    /// it is none.
    pub fn parse_literal(text: &str) -> Result<IecString, String> {
        let inner = text
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .filter(|_| text.len() >= 2)
            .ok_or_else(|| format!("`{text}` is not a STRING literal ('text', with $ escapes)"))?;
        let mut out = Vec::with_capacity(inner.len());
        let mut it = inner.bytes().peekable();
        while let Some(c) = it.next() {
            match c {
                b'$' => {
                    let e = it.next().ok_or_else(|| format!("`{text}`: a `$` at the end escapes nothing"))?;
                    match e.to_ascii_uppercase() {
                        b'$' => out.push(b'$'),
                        b'\'' => out.push(b'\''),
                        b'L' | b'N' => out.push(b'\n'),
                        b'R' => out.push(b'\r'),
                        b'T' => out.push(b'\t'),
                        b'P' => out.push(0x0c),
                        h if h.is_ascii_hexdigit() => {
                            let l = it.next().filter(u8::is_ascii_hexdigit).ok_or_else(|| {
                                format!("`{text}`: `$` and a hex digit take a second hex digit ($0A)")
                            })?;
                            let hex = |d: u8| (d as char).to_digit(16).unwrap_or(0) as u8;
                            out.push(hex(h) * 16 + hex(l));
                        }
                        _ => {
                            return Err(format!(
                                "`{text}`: `${}` is no escape ($$, $', $N, $R, $T, $P, $hh)",
                                e as char
                            ));
                        }
                    }
                }
                b'\'' => return Err(format!("`{text}`: a quote inside a STRING is written $'")),
                c if c >= 0x80 => return Err(format!("`{text}`: a STRING holds single bytes; write `${c:02X}`")),
                c => out.push(c),
            }
        }
        if out.len() > STRING_CAPACITY {
            return Err(format!("`{text}` has {} characters; a STRING holds {STRING_CAPACITY}", out.len()));
        }
        Ok(IecString::new(&out))
    }
}

impl PartialEq for IecString {
    fn eq(&self, other: &IecString) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for IecString {}

impl PartialOrd for IecString {
    fn partial_cmp(&self, other: &IecString) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// matiec's `__str_cmp`: bytes compared up to the shorter length, then the shorter first.
impl Ord for IecString {
    fn cmp(&self, other: &IecString) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl fmt::Debug for IecString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.literal())
    }
}

impl fmt::Display for IecString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.literal())
    }
}

/// A string function's result: the string, and whether matiec's C would have been undefined
/// or refused the arguments (ENO FALSE), which the executor reports as a fault.
pub type Outcome<T> = (T, bool);

/// LEFT(IN, L): the first L characters. A negative L gives '' (matiec: ENO FALSE).
pub fn left(s: &IecString, l: i64) -> Outcome<IecString> {
    if l < 0 {
        return (IecString::EMPTY, true);
    }
    (IecString::new(&s.as_bytes()[..(l as usize).min(s.len())]), false)
}

/// RIGHT(IN, L): the last L characters.
pub fn right(s: &IecString, l: i64) -> Outcome<IecString> {
    if l < 0 {
        return (IecString::EMPTY, true);
    }
    let n = (l as usize).min(s.len());
    (IecString::new(&s.as_bytes()[s.len() - n..]), false)
}

/// MID(IN, L, P): L characters from position P (1-based). P past the end gives ''. P = 0
/// reads, as matiec's C does, the byte before the first character: the length.
pub fn mid(s: &IecString, l: i64, p: i64) -> Outcome<IecString> {
    if l < 0 || p < 0 {
        return (IecString::EMPTY, true);
    }
    let len = s.len() as i64;
    if p > len {
        return (IecString::EMPTY, false);
    }
    let start = p - 1;
    let n = if l.saturating_add(start) <= len { l } else { len - start };
    // matiec's layout: the length byte, then the characters; index -1 is the length.
    let mut with_len = [0u8; STRING_CAPACITY + 1];
    with_len[0] = s.len;
    with_len[1..].copy_from_slice(&s.bytes);
    let from = (start + 1) as usize;
    (IecString::new(&with_len[from..from + n as usize]), p == 0)
}

/// CONCAT(IN1, ..., INn): cut at the capacity.
pub fn concat<'a>(parts: impl IntoIterator<Item = &'a IecString>) -> IecString {
    let mut r = IecString::EMPTY;
    for p in parts {
        r.push(p.as_bytes());
    }
    r
}

/// matiec passes a position or length to INSERT, DELETE and REPLACE as its length type,
/// `uint8_t`: modulo 256. The value, and whether it wrapped (above 255: reported as a fault,
/// though matiec computes on silently).
fn as_len_type(v: i64) -> (i64, bool) {
    (v as u8 as i64, v > 255)
}

/// INSERT(IN1, IN2, P): IN2 inserted after the first P characters of IN1 (P past the end:
/// appended). P is taken modulo 256, as matiec takes it; above 255, with a fault.
pub fn insert(a: &IecString, b: &IecString, p: i64) -> Outcome<IecString> {
    if p < 0 {
        return (IecString::EMPTY, true);
    }
    let (q, wrapped) = as_len_type(p);
    let keep = (q as usize).min(a.len());
    let mut r = IecString::new(&a.as_bytes()[..keep]);
    r.push(b.as_bytes());
    r.push(&a.as_bytes()[keep..]);
    (r, wrapped)
}

/// DELETE(IN, L, P): L characters deleted from position P (1-based); P past the end leaves IN.
/// L and P are taken modulo 256, as matiec takes them (above 255, with a fault); P = 0 is
/// undefined in matiec (it copies 255 bytes from a string of 126): here it reads as 1, with a
/// fault.
pub fn delete(s: &IecString, l: i64, p: i64) -> Outcome<IecString> {
    if l < 0 || p < 0 {
        return (IecString::EMPTY, true);
    }
    let ((l, wrapped_l), (p, wrapped_p)) = (as_len_type(l), as_len_type(p));
    let fault = wrapped_l || wrapped_p || p == 0;
    let p = p.max(1);
    let len = s.len() as i64;
    let keep = if p > len { len } else { p - 1 };
    let mut r = IecString::new(&s.as_bytes()[..keep as usize]);
    if len > keep + l {
        r.push(&s.as_bytes()[(keep + l) as usize..]);
    }
    (r, fault)
}

/// REPLACE(IN1, IN2, L, P): L characters of IN1 from position P replaced by the first L
/// characters of IN2 (matiec's reading; IEC's text and CODESYS insert all of IN2). P past the
/// end appends them. L and P are taken modulo 256 as for DELETE, and so is the position after
/// the replaced characters (matiec adds them in its byte-wide type); P = 0, and a rest that
/// would not fit (matiec copies it past the end), are undefined: clamped here, with a fault.
pub fn replace(a: &IecString, b: &IecString, l: i64, p: i64) -> Outcome<IecString> {
    if l < 0 || p < 0 {
        return (IecString::EMPTY, true);
    }
    let ((l, wrapped_l), (p, wrapped_p)) = (as_len_type(l), as_len_type(p));
    let mut fault = wrapped_l || wrapped_p || p == 0;
    let p = p.max(1);
    let len = a.len() as i64;
    let keep = if p > len { len } else { p - 1 };
    let mut r = IecString::new(&a.as_bytes()[..keep as usize]);
    let n = (b.len() as i64).min(l) as usize;
    r.push(&b.as_bytes()[..n]);
    let rest = (keep + l) % 256;
    if r.len() < STRING_CAPACITY && rest < len {
        fault |= r.len() as i64 + (len - rest) > STRING_CAPACITY as i64;
        r.push(&a.as_bytes()[rest as usize..]);
    }
    (r, fault)
}

/// FIND(IN1, IN2): the position (1-based) of IN2 in IN1, 0 when absent. As matiec's search:
/// after a partial match it resumes past the matched characters, so `FIND('aab', 'ab')` is 0
/// there (and here); IEC's text and CODESYS give 2.
pub fn find(a: &IecString, b: &IecString) -> i64 {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    if y.is_empty() || x.len() < y.len() {
        return 0;
    }
    let (mut at, mut matched) = (0usize, 0usize);
    while at + matched < x.len() && matched < y.len() {
        if x[at + matched] != y[matched] {
            at += matched + 1;
            matched = 0;
        } else {
            matched += 1;
        }
    }
    if matched == y.len() { at as i64 + 1 } else { 0 }
}

/// Text written on the stack (the scan allocates nothing): what fits of it, the rest dropped.
struct StackText {
    buf: [u8; 160],
    len: usize,
}

impl StackText {
    fn new() -> StackText {
        StackText { buf: [0; 160], len: 0 }
    }
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
    fn string(&self) -> IecString {
        IecString::new(&self.buf[..self.len])
    }
}

impl fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let n = s.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// C's `printf("%.{precision}g", x)`, as glibc writes it, into `out`.
fn write_c_g(out: &mut StackText, x: f64, precision: usize) {
    use fmt::Write;
    if x.is_nan() {
        let _ = out.write_str(if x.is_sign_negative() { "-nan" } else { "nan" });
        return;
    }
    if x.is_infinite() {
        let _ = out.write_str(if x < 0.0 { "-inf" } else { "inf" });
        return;
    }
    let p = precision.max(1);
    let mut e_form = StackText::new();
    let _ = write!(e_form, "{:.*e}", p - 1, x);
    let (mantissa, exp) = e_form.as_str().split_once('e').unwrap_or((e_form.as_str(), "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    // %g drops the zeros a fraction ends in, and the point when nothing is left after it.
    let strip = |s: &str| -> usize {
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').len() } else { s.len() }
    };
    if exp < -4 || exp >= p as i64 {
        let _ = out.write_str(&mantissa[..strip(mantissa)]);
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    } else {
        let mut f_form = StackText::new();
        let _ = write!(f_form, "{:.*}", (p as i64 - 1 - exp) as usize, x);
        let _ = out.write_str(&f_form.as_str()[..strip(f_form.as_str())]);
    }
}

/// A number as matiec's `*_TO_STRING` writes it: `%lld` for the signed, `%llu` for the
/// unsigned, `16#%llx` for a bit string.
pub fn int_to_string(v: i64, signed: bool, bit_string: bool) -> IecString {
    use fmt::Write;
    let mut t = StackText::new();
    let _ = if bit_string {
        write!(t, "16#{:x}", v as u64)
    } else if signed {
        write!(t, "{v}")
    } else {
        write!(t, "{}", v as u64)
    };
    t.string()
}

/// REAL/LREAL_TO_STRING: `%.10g` of the value as an LREAL.
pub fn real_to_string(r: f64) -> IecString {
    let mut t = StackText::new();
    write_c_g(&mut t, r, 10);
    t.string()
}

/// BOOL_TO_STRING.
pub fn bool_to_string(b: bool) -> IecString {
    IecString::new(if b { b"TRUE" } else { b"FALSE" })
}

/// TIME_TO_STRING as matiec writes it: days, then hours, minutes, seconds as far as needed,
/// and the sub-second part as `%g` milliseconds (`T#0d0h0m1s500ms`, `T#2d`, `T#0d`).
pub fn time_to_string(ns: i64) -> IecString {
    use fmt::Write;
    // matiec's timespec: seconds and nanoseconds, both of the value's sign; `div` on C ints.
    let sec = (ns / 1_000_000_000) as i32;
    let nsec = ns % 1_000_000_000;
    let (d, rem) = (sec / 86_400, sec % 86_400);
    let (h, rem2) = (rem / 3_600, rem % 3_600);
    let (m, s) = (rem2 / 60, rem2 % 60);
    let mut t = StackText::new();
    let _ = if rem == 0 && nsec == 0 {
        write!(t, "T#{d}d")
    } else if rem2 == 0 && nsec == 0 {
        write!(t, "T#{d}d{h}h")
    } else if s == 0 && nsec == 0 {
        write!(t, "T#{d}d{h}h{m}m")
    } else if nsec == 0 {
        write!(t, "T#{d}d{h}h{m}m{s}s")
    } else {
        let _ = write!(t, "T#{d}d{h}h{m}m{s}s");
        write_c_g(&mut t, nsec as f64 / 1_000_000.0, 6);
        t.write_str("ms")
    };
    t.string()
}

/// STRING_TO_BOOL: `'1'`, or `TRUE` in any case.
pub fn string_to_bool(s: &IecString) -> bool {
    let b = s.as_bytes();
    if b.len() == 1 {
        return b == b"1";
    }
    b.eq_ignore_ascii_case(b"TRUE")
}

/// STRING_TO_ an integer type, before the cast to it: matiec's `__pstring_to_sint`. `2#`,
/// `8#` and `16#` prefixes read the digits of their base from the right, skipping others;
/// a decimal is read from the right over at most 20 digits, a `.` or any character from `.`
/// upward that is no digit starts over, and characters below `.` (space, `+`, `-`, `,`) are
/// skipped; the sign is the first character's. The 2# and 8# digits are shifted as C ints
/// (32 bits, the shift taken modulo 32 by the machine), as matiec's code does.
pub fn string_to_int(s: &IecString) -> i64 {
    let b = s.as_bytes();
    if b.is_empty() {
        return 0;
    }
    let mut res: i64 = 0;
    let mut shift: u32 = 0;
    let small_base = |res: &mut i64, shift: &mut u32, digits: &[u8], hi: u8, step: u32| {
        for &c in digits.iter().rev() {
            if *shift >= 64 {
                break;
            }
            if (b'0'..=hi).contains(&c) {
                *res |= ((c - b'0') as i32).wrapping_shl(*shift) as i64;
                *shift += step;
            }
        }
    };
    if b.len() > 1 && b.starts_with(b"2#") {
        small_base(&mut res, &mut shift, &b[2..], b'1', 1);
    } else if b.len() > 1 && b.starts_with(b"8#") {
        small_base(&mut res, &mut shift, &b[2..], b'7', 3);
    } else if b.len() > 2 && b.starts_with(b"16#") {
        for &c in b[3..].iter().rev() {
            if shift >= 64 {
                break;
            }
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => continue,
            };
            res |= ((d as u64) << shift) as i64;
            shift += 4;
        }
    } else {
        let sign: i64 = if b[0] == b'-' { -1 } else { 1 };
        let mut fac = sign;
        for &c in b.iter().rev() {
            if shift >= 20 {
                break;
            }
            if c.is_ascii_digit() {
                res = res.wrapping_add(((c - b'0') as i64).wrapping_mul(fac));
                fac = fac.wrapping_mul(10);
                shift += 1;
            } else if c >= b'.' {
                res = 0;
                fac = sign;
                shift = 0;
            }
        }
    }
    res
}

/// C's `atof` on the bytes (glibc's `strtod`): after white space and a sign, `inf`,
/// `infinity`, `nan`, a hexadecimal float (`0x1.8p1`) or the longest decimal prefix (`2.5e3x`
/// is 2500); 0 when none.
fn atof(b: &[u8]) -> f64 {
    let mut k = b.iter().take_while(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)).count();
    let negative = b.get(k) == Some(&b'-');
    if matches!(b.get(k), Some(b'-' | b'+')) {
        k += 1;
    }
    let rest = &b[k..];
    let starts = |word: &[u8]| rest.len() >= word.len() && rest[..word.len()].eq_ignore_ascii_case(word);
    let magnitude = if starts(b"inf") {
        f64::INFINITY
    } else if starts(b"nan") {
        f64::NAN
    } else if (starts(b"0x")) && rest.get(2).is_some_and(|c| c.is_ascii_hexdigit() || *c == b'.') {
        hex_float(&rest[2..])
    } else {
        decimal_prefix(rest)
    };
    if negative { -magnitude } else { magnitude }
}

/// The value of the longest decimal number at the start of `b` (digits, a point, an
/// exponent), 0 when it has no digit.
fn decimal_prefix(b: &[u8]) -> f64 {
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let whole = digits(0);
    let mut end = whole;
    let mut fraction = 0;
    if b.get(end) == Some(&b'.') {
        fraction = digits(end + 1);
        end += 1 + fraction;
    }
    if whole + fraction == 0 {
        return 0.0;
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(end + 1), Some(b'+' | b'-')));
        let exp = digits(end + 1 + sign);
        if exp > 0 {
            end += 1 + sign + exp;
        }
    }
    std::str::from_utf8(&b[..end]).ok().and_then(|t| t.parse().ok()).unwrap_or(0.0)
}

/// A hexadecimal float's value after its `0x`: hex digits, a point, hex digits, `p` and a
/// decimal power of two (exact up to 32 significant hex digits).
fn hex_float(b: &[u8]) -> f64 {
    let (mut mantissa, mut shift, mut k, mut seen_point, mut dropped) = (0u128, 0i64, 0, false, 0i64);
    while let Some(&c) = b.get(k) {
        match c {
            b'.' if !seen_point => seen_point = true,
            _ if c.is_ascii_hexdigit() => {
                let d = (c as char).to_digit(16).unwrap_or(0) as u128;
                if mantissa >> 120 == 0 {
                    mantissa = mantissa << 4 | d;
                    if seen_point {
                        shift -= 4;
                    }
                } else if !seen_point {
                    dropped += 4;
                }
            }
            _ => break,
        }
        k += 1;
    }
    if matches!(b.get(k), Some(b'p' | b'P')) {
        let sign = b.get(k + 1).filter(|c| matches!(c, b'+' | b'-')).copied();
        let from = k + 1 + usize::from(sign.is_some());
        let text: Vec<u8> = b[from..].iter().take_while(|c| c.is_ascii_digit()).copied().collect();
        if let Some(e) = std::str::from_utf8(&text).ok().and_then(|t| t.parse::<i64>().ok()) {
            shift += if sign == Some(b'-') { -e } else { e };
        }
    }
    let scale = (shift + dropped).clamp(-2000, 2000) as i32;
    mantissa as f64 * 2f64.powi(scale)
}

/// STRING_TO_REAL/LREAL: with a `.` after the first character, C's `atof`; else
/// [`string_to_int`].
pub fn string_to_real(s: &IecString) -> f64 {
    let b = s.as_bytes();
    match b.iter().rposition(|&c| c == b'.') {
        Some(k) if k > 0 => atof(b),
        _ => string_to_int(s) as f64,
    }
}

/// STRING_TO_TIME: matiec reads whole seconds only: with a `.`, `atof`'s value truncated (the
/// fraction is dropped by its C); else [`string_to_int`] seconds. Beyond ±292 years (matiec's
/// TIME holds them, a TIME here does not) it saturates, and that is a fault.
pub fn string_to_time_ns(s: &IecString) -> Outcome<i64> {
    let b = s.as_bytes();
    let secs = match b.iter().rposition(|&c| c == b'.') {
        Some(k) if k > 0 => atof(b) as i64,
        _ => string_to_int(s),
    };
    match secs.checked_mul(1_000_000_000) {
        Some(ns) => (ns, false),
        None => (secs.saturating_mul(1_000_000_000), true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C's `printf("%.{precision}g", x)`, as the conversions write it.
    fn c_g(x: f64, precision: usize) -> String {
        let mut t = StackText::new();
        write_c_g(&mut t, x, precision);
        t.as_str().to_string()
    }

    fn s(t: &str) -> IecString {
        IecString::new(t.as_bytes())
    }

    #[test]
    fn literals_read_and_write_their_escapes() {
        for (lit, bytes) in [
            ("'abc'", &b"abc"[..]),
            ("'it$'s'", b"it's"),
            ("'$$5'", b"$5"),
            ("'a$Nb'", b"a\nb"),
            ("'$0A$ff'", b"\n\xff"),
            ("''", b""),
        ] {
            let v = IecString::parse_literal(lit).unwrap();
            assert_eq!(v.as_bytes(), bytes, "{lit}");
            assert_eq!(IecString::parse_literal(&v.literal()).unwrap(), v, "{lit} written back");
        }
        for bad in ["abc", "'abc", "'a'b'", "'$'", "'$q'", "'$4'", "'é'"] {
            assert!(IecString::parse_literal(bad).is_err(), "{bad}");
        }
        let long = format!("'{}'", "x".repeat(STRING_CAPACITY + 1));
        assert!(IecString::parse_literal(&long).unwrap_err().contains("127 characters"));
    }

    #[test]
    fn the_functions_compute_what_matiec_computes() {
        assert_eq!(left(&s("hello"), 2).0, s("he"));
        assert_eq!(left(&s("hello"), 9).0, s("hello"));
        assert_eq!(left(&s("hello"), -1), (IecString::EMPTY, true));
        assert_eq!(right(&s("hello"), 3).0, s("llo"));
        assert_eq!(mid(&s("hello"), 2, 2).0, s("el"));
        assert_eq!(mid(&s("hello"), 9, 4).0, s("lo"));
        assert_eq!(mid(&s("hello"), 2, 6).0, IecString::EMPTY);
        assert_eq!(mid(&s("hello"), 2, 0), (IecString::new(&[5, b'h']), true), "the length byte, as matiec reads it");
        assert_eq!(concat([&s("ab"), &s("cd"), &s("")]), s("abcd"));
        assert_eq!(concat([&s(&"x".repeat(100)), &s(&"y".repeat(100))]).len(), STRING_CAPACITY);
        assert_eq!(insert(&s("abc"), &s("XY"), 1).0, s("aXYbc"));
        assert_eq!(insert(&s("abc"), &s("XY"), 0).0, s("XYabc"));
        assert_eq!(insert(&s("abc"), &s("XY"), 7).0, s("abcXY"));
        assert_eq!(insert(&s("abc"), &s("XY"), 200), (s("abcXY"), false), "past the end, within matiec's byte");
        assert_eq!(insert(&s("abc"), &s("XY"), 257), (s("aXYbc"), true), "modulo 256, as matiec's byte takes it");
        assert_eq!(delete(&s("abcde"), 2, 2).0, s("ade"));
        assert_eq!(delete(&s("abcde"), 9, 4).0, s("abc"));
        assert_eq!(delete(&s("abcde"), 2, 9).0, s("abcde"));
        assert!(delete(&s("abcde"), 2, 0).1);
        assert_eq!(replace(&s("abcde"), &s("XYZ"), 1, 2).0, s("aXcde"), "matiec inserts L characters of IN2");
        assert_eq!(replace(&s("abcde"), &s("XY"), 3, 2).0, s("aXYe"));
        assert_eq!(replace(&s("abc"), &s("XY"), 2, 9).0, s("abcXY"));
        assert_eq!(find(&s("hello"), &s("ll")), 3);
        assert_eq!(find(&s("hello"), &s("")), 0);
        assert_eq!(find(&s("aab"), &s("ab")), 0, "matiec's search does not backtrack");
        assert_eq!(find(&s("xyab"), &s("ab")), 3);
    }

    #[test]
    fn conversions_write_and_read_as_matiec() {
        assert_eq!(c_g(0.1, 10), "0.1");
        assert_eq!(c_g(1.0 / 3.0, 10), "0.3333333333");
        assert_eq!(c_g(1e20, 10), "1e+20");
        assert_eq!(c_g(1.5e-5, 10), "1.5e-05");
        assert_eq!(c_g(123456789012.0, 10), "1.23456789e+11");
        assert_eq!(c_g(-2.5, 10), "-2.5");
        assert_eq!(c_g(0.0, 10), "0");
        assert_eq!(c_g(100.0, 6), "100");
        assert_eq!(real_to_string(0.1f32 as f64), s("0.1000000015"));
        assert_eq!(int_to_string(-5, true, false), s("-5"));
        assert_eq!(int_to_string(255, false, true), s("16#ff"));
        assert_eq!(int_to_string(-1, false, false), s("18446744073709551615"));
        assert_eq!(time_to_string(1_500_000_000), s("T#0d0h0m1s500ms"));
        assert_eq!(time_to_string(0), s("T#0d"));
        assert_eq!(time_to_string(7_200_000_000_000), s("T#0d2h"));
        assert_eq!(time_to_string(250_000), s("T#0d0h0m0s0.25ms"));
        assert!(string_to_bool(&s("true")) && string_to_bool(&s("1")) && !string_to_bool(&s("yes")));
        assert_eq!(string_to_int(&s("-123")), -123);
        assert_eq!(string_to_int(&s("16#fF")), 255);
        assert_eq!(string_to_int(&s("2#101")), 5);
        assert_eq!(string_to_int(&s("12.5")), 12, "a dot starts over: the whole part is what is left");
        assert_eq!(string_to_int(&s("1 000")), 1000, "a space is skipped");
        assert_eq!(string_to_int(&s("1a2")), 1, "a letter starts over");
        assert_eq!(string_to_real(&s("2.5")), 2.5);
        assert_eq!(string_to_real(&s("2.5e3x")), 2500.0);
        assert_eq!(string_to_real(&s("42")), 42.0);
        assert_eq!(string_to_time_ns(&s("3.7")), (3_000_000_000, false));
        assert_eq!(string_to_time_ns(&s("-99999999999")), (i64::MIN, true), "beyond a TIME: saturated, a fault");
        assert_eq!(string_to_real(&s(" -1.5")), -1.5);
        assert_eq!(string_to_real(&s("x.5")), 0.0, "atof reads no number");
        assert_eq!(string_to_real(&s("inf.")), f64::INFINITY);
        assert_eq!(string_to_real(&s("0x1.8p1")), 3.0);
        assert_eq!(string_to_real(&IecString::new(b"1.5\xff")), 1.5);
    }
}
