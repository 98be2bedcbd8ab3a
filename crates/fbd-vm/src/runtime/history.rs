//! Reverse stepping. No PLC debugger can step a scan back; this runtime is deterministic by
//! construction, so it can: it keeps a snapshot every K scans in a bounded ring, and the
//! stimuli the program received (inputs, pulses, writes, forces) by scan; a step back restores
//! the nearest snapshot at or before the target and runs forward to it again. Off by default
//! (the scan loop then does nothing extra); [`Runtime::enable_history`] turns it on.

use std::collections::VecDeque;

use super::{Condition, Runtime, RuntimeError, Snapshot, StopReason};
use fbd_model::types::Value;
use fbd_plan::Slot;

/// A force as the runtime keeps it: path, slot, value.
type Force = (String, Slot, Value);

/// What reached the program before one scan, beyond the scan before it.
#[derive(Clone, Debug, Default)]
struct Stimulus {
    scan: u64,
    /// The program inputs, when they changed (`inputs_changed`).
    inputs: Vec<Value>,
    inputs_changed: bool,
    pulses: Vec<(Slot, Value)>,
    pending: Vec<(Slot, Value)>,
    /// Writes applied at once between scans (`write_now`).
    now: Vec<(Slot, Value)>,
    /// The forces, when they changed (`forces_changed`).
    forces: Vec<Force>,
    forces_changed: bool,
}

pub(super) struct History {
    every: u64,
    max_bytes: usize,
    snaps: VecDeque<(Snapshot, Vec<Force>)>,
    stimuli: VecDeque<Stimulus>,
    bytes: usize,
    last_inputs: Vec<Value>,
    last_forces: u64,
    /// `write_now` calls since the last scan.
    now: Vec<(Slot, Value)>,
    replaying: bool,
    /// Snapshots and stimuli that left the ring, kept to be written over: once the ring is
    /// full, taking a snapshot or noting a stimulus during a scan allocates nothing.
    spare_snaps: Vec<(Snapshot, Vec<Force>)>,
    spare_stimuli: Vec<Stimulus>,
}

/// What a step back did: where the program is now and how far back it can go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistorySpan {
    /// The oldest scan the history can return to.
    pub oldest: u64,
    /// Snapshots kept.
    pub snapshots: usize,
    /// Memory the snapshots and stimuli take, in bytes (approximate).
    pub bytes: usize,
}

fn snapshot_bytes(s: &Snapshot) -> usize {
    s.state.bools.len()
        + 8 * (s.state.ints.len() + s.state.reals.len() + s.inputs.len())
        + 320 * s.state.rngs.len()
        + std::mem::size_of::<fbd_model::types::IecString>() * s.state.strs.len()
        + 64
}

/// `dst = src`, reusing `dst`'s strings (a tuple's `clone_from` clones anew).
fn copy_forces(dst: &mut Vec<Force>, src: &[Force]) {
    dst.truncate(src.len());
    for (d, s) in dst.iter_mut().zip(src) {
        d.0.clone_from(&s.0);
        (d.1, d.2) = (s.1, s.2);
    }
    let done = dst.len();
    dst.extend_from_slice(&src[done..]);
}

/// What a stimulus adds to the history's bytes (and gives back when it goes).
fn stimulus_bytes(st: &Stimulus) -> usize {
    64 + 16 * (st.pulses.len() + st.pending.len() + st.now.len())
        + if st.inputs_changed { 16 * st.inputs.len() } else { 0 }
        + if st.forces_changed { 48 * st.forces.len() } else { 0 }
}

impl Runtime {
    /// Keeps a snapshot every `every` scans (at least 1) and the stimuli between them, within
    /// `max_bytes` (the oldest go first), so that [`Runtime::step_back`] can return.
    pub fn enable_history(&mut self, every: u64, max_bytes: usize) {
        self.history = Some(Box::new(History {
            every: every.max(1),
            max_bytes,
            snaps: VecDeque::new(),
            stimuli: VecDeque::new(),
            bytes: 0,
            last_inputs: self.inputs.clone(),
            last_forces: self.forces_version,
            now: Vec::new(),
            replaying: false,
            spare_snaps: Vec::new(),
            spare_stimuli: Vec::new(),
        }));
    }

    /// Forgets the history (a reset or a new program starts a new timeline); it stays on.
    pub(super) fn history_restart(&mut self) {
        if let Some((every, max)) = self.history.as_ref().map(|h| (h.every, h.max_bytes)) {
            self.enable_history(every, max);
        }
    }

