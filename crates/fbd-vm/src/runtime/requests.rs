//! Requests: every action a front end asks of a running program, as a value. A front end (the
//! HMI, the terminal, a network server) never holds the [`Runtime`]: it reads the published
//! [`ScanImage`] and sends a request through the scan task's queue
//! (`fbd_realtime::RealtimeRunner::call`); the task applies it between two scans and sends the
//! reply back. A request is plain data, so a front end names what it wants done, not how the
//! runtime does it, and every write of one request lands in the same gap between scans.

use super::{
    ChangeReport, Condition, PlaybackStatus, ProgramId, Recording, Runtime, RuntimeError, ScanImage, StopReason,
};
use fbd_model::types::Value;
use fbd_plan::ScanPlan;

/// An action on the runtime and the type of its answer.
pub trait Request: Send + 'static {
    /// What the action answers.
    type Reply: Send + 'static;
    /// Carries the action out (on the scan task, between two scans).
    fn apply(self, rt: &mut Runtime) -> Self::Reply;
}

/// Several requests of one kind, applied in order in the same gap between scans (a batch of
/// writes takes effect in one scan).
impl<R: Request> Request for Vec<R> {
    type Reply = Vec<R::Reply>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        self.into_iter().map(|r| r.apply(rt)).collect()
    }
}

/// Sets a program input (kept until set again).
#[derive(Clone, Debug)]
pub struct SetInput {
    /// The input's name.
    pub name: String,
    /// Its new value.
    pub value: Value,
}

impl Request for SetInput {
    type Reply = Result<(), RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.set_input(&self.name, self.value)
    }
}

/// Sets several program inputs in one gap between two scans, all or none
/// ([`Runtime::set_inputs`]): the first refused write's index and why.
#[derive(Clone, Debug)]
pub struct SetInputs(pub Vec<SetInput>);

impl Request for SetInputs {
    type Reply = Result<(), (usize, RuntimeError)>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        let writes: Vec<(&str, Value)> = self.0.iter().map(|w| (w.name.as_str(), w.value)).collect();
        rt.set_inputs(&writes)
    }
}

/// Sets a program input for exactly the next scan (a key press, a push button's click).
#[derive(Clone, Debug)]
pub struct PulseInput {
    /// The input's name.
    pub name: String,
    /// The value for one scan.
    pub value: Value,
}

impl Request for PulseInput {
    type Reply = Result<(), RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.pulse_input(&self.name, self.value)
    }
}

/// A push button pressed: its BOOL input TRUE until [`ReleaseButton`]. Answers the scan count
/// at the press.
#[derive(Clone, Debug)]
pub struct PressButton(pub String);

impl Request for PressButton {
    type Reply = Result<u64, RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.set_input(&self.0, Value::Bool(true)).map(|()| rt.scan_count())
    }
}

/// A push button let go: FALSE again, but TRUE for one scan first if no scan has run since the
/// press (however short the press, the program sees it).
#[derive(Clone, Debug)]
pub struct ReleaseButton {
    /// The input's name.
    pub name: String,
    /// What [`PressButton`] answered.
    pub pressed_at: u64,
}

impl Request for ReleaseButton {
    type Reply = Result<(), RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        if rt.scan_count() == self.pressed_at {
            rt.pulse_input(&self.name, Value::Bool(true))?;
        }
        rt.set_input(&self.name, Value::Bool(false))
    }
}

/// Prepares a value for the next scan (a debugger write: once, the program may overwrite it).
#[derive(Clone, Debug)]
pub struct Write {
    /// The signal's path.
    pub path: String,
    /// The value.
    pub value: Value,
}

impl Request for Write {
    type Reply = Result<(), RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.write(&self.path, self.value)
    }
}

/// Writes values into the state at once, then optionally runs one scan (puts a prepared
/// situation on the field: a board, a record score).
#[derive(Clone, Debug)]
pub struct WriteNow {
    /// Paths and values.
    pub values: Vec<(String, Value)>,
    /// Run one scan afterwards.
    pub then_step: bool,
}

impl Request for WriteNow {
    type Reply = Vec<Result<(), RuntimeError>>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        let r = self.values.into_iter().map(|(p, v)| rt.write_now(&p, v)).collect();
        if self.then_step {
            rt.step();
        }
        r
    }
}

/// Forces a signal: it keeps the value, whatever the program computes, until released.
#[derive(Clone, Debug)]
pub struct Force {
    /// The signal's path.
    pub path: String,
    /// The forced value.
    pub value: Value,
}

impl Request for Force {
    type Reply = Result<(), RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.force(&self.path, self.value)
    }
}

/// Releases a forced signal; answers whether it was forced.
#[derive(Clone, Debug)]
pub struct Release(pub String);

impl Request for Release {
    type Reply = bool;
    fn apply(self, rt: &mut Runtime) -> bool {
        rt.release(&self.0)
    }
}

/// Releases every force.
#[derive(Clone, Copy, Debug)]
pub struct ReleaseAll;

impl Request for ReleaseAll {
    type Reply = ();
    fn apply(self, rt: &mut Runtime) {
        rt.release_all()
    }
}

/// The forced signals and their values.
#[derive(Clone, Copy, Debug)]
pub struct Forced;

impl Request for Forced {
    type Reply = Vec<(String, Value)>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.forced()
    }
}

/// Adds a breakpoint (enabled); answers its index.
#[derive(Clone, Debug)]
pub struct AddBreakpoint(pub Condition);

impl Request for AddBreakpoint {
    type Reply = Result<usize, RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.add_breakpoint(self.0)
    }
}

