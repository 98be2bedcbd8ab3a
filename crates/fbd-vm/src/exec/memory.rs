//! Memory: a REAL MEMORY (the BOOL and integer ones are gates and `SelI`), and the edge
//! detectors R_TRIG and F_TRIG with their memory bit.

use super::Machine;

impl Machine<'_> {
    #[inline(always)]
    pub(super) fn mem_r(&mut self, x: u32, en: u32, q: u32) {
        if self.b[en as usize] {
            self.r[q as usize] = self.r[x as usize]
        }
    }

    #[inline(always)]
    pub(super) fn r_trig(&mut self, clk: u32, m: u32, q: u32) {
        let c = self.b[clk as usize];
        self.b[q as usize] = c && !self.b[m as usize];
        self.b[m as usize] = c;
    }

    #[inline(always)]
    pub(super) fn f_trig(&mut self, clk: u32, m: u32, q: u32) {
        let c = self.b[clk as usize];
        self.b[q as usize] = !c && !self.b[m as usize];
        self.b[m as usize] = !c;
    }
}
