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
        let s = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("fbd-scan".into())
            .spawn(move || task(&s, on_change))
            .expect("spawning the scan thread");
        RealtimeRunner { shared, thread: Some(thread) }
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

    /// Resumes scanning on a fresh schedule.
    pub fn resume(&self) {
        lock(&self.shared.ctl).paused = false;
        self.shared.wake.notify_all();
    }

    /// Whether scanning is paused.
    pub fn is_paused(&self) -> bool {
        lock(&self.shared.ctl).paused
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

fn task(s: &Shared, on_change: Option<OnChange>) {
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
        let changed = {
            let mut rt = lock(&s.rt);
            rt.step();
            rt.outputs_changed()
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
