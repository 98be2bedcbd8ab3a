//! The scan runtime and its debugger API.
//!
//! One scan: latch inputs → apply pending writes and forces → execute the plan → end-of-scan
//! commits (feedback) → publish outputs → record watches → clock += cycle. The clock is
//! simulated (one cycle per scan), so a run is a pure function of the plan, the seed and the
//! inputs: the same seed and inputs give the same trace, bit for bit.

use std::fmt;
use std::sync::Arc;

use crate::exec::{self, Ctx, FaultLog, ForceView, State};
use fbd_model::types::{Type, Value};
use fbd_plan::{ScanPlan, SignalKind, Slot};

mod conditions;
mod history;
mod image;
mod online_change;
mod playback;
mod recording;
pub mod requests;

use conditions::Breakpoint;
pub use conditions::{BreakpointInfo, Condition, StopReason};
pub use history::HistorySpan;
pub use image::{ScanImage, TREND_TAIL};
pub use playback::PlaybackStatus;
pub use recording::{
    Divergence, Event, ProgramId, RECORDING_VERSION, RecordedFile, Recording, Scalar, Stimulus, StimulusValue,
};

/// What can go wrong when a client names a signal or a value.
#[derive(Clone, Debug, PartialEq)]
pub enum RuntimeError {
    /// No signal has this path.
    UnknownSignal {
        /// The path asked for.
        path: String,
        /// A close existing path, if any.
        suggestion: Option<String>,
    },
    /// A program input was asked for by a name that is none (a block output, a typo).
    NotAnInput {
        /// The name given.
        name: String,
        /// A close input name, if any.
        suggestion: Option<String>,
        /// Whether the name is a signal of another kind (then it is written, not set).
        is_signal: bool,
    },
    /// A value of the right bank but outside the signal's type (40000 for an INT).
    OutOfRange {
        /// The signal.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// The value has the wrong type for the signal.
    TypeMismatch {
        /// The signal.
        path: String,
        /// Its type.
        expected: Type,
        /// The value's type.
        got: Type,
    },
    /// The path is an alias (a block input, a macro pin, a program output, a constant).
    ReadOnly {
        /// The signal.
        path: String,
        /// What drives it: write or force that instead.
        driver: Option<String>,
    },
    /// A snapshot taken from another plan.
    SnapshotMismatch,
    /// A step back further than the history reaches (or with the history off).
    NoHistory {
        /// The oldest scan the history can return to, if it is on.
        oldest: Option<u64>,
    },
    /// A recording whose timeline no run could have written ([`Recording::check`] says why).
    BadRecording(String),
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeError::UnknownSignal { path, suggestion } => {
                write!(f, "unknown signal `{path}`")?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean `{s}`?"),
                    None => write!(f, "; `fbd check --signals FILE` lists every path"),
                }
            }
            RuntimeError::NotAnInput { name, suggestion, is_signal } => {
                write!(f, "`{name}` is no program input")?;
                if *is_signal {
                    write!(f, " (it is a signal of the program: write it, `--set {name}=VALUE`, or force it)")?;
                }
                match suggestion {
                    Some(s) => write!(f, "; did you mean the input `{s}`?"),
                    None => Ok(()),
                }
            }
            RuntimeError::TypeMismatch { path, expected, got } => {
                write!(f, "`{path}` is {expected}, the value given is {got}")
            }
            RuntimeError::OutOfRange { path, why } => write!(f, "`{path}`: {why}"),
            RuntimeError::ReadOnly { path, driver } => {
                write!(f, "`{path}` is an alias and cannot be written or forced")?;
                if let Some(d) = driver {
                    write!(f, "; write or force its driver `{d}`")?;
                }
                Ok(())
            }
            RuntimeError::SnapshotMismatch => {
                write!(f, "the snapshot was taken from a different program")
            }
            RuntimeError::NoHistory { oldest: Some(o) } => {
                write!(f, "the history reaches back to scan {o} only (a larger history budget keeps more)")
            }
            RuntimeError::NoHistory { oldest: None } => write!(f, "the history is off: enable it to step back"),
            RuntimeError::BadRecording(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for RuntimeError {}

/// A full copy of a runtime's state: restore it to travel back in time.
#[derive(Clone, Debug)]
pub struct Snapshot {
    fingerprint: u64,
    state: State,
    scan: u64,
    clock_us: u64,
    inputs: Vec<Value>,
}

impl Snapshot {
    /// The scan count at the time of the snapshot.
    pub fn scan(&self) -> u64 {
        self.scan
    }
}

/// What an online change kept and reset.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChangeReport {
    /// Stateful blocks (and feedback wires) whose state was carried over: same path and type.
    pub kept: Vec<String>,
    /// Stateful blocks that start from their initial state (new, or type changed).
    pub reset: Vec<String>,
    /// Stateful blocks of the old program that are gone.
    pub removed: Vec<String>,
    /// Forces that no longer apply (path gone or type changed) and were released.
    pub forces_released: Vec<String>,
}

struct Watch {
    path: String,
    slot: Slot,
    ring: crate::ring::Ring<(u64, Value)>,
}

/// A compiled program in execution, with the debugger API.
pub struct Runtime {
    plan: Arc<ScanPlan>,
    state: State,
    seed: u64,
    scan: u64,
    clock_us: u64,
    inputs: Vec<Value>,
    outputs: Vec<Value>,
    outputs_changed: bool,
    pending: Vec<(Slot, Value)>,
    pulses: Vec<(Slot, Value)>,
    forces: Vec<(String, Slot, Value)>,
    force_values: Vec<(Slot, Value)>,
    /// The forced slots, shared with scan images (rebuilt only when forces change).
    forced_slots: Arc<Vec<Slot>>,
    /// The paths the enabled breakpoints watch, shared with scan images.
    break_paths: Arc<Vec<String>>,
    /// Every breakpoint's condition and whether it is enabled, shared with scan images
    /// (rebuilt when one is added, removed, enabled or disabled; hits are counted apart).
    break_list: Arc<Vec<(Condition, bool)>>,
    /// The watched paths, shared with scan images (rebuilt when the watches change).
    watch_list: Arc<Vec<String>>,
    /// Counts changes of the forces.
    forces_version: u64,
    /// Snapshots and stimuli for stepping back, when enabled.
    history: Option<Box<history::History>>,
    /// What reaches the program from outside, while recording.
    recorder: Option<Box<recording::Recorder>>,
    /// A recording being fed to the program, during a playback.
    playback: Option<Box<playback::Playback>>,
    force_mask: Vec<bool>,
    watches: Vec<Watch>,
    breakpoints: Vec<Breakpoint>,
    /// The breakpoint that held after the last scan that hit one: (index, scan number).
    last_hit: Option<(usize, u64)>,
    /// Set by a scan that hit a breakpoint; the real-time task takes it and pauses.
    hit_pending: bool,
    faults: FaultLog,
    /// The watchdog fault that stopped the task: no scan runs until a reset or a restore.
    halted: Option<exec::Fault>,
}

impl Runtime {
    /// A runtime for `plan` with the default seed 0.
    pub fn new(plan: ScanPlan) -> Runtime {
        Runtime::with_seed(plan, 0)
    }

