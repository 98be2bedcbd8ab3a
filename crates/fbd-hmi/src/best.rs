//! The best score, kept across runs in the platform data directory.
//!
//! Written atomically (a temporary file renamed over the old one); a file that cannot be read
//! is reported and replaced, never a reason to stop.

use std::path::PathBuf;

/// Where the best score lives.
#[derive(Clone, Debug)]
pub struct BestStore {
    path: Option<PathBuf>,
}

impl BestStore {
    /// `$FBD2048_DATA_DIR/best.json` if set, else `<data dir>/fbd2048/best.json`
    /// (`~/.local/share` on Linux).
    pub fn default_location() -> BestStore {
        let dir = std::env::var_os("FBD2048_DATA_DIR")
            .map(PathBuf::from)
            .or_else(|| dirs::data_dir().map(|d| d.join("fbd2048")));
        BestStore { path: dir.map(|d| d.join("best.json")) }
    }

    /// A store at an explicit path (tests).
    pub fn at(path: impl Into<PathBuf>) -> BestStore {
        BestStore { path: Some(path.into()) }
    }

    /// A store that keeps nothing.
    pub fn none() -> BestStore {
        BestStore { path: None }
    }

    /// The file, if any.
    pub fn path(&self) -> Option<&PathBuf> {
        self.path.as_ref()
    }

    /// The stored best score, and a warning when the file was unreadable or corrupt.
    pub fn load(&self) -> (i64, Option<String>) {
        let Some(p) = &self.path else { return (0, None) };
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (0, None),
            Err(e) => return (0, Some(format!("{}: cannot read the best score ({e}); starting from 0", p.display()))),
        };
        let parsed: Option<i64> =
            serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v.get("best").and_then(|b| b.as_i64()));
        match parsed {
            Some(b) if b >= 0 => (b, None),
            _ => (0, Some(format!("{}: the best-score file is corrupt; it will be replaced", p.display()))),
        }
    }

    /// Stores `best` atomically.
    pub fn save(&self, best: i64) -> Result<(), String> {
        let Some(p) = &self.path else { return Ok(()) };
        let err = |e: std::io::Error| format!("{}: cannot save the best score: {e}", p.display());
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let tmp = p.with_extension("json.tmp");
        std::fs::write(&tmp, format!("{{\"best\": {best}}}\n")).map_err(err)?;
        std::fs::rename(&tmp, p).map_err(err)
    }
}
