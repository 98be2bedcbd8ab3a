//! Conversions between banks: integer ↔ REAL (rounding half to even, as matiec's C does;
//! saturating with a fault beyond LINT), TIME ↔ numbers (seconds), BOOL → numbers, FLOOR,
//! TRUNC, FRAC (the last a REAL result).

use fbd_plan::fault::FaultKind;

use super::{Machine, NS_PER_S};

impl Machine<'_> {
    #[inline(always)]
    pub(super) fn int_to_real(&mut self, a: u32, o: u32) {
        self.r[o as usize] = self.n[a as usize] as f64
    }

    #[inline(always)]
    pub(super) fn int_to_r32(&mut self, a: u32, o: u32) {
        self.r[o as usize] = self.n[a as usize] as f32 as f64
    }

    #[inline(always)]
    pub(super) fn u64_to_real(&mut self, a: u32, o: u32, r32: bool) {
        let u = self.n[a as usize] as u64;
        self.r[o as usize] = if r32 { u as f32 as f64 } else { u as f64 }
    }

    /// A ULINT or LWORD holds 2^63..2^64 (its bits in the integer bank), as IEC means it:
    /// matiec's C passes the value through a LINT, undefined there (x86-64 gives 2^63 for
    /// all of them). Beyond 2^64 it saturates, with a fault.
    #[inline(always)]
    pub(super) fn real_to_int_even(&mut self, a: u32, o: u32, unsigned: bool, u64: bool) {
        const TWO_63: f64 = 9_223_372_036_854_775_808.0;
        let v = self.r[a as usize];
        let v = if unsigned && v < 0.0 { 0.0 } else { v.round_ties_even() };
        self.n[o as usize] = if u64 && v >= TWO_63 {
            if v >= 2.0 * TWO_63 {
                self.fault(FaultKind::Overflow);
            }
            v as u64 as i64
        } else {
            self.saturate_to_lint(v)
        }
    }

    #[inline(always)]
    pub(super) fn floor(&mut self, a: u32, o: u32) {
        self.n[o as usize] = self.saturate_to_lint(self.r[a as usize].floor())
    }

    #[inline(always)]
    pub(super) fn trunc(&mut self, a: u32, o: u32) {
        self.n[o as usize] = self.saturate_to_lint(self.r[a as usize].trunc())
    }

    /// Seconds to TIME; beyond a TIME's range it saturates with a fault.
    #[inline(always)]
    pub(super) fn int_to_time(&mut self, a: u32, o: u32) {
        let v = self.n[a as usize];
        self.n[o as usize] = match v.checked_mul(NS_PER_S) {
            Some(t) => t,
            None => {
                self.fault(FaultKind::Overflow);
                if v < 0 { i64::MIN } else { i64::MAX }
            }
        }
    }

    #[inline(always)]
    pub(super) fn real_to_time(&mut self, a: u32, o: u32) {
        let v = self.r[a as usize];
        let secs = v.trunc();
        let ns = ((v - secs) * 1e9) as i64;
        let t = (secs.abs() < 1e10).then(|| (secs as i64).checked_mul(NS_PER_S)?.checked_add(ns)).flatten();
        self.n[o as usize] = match t {
            Some(t) => t,
            None => {
                self.fault(if v.is_nan() { FaultKind::NotANumber } else { FaultKind::Overflow });
                if v.is_nan() {
                    0
                } else if v < 0.0 {
                    i64::MIN
                } else {
                    i64::MAX
                }
            }
        }
    }

    #[inline(always)]
    pub(super) fn time_to_int(&mut self, a: u32, o: u32) {
        self.n[o as usize] = self.n[a as usize] / NS_PER_S
    }

    #[inline(always)]
    pub(super) fn time_to_real(&mut self, a: u32, o: u32) {
        let v = self.n[a as usize];
        self.r[o as usize] = (v / NS_PER_S) as f64 + (v % NS_PER_S) as f64 / 1e9
    }

    /// matiec's `__uint_to_bcd` (a digit per 4 bits; past the 16th the C shift is undefined:
    /// dropped, reported) or `__test_bcd` + `__bcd_to_uint` (a digit above 9: 0, reported,
    /// as matiec's 0 with ENO FALSE), cut to `bits` as its C cast.
    #[inline(always)]
    pub(super) fn bcd(&mut self, to_bcd: bool, a: u32, o: u32, bits: u8) {
        let mut x = self.n[a as usize] as u64;
        let mut out = 0u64;
        if to_bcd {
            let mut shift = 0u32;
            loop {
                if shift < 64 {
                    out |= (x % 10) << shift;
                }
                x /= 10;
                shift += 4;
                if x == 0 {
                    break;
                }
            }
            if shift > 64 {
                self.fault(FaultKind::Overflow);
            }
        } else {
            let mut factor = 1u64;
            while x != 0 {
                let digit = x & 0xf;
                if digit > 9 {
                    self.fault(FaultKind::BadArgument);
                    out = 0;
                    break;
                }
                out = out.wrapping_add(digit.wrapping_mul(factor));
                factor = factor.wrapping_mul(10);
                x >>= 4;
            }
        }
        self.n[o as usize] = (out & fbd_plan::instr::width_mask(bits as u32) as u64) as i64;
    }

    #[inline(always)]
    pub(super) fn bool_to_num(&mut self, a: u32, o: u32, real: bool) {
        let v = self.b[a as usize];
        if real { self.r[o as usize] = v as i64 as f64 } else { self.n[o as usize] = v as i64 }
    }
}
