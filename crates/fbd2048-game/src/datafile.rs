//! The front ends' own files (best scores, the window's settings): where they live and how they are written.

use std::path::{Path, PathBuf};

/// `$FBD2048_DATA_DIR/<name>` if set, else `<data dir>/fbd2048/<name>` (`~/.local/share` on
/// Linux); `None` where the platform has no data directory.
pub fn default_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("FBD2048_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|d| d.join("fbd2048")))
        .map(|d| d.join(name))
}

/// Writes `text` to `path` (creating its directory) so that a crash or a full disk never leaves
/// half a file ([`fbd_engine::load::write_text`]); `what` names the file in the error ("the
/// best score").
pub fn write_atomic(path: &Path, text: &str, what: &str) -> Result<(), String> {
    let err = |e: std::io::Error| format!("{}: cannot save {what}: {e}", path.display());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    fbd_engine::load::write_text(path, text).map_err(err)
}
