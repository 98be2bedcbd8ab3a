//! Arithmetic: integer (64-bit with overflow faults; narrow types wrapped by `WrapI` after
//! them; unsigned 64-bit as C computes it) and REAL (LREAL in f64; REAL rounded to f32 by
//! `RoundR32`, or summed and multiplied in f32 as matiec does), the numeric functions and EXPT.

use fbd_plan::fault::FaultKind;
use fbd_plan::instr::{MathFn, U64Bin, U64Op};

use super::Machine;

impl Machine<'_> {
    #[inline(always)]
    pub(super) fn add_sub_i(&mut self, sub: bool, a: u32, b: u32, o: u32) {
        let (x, y) = (self.n[a as usize], self.n[b as usize]);
        self.int_out(o, if sub { x.overflowing_sub(y) } else { x.overflowing_add(y) })
    }

    #[inline(always)]
    pub(super) fn add_i_n(&mut self, args: u32, n: u32, o: u32) {
        let (mut acc, mut ov) = (0i64, false);
        for &s in self.list(args, n) {
            let (v, f) = acc.overflowing_add(self.n[s as usize]);
            acc = v;
            ov |= f;
        }
        self.int_out(o, (acc, ov))
    }

    #[inline(always)]
    pub(super) fn mul_i_n(&mut self, args: u32, n: u32, o: u32) {
        let (mut acc, mut ov) = (1i64, false);
        for &s in self.list(args, n) {
            let (v, f) = acc.overflowing_mul(self.n[s as usize]);
            acc = v;
            ov |= f;
        }
        self.int_out(o, (acc, ov))
    }

    /// MUL of a narrow type: each partial product wrapped into the type, as C's narrow
    /// arithmetic does one multiplication at a time.
    #[inline(always)]
    pub(super) fn mul_i_n_wrapped(&mut self, args: u32, n: u32, o: u32, bits: u8, signed: bool) {
        let sh = 64 - bits as u32;
        let mask = (1i64 << bits) - 1;
        let mut acc = 1i64;
        for &s in self.list(args, n) {
            let v = acc.wrapping_mul(self.n[s as usize]);
            acc = if signed { (v << sh) >> sh } else { v & mask };
        }
        self.n[o as usize] = acc
    }

    #[inline(always)]
    pub(super) fn div_i(&mut self, a: u32, b: u32, o: u32) {
        let d = self.n[b as usize];
        if d == 0 {
            self.fault(FaultKind::DivisionByZero);
            self.n[o as usize] = 0;
        } else {
            self.int_out(o, self.n[a as usize].overflowing_div(d))
        }
    }

    #[inline(always)]
    pub(super) fn mod_i(&mut self, a: u32, b: u32, o: u32) {
        let d = self.n[b as usize];
        if d == 0 {
            self.fault(FaultKind::DivisionByZero);
            self.n[o as usize] = 0;
        } else {
            // i64::MIN % -1 is 0 mathematically; overflowing_rem gives (0, true).
            self.n[o as usize] = self.n[a as usize].wrapping_rem(d);
        }
    }

    #[inline(always)]
    pub(super) fn abs_i(&mut self, a: u32, o: u32) {
        self.int_out(o, self.n[a as usize].overflowing_abs())
    }

    #[inline(always)]
    pub(super) fn neg_i(&mut self, a: u32, o: u32) {
        self.int_out(o, self.n[a as usize].overflowing_neg())
    }

    /// A narrow integer result brought into its type (two's complement wrap).
    #[inline(always)]
    pub(super) fn wrap_i(&mut self, o: u32, bits: u8, signed: bool) {
        let v = self.n[o as usize];
        let sh = 64 - bits as u32;
        self.n[o as usize] = if signed { (v << sh) >> sh } else { v & ((1i64 << bits) - 1) };
    }

    #[inline(always)]
    pub(super) fn u64_n(&mut self, op: U64Op, args: u32, n: u32, o: u32) {
        let l = self.list(args, n);
        let first = l.first().map_or(0, |&s| self.n[s as usize] as u64);
        self.n[o as usize] = l.iter().skip(1).fold(first, |acc, &s| op.apply(acc, self.n[s as usize] as u64)) as i64
    }

    #[inline(always)]
    pub(super) fn u64_bin(&mut self, op: U64Bin, a: u32, b: u32, o: u32) {
        let (x, y) = (self.n[a as usize] as u64, self.n[b as usize] as u64);
        self.n[o as usize] = match op {
            U64Bin::Sub => x.wrapping_sub(y) as i64,
            _ if y == 0 => {
                self.fault(FaultKind::DivisionByZero);
                0
            }
            U64Bin::Div => (x / y) as i64,
            U64Bin::Mod => (x % y) as i64,
        }
    }

    /// A REAL result rounded to f32; an f32 overflows where the f64 it came from did not
    /// (REAL: 3e38 * 10).
    #[inline(always)]
    pub(super) fn round_r32(&mut self, o: u32) {
        let v = self.r[o as usize];
        let x = v as f32 as f64;
        if !x.is_finite() && v.is_finite() {
            self.fault(FaultKind::RealOverflow);
        }
        self.r[o as usize] = x;
    }

    #[inline(always)]
    pub(super) fn add_r2(&mut self, a: u32, b: u32, o: u32) {
        self.real_out(o, self.r[a as usize] + self.r[b as usize])
    }

    #[inline(always)]
    pub(super) fn add_r_n(&mut self, args: u32, n: u32, o: u32) {
        let v = self.list(args, n).iter().map(|&s| self.r[s as usize]).sum();
        self.real_out(o, v)
    }

    #[inline(always)]
    pub(super) fn sub_r(&mut self, a: u32, b: u32, o: u32) {
        self.real_out(o, self.r[a as usize] - self.r[b as usize])
    }

    #[inline(always)]
    pub(super) fn mul_r_n(&mut self, args: u32, n: u32, o: u32) {
        let v = self.list(args, n).iter().map(|&s| self.r[s as usize]).product();
        self.real_out(o, v)
    }

    #[inline(always)]
    pub(super) fn add_r32_n(&mut self, args: u32, n: u32, o: u32) {
        let l = self.list(args, n);
        let first = l.first().map_or(0.0, |&s| self.r[s as usize] as f32);
        let v = l.iter().skip(1).fold(first, |acc, &s| acc + self.r[s as usize] as f32);
        self.real_out(o, v as f64)
    }

    #[inline(always)]
    pub(super) fn mul_r32_n(&mut self, args: u32, n: u32, o: u32) {
        let v = self.list(args, n).iter().fold(1.0f32, |acc, &s| acc * self.r[s as usize] as f32);
        self.real_out(o, v as f64)
    }

    #[inline(always)]
    pub(super) fn div_r(&mut self, a: u32, b: u32, o: u32) {
        let d = self.r[b as usize];
        if d == 0.0 {
            self.fault(FaultKind::DivisionByZero);
            self.r[o as usize] = 0.0;
        } else {
            self.real_out(o, self.r[a as usize] / d)
        }
    }

    #[inline(always)]
    pub(super) fn math_r(&mut self, f: MathFn, a: u32, o: u32) {
        self.real_out(o, f.apply(self.r[a as usize]))
    }

    #[inline(always)]
    pub(super) fn expt_r(&mut self, a: u32, b: u32, o: u32) {
        self.real_out(o, self.r[a as usize].powf(self.r[b as usize]))
    }
}

