//! Timed writes of `fbd run`: `--set PATH=VALUE@SCAN` and the stimulus file (`SCAN
//! PATH=VALUE` per line), read line by line into a compact timeline (24 bytes an event, grown
//! by chunks) and given back in scan order. Depends on the engine only, so the fuzz target
//! `stimulus` reads this very file.

use fbd_engine::{Runtime, Value};

pub(crate) struct Stim {
    pub(crate) scan: u64,
    pub(crate) path: String,
    pub(crate) value: String,
    pub(crate) origin: String,
}

/// `PATH=VALUE[@SCAN]`. A path may hold `@` (`acc.out@prev`), a value never does, so the
/// scan is looked for after the `=`. `scan` is `None` when not given.
pub(crate) fn parse_set(text: &str, origin: String) -> Result<(Stim, Option<u64>), String> {
    let (path, rhs) =
        text.split_once('=').ok_or_else(|| format!("{origin}: expected PATH=VALUE[@SCAN], got `{text}`"))?;
    // The scan is after the last `@` that is not inside a STRING ('a@b').
    let at = unquoted(rhs).filter(|&(_, c)| c == '@').last().map(|(k, _)| k);
    let (value, scan) = match at.map(|k| (&rhs[..k], &rhs[k + 1..])) {
        Some((v, s)) => {
            (v, Some(s.trim().parse::<u64>().map_err(|_| format!("{origin}: `{s}` is not a scan number"))?))
        }
        None => (rhs, None),
    };
    Ok((Stim { scan: scan.unwrap_or(0), path: path.trim().to_string(), value: value.trim().to_string(), origin }, scan))
}

/// The characters of `text` outside IEC string literals (`'…'`, `"…"`, where `$` escapes the
/// next character), with their byte offsets.
fn unquoted(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    text.char_indices().filter(move |&(_, c)| match quote {
        Some(_) if escaped => {
            escaped = false;
            false
        }
        Some(_) if c == '$' => {
            escaped = true;
            false
        }
        Some(q) => {
            if c == q {
                quote = None;
            }
            false
        }
        None if c == '\'' || c == '"' => {
            quote = Some(c);
            false
        }
        None => true,
    })
}

/// A stimulus line without its comment: from a `#` that begins the line or follows a space,
/// outside a STRING. A `#` inside a literal (`16#FF`, `2#1010`, `T#5s`, `INT#3`) always follows
/// a letter or digit, so it stays.
fn without_comment(line: &str) -> &str {
    let mut prev = ' ';
    for (k, c) in unquoted(line) {
        if c == '#' && prev.is_whitespace() {
            return &line[..k];
        }
        prev = c;
    }
    line
}

/// Where a timed write comes from: the k-th `--set`, or a line of the stimulus file.
#[derive(Copy, Clone)]
pub(crate) enum Origin {
    Set(u32),
    Line(u32),
}

/// One timed write: 24 bytes (a 250 MB stimulus file of 13.6 million lines took 1.5 GB and
/// more as strings per line).
#[derive(Copy, Clone)]
pub(crate) struct Event {
    pub(crate) scan: u64,
    /// The value's bits in its signal's bank (a BOOL as 0/1, an integer, a float's bits; a
    /// STRING's index in [`Timeline::strings`]).
    bits: u64,
    /// Index of its signal in [`Timeline::paths`].
    pub(crate) path: u32,
    /// The `--set` number with the top bit set, or the stimulus line.
    pub(crate) origin: u32,
}

/// Events per chunk: the timeline grows by chunks, never copied whole to grow.
const CHUNK: usize = 1 << 16;

/// The timed writes of a run, compact and grown by chunks (memory about 24 bytes a line, no
/// doubling on growth), the stimulus file read line by line.
#[derive(Default)]
pub(crate) struct Timeline {
    paths: Vec<String>,
    types: Vec<fbd_engine::Type>,
    index: std::collections::HashMap<String, u32>,
    pub(crate) chunks: Vec<Vec<Event>>,
    /// The values of the STRING events, which do not fit in their 64 bits.
    strings: Vec<fbd_engine::IecString>,
    /// Whether the events came in scan order (a stimulus file usually is): then no sort.
    unsorted: bool,
}

