//! Online change: the running program replaced by a new plan, keeping what can be kept (state of
//! matching stateful blocks, inputs, feedback wires, forces, watches, breakpoints, clock).

use std::sync::Arc;

use super::{ChangeReport, Runtime};
use crate::exec::{self, State};
use fbd_model::types::Value;
use fbd_plan::{ScanPlan, SignalKind};

impl Runtime {
    /// Online change: runs `plan` from now on, keeping the state of every stateful block whose
    /// path, type and data type match, the values of program inputs of the same name and type,
    /// feedback wires of the same path, forces and watches whose paths still exist, the clock
    /// and the scan count.
    pub fn online_change(&mut self, plan: ScanPlan) -> ChangeReport {
        let old = Arc::clone(&self.plan);
        let mut state = State::new(&plan, self.seed);
        let mut report = ChangeReport::default();
        for nb in plan.blocks.iter().filter(|b| !b.state.is_empty() || b.rng.is_some()) {
            match old.block(nb.path) {
                Some(ob)
                    if ob.type_name == nb.type_name
                        && ob.data_type == nb.data_type
                        && ob.state.len() == nb.state.len() =>
                {
                    for (o, n) in ob.state.iter().zip(nb.state) {
                        state.set(*n, self.state.get(*o));
                        if let (Some(os), Some(ns)) = (old.stages.get(o), plan.stages.get(n)) {
                            state.set(*ns, self.state.get(*os));
                        }
                    }
                    if let (Some(o), Some(n)) = (ob.rng, nb.rng) {
                        state.rngs[n as usize] = self.state.rngs[o as usize].clone();
                    }
                    report.kept.push(nb.path.to_string());
                }
                _ => report.reset.push(nb.path.to_string()),
            }
        }
        for ob in old.blocks.iter().filter(|b| !b.state.is_empty() || b.rng.is_some()) {
            if plan.block(ob.path).is_none() {
                report.removed.push(ob.path.to_string());
            }
        }
        for s in plan.signals.iter().filter(|s| s.kind == SignalKind::Feedback) {
            if let Some(o) = old.signal(s.path)
                && o.slot.ty == s.slot.ty
            {
                state.set(s.slot, self.state.get(o.slot));
                if let (Some(os), Some(ns)) = (old.stages.get(&o.slot), plan.stages.get(&s.slot)) {
                    state.set(*ns, self.state.get(*os));
                }
                report.kept.push(s.path.to_string());
            }
        }
        let inputs: Vec<Value> = plan
            .inputs
            .iter()
            .map(|p| match old.inputs.iter().position(|o| o.name == p.name && o.ty == p.ty) {
                Some(k) => self.inputs[k],
                None => p.default,
            })
            .collect();
        let plan = Arc::new(plan);
        let mut forces = Vec::new();
        for (path, _, v) in std::mem::take(&mut self.forces) {
            match plan.signal(&path) {
                Some(s) if s.slot.ty.admit(v).is_ok() && s.kind.writable() => forces.push((path, s.slot, v)),
                _ => report.forces_released.push(path),
            }
        }
        let mut breakpoints = Vec::new();
        for mut b in std::mem::take(&mut self.breakpoints) {
            if let Some(s) = plan.signal(b.cond.path())
                && s.slot.ty == b.slot.ty
            {
                b.slot = s.slot;
                breakpoints.push(b);
            }
        }
        self.breakpoints = breakpoints;
        self.rebuild_break_paths();
        self.last_hit = None;
        let mut watches = Vec::new();
        for w in std::mem::take(&mut self.watches) {
            if let Some(s) = plan.signal(&w.path) {
                let same_type = s.slot.ty == w.slot.ty;
                let mut w = w;
                w.slot = s.slot;
                if !same_type {
                    w.ring.clear();
                }
                watches.push(w);
            }
        }
        report.kept.sort();
        report.reset.sort();
        report.removed.sort();
        report.forces_released.sort();
        self.outputs = plan.outputs.iter().map(|p| state.get(p.slot)).collect();
        self.plan = plan;
        self.state = state;
        for b in &mut self.breakpoints {
            b.before = self.state.get(b.slot);
        }
        self.inputs = inputs;
        self.forces = forces;
        self.watches = watches;
        self.rebuild_watch_list();
        self.pending.clear();
        self.pulses.clear();
        self.rebuild_forces();
        exec::apply_forces(&mut self.state, &self.force_values);
        // Snapshots of the old plan cannot be restored into this one.
        self.history_restart();
        report
    }
}
