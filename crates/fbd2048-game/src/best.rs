//! The best scores, one per program, kept across runs in the platform data directory.
//!
//! A program is known by a content hash of every file it was loaded from, so a changed wiring
//! (another file, or the same file edited) has its own record and cannot raise the best of the
//! original. The file is written atomically (a temporary file renamed over the old one); a file
//! that cannot be read is reported and replaced, never a reason to stop.
//!
//! Format: `{"programs": {"<hash>": {"name": "2048", "best": 1234}}}`. A file from before
//! per-program records (`{"best": N}`) counts as the record of the embedded default program.

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use crate::front::Front;

/// Identifies a program by its content: FNV-1a (64 bit) over the texts of its files, in load
/// order. Stable across runs and builds (unlike `std`'s hasher).
pub fn program_key<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    let mut h = fbd_engine::fnv::Fnv64::new();
    for t in texts {
        h.write(t.as_bytes());
        h.write(&[0]);
    }
    format!("{:016x}", h.finish())
}

/// Where the best scores live.
#[derive(Clone, Debug)]
pub struct BestStore {
    path: Option<PathBuf>,
}

impl BestStore {
    /// `$FBD2048_DATA_DIR/best.json` if set, else `<data dir>/fbd2048/best.json`
    /// (`~/.local/share` on Linux).
    pub fn default_location() -> BestStore {
        BestStore { path: crate::datafile::default_path("best.json") }
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

    /// The whole file as a map of records, and a warning when it was unreadable or corrupt.
    fn read(&self) -> (Map<String, Value>, Option<Value>, Option<String>) {
        let Some(p) = &self.path else { return (Map::new(), None, None) };
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Map::new(), None, None),
            Err(e) => {
                return (
                    Map::new(),
                    None,
                    Some(format!("{}: cannot read the best scores ({e}); starting from 0", p.display())),
                );
            }
        };
        let corrupt = || Some(format!("{}: the best-score file is corrupt; it will be replaced", p.display()));
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(mut m)) => {
                let legacy = m.remove("best");
                match m.remove("programs") {
                    Some(Value::Object(progs)) => (progs, legacy.filter(|b| b.as_i64().is_some_and(|b| b >= 0)), None),
                    None if legacy.as_ref().is_some_and(|b| b.as_i64().is_some_and(|b| b >= 0)) => {
                        (Map::new(), legacy, None)
                    }
                    _ => (Map::new(), None, corrupt()),
                }
            }
            _ => (Map::new(), None, corrupt()),
        }
    }

    /// The best score of program `key` (0 if none), and a warning when the file was unreadable
    /// or corrupt. With `default_program`, a file from before per-program records counts.
    pub fn load(&self, key: &str, default_program: bool) -> (i64, Option<String>) {
        let (progs, legacy, warning) = self.read();
        let best = progs
            .get(key)
            .and_then(|r| r.get("best"))
            .and_then(Value::as_i64)
            .or_else(|| legacy.filter(|_| default_program).and_then(|b| b.as_i64()))
            .filter(|b| *b >= 0)
            .unwrap_or(0);
        (best, warning)
    }

    /// Stores `best` as the record of program `key` (named `name` for people reading the file),
    /// keeping every other program's record.
    pub fn save(&self, key: &str, name: &str, best: i64) -> Result<(), String> {
        let Some(p) = &self.path else { return Ok(()) };
        let (mut progs, legacy, _) = self.read();
        progs.insert(key.to_string(), json!({ "name": name, "best": best }));
        // An old global record stays until the default program writes its own.
        let mut file = Map::new();
        if let Some(l) = legacy {
            file.insert("best".into(), l);
        }
        file.insert("programs".into(), Value::Object(progs));
        let text = serde_json::to_string_pretty(&Value::Object(file)).expect("a map serialises");
        crate::datafile::write_atomic(p, &(text + "\n"), "the best score")
    }
}

/// The running program's best score for a front end: loaded when a program is attached,
/// written into the program's best memory, saved when a game that was played (not altered
/// from outside) beats it. The window and the terminal keep it alike.
#[derive(Debug)]
pub struct Best {
    store: BestStore,
    key: String,
    name: String,
    saved: i64,
    /// A record not yet written to the file (written at most once a second while it rises).
    unwritten: bool,
    last_write: Option<std::time::Instant>,
}

/// The least time between two writes of a rising record.
const WRITE_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

impl Best {
    /// Best scores kept in `store`; no program attached yet.
    pub fn new(store: BestStore) -> Best {
        Best { store, key: String::new(), name: String::new(), saved: 0, unwritten: false, last_write: None }
    }

    /// Writes a record not yet written (at a pause of the game, when the program changes, at
    /// exit).
    pub fn flush(&mut self) -> Result<(), String> {
        if !std::mem::take(&mut self.unwritten) {
            return Ok(());
        }
        self.last_write = Some(std::time::Instant::now());
        self.store.save(&self.key, &self.name, self.saved)
    }

    /// The attached program's content hash.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The stored best of the attached program.
    pub fn saved(&self) -> i64 {
        self.saved
    }

