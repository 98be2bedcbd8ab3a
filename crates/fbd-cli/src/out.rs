//! Writing to standard output the way Unix tools do: a reader that goes away early
//! (`fbd blocks | head -1`) ends the program quietly and successfully; any other write error is
//! an error.

use std::io::{ErrorKind, Write};
use std::path::Path;
use std::process::ExitCode;

use crate::error::Error;

/// Writes `text` to standard output and returns the exit code the command should end with.
pub fn print(text: &str) -> Result<ExitCode, Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(format!("cannot write to standard output: {e}").into()),
    }
}

/// Writes `text` to the file `output` (saying so on standard error), or to standard output.
pub(crate) fn write_or_print(output: Option<&Path>, text: &str) -> Result<ExitCode, Error> {
    let Some(p) = output else { return print(text) };
    fbd_engine::load::write_text(p, text).map_err(|e| format!("{}: cannot write: {e}", p.display()))?;
    eprintln!("wrote {}", p.display());
    Ok(ExitCode::SUCCESS)
}

/// For the commands that print as they go with `println!`: a closed pipe makes `println!`
/// panic; end quietly instead of printing a panic message and exiting with 101.
pub fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// Prints an error message on standard error with one `error: ` prefix (diagnostics rendered
/// by the engine already carry theirs).
pub fn error(e: &str) {
    if e.starts_with("error: ") {
        eprintln!("{e}");
    } else {
        eprintln!("error: {e}");
    }
}

/// A progress bar over `scans` scans, saying `doing` (`running`, `replaying`): drawn on a
/// terminal for a million scans or more, hidden otherwise.
pub(crate) fn scan_bar(doing: &str, scans: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(scans);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{spinner}} {doing} [{{bar:30}}] {{pos}}/{{len}} scans ({{elapsed}}, {{eta}} left)"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    if scans < 1 << 20 {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar
}