    /// A runtime for `plan` whose RANDOM blocks draw from `seed`.
    pub fn with_seed(plan: ScanPlan, seed: u64) -> Runtime {
        let plan = Arc::new(plan);
        let state = State::new(&plan, seed);
        let inputs = plan.inputs.iter().map(|p| p.default).collect();
        let outputs: Vec<Value> = plan.outputs.iter().map(|p| state.get(p.slot)).collect();
        Runtime {
            state,
            seed,
            scan: 0,
            clock_us: 0,
            inputs,
            outputs,
            outputs_changed: false,
            pending: Vec::with_capacity(64),
            pulses: Vec::with_capacity(16),
            forces: Vec::new(),
            force_values: Vec::new(),
            forced_slots: Arc::new(Vec::new()),
            break_paths: Arc::new(Vec::new()),
            break_list: Arc::new(Vec::new()),
            watch_list: Arc::new(Vec::new()),
            forces_version: 0,
            history: None,
            recorder: None,
            playback: None,
            force_mask: vec![false; plan.code.len()],
            watches: Vec::new(),
            breakpoints: Vec::new(),
            last_hit: None,
            hit_pending: false,
            faults: FaultLog::new(1024),
            halted: None,
            plan,
        }
    }

    /// The program being run.
    pub fn plan(&self) -> &Arc<ScanPlan> {
        &self.plan
    }

