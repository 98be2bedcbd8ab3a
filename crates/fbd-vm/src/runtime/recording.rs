//! Recordings: what is needed to reproduce every scan of a run bit for bit — the program's
//! identity (its name and a content hash of every file it was loaded from), the seed, the
//! cycle, and the timeline of what reached it from outside (inputs, pulses, writes, forces,
//! releases) by scan; and a hash of the state every N scans and at the end, so that a replay
//! can say at which scan it first differs (for example because the program changed).
//!
//! The format is JSON, versioned by `fbd_recording` (this is version 2; version 1 differs only
//! in its state hashes, which left out the position of the RANDOM blocks' generators, and is
//! still read and checked with the hash it was written with):
//!
//! ```json
//! {"fbd_recording": 2, "program": {"name": "2048", "files": [{"path": "diagrams/2048.json",
//!  "hash": "9f…"}]}, "seed": 0, "cycle_us": 5000, "scans": 125, "hash_every": 10,
//!  "events": [{"scan": 0, "kind": "pulse", "name": "command", "value": 5}],
//!  "hashes": [[10, "c4…"], [20, "01…"]], "end_hash": "7e…"}
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Runtime, RuntimeError};
use fbd_model::load::Project;
use fbd_model::model::Const;
use fbd_model::types::Value;

/// The version this engine writes (it reads this one and version 1).
pub const RECORDING_VERSION: u32 = 2;

/// One file of the recorded program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedFile {
    /// Its path: as loaded, or (as the `fbd` tool writes a recording) relative to the
    /// recording's directory.
    pub path: String,
    /// FNV-1a 64 of its text, in hex.
    pub hash: String,
    /// Its absolute path when recorded: where a replay looks when the relative one is not
    /// there (the recording was moved without the program).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abs: Option<String>,
}

/// Which program a recording is of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgramId {
    /// The program's name.
    pub name: String,
    /// Every file it was loaded from, the program first.
    pub files: Vec<RecordedFile>,
}

impl ProgramId {
    /// The identity of a loaded project.
    pub fn of(project: &Project) -> ProgramId {
        ProgramId {
            name: project.root().name.clone().unwrap_or_default(),
            files: project
                .files
                .iter()
                .map(|f| RecordedFile {
                    path: f.path.display().to_string(),
                    hash: fnv_hex(f.text.as_bytes()),
                    abs: None,
                })
                .collect(),
        }
    }
}

/// What reached the program from outside before a scan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Stimulus {
    /// A program input was set.
    Input {
        /// The input.
        name: String,
        /// Its value.
        value: StimulusValue,
    },
    /// A program input was pulsed for one scan.
    Pulse {
        /// The input.
        name: String,
        /// Its value for that scan.
        value: StimulusValue,
    },
    /// A signal was written for the next scan.
    Write {
        /// The signal.
        path: String,
        /// The value.
        value: StimulusValue,
    },
    /// A signal was written at once, between scans.
    WriteNow {
        /// The signal.
        path: String,
        /// The value.
        value: StimulusValue,
    },
    /// A signal was forced.
    Force {
        /// The signal.
        path: String,
        /// The value.
        value: StimulusValue,
    },
    /// A force was released.
    Release {
        /// The signal.
        path: String,
    },
    /// Every force was released.
    ReleaseAll,
}

/// A stimulus's value: 16 bytes, a STRING's characters boxed (a value is 136 bytes, and a long
/// recording holds millions of stimuli). Written as a diagram writes a constant.
#[derive(Clone, Debug, PartialEq)]
pub enum StimulusValue {
    /// A value of any type but STRING.
    Scalar(Scalar),
    /// A STRING.
    Str(Box<fbd_model::types::IecString>),
}

/// A [`Value`] that is no STRING, in 16 bytes.
#[derive(Copy, Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Real(f64),
    Time(i64),
    ULInt(u64),
}

impl StimulusValue {
    /// The value.
    pub fn get(&self) -> Value {
        match self {
            StimulusValue::Scalar(Scalar::Bool(b)) => Value::Bool(*b),
            StimulusValue::Scalar(Scalar::Int(i)) => Value::Int(*i),
            StimulusValue::Scalar(Scalar::Real(r)) => Value::Real(*r),
            StimulusValue::Scalar(Scalar::Time(t)) => Value::Time(*t),
            StimulusValue::Scalar(Scalar::ULInt(u)) => Value::ULInt(*u),
            StimulusValue::Str(s) => Value::Str(**s),
        }
    }
}

