//! `fbd test`: test tables found under the given paths, run in parallel, reported as text (or
//! JSON) and optionally as JUnit XML.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use fbd_test::{Outcome, TestResult};

use crate::error::Error;
use crate::out;

/// Arguments of `fbd test`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Table files, or directories searched for `*.test.json`.
    pub(crate) paths: Vec<PathBuf>,
    /// Also write a JUnit XML report here (for CI systems).
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
    /// Print the results as JSON instead of text.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also print what the tests covered: per program and macro, the share of goals met
    /// (each BOOL output TRUE and FALSE, SEL's g both ways, every MUX input) and those missed.
    #[arg(long)]
    pub(crate) coverage: bool,
    /// Write each table file's coverage drawing into this directory: the body it tests,
    /// every block with a goal not met outlined in red (its title says which).
    #[arg(long, value_name = "DIR")]
    pub(crate) coverage_svg: Option<PathBuf>,
}

/// Runs `fbd test`: exit status 1 when a test fails (the report says which).
pub(crate) fn run(a: Args) -> Result<ExitCode, Error> {
    let Args { paths, junit, json, coverage, coverage_svg } = a;
    let (junit, svg_dir) = (junit.as_deref(), coverage_svg.as_deref());
    let paths = if paths.is_empty() { vec![PathBuf::from(".")] } else { paths };
    let files = fbd_test::test_files(&paths)?;
    if files.is_empty() {
        return Err(format!(
            "no test tables (`*.test.json`) under {}",
            paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        )
        .into());
    }
    // The report is never written over a table, before anything runs.
    let tables: Vec<(&Path, &str)> = files.iter().map(|f| (f.as_path(), "a test table")).collect();
    if let Some(j) = junit {
        crate::guard::not_an_input(j, "--junit", &tables)?;
    }
    let (runs, errors, programs) = run_all(&files, svg_dir.is_some());
    // ... nor over a program under test or a library it includes.
    let programs: Vec<(&Path, &str)> =
        programs.iter().map(|p| (p.as_path(), "a program under test or its library")).collect();
    if let Some(j) = junit {
        crate::guard::not_an_input(j, "--junit", &programs)?;
    }
    let results: Vec<TestResult> = runs.iter().flat_map(|(r, ..)| r.iter().cloned()).collect();
    if json {
        out::print(&to_json(&results, &errors))?;
    } else {
        out::print(&fbd_test::text(&results, &errors))?;
        if coverage {
            out::print(&coverage_text(&runs))?;
        }
    }
    if let Some(j) = junit {
        fbd_engine::load::write_text(j, &fbd_test::junit(&results, &errors))
            .map_err(|e| format!("{}: cannot write: {e}", j.display()))?;
    }
    if let Some(dir) = svg_dir {
        write_drawings(dir, &runs)?;
    }
    Ok(if errors.is_empty() && results.iter().all(|r| r.outcome == Outcome::Passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
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
