//! Reading diagram files: JSON parsing with positions, `include` resolution, macro tables.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics};
use crate::json_path;
use crate::library;
use crate::locate::{Seg, locate};
use crate::model::{
    BASE_VERSION, Block, DataTypes, DocumentOf, FORMAT_VERSION, LADDER_VERSION, LeanBlock, MacroDefOf, MigrateBlock,
    ST_VERSION, TASKS_VERSION, Variable,
};
use serde::de::DeserializeOwned;

/// Where diagram text comes from: the file system, or a set of embedded files.
pub trait SourceProvider {
    /// Reads the file at `path` (already joined with the including file's directory).
    fn read(&self, path: &Path) -> std::io::Result<String>;

    /// Reads the file's bytes; the loader decodes them itself so that a bad byte gets a line
    /// and column. By default the text from [`SourceProvider::read`].
    fn read_bytes(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        self.read(path).map(String::into_bytes)
    }
}

/// Largest file the loader reads (diagrams, includes, stimulus files): 256 MiB. The largest
/// program the compiler accepts (2,000,000 blocks) is about 150 MB of compact JSON
/// (`fbd-engine/examples/synth.rs`: 76 MB for 1,000,000 blocks).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads at most `limit` bytes of a regular file. Directories, devices, FIFOs and sockets are
/// refused before they are opened (reading `/dev/zero` would never end, opening a FIFO blocks);
/// a file that grows past the limit while being read (`/proc` files report size 0) is refused
/// once the limit is passed.
pub fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let what = if meta.is_dir() { "a directory" } else { "not a regular file (a device, FIFO or socket)" };
        return Err(Error::new(ErrorKind::InvalidInput, format!("{what}; only regular files are read")));
    }
    let too_big = |n: u64| {
        Error::new(
            ErrorKind::InvalidData,
            format!("the file is {n} bytes or more, larger than the limit of {} MiB", limit >> 20),
        )
    };
    if meta.len() > limit {
        return Err(too_big(meta.len()));
    }
    let mut buf = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)?.take(limit + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(too_big(buf.len() as u64));
    }
    Ok(buf)
}

/// Decodes a file's bytes as UTF-8 text: a byte-order mark is dropped (editors on Windows
/// write one), and a byte that is not UTF-8 is an error at its line and column.
pub fn decode(path: &Path, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let text = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
        let line = text.matches('\n').count() + 1;
        let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Diagnostic::new(path, format!("byte 0x{:02X} is not valid UTF-8", bytes[good]))
            .at(Some((line, col)))
            .help("diagrams, PLCopen files and recordings are UTF-8 text; save the file as UTF-8")
    })
}

/// Reads a text file the way the loader does: bounded, regular files only, UTF-8 with a line
/// and column for a bad byte. For clients that read other files next to diagrams (stimulus).
pub fn read_text(path: &Path) -> Result<String, Diagnostic> {
    let bytes =
        read_bounded(path, MAX_FILE_BYTES).map_err(|e| Diagnostic::new(path, format!("cannot read the file: {e}")))?;
    decode(path, bytes)
}

pub use crate::write::{write_text, write_texts, write_with};

/// The directory `path` would be written in, if it is one.
pub(crate) fn directory_of(path: &Path) -> std::io::Result<&Path> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        let why = if dir.exists() { "is not a directory" } else { "does not exist" };
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("the directory {} {why}", dir.display()),
        ));
    }
    Ok(dir)
}

/// Checks, before any work, that [`write_text`] (or a plain create) could write `path`: its
/// directory exists and takes a new file, and `path` is not a directory. For files written
/// at the end of a long run (a recording after a game played in the terminal): finding out
/// then loses the run. Nothing is left behind.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let dir = directory_of(path)?;
    if path.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "it is a directory"));
    }
    tempfile::Builder::new().prefix(".fbd-write-").suffix(".tmp").tempfile_in(dir).map(drop).map_err(|e| {
        let e = e.raw_os_error().map(std::io::Error::from_raw_os_error).unwrap_or(e);
        std::io::Error::new(e.kind(), format!("cannot create a file in {}: {e}", dir.display()))
    })
}