impl From<Value> for StimulusValue {
    fn from(v: Value) -> StimulusValue {
        match v {
            Value::Bool(b) => StimulusValue::Scalar(Scalar::Bool(b)),
            Value::Int(i) => StimulusValue::Scalar(Scalar::Int(i)),
            Value::Real(r) => StimulusValue::Scalar(Scalar::Real(r)),
            Value::Time(t) => StimulusValue::Scalar(Scalar::Time(t)),
            Value::ULInt(u) => StimulusValue::Scalar(Scalar::ULInt(u)),
            Value::Str(s) => StimulusValue::Str(Box::new(s)),
        }
    }
}

impl Serialize for StimulusValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.get() {
            // JSON has no number for them (serde_json wrote `null`, which no replay could read).
            Value::Real(r) if r.is_nan() => s.serialize_str("NaN"),
            Value::Real(r) if r.is_infinite() => s.serialize_str(if r > 0.0 { "inf" } else { "-inf" }),
            v => Const(v).serialize(s),
        }
    }
}

/// Reads a recorded value without buffering it (an untagged enum made serde keep a copy of
/// every value): a non-finite REAL by its name, anything else as a diagram's constant.
struct StimulusValueVisitor;

impl<'de> serde::de::Visitor<'de> for StimulusValueVisitor {
    type Value = StimulusValue;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a recorded value (true, a number, \"T#1s\", \"'text'\", \"NaN\", \"inf\", \"-inf\")")
    }
    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<StimulusValue, E> {
        Ok(Value::Bool(v).into())
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<StimulusValue, E> {
        Ok(Value::Int(v).into())
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<StimulusValue, E> {
        Ok(i64::try_from(v).map_or(Value::ULInt(v), Value::Int).into())
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<StimulusValue, E> {
        Ok(Value::Real(v).into())
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<StimulusValue, E> {
        match v {
            "NaN" => Ok(Value::Real(f64::NAN).into()),
            "inf" => Ok(Value::Real(f64::INFINITY).into()),
            "-inf" => Ok(Value::Real(f64::NEG_INFINITY).into()),
            _ => Const::deserialize(serde::de::value::StrDeserializer::<E>::new(v)).map(|c| c.0.into()),
        }
    }
    // serde_json with `arbitrary_precision` hands a number over as a map of its text.
    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<StimulusValue, A::Error> {
        Const::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(|c| c.0.into())
    }
}

impl<'de> Deserialize<'de> for StimulusValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StimulusValueVisitor)
    }
}

// A recording of millions of stimuli is read into memory: an event stays within 64 bytes (its
// value inline, 136 bytes since STRING, made reading one five times its file's size).
const _: () = assert!(std::mem::size_of::<Event>() <= 64);

/// A stimulus and the scan it came before.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    /// The scan (0-based) it was applied before.
    pub scan: u64,
    /// What it was.
    #[serde(flatten)]
    pub stimulus: Stimulus,
}

/// An event read field by field (`#[serde(flatten)]` made serde buffer every event as a map
/// first: most of the time of reading a long recording).
impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Event;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an event {\"scan\", \"kind\", \"name\" or \"path\", \"value\"}")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Event, A::Error> {
                use serde::de::Error;
                let (mut scan, mut kind, mut name, mut path, mut value) = (None, None, None, None, None);
                while let Some(k) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match k.as_ref() {
                        "scan" => scan = Some(map.next_value::<u64>()?),
                        "kind" => kind = Some(map.next_value::<std::borrow::Cow<'de, str>>()?.into_owned()),
                        "name" => name = Some(map.next_value::<String>()?),
                        "path" => path = Some(map.next_value::<String>()?),
                        "value" => value = Some(map.next_value::<StimulusValue>()?),
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                let scan = scan.ok_or_else(|| A::Error::missing_field("scan"))?;
                let kind = kind.ok_or_else(|| A::Error::missing_field("kind"))?;
                let name = || name.clone().ok_or_else(|| A::Error::missing_field("name"));
                let path = || path.clone().ok_or_else(|| A::Error::missing_field("path"));
                let value = || value.clone().ok_or_else(|| A::Error::missing_field("value"));
                let stimulus = match kind.as_str() {
                    "input" => Stimulus::Input { name: name()?, value: value()? },
                    "pulse" => Stimulus::Pulse { name: name()?, value: value()? },
                    "write" => Stimulus::Write { path: path()?, value: value()? },
                    "write_now" => Stimulus::WriteNow { path: path()?, value: value()? },
                    "force" => Stimulus::Force { path: path()?, value: value()? },
                    "release" => Stimulus::Release { path: path()? },
                    "release_all" => Stimulus::ReleaseAll,
                    other => {
                        return Err(A::Error::unknown_variant(
                            other,
                            &["input", "pulse", "write", "write_now", "force", "release", "release_all"],
                        ));
                    }
                };
                Ok(Event { scan, stimulus })
            }
        }
        d.deserialize_map(V)
    }
}

