//! What the `fbd` end-to-end tests share: running the binary and a scratch directory per test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn fbd(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fbd")).args(args).current_dir(root()).output().expect("fbd runs")
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

thread_local! {
    /// The running test's scratch directory: libtest runs each test on its own thread, so it is
    /// removed, with its files, when the test ends (pass or fail).
    pub static SCRATCH: tempfile::TempDir =
        tempfile::Builder::new().prefix("fbd-cli-").tempdir().expect("temp dir");
}

/// A file `name` with `content` in the running test's scratch directory.
pub fn temp(name: &str, content: &str) -> PathBuf {
    let p = SCRATCH.with(|d| d.path().join(name));
    std::fs::write(&p, content).expect("write");
    p
}

/// An ST program whose WHILE (line 2, column 1) never ends once `count` passes `after`: the
/// watchdog's tests.
pub fn endless_while(after: u32) -> String {
    format!(
        r#"{{"fbd": 6, "name": "endless",
  "variables": [{{"name": "c", "type": "DINT"}}, {{"name": "x", "type": "DINT"}}],
  "outputs": [{{"name": "count", "type": "DINT", "from": "c"}}],
  "st": ["c := c + 1;",
         "WHILE c > {after} DO x := x + 1; END_WHILE;"]}}"#
    )
}