    /// The runtime seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Scans executed so far.
    pub fn scan_count(&self) -> u64 {
        self.scan
    }

    /// The simulated controller time in µs (scans × cycle).
    pub fn clock_us(&self) -> u64 {
        self.clock_us
    }

    /// Recorded faults.
    pub fn faults(&self) -> &FaultLog {
        &self.faults
    }

    /// The watchdog fault that stopped the task, if one did: [`Runtime::step`] then runs no
    /// scan until [`Runtime::reset`] (or a restore to an earlier scan).
    pub fn halted(&self) -> Option<exec::Fault> {
        self.halted
    }

    /// What stopped the task, for a person ([`halt_text`]).
    pub fn halt_message(&self) -> Option<String> {
        self.halted.map(|f| halt_text(&self.plan, f))
    }

    /// The raw state (slot arrays), e.g. for a trace of every signal.
    pub fn state(&self) -> &State {
        &self.state
    }

    // ----- scanning ---------------------------------------------------------------------

    /// Runs one scan. Allocates nothing. A stopped task ([`Runtime::halted`]) runs none.
    pub fn step(&mut self) {
        if self.halted.is_some() {
            return;
        }
        if self.playback.is_some() {
            self.playback_before_scan();
        }
        if self.history.is_some() {
            self.history_before_scan();
        }
        let plan = &*self.plan;
        exec::commit_apply(plan, &mut self.state);
        for (p, v) in plan.inputs.iter().zip(&self.inputs) {
            self.state.set(p.slot, *v);
        }
        for (s, v) in self.pulses.drain(..) {
            self.state.set(s, v);
        }
        for (s, v) in self.pending.drain(..) {
            self.state.set(s, v);
        }
        let forced = !self.force_values.is_empty();
        if forced {
            exec::apply_forces(&mut self.state, &self.force_values);
        }
        let mut ctx = Ctx { now_us: self.clock_us, scan: self.scan, faults: &mut self.faults };
        let view = ForceView { mask: &self.force_mask, values: &self.force_values };
        if !exec::run(plan, &mut self.state, &mut ctx, if forced { Some(&view) } else { None }) {
            // The watchdog stopped the scan: the task stops where it is (its outputs as the
            // last whole scan published them), as a PLC stops on a watchdog error.
            self.halted = self.faults.last();
            // The real-time task pauses as at a breakpoint: a UI shows why.
            self.hit_pending = true;
            return;
        }
        self.outputs_changed = false;
        for (k, p) in plan.outputs.iter().enumerate() {
            // Compared in place: a value is 136 bytes (a STRING's), a slot mostly 8.
            if !self.state.holds(p.slot, &self.outputs[k]) {
                self.outputs[k] = self.state.get(p.slot);
                self.outputs_changed = true;
            }
        }
        for w in &mut self.watches {
            let v = self.state.get(w.slot);
            w.ring.push((self.scan, v));
        }
        let cycle = plan.cycle_us;
        self.check_breakpoints();
        self.scan += 1;
        self.clock_us += cycle;
        if self.recorder.is_some() {
            self.record_after_scan();
        }
        if self.playback.is_some() {
            self.playback_after_scan();
        }
    }

    /// Runs `n` scans.
    pub fn step_n(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }

    /// Whether the last scan changed any program output.
    pub fn outputs_changed(&self) -> bool {
        self.outputs_changed
    }

    // ----- I/O ------------------------------------------------------------------------------

    /// Sets a program input; it is latched at the start of every following scan.
    pub fn set_input(&mut self, name: &str, v: Value) -> Result<(), RuntimeError> {
        let (k, v) = self.input_value(name, v)?;
        self.store_input(name, k, v);
        Ok(())
    }

    /// Sets several program inputs, all or none: if any name is no input or any value does
    /// not fit its input, nothing is set and the first such write's index and error are
    /// returned (a Modbus request answered with an exception changes nothing).
    pub fn set_inputs(&mut self, writes: &[(&str, Value)]) -> Result<(), (usize, RuntimeError)> {
        let mut admitted = Vec::with_capacity(writes.len());
        for (at, (name, v)) in writes.iter().enumerate() {
            admitted.push(self.input_value(name, *v).map_err(|e| (at, e))?);
        }
        for ((name, _), (k, v)) in writes.iter().zip(admitted) {
            self.store_input(name, k, v);
        }
        Ok(())
    }

