//! What the window remembers between runs, as an IDE does: recent files, the window size, which
//! panels were open, the theme, and per program (by the same content hash as the best score)
//! the watched signals and the breakpoints.
//!
//! Kept in `settings.json` beside `best.json`, written atomically; a file that cannot be read
//! is reported and replaced, never a reason to stop.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The most recent files kept.
pub(crate) const RECENT: usize = 8;

/// Per-program debugging state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProgramSettings {
    /// Watched signal paths.
    #[serde(default)]
    pub watches: Vec<String>,
    /// Breakpoints: the condition as typed and whether it is enabled.
    #[serde(default)]
    pub breakpoints: Vec<(String, bool)>,
}

/// Everything remembered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Recently opened diagram files, newest first.
    #[serde(default)]
    pub recent: Vec<PathBuf>,
    /// The window's inner size in points.
    #[serde(default)]
    pub window: Option<[f32; 2]>,
    /// The debugger panel was open while running.
    #[serde(default)]
    pub debugger: bool,
    /// The debugger panel was open while editing.
    #[serde(default)]
    pub debugger_editing: bool,
    /// The Diagram tab was shown.
    #[serde(default)]
    pub diagram: bool,
    /// "light", "dark" or "system".
    #[serde(default)]
    pub theme: Option<String>,
    /// Per program, by content hash.
    #[serde(default)]
    pub programs: BTreeMap<String, ProgramSettings>,
}

/// Where the settings live.
#[derive(Clone, Debug)]
pub struct SettingsStore {
    path: Option<PathBuf>,
}

impl SettingsStore {
    /// `$FBD2048_DATA_DIR/settings.json` if set, else `<data dir>/fbd2048/settings.json`.
    pub fn default_location() -> SettingsStore {
        SettingsStore { path: fbd2048_game::datafile::default_path("settings.json") }
    }

    /// A store at an explicit path (tests).
    pub fn at(path: impl Into<PathBuf>) -> SettingsStore {
        SettingsStore { path: Some(path.into()) }
    }

    /// A store that keeps nothing.
    pub fn none() -> SettingsStore {
        SettingsStore { path: None }
    }

    /// The stored settings, and a warning when the file was unreadable or corrupt.
    pub fn load(&self) -> (Settings, Option<String>) {
        let Some(p) = &self.path else { return (Settings::default(), None) };
        match std::fs::read_to_string(p) {
            Ok(t) => match serde_json::from_str(&t) {
                Ok(s) => (s, None),
                Err(e) => (
                    Settings::default(),
                    Some(format!("{}: the settings are corrupt ({e}); they will be replaced", p.display())),
                ),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Settings::default(), None),
            Err(e) => (Settings::default(), Some(format!("{}: cannot read the settings ({e})", p.display()))),
        }
    }

    /// Stores `s` atomically.
    pub fn save(&self, s: &Settings) -> Result<(), String> {
        let Some(p) = &self.path else { return Ok(()) };
        let text = serde_json::to_string_pretty(s).expect("settings serialise");
        fbd2048_game::datafile::write_atomic(p, &(text + "\n"), "the settings")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_a_corrupt_file_is_reported() {
        let scratch = tempfile::Builder::new().prefix("fbd-settings-").tempdir().expect("dir");
        let dir = scratch.path();
        let store = SettingsStore::at(dir.join("settings.json"));
        let mut s = Settings { window: Some([900.0, 700.0]), debugger: true, ..Settings::default() };
        s.programs.insert(
            "k".into(),
            ProgramSettings { watches: vec!["score".into()], breakpoints: vec![("rises:busy".into(), false)] },
        );
        store.save(&s).expect("save");
        assert_eq!(store.load(), (s, None));
        std::fs::write(dir.join("settings.json"), "{").expect("write");
        let (d, w) = store.load();
        assert_eq!(d, Settings::default());
        assert!(w.expect("reported").contains("corrupt"));
    }
}