/// Reads files from disk.
#[derive(Copy, Clone, Debug, Default)]
pub struct FsProvider;

impl SourceProvider for FsProvider {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        let bytes = self.read_bytes(path)?;
        String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }
    fn read_bytes(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        read_bounded(path, MAX_FILE_BYTES)
    }
}

/// Files held in memory, keyed by normalised path (e.g. diagrams embedded in a binary).
#[derive(Clone, Debug, Default)]
pub struct MemProvider {
    files: HashMap<PathBuf, String>,
}

impl MemProvider {
    /// An empty set.
    pub fn new() -> MemProvider {
        MemProvider::default()
    }
    /// Adds a file.
    pub fn with(mut self, path: impl AsRef<Path>, text: impl Into<String>) -> MemProvider {
        self.files.insert(normalize(path.as_ref()), text.into());
        self
    }
}

impl SourceProvider for MemProvider {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        self.files
            .get(&normalize(path))
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such embedded file"))
    }
}

/// Removes `.` and resolves `..` lexically, so the same file reached two ways is one file.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            // `a/..` is nothing; a `..` that has no name before it to undo stays (popping the
            // `..` before it made `../../t.json` into `t.json`).
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                // Above the root is the root.
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// One parsed file, its blocks as [`Block`]s.
pub type SourceFile = SourceFileOf<Block>;

/// One parsed file whose blocks are `B`s.
#[derive(Debug)]
pub struct SourceFileOf<B> {
    /// Path as reached (normalised).
    pub path: PathBuf,
    /// The text, kept to locate errors found after parsing.
    pub text: String,
    /// The parsed document.
    pub doc: DocumentOf<B>,
    /// Positions of the text, built on the first error that needs one.
    pub positions: std::sync::OnceLock<crate::locate::Positions>,
}

impl<B> SourceFileOf<B> {
    /// What a tool tells the user about this file when it was written in an older format
    /// version (read with the same behaviour under the new names).
    pub fn notice(&self) -> Option<String> {
        let v = self.doc.migrated_from?;
        (v < BASE_VERSION).then(|| {
            format!(
                "{}: format version {v}, read as version {BASE_VERSION} ({}); `fbd fmt` writes it in version {BASE_VERSION}",
                self.path.display(),
                self.doc.migration_notes.join("; ")
            )
        })
    }
}

/// A program and every file it includes, its blocks as [`Block`]s: what tools read and edit.
pub type Project = ProjectOf<Block>;

/// A program and every file it includes, with its macro table; its blocks are `B`s
/// ([`LeanBlock`]s when loaded for the compiler: [`load_lean`]).
#[derive(Debug)]
pub struct ProjectOf<B> {
    /// Files; index 0 is the root (the program).
    pub files: Vec<SourceFileOf<B>>,
    /// Macro name → (file index, index in that file's `macros`).
    pub macros: HashMap<String, (usize, usize)>,
}

impl<B> ProjectOf<B> {
    /// The position of `path` inside file `file`, for a diagnostic.
    pub fn pos(&self, file: usize, path: &[Seg]) -> Option<(usize, usize)> {
        let f = &self.files[file];
        f.positions.get_or_init(|| crate::locate::Positions::build(&f.text)).locate(&f.text, path)
    }

    /// A diagnostic located at `path` in `file`.
    pub fn diag(&self, file: usize, path: &[Seg], message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(&self.files[file].path, message).at(self.pos(file, path))
    }

    /// The definition of macro `name`.
    pub fn macro_def(&self, name: &str) -> Option<(usize, usize, &MacroDefOf<B>)> {
        self.macros.get(name).map(|&(f, m)| (f, m, &self.files[f].doc.macros[m]))
    }

    /// What a tool says of the files read in an older format version ([`SourceFileOf::notice`]).
    pub fn notices(&self) -> Vec<String> {
        self.files.iter().filter_map(SourceFileOf::notice).collect()
    }

    /// The root document.
    pub fn root(&self) -> &DocumentOf<B> {
        &self.files[0].doc
    }

