//! `fbd tui`: 2048 through an FBD program in the terminal, or any other program as a panel of
//! its inputs and outputs.

use std::path::PathBuf;
use std::process::ExitCode;

use fbd_engine::{CompileOptions, compile_project};

use crate::error::Error;

/// Arguments of `fbd tui`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// A diagram (default: the embedded diagrams/2048.json); one without the 2048 interface
    /// gets the panel.
    file: Option<PathBuf>,
    /// An embedded wiring instead of a file: upd1, original, smart-spawn.
    #[arg(long, conflicts_with = "file")]
    wiring: Option<String>,
    /// Runtime seed (RANDOM blocks and the players).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Record the session for `fbd replay`.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// Runs `fbd tui`.
pub(crate) fn run(Args { file, wiring, seed, record }: Args) -> Result<ExitCode, Error> {
    let (file, wiring, record) = (file.as_deref(), wiring.as_deref(), record.as_deref());
    if let Some(r) = record {
        crate::record::check_destination(r)?;
    }
    let (project, warnings) = crate::source::project_quiet(file, wiring)?;
    if let Some(r) = record {
        crate::guard::not_an_input(r, "--record", &crate::guard::project_inputs(&project))?;
    }
    // Said on the status line while the game runs and printed once the terminal is back, on
    // every way out: printed before, the switch to the game's screen hid them at once.
    // The file as given: an imported XML file's project is named `.json`.
    let name = file.map_or_else(|| project.files[0].path.display().to_string(), |f| f.display().to_string());
    let code = tui_project(project, &name, &warnings, file.is_some() || wiring.is_some(), seed, record);
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    code
}

/// The status line's word on an import's warnings (empty when there are none).
fn warnings_notice(n: usize) -> Option<String> {
    match n {
        0 => None,
        1 => Some("1 import warning, printed when you quit".into()),
        n => Some(format!("{n} import warnings, printed when you quit")),
    }
}

fn tui_project(
    project: fbd_engine::load::Project,
    name: &str,
    warnings: &[String],
    chosen: bool,
    seed: u64,
    record: Option<&std::path::Path>,
) -> Result<ExitCode, Error> {
    let plan = compile_project(&project, &CompileOptions::default())?;
    // The same best-score records as the window: per program, by content hash.
    let mut best = fbd2048_game::best::Best::new(fbd2048_game::best::BestStore::default_location());
    let default = !chosen;
    let program_name = project.root().name.clone().unwrap_or_default();
    let (_, warning) = best.attach(project.files.iter().map(|f| f.text.as_str()), &program_name, default);
    if let Some(w) = warning {
        crate::out::error(&w);
    }
    let notice = warnings_notice(warnings.len());
    // A program without the 2048 interface gets the panel of its inputs and outputs.
    let ran = if fbd2048_game::front::GameIo::find(&plan).is_some() {
        fbd_tui::run(plan, name, seed, record.is_some(), &mut best, notice.as_deref())
    } else {
        let description = project.root().description.as_deref();
        fbd_tui::panel::run_panel(plan, name, description, seed, record.is_some(), notice.as_deref())
    };
    let mut rt = ran.map_err(|e| e.to_string())?;
    if let Some(path) = record {
        crate::record::finish(&mut rt, &project, path)?;
    }
    Ok(ExitCode::SUCCESS)
}