/// A recorded run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    /// The format version ([`RECORDING_VERSION`]).
    pub fbd_recording: u32,
    /// The program.
    pub program: ProgramId,
    /// The runtime seed.
    pub seed: u64,
    /// The program's cycle in microseconds.
    pub cycle_us: u64,
    /// Scans run.
    pub scans: u64,
    /// A state hash was taken after every this many scans (0: none).
    pub hash_every: u64,
    /// The timeline, in scan order.
    pub events: Vec<Event>,
    /// (scans run, state hash) every `hash_every` scans.
    pub hashes: Vec<(u64, String)>,
    /// The state hash after the last scan, taken when the recording stopped (with hashes on,
    /// unless a periodic hash stands there already):
    /// without it a recording shorter than `hash_every`, or the scans after its last periodic
    /// hash, were replayed unchecked (a 17-scan game "passed" `--check` with any event
    /// changed). Absent in recordings written before it existed; builds that predate it ignore it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_hash: Option<String>,
}

/// Where a replay first differs from its recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Scans run when the state hash differed.
    pub scan: u64,
    /// The recorded hash.
    pub expected: String,
    /// The replay's.
    pub got: String,
}

pub(super) struct Recorder {
    events: Vec<Event>,
    hashes: Vec<(u64, String)>,
    every: u64,
    start_scan: u64,
}

fn fnv_hex(bytes: &[u8]) -> String {
    format!("{:016x}", fbd_model::fnv::fnv1a(bytes))
}

impl Runtime {
    /// A hash of the state (every slot, bit for bit, and where each RANDOM block's generator
    /// stands in its stream), the clock and the scan count.
    pub fn state_hash(&self) -> String {
        format!("{:016x}", self.state_hash_value())
    }

    /// [`Runtime::state_hash`] as a number (computed without allocating, so a playback can
    /// check it after a scan).
    pub fn state_hash_value(&self) -> u64 {
        self.state_hash_for(RECORDING_VERSION)
    }

    /// The state hash as recordings of `version` compute it: version 1 left the generators out
    /// (two runs whose generators had drawn different numbers hashed alike until the numbers
    /// reached a slot).
    pub(super) fn state_hash_for(&self, version: u32) -> u64 {
        let mut h = fbd_model::fnv::Fnv64::new();
        for b in &self.state.bools {
            h.write(&[*b as u8]);
        }
        for i in &self.state.ints {
            h.write(&i.to_le_bytes());
        }
        for r in &self.state.reals {
            h.write(&r.to_bits().to_le_bytes());
        }
        // Empty in every program older than STRING: their hashes stay what they were.
        for s in &self.state.strs {
            h.write(&[s.len() as u8]);
            h.write(s.as_bytes());
        }
        if version >= 2 {
            for g in &self.state.rngs {
                h.write(&g.get_word_pos().to_le_bytes());
            }
        }
        h.write(&self.scan.to_le_bytes());
        h.write(&self.clock_us.to_le_bytes());
        h.finish()
    }

    /// Starts recording what reaches the program, with a state hash every `hash_every` scans
    /// (0: none). A recording starts from a fresh runtime (scan 0) to be replayable.
    pub fn start_recording(&mut self, hash_every: u64) {
        self.recorder = Some(Box::new(Recorder {
            events: Vec::new(),
            hashes: Vec::new(),
            every: hash_every,
            start_scan: self.scan,
        }));
    }

