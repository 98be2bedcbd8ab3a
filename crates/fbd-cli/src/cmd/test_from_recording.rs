//! `fbd test-from-recording`: a test table made of a recording, a row per stretch between two
//! stimuli, each expecting the outputs as the replay shows them.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::error::Error;

/// Arguments of `fbd test-from-recording`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The recording (`fbd run --record`, the HMI's File → Record).
    recording: PathBuf,
    /// The table file to write (`*.test.json`; an existing file is not replaced).
    #[arg(short, long)]
    output: PathBuf,
    /// The recorded program, when it is not where the recording says.
    #[arg(long)]
    program: Option<PathBuf>,
}

/// Runs `fbd test-from-recording`: the table of a recording, written next to nothing it would
/// replace, then run (it passes on the program as recorded).
pub(crate) fn run(Args { recording, output, program }: Args) -> Result<ExitCode, Error> {
    from_recording(&recording, &output, program.as_deref())?;
    super::test::run(super::test::Args {
        paths: vec![output],
        junit: None,
        json: false,
        coverage: false,
        coverage_svg: None,
    })
}

fn from_recording(rec_path: &Path, output: &Path, program: Option<&Path>) -> Result<(), String> {
    if output.exists() {
        return Err(format!("{}: exists; the table is not written over a file (give another -o)", output.display()));
    }
    let rec = fbd_engine::Recording::read(rec_path).map_err(|e| format!("{}: {e}", rec_path.display()))?;
    let file = match program.map(Path::to_path_buf).or_else(|| rec.program_path(rec_path)) {
        Some(f) => f,
        None => embedded_beside(&rec, rec_path, output)?,
    };
    let project = crate::source::load_file(&file).map_err(|e| e.to_string())?;
    if let Some(d) = rec.program_differs(&project) {
        return Err(format!("{}: {d}; the table would test another program", rec_path.display()));
    }
    let plan = fbd_engine::compile_project_owned(project, &fbd_engine::CompileOptions::default())
        .map_err(|e| e.to_string())?;
    // A table runs the program at its own cycle: a run at another (`fbd serve --cycle`) would
    // not be the one recorded.
    if plan.cycle_us != rec.cycle_us {
        return Err(format!(
            "{}: recorded at a cycle of {} ms, and the program's is {} ms: a table runs the program at its own cycle (record it without --cycle, or set cycle_ms in the program)",
            rec_path.display(),
            rec.cycle_us as f64 / 1000.0,
            plan.cycle_us as f64 / 1000.0
        ));
    }
    // The program as the table's directory reaches it.
    let dir = output.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let program_ref = relative(&file, dir);
    let name =
        format!("as recorded in {}", rec_path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()));
    let table = fbd_test::table_from_recording(&rec, plan, &program_ref, &name);
    let text = serde_json::to_string_pretty(&table).expect("JSON") + "\n";
    fbd_engine::load::write_text(output, &text).map_err(|e| format!("{}: cannot write: {e}", output.display()))?;
    eprintln!(
        "{}: {} rows from {} scans",
        output.display(),
        table["tests"][0]["steps"].as_array().map_or(0, Vec::len),
        rec.scans
    );
    Ok(())
}

/// A recording of a program embedded in this binary (the 2048 wirings, which `fbd replay`
/// plays): its files written beside the table, so the table has a program to name and runs
/// where it is; a file there already is used if it is the same, else refused.
fn embedded_beside(rec: &fbd_engine::Recording, rec_path: &Path, output: &Path) -> Result<PathBuf, String> {
    let not_here = || format!("{}: the recorded program is not here; give its file with --program", rec_path.display());
    let root = rec.program.files.first().ok_or_else(not_here)?;
    let project = crate::source::project(None, Some(&root.path)).map_err(|_| not_here())?;
    let dir = output.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let base = project.files[0].path.parent().unwrap_or(Path::new("")).to_path_buf();
    let targets: Vec<(PathBuf, &str)> = project
        .files
        .iter()
        .map(|f| (dir.join(f.path.strip_prefix(&base).unwrap_or(&f.path)), f.text.as_str()))
        .collect();
    for (target, text) in &targets {
        if let Ok(there) = std::fs::read_to_string(target)
            && there != *text
        {
            return Err(format!(
                "{}: exists with other content; the table's program (the embedded {}) would be written there: give another -o",
                target.display(),
                root.path
            ));
        }
    }
    for (target, text) in &targets {
        if !target.exists() {
            if let Some(d) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(d).map_err(|e| format!("{}: cannot create: {e}", d.display()))?;
            }
            fbd_engine::load::write_text(target, text)
                .map_err(|e| format!("{}: cannot write: {e}", target.display()))?;
            eprintln!("{}: the embedded program's file, for the table", target.display());
        }
    }
    Ok(targets[0].0.clone())
}

/// `file` as a path from `dir` (absolute when they share no root).
fn relative(file: &Path, dir: &Path) -> String {
    let (Ok(f), Ok(d)) = (std::fs::canonicalize(file), std::fs::canonicalize(dir)) else {
        return file.display().to_string();
    };
    let common = f.components().zip(d.components()).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return f.display().to_string();
    }
    let ups = d.components().count() - common;
    let mut p = std::path::PathBuf::new();
    for _ in 0..ups {
        p.push("..");
    }
    for c in f.components().skip(common) {
        p.push(c);
    }
    p.display().to_string()
}
