//! Signal sources: NOW (the simulated clock), SAW (a ramp over a period), RANDOM (a seeded
//! ChaCha8 stream per block: `fbd_plan::random`).

use rand::Rng;

use fbd_plan::fault::FaultKind;

use super::Machine;

impl Machine<'_> {
    #[inline(always)]
    pub(super) fn now(&mut self, ms: u32, s: u32) {
        self.n[ms as usize] = (self.now_us / 1000) as i64;
        self.r[s as usize] = self.now_us as f64 / 1e6;
    }

    #[inline(always)]
    pub(super) fn saw(&mut self, period: u32, lo: u32, hi: u32, o: u32) {
        let p_ms = self.n[period as usize];
        let (lo, hi) = (self.r[lo as usize], self.r[hi as usize]);
        if p_ms <= 0 {
            self.fault(FaultKind::BadArgument);
            self.r[o as usize] = lo;
        } else {
            let p_us = (p_ms as u64).saturating_mul(1000);
            let phase = (self.now_us % p_us) as f64 / p_us as f64;
            self.real_out(o, lo + (hi - lo) * phase);
        }
    }

    /// With `en`: `x` from one draw (its top 53 bits: every multiple of 2^-53 in [0, 1)), then
    /// `n` in lo..=hi from another by Lemire's multiply-shift (unbiased enough for spans far
    /// below 2^64, and exactly reproducible).
    #[inline(always)]
    pub(super) fn random(&mut self, aux: u32) {
        let a = &self.args[aux as usize..aux as usize + 6];
        let (rng, en, lo, hi, x, n) =
            (a[0] as usize, a[1] as usize, a[2] as usize, a[3] as usize, a[4] as usize, a[5] as usize);
        if !self.b[en] {
            return;
        }
        let g = &mut self.rngs[rng];
        self.r[x] = (g.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let (lo, hi) = (self.n[lo], self.n[hi]);
        self.n[n] = if hi < lo {
            self.fault(FaultKind::BadArgument);
            lo
        } else {
            let span = (hi as i128 - lo as i128 + 1) as u128;
            let pick = ((g.next_u64() as u128 * span) >> 64) as i128;
            (lo as i128 + pick) as i64
        };
    }
}
