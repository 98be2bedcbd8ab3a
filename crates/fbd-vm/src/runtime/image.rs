//! The scan image: what a UI shows of a running program (every slot's value, the scan count,
//! the clock, the program inputs and outputs, which slots are forced), copied out of the
//! runtime after a scan. The real-time task publishes one after every scan, so a UI reads its
//! frame from the image and never holds the runtime: the task does not wait for the UI.

use std::sync::Arc;

use super::{BreakpointInfo, Condition, Runtime};
use crate::exec::Fault;
use fbd_model::types::{Bank, Value};
use fbd_plan::{ScanPlan, Slot};

/// The values of a program after one scan.
#[derive(Clone, Debug)]
pub struct ScanImage {
    /// The plan the values belong to (its signal table resolves paths and ids).
    pub plan: Arc<ScanPlan>,
    /// Scans run so far.
    pub scan: u64,
    /// The simulated clock in microseconds.
    pub clock_us: u64,
    /// A pulse is waiting for its scan.
    pub pulse_pending: bool,
    bools: Vec<bool>,
    ints: Vec<i64>,
    reals: Vec<f64>,
    strs: Vec<fbd_model::types::IecString>,
    inputs: Vec<Value>,
    outputs: Vec<Value>,
    forced: Arc<Vec<Slot>>,
    /// The signal paths the enabled breakpoints watch.
    pub breakpoint_paths: Arc<Vec<String>>,
    /// Counts changes of the forces (a client re-reads its list of forces only when it moved).
    pub forces_version: u64,
    /// Every breakpoint's condition and whether it is enabled.
    breakpoint_list: Arc<Vec<(Condition, bool)>>,
    /// Each breakpoint's hits, in the order of `breakpoint_list`.
    breakpoint_hits: Vec<u64>,
    /// The last breakpoint hit (see [`Runtime::last_breakpoint_hit`]).
    pub last_breakpoint_hit: Option<(usize, u64)>,
    /// Faults recorded since the start.
    pub faults_total: u64,
    /// The newest fault.
    pub last_fault: Option<Fault>,
    /// The watchdog fault that stopped the task, if one did ([`Runtime::halted`]).
    pub halted: Option<Fault>,
    /// The watched paths.
    pub watched: Arc<Vec<String>>,
    /// Per watched path (in the order of `watched`), its newest samples as (scan, value as a
    /// number), at most [`TREND_TAIL`]: a trend plot adds what it has not seen yet, frame
    /// after frame, without taking the runtime's lock.
    pub trend_tails: Vec<Vec<(u64, f64)>>,
}

/// How many of each watch's newest samples a scan image carries: 64 scans, 320 ms at a 5 ms
/// cycle, several frames of a window that is late.
pub const TREND_TAIL: usize = 64;

impl ScanImage {
    fn with_tails(mut self, rt: &Runtime) -> ScanImage {
        rt.tails_into(&mut self.trend_tails);
        self
    }

    /// The value of a slot.
    pub fn get(&self, s: Slot) -> Value {
        match s.ty.bank() {
            Bank::Bool => Value::Bool(self.bools[s.idx as usize]),
            Bank::Int => s.ty.int_value(self.ints[s.idx as usize]),
            Bank::Real => Value::Real(self.reals[s.idx as usize]),
            Bank::Str => Value::Str(self.strs[s.idx as usize]),
        }
    }

    /// What stopped the task, for a person ([`Runtime::halt_message`]).
    pub fn halt_message(&self) -> Option<String> {
        self.halted.map(|f| super::halt_text(&self.plan, f))
    }

    /// A signal by index in [`ScanPlan::signals`].
    pub fn read_signal(&self, id: usize) -> Value {
        self.get(self.plan.signals.at(id).slot)
    }

    /// A signal by path.
    pub fn read(&self, path: &str) -> Option<Value> {
        self.plan.signal_id(path).map(|i| self.read_signal(i))
    }