    /// Stops recording and returns the recording of `program`.
    pub fn stop_recording(&mut self, program: ProgramId) -> Option<Recording> {
        let mut r = self.recorder.take()?;
        let scans = self.scan - r.start_scan;
        // Writes that came after the last scan (a client's, as SIGTERM stopped the server)
        // reached no scan: the recording is of the scans that ran. The state hash does not
        // see them (inputs enter the state at a scan's start).
        r.events.retain(|e| e.scan < scans);
        // Not where a periodic hash already stands (a run of whole hundreds ends on one).
        let end_hash = (r.every > 0 && (scans == 0 || !scans.is_multiple_of(r.every))).then(|| self.state_hash());
        Some(Recording {
            fbd_recording: RECORDING_VERSION,
            program,
            seed: self.seed,
            cycle_us: self.plan.cycle_us,
            scans,
            hash_every: r.every,
            events: r.events,
            hashes: r.hashes,
            end_hash,
        })
    }

    pub(super) fn record(&mut self, stimulus: Stimulus) {
        let scan = self.scan;
        if let Some(r) = self.recorder.as_mut() {
            r.events.push(Event { scan: scan - r.start_scan, stimulus });
        }
    }

    pub(super) fn record_after_scan(&mut self) {
        let Some(every) = self.recorder.as_ref().map(|r| r.every).filter(|e| *e > 0) else { return };
        let start = self.recorder.as_ref().map_or(0, |r| r.start_scan);
        let ran = self.scan - start;
        if ran.is_multiple_of(every) {
            let h = self.state_hash();
            if let Some(r) = self.recorder.as_mut() {
                r.hashes.push((ran, h));
            }
        }
    }

    /// Applies one recorded stimulus.
    pub(super) fn apply(&mut self, s: &Stimulus) -> Result<(), RuntimeError> {
        match s {
            Stimulus::Input { name, value } => self.set_input(name, value.get()),
            Stimulus::Pulse { name, value } => self.pulse_input(name, value.get()),
            Stimulus::Write { path, value } => self.write(path, value.get()),
            Stimulus::WriteNow { path, value } => self.write_now(path, value.get()),
            Stimulus::Force { path, value } => self.force(path, value.get()),
            Stimulus::Release { path } => {
                self.release(path);
                Ok(())
            }
            Stimulus::ReleaseAll => {
                self.release_all();
                Ok(())
            }
        }
    }

    /// Re-executes `rec` on this runtime (fresh, of the recorded program and seed): every
    /// stimulus before its scan, every scan; with `check`, each recorded state hash is compared
    /// and the first difference returned.
    pub fn replay(&mut self, rec: &Recording, check: bool) -> Result<Option<Divergence>, RuntimeError> {
        self.replay_observed(rec, check, |_| {})
    }

    /// [`Runtime::replay`], calling `progress(scans run)` every 65,536 scans (a long replay can
    /// show how far it got).
    pub fn replay_observed(
        &mut self,
        rec: &Recording,
        check: bool,
        mut progress: impl FnMut(u64),
    ) -> Result<Option<Divergence>, RuntimeError> {
        rec.check().map_err(RuntimeError::BadRecording)?;
        let mut next = 0;
        let mut hashes = rec.hashes.iter().peekable();
        for scan in 0..rec.scans {
            while next < rec.events.len() && rec.events[next].scan == scan {
                self.apply(&rec.events[next].stimulus)?;
                next += 1;
            }
            self.step();
            if (scan + 1) % 65_536 == 0 {
                progress(scan + 1);
            }
            if check
                && let Some((at, want)) = hashes.peek()
                && *at == scan + 1
            {
                let got = format!("{:016x}", self.state_hash_for(rec.fbd_recording));
                if got != *want {
                    return Ok(Some(Divergence { scan: scan + 1, expected: want.clone(), got }));
                }
                hashes.next();
            }
        }
        if check && let Some(want) = &rec.end_hash {
            let got = format!("{:016x}", self.state_hash_for(rec.fbd_recording));
            if got != *want {
                return Ok(Some(Divergence { scan: rec.scans, expected: want.clone(), got }));
            }
        }
        Ok(None)
    }
}

/// A reader that passes on only UTF-8: serde_json's reader skips an unknown field's string
/// without looking at its bytes, so a recording that is no text was read from a file where the
/// same bytes as a text were refused.
struct Utf8Checked<R> {
    inner: R,
    /// The bytes of a character cut by the end of the last read.
    pending: Vec<u8>,
    /// Bytes passed on so far (for the error's place).
    offset: u64,
}

