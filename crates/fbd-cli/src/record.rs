//! Recordings on the command line: `--record FILE` on `run` and `play`, and `fbd replay`.

use std::path::Path;
use std::process::ExitCode;

use fbd_engine::load::Project;
use fbd_engine::runtime::ProgramId;
use fbd_engine::{CompileOptions, Recording, Runtime, compile_project};

use crate::out;

/// Refuses, before anything runs, a recording that could not be written at the end (a game
/// played for an hour in the terminal was lost when the directory did not exist).
pub(crate) fn check_destination(path: &Path) -> Result<(), String> {
    fbd_engine::load::check_writable(path).map_err(|e| format!("{}: cannot write the recording: {e}", path.display()))
}

/// Stops `rt`'s recording and writes it to `path`.
pub(crate) fn finish(rt: &mut Runtime, project: &Project, path: &Path) -> Result<(), String> {
    crate::guard::not_an_input(path, "--record", &crate::guard::project_inputs(project))?;
    let mut rec = rt.stop_recording(ProgramId::of(project)).ok_or("the run was not being recorded")?;
    rec.place_files_for(path);
    fbd_engine::load::write_with(path, |w| rec.write_json(w))
        .map_err(|e| format!("{}: cannot write the recording: {e}", path.display()))?;
    eprintln!(
        "recorded {} scans, {} events, {} state hashes to {}",
        rec.scans,
        rec.events.len(),
        rec.checked_hashes(),
        path.display()
    );
    Ok(())
}

/// `fbd replay REC [--check]`.
pub(crate) fn replay_cmd(path: &Path, check: bool, program: Option<&Path>) -> ExitCode {
    match replay(path, check, program) {
        Ok(code) => code,
        Err(e) => {
            out::error(&e);
            ExitCode::FAILURE
        }
    }
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
            Ok(out::print(&report))
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