    /// The same project with each block turned into a `C` by `f`, file by file, so that a
    /// file's blocks are dropped as the next file's are turned.
    pub fn map_blocks<C>(self, mut f: impl FnMut(B) -> C) -> ProjectOf<C> {
        let files = self
            .files
            .into_iter()
            .map(|sf| SourceFileOf {
                path: sf.path,
                text: sf.text,
                doc: sf.doc.map_blocks(&mut f),
                positions: sf.positions,
            })
            .collect();
        ProjectOf { files, macros: self.macros }
    }
}

impl ProjectOf<Block> {
    /// The project as the compiler reads it, leaving this one as it is (its texts are copied).
    pub fn to_lean(&self) -> ProjectOf<LeanBlock> {
        let files = self
            .files
            .iter()
            .map(|sf| SourceFileOf {
                path: sf.path.clone(),
                text: sf.text.clone(),
                doc: sf.doc.clone().map_blocks(&mut LeanBlock::from),
                positions: Default::default(),
            })
            .collect();
        ProjectOf { files, macros: self.macros.clone() }
    }

    /// The input and output pin names of a block as drawn: a library block's fixed pins plus
    /// the variadic ones it connects (outputs from `params.n`), or a macro's ports. An unknown
    /// type gives its connected inputs and no outputs.
    pub fn block_pins(&self, b: &Block) -> (Vec<String>, Vec<String>) {
        // A wired EN is the first input, where IEC 61131-3 draws it.
        let en = b.inputs.0.iter().any(|(p, _)| p == library::ENABLE);
        if let Some(def) = library::lookup(&b.ty) {
            let mut ins: Vec<String> = en.then(|| library::ENABLE.to_string()).into_iter().collect();
            ins.extend(def.inputs.iter().map(|p| p.name.to_string()));
            for (p, _) in &b.inputs.0 {
                if !ins.contains(p) {
                    ins.push(p.clone());
                }
            }
            let mut outs: Vec<String> = def.outputs.iter().map(|p| p.name.to_string()).collect();
            if let Some(v) = def.var_outputs {
                outs.extend((0..b.params.n.unwrap_or(0) as usize).map(|k| format!("{}{}", v.prefix, v.first + k)));
            }
            (ins, outs)
        } else if let Some((_, _, m)) = self.macro_def(&b.ty) {
            let own_en = en && !m.inputs.iter().any(|p| p.name == library::ENABLE);
            let ins =
                own_en.then(|| library::ENABLE.to_string()).into_iter().chain(m.inputs.iter().map(|p| p.name.clone()));
            (ins.collect(), m.outputs.iter().map(|p| p.name.clone()).collect())
        } else {
            (b.inputs.0.iter().map(|(p, _)| p.clone()).collect(), Vec::new())
        }
    }
}

/// Parses one document, turning serde errors into a located diagnostic.
pub fn parse_document(path: &Path, text: &str) -> Result<DocumentOf<Block>, Diagnostic> {
    parse_document_as(path, text)
}

/// Parses one document with its blocks as `B`s: an object, read by serde, brought to the
/// current format version.
fn parse_document_as<B: DeserializeOwned + MigrateBlock>(path: &Path, text: &str) -> Result<DocumentOf<B>, Diagnostic> {
    refuse_non_object(path, text)?;
    let mut doc: DocumentOf<B> = serde_json::from_str(text).map_err(|e| json_error(path, &e))?;
    match doc.fbd {
        v @ (BASE_VERSION..=FORMAT_VERSION) if doc.version_needed() > v => {
            let needed = doc.version_needed();
            let what = match needed {
                TASKS_VERSION => "`tasks` are",
                LADDER_VERSION => "`variables` and `ladder` are",
                ST_VERSION => "Structured Text (`st`) is",
                _ => "user data types (`types`) are",
            };
            return Err(Diagnostic::new(
                path,
                format!("{what} format version {needed}: write \"fbd\": {needed} (an older engine then says it cannot read the file, instead of running it without them)"),
            )
            .at(locate(text, &json_path!["fbd"])));
        }
        BASE_VERSION..=FORMAT_VERSION => {}
        1 | 2 => doc.migrate(),
        v => {
            return Err(Diagnostic::new(
                path,
                format!("unsupported format version {v} (this engine reads versions 1 to {FORMAT_VERSION})"),
            )
            .at(locate(text, &json_path!["fbd"])));
        }
    }
    Ok(doc)
}