/// Adds breakpoints with their enabled flags, skipping those whose signal does not exist (a
/// program's remembered breakpoints after it changed).
#[derive(Clone, Debug)]
pub struct RestoreBreakpoints(pub Vec<(Condition, bool)>);

impl Request for RestoreBreakpoints {
    type Reply = ();
    fn apply(self, rt: &mut Runtime) {
        for (c, on) in self.0 {
            if let Ok(i) = rt.add_breakpoint(c) {
                rt.enable_breakpoint(i, on);
            }
        }
    }
}

/// Enables or disables breakpoint `index`.
#[derive(Clone, Copy, Debug)]
pub struct EnableBreakpoint {
    /// The breakpoint's index.
    pub index: usize,
    /// Enabled.
    pub on: bool,
}

impl Request for EnableBreakpoint {
    type Reply = ();
    fn apply(self, rt: &mut Runtime) {
        rt.enable_breakpoint(self.index, self.on)
    }
}

/// Removes breakpoint `index`.
#[derive(Clone, Copy, Debug)]
pub struct RemoveBreakpoint(pub usize);

impl Request for RemoveBreakpoint {
    type Reply = ();
    fn apply(self, rt: &mut Runtime) {
        rt.remove_breakpoint(self.0)
    }
}

/// Runs `n` scans at once (a single step is `Step(1)`).
#[derive(Clone, Copy, Debug)]
pub struct Step(pub u64);

impl Request for Step {
    type Reply = ();
    fn apply(self, rt: &mut Runtime) {
        rt.step_n(self.0)
    }
}

/// Steps back `n` scans through the history; answers how many it went back.
#[derive(Clone, Copy, Debug)]
pub struct StepBack(pub u64);

impl Request for StepBack {
    type Reply = Result<u64, RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.step_back(self.0)
    }
}

/// Runs forward until a condition holds (or, without one, for `limit` scans), at most `limit`.
#[derive(Clone, Debug)]
pub struct RunUntil {
    /// The condition; `None` runs the whole `limit`.
    pub cond: Option<Condition>,
    /// At most this many scans.
    pub limit: u64,
}

impl Request for RunUntil {
    type Reply = Result<StopReason, RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        match self.cond {
            Some(c) => rt.run_until(std::slice::from_ref(&c), self.limit),
            None => {
                rt.step_n(self.limit);
                Ok(StopReason::Limit)
            }
        }
    }
}

/// Runs backwards through the history until a condition holds, at most `limit` scans.
#[derive(Clone, Debug)]
pub struct RunBackUntil {
    /// The condition.
    pub cond: Condition,
    /// At most this many scans.
    pub limit: u64,
}

impl Request for RunBackUntil {
    type Reply = Result<StopReason, RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.run_back_until(std::slice::from_ref(&self.cond), self.limit)
    }
}

/// Starts keeping a signal's last `capacity` values (a trend).
#[derive(Clone, Debug)]
pub struct Watch {
    /// The signal's path.
    pub path: String,
    /// How many samples to keep.
    pub capacity: usize,
}

impl Request for Watch {
    type Reply = Result<(), RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.watch(&self.path, self.capacity)
    }
}

/// Stops watching a signal.
#[derive(Clone, Debug)]
pub struct Unwatch(pub String);

impl Request for Unwatch {
    type Reply = ();
    fn apply(self, rt: &mut Runtime) {
        rt.unwatch(&self.0)
    }
}

/// The kept samples (scan, value) of watched signals, in the order asked (empty for a path not
/// watched).
#[derive(Clone, Debug)]
pub struct Histories(pub Vec<String>);

impl Request for Histories {
    type Reply = Vec<Vec<(u64, Value)>>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        self.0.iter().map(|p| rt.history(p).unwrap_or_default()).collect()
    }
}

/// Ends the recording under way; answers it (`None` if none was under way).
#[derive(Clone, Debug)]
pub struct StopRecording(pub ProgramId);

impl Request for StopRecording {
    type Reply = Option<Recording>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.stop_recording(self.0)
    }
}

/// Starts replaying a recording (the program's inputs come from it).
#[derive(Clone, Debug)]
pub struct StartPlayback(pub Box<Recording>);

impl Request for StartPlayback {
    type Reply = Result<(), String>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.start_playback(*self.0)
    }
}

/// Ends the replay; the program runs on from where it is.
#[derive(Clone, Copy, Debug)]
pub struct StopPlayback;

impl Request for StopPlayback {
    type Reply = ();
    fn apply(self, rt: &mut Runtime) {
        rt.stop_playback()
    }
}

/// Where the replay stands.
#[derive(Clone, Copy, Debug)]
pub struct Playback;

impl Request for Playback {
    type Reply = Option<PlaybackStatus>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.playback()
    }
}

/// Moves the replay toward scan `target`, by at most `at_most` scans (a slice of a long seek).
#[derive(Clone, Copy, Debug)]
pub struct SeekToward {
    /// The scan to reach.
    pub target: u64,
    /// At most this many scans in this slice.
    pub at_most: u64,
}

impl Request for SeekToward {
    type Reply = Result<u64, RuntimeError>;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.seek_toward(self.target, self.at_most)
    }
}

/// Replaces the program while it runs, keeping the state of what stayed (online change).
#[derive(Clone, Debug)]
pub struct OnlineChange(pub Box<ScanPlan>);

impl Request for OnlineChange {
    type Reply = ChangeReport;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.online_change(*self.0)
    }
}

/// A scan image taken now (the published one may still belong to a program just replaced).
#[derive(Clone, Copy, Debug)]
pub struct TakeImage;

impl Request for TakeImage {
    type Reply = ScanImage;
    fn apply(self, rt: &mut Runtime) -> Self::Reply {
        rt.image()
    }
}
