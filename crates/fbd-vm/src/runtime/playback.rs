//! Playback: a recording fed to the running program scan by scan, so that a recorded run can
//! be watched, paused, stepped, stepped back and scrubbed like a live one. Every way of
//! scanning (the real-time task, `step`, `run_until`) applies the recording's events before
//! the scan they belong to; the state hashes are checked as the scans come, and the first
//! difference, like the end of the recording, stops the real-time task the way a breakpoint
//! does.

use std::sync::Arc;

use super::recording::{Divergence, Event, Recording};
use super::{Runtime, RuntimeError};

pub(super) struct Playback {
    rec: Arc<Recording>,
    divergence: Option<Divergence>,
    /// An event that could not be applied (the program lost a signal).
    problem: Option<String>,
}

/// Where a playback stands.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaybackStatus {
    /// The recording's length in scans.
    pub scans: u64,
    /// Scans run so far.
    pub at: u64,
    /// The first scan whose state hash differed from the recording's, if any.
    pub divergence: Option<Divergence>,
    /// An event that could not be applied, if any.
    pub problem: Option<String>,
}

impl Runtime {
    /// Starts feeding `rec` to the program: a cold restart with the recording's seed (forces
    /// released), then every scan gets the recorded events for it. The caller checks that the
    /// program is the recorded one ([`Recording::program_differs`]); the cycle is checked here.
    pub fn start_playback(&mut self, rec: Recording) -> Result<(), String> {
        rec.check()?;
        if rec.cycle_us != self.plan.cycle_us {
            return Err(format!(
                "the program's cycle is {} us, the recording's {} us",
                self.plan.cycle_us, rec.cycle_us
            ));
        }
        self.seed = rec.seed;
        self.release_all();
        self.reset();
        self.playback = Some(Box::new(Playback { rec: Arc::new(rec), divergence: None, problem: None }));
        Ok(())
    }

    /// Stops the playback; the program keeps running live from here.
    pub fn stop_playback(&mut self) {
        self.playback = None;
    }

    /// The playback's position, if one is on.
    pub fn playback(&self) -> Option<PlaybackStatus> {
        let p = self.playback.as_ref()?;
        Some(PlaybackStatus {
            scans: p.rec.scans,
            at: self.scan,
            divergence: p.divergence.clone(),
            problem: p.problem.clone(),
        })
    }

    /// The recording being played, e.g. to mark its events on a timeline.
    pub fn playback_recording(&self) -> Option<Arc<Recording>> {
        self.playback.as_ref().map(|p| p.rec.clone())
    }

    /// Moves a playback to scan `target`: back through the history (when it reaches), or
    /// from a cold start; forward by scanning. Returns the scan reached.
    pub fn seek(&mut self, target: u64) -> Result<u64, RuntimeError> {
        self.seek_toward(target, u64::MAX)
    }

    /// [`Runtime::seek`] in steps a caller can interleave with other work: goes back as
    /// `seek` does (a step back re-executes at most the history's snapshot interval), then
    /// runs at most `at_most` scans forward. Returns the scan reached; call again until it is
    /// `target`. A window seeking far into a long recording stays responsive this way and
    /// can stop where it is.
    pub fn seek_toward(&mut self, target: u64, at_most: u64) -> Result<u64, RuntimeError> {
        if target < self.scan {
            match self.step_back(self.scan - target) {
                Ok(_) => {}
                Err(RuntimeError::NoHistory { .. }) => self.reset(),
                Err(e) => return Err(e),
            }
        }
        self.step_n((target - self.scan.min(target)).min(at_most));
        Ok(self.scan)
    }

    /// Before a scan: the recorded events of this scan (not while the history re-executes:
    /// it has them already).
    pub(super) fn playback_before_scan(&mut self) {
        if self.history_replaying() {
            return;
        }
        let Some(rec) = self.playback.as_ref().map(|p| p.rec.clone()) else { return };
        let scan = self.scan;
        let from = rec.events.partition_point(|e| e.scan < scan);
        for Event { stimulus, .. } in rec.events[from..].iter().take_while(|e| e.scan == scan) {
            if let Err(e) = self.apply(stimulus)
                && let Some(p) = self.playback.as_mut()
                && p.problem.is_none()
            {
                p.problem = Some(format!("scan {scan}: {e}"));
                self.hit_pending = true;
            }
        }
    }

    /// After a scan: the recorded state hash of this scan, and the end of the recording.
    pub(super) fn playback_after_scan(&mut self) {
        if self.history_replaying() {
            return;
        }
        let Some(p) = self.playback.as_ref() else { return };
        let (scan, end) = (self.scan, p.rec.scans);
        let want = (p.rec.hash_every > 0 && scan.is_multiple_of(p.rec.hash_every))
            .then(|| p.rec.hashes.binary_search_by_key(&scan, |h| h.0).ok())
            .flatten();
        if let Some(i) = want
            && p.divergence.is_none()
        {
            // Compared as numbers: a scan under playback allocates nothing unless it differs.
            let got = self.state_hash_for(p.rec.fbd_recording);
            let expected = &p.rec.hashes[i].1;
            if u64::from_str_radix(expected, 16).ok() != Some(got) {
                let d = Divergence { scan, expected: expected.clone(), got: format!("{got:016x}") };
                if let Some(p) = self.playback.as_mut() {
                    p.divergence = Some(d);
                }
                self.hit_pending = true;
            }
        }
        if scan == end {
            if let Some(p) = self.playback.as_ref()
                && p.divergence.is_none()
                && let Some(expected) = &p.rec.end_hash
            {
                let got = self.state_hash_for(p.rec.fbd_recording);
                if u64::from_str_radix(expected, 16).ok() != Some(got) {
                    let d = Divergence { scan, expected: expected.clone(), got: format!("{got:016x}") };
                    if let Some(p) = self.playback.as_mut() {
                        p.divergence = Some(d);
                    }
                }
            }
            self.hit_pending = true;
        }
    }
}