/// serde accepts a struct written as an array; a diagram is an object: anything else is
/// refused at its first character.
fn refuse_non_object(path: &Path, text: &str) -> Result<(), Diagnostic> {
    match text.char_indices().find(|(_, c)| !c.is_whitespace()) {
        Some((i, c)) if c != '{' => Err(Diagnostic::new(
            path,
            format!("a diagram is a JSON object `{{\"fbd\": 3, ...}}`, but the file starts with `{c}`"),
        )
        .at(Some(crate::locate::line_col(text, i)))
        .help("see docs/diagram-format.md for the layout of a diagram file")),
        _ => Ok(()),
    }
}

/// A serde error as a diagnostic at its line:col, with what to do about it (a syntax error, a
/// recording given for a diagram).
fn json_error(path: &Path, e: &serde_json::Error) -> Diagnostic {
    let pos = if e.line() > 0 { Some((e.line(), e.column().max(1))) } else { None };
    // serde_json appends " at line L column C"; we print the place in front instead.
    let msg = e.to_string();
    let msg = match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    };
    let help = match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            Some("the file is not valid JSON; check commas, quotes and brackets near this place")
        }
        // A recording is JSON too, and its first key is not a diagram's.
        _ if msg.contains("unknown field `fbd_recording`") => {
            Some("this file is a recording, not a diagram: replay it with `fbd replay FILE` (or File > Open recording)")
        }
        _ => None,
    };
    let mut d = Diagnostic::new(path, msg).at(pos);
    if let Some(h) = help {
        d = d.help(h);
    }
    d
}

/// Loads `path` and everything it includes.
pub fn load(provider: &dyn SourceProvider, path: &Path) -> Result<Project, Diagnostics> {
    load_as(provider, path)
}

/// Loads `path` and everything it includes for the compiler: each block is turned into a
/// [`LeanBlock`] as soon as it is read, so a large program never exists as [`Block`]s.
pub fn load_lean(provider: &dyn SourceProvider, path: &Path) -> Result<ProjectOf<LeanBlock>, Diagnostics> {
    load_as(provider, path)
}

fn load_as<B: DeserializeOwned + MigrateBlock>(
    provider: &dyn SourceProvider,
    path: &Path,
) -> Result<ProjectOf<B>, Diagnostics> {
    let path = normalize(path);
    let bytes = provider.read_bytes(&path).map_err(|e| {
        Diagnostics::from(
            Diagnostic::new(&path, format!("cannot read the diagram: {e}"))
                .help("check the path; diagrams are JSON files such as diagrams/2048.json"),
        )
    })?;
    load_text_as(provider, &path, decode(&path, bytes)?)
}

/// Loads a diagram from text; includes are read through `provider`, relative to `path`.
pub fn load_text(provider: &dyn SourceProvider, path: &Path, text: String) -> Result<Project, Diagnostics> {
    load_text_as(provider, path, text)
}

/// [`load_text`] for the compiler, as [`load_lean`].
pub fn load_text_lean(
    provider: &dyn SourceProvider,
    path: &Path,
    text: String,
) -> Result<ProjectOf<LeanBlock>, Diagnostics> {
    load_text_as(provider, path, text)
}

fn load_text_as<B: DeserializeOwned + MigrateBlock>(
    provider: &dyn SourceProvider,
    path: &Path,
    text: String,
) -> Result<ProjectOf<B>, Diagnostics> {
    let path = normalize(path);
    let doc = parse_document_as(&path, &text)?;
    let mut project = ProjectOf {
        files: vec![SourceFileOf { path, text, doc, positions: Default::default() }],
        macros: HashMap::new(),
    };
    let mut errors = Vec::new();
    let mut stack = vec![0usize];
    include_all(provider, &mut project, 0, &mut stack, &mut errors);
    if errors.is_empty() {
        collect_macros(&mut project, &mut errors);
        resolve_types(&mut project, &mut errors);
    }
    if errors.is_empty() { Ok(project) } else { Err(Diagnostics(errors)) }
}