impl Timeline {
    pub(crate) fn push(&mut self, scan: u64, path: &str, ty: fbd_engine::Type, origin: Origin, v: Value) {
        let k = match self.index.get(path) {
            Some(&k) => k,
            None => {
                self.paths.push(path.to_string());
                self.types.push(ty);
                self.index.insert(path.to_string(), self.paths.len() as u32 - 1);
                self.paths.len() as u32 - 1
            }
        };
        let bits = match v {
            Value::Bool(b) => b as u64,
            Value::Real(r) => r.to_bits(),
            Value::Str(s) => {
                self.strings.push(s);
                self.strings.len() as u64 - 1
            }
            v => v.as_i64().unwrap_or(0) as u64,
        };
        let origin = match origin {
            Origin::Set(n) => n | 1 << 31,
            Origin::Line(n) => n,
        };
        if self.chunks.last().and_then(|c| c.last()).is_some_and(|e| e.scan > scan) {
            self.unsorted = true;
        }
        if self.chunks.last().is_none_or(|c| c.len() == CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        if let Some(c) = self.chunks.last_mut() {
            c.push(Event { scan, bits, path: k, origin });
        }
    }

    /// The chunks, each in scan order (sorted in place, stably, when the events came out of
    /// order), for [`Ordered`] to merge; the signals' paths and types.
    pub(crate) fn into_sorted_chunks(mut self) -> SortedTimeline {
        if self.unsorted {
            for c in &mut self.chunks {
                c.sort_by_key(|e| e.scan);
            }
        }
        SortedTimeline { chunks: self.chunks, paths: self.paths, types: self.types, strings: self.strings }
    }
}

/// A timeline whose chunks are each in scan order.
pub(crate) struct SortedTimeline {
    pub(crate) chunks: Vec<Vec<Event>>,
    pub(crate) paths: Vec<String>,
    types: Vec<fbd_engine::Type>,
    strings: Vec<fbd_engine::IecString>,
}

impl SortedTimeline {
    /// An event's value.
    pub(crate) fn value(&self, e: &Event) -> Value {
        let ty = self.types[e.path as usize];
        match ty.bank() {
            fbd_engine::Bank::Bool => Value::Bool(e.bits != 0),
            fbd_engine::Bank::Real => Value::Real(f64::from_bits(e.bits)),
            fbd_engine::Bank::Int => ty.int_value(e.bits as i64),
            fbd_engine::Bank::Str => Value::Str(self.strings[e.bits as usize]),
        }
    }
}

/// The events of sorted chunks in scan order, those of one scan in the order written (chunk,
/// then place in it): a merge of the chunks' heads, no copy of the timeline.
pub(crate) struct Ordered<'a> {
    chunks: &'a [Vec<Event>],
    heads: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize, usize)>>,
}

impl<'a> Ordered<'a> {
    pub(crate) fn new(chunks: &'a [Vec<Event>]) -> Self {
        let heads = chunks
            .iter()
            .enumerate()
            .filter_map(|(c, v)| v.first().map(|e| std::cmp::Reverse((e.scan, c, 0))))
            .collect();
        Ordered { chunks, heads }
    }
}

impl<'a> Iterator for Ordered<'a> {
    type Item = &'a Event;
    fn next(&mut self) -> Option<&'a Event> {
        let std::cmp::Reverse((_, c, i)) = self.heads.pop()?;
        if let Some(e) = self.chunks[c].get(i + 1) {
            self.heads.push(std::cmp::Reverse((e.scan, c, i + 1)));
        }
        Some(&self.chunks[c][i])
    }
}

/// Reads the stimulus file `path` line by line into `timeline` (each line checked with
/// `value`; every error into `errors`, with its line).
pub(crate) fn load_stimulus(
    path: &std::path::Path,
    errors: &mut Vec<String>,
    value: impl Fn(&Stim) -> Result<Value, String>,
    type_of: impl Fn(&str) -> fbd_engine::Type,
    timeline: &mut Timeline,
) {
    let file = match open_bounded(path) {
        Ok(f) => f,
        Err(e) => {
            errors.push(format!("stimulus {}: cannot read the file: {e}", path.display()));
            return;
        }
    };
    let reader = std::io::BufReader::with_capacity(1 << 16, file);
    read_stimulus(reader, &path.display().to_string(), errors, value, type_of, timeline);
}