    /// The input `name` is (by its name, or in another case when only one input has it so:
    /// IEC ignores case) and `v` as it takes it.
    fn input_value(&self, name: &str, v: Value) -> Result<(usize, Value), RuntimeError> {
        let exact = self.plan.inputs.iter().position(|p| p.name == name);
        let mut other = self.plan.inputs.iter().enumerate().filter(|(_, p)| p.name.eq_ignore_ascii_case(name));
        let any_case = other.next().filter(|_| other.next().is_none()).map(|(k, _)| k);
        let Some(k) = exact.or(any_case) else {
            return Err(self.not_an_input(name));
        };
        Ok((k, admit(name, self.plan.inputs[k].ty, v)?))
    }

    fn store_input(&mut self, name: &str, k: usize, v: Value) {
        self.inputs[k] = v;
        if self.recorder.is_some() {
            self.record(Stimulus::Input { name: name.into(), value: self.inputs[k].into() });
        }
    }

    /// Sets a program input for the next scan only (a momentary push button, or a selector
    /// turned to a position and released): the scan after sees the input's set value again.
    pub fn pulse_input(&mut self, name: &str, v: Value) -> Result<(), RuntimeError> {
        let Some(p) = self.plan.inputs.iter().find(|p| p.name == name) else {
            return Err(self.not_an_input(name));
        };
        let v = admit(name, p.ty, v)?;
        let slot = p.slot;
        self.pulses.retain(|(s, _)| *s != slot);
        self.pulses.push((slot, v));
        if self.recorder.is_some() {
            self.record(Stimulus::Pulse { name: name.into(), value: v.into() });
        }
        Ok(())
    }

    /// Whether a pulse is waiting for the next scan.
    pub fn pulse_pending(&self) -> bool {
        !self.pulses.is_empty()
    }

    /// The current value set for a program input.
    pub fn input(&self, name: &str) -> Option<Value> {
        self.plan.inputs.iter().position(|p| p.name == name).map(|k| self.inputs[k])
    }

    /// A program output as published by the last scan.
    pub fn output(&self, name: &str) -> Option<Value> {
        self.plan.outputs.iter().position(|p| p.name == name).map(|k| self.outputs[k])
    }

    /// All program outputs, in declaration order.
    pub fn outputs(&self) -> &[Value] {
        &self.outputs
    }

    /// Reads any signal by path (the value after the last scan).
    pub fn read(&self, path: &str) -> Result<Value, RuntimeError> {
        let (_, s) = self.resolve(path)?;
        Ok(self.state.get(s))
    }

    /// Reads a signal by index in [`ScanPlan::signals`] (no lookup; for HMI trees and traces).
    pub fn read_signal(&self, id: usize) -> Value {
        self.state.get(self.plan.signals.at(id).slot)
    }

    fn unknown(&self, path: &str) -> RuntimeError {
        let paths: Vec<&str> = self.plan.signals.iter().map(|s| s.path).collect();
        let best = fbd_model::diag::closest(path, &paths);
        RuntimeError::UnknownSignal { path: path.to_string(), suggestion: best.map(str::to_string) }
    }

    /// Why `name` cannot be set as an input: the close input names are the suggestion (not
    /// every signal: `and1.out` suggested itself).
    fn not_an_input(&self, name: &str) -> RuntimeError {
        let inputs: Vec<&str> = self.plan.inputs.iter().map(|p| p.name.as_str()).collect();
        RuntimeError::NotAnInput {
            name: name.to_string(),
            suggestion: fbd_model::diag::closest(name, &inputs).map(str::to_string),
            is_signal: self.plan.signal_id(name).is_some(),
        }
    }

    fn resolve(&self, path: &str) -> Result<(usize, Slot), RuntimeError> {
        match self.plan.signal_id(path).or_else(|| self.any_case(path)) {
            Some(i) => Ok((i, self.plan.signals.at(i).slot)),
            None => Err(self.unknown(path)),
        }
    }