/// A project of one document built in memory (a PLCopen import): loaded as it is, not
/// through a text and a parser. `text` is the document's text for those that keep one (the
/// editor, a recording's file hash); an error found later is located by its block, which the
/// builder of the document places (a JSON path into `text` is no place in the user's file).
pub fn project_of_document(path: &Path, doc: DocumentOf<Block>, text: String) -> Result<Project, Diagnostics> {
    let path = normalize(path);
    if let Some(inc) = doc.include.first() {
        return Err(Diagnostics::from(Diagnostic::new(
            &path,
            format!("a program built in memory includes no file (`{inc}`)"),
        )));
    }
    let mut project =
        Project { files: vec![SourceFile { path, text, doc, positions: Default::default() }], macros: HashMap::new() };
    let mut errors = Vec::new();
    collect_macros(&mut project, &mut errors);
    resolve_types(&mut project, &mut errors);
    if errors.is_empty() { Ok(project) } else { Err(Diagnostics(errors)) }
}

/// Depth-first include resolution. `stack` holds the chain of files being included, to name
/// an include cycle; a file reached twice by different chains (a diamond) is loaded once.
fn include_all<B: DeserializeOwned + MigrateBlock>(
    provider: &dyn SourceProvider,
    project: &mut ProjectOf<B>,
    file: usize,
    stack: &mut Vec<usize>,
    errors: &mut Vec<Diagnostic>,
) {
    let includes = project.files[file].doc.include.clone();
    let dir = project.files[file].path.parent().map(Path::to_path_buf).unwrap_or_default();
    for (i, inc) in includes.iter().enumerate() {
        let target = normalize(&dir.join(inc));
        let at = json_path!["include", i];
        if let Some(pos) = stack.iter().position(|&f| project.files[f].path == target) {
            let chain: Vec<String> = stack[pos..]
                .iter()
                .map(|&f| project.files[f].path.display().to_string())
                .chain(std::iter::once(target.display().to_string()))
                .collect();
            errors.push(
                project
                    .diag(file, &at, format!("include cycle: {}", chain.join(" -> ")))
                    .help("a library file must not include, directly or indirectly, a file that includes it"),
            );
            continue;
        }
        if project.files.iter().any(|f| f.path == target) {
            continue;
        }
        let text = match provider.read_bytes(&target) {
            Ok(b) => match decode(&target, b) {
                Ok(t) => t,
                Err(d) => {
                    errors.push(d);
                    continue;
                }
            },
            Err(e) => {
                errors.push(
                    project
                        .diag(file, &at, format!("cannot read included file `{}`: {e}", target.display()))
                        .help("include paths are relative to the including file's directory"),
                );
                continue;
            }
        };
        match parse_document_as(&target, &text) {
            Ok(doc) => {
                project.files.push(SourceFileOf { path: target, text, doc, positions: Default::default() });
                let idx = project.files.len() - 1;
                stack.push(idx);
                include_all(provider, project, idx, stack, errors);
                stack.pop();
            }
            Err(d) => errors.push(d),
        }
    }
}

fn collect_macros<B>(project: &mut ProjectOf<B>, errors: &mut Vec<Diagnostic>) {
    for (fi, f) in project.files.iter().enumerate() {
        for (mi, m) in f.doc.macros.iter().enumerate() {
            let at = json_path!["macros", mi, "name"];
            if library::lookup(&m.name).is_some() {
                errors.push(
                    project
                        .diag(fi, &at, format!("macro `{}` has the name of a library block", m.name))
                        .help("rename the macro; library block names are reserved"),
                );
            } else if !valid_ident(&m.name) {
                errors.push(project.diag(fi, &at, format!("invalid macro name `{}`", m.name)).help(IDENT_HELP));
            } else if let Some(&(of, _)) = project.macros.get(&m.name) {
                errors.push(project.diag(
                    fi,
                    &at,
                    format!("macro `{}` is defined twice (also in {})", m.name, project.files[of].path.display()),
                ));
            } else {
                project.macros.insert(m.name.clone(), (fi, mi));
            }
        }
    }
}

/// Checks the project's user data types and gives each variable of one its representation and
/// its init (an enumeration value's name turned into its position).
pub fn resolve_types<B>(project: &mut ProjectOf<B>, errors: &mut Vec<Diagnostic>) {
    let types = checked_types(project, errors);
    resolve_variables(project, DataTypes(&types), errors);
}

