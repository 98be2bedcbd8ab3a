//! `fbd run`: headless run with stimuli and a trace.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use fbd_engine::load::Project;
use fbd_engine::{Runtime, Value};

use crate::error::Error;
use crate::source::seed_warning;
use crate::stimulus::{Ordered, Origin, Stim, Timeline, load_stimulus, parse_set, value_for};

/// Arguments of `fbd run`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The diagram (JSON), or a PLCopen XML file (`.xml`).
    file: PathBuf,
    /// Number of scans to run.
    #[arg(long, default_value_t = 100)]
    scans: u64,
    /// Set a value before a scan: PATH=VALUE@SCAN (SCAN defaults to 0). Program inputs keep
    /// the value; other signals are written once. Repeatable.
    #[arg(long = "set", value_name = "PATH=VALUE[@SCAN]")]
    sets: Vec<String>,
    /// A stimulus file: one `SCAN PATH=VALUE` per line, `#` comments.
    #[arg(long)]
    stimulus: Option<PathBuf>,
    /// Force a signal for the whole run: PATH=VALUE. Repeatable.
    #[arg(long = "force", value_name = "PATH=VALUE")]
    forces: Vec<String>,
    /// Signals to trace (default: every program output). Repeatable.
    #[arg(long = "watch", value_name = "PATH")]
    watches: Vec<String>,
    /// Write the trace to this file: `.csv` or `.jsonl` (`-` for CSV on stdout).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Runtime seed for RANDOM blocks.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Record the run (every stimulus, a state hash every 100 scans) for `fbd replay`.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Pace the scans at the program's cycle on a real-time thread (as the HMI does) and print
    /// the task statistics: execution time, start jitter p50/p99/p99.9/max, overruns (starts a
    /// whole period late or more) per 10,000 scans.
    #[arg(long)]
    realtime: bool,
}

/// A buffered writer that hands whole lines to the file (64 KiB at a time): a run stopped by
/// Ctrl-C leaves a trace that ends on a whole line (a `BufWriter` wrote 8 KiB blocks, a line
/// cut in two at the end).
struct WholeLines<W: Write> {
    inner: W,
    buf: Vec<u8>,
}

impl<W: Write> WholeLines<W> {
    fn new(inner: W) -> Self {
        WholeLines { inner, buf: Vec::with_capacity(1 << 17) }
    }
}

impl<W: Write> Write for WholeLines<W> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= 1 << 16
            && let Some(end) = self.buf.iter().rposition(|&c| c == b'\n')
        {
            self.inner.write_all(&self.buf[..=end])?;
            self.buf.drain(..=end);
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.write_all(&self.buf)?;
        self.buf.clear();
        self.inner.flush()
    }
}

impl<W: Write> Drop for WholeLines<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// How a run ended.
enum Ending {
    /// Every scan asked for ran.
    Completed,
    /// Ctrl-C or SIGTERM ended it after a scan (its trace and recording saved).
    Interrupted,
    /// The watchdog stopped the task (a loop ran past it): no scan runs after.
    Halted,
}

/// Runs `fbd run`.
pub(crate) fn run(args: Args) -> Result<ExitCode, Error> {
    Ok(match run_inner(args)? {
        Ending::Completed => ExitCode::SUCCESS,
        // As a shell reports a command ended by SIGINT.
        Ending::Interrupted => ExitCode::from(130),
        Ending::Halted => ExitCode::from(3),
    })
}

