//! `fbd import` and `fbd export`: PLCopen TC6 XML to and from the diagram format.

use std::path::Path;
use std::process::ExitCode;

use fbd_engine::{CompileOptions, compile_project};

use crate::out;

fn write_or_print(output: Option<&Path>, text: &str) -> ExitCode {
    match output {
        Some(p) => match fbd_engine::load::write_text(p, text) {
            Ok(()) => {
                eprintln!("wrote {}", p.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                out::error(&format!("{}: cannot write: {e}", p.display()));
                ExitCode::FAILURE
            }
        },
        None => out::print(text),
    }
}

pub(crate) fn import_cmd(file: &Path, output: Option<&Path>) -> ExitCode {
    if let Some(Err(e)) = output.map(|o| crate::guard::not_an_input(o, "-o", &[(file, "the XML file imported")])) {
        out::error(&e);
        return ExitCode::FAILURE;
    }
    let text = match fbd_engine::load::read_text(file) {
        Ok(t) => t,
        Err(e) => {
            out::error(&e.to_string());
            return ExitCode::FAILURE;
        }
    };
    match fbd_plcopen::import(file, &text) {
        Ok(imported) => {
            for w in &imported.warnings {
                eprintln!("warning: {w}");
            }
            let text = fbd_edit::format::to_text(&imported.doc);
            // A diagram that does not compile is no import: nothing is written.
            if let Err(e) = fbd_plcopen::imported_project(&imported, file) {
                out::error(&format!(
                    "{}: the program imported from it does not compile, so nothing was written (the import let through what it should have refused; please report it):\n{e}",
                    file.display()
                ));
                return ExitCode::FAILURE;
            }
            write_or_print(output, &text)
        }
        Err(e) => {
            out::error(&e.to_string());
            ExitCode::FAILURE
        }
    }
}

/// A diagram, or a PLCopen XML file (CODESYS's v2.00, matiec's v1.0: written back as v2.01,
/// with its bodies laid out where the file has no drawing).
pub(crate) fn export_cmd(file: &Path, output: Option<&Path>) -> ExitCode {
    let project = match crate::source::load_file(file) {
        Ok(p) => p,
        Err(e) => {
            out::error(&e.to_string());
            return ExitCode::FAILURE;
        }
    };
    if let Some(Err(e)) = output.map(|o| crate::guard::not_an_input(o, "-o", &crate::guard::project_inputs(&project))) {
        out::error(&e);
        return ExitCode::FAILURE;
    }
    match compile_project(&project, &CompileOptions::default()) {
        Ok(plan) => write_or_print(output, &fbd_plcopen::export(&project, &plan)),
        Err(e) => {
            out::error(&e.to_string());
            ExitCode::FAILURE
        }
    }
}
