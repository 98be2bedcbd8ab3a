//! STRING blocks for the reference, read again from matiec's C (`iec_std_functions.h`,
//! `iec_std_lib.h`) rather than from the engine's `string` module: index arithmetic on a byte
//! vector with the C's casts, and the C library's own `snprintf` and `atof` for the
//! conversions, as matiec calls them.
#![allow(unsafe_code)]

use fbd_model::{IecString, Type, Value};

/// matiec's STR_MAX_LEN.
const MAX: usize = 126;

fn bytes(v: Value) -> Vec<u8> {
    match v {
        Value::Str(s) => s.as_bytes().to_vec(),
        v => panic!("reference: STRING expected, got {v:?}"),
    }
}

fn int(v: Value) -> i64 {
    match v {
        Value::Int(i) => i,
        Value::ULInt(u) => u as i64,
        v => panic!("reference: an integer expected, got {v:?}"),
    }
}

fn string(mut b: Vec<u8>) -> Value {
    b.truncate(MAX);
    Value::Str(IecString::new(&b))
}

/// A string block's result and whether it is a fault (matiec: ENO FALSE, or undefined C).
pub fn eval(kind: fbd_model::library::Kind, ins: &[Value]) -> (Value, bool) {
    use fbd_model::library::Kind::*;
    let empty = || (string(Vec::new()), true);
    match kind {
        Len => (Value::Int(bytes(ins[0]).len() as i64), false),
        Concat => (string(ins.iter().flat_map(|v| bytes(*v)).collect()), false),
        Left | Right => {
            let (s, l) = (bytes(ins[0]), int(ins[1]));
            if l < 0 {
                return empty();
            }
            let l = (l as usize).min(s.len());
            let part = if kind == Left { &s[..l] } else { &s[s.len() - l..] };
            (string(part.to_vec()), false)
        }
        Mid => {
            let (s, l, p) = (bytes(ins[0]), int(ins[1]), int(ins[2]));
            if l < 0 || p < 0 {
                return empty();
            }
            // The C struct: the length byte, then the body; body[-1] is the length.
            let mut mem = vec![s.len() as u8];
            mem.extend(&s);
            mem.resize(MAX + 1, 0);
            if p > s.len() as i64 {
                return (string(Vec::new()), false);
            }
            let p0 = p - 1;
            let l = if (l as i128 + p0 as i128) <= s.len() as i128 { l } else { s.len() as i64 - p0 };
            let from = (p0 + 1) as usize;
            (string(mem[from..from + l as usize].to_vec()), p == 0)
        }
        Insert => {
            let (a, c, p) = (bytes(ins[0]), bytes(ins[1]), int(ins[2]));
            if p < 0 {
                return empty();
            }
            // `(__strlen_t)P`: an unsigned byte.
            let p8 = p as u8 as usize;
            let at = p8.min(a.len());
            let mut r = a[..at].to_vec();
            r.extend(&c);
            r.truncate(MAX);
            r.extend(&a[at..]);
            (string(r), p > 255)
        }
        Delete | Replace => {
            let (a, c) = (bytes(ins[0]), if kind == Replace { bytes(ins[1]) } else { Vec::new() });
            let off = if kind == Replace { 2 } else { 1 };
            let (l, p) = (int(ins[off]), int(ins[off + 1]));
            if l < 0 || p < 0 {
                return empty();
            }
            let (l8, p8) = (l as u8 as usize, p as u8 as usize);
            // P = 0: `P-1` is 255 bytes copied from a 126-byte body.
            let mut undefined = l > 255 || p > 255 || p8 == 0;
            let keep = if p8 > a.len() { a.len() } else { p8.max(1) - 1 };
            let mut r = a[..keep].to_vec();
            if kind == Replace {
                r.extend(&c[..c.len().min(l8)]);
                r.truncate(MAX);
                // `P += L` in the byte-wide type.
                let rest = (keep + l8) % 256;
                if r.len() < MAX && rest < a.len() {
                    undefined |= r.len() + a.len() - rest > MAX;
                    r.extend(&a[rest..]);
                }
            } else if a.len() > keep + l8 {
                r.extend(&a[keep + l8..]);
            }
            (string(r), undefined)
        }
        Find => {
            let (a, c) = (bytes(ins[0]), bytes(ins[1]));
            if c.is_empty() || a.len() < c.len() {
                return (Value::Int(0), false);
            }
            // matiec's __pfind, which restarts after the partial match.
            let (mut c1, mut c2) = (0, 0);
            while c1 + c2 < a.len() && c2 < c.len() {
                if a[c1 + c2] != c[c2] {
                    c1 += c2 + 1;
                    c2 = 0;
                } else {
                    c2 += 1;
                }
            }
            (Value::Int(if c2 == c.len() { c1 as i64 + 1 } else { 0 }), false)
        }
        Min | Max => {
            let mut best = bytes(ins[0]);
            for v in &ins[1..] {
                let x = bytes(*v);
                if (kind == Min && x < best) || (kind == Max && x > best) {
                    best = x;
                }
            }
            (string(best), false)
        }
        Limit => {
            let (mn, x, mx) = (bytes(ins[0]), bytes(ins[1]), bytes(ins[2]));
            (string(if x > mn { if x < mx { x } else { mx } } else { mn }), false)
        }
        k => panic!("reference: {k:?} is no string function"),
    }
}

