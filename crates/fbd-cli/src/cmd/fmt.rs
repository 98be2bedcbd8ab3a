//! `fbd fmt`: diagram files rewritten in the canonical form the editor saves (`--check`: listed).

use std::path::PathBuf;
use std::process::ExitCode;

use fbd_engine::load;

use crate::error::Error;
use crate::out;

/// Arguments of `fbd fmt`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Diagram files (JSON); includes are not followed.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Change nothing; fail if a file is not in canonical form.
    #[arg(long)]
    check: bool,
}

/// Runs `fbd fmt`: each file's error is said and the others go on (exit status 1 at the end).
pub(crate) fn run(Args { files, check }: Args) -> Result<ExitCode, Error> {
    let mut failed = false;
    let mut report = String::new();
    for f in &files {
        // A PLCopen file is another tool's format, not one fmt writes (it said "a diagram is a
        // JSON object, but the file starts with `<`").
        if f.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) {
            out::error(&format!(
                "{}: `fbd fmt` rewrites diagram files; a PLCopen XML file is left as it is (`fbd import` it to get one)",
                f.display()
            ));
            failed = true;
            continue;
        }
        let text = match load::read_text(f) {
            Ok(t) => t,
            Err(e) => {
                out::error(&e.to_string());
                failed = true;
                continue;
            }
        };
        let doc = match load::parse_document(f, &text) {
            Ok(d) => d,
            Err(e) => {
                out::error(&e.to_string());
                failed = true;
                continue;
            }
        };
        let canonical = fbd_edit::format::to_text(&doc);
        if canonical == text {
            continue;
        }
        if check {
            report.push_str(&format!("{}: not in canonical form (run `fbd fmt` on it)\n", f.display()));
            failed = true;
        } else if let Err(e) = load::write_text(f, &canonical) {
            out::error(&format!("{}: cannot write: {e}", f.display()));
            failed = true;
        } else {
            report.push_str(&format!("formatted {}\n", f.display()));
        }
    }
    let code = out::print(&report)?;
    Ok(if failed { ExitCode::FAILURE } else { code })
}
