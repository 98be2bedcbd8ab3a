//! fbd-realtime: pacing, outside the engine's core.
//!
//! Real-time pacing: a thread that runs one scan per cycle and keeps CODESYS Task_Info-style
//! statistics. The headless loop and this thread are two callers of the same
//! [`Runtime::step`]; only the wall-clock pacing differs. The simulated clock still advances
//! one plan cycle per scan, so slowing the pacing down (slow motion) changes nothing the
//! program computes.
//!
//! The task owns the runtime: a front end reads the image the task publishes after every scan
//! and sends [requests](fbd_vm::requests) through one queue ([`RealtimeRunner::call`],
//! [`RealtimeRunner::send`]) that the task drains between two scans, so no frame of a front end
//! ever waits for a scan or makes a scan wait for it.

use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fbd_vm::Request;
use fbd_vm::runtime::{Runtime, ScanImage};

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
    /// Median lateness of scan starts (10 µs resolution; updated every 100 scans).
    pub jitter_p50: Duration,
    /// 99th percentile of the lateness (10 µs resolution; updated every 100 scans).
    pub jitter_p99: Duration,
    /// 99.9th percentile of the lateness (10 µs resolution; updated every 100 scans).
    pub jitter_p999: Duration,
    /// Scans that started a whole period late or more: their start fell into the next cycle
    /// (so `jitter_max` ≥ the period means at least one overrun).
    pub overruns: u64,
    /// The pacing period.
    pub period: Duration,
    /// The scan thread runs in a real-time scheduling class (SCHED_FIFO on Linux). Without it
    /// (no privilege: `ulimit -r` 0 and no CAP_SYS_NICE) the operating system may wake the
    /// task a few milliseconds late now and then.
    pub realtime_priority: bool,
    /// Set when a scan failed (a bug in the engine: a scan is meant never to panic). The task
    /// has then stopped for good and this says why; a client must show it instead of "running".
    pub halted: Option<String>,
}

struct Control {
    paused: bool,
    stop: bool,
    period: Duration,
    reset_stats: bool,
    /// Pause after the scan that brings the runtime's scan count to this.
    pause_at: Option<u64>,
    /// Requests waiting for the gap before the next scan. In the control, so that a request
    /// queued just before the task goes to sleep wakes it (the queue and the wait share a lock).
    queue: Vec<Job>,
}

/// A queued request, type-erased: it applies the request and returns what hands the reply to
/// the caller (run after the image is published, so the caller sees the request's effect).
type Job = Box<dyn FnOnce(&mut Runtime) -> Deliver + Send>;
type Deliver = Box<dyn FnOnce() + Send>;

fn job<R: Request>(r: R, reply: Option<mpsc::SyncSender<R::Reply>>) -> Job {
    Box::new(move |rt: &mut Runtime| {
        let answer = r.apply(rt);
        Box::new(move || {
            if let Some(tx) = reply {
                // The caller may have given up waiting (it never does today): nothing to do.
                let _ = tx.send(answer);
            }
        }) as Deliver
    })
}

struct Shared {
    rt: Mutex<Runtime>,
    /// How many times a client took `rt` ([`RealtimeRunner::with`]): what a test of "a frame
    /// never takes the runtime's lock" counts.
    client_locks: std::sync::atomic::AtomicU64,
    /// The newest scan image; the task swaps a fresh one in after every scan.
    image: Mutex<Arc<ScanImage>>,
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

/// The task as other threads reach it ([`RealtimeRunner::handle`]): what it publishes, and its
/// request queue. A request sent after the task stopped or halted is applied by the caller
/// itself, as [`RealtimeRunner::call`] does.
#[derive(Clone)]
pub struct TaskHandle {
    shared: Arc<Shared>,
}

impl TaskHandle {
    /// The image the task published last.
    pub fn image(&self) -> Arc<ScanImage> {
        Arc::clone(&lock(&self.shared.image))
    }

    /// Sends `r` to the task and waits for its reply (applied between two scans).
    pub fn call<R: Request>(&self, r: R) -> R::Reply {
        let (tx, rx) = mpsc::sync_channel(1);
        lock(&self.shared.ctl).queue.push(job(r, Some(tx)));
        self.shared.wake.notify_all();
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(answer) => return answer,
                Err(mpsc::RecvTimeoutError::Timeout) if self.gone() => drain_by_caller(&self.shared),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    panic!(
                        "{}",
                        lock(&self.shared.stats).halted.clone().unwrap_or_else(|| "the scan task stopped".into())
                    )
                }
            }
        }
    }

    /// Whether the task no longer drains its queue (stopped, or halted by a failed scan).
    fn gone(&self) -> bool {
        lock(&self.shared.ctl).stop || lock(&self.shared.stats).halted.is_some()
    }
}