    /// The signal named `path`, or in another case where only one is so named (IEC names
    /// ignore case): what `--watch`, a stimulus and a test table name.
    pub fn find_signal(&self, path: &str) -> Option<usize> {
        self.plan.signal_id(path).or_else(|| self.any_case(path))
    }

    /// The one signal whose path is `path` in another case (IEC names ignore case: `CNT` is
    /// `cnt`); none where two differ only by case. A look-up that missed, never in a scan.
    fn any_case(&self, path: &str) -> Option<usize> {
        let mut found = self.plan.signals.iter().enumerate().filter(|(_, s)| s.path.eq_ignore_ascii_case(path));
        let first = found.next()?.0;
        found.next().is_none().then_some(first)
    }

    fn writable(&self, path: &str, v: Value) -> Result<(usize, Slot, Value), RuntimeError> {
        let (mut i, s) = self.resolve(path)?;
        let mut sig = self.plan.signals.at(i);
        // A variable by its name (a connector) is written where it is driven, as a PLC writes
        // the variable the program then reads.
        if sig.kind == SignalKind::Connector
            && let Some(owner) = self.plan.owner(sig)
        {
            i = owner;
            sig = self.plan.signals.at(i);
        }
        if !sig.kind.writable() {
            return Err(RuntimeError::ReadOnly { path: path.into(), driver: self.plan.driver(sig) });
        }
        let v = admit(path, s.ty, v)?;
        Ok((i, s, v))
    }

    /// Whether [`Runtime::write`] of `v` at `path` would be taken, without writing (a run checks
    /// its every timed write before it opens a file).
    pub fn check_write(&self, path: &str, v: Value) -> Result<(), RuntimeError> {
        self.writable(path, v).map(|_| ())
    }

    /// Writes a value once, applied at the start of the next scan. A block output written this
    /// way is overwritten when its block runs, unless the block holds state (a MEMORY's `q`
    /// keeps it while `en` is FALSE); what reads it back through a feedback wire reads the
    /// written value. Writing a program input sets the input; writing a variable by its name (a
    /// connector) writes what drives it.
    pub fn write(&mut self, path: &str, v: Value) -> Result<(), RuntimeError> {
        let (i, s, v) = self.writable(path, v)?;
        if self.plan.signals.at(i).kind == SignalKind::ProgramInput {
            let name = self.plan.signals.at(i).path.to_string();
            return self.set_input(&name, v);
        }
        self.pending.push((s, v));
        // Its previous-scan copies (the feedback wires reading it) are `v` too: the write says
        // "it is `v` now", so a program reading it back goes on from `v`, as a PLC's does from
        // a written variable (a counter `cnt` written to -5000 counts on from there).
        for c in self.plan.commits.iter().filter(|c| c.from == s.idx && c.ty.bank() == s.ty.bank()) {
            self.pending.push((Slot { idx: c.to, ty: c.ty }, v));
        }
        // A negated output: `v` is the block's own output, so its readers (behind the circle)
        // see the inverse until the block runs again.
        if let (Some(&pin), Value::Bool(b)) = (self.plan.negated_pin.get(&s), v) {
            self.pending.push((pin, Value::Bool(!b)));
        }
        if self.recorder.is_some() {
            self.record(Stimulus::Write { path: path.into(), value: v.into() });
        }
        Ok(())
    }

    /// Writes a value into the state now, outside any scan (e.g. to set up a test board).
    pub fn write_now(&mut self, path: &str, v: Value) -> Result<(), RuntimeError> {
        let (i, s, v) = self.writable(path, v)?;
        if self.plan.signals.at(i).kind == SignalKind::ProgramInput {
            let name = self.plan.signals.at(i).path.to_string();
            self.set_input(&name, v)?;
        } else if self.recorder.is_some() {
            self.record(Stimulus::WriteNow { path: path.into(), value: v.into() });
        }
        self.state.set(s, v);
        self.history_note_now(s, v);
        // Its previous-scan copies too (see `write`).
        let copies: Vec<Slot> = self
            .plan
            .commits
            .iter()
            .filter(|c| c.from == s.idx && c.ty.bank() == s.ty.bank())
            .map(|c| Slot { idx: c.to, ty: c.ty })
            .collect();
        for to in copies {
            self.state.set(to, v);
            self.history_note_now(to, v);
        }
        if let (Some(&pin), Value::Bool(b)) = (self.plan.negated_pin.get(&s), v) {
            self.state.set(pin, Value::Bool(!b));
            self.history_note_now(pin, Value::Bool(!b));
        }
        if let Some(stage) = self.plan.stages.get(&s) {
            // A delayed slot takes its staged value at the start of the next scan.
            self.state.set(*stage, v);
            self.history_note_now(*stage, v);
        }
        Ok(())
    }