    /// Attaches the program loaded from `texts` (named `name`): its record is read when it is
    /// another program than the one attached. `default_program` lets a file from before
    /// per-program records count. Returns whether the program changed, and a warning when the
    /// file was unreadable.
    pub fn attach<'a>(
        &mut self,
        texts: impl IntoIterator<Item = &'a str>,
        name: &str,
        default_program: bool,
    ) -> (bool, Option<String>) {
        let key = program_key(texts);
        if key == self.key {
            self.name = name.to_string();
            return (false, None);
        }
        // The old program's record, before its key goes.
        let flushed = self.flush().err();
        self.name = name.to_string();
        let (best, warning) = self.store.load(&key, default_program);
        self.key = key;
        self.saved = best;
        (true, warning.or(flushed))
    }

    /// Writes the stored best into the program's best memory (both the memory and its
    /// previous-scan copy, or the next scan forgets it). Programs without one are left alone.
    pub fn write_into(&self, rt: &mut fbd_engine::Runtime) {
        use fbd_engine::runtime::requests::Request;
        let _ = self.restore_request().apply(rt);
    }

    /// What puts the record into the program's best memory, as a request to a running task.
    pub fn restore_request(&self) -> fbd_engine::runtime::requests::WriteNow {
        let v = fbd_engine::Value::Int(self.saved);
        fbd_engine::runtime::requests::WriteNow {
            values: vec![("best.q".into(), v), ("best.prev".into(), v)],
            then_step: false,
        }
    }

    /// Offers the score of the game on screen: a game played through the program (not altered
    /// from outside, no Start in flight: right after Start the old game's score is still on
    /// the outputs) that beats the record is saved. Returns an error once when the file
    /// cannot be written (then the record is kept in memory only).
    pub fn offer(&mut self, score: i64, front: &Front) -> Result<bool, String> {
        // A move in flight counts (an automated player keeps one in flight at every frame: the
        // best moved only when it stopped); a new game in flight does not, its outputs still
        // show the old game's score.
        if front.game_altered || front.new_game_in_flight() || score <= self.saved {
            return Ok(false);
        }
        // Not retried every frame when the file cannot be written.
        self.saved = score;
        self.unwritten = true;
        if self.last_write.is_none_or(|t| t.elapsed() >= WRITE_EVERY) {
            self.flush()?;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_program_has_its_own_record_and_an_old_file_counts_for_the_default_program() {
        let scratch = tempfile::Builder::new().prefix("fbd-best-").tempdir().expect("dir");
        let dir = scratch.path();
        let store = BestStore::at(dir.join("best.json"));
        std::fs::write(dir.join("best.json"), "{\"best\": 700}").expect("write");
        assert_eq!(store.load("aaaa", true), (700, None), "the old global record is the default program's");
        assert_eq!(store.load("bbbb", false), (0, None), "and no one else's");
        store.save("bbbb", "my wiring", 1500).expect("save");
        assert_eq!(store.load("bbbb", false), (1500, None));
        assert_eq!(store.load("cccc", false), (0, None));
        store.save("cccc", "other", 20).expect("save");
        assert_eq!(store.load("bbbb", false), (1500, None), "saving one record keeps the others");
        assert_ne!(program_key(["a", "bc"]), program_key(["ab", "c"]), "file boundaries count");
        assert_eq!(program_key(["x"]), program_key(["x"]));
    }

    /// A rising record is written at most once a second, the rest when flushed; a new game in
    /// flight does not offer the old game's score.
    #[test]
    fn a_rising_record_is_written_at_most_once_a_second_and_flushed() {
        let scratch = tempfile::Builder::new().prefix("fbd-best-rising-").tempdir().expect("dir");
        let file = scratch.path().join("best.json");
        let mut best = Best::new(BestStore::at(&file));
        best.attach(["program a"], "a", false);
        let front = Front::default();
        assert_eq!(best.offer(100, &front), Ok(true));
        assert_eq!(best.offer(200, &front), Ok(true));
        assert_eq!(best.saved(), 200, "shown at once");
        let key = best.key().to_string();
        assert_eq!(BestStore::at(&file).load(&key, false).0, 100, "written at most once a second");
        best.flush().expect("flushed");
        assert_eq!(BestStore::at(&file).load(&key, false).0, 200);
    }

    #[test]
    fn a_played_game_that_beats_the_record_is_saved_an_altered_one_is_not() {
        let scratch = tempfile::Builder::new().prefix("fbd-best-tracker-").tempdir().expect("dir");
        let dir = scratch.path();
        let file = dir.join("best.json");
        let _ = std::fs::remove_file(&file);
        let mut best = Best::new(BestStore::at(&file));
        assert_eq!(best.attach(["program a"], "a", false), (true, None));
        assert_eq!(best.attach(["program a"], "a", false), (false, None), "the same program again");
        let mut front = Front::default();
        assert_eq!(best.offer(100, &front), Ok(true));
        assert_eq!(best.offer(90, &front), Ok(false), "lower");
        front.game_altered = true;
        assert_eq!(best.offer(500, &front), Ok(false), "an altered game is no record");
        front.game_altered = false;
        assert_eq!(best.offer(500, &front), Ok(true));
        // Another program has its own record; coming back finds the first one's, from the file.
        assert_eq!(best.attach(["program b"], "b", false), (true, None));
        assert_eq!(best.saved(), 0);
        let mut again = Best::new(BestStore::at(&file));
        again.attach(["program a"], "a", false);
        assert_eq!(again.saved(), 500);
    }
}