fn run_inner(args: Args) -> Result<Ending, String> {
    let project = crate::source::project(Some(&args.file), None)?;
    let plan = fbd_engine::compile_project(&project, &Default::default()).map_err(|e| e.to_string())?;
    if args.seed != 0 && !plan.uses_seed() {
        seed_warning(args.seed, &args.file.display().to_string());
    }
    let mut rt = Runtime::with_seed(plan, args.seed);
    if args.record.is_some() {
        // Refused before it runs: a longer recording could not be replayed.
        let max = fbd_engine::limits::MAX_RECORDED_SCANS;
        if args.scans > max {
            return Err(format!("--record: {} scans, more than a recording holds ({max})", args.scans));
        }
        rt.start_recording(100);
    }
    // Every option and stimulus line is checked before anything runs, and every error is
    // reported at once (the first one stopped the check: a file with five bad lines took
    // five runs to mend).
    let mut errors = Vec::new();
    // Each --set and line is checked whole where it is written (an error on line 3 is said
    // before one on line 4), then applied in scan order.
    let value = |s: &Stim| value_for(&rt, &s.path, &s.value, &s.origin);
    let type_of = |p: &str| rt.plan().signal(p).map_or(fbd_engine::Type::Bool, |sig| sig.slot.ty);
    let mut timeline = Timeline::default();
    for (i, s) in args.sets.iter().enumerate() {
        match parse_set(s, format!("--set #{}", i + 1)).and_then(|(s, _)| value(&s).map(|v| (s, v))) {
            Ok((s, v)) => timeline.push(s.scan, &s.path, type_of(&s.path), Origin::Set(i as u32 + 1), v),
            Err(e) => errors.push(e),
        }
    }
    if let Some(p) = &args.stimulus {
        load_stimulus(p, &mut errors, value, type_of, &mut timeline);
    }
    let total: usize = timeline.chunks.iter().map(Vec::len).sum();
    let sorted = timeline.into_sorted_chunks();
    let (chunks, paths) = (&sorted.chunks, &sorted.paths);
    let stimulus_name = args.stimulus.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let origin_text = |o: u32| {
        if o & 1 << 31 != 0 { format!("--set #{}", o & !(1 << 31)) } else { format!("{stimulus_name}:{o}") }
    };
    let mut resolved = Ordered::new(chunks).peekable();
    let forces = forces_of(&args, &rt, &mut errors);
    let (watches, ids) = watched(&args, &rt, &project, &mut errors);
    let late = chunks.iter().flatten().any(|e| e.scan > 0);
    // Every signal a timed write names is checked before any file is opened (a write to an
    // alias refused at its scan had truncated an existing trace to its header).
    let mut checked = vec![false; paths.len()];
    for e in chunks.iter().flatten() {
        if !std::mem::replace(&mut checked[e.path as usize], true)
            && let Err(x) = rt.check_write(&paths[e.path as usize], sorted.value(e))
        {
            errors.push(format!("{}: {x}", origin_text(e.origin)));
        }
    }
    check_destinations(&args, &project, late, &mut errors);
    if !errors.is_empty() {
        return Err(format!("{}\n{} error(s); nothing was run", errors.join("\nerror: "), errors.len()));
    }
    for (path, v, origin) in &forces {
        rt.force(path, *v).map_err(|e| format!("{origin}: {e}"))?;
    }
    if args.realtime {
        for e in resolved {
            let v = sorted.value(e);
            rt.write(&paths[e.path as usize], v).map_err(|x| format!("{}: {x}", origin_text(e.origin)))?;
        }
        let mut rt = realtime(rt, args.scans)?;
        let ending = if rt.halted().is_some() { Ending::Halted } else { Ending::Completed };
        return epilogue(&mut rt, &args, &project, &watches, &ids).map(|()| ending);
    }
    let mut sink = open_trace(&args, &watches)?;
    let mut next = 0;
    // Ctrl-C (or SIGTERM) ends the run after the scan it interrupts: the trace ends on that
    // scan's whole line and a recording is saved, as at the end (killed mid-write, a trace lost
    // its last line and a recording all of it).
    let interrupted = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&interrupted);
    let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));
    // A billion scans take minutes.
    let bar = crate::out::scan_bar("running", args.scans);
    for scan in 0..args.scans {
        if scan & 0xffff == 0 {
            bar.set_position(scan);
        }
        if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
            bar.finish_and_clear();
            sink.finish()?;
            eprintln!("interrupted after {scan} scans");
            epilogue(&mut rt, &args, &project, &watches, &ids)?;
            return Ok(Ending::Interrupted);
        }
        while let Some(e) = resolved.next_if(|e| e.scan == scan) {
            let v = sorted.value(e);
            rt.write(&paths[e.path as usize], v).map_err(|x| format!("{}: {x}", origin_text(e.origin)))?;
            next += 1;
        }
        let t_ms = rt.clock_us() as f64 / 1000.0;
        rt.step();
        if rt.halted().is_some() {
            // The scan that stopped did not end: it has no line in the trace.
            bar.finish_and_clear();
            sink.finish()?;
            epilogue(&mut rt, &args, &project, &watches, &ids)?;
            return Ok(Ending::Halted);
        }
        sink.line(scan, t_ms, &rt, &watches, &ids)?;
    }
    bar.finish_and_clear();
    if next < total {
        eprintln!("warning: {} stimulus line(s) at or after scan {} were not applied", total - next, args.scans);
    }
    sink.finish()?;
    epilogue(&mut rt, &args, &project, &watches, &ids).map(|()| Ending::Completed)
}

