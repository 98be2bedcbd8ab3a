//! `fbd import`: a PLCopen TC6 XML project (CODESYS, OpenPLC Editor, Beremiz `plc.xml`) as a
//! diagram, written only when it compiles.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::error::Error;

/// Arguments of `fbd import`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The PLCopen XML file.
    file: PathBuf,
    /// Write the diagram here (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs `fbd import`.
pub(crate) fn run(Args { file, output }: Args) -> Result<ExitCode, Error> {
    if let Some(o) = &output {
        crate::guard::not_an_input(o, "-o", &[(&file, "the XML file imported")])?;
    }
    let text = fbd_engine::load::read_text(&file).map_err(|e| e.to_string())?;
    let imported = fbd_plcopen::import(&file, &text).map_err(|e| e.to_string())?;
    for w in &imported.warnings {
        eprintln!("warning: {w}");
    }
    let text = fbd_edit::format::to_text(&imported.doc);
    // A diagram that does not compile is no import: nothing is written.
    if let Err(e) = fbd_plcopen::imported_project(&imported, &file) {
        // An ST body's meaning (a name, a type, a second call) is the compiler's to judge: its
        // errors are the program's, each at its place in the file. Any other is the import's.
        let st_only = e.0.iter().all(|d| d.message.contains("ST ") && d.line.is_some());
        let why = if st_only {
            "its Structured Text does not compile, so nothing was written"
        } else {
            "the program imported from it does not compile, so nothing was written (the import let through what it should have refused; please report it)"
        };
        return Err(format!("{}: {why}:\n{e}", file.display()).into());
    }
    crate::out::write_or_print(output.as_deref(), &text)
}