    /// Forces a signal: its value is held at `v` in every scan, overriding its block, until
    /// released.
    pub fn force(&mut self, path: &str, v: Value) -> Result<(), RuntimeError> {
        let (_, s, v) = self.writable(path, v)?;
        match self.forces.iter_mut().find(|f| f.0 == path) {
            Some(f) => f.2 = v,
            None => self.forces.push((path.to_string(), s, v)),
        }
        self.state.set(s, v);
        self.rebuild_forces();
        if self.recorder.is_some() {
            self.record(Stimulus::Force { path: path.into(), value: v.into() });
        }
        Ok(())
    }

    /// Releases one force; returns whether it was forced.
    pub fn release(&mut self, path: &str) -> bool {
        let before = self.forces.len();
        self.forces.retain(|f| f.0 != path);
        self.rebuild_forces();
        let released = before != self.forces.len();
        if released && self.recorder.is_some() {
            self.record(Stimulus::Release { path: path.into() });
        }
        released
    }

    /// Releases every force.
    pub fn release_all(&mut self) {
        self.forces.clear();
        self.rebuild_forces();
        if self.recorder.is_some() {
            self.record(Stimulus::ReleaseAll);
        }
    }

    /// The forced signals and their values.
    pub fn forced(&self) -> Vec<(String, Value)> {
        self.forces.iter().map(|(p, _, v)| (p.clone(), *v)).collect()
    }

    /// Whether the signal at `path` (or the driver it aliases) is forced.
    pub fn is_forced(&self, path: &str) -> bool {
        match self.plan.signal(path) {
            Some(sig) => self.forces.iter().any(|f| f.1 == sig.slot),
            None => false,
        }
    }

    fn rebuild_forces(&mut self) {
        // A forced negated output holds its readers at the inverse too.
        let negated_pin = &self.plan.negated_pin;
        self.force_values = self
            .forces
            .iter()
            .flat_map(|f| {
                let pin = match (negated_pin.get(&f.1), f.2) {
                    (Some(&pin), Value::Bool(b)) => Some((pin, Value::Bool(!b))),
                    _ => None,
                };
                std::iter::once((f.1, f.2)).chain(pin)
            })
            .collect();
        self.forced_slots = Arc::new(self.forces.iter().map(|f| f.1).collect());
        self.forces_version += 1;
        self.force_mask = vec![false; self.plan.code.len()];
        for (bi, b) in self.plan.blocks.iter().enumerate() {
            let Some(ins) = b.instr else { continue };
            let writes =
                b.outputs.iter().any(|sig| self.forces.iter().any(|f| f.1 == self.plan.signals.at(*sig as usize).slot));
            if writes {
                // The block's instruction and the NOTs of its negated outputs right after it.
                let mut j = ins as usize;
                while j < self.force_mask.len() && self.plan.instr_block[j] as usize == bi {
                    self.force_mask[j] = true;
                    j += 1;
                }
            }
        }
    }

    // ----- watches ---------------------------------------------------------------------------

    /// Records the value of `path` after every scan, keeping the last `capacity` values.
    pub fn watch(&mut self, path: &str, capacity: usize) -> Result<(), RuntimeError> {
        let (_, slot) = self.resolve(path)?;
        self.watches.retain(|w| w.path != path);
        self.watches.push(Watch { path: path.to_string(), slot, ring: crate::ring::Ring::new(capacity) });
        self.rebuild_watch_list();
        Ok(())
    }

    /// The watched paths as scan images show them.
    pub(super) fn rebuild_watch_list(&mut self) {
        self.watch_list = Arc::new(self.watches.iter().map(|w| w.path.clone()).collect());
    }

    /// Stops recording `path`.
    pub fn unwatch(&mut self, path: &str) {
        self.watches.retain(|w| w.path != path);
        self.rebuild_watch_list();
    }

