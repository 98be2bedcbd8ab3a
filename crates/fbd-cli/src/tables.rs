//! `fbd test`: test tables found under the given paths, run in parallel, reported as text (or
//! JSON) and optionally as JUnit XML.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use fbd_test::{Outcome, TestResult};

use crate::out;

pub(crate) fn test_cmd(paths: &[PathBuf], junit: Option<&Path>, json: bool) -> ExitCode {
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
    let (results, errors) = run_all(&files);
    if json {
        out::print(&to_json(&results, &errors));
    } else {
        out::print(&fbd_test::text(&results, &errors));
    }
    if let Some(j) = junit
        && let Err(e) = fbd_engine::load::write_text(j, &fbd_test::junit(&results, &errors))
    {
        out::error(&format!("{}: cannot write: {e}", j.display()));
        return ExitCode::FAILURE;
    }
    if errors.is_empty() && results.iter().all(|r| r.outcome == Outcome::Passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Every file's tests, the files spread over the machine's cores; the results in file order.
fn run_all(files: &[PathBuf]) -> (Vec<TestResult>, Vec<String>) {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut slots: Vec<Option<Result<Vec<TestResult>, String>>> = Vec::new();
    slots.resize_with(files.len(), || None);
    let slots = std::sync::Mutex::new(slots);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(f) = files.get(k) else { break };
                    let r = fbd_test::run_file(f);
                    slots.lock().expect("no worker panics holding it")[k] = Some(r);
                }
            });
        }
    });
    let mut results = Vec::new();
    let mut errors = Vec::new();
    for r in slots.into_inner().expect("workers done").into_iter().flatten() {
        match r {
            Ok(mut rs) => results.append(&mut rs),
            Err(e) => errors.push(e),
        }
    }
    (results, errors)
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