/// The project's user data types, each checked: a name unique and not elementary's; an
/// enumeration's values names, each once, its init one of them; an array's elements of an
/// elementary type or of an enumeration declared before it. A type with a bad name is left out.
fn checked_types<B>(project: &ProjectOf<B>, errors: &mut Vec<Diagnostic>) -> Vec<crate::model::DataType> {
    let mut all: Vec<crate::model::DataType> = Vec::new();
    for (fi, f) in project.files.iter().enumerate() {
        for (ti, t) in f.doc.types.iter().enumerate() {
            let problem = if !valid_ident(&t.name) || t.name.contains('-') {
                Some(format!("invalid type name `{}`", t.name))
            } else if crate::types::Type::parse(&t.name).is_some() {
                Some(format!("type `{}` has the name of an elementary type", t.name))
            } else if all.iter().any(|o| o.name.eq_ignore_ascii_case(&t.name)) {
                Some(format!("type `{}` is defined twice", t.name))
            } else {
                None
            };
            if let Some(p) = problem {
                errors.push(project.diag(fi, &json_path!["types", ti, "name"], p));
                continue;
            }
            let found = match t.array() {
                Some(a) => array_type_problems(&all, &t.name, a),
                None => enum_problems(t),
            };
            for (at, msg) in found {
                let mut path = json_path!["types", ti].to_vec();
                path.extend(at);
                errors.push(project.diag(fi, &path, msg));
            }
            all.push(t.clone());
        }
    }
    all
}

/// An array type's problem: its elements' type neither elementary nor an enumeration of
/// `before` (the types declared before it); its place under the type.
fn array_type_problems(
    before: &[crate::model::DataType],
    name: &str,
    a: &crate::model::ArrayType,
) -> Vec<(Vec<Seg>, String)> {
    let of_enum = before.iter().any(|o| o.is_enum() && o.name.eq_ignore_ascii_case(&a.of));
    if crate::types::Type::parse(&a.of).is_some() || of_enum {
        return Vec::new();
    }
    vec![(
        json_path!["array"].to_vec(),
        format!(
            "array type `{name}`: its elements' type `{}` is neither elementary nor an enumeration declared before it",
            a.of
        ),
    )]
}

/// An enumeration's problems (no value, a value no name or twice, an init no value), each at
/// its place under the type.
fn enum_problems(t: &crate::model::DataType) -> Vec<(Vec<Seg>, String)> {
    let values = t.values();
    let mut out = Vec::new();
    if values.is_empty() {
        out.push((Vec::new(), format!("enumeration `{}` has no value", t.name)));
    }
    for (k, v) in values.iter().enumerate() {
        let at = json_path!["enum", k].to_vec();
        if !valid_ident(v) || v.contains('-') || v.starts_with(|c: char| c.is_ascii_digit()) {
            out.push((at, format!("`{v}` is not a name")));
        } else if values[..k].iter().any(|o| o.eq_ignore_ascii_case(v)) {
            out.push((at, format!("enumeration `{}` has the value `{v}` twice", t.name)));
        }
    }
    if let Some(init) = &t.init
        && t.value_index(init).is_none()
    {
        out.push((
            json_path!["init"].to_vec(),
            format!("`{init}` is not a value of `{}` ({})", t.name, values.join(", ")),
        ));
    }
    out
}

/// Every variable of every body of the project resolved against `types`, each problem at
/// the variable.
fn resolve_variables<B>(project: &mut ProjectOf<B>, types: DataTypes, errors: &mut Vec<Diagnostic>) {
    for fi in 0..project.files.len() {
        let mut found = Vec::new();
        let doc = &mut project.files[fi].doc;
        let bodies = std::iter::once((None, &mut doc.variables))
            .chain(doc.macros.iter_mut().enumerate().map(|(mi, m)| (Some(mi), &mut m.variables)));
        for (mi, vars) in bodies {
            for (vi, v) in vars.iter_mut().enumerate() {
                if let Err(e) = resolve_variable(types, v) {
                    let at = match mi {
                        None => json_path!["variables", vi].to_vec(),
                        Some(mi) => json_path!["macros", mi, "variables", vi].to_vec(),
                    };
                    found.push((at, e));
                }
            }
        }
        for (at, e) in found {
            errors.push(project.diag(fi, &at, e));
        }
    }
}