    /// The reach of the history, if it is on.
    pub fn history_span(&self) -> Option<HistorySpan> {
        let h = self.history.as_ref()?;
        Some(HistorySpan {
            oldest: h.snaps.front().map_or(self.scan, |s| s.0.scan),
            snapshots: h.snaps.len(),
            bytes: h.bytes,
        })
    }

    /// Records a write made at once between scans (replayed before the next scan).
    pub(super) fn history_note_now(&mut self, s: Slot, v: Value) {
        if let Some(h) = self.history.as_mut()
            && !h.replaying
        {
            h.now.push((s, v));
        }
    }

    /// Called at the start of every scan: a snapshot every K scans, the stimuli of this scan.
    pub(super) fn history_before_scan(&mut self) {
        let Some(mut h) = self.history.take() else { return };
        if !h.replaying {
            self.note_scan(&mut h);
        }
        self.history = Some(h);
    }

    fn note_scan(&self, h: &mut History) {
        // (Writes made at once since the last scan are in the state already; replaying them
        // again from the stimulus sets the same values.)
        if h.snaps.is_empty() || self.scan.is_multiple_of(h.every) {
            let entry = match h.spare_snaps.pop() {
                Some((mut snap, mut forces)) => {
                    self.snapshot_into(&mut snap);
                    copy_forces(&mut forces, &self.forces);
                    (snap, forces)
                }
                None => (self.snapshot(), self.forces.clone()),
            };
            h.bytes += snapshot_bytes(&entry.0);
            h.snaps.push_back(entry);
        }
        let inputs_changed = self.inputs != h.last_inputs;
        let forces_changed = self.forces_version != h.last_forces;
        if inputs_changed || forces_changed || !self.pulses.is_empty() || !self.pending.is_empty() || !h.now.is_empty()
        {
            let mut st = h.spare_stimuli.pop().unwrap_or_default();
            st.scan = self.scan;
            st.inputs_changed = inputs_changed;
            if inputs_changed {
                st.inputs.clone_from(&self.inputs);
            }
            st.pulses.clone_from(&self.pulses);
            st.pending.clone_from(&self.pending);
            // The writes move into the stimulus; the recycled one's empty array takes their place.
            st.now.clear();
            std::mem::swap(&mut st.now, &mut h.now);
            st.forces_changed = forces_changed;
            if forces_changed {
                copy_forces(&mut st.forces, &self.forces);
            }
            h.bytes += stimulus_bytes(&st);
            h.stimuli.push_back(st);
            h.last_inputs.clone_from(&self.inputs);
            h.last_forces = self.forces_version;
        }
        // Within the budget: the oldest snapshot goes, with the stimuli only it needed.
        while h.bytes > h.max_bytes && h.snaps.len() > 1 {
            let old = h.snaps.pop_front().expect("more than one");
            h.bytes -= snapshot_bytes(&old.0).min(h.bytes);
            h.spare_snaps.push(old);
            let keep_from = h.snaps.front().map_or(u64::MAX, |s| s.0.scan);
            while h.stimuli.front().is_some_and(|s| s.scan < keep_from) {
                let st = h.stimuli.pop_front().expect("checked");
                h.bytes -= stimulus_bytes(&st).min(h.bytes);
                h.spare_stimuli.push(st);
            }
        }
    }

    /// Steps `n` scans back (to scan `now - n`), as if the later scans had not run: the state,
    /// the clock, the inputs, the forces and the watch histories are those of that moment.
    /// Returns the scan reached. Stepping forward afterwards runs new scans (what happened
    /// after the target is forgotten; a playback feeds its recording again).
    pub fn step_back(&mut self, n: u64) -> Result<u64, RuntimeError> {
        let target = self.scan.saturating_sub(n);
        let k = self.snapshot_before(target)?;
        self.reexecute(k, target, |_, _| {})?;
        self.forget_after(k, target);
        Ok(target)
    }