    /// Whether signal `id` (or the driver it aliases) is forced.
    pub fn is_forced(&self, id: usize) -> bool {
        self.forced.contains(&self.plan.signals.at(id).slot)
    }

    /// A program output.
    pub fn output(&self, name: &str) -> Option<Value> {
        self.plan.outputs.iter().position(|p| p.name == name).map(|k| self.outputs[k])
    }

    /// The breakpoints, in order, with their hits.
    pub fn breakpoints(&self) -> Vec<BreakpointInfo> {
        self.breakpoint_list
            .iter()
            .zip(&self.breakpoint_hits)
            .map(|((c, on), &hits)| BreakpointInfo { condition: c.clone(), enabled: *on, hits })
            .collect()
    }

    /// The value set for a program input.
    pub fn input(&self, name: &str) -> Option<Value> {
        self.plan.inputs.iter().position(|p| p.name == name).map(|k| self.inputs[k])
    }
}

impl Runtime {
    /// The scan image of the runtime as it is now.
    pub fn image(&self) -> ScanImage {
        ScanImage {
            plan: self.plan.clone(),
            scan: self.scan,
            clock_us: self.clock_us,
            pulse_pending: !self.pulses.is_empty(),
            bools: self.state.bools.clone(),
            ints: self.state.ints.clone(),
            reals: self.state.reals.clone(),
            strs: self.state.strs.clone(),
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            forced: self.forced_slots.clone(),
            breakpoint_paths: self.break_paths.clone(),
            forces_version: self.forces_version,
            breakpoint_list: self.break_list.clone(),
            breakpoint_hits: self.breakpoints.iter().map(|b| b.hits).collect(),
            last_breakpoint_hit: self.last_hit,
            faults_total: self.faults.total,
            last_fault: self.faults.last(),
            halted: self.halted,
            watched: self.watch_list.clone(),
            trend_tails: Vec::new(),
        }
        .with_tails(self)
    }

    /// Copies the scan image into `into`, reusing its buffers: no allocation while the plan's
    /// sizes stay the same (the real-time task calls this after every scan).
    pub fn image_into(&self, into: &mut ScanImage) {
        if !Arc::ptr_eq(&into.plan, &self.plan) {
            into.plan = self.plan.clone();
        }
        into.scan = self.scan;
        into.clock_us = self.clock_us;
        into.pulse_pending = !self.pulses.is_empty();
        copy(&mut into.bools, &self.state.bools);
        copy(&mut into.ints, &self.state.ints);
        copy(&mut into.reals, &self.state.reals);
        copy(&mut into.strs, &self.state.strs);
        copy(&mut into.inputs, &self.inputs);
        copy(&mut into.outputs, &self.outputs);
        if !Arc::ptr_eq(&into.forced, &self.forced_slots) {
            into.forced = self.forced_slots.clone();
        }
        into.forces_version = self.forces_version;
        if !Arc::ptr_eq(&into.breakpoint_paths, &self.break_paths) {
            into.breakpoint_paths = self.break_paths.clone();
        }
        if !Arc::ptr_eq(&into.breakpoint_list, &self.break_list) {
            into.breakpoint_list = self.break_list.clone();
        }
        if into.breakpoint_hits.len() == self.breakpoints.len() {
            for (to, b) in into.breakpoint_hits.iter_mut().zip(&self.breakpoints) {
                *to = b.hits;
            }
        } else {
            into.breakpoint_hits.clear();
            into.breakpoint_hits.extend(self.breakpoints.iter().map(|b| b.hits));
        }
        into.last_breakpoint_hit = self.last_hit;
        into.faults_total = self.faults.total;
        into.last_fault = self.faults.last();
        into.halted = self.halted;
        if !Arc::ptr_eq(&into.watched, &self.watch_list) {
            into.watched = self.watch_list.clone();
        }
        self.tails_into(&mut into.trend_tails);
    }