/// Reads stimulus lines from `reader` (named `name` in errors) into `timeline`, as
/// [`load_stimulus`] does for a file.
pub(crate) fn read_stimulus(
    mut reader: impl std::io::BufRead,
    name: &str,
    errors: &mut Vec<String>,
    value: impl Fn(&Stim) -> Result<Value, String>,
    type_of: impl Fn(&str) -> fbd_engine::Type,
    timeline: &mut Timeline,
) {
    let mut buf = Vec::new();
    let mut n: u32 = 0;
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                errors.push(format!("stimulus {name}: cannot read the file: {e}"));
                return;
            }
        }
        n += 1;
        let bytes = if n == 1 { buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&buf) } else { &buf[..] };
        let line = match std::str::from_utf8(bytes) {
            Ok(l) => l,
            Err(e) => {
                let col = String::from_utf8_lossy(&bytes[..e.valid_up_to()]).chars().count() + 1;
                errors.push(format!(
                    "stimulus {name}:{n}:{col}: byte 0x{:02X} is not valid UTF-8",
                    bytes[e.valid_up_to()]
                ));
                continue;
            }
        };
        let line = without_comment(line).trim();
        if line.is_empty() {
            continue;
        }
        let origin = || format!("{name}:{n}");
        let stim = (|| {
            let (scan, rest) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| format!("{}: expected `SCAN PATH=VALUE`", origin()))?;
            let scan: u64 = scan.parse().map_err(|_| format!("{}: `{scan}` is not a scan number", origin()))?;
            let (mut s, at) = parse_set(rest.trim(), origin())?;
            if at.is_some() {
                return Err(format!("{}: the scan is the line's first field; remove `@SCAN`", s.origin));
            }
            s.scan = scan;
            let v = value(&s)?;
            Ok((s, v))
        })();
        match stim {
            Ok((s, v)) => timeline.push(s.scan, &s.path, type_of(&s.path), Origin::Line(n), v),
            Err(e) => errors.push(e),
        }
    }
}

/// `path` opened for reading if it is a regular file within the size a stimulus may have.
fn open_bounded(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let what = if meta.is_dir() { "a directory" } else { "not a regular file (a device, FIFO or socket)" };
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{what}; only regular files are read"),
        ));
    }
    let limit = fbd_engine::limits::MAX_FILE_BYTES;
    if meta.len() > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} bytes, more than the {} MiB a stimulus may have", meta.len(), limit >> 20),
        ));
    }
    std::fs::File::open(path)
}

/// The value `text` written for signal `path` (a --set, a stimulus line: `origin`), of its type.
pub(crate) fn value_for(rt: &Runtime, path: &str, text: &str, origin: &str) -> Result<Value, String> {
    let sig = rt
        .plan()
        .signal(path)
        .ok_or_else(|| format!("{origin}: {}", rt.read(path).err().map(|e| e.to_string()).unwrap_or_default()))?;
    Value::parse(text, sig.slot.ty).map_err(|e| format!("{origin}: {path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::{parse_set, without_comment};

    #[test]
    fn a_hash_in_a_literal_is_no_comment() {
        assert_eq!(without_comment("0 i=16#FF"), "0 i=16#FF");
        assert_eq!(without_comment("0 b=2#1010 # binary"), "0 b=2#1010 ");
        assert_eq!(without_comment("0 t=T#1s500ms"), "0 t=T#1s500ms");
        assert_eq!(without_comment("# a whole line"), "");
        assert_eq!(without_comment("0 s='a #b' # the comment"), "0 s='a #b' ");
        assert_eq!(without_comment("0 s='it$'s #1'"), "0 s='it$'s #1'");
        assert_eq!(without_comment("0 s=\"x # y\"\t# tab"), "0 s=\"x # y\"\t");
    }

    #[test]
    fn an_at_inside_a_string_is_no_scan() {
        let (s, at) = parse_set("msg='a@b'@3", "t".into()).expect("parses");
        assert_eq!((s.value.as_str(), at), ("'a@b'", Some(3)));
        let (s, at) = parse_set("msg='a@b'", "t".into()).expect("parses");
        assert_eq!((s.value.as_str(), at), ("'a@b'", None));
    }
}
