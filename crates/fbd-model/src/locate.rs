//! Finds the line and column of a JSON value from its path (a JSON pointer), so that errors found
//! after parsing (unknown pin, type mismatch, cycles) can still name the place in the file.
//!
//! serde_json keeps no spans once a document is parsed; instead of a second parser with spans we
//! walk the (already valid) text once along the path. Only called on the error path.

/// One step of a path into a JSON document.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// Builds a path (an array of [`Seg`]) from keys and indices: `json_path!["blocks", 3usize, "inputs", "in"]`.
#[macro_export]
macro_rules! json_path {
    ($($s:expr),* $(,)?) => { [$($crate::locate::Seg::from($s)),*] };
}

impl From<&str> for Seg {
    fn from(s: &str) -> Seg {
        Seg::Key(s.to_string())
    }
}
impl From<String> for Seg {
    fn from(s: String) -> Seg {
        Seg::Key(s)
    }
}
impl From<&String> for Seg {
    fn from(s: &String) -> Seg {
        Seg::Key(s.clone())
    }
}
impl From<usize> for Seg {
    fn from(i: usize) -> Seg {
        Seg::Index(i)
    }
}

/// Returns the 1-based (line, column) where the value at `path` starts, or the deepest prefix
/// of the path that exists. `None` only if the text is not JSON at all.
pub fn locate(text: &str, path: &[Seg]) -> Option<(usize, usize)> {
    locate_from(text, 0, path).map(|o| line_col(text, o))
}

/// The byte offset where the value at `path` starts, walking from the value at `start`.
fn locate_from(text: &str, start: usize, path: &[Seg]) -> Option<usize> {
    walk_path(text, start, path, false)
}

/// The byte range of the value at `path`, if the path exists exactly (for tools that rewrite
/// one value of a file and keep the rest of its text as it is).
pub fn value_span(text: &str, path: &[Seg]) -> Option<(usize, usize)> {
    let start = walk_path(text, 0, path, true)?;
    let mut w = Walker { b: text.as_bytes(), i: start };
    w.skip_value()?;
    Some((start, w.i))
}

/// Walks `path` from the value at `start`; with `exact`, a missing step is `None`, otherwise
/// the deepest existing prefix's offset.
fn walk_path(text: &str, start: usize, path: &[Seg], exact: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut p = Walker { b: bytes, i: start };
    p.ws();
    let mut best = p.i;
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if p.peek() != Some(b'{') {
                    break;
                }
                p.i += 1;
                let mut found = false;
                loop {
                    p.ws();
                    match p.peek() {
                        Some(b'"') => {}
                        _ => break,
                    }
                    let key_start = p.i;
                    let key = p.string()?;
                    p.ws();
                    if p.peek() != Some(b':') {
                        return Some(best);
                    }
                    p.i += 1;
                    p.ws();
                    if key == *k {
                        let _ = key_start;
                        found = true;
                        break;
                    }
                    p.skip_value()?;
                    p.ws();
                    if p.peek() == Some(b',') {
                        p.i += 1;
                    }
                }
                if !found {
                    if exact {
                        return None;
                    }
                    break;
                }
                best = p.i;
            }
            Seg::Index(n) => {
                if p.peek() != Some(b'[') {
                    break;
                }
                p.i += 1;
                let mut idx = 0;
                let mut found = false;
                loop {
                    p.ws();
                    if p.peek() == Some(b']') || p.peek().is_none() {
                        break;
                    }
                    if idx == *n {
                        found = true;
                        break;
                    }
                    p.skip_value()?;
                    p.ws();
                    if p.peek() == Some(b',') {
                        p.i += 1;
                    }
                    idx += 1;
                }
                if !found {
                    if exact {
                        return None;
                    }
                    break;
                }
                best = p.i;
            }
        }
    }
    Some(best)
}

/// Positions of a whole file, built once on the error path so that thousands of errors cost
/// one pass over the text rather than one each: the start of every line and of every array
/// element near the top (blocks, ports, macros, macro bodies), from which a path is walked.
#[derive(Debug)]
pub struct Positions {
    lines: LineIndex,
    elems: rustc_hash::FxHashMap<Vec<Seg>, usize>,
    /// Characters before every 1024th byte, so that a column in a long line (a minified file
    /// is one line) costs at most 1024 bytes of counting.
    chars_before: Vec<usize>,
}

/// Characters in a byte range that may start or end inside a character: the bytes that do not
/// continue a UTF-8 sequence.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

impl Positions {
    /// Indexes `text`.
    pub fn build(text: &str) -> Positions {
        let mut elems = rustc_hash::FxHashMap::default();
        let mut w = Walker { b: text.as_bytes(), i: 0 };
        let _ = index_elems(&mut w, &mut Vec::new(), &mut |path, offset| {
            elems.insert(path.to_vec(), offset);
        });
        let mut chars_before = vec![0];
        for chunk in text.as_bytes().chunks(1024) {
            chars_before.push(chars_before.last().copied().unwrap_or(0) + chars_in(chunk));
        }
        Positions { lines: LineIndex::new(text), elems, chars_before }
    }