    /// Each watch's newest samples into `tails`, reusing its vectors (sized once to
    /// [`TREND_TAIL`]: no allocation after the first scans while the watches stay).
    fn tails_into(&self, tails: &mut Vec<Vec<(u64, f64)>>) {
        tails.truncate(self.watches.len());
        while tails.len() < self.watches.len() {
            tails.push(Vec::with_capacity(TREND_TAIL));
        }
        for (t, w) in tails.iter_mut().zip(&self.watches) {
            // Only the samples since this image's last one are converted and appended (the
            // pooled images are a few scans old); a tail that does not join is written anew.
            let seen = t.last().map(|s| s.0);
            let fresh = match seen {
                Some(s) => w.ring.iter().rev().take_while(|(scan, _)| *scan > s).count(),
                None => usize::MAX,
            };
            let joins = seen.is_some() && w.ring.iter().rev().nth(fresh).is_some_and(|(scan, _)| Some(*scan) == seen);
            if !joins || fresh >= TREND_TAIL {
                t.clear();
                let skip = w.ring.len().saturating_sub(TREND_TAIL);
                t.extend(w.ring.iter().skip(skip).map(|(scan, v)| (*scan, v.as_f64())));
                continue;
            }
            let over = (t.len() + fresh).saturating_sub(TREND_TAIL);
            t.drain(..over);
            let skip = w.ring.len() - fresh;
            t.extend(w.ring.iter().skip(skip).map(|(scan, v)| (*scan, v.as_f64())));
        }
    }
}

fn copy<T: Copy>(to: &mut Vec<T>, from: &[T]) {
    if to.len() == from.len() {
        to.copy_from_slice(from);
    } else {
        to.clear();
        to.extend_from_slice(from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter: `count` is the number of scans run.
    fn counter() -> Runtime {
        Runtime::new(
            fbd_compiler::compile(
                r#"{"fbd": 1, "outputs": [{"name": "count", "type": "INT", "from": "m.q"}],
                  "blocks": [{"id": "inc", "type": "ADD", "inputs": {"in1": "m.prev", "in2": 1}},
                             {"id": "m", "type": "MEMORY", "inputs": {"in": "inc.out", "en": true}}]}"#,
            )
            .expect("compiles"),
        )
    }

    #[test]
    fn an_image_holds_the_values_after_the_scan_and_which_signals_are_forced() {
        let mut rt = counter();
        rt.step_n(3);
        let mut img = rt.image();
        assert_eq!((img.scan, img.output("count"), img.read("m.q")), (3, Some(Value::Int(3)), Some(Value::Int(3))));
        rt.force("inc.out", Value::Int(40)).expect("force");
        rt.step();
        rt.image_into(&mut img);
        let id = img.plan.signal_id("inc.out").expect("a signal");
        assert!(img.is_forced(id));
        assert_eq!((img.scan, img.read("m.q")), (4, Some(Value::Int(40))));
        assert!(!img.is_forced(img.plan.signal_id("m.q").expect("a signal")));
    }

    /// Pooled images filled in turn carry each watch's newest samples, as its history has them
    /// (the tail is brought up to date from where the image left it).
    #[test]
    fn a_trend_tail_is_the_watch_s_newest_samples() {
        let mut rt = counter();
        rt.watch("count", 100).expect("watch");
        let mut pool = [rt.image(), rt.image(), rt.image()];
        for k in 0..500 {
            rt.step_n(1 + (k % 7) as u64);
            let img = &mut pool[k % 3];
            rt.image_into(img);
            let h = rt.history("count").expect("watched");
            let want: Vec<(u64, f64)> =
                h[h.len().saturating_sub(TREND_TAIL)..].iter().map(|(s, v)| (*s, v.as_f64())).collect();
            assert_eq!(img.trend_tails[0], want, "after {} scans", rt.scan_count());
        }
    }
}
