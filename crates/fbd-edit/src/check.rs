//! Continuous validation: the edited program is compiled on a worker thread after the edits
//! stop for a moment (debounced), so a large program never stalls the editor, and only the
//! newest version is compiled.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use fbd_model::Diagnostics;
use fbd_plan::ScanPlan;

use crate::workspace::{Workspace, compile_texts};

/// The files of one version of the edited program.
struct Job {
    version: u64,
    files: Vec<(PathBuf, String)>,
}

/// The result of compiling one version.
pub struct Outcome {
    /// The version that was compiled (see [`Checker::submit`]).
    pub version: u64,
    /// The plan, or every error.
    pub result: Result<ScanPlan, Diagnostics>,
    /// How long the compile took.
    pub took: Duration,
}

/// A worker that compiles submitted versions of a program, newest first.
pub struct Checker {
    jobs: Sender<Job>,
    outcomes: Receiver<Outcome>,
    pending: Option<u64>,
}

impl Checker {
    /// Starts the worker; it compiles a version once no newer one arrived for `quiet`.
    pub fn new(quiet: Duration) -> Checker {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (out_tx, outcomes) = mpsc::channel::<Outcome>();
        std::thread::Builder::new()
            .name("fbd-check".into())
            .spawn(move || {
                while let Ok(mut job) = job_rx.recv() {
                    loop {
                        match job_rx.recv_timeout(quiet) {
                            Ok(newer) => job = newer,
                            Err(RecvTimeoutError::Timeout) => break,
                            Err(RecvTimeoutError::Disconnected) => return,
                        }
                    }
                    let t = Instant::now();
                    let result = compile_texts(&job.files);
                    if out_tx.send(Outcome { version: job.version, result, took: t.elapsed() }).is_err() {
                        return;
                    }
                }
            })
            .expect("a thread for the checker");
        Checker { jobs, outcomes, pending: None }
    }

    /// Queues `ws` as version `version` for compiling.
    pub fn submit(&mut self, version: u64, ws: &Workspace) {
        let files = ws.texts().map(|(p, t)| (p.to_path_buf(), t.to_string())).collect();
        if self.jobs.send(Job { version, files }).is_ok() {
            self.pending = Some(version);
        }
    }

    /// Whether a submitted version has not been reported yet.
    pub fn pending(&self) -> bool {
        self.pending.is_some()
    }

    /// The newest outcome that arrived, if any.
    pub fn poll(&mut self) -> Option<Outcome> {
        let last = self.outcomes.try_iter().last()?;
        if self.pending == Some(last.version) {
            self.pending = None;
        }
        Some(last)
    }

    /// Waits for the outcome of the newest submitted version (at most `limit`).
    pub fn wait(&mut self, limit: Duration) -> Option<Outcome> {
        let want = self.pending?;
        let end = Instant::now() + limit;
        loop {
            let left = end.checked_duration_since(Instant::now())?;
            let o = self.outcomes.recv_timeout(left).ok()?;
            if o.version == want {
                self.pending = None;
                return Some(o);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BodyId;

    #[test]
    fn only_the_newest_version_is_reported_after_a_quiet_moment() {
        let mut ws = Workspace::new_program("t.json");
        let mut c = Checker::new(Duration::from_millis(50));
        c.submit(1, &ws);
        ws.add_block(&BodyId::Program, "NOT", [0.0, 0.0]).expect("add");
        c.submit(2, &ws);
        let o = c.wait(Duration::from_secs(20)).expect("an outcome");
        assert_eq!(o.version, 2);
        let e = o.result.expect_err("NOT without its input is an error");
        assert!(e.0.iter().any(|d| d.message.contains("in")), "{:?}", e.0);
        assert!(!c.pending());
        ws.set_constant(&BodyId::Program, "not1", "in", "TRUE").expect("constant");
        c.submit(3, &ws);
        let o = c.wait(Duration::from_secs(20)).expect("an outcome");
        assert!(o.result.is_ok());
    }
}