    /// Like [`locate`], in time proportional to the part of the path below its nearest indexed
    /// array element.
    pub fn locate(&self, text: &str, path: &[Seg]) -> Option<(usize, usize)> {
        for cut in (1..=path.len()).rev() {
            if let Seg::Index(_) = path[cut - 1]
                && let Some(&off) = self.elems.get(&path[..cut])
            {
                return locate_from(text, off, &path[cut..]).map(|o| self.pos(text, o));
            }
        }
        locate_from(text, 0, path).map(|o| self.pos(text, o))
    }

    /// 1-based line and column (in characters) of a byte offset.
    fn pos(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let (line, _) = self.lines.pos(offset);
        let start = self.lines.starts[line - 1];
        let char_index = |o: usize| self.chars_before[o / 1024] + chars_in(&text.as_bytes()[o / 1024 * 1024..o]);
        (line, char_index(offset) - char_index(start) + 1)
    }
}

/// Calls `found(path, offset)` for every array element whose path (before its index) is at most
/// 3 deep: blocks, ports, macros, macro bodies. One walker for the error index and for the
/// blocks' lines.
fn index_elems(w: &mut Walker, path: &mut Vec<Seg>, found: &mut dyn FnMut(&[Seg], usize)) -> Option<()> {
    w.ws();
    if path.len() > 4 {
        return w.skip_value();
    }
    match w.peek()? {
        b'{' => {
            w.i += 1;
            loop {
                w.ws();
                if w.peek()? == b'}' {
                    w.i += 1;
                    return Some(());
                }
                let key = w.string()?;
                w.ws();
                if w.peek()? != b':' {
                    return None;
                }
                w.i += 1;
                path.push(Seg::Key(key));
                index_elems(w, path, found)?;
                path.pop();
                w.ws();
                if w.peek()? == b',' {
                    w.i += 1;
                }
            }
        }
        b'[' => {
            w.i += 1;
            let mut k = 0;
            loop {
                w.ws();
                if w.peek()? == b']' {
                    w.i += 1;
                    return Some(());
                }
                path.push(Seg::Index(k));
                if path.len() <= 4 {
                    found(path, w.i);
                }
                index_elems(w, path, found)?;
                path.pop();
                w.ws();
                if w.peek()? == b',' {
                    w.i += 1;
                }
                k += 1;
            }
        }
        _ => w.skip_value(),
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// Byte offsets of the start of each line, to turn many offsets into positions quickly.
#[derive(Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// 1-based line and (byte) column of an offset.
    pub fn pos(&self, offset: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&s| s <= offset);
        (line, offset - self.starts[line - 1] + 1)
    }
}

/// Where a block is: `(None, i)` for `blocks[i]` of the program, `(Some(m), i)` for
/// `macros[m].blocks[i]`.
pub type BlockKey = (Option<usize>, usize);

/// The key of a block's JSON path, if it is a block path.
pub fn block_key(path: &[Seg]) -> Option<BlockKey> {
    match path {
        [Seg::Key(b), Seg::Index(i)] if b == "blocks" => Some((None, *i)),
        [Seg::Key(m), Seg::Index(mi), Seg::Key(b), Seg::Index(i)] if m == "macros" && b == "blocks" => {
            Some((Some(*mi), *i))
        }
        _ => None,
    }
}

/// Positions (line, column) of every block of the program and of every macro body, by index;
/// 8 bytes a block (the loader's file limit keeps lines and columns far below 2^32).
#[derive(Debug, Default)]
pub struct BlockPositions {
    root: Vec<(u32, u32)>,
    macros: Vec<Vec<(u32, u32)>>,
}

impl BlockPositions {
    /// The position of a block.
    pub fn get(&self, key: &BlockKey) -> Option<(usize, usize)> {
        let &(line, col) = match key.0 {
            None => self.root.get(key.1),
            Some(m) => self.macros.get(m)?.get(key.1),
        }?;
        Some((line as usize, col as usize))
    }

    /// How many blocks were found.
    pub fn len(&self) -> usize {
        self.root.len() + self.macros.iter().map(Vec::len).sum::<usize>()
    }