impl<R: std::io::Read> Utf8Checked<R> {
    fn new(inner: R) -> Self {
        Utf8Checked { inner, pending: Vec::new(), offset: 0 }
    }
}

impl<R: std::io::Read> std::io::Read for Utf8Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let invalid =
            |at: u64| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("byte {at} is not UTF-8 text"));
        if n == 0 {
            return if self.pending.is_empty() { Ok(0) } else { Err(invalid(self.offset)) };
        }
        // The cut character's bytes first, then what came.
        let mut check = std::mem::take(&mut self.pending);
        let start = self.offset - check.len() as u64;
        check.extend_from_slice(&buf[..n]);
        match std::str::from_utf8(&check) {
            Ok(_) => {}
            // A character cut at the end: kept to be checked with the next read.
            Err(e) if e.error_len().is_none() => self.pending = check[e.valid_up_to()..].to_vec(),
            Err(e) => return Err(invalid(start + e.valid_up_to() as u64)),
        }
        self.offset += n as u64;
        Ok(n)
    }
}

impl Recording {
    /// How many state hashes a checked replay compares (the periodic ones and the end's).
    pub fn checked_hashes(&self) -> usize {
        self.hashes.len() + usize::from(self.end_hash.is_some())
    }

    /// Reads the recording at `path` without holding its text (a 181 MB file took its size
    /// again in memory as a string): regular files only, within the size a file may have, a
    /// byte-order mark dropped; the version checked first, then the recording parsed straight
    /// into its types and its timeline checked.
    pub fn read(path: &Path) -> Result<Recording, String> {
        use std::io::Read;
        let limit = fbd_model::load::MAX_FILE_BYTES;
        let open = || -> Result<Box<dyn Read>, String> {
            let meta = std::fs::metadata(path).map_err(|e| format!("cannot read the file: {e}"))?;
            if !meta.is_file() {
                let what = if meta.is_dir() { "a directory" } else { "not a regular file (a device, FIFO or socket)" };
                return Err(format!("cannot read the file: {what}; only regular files are read"));
            }
            if meta.len() > limit {
                return Err(format!("the file is {} bytes, larger than the limit of {} MiB", meta.len(), limit >> 20));
            }
            let mut f = std::fs::File::open(path).map_err(|e| format!("cannot read the file: {e}"))?.take(limit);
            let mut head = [0u8; 3];
            let n = f.read(&mut head).map_err(|e| format!("cannot read the file: {e}"))?;
            let keep = if head[..n] == *b"\xEF\xBB\xBF" { Vec::new() } else { head[..n].to_vec() };
            Ok(Box::new(std::io::Cursor::new(keep).chain(f)))
        };
        Self::from_reader(open)
    }

    /// Reads a recording from what `open` gives (called a second time only to say why a text
    /// is no recording), streaming: [`Recording::read`] of a file, a fuzzer's bytes.
    pub fn from_reader<R: std::io::Read>(open: impl Fn() -> Result<R, String>) -> Result<Recording, String> {
        #[derive(Deserialize)]
        struct Version {
            fbd_recording: Option<serde_json::Value>,
        }
        // serde_json reads a byte at a time: the buffer is outside the check, so the check
        // sees 64 KiB at a time (inside it, it took a byte per call: 18 s for 242 MB).
        let open = || open().map(|r| std::io::BufReader::with_capacity(1 << 16, Utf8Checked::new(r)));
        // One pass for a good recording; the version is looked at first only to say why one
        // does not parse (another version's, or none at all).
        match serde_json::from_reader::<_, Recording>(open()?) {
            Ok(rec) => {
                Self::check_version(Some(&serde_json::Value::from(rec.fbd_recording)))?;
                rec.check()?;
                Ok(rec)
            }
            Err(e) => {
                let v: Version = serde_json::from_reader(open()?).map_err(|e| format!("not a recording: {e}"))?;
                Self::check_version(v.fbd_recording.as_ref())?;
                Err(format!("corrupt recording: {e}"))
            }
        }
    }

    fn check_version(v: Option<&serde_json::Value>) -> Result<(), String> {
        match v.and_then(|x| x.as_u64()) {
            Some(1 | 2) => Ok(()),
            Some(n) => {
                Err(format!("recording format version {n}; this build reads versions 1 and {RECORDING_VERSION}"))
            }
            None => Err("not a recording: no `fbd_recording` version".into()),
        }
    }