/// The `--force` options, each checked: one per signal, none at a scan.
fn forces_of(args: &Args, rt: &Runtime, errors: &mut Vec<String>) -> Vec<(String, Value, String)> {
    let mut forces = Vec::new();
    for (i, f) in args.forces.iter().enumerate() {
        let origin = format!("--force #{}", i + 1);
        match parse_set(f, origin.clone()) {
            Ok((_, Some(_))) => {
                errors.push(format!("{origin} `{f}`: a force holds for the whole run; `@SCAN` applies to --set only"))
            }
            // One force per signal: a second one would replace the first without a word.
            Ok((s, None)) => match forces.iter().find(|(p, _, _): &&(String, Value, String)| *p == s.path) {
                Some((_, _, first)) => errors
                    .push(format!("{origin} `{f}`: `{}` is forced by {first} already; one force per signal", s.path)),
                None => match value_for(rt, &s.path, &s.value, &s.origin) {
                    Ok(v) => forces.push((s.path, v, origin)),
                    Err(e) => errors.push(e),
                },
            },
            Err(e) => errors.push(e),
        }
    }
    forces
}

/// The watched signals (the program's outputs when none is given, then whether each of its
/// tasks ran: `NAME__runs.out`) and their ids.
fn watched(args: &Args, rt: &Runtime, project: &Project, errors: &mut Vec<String>) -> (Vec<String>, Vec<usize>) {
    let watches: Vec<String> = if args.watches.is_empty() {
        let tasks = project.root().tasks.iter().map(|t| format!("{}{}.out", t.name, fbd_engine::model::tasks::RUNS));
        rt.plan().outputs.iter().map(|p| p.name.clone()).chain(tasks).collect()
    } else {
        args.watches.clone()
    };
    let mut ids = Vec::new();
    for w in &watches {
        match rt.find_signal(w) {
            Some(id) => ids.push(id),
            None => errors.push(format!("--watch: {}", rt.read(w).err().map(|e| e.to_string()).unwrap_or_default())),
        }
    }
    (watches, ids)
}

/// Every file the run writes checked before it runs: never one of its inputs, a trace's
/// name, a recording's place; and what `--realtime` cannot do (`late`: a `--set` after scan 0).
fn check_destinations(args: &Args, project: &fbd_engine::load::Project, late: bool, errors: &mut Vec<String>) {
    // Outputs over inputs: the program, its libraries, the stimulus (and the trace over the
    // recording).
    let mut inputs = crate::guard::project_inputs(project);
    if let Some(st) = &args.stimulus {
        inputs.push((st.as_path(), "the stimulus"));
    }
    if let Some(rec) = &args.record {
        if let Err(e) = crate::guard::not_an_input(rec, "--record", &inputs) {
            errors.push(e);
        }
        inputs.push((rec.as_path(), "the recording (--record)"));
    }
    if let Some(p) = args.trace.as_deref().filter(|p| p.as_os_str() != "-")
        && let Err(e) = crate::guard::not_an_input(p, "--trace", &inputs)
    {
        errors.push(e);
    }
    if let Some(p) = &args.trace
        && p.as_os_str() != "-"
        && !matches!(p.extension().and_then(|e| e.to_str()), Some("jsonl" | "csv"))
    {
        errors.push(format!("{}: trace must end in .csv or .jsonl", p.display()));
    } else if let Some(p) = &args.trace
        && p.as_os_str() != "-"
        && let Err(e) = fbd_engine::load::check_writable(p)
    {
        errors.push(format!("{}: cannot create trace: {e}", p.display()));
    }
    if let Some(p) = &args.record
        && let Err(e) = crate::record::check_destination(p)
    {
        errors.push(e);
    }
    if args.realtime && args.scans == 0 {
        errors.push("--realtime --scans 0: no scan to run at the cycle".into());
    }
    if args.realtime && (late || args.trace.is_some()) {
        errors.push("--realtime runs the task on its own: only --set at scan 0 and --force apply, no --trace".into());
    }
}

