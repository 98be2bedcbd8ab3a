//! `fbd blocks`: the block library, a line per block, or its full reference as Markdown
//! (docs/blocks.md).

use std::process::ExitCode;

use fbd_engine::library;

use crate::error::Error;

/// Arguments of `fbd blocks`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Print the full reference as Markdown.
    #[arg(long)]
    markdown: bool,
}

/// Runs `fbd blocks`.
pub(crate) fn run(Args { markdown }: Args) -> Result<ExitCode, Error> {
    if markdown {
        return crate::out::print(&library::markdown());
    }
    let lines: String = library::LIBRARY.iter().map(|d| format!("{:<12} {}\n", d.name, d.summary)).collect();
    crate::out::print(&lines)
}
