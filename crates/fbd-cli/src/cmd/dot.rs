//! `fbd dot`: a Graphviz DOT drawing of the program or one macro.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::error::Error;

/// Arguments of `fbd dot`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The diagram (JSON), or a PLCopen XML file (`.xml`).
    file: PathBuf,
    /// Draw this macro's body instead of the program.
    #[arg(long = "macro")]
    macro_name: Option<String>,
}

/// Runs `fbd dot`.
pub(crate) fn run(Args { file, macro_name }: Args) -> Result<ExitCode, Error> {
    let project = crate::source::load_file(&file)?;
    let text = fbd_engine::dot::to_dot(&project, macro_name.as_deref()).map_err(|e| e.to_string())?;
    crate::out::print(&text)
}