    /// Reads a recording, checking its version.
    pub fn from_json(text: &str) -> Result<Recording, String> {
        // The version first, without building the document (a tree of a 250 MB recording took
        // gigabytes); then the recording straight into its types.
        #[derive(Deserialize)]
        struct Version {
            fbd_recording: Option<serde_json::Value>,
        }
        let v: Version = serde_json::from_str(text).map_err(|e| format!("not a recording: {e}"))?;
        Self::check_version(v.fbd_recording.as_ref())?;
        let rec: Recording = serde_json::from_str(text).map_err(|e| format!("corrupt recording: {e}"))?;
        rec.check()?;
        Ok(rec)
    }

    /// Whether the timeline is one a run could have written: events and hashes in scan order
    /// and within the recorded scans, hashes where `hash_every` puts them, at most
    /// [`MAX_RECORDED_SCANS`](fbd_model::limits::MAX_RECORDED_SCANS) scans. A replay and a playback
    /// rely on it (an event out of order would be skipped without a word). Every problem is
    /// listed (the first ten of each kind).
    pub fn check(&self) -> Result<(), String> {
        const SHOWN: usize = 10;
        let mut problems: Vec<String> = Vec::new();
        let max = fbd_model::limits::MAX_RECORDED_SCANS;
        if self.scans > max {
            problems.push(format!("{} scans, more than the limit of {max}", self.scans));
        }
        let mut note = |kind: &mut usize, msg: String| {
            *kind += 1;
            if *kind <= SHOWN {
                problems.push(msg);
            }
        };
        let (mut order, mut range, mut hashes) = (0, 0, 0);
        for (k, pair) in self.events.windows(2).enumerate() {
            if pair[1].scan < pair[0].scan {
                let (a, b) = (pair[0].scan, pair[1].scan);
                note(&mut order, format!("event {} (before scan {b}) comes after one before scan {a}", k + 1));
            }
        }
        for (k, e) in self.events.iter().enumerate() {
            if e.scan >= self.scans {
                note(
                    &mut range,
                    format!("event {k} is before scan {}, but the recording ends after {}", e.scan, self.scans),
                );
            }
        }
        if self.hash_every == 0 && !self.hashes.is_empty() {
            note(&mut hashes, format!("{} state hashes, but `hash_every` is 0", self.hashes.len()));
        }
        let mut last: Option<u64> = None;
        for (k, (scan, hash)) in self.hashes.iter().enumerate() {
            let why = if *scan == 0 {
                Some("a hash is taken after a scan, so never at scan 0")
            } else if last.is_some_and(|l| *scan <= l) {
                Some("not after the hash before it")
            } else if *scan > self.scans {
                Some("after the end of the recording")
            } else if self.hash_every > 0 && !scan.is_multiple_of(self.hash_every) {
                Some("not a multiple of `hash_every`")
            } else if hash.len() != 16 || u64::from_str_radix(hash, 16).is_err() {
                Some("not 16 hexadecimal digits")
            } else {
                None
            };
            if let Some(why) = why {
                note(&mut hashes, format!("state hash {k} (after scan {scan}): {why}"));
            }
            last = Some(last.map_or(*scan, |l| l.max(*scan)));
        }
        if let Some(h) = &self.end_hash
            && (h.len() != 16 || u64::from_str_radix(h, 16).is_err())
        {
            problems.push(format!("the end's state hash `{h}` is not 16 hexadecimal digits"));
        }
        for (n, what) in [(order, "events out of order"), (range, "events past the end"), (hashes, "bad state hashes")]
        {
            if n > SHOWN {
                problems.push(format!("... {} more {what}", n - SHOWN));
            }
        }
        if problems.is_empty() { Ok(()) } else { Err(format!("corrupt recording: {}", problems.join("; "))) }
    }