/// The queue applied by the caller, the task being gone.
fn drain_by_caller(shared: &Shared) {
    let jobs = std::mem::take(&mut lock(&shared.ctl).queue);
    if jobs.is_empty() {
        return;
    }
    let mut rt = lock(&shared.rt);
    let delivers: Vec<Deliver> = jobs.into_iter().map(|j| j(&mut rt)).collect();
    *lock(&shared.image) = Arc::new(rt.image());
    drop(rt);
    delivers.into_iter().for_each(|d| d());
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
        let image = Mutex::new(Arc::new(rt.image()));
        let shared = Arc::new(Shared {
            image,
            rt: Mutex::new(rt),
            client_locks: Default::default(),
            ctl: Mutex::new(Control {
                paused,
                stop: false,
                period,
                reset_stats: false,
                pause_at: None,
                queue: Vec::new(),
            }),
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
        *lock(&self.shared.image) = Arc::new(rt.image());
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

    /// Sends a request through the queue and waits for its reply. The task applies it in the
    /// gap before its next scan (at once when it is waiting or paused; after the scan under
    /// way otherwise) and publishes a fresh image before it replies, so what the request did
    /// shows in [`RealtimeRunner::image`] as soon as this returns.
    pub fn call<R: Request>(&self, r: R) -> R::Reply {
        let (tx, rx) = mpsc::sync_channel(1);
        self.enqueue(job(r, Some(tx)));
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(answer) => return answer,
                // No task to drain the queue (it halted on an internal error, or is being
                // replaced): the caller applies what waits itself.
                Err(mpsc::RecvTimeoutError::Timeout) if self.task_gone() => self.drain_here(),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                // The request itself failed and stopped the task (see `halted`): an engine bug,
                // as a scan that panics is; the caller cannot be given an answer.
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    panic!("{}", self.halted().unwrap_or_else(|| "the scan task stopped".into()))
                }
            }
        }
    }

    /// Sends a request through the queue without waiting for it (its reply is dropped): a key
    /// press, a setting. It lands in the gap before the next scan, in the order sent.
    pub fn send<R: Request>(&self, r: R) {
        self.enqueue(job(r, None));
        if self.task_gone() {
            self.drain_here();
        }
    }

    fn enqueue(&self, j: Job) {
        lock(&self.shared.ctl).queue.push(j);
        self.shared.wake.notify_all();
    }

    fn task_gone(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Applies the queued requests on the caller's thread: only when no task runs.
    fn drain_here(&self) {
        drain_by_caller(&self.shared);
    }

    /// Locks the runtime and runs `f` on it: for tests and tools that own the runner (a
    /// front end sends requests instead: [`RealtimeRunner::call`]). The scan thread waits
    /// meanwhile, so keep it short. While the task is paused the image is refreshed
    /// afterwards, so a step or a force shows at once.
    pub fn with<R>(&self, f: impl FnOnce(&mut Runtime) -> R) -> R {
        self.shared.client_locks.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut rt = lock(&self.shared.rt);
        let r = f(&mut rt);
        // A running task publishes the next image within a period anyway; a paused one
        // would not, and a step or a force must show now.
        if self.is_paused() {
            let img = Arc::new(rt.image());
            drop(rt);
            *lock(&self.shared.image) = img;
        }
        r
    }

    /// A way to the task for other threads (a network server, a command pump): the published
    /// image and the request queue, cloneable, without the runner itself.
    pub fn handle(&self) -> TaskHandle {
        TaskHandle { shared: Arc::clone(&self.shared) }
    }

    /// How many times a client has taken the runtime's lock ([`RealtimeRunner::with`]) since
    /// the runner started. The scan task's own locks are not counted.
    pub fn client_locks(&self) -> u64 {
        self.shared.client_locks.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The newest scan image (published by the task after every scan): what a UI reads each
    /// frame without holding the runtime.
    pub fn image(&self) -> Arc<ScanImage> {
        lock(&self.shared.image).clone()
    }

    /// Stops scanning (the state is kept; step with [`RealtimeRunner::with`]).
    pub fn pause(&self) {
        lock(&self.shared.ctl).paused = true;
        self.shared.wake.notify_all();
    }

    /// Resumes scanning on a fresh schedule (a breakpoint hit while stepping by hand does not
    /// pause it again at once).
    pub fn resume(&self) {
        let mut ctl = lock(&self.shared.ctl);
        ctl.queue.push(Box::new(|rt: &mut Runtime| {
            rt.take_breakpoint_hit();
            Box::new(|| {}) as Deliver
        }));
        ctl.paused = false;
        drop(ctl);
        self.shared.wake.notify_all();
    }

    /// Pauses the task once the runtime has run `scans` scans in all (at once if it has): a
    /// run of exactly N scans at the real cycle (`fbd run --realtime --scans N` ran on until
    /// its next look, two or three scans more). `None` cancels it.
    pub fn pause_at(&self, scans: Option<u64>) {
        // The runtime first, then the control, as the task takes them.
        let rt = lock(&self.shared.rt);
        let mut ctl = lock(&self.shared.ctl);
        ctl.pause_at = scans;
        if scans.is_some_and(|n| rt.scan_count() >= n) {
            ctl.paused = true;
        }
        drop((ctl, rt));
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

/// How long before a scan is due the task stops sleeping and spins on the clock.
const SPIN: Duration = Duration::from_micros(300);

/// What the task sums to compute its statistics, cleared with them.
struct Counters {
    total_exec: Duration,
    total_jitter: Duration,
    hist: Box<Histogram>,
}

impl Counters {
    fn new() -> Counters {
        Counters { total_exec: Duration::ZERO, total_jitter: Duration::ZERO, hist: Box::new(Histogram([0; 4096])) }
    }

    fn clear(&mut self) {
        self.total_exec = Duration::ZERO;
        self.total_jitter = Duration::ZERO;
        self.hist.0.fill(0);
    }

    /// One scan that ran for `exec` and started `jitter` after its schedule, at `period`: an
    /// overrun when it started a whole period late or more (its start fell into the next
    /// cycle). The percentiles are brought up to date every 100 scans.
    fn record(&mut self, stats: &mut TaskStats, exec: Duration, jitter: Duration, period: Duration) {
        stats.scans += 1;
        self.total_exec += exec;
        self.total_jitter += jitter;
        stats.exec_last = exec;
        stats.exec_min = if stats.scans == 1 { exec } else { stats.exec_min.min(exec) };
        stats.exec_max = stats.exec_max.max(exec);
        stats.exec_avg = self.total_exec / stats.scans.min(u32::MAX as u64) as u32;
        stats.jitter_max = stats.jitter_max.max(jitter);
        stats.jitter_avg = self.total_jitter / stats.scans.min(u32::MAX as u64) as u32;
        self.hist.add(jitter);
        if stats.scans.is_multiple_of(100) || stats.scans < 100 {
            stats.jitter_p50 = self.hist.quantile_within(0.5, stats.jitter_max);
            stats.jitter_p99 = self.hist.quantile_within(0.99, stats.jitter_max);
            stats.jitter_p999 = self.hist.quantile_within(0.999, stats.jitter_max);
        }
        if jitter >= period {
            stats.overruns += 1;
        }
    }
}

/// Lateness histogram: 10 µs buckets up to 40.95 ms (the last bucket holds everything later).
/// Fixed size and owned by the task, so counting costs no allocation.
struct Histogram([u32; 4096]);

impl Histogram {
    const BUCKET_US: u64 = 10;

    fn add(&mut self, d: Duration) {
        let b = (d.as_micros() as u64 / Self::BUCKET_US).min(self.0.len() as u64 - 1) as usize;
        self.0[b] = self.0[b].saturating_add(1);
    }

    /// The `q` quantile, no more than `max`, the largest value counted: a bucket's upper edge
    /// may pass it (a p99 of 50 us was shown beside a max of 42 us).
    fn quantile_within(&self, q: f64, max: Duration) -> Duration {
        self.quantile(q).min(max)
    }

    /// The `q` quantile (0..1), as the upper edge of its bucket.
    fn quantile(&self, q: f64) -> Duration {
        let total: u64 = self.0.iter().map(|&c| c as u64).sum();
        if total == 0 {
            return Duration::ZERO;
        }
        let want = ((total as f64) * q).ceil().max(1.0) as u64;
        let mut seen = 0u64;
        for (i, &c) in self.0.iter().enumerate() {
            seen += c as u64;
            if seen >= want {
                return Duration::from_micros((i as u64 + 1) * Self::BUCKET_US);
            }
        }
        Duration::from_micros(self.0.len() as u64 * Self::BUCKET_US)
    }
}

/// Puts the calling thread into a real-time scheduling class, if the system allows it; on this
/// 2-core VM that takes the worst start lateness from about 3 ms to 0.6 ms. `FBD_NO_RT=1` keeps
/// the normal class.
fn raise_priority() -> bool {
    if std::env::var_os("FBD_NO_RT").is_some_and(|v| v == "1") {
        return false;
    }
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            RealtimeThreadSchedulePolicy, ThreadPriority, ThreadPriorityValue, ThreadSchedulePolicy,
            set_thread_priority_and_policy, thread_native_id,
        };
        // A middle priority: above every normal thread, below the kernel's own real-time ones.
        let Ok(v) = ThreadPriorityValue::try_from(50u8) else { return false };
        set_thread_priority_and_policy(
            thread_native_id(),
            ThreadPriority::Crossplatform(v),
            ThreadSchedulePolicy::Realtime(RealtimeThreadSchedulePolicy::Fifo),
        )
        .is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Max).is_ok()
    }
}