/// C's `snprintf` into matiec's 126-byte body.
fn c_format(fmt: &str, arg: impl FnOnce(*mut libc::c_char, usize, *const libc::c_char) -> i32) -> Value {
    let mut buf = vec![0u8; MAX];
    let fmt = std::ffi::CString::new(fmt).expect("a format without NUL");
    let n = arg(buf.as_mut_ptr() as *mut libc::c_char, MAX, fmt.as_ptr());
    buf.truncate((n.max(0) as usize).min(MAX));
    string(buf)
}

/// `A_TO_STRING` as matiec's `__*_to_string`.
pub fn to_string(v: Value, from: Type) -> Value {
    match v {
        Value::Bool(b) => string(if b { b"TRUE".to_vec() } else { b"FALSE".to_vec() }),
        Value::Int(_) | Value::ULInt(_) if from.is_bit_string() => {
            let x = int(v) as u64 as libc::c_ulonglong;
            c_format("16#%llx", |p, n, f| unsafe { libc::snprintf(p, n, f, x) })
        }
        Value::ULInt(u) => c_format("%llu", |p, n, f| unsafe { libc::snprintf(p, n, f, u as libc::c_ulonglong) }),
        Value::Int(i) if from.width().is_some_and(|w| !w.1) => {
            c_format("%llu", |p, n, f| unsafe { libc::snprintf(p, n, f, i as libc::c_ulonglong) })
        }
        Value::Int(i) => c_format("%lld", |p, n, f| unsafe { libc::snprintf(p, n, f, i as libc::c_longlong) }),
        Value::Real(r) => c_format("%.10g", |p, n, f| unsafe { libc::snprintf(p, n, f, r as libc::c_double) }),
        Value::Time(ns) => {
            let (sec, nsec) = ((ns / 1_000_000_000) as i32, ns % 1_000_000_000);
            let (d, h, m, s) = (sec / 86_400, sec % 86_400 / 3_600, sec % 3_600 / 60, sec % 60);
            let (day_rem, hour_rem) = (sec % 86_400, sec % 3_600);
            let ms = nsec as f64 / 1e6;
            match () {
                _ if day_rem == 0 && nsec == 0 => c_format("T#%dd", |p, n, f| unsafe { libc::snprintf(p, n, f, d) }),
                _ if hour_rem == 0 && nsec == 0 => {
                    c_format("T#%dd%dh", |p, n, f| unsafe { libc::snprintf(p, n, f, d, h) })
                }
                _ if s == 0 && nsec == 0 => {
                    c_format("T#%dd%dh%dm", |p, n, f| unsafe { libc::snprintf(p, n, f, d, h, m) })
                }
                _ if nsec == 0 => c_format("T#%dd%dh%dm%ds", |p, n, f| unsafe { libc::snprintf(p, n, f, d, h, m, s) }),
                _ => c_format("T#%dd%dh%dm%ds%gms", |p, n, f| unsafe { libc::snprintf(p, n, f, d, h, m, s, ms) }),
            }
        }
        Value::Str(_) => v,
    }
}