    /// Whether no block was found.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Positions of every block of the program and of every macro body, found in one pass: what
/// the compiler needs to give each expanded block its line.
pub fn block_positions(text: &str) -> BlockPositions {
    let mut out = BlockPositions::default();
    let idx = LineIndex::new(text);
    let mut w = Walker { b: text.as_bytes(), i: 0 };
    // Only `blocks[i]` and `macros[m].blocks[i]` are visited; everything else is skipped
    // without allocating (this runs over the whole text of every compiled file).
    let blocks = |w: &mut Walker, into: &mut Vec<(u32, u32)>| {
        w.array(&mut |w, _| {
            let (line, col) = idx.pos(w.i);
            into.push((line as u32, col as u32));
            w.skip_value()
        })
    };
    let BlockPositions { root, macros } = &mut out;
    let _ = w.object(&mut |w, key| match key {
        b"blocks" => blocks(w, root),
        b"macros" => w.array(&mut |w, _| {
            macros.push(Vec::new());
            if w.peek()? != b'{' {
                return w.skip_value();
            }
            let into = macros.last_mut()?;
            w.object(&mut |w, key| if key == b"blocks" { blocks(w, into) } else { w.skip_value() })
        }),
        _ => w.skip_value(),
    });
    out
}

struct Walker<'a> {
    b: &'a [u8],
    i: usize,
}

impl Walker<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }
    /// Reads a string token and returns its unescaped-enough content (escapes kept verbatim
    /// except `\"` and `\\`, which is all that block ids and pin names can contain in practice).
    fn string(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let c = self.peek()?;
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = self.peek()?;
                    self.i += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        _ => {
                            out.push(b'\\');
                            out.push(e)
                        }
                    }
                }
                _ => out.push(c),
            }
        }
        String::from_utf8(out).ok()
    }
    /// Skips a string token without building it.
    /// Walks an object, calling `f` with each key (raw, escapes kept) before its value; `f`
    /// must consume the value.
    fn object(&mut self, f: &mut dyn FnMut(&mut Self, &[u8]) -> Option<()>) -> Option<()> {
        self.ws();
        if self.peek()? != b'{' {
            return None;
        }
        self.i += 1;
        loop {
            self.ws();
            match self.peek()? {
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                b'"' => {}
                _ => return None,
            }
            let b = self.b;
            let start = self.i + 1;
            self.skip_string()?;
            let key = &b[start..self.i - 1];
            self.ws();
            if self.peek()? != b':' {
                return None;
            }
            self.i += 1;
            self.ws();
            f(self, key)?;
            self.ws();
            if self.peek()? == b',' {
                self.i += 1;
            }
        }
    }

    /// Walks an array, calling `f` with each element's index at the element's first byte; `f`
    /// must consume the element.
    fn array(&mut self, f: &mut dyn FnMut(&mut Self, usize) -> Option<()>) -> Option<()> {
        self.ws();
        if self.peek()? != b'[' {
            return self.skip_value();
        }
        self.i += 1;
        let mut k = 0;
        loop {
            self.ws();
            if self.peek()? == b']' {
                self.i += 1;
                return Some(());
            }
            f(self, k)?;
            k += 1;
            self.ws();
            if self.peek()? == b',' {
                self.i += 1;
            }
        }
    }

    fn skip_string(&mut self) -> Option<()> {
        self.i += 1;
        loop {
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                b'\\' => self.i += 2,
                _ => self.i += 1,
            }
        }
    }

    fn skip_value(&mut self) -> Option<()> {
        self.ws();
        match self.peek()? {
            b'"' => {
                self.skip_string()?;
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.skip_string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
            }
            _ => {
                while !matches!(self.peek(), None | Some(b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')) {
                    self.i += 1;
                }
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_values() {
        let t = "{\n  \"a\": 1,\n  \"blocks\": [\n    {\"id\": \"x\"},\n    {\"id\": \"y\", \"inputs\": {\"in\": \"x.q\"}}\n  ]\n}";
        assert_eq!(locate(t, &json_path!["blocks", 1usize]), Some((5, 5)));
        assert_eq!(locate(t, &json_path!["blocks", 1usize, "inputs", "in"]), Some((5, 34)));
        // A missing member falls back to the deepest existing prefix.
        assert_eq!(locate(t, &json_path!["blocks", 1usize, "nope"]), Some((5, 5)));
        assert_eq!(locate(t, &json_path!["blocks", 7usize]), Some((3, 13)));
        let idx = Positions::build(t);
        for path in [
            &json_path!["blocks", 1usize][..],
            &json_path!["blocks", 1usize, "inputs", "in"],
            &json_path!["blocks", 1usize, "nope"],
            &json_path!["blocks", 7usize],
            &json_path!["a"],
        ] {
            assert_eq!(idx.locate(t, path), locate(t, path), "{path:?}");
        }
        // Columns count characters, also far into one long line after multi-byte ones.
        let wide = format!("{{\"d\": \"{}\", \"blocks\": [{{\"id\": \"x\"}}]}}", "ä€".repeat(2000));
        let p = json_path!["blocks", 0usize, "id"];
        assert_eq!(Positions::build(&wide).locate(&wide, &p), locate(&wide, &p));
        assert_eq!(locate(&wide, &p), Some((1, 4029)));
        let all = block_positions(t);
        assert_eq!(all.get(&(None, 1)), Some((5, 5)));
        assert_eq!(all.len(), 2);
    }
}
