//! Real-time pacing: a thread that runs one scan per cycle and keeps CODESYS Task_Info-style
//! statistics. The headless loop and this thread are two callers of the same
//! [`Runtime::step`]; only the wall-clock pacing differs. The simulated clock still advances
//! one plan cycle per scan, so slowing the pacing down (slow motion) changes nothing the
//! program computes.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::runtime::Runtime;

/// Execution statistics of the scan task.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskStats {
    /// Scans run by the task.
    pub scans: u64,
    /// Shortest scan execution time.
    pub exec_min: Duration,
    /// Longest scan execution time.
    pub exec_max: Duration,
    /// Mean scan execution time.
    pub exec_avg: Duration,
    /// Last scan's execution time.
    pub exec_last: Duration,
    /// Largest lateness of a scan start against its schedule.
    pub jitter_max: Duration,
    /// Mean lateness of scan starts.
    pub jitter_avg: Duration,
    /// Cycles where the scan could not start on time (the schedule was behind by a period).
    pub overruns: u64,
    /// The pacing period.
    pub period: Duration,
    /// Set when a scan failed (a bug in the engine: a scan is meant never to panic). The task
    /// has then stopped for good and this says why; a client must show it instead of "running".
    pub halted: Option<String>,
}

struct Control {
    paused: bool,
    stop: bool,
    period: Duration,
    reset_stats: bool,
}

struct Shared {
    rt: Mutex<Runtime>,
    ctl: Mutex<Control>,
    wake: Condvar,
    stats: Mutex<TaskStats>,
}

/// Callback run after a scan that changed a program output (e.g. to request a repaint).
pub type OnChange = Box<dyn Fn() + Send + Sync>;

/// A runtime driven by its own thread at the plan's cycle time (or a chosen period).
pub struct RealtimeRunner {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    on_change: Option<Arc<OnChange>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock must not take the program down with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl RealtimeRunner {
    /// Starts the scan thread, running (not paused).
    pub fn start(rt: Runtime, on_change: Option<OnChange>) -> RealtimeRunner {
        RealtimeRunner::start_with(rt, on_change, false)
    }

    /// Starts the scan thread, paused or running. Starting paused guarantees that no scan runs
    /// before [`RealtimeRunner::resume`] (a test or a debugger session that wants to step).
    pub fn start_with(rt: Runtime, on_change: Option<OnChange>, paused: bool) -> RealtimeRunner {
        let period = Duration::from_micros(rt.plan().cycle_us);
        let shared = Arc::new(Shared {
            rt: Mutex::new(rt),
            ctl: Mutex::new(Control { paused, stop: false, period, reset_stats: false }),
            wake: Condvar::new(),
            stats: Mutex::new(TaskStats { period, ..TaskStats::default() }),
        });
        let on_change = on_change.map(Arc::new);
        let thread = spawn(&shared, on_change.clone());
        RealtimeRunner { shared, thread: Some(thread), on_change }
    }

    /// Replaces the program (a cold start): the new runtime runs from its first scan, and a
    /// task that had halted on an internal error is started again.
    pub fn replace(&mut self, rt: Runtime) {
        *lock(&self.shared.rt) = rt;
        let halted = lock(&self.shared.stats).halted.take().is_some();
        if halted || self.thread.as_ref().is_some_and(|t| t.is_finished()) {
            if let Some(t) = self.thread.take() {
                let _ = t.join();
            }
            lock(&self.shared.ctl).paused = false;
            self.thread = Some(spawn(&self.shared, self.on_change.clone()));
        }
    }

    /// Locks the runtime for the debugger: the scan thread waits meanwhile.
    pub fn with<R>(&self, f: impl FnOnce(&mut Runtime) -> R) -> R {
        f(&mut lock(&self.shared.rt))
    }

    /// Stops scanning (the state is kept; step with [`RealtimeRunner::with`]).
    pub fn pause(&self) {
        lock(&self.shared.ctl).paused = true;
        self.shared.wake.notify_all();
    }

    /// Resumes scanning on a fresh schedule (a breakpoint hit while stepping by hand does not
    /// pause it again at once).
    pub fn resume(&self) {
        lock(&self.shared.rt).take_breakpoint_hit();
        lock(&self.shared.ctl).paused = false;
        self.shared.wake.notify_all();
    }

    /// Whether scanning is paused (or has halted on an internal error, see [`Self::halted`]).
    pub fn is_paused(&self) -> bool {
        lock(&self.shared.ctl).paused
    }

    /// Why the scan task stopped for good, if a scan failed.
    pub fn halted(&self) -> Option<String> {
        lock(&self.shared.stats).halted.clone()
    }

    /// Sets the pacing period (e.g. 5 ms to 1 s for slow motion).
    pub fn set_period(&self, period: Duration) {
        let p = period.max(Duration::from_micros(50));
        lock(&self.shared.ctl).period = p;
        lock(&self.shared.stats).period = p;
        self.shared.wake.notify_all();
    }

    /// The pacing period.
    pub fn period(&self) -> Duration {
        lock(&self.shared.ctl).period
    }

    /// Current statistics.
    pub fn stats(&self) -> TaskStats {
        lock(&self.shared.stats).clone()
    }

    /// Clears the statistics (from the next scan).
    pub fn reset_stats(&self) {
        lock(&self.shared.ctl).reset_stats = true;
    }

