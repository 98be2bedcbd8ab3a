//! Timers and counters: TON, TOF, TP on the simulated clock (in ns, as TIME), and CTU, CTD,
//! CTUD. Their operands are a run of slots in the plan's `args` (`aux`): inputs, outputs and
//! state. Each follows matiec's state machine (states 0 idle, 1 running, 2 elapsed).

use super::Machine;

/// A timer's operands: in, preset, q, et, state, start time, previous in.
struct Timer {
    x: usize,
    pt: usize,
    q: usize,
    et: usize,
    s: usize,
    start: usize,
    prev: usize,
}

impl Machine<'_> {
    /// A timer's operands, the clock in ns, its input and its preset (a negative one reported).
    #[inline(always)]
    fn timer(&mut self, aux: u32) -> (Timer, i64, bool, i64) {
        let a = &self.args[aux as usize..aux as usize + 7];
        let at = |k: usize| a[k] as usize;
        let t = Timer { x: at(0), pt: at(1), q: at(2), et: at(3), s: at(4), start: at(5), prev: at(6) };
        let (now, input) = (self.now_ns(), self.b[t.x]);
        let pt = self.preset(self.n[t.pt]);
        (t, now, input, pt)
    }

    /// The simulated clock in ns.
    #[inline(always)]
    fn now_ns(&self) -> i64 {
        (self.now_us as i64).saturating_mul(1000)
    }

    /// A running timer: elapsed when `pt` has passed since its start (then `on_elapse` is the
    /// new q), else `et` counts.
    #[inline(always)]
    fn timer_running(&mut self, t: &Timer, pt: i64, now: i64, on_elapse: Option<bool>) {
        let t0 = self.n[t.start];
        if t0.saturating_add(pt) <= now {
            self.n[t.s] = 2;
            if let Some(q) = on_elapse {
                self.b[t.q] = q;
            }
            self.n[t.et] = pt;
        } else {
            self.n[t.et] = now - t0;
        }
    }

    #[inline(always)]
    pub(super) fn ton(&mut self, aux: u32) {
        let (t, now, input, pt) = self.timer(aux);
        if self.n[t.s] == 0 && !self.b[t.prev] && input {
            self.n[t.s] = 1;
            self.b[t.q] = false;
            self.n[t.start] = now;
        } else if !input {
            self.n[t.et] = 0;
            self.b[t.q] = false;
            self.n[t.s] = 0;
        } else if self.n[t.s] == 1 {
            self.timer_running(&t, pt, now, Some(true));
        }
        self.b[t.prev] = input;
    }

    #[inline(always)]
    pub(super) fn tof(&mut self, aux: u32) {
        let (t, now, input, pt) = self.timer(aux);
        if self.n[t.s] == 0 && self.b[t.prev] && !input {
            self.n[t.s] = 1;
            self.n[t.start] = now;
        } else if input {
            self.n[t.et] = 0;
            self.n[t.s] = 0;
        } else if self.n[t.s] == 1 {
            self.timer_running(&t, pt, now, None);
        }
        self.b[t.q] = input || self.n[t.s] == 1;
        self.b[t.prev] = input;
    }

    #[inline(always)]
    pub(super) fn tp(&mut self, aux: u32) {
        let (t, now, input, pt) = self.timer(aux);
        if self.n[t.s] == 0 && !self.b[t.prev] && input {
            self.n[t.s] = 1;
            self.b[t.q] = true;
            self.n[t.start] = now;
        } else if self.n[t.s] == 1 {
            self.timer_running(&t, pt, now, Some(false));
        }
        if self.n[t.s] == 2 && !input {
            self.n[t.et] = 0;
            self.n[t.s] = 0;
        }
        self.b[t.prev] = input;
    }

    #[inline(always)]
    pub(super) fn ctu(&mut self, aux: u32, unsigned: bool) {
        let a = &self.args[aux as usize..aux as usize + 6];
        let (cu, rr, pv, q, cv, m) =
            (a[0] as usize, a[1] as usize, a[2] as usize, a[3] as usize, a[4] as usize, a[5] as usize);
        let c = self.b[cu];
        let edge = c && !self.b[m];
        self.b[m] = c;
        let below = |v: i64, pv: i64| if unsigned { (v as u64) < pv as u64 } else { v < pv };
        if self.b[rr] {
            self.n[cv] = 0;
        } else if edge && below(self.n[cv], self.n[pv]) {
            self.n[cv] += 1;
        }
        self.b[q] = !below(self.n[cv], self.n[pv]);
    }

    #[inline(always)]
    pub(super) fn ctd(&mut self, aux: u32, unsigned: bool) {
        let a = &self.args[aux as usize..aux as usize + 6];
        let (cd, ld, pv, q, cv, m) =
            (a[0] as usize, a[1] as usize, a[2] as usize, a[3] as usize, a[4] as usize, a[5] as usize);
        let c = self.b[cd];
        let edge = c && !self.b[m];
        self.b[m] = c;
        let positive = |v: i64| if unsigned { v != 0 } else { v > 0 };
        if self.b[ld] {
            self.n[cv] = self.n[pv];
        } else if edge && positive(self.n[cv]) {
            self.n[cv] -= 1;
        }
        self.b[q] = !positive(self.n[cv]);
    }

    #[inline(always)]
    pub(super) fn ctud(&mut self, aux: u32, unsigned: bool) {
        let o = &self.args[aux as usize..aux as usize + 10];
        let at = |k: usize| o[k] as usize;
        let (cu, cd, rr, ld, pv, qu, qd, cv, mu, md) =
            (at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7), at(8), at(9));
        let (cu, cd) = (self.b[cu], self.b[cd]);
        let up = cu && !self.b[mu];
        let down = cd && !self.b[md];
        self.b[mu] = cu;
        self.b[md] = cd;
        let preset = self.n[pv];
        let below = |v: i64| if unsigned { (v as u64) < preset as u64 } else { v < preset };
        let positive = |v: i64| if unsigned { v != 0 } else { v > 0 };
        let v = &mut self.n[cv];
        if self.b[rr] {
            *v = 0;
        } else if self.b[ld] {
            *v = preset;
        } else if !(up && down) {
            if up && below(*v) {
                *v += 1;
            } else if down && positive(*v) {
                *v -= 1;
            }
        }
        let v = self.n[cv];
        self.b[qu] = !below(v);
        self.b[qd] = !positive(v);
    }
}
