//! Logic: gates (every boolean function of up to three inputs as a truth table), AND/OR/XOR of
//! many inputs, and the bit-string functions (AND/OR/XOR, NOT, shifts and rotations of BYTE to
//! LWORD).

use fbd_plan::instr::{BitOp, ShiftOp, width_mask};

use super::Machine;

impl Machine<'_> {
    #[inline(always)]
    pub(super) fn gate(&mut self, t: u8, a: u32, b: u32, c: u32, o: u32) {
        let k = self.b[a as usize] as u32 | (self.b[b as usize] as u32) << 1 | (self.b[c as usize] as u32) << 2;
        self.b[o as usize] = (t >> k) & 1 != 0
    }

    #[inline(always)]
    pub(super) fn and_n(&mut self, args: u32, n: u32, o: u32) {
        self.b[o as usize] = self.list(args, n).iter().all(|&s| self.b[s as usize])
    }

    #[inline(always)]
    pub(super) fn or_n(&mut self, args: u32, n: u32, o: u32) {
        self.b[o as usize] = self.list(args, n).iter().any(|&s| self.b[s as usize])
    }

    #[inline(always)]
    pub(super) fn xor_n(&mut self, args: u32, n: u32, o: u32) {
        self.b[o as usize] = self.list(args, n).iter().fold(false, |acc, &s| acc ^ self.b[s as usize])
    }

    #[inline(always)]
    pub(super) fn bits_n(&mut self, op: BitOp, args: u32, n: u32, o: u32) {
        let l = self.list(args, n);
        let first = l.first().map_or(0, |&s| self.n[s as usize]);
        self.n[o as usize] = l.iter().skip(1).fold(first, |acc, &s| op.apply(acc, self.n[s as usize]))
    }

    #[inline(always)]
    pub(super) fn not_w(&mut self, a: u32, o: u32, bits: u8) {
        self.n[o as usize] = !self.n[a as usize] & width_mask(bits as u32)
    }

    #[inline(always)]
    pub(super) fn shift_w(&mut self, op: ShiftOp, bits: u8, a: u32, n: u32, o: u32) {
        self.n[o as usize] = op.apply(self.n[a as usize], self.n[n as usize], bits as u32)
    }
}