    /// Runs back until one of `conds` held: to the state right after the latest earlier scan
    /// in which a condition held (the state [`Runtime::run_until`] would have stopped in), at
    /// most `limit` scans back. When none held within the history and the limit, the runtime
    /// stays where it was and [`StopReason::Limit`] is returned.
    pub fn run_back_until(&mut self, conds: &[Condition], limit: u64) -> Result<StopReason, RuntimeError> {
        let slots = self.condition_slots(conds)?;
        let now = self.scan;
        let lower = now.saturating_sub(limit);
        let Some(h) = self.history.as_ref() else {
            return Err(RuntimeError::NoHistory { oldest: None });
        };
        let starts: Vec<u64> = h.snaps.iter().map(|s| s.0.scan).collect();
        // Newest segment first: re-execute it, remembering the last scan a condition held in.
        for k in (0..starts.len()).rev() {
            let (from, to) = (starts[k], starts.get(k + 1).copied().unwrap_or(now).min(now));
            if from >= now {
                continue;
            }
            let mut before: Vec<Value> = Vec::new();
            let mut hit: Option<(usize, u64)> = None;
            self.reexecute(k, to, |rt, scanned| {
                let values = slots.iter().map(|s| rt.state.get(*s));
                if scanned && rt.scan > lower && rt.scan < now {
                    for (i, (c, (s, v))) in conds.iter().zip(slots.iter().zip(values.clone())).enumerate() {
                        if c.holds(s.ty, before[i], v) {
                            hit = Some((i, rt.scan));
                            break;
                        }
                    }
                }
                before.clear();
                before.extend(values);
            })?;
            if let Some((index, at)) = hit {
                self.reexecute(k, at, |_, _| {})?;
                self.forget_after(k, at);
                return Ok(StopReason::Condition { index, scans: now - at });
            }
            if from <= lower {
                break;
            }
        }
        // Nothing held: back to where it was.
        let k = self.snapshot_before(now)?;
        self.reexecute(k, now, |_, _| {})?;
        Ok(StopReason::Limit)
    }

    /// The newest snapshot at or before `target`.
    fn snapshot_before(&self, target: u64) -> Result<usize, RuntimeError> {
        let Some(h) = self.history.as_ref() else {
            return Err(RuntimeError::NoHistory { oldest: None });
        };
        h.snaps
            .iter()
            .rposition(|s| s.0.scan <= target)
            .ok_or(RuntimeError::NoHistory { oldest: Some(h.snaps.front().map_or(self.scan, |s| s.0.scan)) })
    }

    /// Restores snapshot `k` and runs forward to scan `target` with the stimuli of that time,
    /// calling `after(self, scanned)` once after the restore (`false`) and after every scan
    /// (`true`). The history itself is left as it was; breakpoints do not fire and their hit
    /// counts stay.
    fn reexecute(&mut self, k: usize, target: u64, mut after: impl FnMut(&Runtime, bool)) -> Result<(), RuntimeError> {
        let h = self.history.as_mut().ok_or(RuntimeError::NoHistory { oldest: None })?;
        let (snap, forces) = h.snaps[k].clone();
        let stimuli: Vec<Stimulus> =
            h.stimuli.iter().filter(|s| s.scan >= snap.scan && s.scan < target).cloned().collect();
        h.now.clear();
        h.replaying = true;
        self.restore(&snap)?;
        self.forces = forces;
        self.rebuild_forces();
        // The watch histories lose what lies after the snapshot; the replay writes it again.
        for w in &mut self.watches {
            w.ring.retain(|(s, _)| *s < snap.scan);
        }
        let (hit_pending, last_hit) = (self.hit_pending, self.last_hit);
        let hits: Vec<u64> = self.breakpoints.iter().map(|b| b.hits).collect();
        after(self, false);
        let mut next = 0;
        while self.scan < target {
            while next < stimuli.len() && stimuli[next].scan == self.scan {
                let st = &stimuli[next];
                if st.inputs_changed {
                    self.inputs.clone_from(&st.inputs);
                }
                for (s, v) in &st.now {
                    self.state.set(*s, *v);
                }
                self.pulses.clone_from(&st.pulses);
                self.pending.clone_from(&st.pending);
                if st.forces_changed {
                    self.forces.clone_from(&st.forces);
                    self.rebuild_forces();
                }
                next += 1;
            }
            self.step();
            after(self, true);
        }
        // Breakpoints do not fire during the replay; they start from the values here.
        self.hit_pending = hit_pending;
        self.last_hit = last_hit;
        for (b, hits) in self.breakpoints.iter_mut().zip(hits) {
            b.before = self.state.get(b.slot);
            b.hits = hits;
        }
        if let Some(h) = self.history.as_mut() {
            h.replaying = false;
            h.last_inputs.clone_from(&self.inputs);
            h.last_forces = self.forces_version;
        }
        Ok(())
    }

    /// Forgets the history after `target` (reached from snapshot `k`): later scans are new ones.
    fn forget_after(&mut self, k: usize, target: u64) {
        if let Some(h) = self.history.as_mut() {
            h.snaps.truncate(k + 1);
            h.stimuli.retain(|s| s.scan < target);
            h.bytes = h.snaps.iter().map(|s| snapshot_bytes(&s.0)).sum::<usize>()
                + h.stimuli.iter().map(stimulus_bytes).sum::<usize>();
        }
    }

    /// Whether the history is re-executing scans (a playback then feeds nothing itself).
    pub(super) fn history_replaying(&self) -> bool {
        self.history.as_ref().is_some_and(|h| h.replaying)
    }
}