/// Applies the queued requests (between two scans) and publishes an image before the replies
/// go out, so a caller sees what its request did. A request that panics stops the task as a
/// failed scan does; its caller's reply channel closes.
fn drain(s: &Shared, spares: &mut Spares, jobs: &mut Vec<Job>, delivers: &mut Vec<Deliver>) -> Result<(), String> {
    std::mem::swap(jobs, &mut lock(&s.ctl).queue);
    if jobs.is_empty() {
        return Ok(());
    }
    let mut rt = lock(&s.rt);
    let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        for j in jobs.drain(..) {
            delivers.push(j(&mut rt));
        }
    }));
    if let Err(p) = applied {
        jobs.clear();
        delivers.clear();
        return Err(format!("the scan task stopped with an internal error in a request: {}", panic_text(&*p)));
    }
    spares.publish(s, &rt, true);
    drop(rt);
    delivers.drain(..).for_each(|d| d());
    Ok(())
}

/// Spare images the task fills and swaps in; one the UI still holds is skipped, so publishing
/// never allocates after the first scans.
struct Spares(Vec<Arc<ScanImage>>);

impl Spares {
    fn new(rt: &Runtime) -> Spares {
        Spares((0..3).map(|_| Arc::new(rt.image())).collect())
    }

    /// Publishes `rt`'s image into a free spare. After a scan (`must` false) a UI holding the
    /// image's lock or every spare only delays it to the next scan; after requests (`must`
    /// true) their caller is to see it, so the task waits the moment the UI holds the lock,
    /// and takes a new image if every spare is still in a UI's hands.
    fn publish(&mut self, s: &Shared, rt: &Runtime, must: bool) {
        let spare = self.0.iter_mut().position(|a| Arc::get_mut(a).is_some());
        let k = match spare {
            Some(k) => k,
            None if must => {
                self.0.push(Arc::new(rt.image()));
                self.0.len() - 1
            }
            None => return,
        };
        rt.image_into(Arc::get_mut(&mut self.0[k]).expect("free"));
        // The UI only clones the Arc under this lock: never more than a moment.
        let img = if must { Some(lock(&s.image)) } else { s.image.try_lock().ok() };
        if let Some(mut img) = img {
            std::mem::swap(&mut *img, &mut self.0[k]);
        }
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Stops the task for good after an internal error: the reason in the statistics, paused.
fn halt_with(s: &Shared, stats: &mut TaskStats, msg: String, on_change: Option<&Arc<OnChange>>) {
    stats.halted = Some(msg);
    *lock(&s.stats) = stats.clone();
    lock(&s.ctl).paused = true;
    if let Some(cb) = on_change {
        cb();
    }
}

fn task(s: &Shared, on_change: Option<Arc<OnChange>>) {
    let realtime_priority = raise_priority();
    lock(&s.stats).realtime_priority = realtime_priority;
    let mut next = Instant::now();
    let mut stats = lock(&s.stats).clone();
    let mut counters = Counters::new();
    let mut spares = Spares::new(&lock(&s.rt));
    // The queue's buffers, swapped with the control's: draining allocates nothing.
    let mut jobs: Vec<Job> = Vec::new();
    let mut delivers: Vec<Deliver> = Vec::new();
    loop {
        let period = {
            let mut ctl = lock(&s.ctl);
            loop {
                if ctl.stop {
                    drop(ctl);
                    let _ = drain(s, &mut spares, &mut jobs, &mut delivers);
                    return;
                }
                if !ctl.queue.is_empty() {
                    // Between two scans: requests first (a paused task wakes for them).
                    drop(ctl);
                    if let Err(msg) = drain(s, &mut spares, &mut jobs, &mut delivers) {
                        halt_with(s, &mut stats, msg, on_change.as_ref());
                        return;
                    }
                    ctl = lock(&s.ctl);
                    continue;
                }
                if ctl.reset_stats {
                    ctl.reset_stats = false;
                    stats = TaskStats { period: ctl.period, realtime_priority, ..TaskStats::default() };
                    counters.clear();
                }
                if ctl.paused {
                    // Paused, the task waits anyway: the statistics of its last scan are
                    // published even if a reader held them then.
                    lock(&s.stats).clone_from(&stats);
                    ctl = s.wake.wait(ctl).unwrap_or_else(|e| e.into_inner());
                    next = Instant::now();
                    continue;
                }
                let now = Instant::now();
                if now >= next {
                    break ctl.period;
                }
                if next - now <= SPIN {
                    // The last stretch is spun, not slept: a sleep wakes up 50-150 us late
                    // (timer slack and wake-up latency), a spin on the clock does not.
                    drop(ctl);
                    while Instant::now() < next {
                        std::hint::spin_loop();
                    }
                    ctl = lock(&s.ctl);
                    continue;
                }
                ctl = s.wake.wait_timeout(ctl, next - now - SPIN).unwrap_or_else(|e| e.into_inner()).0;
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
                // So does reaching the scan count asked for (read under the runtime's lock, as
                // `pause_at` sets it: the scan that reaches it is the last).
                let hit = rt.take_breakpoint_hit();
                let mut ctl = lock(&s.ctl);
                if hit || ctl.pause_at.is_some_and(|n| rt.scan_count() >= n) {
                    ctl.paused = true;
                }
                drop(ctl);
                let changed = rt.outputs_changed();
                spares.publish(s, &rt, false);
                changed
            }))
            .map_err(|p| format!("the scan task stopped with an internal error in scan {scan}: {}", panic_text(&*p)))
        };
        let changed = match outcome {
            Ok(c) => c,
            Err(msg) => {
                halt_with(s, &mut stats, msg, on_change.as_ref());
                return;
            }
        };
        counters.record(&mut stats, start.elapsed(), jitter, period);
        stats.period = period;
        next += period;
        let now = Instant::now();
        if now > next + period {
            // More than a whole period behind: a fresh schedule rather than a burst of catch-up
            // scans (the next scan starts late by less than a period; this one was counted).
            next = now;
        }
        // Never wait for a reader of the statistics: if one holds them, the next scan publishes.
        if let Ok(mut shared) = s.stats.try_lock() {
            shared.clone_from(&stats);
        }
        if changed && let Some(cb) = &on_change {
            cb();
        }
    }
}

