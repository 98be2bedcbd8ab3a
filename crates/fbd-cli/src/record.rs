//! Recordings on the command line: `--record FILE` of `run`, `play`, `autoplay` and `tui`
//! (`fbd replay` is a command of its own).

use std::path::Path;

use fbd_engine::Runtime;
use fbd_engine::load::Project;
use fbd_engine::runtime::ProgramId;

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
