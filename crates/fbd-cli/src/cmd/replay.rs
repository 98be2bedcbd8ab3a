//! `fbd replay`: a recording re-executed, its state hashes compared with `--check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use fbd_engine::{CompileOptions, Recording, Runtime, compile_project};

use crate::error::Error;
use crate::out;

/// Arguments of `fbd replay`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The recording (JSON).
    file: PathBuf,
    /// Compare the state hashes the recording holds.
    #[arg(long)]
    check: bool,
    /// The recorded program, where it is now (default: where the recording says, from the
    /// recording's directory, then where it was when recorded).
    #[arg(long, value_name = "FILE")]
    program: Option<PathBuf>,
}

/// Runs `fbd replay`: exit status 1 when the replay differs from the recording (the report says
/// where).
pub(crate) fn run(Args { file, check, program }: Args) -> Result<ExitCode, Error> {
    Ok(replay(&file, check, program.as_deref())?)
}

fn replay(path: &Path, check: bool, program: Option<&Path>) -> Result<ExitCode, String> {
    // Bounded and regular files only, like a diagram: a device or a FIFO would never end.
    let rec = Recording::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let root =
        rec.program.files.first().ok_or_else(|| format!("{}: the recording names no program file", path.display()))?;
    // The program as recorded: the file on disk, or a wiring embedded in this binary.
    let mut project = match program.map(Path::to_path_buf).or_else(|| rec.program_path(path)) {
        Some(file) => crate::source::project(Some(&file), None)?,
        None => crate::source::project(None, Some(&root.path)).map_err(|_| {
            format!(
                "{}: the recorded program {} is not here (nor at {}); give it with --program FILE",
                path.display(),
                root.path,
                root.abs.as_deref().unwrap_or("its recorded place")
            )
        })?,
    };
    // A check of nothing is no check (it said "0 state hashes match" and succeeded).
    if check && rec.checked_hashes() == 0 {
        return Err(format!(
            "{}: --check: the recording holds no state hash to compare (no end hash either); replay it without --check",
            path.display()
        ));
    }
    if let Some(why) = rec.program_differs(&project) {
        return Err(format!("{}: {why}; the replay would not be the recorded run", path.display()));
    }
    rec.apply_cycle(&mut project);
    let plan = compile_project(&project, &CompileOptions::default()).map_err(|e| e.to_string())?;
    if plan.cycle_us != rec.cycle_us {
        return Err(format!(
            "{}: the program's cycle is {} us, the recording's {} us",
            path.display(),
            plan.cycle_us,
            rec.cycle_us
        ));
    }
    let mut rt = Runtime::with_seed(plan, rec.seed);
    let t = std::time::Instant::now();
    // A legal recording may hold 2^32 scans.
    let bar = crate::out::scan_bar("replaying", rec.scans);
    let d = rt.replay_observed(&rec, check, |at| bar.set_position(at));
    bar.finish_and_clear();
    let d = d.map_err(|e| format!("{}: {e}", path.display()))?;
    let secs = t.elapsed().as_secs_f64();
    match d {
        None => {
            let checked = if check { format!(", {} state hashes match", rec.checked_hashes()) } else { String::new() };
            let report = format!(
                "replayed {} scans and {} events of {} in {:.3} s{checked}\n",
                rec.scans,
                rec.events.len(),
                rec.program.name,
                secs
            );
            out::print(&report).map_err(|e| e.to_string())
        }
        Some(d) => {
            // The state is hashed every `hash_every` scans: what changed, changed after the last
            // check that matched.
            let matched = rec.hashes.iter().map(|(scan, _)| *scan).filter(|&s| s < d.scan).max().unwrap_or(0);
            out::error(&format!(
                "{}: the replay differs from the recording at the state check after scan {}; the check after \
                 scan {matched} matched, so the difference arose in scans {}..={} (state hash {} recorded, {} now)",
                path.display(),
                d.scan,
                matched + 1,
                d.scan,
                d.expected,
                d.got
            ));
            Ok(ExitCode::FAILURE)
        }
    }
}