/// Where the trace goes.
enum Sink {
    None,
    Csv(Box<dyn Write>),
    Jsonl(Box<dyn Write>),
}

fn io(e: std::io::Error) -> String {
    format!("writing the trace: {e}")
}

/// The trace of `--trace` opened (its header written): standard output for `-`, a CSV or a
/// JSON Lines file by its extension.
fn open_trace(args: &Args, watches: &[String]) -> Result<Sink, String> {
    let mut sink = match &args.trace {
        None => Sink::None,
        Some(p) if p.as_os_str() == "-" => {
            // Rust's stdout swallows writes to a closed descriptor; a trace must not vanish.
            use std::os::fd::AsFd;
            std::io::stdout()
                .as_fd()
                .try_clone_to_owned()
                .map_err(|e| format!("--trace -: standard output is not open ({e})"))?;
            Sink::Csv(Box::new(BufWriter::new(std::io::stdout())))
        }
        Some(p) => {
            // The extension is checked before the file is created: a wrong name must not
            // truncate a file that happens to exist.
            let jsonl = match p.extension().and_then(|e| e.to_str()) {
                Some("jsonl") => true,
                Some("csv") => false,
                _ => return Err(format!("{}: trace must end in .csv or .jsonl", p.display())),
            };
            let f = File::create(p).map_err(|e| format!("{}: cannot create trace: {e}", p.display()))?;
            let w: Box<dyn Write> = Box::new(WholeLines::new(f));
            if jsonl { Sink::Jsonl(w) } else { Sink::Csv(w) }
        }
    };
    if let Sink::Csv(w) = &mut sink {
        writeln!(w, "scan,time_ms,{}", watches.join(",")).map_err(io)?;
    }
    Ok(sink)
}

impl Sink {
    /// One scan's line: the watched values after scan `scan`, which started at `t_ms`.
    fn line(&mut self, scan: u64, t_ms: f64, rt: &Runtime, watches: &[String], ids: &[usize]) -> Result<(), String> {
        match self {
            Sink::None => {}
            Sink::Csv(w) => {
                let vals: Vec<String> =
                    ids.iter().map(|&i| csv_value(rt.read_signal(i), rt.plan().signals.at(i).slot.ty)).collect();
                writeln!(w, "{scan},{t_ms},{}", vals.join(",")).map_err(io)?;
            }
            Sink::Jsonl(w) => {
                let mut m = serde_json::Map::new();
                for (k, &i) in ids.iter().enumerate() {
                    m.insert(watches[k].clone(), json_value(rt.read_signal(i)));
                }
                let line = serde_json::json!({ "scan": scan, "t_ms": t_ms, "values": m });
                writeln!(w, "{line}").map_err(io)?;
            }
        }
        Ok(())
    }

    /// Flushes the trace.
    fn finish(self) -> Result<(), String> {
        match self {
            Sink::Csv(mut w) | Sink::Jsonl(mut w) => w.flush().map_err(io),
            Sink::None => Ok(()),
        }
    }
}

/// After the run, headless or real-time: the recording written, the watched values and the
/// faults said (a real-time run dropped its recording and printed no value).
fn epilogue(
    rt: &mut Runtime,
    args: &Args,
    project: &fbd_engine::load::Project,
    watches: &[String],
    ids: &[usize],
) -> Result<(), String> {
    if let Some(path) = &args.record {
        crate::record::finish(rt, project, path)?;
    }
    if args.trace.as_ref().is_none_or(|p| p.as_os_str() != "-") {
        println!("after {} scans ({} ms simulated):", rt.scan_count(), rt.clock_us() / 1000);
        for (k, &i) in ids.iter().enumerate() {
            println!("  {:<40} {}", watches[k], rt.read_signal(i));
        }
    }
    if let Some(why) = rt.halt_message() {
        eprintln!(
            "error: the task stopped at {why}; no scan ran after it (a PLC stays in STOP after a watchdog error until it is restarted)"
        );
    }
    let faults = rt.faults();
    if faults.total > 0 {
        eprintln!("{} fault(s) during the run; most recent:", faults.total);
        for f in faults.recent().iter().rev().take(5) {
            eprintln!("  scan {}: {}: {}", f.scan, rt.plan().instr_block(f.instr as usize).path, f.kind.describe());
        }
    }
    Ok(())
}

