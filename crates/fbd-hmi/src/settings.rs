//! What the window remembers between runs, as an IDE does: recent files, the window size, which
//! panels were open, the theme, and per program (by the same content hash as the best score)
//! the watched signals and the breakpoints.
//!
//! Kept in `settings.json` beside `best.json`, written atomically; a file that cannot be read
//! is reported and replaced, never a reason to stop.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use fbd_engine::runtime::requests::RestoreBreakpoints;

use crate::app::App;

/// The most recent files kept.
const RECENT: usize = 8;

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

impl App {
    /// Puts a file at the top of the recent list.
    pub(crate) fn remember_recent(&mut self, path: PathBuf) {
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        self.prefs.recent.retain(|p| *p != path);
        self.prefs.recent.insert(0, path);
        self.prefs.recent.truncate(RECENT);
    }

    /// Restores the watches and breakpoints remembered for program `key` (those whose signals
    /// no longer exist are dropped quietly: the program changed).
    pub(crate) fn restore_program_settings(&mut self, key: &str) {
        let Some(ps) = self.prefs.programs.get(key).cloned() else { return };
        for w in &ps.watches {
            let _ = self.watch_signal(w);
        }
        let parsed = ps.breakpoints.iter().filter_map(|(c, on)| Some((fbd_engine::Condition::parse(c).ok()?, *on)));
        self.runner.call(RestoreBreakpoints(parsed.collect()));
    }

    /// Takes the running program's watches and breakpoints into the settings.
    pub(crate) fn collect_program_settings(&mut self, key: &str) {
        if key.is_empty() {
            return;
        }
        let watches = self.user_watches();
        let breakpoints =
            self.image().breakpoints().into_iter().map(|b| (b.condition.to_string(), b.enabled)).collect();
        let ps = ProgramSettings { watches, breakpoints };
        if ps == ProgramSettings::default() {
            self.prefs.programs.remove(key);
        } else {
            self.prefs.programs.insert(key.to_string(), ps);
        }
    }

    /// Writes the settings (on exit, and when the program changes).
    pub fn save_settings(&mut self) {
        let key = self.program_key().to_string();
        self.collect_program_settings(&key);
        self.prefs.debugger = self.show_debugger;
        self.prefs.debugger_editing = self.debugger_while_editing;
        self.prefs.diagram = self.dbg.show_diagram;
        if let Err(e) = self.settings_store.save(&self.prefs) {
            self.status = e;
        }
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
