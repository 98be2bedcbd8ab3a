//! Why a command failed: returned by every command, printed once by `main` (exit status 1).

use std::path::PathBuf;

/// A command's failure. A command whose report already says it failed (a test that fails, a
/// replay that differs) returns `Ok(ExitCode::FAILURE)` instead.
#[derive(Debug)]
pub(crate) enum Error {
    /// A message, printed as `error: …` (a rendered diagnostic keeps its own prefix).
    Message(String),
    /// A diagram's diagnostics, printed with their count for the file given.
    Rejected(PathBuf, fbd_engine::Diagnostics),
}

impl Error {
    /// Prints the error on standard error.
    pub(crate) fn print(&self) {
        match self {
            Error::Message(m) => crate::out::error(m),
            Error::Rejected(file, e) => {
                eprintln!("{e}");
                let n = e.0.len();
                eprintln!("{}: {n} error{} found", file.display(), if n == 1 { "" } else { "s" });
            }
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Message(m) => f.write_str(m),
            Error::Rejected(_, e) => write!(f, "{e}"),
        }
    }
}

impl From<String> for Error {
    fn from(m: String) -> Error {
        Error::Message(m)
    }
}

impl From<&str> for Error {
    fn from(m: &str) -> Error {
        Error::Message(m.to_string())
    }
}

impl From<fbd_engine::Diagnostics> for Error {
    fn from(e: fbd_engine::Diagnostics) -> Error {
        Error::Message(e.to_string())
    }
}