#[cfg(test)]
mod tests {
    /// An overrun is a start a whole period late or more, whatever the schedule did after it
    /// (a start 5.9 ms late at a 5 ms period was counted as none); p99.9 sees the rare ones.
    #[test]
    fn a_start_a_period_late_is_an_overrun_and_p999_sees_it() {
        let mut c = super::Counters::new();
        let mut stats = super::TaskStats::default();
        let (us, period) = (Duration::from_micros, Duration::from_millis(5));
        for k in 0..10_000 {
            let late = if k % 500 == 0 {
                us(5_900)
            } else if k % 100 == 0 {
                us(4_000)
            } else {
                us(8)
            };
            c.record(&mut stats, us(50), late, period);
        }
        assert_eq!(stats.overruns, 20, "the starts 5.9 ms late");
        assert_eq!(stats.jitter_max, us(5_900));
        assert_eq!(stats.jitter_p99, us(10), "99 % started within 10 us");
        assert!(stats.jitter_p999 >= us(4_000), "p99.9 sees the late starts: {:?}", stats.jitter_p999);
        c.clear();
        assert_eq!(c.hist.0.iter().sum::<u32>(), 0);
    }

    use super::*;
    use std::time::{Duration, Instant};

    const COUNTER: &str = r#"{"fbd": 1, "outputs": [{"name": "count", "type": "INT", "from": "m.q"}],
      "blocks": [{"id": "inc", "type": "ADD", "inputs": {"in1": "m.prev", "in2": 1}},
                 {"id": "m", "type": "MEMORY", "inputs": {"in": "inc.out", "en": true}}]}"#;

    #[test]
    fn the_task_publishes_a_consistent_image_after_every_scan() {
        let runner = RealtimeRunner::start(Runtime::new(fbd_compiler::compile(COUNTER).expect("compiles")), None);
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = 0;
        while seen < 20 {
            let img = runner.image();
            // The counter counts scans: an image taken between two scans would disagree.
            assert_eq!(img.output("count"), Some(fbd_model::Value::Int(img.scan as i64)), "scan {}", img.scan);
            seen = seen.max(img.scan);
            assert!(Instant::now() < deadline, "no image past scan {seen} in 20 s");
            std::thread::yield_now();
        }
        runner.stop();
        // A task started paused runs no scan of its own: a step shows in the image at once.
        let paused =
            RealtimeRunner::start_with(Runtime::new(fbd_compiler::compile(COUNTER).expect("compiles")), None, true);
        assert_eq!(paused.image().scan, 0);
        paused.with(|rt| rt.step_n(2));
        assert_eq!((paused.image().scan, paused.image().output("count")), (2, Some(fbd_model::Value::Int(2))));
    }

    #[test]
    fn a_quantile_is_never_above_the_largest_value_counted() {
        let mut h = Histogram([0; 4096]);
        h.add(Duration::from_micros(42));
        // The bucket 40..50 us: its upper edge is 50 us, the one value 42 us.
        assert_eq!(h.quantile(0.99), Duration::from_micros(50));
        assert_eq!(h.quantile_within(0.99, Duration::from_micros(42)), Duration::from_micros(42));
        h.add(Duration::from_micros(3));
        assert_eq!(h.quantile_within(0.5, Duration::from_micros(42)), Duration::from_micros(10));
    }

    /// `pause_at` stops the task on the scan asked for, not on whatever scan a caller's next
    /// look finds (`fbd run --realtime --scans 50` ran 52).
    #[test]
    fn the_task_pauses_exactly_at_the_scan_asked_for() {
        let runner =
            RealtimeRunner::start_with(Runtime::new(fbd_compiler::compile(COUNTER).expect("compiles")), None, true);
        runner.set_period(Duration::from_micros(100));
        let deadline = Instant::now() + Duration::from_secs(60);
        for target in [7, 12, 40] {
            runner.pause_at(Some(target));
            runner.resume();
            while !(runner.is_paused() && runner.stats().scans >= target) {
                assert!(Instant::now() < deadline, "no pause at scan {target}");
                std::thread::sleep(Duration::from_millis(1));
            }
            assert_eq!(runner.image().scan, target);
            assert_eq!(runner.stats().scans, target);
            assert_eq!(runner.image().output("count"), Some(fbd_model::Value::Int(target as i64)));
        }
        // Cancelled, the task runs on; a count already passed pauses it at once.
        runner.pause_at(None);
        runner.resume();
        while runner.image().scan < 60 {
            assert!(Instant::now() < deadline, "the task did not run on");
            std::thread::sleep(Duration::from_millis(1));
        }
        runner.pause_at(Some(3));
        assert!(runner.is_paused());
        assert!(runner.stop().scan_count() >= 60);
    }

    #[test]
    fn a_failing_scan_halts_the_task_with_its_message_and_a_cold_start_revives_it() {
        // No valid diagram makes a scan panic; a plan corrupted by hand stands in for an engine bug.
        let mut bad = fbd_compiler::compile(COUNTER).expect("compiles");
        bad.code.push(fbd_plan::instr::Instr::Gate { t: 0, a: u32::MAX, b: 0, c: 0, o: 0 });
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
        runner.replace(Runtime::new(fbd_compiler::compile(COUNTER).expect("compiles")));
        assert!(runner.halted().is_none());
        while runner.with(|rt| rt.scan_count()) < 3 {
            assert!(Instant::now() < deadline, "the revived task made no progress");
            std::thread::yield_now();
        }
        assert_eq!(runner.stop().output("count").map(|v| v.as_f64() >= 3.0), Some(true));
    }

    #[test]
    fn a_request_is_applied_between_scans_and_its_effect_is_in_the_image_when_it_returns() {
        use fbd_model::Value;
        use fbd_vm::requests::{Force, Release, Step, Write};
        let runner =
            RealtimeRunner::start_with(Runtime::new(fbd_compiler::compile(COUNTER).expect("compiles")), None, true);
        // Paused: the task wakes for the request, and the reply comes after a fresh image.
        runner.call(Step(5));
        assert_eq!(runner.image().scan, 5);
        assert_eq!(runner.image().output("count"), Some(Value::Int(5)));
        runner.call(Write { path: "m.q".into(), value: Value::Int(100) }).expect("a known signal");
        runner.call(Step(1));
        // The same on a runtime driven directly.
        let mut direct = Runtime::new(fbd_compiler::compile(COUNTER).expect("compiles"));
        direct.step_n(5);
        direct.write("m.q", Value::Int(100)).expect("a known signal");
        direct.step();
        assert_eq!(runner.image().output("count"), direct.output("count"), "the write landed before the scan");
        let err = runner.call(Force { path: "m.qq".into(), value: Value::Int(1) }).expect_err("no such signal");
        assert!(err.to_string().contains("m.qq"), "{err}");
        // Running: requests land between scans, in the order sent.
        runner.resume();
        runner.call(Force { path: "m.q".into(), value: Value::Int(7) }).expect("forces");
        let id = runner.image().plan.signal_id("m.q").expect("m.q");
        assert!(runner.image().is_forced(id), "the image shows the force");
        assert!(runner.call(Release("m.q".into())), "it was forced");
        assert!(!runner.image().is_forced(id), "the image shows the release");
        runner.pause();
        assert_eq!(runner.client_locks(), 0, "no request took the runtime's lock");
    }

    #[test]
    fn requests_sent_without_waiting_keep_their_order_and_a_batch_lands_in_one_gap() {
        use fbd_model::Value;
        use fbd_vm::requests::{SetInput, Step, Write};
        const SUM: &str = r#"{"fbd": 1, "inputs": [{"name": "x", "type": "INT"}],
          "outputs": [{"name": "sum", "type": "INT", "from": "m.q"}],
          "blocks": [{"id": "add", "type": "ADD", "inputs": {"in1": "m.prev", "in2": "x"}},
                     {"id": "m", "type": "MEMORY", "inputs": {"in": "add.out", "en": true}}]}"#;
        let runner =
            RealtimeRunner::start_with(Runtime::new(fbd_compiler::compile(SUM).expect("compiles")), None, true);
        for k in 0..10 {
            runner.send(SetInput { name: "x".into(), value: Value::Int(k * k) });
            runner.send(Step(1));
        }
        runner.call(Step(0));
        assert_eq!(runner.image().scan, 10);
        // Each value for its own scan: 0 + 1 + 4 + ... + 81.
        assert_eq!(runner.image().output("sum"), Some(Value::Int(285)), "in the order sent");
        let writes = vec![
            Write { path: "m.q".into(), value: Value::Int(1) },
            Write { path: "nope".into(), value: Value::Int(1) },
        ];
        let replies = runner.call(writes);
        assert!(replies[0].is_ok() && replies[1].is_err(), "{replies:?}");
    }

    #[test]
    fn a_request_to_a_halted_task_is_still_answered() {
        use fbd_vm::requests::{Step, TakeImage};
        let mut bad = fbd_compiler::compile(COUNTER).expect("compiles");
        bad.code.push(fbd_plan::instr::Instr::Gate { t: 0, a: u32::MAX, b: 0, c: 0, o: 0 });
        let runner = RealtimeRunner::start(Runtime::new(bad), None);
        let deadline = Instant::now() + Duration::from_secs(20);
        while runner.halted().is_none() {
            assert!(Instant::now() < deadline, "the bad scan did not halt the task");
            std::thread::yield_now();
        }
        // The thread is gone: the caller applies the request itself instead of waiting forever.
        assert_eq!(runner.call(TakeImage).scan, 0);
        runner.send(Step(0));
        assert_eq!(runner.image().scan, 0);
    }
}