    /// Watched paths.
    pub fn watched(&self) -> Vec<String> {
        self.watches.iter().map(|w| w.path.clone()).collect()
    }

    /// The recorded history of a watched signal, oldest first: (scan number, value).
    pub fn history(&self, path: &str) -> Option<Vec<(u64, Value)>> {
        let w = self.watches.iter().find(|w| w.path == path)?;
        Some(w.ring.to_vec())
    }

    // ----- snapshots, restart, online change ----------------------------------------------------

    /// A copy of the full state.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            fingerprint: self.plan.fingerprint,
            state: self.state.clone(),
            scan: self.scan,
            clock_us: self.clock_us,
            inputs: self.inputs.clone(),
        }
    }

    /// [`Runtime::snapshot`] into an earlier snapshot, reusing its arrays (the history's
    /// snapshots are taken during scans, which allocate nothing once its ring is full).
    pub(super) fn snapshot_into(&self, snap: &mut Snapshot) {
        snap.fingerprint = self.plan.fingerprint;
        snap.state.clone_from(&self.state);
        snap.scan = self.scan;
        snap.clock_us = self.clock_us;
        snap.inputs.clone_from(&self.inputs);
    }

    /// Restores a snapshot of the same plan.
    pub fn restore(&mut self, snap: &Snapshot) -> Result<(), RuntimeError> {
        if snap.fingerprint != self.plan.fingerprint {
            return Err(RuntimeError::SnapshotMismatch);
        }
        self.state.clone_from(&snap.state);
        self.scan = snap.scan;
        self.clock_us = snap.clock_us;
        self.halted = None;
        self.inputs.clone_from(&snap.inputs);
        self.pending.clear();
        self.pulses.clear();
        for (k, p) in self.plan.outputs.iter().enumerate() {
            self.outputs[k] = self.state.get(p.slot);
        }
        Ok(())
    }

    /// Cold restart: initial state, clock 0, inputs at their defaults, faults cleared.
    /// Forces and watches stay (as in CODESYS, forces survive a reset).
    pub fn reset(&mut self) {
        self.history_restart();
        self.state = State::new(&self.plan, self.seed);
        self.scan = 0;
        self.clock_us = 0;
        self.inputs = self.plan.inputs.iter().map(|p| p.default).collect();
        self.pending.clear();
        self.pulses.clear();
        self.faults.clear();
        self.halted = None;
        for w in &mut self.watches {
            w.ring.clear();
        }
        exec::apply_forces(&mut self.state, &self.force_values);
        for (k, p) in self.plan.outputs.iter().enumerate() {
            self.outputs[k] = self.state.get(p.slot);
        }
    }
}

/// A watchdog fault for a person: the scan, the loop (by its place in the ST text when the
/// lowering named it so: `L4C1_while` is line 4, column 1; `inst/..` in the instance `inst`)
/// and the watchdog.
pub fn halt_text(plan: &ScanPlan, f: exec::Fault) -> String {
    let ms = plan.loop_budget as f64 / fbd_plan::INSTRUCTIONS_PER_US as f64 / 1000.0;
    let watchdog = format!("the watchdog ({ms} ms: {} loop instructions)", plan.loop_budget);
    let Some(&b) = plan.instr_block.get(f.instr as usize) else {
        return format!("scan {}: a loop ran past {watchdog}", f.scan);
    };
    let path = plan.blocks.at(b as usize).path;
    match fbd_plan::st_place(path) {
        Some(p) => {
            let of = if p.instance.is_empty() { String::new() } else { format!(" of `{}`", p.instance) };
            let kind = p.word.to_ascii_uppercase();
            format!("scan {}: the {kind} at ST {}:{}{of} ran past {watchdog}", f.scan, p.line, p.col)
        }
        None => format!("scan {}: the loop `{path}` ran past {watchdog}", f.scan),
    }
}

/// `v` as a value of `ty` for signal `path`: of its bank (an integer for a REAL converted), and
/// within its range (a REAL rounded to an f32).
fn admit(path: &str, ty: Type, v: Value) -> Result<Value, RuntimeError> {
    let c = v.coerce(ty).ok_or_else(|| RuntimeError::TypeMismatch { path: path.into(), expected: ty, got: v.ty() })?;
    ty.admit(c).map_err(|why| RuntimeError::OutOfRange { path: path.into(), why })
}