    /// The recording as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a recording serialises")
    }

    /// Writes the recording as JSON to `w`, without its text in memory (what `to_json` gives).
    pub fn write_json(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer(w, self).map_err(std::io::Error::other)
    }

    /// Writes the program's paths relative to the directory of the recording at `rec_path` (a
    /// replay from another directory finds them), keeping each absolute one as a fallback (the
    /// recording moved without them).
    pub fn place_files_for(&mut self, rec_path: &Path) {
        for f in &mut self.program.files {
            // The file as the file system names it (`..` and links resolved, as for the
            // recording's directory below); a program embedded in the binary keeps its name.
            if let Ok(abs) = std::fs::canonicalize(&f.path) {
                f.path = relative_to(&abs, rec_path).display().to_string();
                f.abs = Some(abs.display().to_string());
            }
        }
    }

    /// Where the recorded program's file is now, for the recording at `rec_path`: its path from
    /// the recording's directory, else its absolute path when recorded, else its path from the
    /// working directory (recordings before paths were relative to them); `None` for none of
    /// these (an embedded wiring's name).
    pub fn program_path(&self, rec_path: &Path) -> Option<PathBuf> {
        let file = self.program.files.first()?;
        let dir = rec_path.parent().unwrap_or(Path::new(""));
        [Some(dir.join(&file.path)), file.abs.as_ref().map(PathBuf::from), Some(PathBuf::from(&file.path))]
            .into_iter()
            .flatten()
            .find(|p| p.is_file())
    }

    /// Gives `project`'s program the recording's cycle: a run whose cycle was set from outside
    /// the file (`fbd serve --cycle`) replays at the cycle it ran at, its clock and timers as
    /// they were.
    pub fn apply_cycle(&self, project: &mut Project) {
        if let Some(f) = project.files.first_mut() {
            f.doc.cycle_ms = Some(self.cycle_us as f64 / 1000.0);
        }
    }

    /// Whether `project` is the recorded program: the first file whose content differs.
    pub fn program_differs(&self, project: &Project) -> Option<String> {
        let now = ProgramId::of(project);
        if now.name != self.program.name {
            return Some(format!("the recording is of `{}`, the program is `{}`", self.program.name, now.name));
        }
        if now.files.len() != self.program.files.len() {
            return Some(format!(
                "the program has {} files now, the recording {}",
                now.files.len(),
                self.program.files.len()
            ));
        }
        now.files
            .iter()
            .zip(&self.program.files)
            .find(|(a, b)| a.hash != b.hash)
            .map(|(a, b)| format!("{} changed since the recording (hash {} now, {} then)", b.path, a.hash, b.hash))
    }
}

/// `file` (absolute) as a path from the directory of `recording` (`..` where it must go up),
/// or `file` itself when they share no root.
fn relative_to(file: &Path, recording: &Path) -> PathBuf {
    let Some(dir) = std::path::absolute(recording).ok().and_then(|r| r.parent().map(Path::to_path_buf)) else {
        return file.to_path_buf();
    };
    // `absolute` keeps `..` (`../r.json` gave `/work/..`, and a path from there that climbed
    // once too often): the directory as the file system resolves it.
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    let (a, b): (Vec<_>, Vec<_>) = (file.components().collect(), dir.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return file.to_path_buf();
    }
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    rel.extend(&a[common..]);
    rel
}

#[cfg(test)]
mod tests {
    use rand::Rng as _;

    use super::*;

