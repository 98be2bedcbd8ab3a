//! Long runs of scans in slices, one slice per frame, so that the window answers while they
//! run and can stop them where they are: a seek far into a recording (up to 2^32 scans), a
//! fast-forward of up to ten million scans, Step N. Each slice is sized from how long the
//! last one took, to about [`SLICE_TIME`].

use std::time::{Duration, Instant};

use eframe::egui;
use fbd_engine::runtime::requests::RunUntil;
use fbd_engine::{Condition, StopReason};

use crate::link::Link;

/// The scans of the first slice: a few milliseconds for the 2048 program's scan.
const FIRST_SLICE: u64 = 5_000;
/// How long a frame's slice should take.
const SLICE_TIME: Duration = Duration::from_millis(30);

/// The size of the next slice.
pub(crate) struct Slicer {
    slice: u64,
}

impl Default for Slicer {
    fn default() -> Slicer {
        Slicer { slice: FIRST_SLICE }
    }
}

impl Slicer {
    /// Runs one slice: `f` gets the most scans it may run. The next slice takes about
    /// [`SLICE_TIME`] at the speed this one ran, and is at most four times this one (a slice
    /// that ran fast by chance does not make the next one freeze a frame).
    pub(crate) fn run<R>(&mut self, f: impl FnOnce(u64) -> R) -> R {
        let t0 = Instant::now();
        let r = f(self.slice);
        let took = t0.elapsed().as_secs_f64().max(1e-6);
        let next = (self.slice as f64 * SLICE_TIME.as_secs_f64() / took) as u64;
        self.slice = next.min(self.slice.saturating_mul(4)).clamp(1_000, 50_000_000);
        r
    }
}

/// A fast-forward under way: until a condition holds (Fast-forward until) or for a number of
/// scans (Step N), a slice per frame.
pub(crate) struct Forward {
    /// None: Step N, no condition.
    cond: Option<Condition>,
    limit: u64,
    done: u64,
    slicer: Slicer,
}

impl crate::debugger::DebuggerState {
    /// Starts running up to `limit` scans, until `cond` holds if there is one, a slice per
    /// frame ([`Self::forward_slice`]).
    pub(crate) fn start_forward(&mut self, cond: Option<Condition>, limit: u64) {
        self.forward = Some(Forward { cond, limit, done: 0, slicer: Slicer::default() });
    }

    /// Runs the next slice of a fast-forward under way, and says how it ended when it did.
    pub(crate) fn forward_slice(&mut self, link: Link<'_>) {
        let Some(mut f) = self.forward.take() else { return };
        let (cond, left) = (&f.cond, f.limit - f.done);
        let (ran, r) = f.slicer.run(|n| {
            let n = n.min(left);
            (n, link.call(RunUntil { cond: cond.clone(), limit: n }))
        });
        match r {
            Ok(StopReason::Condition { scans, .. }) => {
                self.message = format!("condition met after {} scans (paused)", f.done + scans);
            }
            Ok(StopReason::Limit) => {
                f.done += ran;
                if f.done < f.limit {
                    self.forward = Some(f);
                } else if f.cond.is_some() {
                    self.message = format!("not met within {} scans (paused)", f.limit);
                }
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    /// Stops a fast-forward under way where it got to.
    pub(crate) fn cancel_forward(&mut self) {
        if let Some(f) = self.forward.take() {
            self.message = format!("stopped after {} of {} scans (paused)", f.done, f.limit);
        }
    }

    /// Whether a fast-forward or Step N is under way.
    pub fn fast_forwarding(&self) -> bool {
        self.forward.is_some()
    }

    /// How far a fast-forward under way got, with a button that stops it.
    /// Whether it was stopped.
    pub(crate) fn forward_ui(&self, ui: &mut egui::Ui) -> bool {
        let mut stop = false;
        let Some(f) = self.forward.as_ref() else { return false };
        let what = if f.cond.is_some() { "fast-forward" } else { "Step N" };
        let text = format!("{what}: {} of at most {} scans", f.done, f.limit);
        ui.horizontal_wrapped(|ui| {
            ui.spinner();
            // The button first: the count after it changes width every frame.
            if ui.button("Stop here").on_hover_text("stop where it got to (Esc)").clicked()
                || ui.input(|i| i.key_pressed(egui::Key::Escape))
            {
                stop = true;
            }
            ui.label(text);
        });
        stop
    }
}
