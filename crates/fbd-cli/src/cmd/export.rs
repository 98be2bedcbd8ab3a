//! `fbd export`: a diagram (with its libraries) as PLCopen TC6 XML v2.01; a PLCopen file
//! (CODESYS's v2.00, matiec's v1.0) written back as v2.01, with its bodies laid out where the
//! file has no drawing.

use std::path::PathBuf;
use std::process::ExitCode;

use fbd_engine::{CompileOptions, compile_project};

use crate::error::Error;

/// Arguments of `fbd export`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The diagram (JSON), or a PLCopen XML file (`.xml`).
    file: PathBuf,
    /// Write the XML here (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs `fbd export`.
pub(crate) fn run(Args { file, output }: Args) -> Result<ExitCode, Error> {
    let project = crate::source::load_file(&file)?;
    if let Some(o) = &output {
        crate::guard::not_an_input(o, "-o", &crate::guard::project_inputs(&project))?;
    }
    let plan = compile_project(&project, &CompileOptions::default())?;
    if let Some(why) = fbd_plcopen::not_exportable(&project) {
        return Err(format!("{}: {why}", file.display()).into());
    }
    crate::out::write_or_print(output.as_deref(), &fbd_plcopen::export(&project, &plan))
}