    /// A REAL written as NaN or ±infinity (over Modbus, over the page's socket) is recorded by
    /// its name and read back (JSON has no number for it: it was `null`, and the recording
    /// could not be replayed); writes after the last scan are left out of it.
    #[test]
    fn non_finite_reals_are_recorded_and_read_back() {
        let text = r#"{ "fbd": 3, "name": "r", "inputs": [ { "name": "x", "type": "REAL" } ],
            "outputs": [ { "name": "y", "type": "REAL", "from": "a.out" } ],
            "blocks": [ { "id": "a", "type": "ADD", "inputs": { "in1": "x", "in2": 1.0 } } ] }"#;
        let plan = fbd_compiler::compile(text).expect("compiles");
        let mut rt = Runtime::with_seed(plan, 0);
        rt.start_recording(0);
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 2.5] {
            rt.set_input("x", Value::Real(v)).expect("set");
            rt.step();
        }
        rt.set_input("x", Value::Real(7.0)).expect("a write after the last scan");
        let program = ProgramId { name: "r".into(), files: Vec::new() };
        let rec = rt.stop_recording(program).expect("recorded");
        assert_eq!(rec.events.len(), 4, "the write after the last scan reached no scan");
        let mut json = Vec::new();
        rec.write_json(&mut json).expect("written");
        let text = String::from_utf8(json).expect("UTF-8");
        assert!(text.contains("\"NaN\"") && text.contains("\"-inf\"") && !text.contains("null"), "{text}");
        let back = Recording::from_json(&text).expect("read back");
        let reals: Vec<f64> = back
            .events
            .iter()
            .map(|e| match &e.stimulus {
                Stimulus::Input { value, .. } => match value.get() {
                    Value::Real(r) => r,
                    other => panic!("a REAL: {other:?}"),
                },
                other => panic!("an input: {other:?}"),
            })
            .collect();
        assert!(reals[0].is_nan());
        assert_eq!(&reals[1..], &[f64::INFINITY, f64::NEG_INFINITY, 2.5]);
    }

    /// The streaming reader refuses what is no UTF-8 text, wherever it stands (in a field it
    /// would skip too), and takes a character cut by the reads' boundaries.
    #[test]
    fn the_streaming_reader_takes_only_utf8() {
        /// Hands out one byte per read.
        struct Trickle<'a>(&'a [u8]);
        impl std::io::Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let Some((first, rest)) = self.0.split_first() else { return Ok(0) };
                buf[0] = *first;
                self.0 = rest;
                Ok(1)
            }
        }
        let rec = r#"{"fbd_recording":2,"program":{"name":"p","files":[]},"seed":0,"cycle_us":5000,"scans":1,"hash_every":0,"events":[],"hashes":[],"note":"é"}"#;
        assert!(Recording::from_reader(|| Ok(Trickle(rec.as_bytes()))).is_ok(), "é cut in two by the reads");
        let mut bad = rec.as_bytes().to_vec();
        let at = bad.len() - 4;
        bad[at] = 0xFF;
        let e = Recording::from_reader(|| Ok(Trickle(&bad))).expect_err("no text");
        assert!(e.contains("not UTF-8"), "{e}");
    }

    const DICE: &str = r#"{"fbd": 1, "name": "dice", "outputs": [{"name": "n", "type": "INT", "from": "r.n"}],
      "blocks": [{"id": "r", "type": "RANDOM", "inputs": {"lo": 1, "hi": 6}}]}"#;

    fn dice() -> Runtime {
        Runtime::new(fbd_compiler::compile(DICE).expect("compiles"))
    }

    #[test]
    fn the_state_hash_sees_where_a_generator_stands_even_when_every_slot_agrees() {
        let (mut a, mut b) = (dice(), dice());
        a.step_n(3);
        b.step_n(3);
        assert_eq!(a.state_hash(), b.state_hash());
        // One draw the program never saw: the slots are the same, the next numbers are not.
        b.state.rngs[0].next_u64();
        assert_eq!((&a.state.ints, &a.state.reals), (&b.state.ints, &b.state.reals));
        assert_ne!(a.state_hash(), b.state_hash());
        assert_eq!(a.state_hash_for(1), b.state_hash_for(1), "version 1 left the generators out");
    }

    #[test]
    fn a_long_replay_reports_its_progress_every_65536_scans() {
        let mut live = dice();
        live.start_recording(1000);
        live.step_n(200_000);
        let rec = live.stop_recording(ProgramId { name: "dice".into(), files: vec![] }).expect("recording");
        let mut seen = Vec::new();
        let d = dice().replay_observed(&rec, true, |at| seen.push(at)).expect("replays");
        assert_eq!((d, seen), (None, vec![65_536, 131_072, 196_608]));
    }

    #[test]
    fn a_version_1_recording_is_checked_with_the_hash_it_was_written_with() {
        let mut live = dice();
        live.start_recording(2);
        live.step_n(6);
        let mut rec = live.stop_recording(ProgramId { name: "dice".into(), files: vec![] }).expect("recording");
        assert_eq!(rec.fbd_recording, 2);
        assert!(dice().replay(&rec, true).expect("replays").is_none());
        // The same run as an older build wrote it.
        let mut old = dice();
        let v2 = rec.hashes.clone();
        rec.fbd_recording = 1;
        for (scan, hash) in &mut rec.hashes {
            old.step_n(*scan - old.scan);
            *hash = format!("{:016x}", old.state_hash_for(1));
        }
        assert!(rec.hashes.iter().zip(&v2).all(|(a, b)| a.1 != b.1), "the two versions hash differently");
        let rec = Recording::from_json(&rec.to_json()).expect("version 1 is read");
        assert!(dice().replay(&rec, true).expect("replays").is_none());
        let mut playing = dice();
        playing.start_playback(rec).expect("plays");
        playing.step_n(6);
        assert_eq!(playing.playback().expect("on").divergence, None);
    }
}
