//! Reports of a run: the text a person reads and JUnit XML for CI systems.

use std::fmt::Write as _;

use fbd_engine::xml::esc;

use crate::run::{Failure, Outcome, TestResult};

/// A failure as the text report and JUnit's failure element show it: the place, the row, the
/// scan, what was expected, and the row's last scans.
fn failure_text(file: &str, f: &Failure) -> String {
    let at = f.place.map_or(String::new(), |(l, c)| format!("{file}:{l}:{c}: "));
    let mut s = format!("{at}row {}, scan {}: {}", f.row, f.scan, f.message);
    if let Some(n) = &f.note {
        let _ = write!(s, "\n    row: {n}");
    }
    for t in &f.trace {
        let _ = write!(s, "\n    {t}");
    }
    s
}

/// The text report: a line per test (`ok` or `FAILED`), each failure under its test, and a
/// summary; load errors (`errors`: file and message) first.
pub fn text(results: &[TestResult], errors: &[String]) -> String {
    let mut s = String::new();
    for e in errors {
        let _ = writeln!(s, "error: {e}");
    }
    for r in results {
        let file = r.file.display().to_string();
        match &r.outcome {
            Outcome::Passed => {
                let _ = writeln!(s, "ok      {file}: {} ({} scans)", r.name, r.scans);
            }
            Outcome::Failed(fs) => {
                let _ = writeln!(s, "FAILED  {file}: {}", r.name);
                for f in fs {
                    let _ = writeln!(s, "  {}", failure_text(&file, f).replace('\n', "\n  "));
                }
            }
        }
    }
    let failed = results.iter().filter(|r| r.outcome != Outcome::Passed).count();
    let _ = writeln!(
        s,
        "\n{} tests: {} passed, {failed} failed{}",
        results.len(),
        results.len() - failed,
        if errors.is_empty() { String::new() } else { format!(", {} files not run", errors.len()) }
    );
    s
}

/// JUnit XML: a `testsuite` per table file (a file that did not load is a suite with one
/// errored case), a `testcase` per test with its `failure`.
pub fn junit(results: &[TestResult], errors: &[String]) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failures = results.iter().filter(|r| r.outcome != Outcome::Passed).count();
    let time: f64 = results.iter().map(|r| r.elapsed.as_secs_f64()).sum();
    let _ = writeln!(
        s,
        "<testsuites name=\"fbd test\" tests=\"{}\" failures=\"{failures}\" errors=\"{}\" time=\"{time:.6}\">",
        results.len() + errors.len(),
        errors.len()
    );
    let mut files: Vec<&std::path::Path> = results.iter().map(|r| r.file.as_path()).collect();
    files.dedup();
    for file in files {
        let mine: Vec<&TestResult> = results.iter().filter(|r| r.file == file).collect();
        let name = esc(&file.display().to_string());
        let failed = mine.iter().filter(|r| r.outcome != Outcome::Passed).count();
        let time: f64 = mine.iter().map(|r| r.elapsed.as_secs_f64()).sum();
        let _ = writeln!(
            s,
            "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{failed}\" errors=\"0\" time=\"{time:.6}\">",
            mine.len()
        );
        for r in mine {
            let _ = write!(
                s,
                "    <testcase name=\"{}\" classname=\"{name}\" time=\"{:.6}\"",
                esc(&r.name),
                r.elapsed.as_secs_f64()
            );
            match &r.outcome {
                Outcome::Passed => s.push_str("/>\n"),
                Outcome::Failed(fs) => {
                    s.push_str(">\n");
                    let text: Vec<String> = fs.iter().map(|f| failure_text(&file.display().to_string(), f)).collect();
                    let _ = writeln!(
                        s,
                        "      <failure message=\"{}\" type=\"expectation\">{}</failure>",
                        esc(&fs[0].message),
                        esc(&text.join("\n"))
                    );
                    s.push_str("    </testcase>\n");
                }
            }
        }
        s.push_str("  </testsuite>\n");
    }
    for e in errors {
        let (file, _) = e.split_once(": ").unwrap_or((e.as_str(), ""));
        let _ = writeln!(
            s,
            "  <testsuite name=\"{0}\" tests=\"1\" failures=\"0\" errors=\"1\">\n    <testcase name=\"load\" classname=\"{0}\">\n      <error message=\"the table file does not load\">{1}</error>\n    </testcase>\n  </testsuite>",
            esc(file),
            esc(e)
        );
    }
    s.push_str("</testsuites>\n");
    s
}
