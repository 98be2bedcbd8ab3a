//! `fbd schema`: the JSON Schema of the diagram format, or of test tables.

use std::process::ExitCode;

use crate::error::Error;

/// Arguments of `fbd schema`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The schema of test tables (`*.test.json`) instead.
    #[arg(long)]
    tests: bool,
}

/// Runs `fbd schema`.
pub(crate) fn run(Args { tests }: Args) -> Result<ExitCode, Error> {
    crate::out::print(&if tests { fbd_test::json_schema() } else { fbd_engine::model::json_schema() })
}
