//! Comparison: GT/GE/EQ/LE/LT/NE as a mask of the three outcomes (signed, unsigned, REAL), and
//! MIN, MAX and LIMIT, folded as matiec folds them.

use fbd_plan::instr::CmpOp;

use super::Machine;

impl Machine<'_> {
    #[inline(always)]
    pub(super) fn cmp_i(&mut self, m: u8, a: u32, b: u32, o: u32) {
        let (x, y) = (self.n[a as usize], self.n[b as usize]);
        self.b[o as usize] = (m >> ((x >= y) as u32 + (x > y) as u32)) & 1 != 0
    }

    #[inline(always)]
    pub(super) fn cmp_u(&mut self, m: u8, a: u32, b: u32, o: u32) {
        let (x, y) = (self.n[a as usize] as u64, self.n[b as usize] as u64);
        self.b[o as usize] = (m >> ((x >= y) as u32 + (x > y) as u32)) & 1 != 0
    }

    #[inline(always)]
    pub(super) fn cmp_r(&mut self, op: CmpOp, a: u32, b: u32, o: u32) {
        self.b[o as usize] = op.apply(self.r[a as usize], self.r[b as usize])
    }

    #[inline(always)]
    pub(super) fn min_i_n(&mut self, args: u32, n: u32, o: u32) {
        self.n[o as usize] = self.list(args, n).iter().map(|&s| self.n[s as usize]).min().unwrap_or(0)
    }

    #[inline(always)]
    pub(super) fn max_i_n(&mut self, args: u32, n: u32, o: u32) {
        self.n[o as usize] = self.list(args, n).iter().map(|&s| self.n[s as usize]).max().unwrap_or(0)
    }

    /// As matiec: IN > MN ? (IN < MX ? IN : MX) : MN (mn wins when mn > mx).
    #[inline(always)]
    pub(super) fn limit_i(&mut self, mn: u32, a: u32, mx: u32, o: u32) {
        let (v, lo, hi) = (self.n[a as usize], self.n[mn as usize], self.n[mx as usize]);
        self.n[o as usize] = if v > lo { v.min(hi) } else { lo }
    }

    #[inline(always)]
    pub(super) fn limit_u(&mut self, mn: u32, a: u32, mx: u32, o: u32) {
        let (v, lo, hi) = (self.n[a as usize] as u64, self.n[mn as usize] as u64, self.n[mx as usize] as u64);
        self.n[o as usize] = (if v > lo { v.min(hi) } else { lo }) as i64
    }

    /// Folded from the first input, not from ±∞: MIN(NaN, NaN) is NaN (a fault), not +∞. As
    /// matiec folds it: a later input replaces the minimum only when smaller, so a NaN first
    /// stays and a NaN later is passed over.
    #[inline(always)]
    pub(super) fn min_r_n(&mut self, args: u32, n: u32, o: u32) {
        let l = self.list(args, n);
        let r = &*self.r;
        let v = l[1..].iter().fold(r[l[0] as usize], |m, &s| if m > r[s as usize] { r[s as usize] } else { m });
        self.real_out(o, v)
    }

    #[inline(always)]
    pub(super) fn max_r_n(&mut self, args: u32, n: u32, o: u32) {
        let l = self.list(args, n);
        let r = &*self.r;
        let v = l[1..].iter().fold(r[l[0] as usize], |m, &s| if m < r[s as usize] { r[s as usize] } else { m });
        self.real_out(o, v)
    }

    /// As matiec, whose comparisons make a NaN in give mn.
    #[inline(always)]
    pub(super) fn limit_r(&mut self, mn: u32, a: u32, mx: u32, o: u32) {
        let (v, lo, hi) = (self.r[a as usize], self.r[mn as usize], self.r[mx as usize]);
        self.real_out(o, if v > lo { if v < hi { v } else { hi } } else { lo })
    }
}