/// matiec's `__pstring_to_sint`, line by line.
fn pstring_to_sint(b: &[u8]) -> i64 {
    let len = b.len();
    if len < 1 {
        return 0;
    }
    let mut res: i64 = 0;
    let mut shift: u32 = 0;
    if len > 1 && b[0] == b'2' && b[1] == b'#' {
        let mut l = len - 1;
        while l >= 2 && shift < 64 {
            let c = b[l];
            if (b'0'..=b'1').contains(&c) {
                res |= ((c - b'0') as i32).wrapping_shl(shift) as i64;
                shift += 1;
            }
            l -= 1;
        }
    } else if len > 1 && b[0] == b'8' && b[1] == b'#' {
        let mut l = len - 1;
        while l >= 2 && shift < 64 {
            let c = b[l];
            if (b'0'..=b'7').contains(&c) {
                res |= ((c - b'0') as i32).wrapping_shl(shift) as i64;
                shift += 3;
            }
            l -= 1;
        }
    } else if len > 2 && b[0] == b'1' && b[1] == b'6' && b[2] == b'#' {
        let mut l = len - 1;
        while l >= 3 && shift < 64 {
            let c = b[l];
            let d = if c.is_ascii_digit() {
                Some(c - b'0')
            } else if (b'a'..=b'f').contains(&c) {
                Some(c - b'a' + 10)
            } else if (b'A'..=b'F').contains(&c) {
                Some(c - b'A' + 10)
            } else {
                None
            };
            if let Some(d) = d {
                res |= ((d as u64) << shift) as i64;
                shift += 4;
            }
            l -= 1;
        }
    } else {
        let first: i64 = if b[0] == b'-' { -1 } else { 1 };
        let mut fac = first;
        let mut l = len;
        while l > 0 && shift < 20 {
            let c = b[l - 1];
            if c.is_ascii_digit() {
                res = res.wrapping_add(((c - b'0') as i64).wrapping_mul(fac));
                fac = fac.wrapping_mul(10);
                shift += 1;
            } else if c >= b'.' {
                res = 0;
                fac = first;
                shift = 0;
            }
            l -= 1;
        }
    }
    res
}

fn atof(b: &[u8]) -> f64 {
    let c =
        std::ffi::CString::new(b.iter().copied().take_while(|&x| x != 0).collect::<Vec<u8>>()).expect("no NUL left");
    unsafe { libc::atof(c.as_ptr()) }
}

/// Whether matiec's dot search finds a `.` (it stops at index 0 without looking there).
fn has_dot(b: &[u8]) -> bool {
    let mut l = b.len();
    while l > 0 {
        l -= 1;
        if b[l] == b'.' {
            return l != 0;
        }
    }
    false
}

/// `STRING_TO_B` before the wrap into B: BOOL, a LINT of the integer types' bits, an LREAL,
/// or a TIME.
pub fn from_string(v: Value, to: Type) -> Value {
    let b = bytes(v);
    match to {
        Type::Bool => Value::Bool(if b.len() == 1 { b == b"1" } else { b.eq_ignore_ascii_case(b"TRUE") }),
        _ if to.is_real() => Value::Real(if has_dot(&b) { atof(&b) } else { pstring_to_sint(&b) as f64 }),
        _ if to.is_time() => {
            let secs = if has_dot(&b) { atof(&b) as i64 } else { pstring_to_sint(&b) };
            Value::Time(secs.saturating_mul(1_000_000_000))
        }
        _ => Value::Int(pstring_to_sint(&b)),
    }
}