fn csv_value(v: Value, ty: fbd_engine::Type) -> String {
    match v {
        Value::Bool(b) => (b as u8).to_string(),
        Value::Int(i) => i.to_string(),
        Value::Real(r) if ty != fbd_engine::Type::Real => format!("{r:?}"),
        // Its IEC literal, in CSV's quotes when it holds a comma or a quote (RFC 4180).
        Value::Str(_) => {
            let t = v.to_string();
            if t.contains([',', '"']) { format!("\"{}\"", t.replace('"', "\"\"")) } else { t }
        }
        v => v.text_as(ty),
    }
}

fn json_value(v: Value) -> serde_json::Value {
    match v {
        Value::Bool(b) => b.into(),
        Value::Int(i) => i.into(),
        // As a diagram writes a duration: its IEC literal.
        Value::Time(_) => v.to_string().into(),
        Value::ULInt(u) => u.into(),
        // As a diagram writes a STRING: its IEC literal (quotes and $ escapes).
        Value::Str(_) => v.to_string().into(),
        // JSON has no infinity and no NaN: said as JavaScript says them, each its own.
        Value::Real(r) => serde_json::Number::from_f64(r).map(serde_json::Value::Number).unwrap_or_else(|| {
            let word = if r.is_nan() {
                "NaN"
            } else if r > 0.0 {
                "Infinity"
            } else {
                "-Infinity"
            };
            serde_json::Value::String(word.into())
        }),
    }
}

/// Runs exactly `scans` scans on the real-time task, prints its statistics and gives the
/// runtime back.
fn realtime(rt: Runtime, scans: u64) -> Result<Runtime, String> {
    use fbd_engine::realtime::RealtimeRunner;
    let period = std::time::Duration::from_micros(rt.plan().cycle_us);
    let runner = RealtimeRunner::start_with(rt, None, true);
    runner.pause_at(Some(scans));
    if scans > 0 {
        runner.resume();
    }
    eprintln!(
        "running {scans} scans at {:.3} ms ({:.1} s)...",
        period.as_secs_f64() * 1e3,
        scans as f64 * period.as_secs_f64()
    );
    // The CLI waits for the task; the task never waits for it.
    // Paused at the last scan, once the task has counted it (it pauses inside the scan, then
    // publishes its statistics).
    loop {
        if let Some(why) = runner.halted() {
            return Err(why);
        }
        if runner.is_paused() && runner.stats().scans >= scans {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let s = runner.stats();
    let rt = runner.stop();
    let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
    let report = format!(
        "task        {} scans, period {:.3} ms, {}\nexecution   min {:.1} us, avg {:.1} us, max {:.1} us\njitter      p50 {:.0} us, p99 {:.0} us, p99.9 {:.0} us, max {:.0} us (avg {:.1} us)\noverruns    {} ({:.2} per 10,000 scans: a start a whole period late or more)\n",
        s.scans,
        period.as_secs_f64() * 1e3,
        if s.realtime_priority {
            "real-time priority"
        } else {
            "normal priority (no real-time class: allow it with `ulimit -r` / CAP_SYS_NICE)"
        },
        us(s.exec_min),
        us(s.exec_avg),
        us(s.exec_max),
        us(s.jitter_p50),
        us(s.jitter_p99),
        us(s.jitter_p999),
        us(s.jitter_max),
        us(s.jitter_avg),
        s.overruns,
        s.overruns as f64 * 1e4 / s.scans.max(1) as f64,
    );
    print!("{report}");
    Ok(rt)
}