impl Machine<'_> {
    /// MUL (`div`: DIV) of a TIME by a number as matiec's `__time_mul` / `__time_div`
    /// compute it (iec_std_lib.h): the seconds and the nanoseconds apart, each scaled as an
    /// LREAL; MUL takes the nanoseconds' product as a C `int` (out of its range C leaves it
    /// undefined: reported, saturated). A NaN factor, a division by zero and a result outside
    /// TIME are reported.
    #[inline(always)]
    pub(super) fn scale_time(&mut self, div: bool, a: u32, (b, real, u64): (u32, bool, bool), o: u32) {
        let t = self.n[a as usize];
        let k = match (real, u64) {
            (true, _) => self.r[b as usize],
            (false, true) => self.n[b as usize] as u64 as f64,
            (false, false) => self.n[b as usize] as f64,
        };
        if k.is_nan() || (div && k == 0.0) {
            self.fault(if k.is_nan() { FaultKind::NotANumber } else { FaultKind::DivisionByZero });
            self.n[o as usize] = 0;
            return;
        }
        let (sec, nsec) = (t / super::NS_PER_S, t % super::NS_PER_S);
        let s_f = if div { sec as f64 / k } else { sec as f64 * k };
        let s = s_f as i64;
        let (carry, nsec_f) = if div {
            (0, nsec as f64 / k + (s_f - s as f64) * 1e9)
        } else {
            let n_f = nsec as f64 * k;
            if !(n_f > i32::MIN as f64 - 1.0 && n_f < i32::MAX as f64 + 1.0) {
                self.fault(FaultKind::Overflow);
            }
            let i = n_f as i32 as i64;
            (i / super::NS_PER_S, (i % super::NS_PER_S) as f64 + (s_f - s as f64) * 1e9)
        };
        let total = (s as i128 + carry as i128) * super::NS_PER_S as i128 + nsec_f as i64 as i128;
        if !s_f.is_finite() || s_f.abs() >= 9.2e18 || i64::try_from(total).is_err() {
            self.fault(FaultKind::Overflow);
        }
        self.n[o as usize] = total as i64;
    }
}
