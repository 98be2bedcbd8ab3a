//! Selection: SEL (branch-free), MUX (an index out of range is a fault and gives the zero of
//! the type), MOVE, and SELECTOR (one-of-n outputs from a position).

use std::hint::select_unpredictable;

use fbd_plan::fault::FaultKind;

use super::Machine;

/// The MUX input `k` selects, if there is one.
#[inline(always)]
fn mux_index(k: i64, n: u32) -> Option<u32> {
    if k >= 0 && k < n as i64 { Some(k as u32) } else { None }
}

impl Machine<'_> {
    #[inline(always)]
    pub(super) fn sel_i(&mut self, g: u32, a: u32, b: u32, o: u32) {
        self.n[o as usize] = self.n[select_unpredictable(self.b[g as usize], b, a) as usize]
    }

    #[inline(always)]
    pub(super) fn sel_r(&mut self, g: u32, a: u32, b: u32, o: u32) {
        self.r[o as usize] = self.r[select_unpredictable(self.b[g as usize], b, a) as usize]
    }

    /// The slot MUX input `k` reads, or a fault.
    #[inline(always)]
    fn mux_slot(&mut self, k: u32, args: u32, n: u32) -> Option<usize> {
        match mux_index(self.n[k as usize], n) {
            Some(j) => Some(self.args[(args + j) as usize] as usize),
            None => {
                self.fault(FaultKind::IndexOutOfRange);
                None
            }
        }
    }

    #[inline(always)]
    pub(super) fn mux_b(&mut self, k: u32, args: u32, n: u32, o: u32) {
        self.b[o as usize] = self.mux_slot(k, args, n).is_some_and(|s| self.b[s])
    }

    #[inline(always)]
    pub(super) fn mux_i(&mut self, k: u32, args: u32, n: u32, o: u32) {
        self.n[o as usize] = self.mux_slot(k, args, n).map_or(0, |s| self.n[s])
    }

    #[inline(always)]
    pub(super) fn mux_r(&mut self, k: u32, args: u32, n: u32, o: u32) {
        self.r[o as usize] = self.mux_slot(k, args, n).map_or(0.0, |s| self.r[s])
    }

    /// Output `j` (1-based) of a SELECTOR is TRUE when the position is `j`.
    #[inline(always)]
    pub(super) fn selector(&mut self, sel: u32, first: u32, n: u32) {
        let k = self.n[sel as usize];
        for j in 0..n {
            self.b[(first + j) as usize] = k == j as i64 + 1;
        }
    }
}