/// A variable's representation and init from its user type.
fn resolve_variable(types: DataTypes, v: &mut Variable) -> Result<(), String> {
    let Some(name) = &v.data_type else {
        return match &v.init_name {
            Some(n) => Err(format!(
                "variable `{}` ({}): init `{n}` is not a literal (TRUE, 42, 16#FF, 2.5, \"T#100ms\", \"'text'\")",
                v.name,
                v.ty.0.name()
            )),
            None => Ok(()),
        };
    };
    if let Some(a) = types.array(name) {
        return resolve_array(types, v, &a);
    }
    let Some(t) = types.get(name) else {
        let known: Vec<&str> = types.0.iter().map(|t| t.name.as_str()).collect();
        let known = if known.is_empty() {
            "the document has no `types`".to_string()
        } else {
            format!("types: {}", known.join(", "))
        };
        return Err(format!(
            "variable `{}`: unknown type `{name}` (elementary types: BOOL, INT, DINT, REAL, TIME, STRING..; {known})",
            v.name
        ));
    };
    v.data_type = Some(t.name.clone());
    v.ty.0 = crate::model::ENUM_REPRESENTATION;
    // Resolved again (a document loaded, then compiled as it is): the same.
    v.init = None;
    let init = v.init_name.as_ref().or(t.init.as_ref());
    if let Some(n) = init {
        let Some(i) = t.value_index(n) else {
            return Err(format!(
                "variable `{}`: `{n}` is not a value of `{}` ({})",
                v.name,
                t.name,
                t.values().join(", ")
            ));
        };
        v.init = Some(crate::model::Const(crate::types::Value::Int(i as i64)));
    }
    Ok(())
}

/// An array variable: held in its element's type; its initial elements fit it.
fn resolve_array(types: DataTypes, v: &mut Variable, a: &crate::model::ArrayType) -> Result<(), String> {
    let Some((elem, _)) = types.element(&a.of) else {
        return Err(format!(
            "variable `{}`: `{}` is neither an elementary type nor an enumeration (arrays of those are compiled so far)",
            v.name, a.of
        ));
    };
    if let Some(n) = &v.init_name {
        return Err(format!(
            "variable `{}` is an array: its init is a list of values (`[1, 2, 3]`), not `{n}`",
            v.name
        ));
    }
    if v.init.is_some() {
        return Err(format!("variable `{}` is an array: its init is a list of values (`[1, 2, 3]`)", v.name));
    }
    if v.init_elements.len() as u64 > a.len() {
        return Err(format!(
            "variable `{}`: {} initial values for {} elements",
            v.name,
            v.init_elements.len(),
            a.len()
        ));
    }
    for (k, c) in v.init_elements.iter_mut().enumerate() {
        let fitted = c.0.coerce(elem).map(|x| elem.admit(x));
        match fitted {
            Some(Ok(x)) => c.0 = x,
            Some(Err(why)) => return Err(format!("variable `{}`: initial element {k}: {why}", v.name)),
            None => {
                return Err(format!(
                    "variable `{}`: initial element {k}: `{}` is no {} value",
                    v.name,
                    c.0,
                    elem.name()
                ));
            }
        }
    }
    v.ty.0 = elem;
    Ok(())
}

/// What names may look like.
pub const IDENT_HELP: &str = "names use letters, digits, `_` and `-`, and must not be empty";

/// Whether `s` is a valid block id, pin, port or macro name: no `/` or `.`, which build paths.
pub fn valid_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod normalize_tests {
    use super::normalize;
    use std::path::Path;

    #[test]
    fn dots_are_resolved_by_name_and_leading_ones_kept() {
        assert_eq!(normalize(Path::new("../../t.json")), Path::new("../../t.json"));
        assert_eq!(normalize(Path::new("a/../../t.json")), Path::new("../t.json"));
        assert_eq!(normalize(Path::new("./a/b/../c.json")), Path::new("a/c.json"));
        assert_eq!(normalize(Path::new("/../x.json")), Path::new("/x.json"));
    }
}
