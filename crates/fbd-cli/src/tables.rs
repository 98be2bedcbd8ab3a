//! `fbd test`: test tables found under the given paths, run in parallel, reported as text (or
//! JSON) and optionally as JUnit XML.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use fbd_test::{Outcome, TestResult};

use crate::out;

pub(crate) fn test_cmd(
    paths: &[PathBuf],
    junit: Option<&Path>,
    json: bool,
    coverage: bool,
    svg_dir: Option<&Path>,
) -> ExitCode {
    let paths = if paths.is_empty() { vec![PathBuf::from(".")] } else { paths.to_vec() };
    let files = match fbd_test::test_files(&paths) {
        Ok(f) => f,
        Err(e) => {
            out::error(&e);
            return ExitCode::FAILURE;
        }
    };
    if files.is_empty() {
        out::error(&format!(
            "no test tables (`*.test.json`) under {}",
            paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        ));
        return ExitCode::FAILURE;
    }
    // The report is never written over a table, before anything runs.
    let tables: Vec<(&Path, &str)> = files.iter().map(|f| (f.as_path(), "a test table")).collect();
    if let Some(Err(e)) = junit.map(|j| crate::guard::not_an_input(j, "--junit", &tables)) {
        out::error(&e);
        return ExitCode::FAILURE;
    }
    let (runs, errors, programs) = run_all(&files, svg_dir.is_some());
    // ... nor over a program under test or a library it includes.
    let programs: Vec<(&Path, &str)> =
        programs.iter().map(|p| (p.as_path(), "a program under test or its library")).collect();
    if let Some(Err(e)) = junit.map(|j| crate::guard::not_an_input(j, "--junit", &programs)) {
        out::error(&e);
        return ExitCode::FAILURE;
    }
    let results: Vec<TestResult> = runs.iter().flat_map(|(r, ..)| r.iter().cloned()).collect();
    if json {
        out::print(&to_json(&results, &errors));
    } else {
        out::print(&fbd_test::text(&results, &errors));
        if coverage {
            out::print(&coverage_text(&runs));
        }
    }
    if let Some(j) = junit
        && let Err(e) = fbd_engine::load::write_text(j, &fbd_test::junit(&results, &errors))
    {
        out::error(&format!("{}: cannot write: {e}", j.display()));
        return ExitCode::FAILURE;
    }
    if let Some(dir) = svg_dir
        && let Err(e) = write_drawings(dir, &runs)
    {
        out::error(&e);
        return ExitCode::FAILURE;
    }
    if errors.is_empty() && results.iter().all(|r| r.outcome == Outcome::Passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `fbd test-from-recording`: the table of a recording, written next to nothing it would
/// replace, then run (it passes on the program as recorded).
pub(crate) fn from_recording_cmd(rec_path: &Path, output: &Path, program: Option<&Path>) -> ExitCode {
    match from_recording(rec_path, output, program) {
        Ok(()) => test_cmd(&[output.to_path_buf()], None, false, false, None),
        Err(e) => {
            out::error(&e);
            ExitCode::FAILURE
        }
    }
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

/// One file's run: its results, the coverage (and its drawing), and the file.
type Run = (Vec<TestResult>, Vec<fbd_test::Scope>, PathBuf, Option<Result<String, String>>);

/// Every file's tests, the files spread over the machine's cores; the results in file order,
/// the errors, and the files of the programs under test (and their libraries).
fn run_all(files: &[PathBuf], draw: bool) -> (Vec<Run>, Vec<String>, Vec<PathBuf>) {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Each file's run and the files of its program, or why it did not load.
    type Slot = Option<Result<(Run, Vec<PathBuf>), String>>;
    let mut slots: Vec<Slot> = Vec::new();
    slots.resize_with(files.len(), || None);
    let slots = std::sync::Mutex::new(slots);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(f) = files.get(k) else { break };
                    let r = fbd_test::load(f).map(|l| {
                        for w in &l.warnings {
                            eprintln!("warning: {}: {w}", f.display());
                        }
                        let (results, coverage) = fbd_test::run_table(&l);
                        let svg = draw.then(|| fbd_test::coverage_svg(&l, &coverage));
                        let program: Vec<PathBuf> = l.project.files.iter().map(|f| f.path.clone()).collect();
                        ((results, coverage.scopes(&l.plan), f.clone(), svg), program)
                    });
                    slots.lock().expect("no worker panics holding it")[k] = Some(r);
                }
            });
        }
    });
    let mut runs = Vec::new();
    let mut errors = Vec::new();
    let mut programs = Vec::new();
    for r in slots.into_inner().expect("workers done").into_iter().flatten() {
        match r {
            Ok((run, program)) => {
                runs.push(run);
                programs.extend(program);
            }
            Err(e) => errors.push(e),
        }
    }
    (runs, errors, programs)
}

/// Each table file's coverage drawing into `dir`, named after the file (`blinker.svg` for
/// `blinker.test.json`).
fn write_drawings(dir: &Path, runs: &[Run]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    for (_, _, file, svg) in runs {
        let Some(svg) = svg else { continue };
        let svg = svg.as_ref().map_err(|e| format!("{}: {e}", file.display()))?;
        let stem = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().trim_end_matches(".test.json").to_string());
        let out = dir.join(format!("{stem}.svg"));
        fbd_engine::load::write_text(&out, svg).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
        eprintln!("{}: coverage of {}", out.display(), file.display());
    }
    Ok(())
}

/// Coverage per table file: each scope's percentage and the first goals it missed.
fn coverage_text(runs: &[Run]) -> String {
    use std::fmt::Write as _;
    let mut s = String::from("\ncoverage (each BOOL output TRUE and FALSE, SEL's g both ways, every MUX input):\n");
    for (_, scopes, file, _) in runs {
        let _ = writeln!(s, "  {}", file.display());
        for sc in scopes {
            let _ = writeln!(s, "    {:<24} {:>5.1} % ({}/{})", sc.name, sc.percent(), sc.met, sc.total);
            for m in sc.missed.iter().take(8) {
                let _ = writeln!(s, "      not seen: {m}");
            }
            if sc.missed.len() > 8 {
                let _ = writeln!(s, "      ... and {} more", sc.missed.len() - 8);
            }
        }
    }
    s
}

fn to_json(results: &[TestResult], errors: &[String]) -> String {
    let tests: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            let failures: Vec<serde_json::Value> = match &r.outcome {
                Outcome::Passed => Vec::new(),
                Outcome::Failed(fs) => fs
                    .iter()
                    .map(|f| {
                        serde_json::json!({
                            "row": f.row,
                            "line": f.place.map(|p| p.0),
                            "column": f.place.map(|p| p.1),
                            "scan": f.scan,
                            "message": f.message,
                            "trace": f.trace,
                        })
                    })
                    .collect(),
            };
            serde_json::json!({
                "file": r.file.display().to_string(),
                "name": r.name,
                "passed": r.outcome == Outcome::Passed,
                "scans": r.scans,
                "seconds": r.elapsed.as_secs_f64(),
                "failures": failures,
            })
        })
        .collect();
    let doc = serde_json::json!({ "tests": tests, "errors": errors });
    serde_json::to_string_pretty(&doc).expect("JSON") + "\n"
}