    /// Stops the thread and returns the runtime.
    pub fn stop(mut self) -> Runtime {
        self.halt();
        let shared = Arc::clone(&self.shared);
        drop(self);
        match Arc::try_unwrap(shared) {
            Ok(s) => s.rt.into_inner().unwrap_or_else(|e| e.into_inner()),
            Err(_) => unreachable!("the scan thread has been joined"),
        }
    }

    fn halt(&mut self) {
        lock(&self.shared.ctl).stop = true;
        self.shared.wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for RealtimeRunner {
    fn drop(&mut self) {
        self.halt();
    }
}

fn spawn(shared: &Arc<Shared>, on_change: Option<Arc<OnChange>>) -> JoinHandle<()> {
    let s = Arc::clone(shared);
    std::thread::Builder::new()
        .name("fbd-scan".into())
        .spawn(move || task(&s, on_change))
        .expect("spawning the scan thread")
}

fn task(s: &Shared, on_change: Option<Arc<OnChange>>) {
    let mut next = Instant::now();
    let mut total_exec = Duration::ZERO;
    let mut total_jitter = Duration::ZERO;
    let mut stats = lock(&s.stats).clone();
    loop {
        let period = {
            let mut ctl = lock(&s.ctl);
            loop {
                if ctl.stop {
                    return;
                }
                if ctl.reset_stats {
                    ctl.reset_stats = false;
                    stats = TaskStats { period: ctl.period, ..TaskStats::default() };
                    total_exec = Duration::ZERO;
                    total_jitter = Duration::ZERO;
                }
                if ctl.paused {
                    ctl = s.wake.wait(ctl).unwrap_or_else(|e| e.into_inner());
                    next = Instant::now();
                    continue;
                }
                let now = Instant::now();
                if now >= next {
                    break ctl.period;
                }
                ctl = s.wake.wait_timeout(ctl, next - now).unwrap_or_else(|e| e.into_inner()).0;
            }
        };
        let start = Instant::now();
        let jitter = start.saturating_duration_since(next);
        let outcome = {
            let mut rt = lock(&s.rt);
            let scan = rt.scan_count();
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                rt.step();
                // A breakpoint pauses the task after the scan that hit it, at the real cycle.
                if rt.take_breakpoint_hit() {
                    lock(&s.ctl).paused = true;
                }
                rt.outputs_changed()
            }))
            .map_err(|p| {
                let what = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                format!("the scan task stopped with an internal error in scan {scan}: {what}")
            })
        };
        let changed = match outcome {
            Ok(c) => c,
            Err(msg) => {
                stats.halted = Some(msg);
                *lock(&s.stats) = stats;
                lock(&s.ctl).paused = true;
                if let Some(cb) = &on_change {
                    cb();
                }
                return;
            }
        };
        let exec = start.elapsed();
        stats.scans += 1;
        total_exec += exec;
        total_jitter += jitter;
        stats.exec_last = exec;
        stats.exec_min = if stats.scans == 1 { exec } else { stats.exec_min.min(exec) };
        stats.exec_max = stats.exec_max.max(exec);
        stats.exec_avg = total_exec / stats.scans.min(u32::MAX as u64) as u32;
        stats.jitter_max = stats.jitter_max.max(jitter);
        stats.jitter_avg = total_jitter / stats.scans.min(u32::MAX as u64) as u32;
        stats.period = period;
        next += period;
        let now = Instant::now();
        if now > next + period {
            // More than a whole period behind: count it and start a fresh schedule rather than
            // running a burst of catch-up scans.
            stats.overruns += 1;
            next = now;
        }
        *lock(&s.stats) = stats.clone();
        if changed && let Some(cb) = &on_change {
            cb();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    const COUNTER: &str = r#"{"fbd": 1, "outputs": [{"name": "count", "type": "INT", "from": "m.q"}],
      "blocks": [{"id": "inc", "type": "ADD", "inputs": {"in1": "m.prev", "in2": 1}},
                 {"id": "m", "type": "MEMORY", "inputs": {"in": "inc.out", "en": true}}]}"#;

    #[test]
    fn a_failing_scan_halts_the_task_with_its_message_and_a_cold_start_revives_it() {
        // No valid diagram makes a scan panic; a plan corrupted by hand stands in for an engine bug.
        let mut bad = crate::compile(COUNTER).expect("compiles");
        bad.code.push(crate::exec::Instr::Not { a: u32::MAX, o: 0 });
        let (tx, rx) = std::sync::mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        let mut runner = RealtimeRunner::start(
            Runtime::new(bad),
            Some(Box::new(move || {
                let _ = tx.lock().map(|t| t.send(()));
            })),
        );
        let deadline = Instant::now() + Duration::from_secs(20);
        while runner.halted().is_none() {
            let _ = rx.recv_timeout(Duration::from_millis(100));
            assert!(Instant::now() < deadline, "the runner never reported the failed scan");
        }
        let why = runner.halted().expect("halted");
        assert!(why.contains("scan 0") && why.contains("index out of bounds"), "{why}");
        assert!(runner.is_paused(), "a halted task must not claim to be running");
        assert_eq!(runner.stats().halted.as_deref(), Some(why.as_str()));
        // A cold start with a good program runs again.
        runner.replace(Runtime::new(crate::compile(COUNTER).expect("compiles")));
        assert!(runner.halted().is_none());
        while runner.with(|rt| rt.scan_count()) < 3 {
            assert!(Instant::now() < deadline, "the revived task made no progress");
            std::thread::yield_now();
        }
        assert_eq!(runner.stop().output("count").map(|v| v.as_f64() >= 3.0), Some(true));
    }
}
