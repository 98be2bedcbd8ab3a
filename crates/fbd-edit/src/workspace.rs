//! A project being edited: the program file and the library files it includes, each as a
//! [`Document`], with every edit undoable.
//!
//! Undo keeps, per edit, the canonical text of each file the edit changed, before and after:
//! undo and redo re-read that text, so they give back exactly the earlier document (the
//! property test checks it) and an edit costs memory only in the files it touched.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use fbd_compiler::{CompileOptions, compile_project};
use fbd_model::load::{self, MemProvider, Project};
use fbd_model::model::{Block, Connector, Document, MacroDef, Page, PortOut, Wire};
use fbd_model::{Diagnostics, Type};
use fbd_plan::ScanPlan;

use crate::format::to_text;

/// Which body of the project an edit applies to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BodyId {
    /// The program's top level (in the root file).
    Program,
    /// The definition of this macro (in whichever file defines it); edits apply to every
    /// instance.
    Macro(String),
}

impl std::fmt::Display for BodyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyId::Program => f.write_str("the program"),
            BodyId::Macro(m) => write!(f, "macro `{m}`"),
        }
    }
}

/// One file of the project.
#[derive(Clone, Debug)]
pub(crate) struct EditFile {
    path: PathBuf,
    pub(crate) doc: Document,
    /// The canonical text of `doc` (kept current after every edit).
    text: String,
    /// The canonical text of what is on disk (as loaded or last written), to know what Save
    /// must write. Canonical, not the file's own text: a file written by hand in another
    /// layout counted as unsaved before any edit, and closing asked to save it.
    saved: String,
}

/// One undoable edit: the files it changed, before and after.
#[derive(Clone, Debug)]
struct Change {
    label: String,
    files: Vec<(usize, String, String)>,
}

/// An edit that cannot be made, and why (shown to the user as it is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditError(pub String);

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EditError {}

pub(crate) fn err<T>(msg: impl Into<String>) -> Result<T, EditError> {
    Err(EditError(msg.into()))
}

/// A program and its included libraries, being edited.
#[derive(Clone, Debug)]
pub struct Workspace {
    files: Vec<EditFile>,
    undo: Vec<Change>,
    redo: Vec<Change>,
    /// Output types the last good compile inferred: (macro or "" for the program, `block.pin`).
    learned: HashMap<(String, String), Type>,
    /// Why the program has no file of its own to save to (embedded in the binary, imported from
    /// another format, new): Save refuses and says so until a Save as gives it one.
    no_file: Option<String>,
}

/// The blocks and output ports of one body, borrowed for an edit.
pub(crate) struct BodyMut<'a> {
    /// The body's blocks.
    pub blocks: &'a mut Vec<Block>,
    /// Its output ports (the program's outputs or the macro's).
    pub outputs: &'a mut Vec<PortOut>,
    /// Its connectors.
    pub connectors: &'a mut Vec<Connector>,
    /// Its pages.
    pub pages: &'a mut Vec<Page>,
    /// Names of its input ports (program inputs or macro inputs).
    pub inputs: Vec<String>,
    /// Its variables.
    pub variables: &'a mut Vec<fbd_model::model::Variable>,
    /// Its Structured Text lines.
    pub st: &'a mut Vec<String>,
    /// Its ladder network.
    pub ladder: &'a mut Vec<fbd_model::model::LdElement>,
}

impl Workspace {
    /// The files of a loaded project (what each was loaded from counts as saved).
    pub fn from_project(project: &Project) -> Workspace {
        let files = project
            .files
            .iter()
            .map(|f| {
                let text = to_text(&f.doc);
                EditFile { path: f.path.clone(), doc: f.doc.clone(), saved: text.clone(), text }
            })
            .collect();
        Workspace { files, undo: Vec::new(), redo: Vec::new(), learned: HashMap::new(), no_file: None }
    }

    /// A new, empty program at `path` (nothing is written until it is saved).
    pub fn new_program(path: impl AsRef<Path>) -> Workspace {
        let doc = Document { fbd: fbd_model::model::BASE_VERSION, cycle_ms: Some(5.0), ..Document::default() };
        let file = EditFile { path: load::normalize(path.as_ref()), text: to_text(&doc), doc, saved: String::new() };
        Workspace { files: vec![file], undo: Vec::new(), redo: Vec::new(), learned: HashMap::new(), no_file: None }
    }

    /// The root document (the program).
    pub fn root(&self) -> &Document {
        &self.files[0].doc
    }

    /// The root file's path.
    pub fn path(&self) -> &Path {
        &self.files[0].path
    }

    /// The files, as (path, current canonical text).
    pub fn texts(&self) -> impl Iterator<Item = (&Path, &str)> {
        self.files.iter().map(|f| (f.path.as_path(), f.text.as_str()))
    }

    /// The files whose current text differs from what was loaded or last saved.
    pub fn dirty(&self) -> Vec<&Path> {
        self.files.iter().filter(|f| f.text != f.saved).map(|f| f.path.as_path()).collect()
    }

    /// The current project, loaded from the edited texts (for drawing and compiling).
    pub fn project(&self) -> Result<Project, Diagnostics> {
        project_of(self.files.iter().map(|f| (f.path.as_path(), f.text.as_str())))
    }

    /// Compiles the edited program; the errors name the edited files' lines.
    pub fn compile(&self) -> Result<ScanPlan, Diagnostics> {
        compile_project(&self.project()?, &CompileOptions::default())
    }

    /// Remembers the types `plan` inferred for generic blocks' outputs, so that connections
    /// to and from them are checked before the next compile.
    pub fn learn_types(&mut self, plan: &ScanPlan) {
        let macro_of: HashMap<&str, &str> =
            plan.instances.iter().map(|i| (i.path.as_str(), i.macro_name.as_str())).collect();
        self.learned.clear();
        for s in &plan.signals {
            let (inst, local) = match s.path.rsplit_once('/') {
                Some((i, l)) => (macro_of.get(i).copied().unwrap_or(""), l),
                None => ("", s.path),
            };
            if local.contains('.') {
                self.learned.entry((inst.to_string(), local.to_string())).or_insert(s.slot.ty);
            }
        }
    }

    /// The learned type of output `pin` of `block` in `body`.
    pub(crate) fn learned_type(&self, body: &BodyId, block: &str, pin: &str) -> Option<Type> {
        let m = match body {
            BodyId::Program => "",
            BodyId::Macro(m) => m.as_str(),
        };
        self.learned.get(&(m.to_string(), format!("{block}.{pin}"))).copied()
    }

    /// The macro definitions of every file: (name, file path).
    pub fn macros(&self) -> Vec<(String, PathBuf)> {
        self.files.iter().flat_map(|f| f.doc.macros.iter().map(|m| (m.name.clone(), f.path.clone()))).collect()
    }

    /// The definition of macro `name`.
    pub fn macro_def(&self, name: &str) -> Option<&MacroDef> {
        self.files.iter().flat_map(|f| f.doc.macros.iter()).find(|m| m.name == name)
    }

    /// The connectors of `body` (none for a body that does not exist).
    pub fn connectors(&self, body: &BodyId) -> &[Connector] {
        match body {
            BodyId::Program => &self.files[0].doc.connectors,
            BodyId::Macro(m) => self.macro_def(m).map_or(&[], |d| d.connectors.as_slice()),
        }
    }

    /// The reference (`block.pin` or an input name) a wire of `body` reads, through the
    /// connector a continuation names (and its connectors) to its source; `None` for a constant
    /// or a continuation of no connector.
    pub fn wire_source<'a>(&'a self, body: &BodyId, w: &'a Wire) -> Option<&'a str> {
        self.wire_through(body, w).and_then(wire_ref)
    }

    /// The wire a continuation of `body` stands for (its connector's `from`, through
    /// connectors of connectors); any other wire itself. `None` for a continuation of no
    /// connector or a circle of them.
    pub fn wire_through<'a>(&'a self, body: &BodyId, w: &'a Wire) -> Option<&'a Wire> {
        let list = self.connectors(body);
        let mut at = w;
        for _ in 0..=list.len() {
            match at {
                Wire::Connector(n) => at = &list.iter().find(|c| c.name == *n)?.from,
                other => return Some(other),
            }
        }
        None
    }

    /// The blocks of `body`.
    pub fn blocks(&self, body: &BodyId) -> Option<&[Block]> {
        match body {
            BodyId::Program => Some(&self.files[0].doc.blocks),
            BodyId::Macro(m) => self.macro_def(m).map(|d| d.blocks.as_slice()),
        }
    }

    /// One block of `body`.
    pub fn block(&self, body: &BodyId, id: &str) -> Option<&Block> {
        self.blocks(body)?.iter().find(|b| b.id == id)
    }

    /// What the last edit was, if there is one to undo.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|c| c.label.as_str())
    }

    /// What the last undone edit was, if there is one to redo.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|c| c.label.as_str())
    }

    /// Undoes the last edit; false if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(c) = self.undo.pop() else { return false };
        for (i, before, _) in &c.files {
            self.set_text(*i, before);
        }
        self.redo.push(c);
        true
    }

    /// Redoes the last undone edit; false if there is none.
    pub fn redo(&mut self) -> bool {
        let Some(c) = self.redo.pop() else { return false };
        for (i, _, after) in &c.files {
            self.set_text(*i, after);
        }
        self.undo.push(c);
        true
    }

    fn set_text(&mut self, i: usize, text: &str) {
        let f = &mut self.files[i];
        f.doc = load::parse_document(&f.path, text).expect("the editor's own text always parses");
        f.text = text.to_string();
    }

    /// Applies `edit` to the documents as one undoable step named `label`. On an error nothing
    /// changes; an edit that changes nothing is not recorded.
    pub(crate) fn edit<T>(
        &mut self,
        label: impl Into<String>,
        edit: impl FnOnce(&mut Workspace) -> Result<T, EditError>,
    ) -> Result<T, EditError> {
        let before: Vec<Document> = self.files.iter().map(|f| f.doc.clone()).collect();
        let result = match edit(self) {
            Ok(r) => r,
            Err(e) => {
                for (f, d) in self.files.iter_mut().zip(before) {
                    f.doc = d;
                }
                return Err(e);
            }
        };
        let mut changed = Vec::new();
        for (i, f) in self.files.iter_mut().enumerate() {
            let after = to_text(&f.doc);
            if after != f.text {
                changed.push((i, std::mem::replace(&mut f.text, after.clone()), after));
            }
        }
        if !changed.is_empty() {
            self.undo.push(Change { label: label.into(), files: changed });
            self.redo.clear();
        }
        Ok(result)
    }

    /// Borrows `body` for an edit.
    pub(crate) fn body_mut(&mut self, body: &BodyId) -> Result<BodyMut<'_>, EditError> {
        match body {
            BodyId::Program => {
                let d = &mut self.files[0].doc;
                let inputs = d.inputs.iter().map(|p| p.name.clone()).collect();
                Ok(BodyMut {
                    blocks: &mut d.blocks,
                    outputs: &mut d.outputs,
                    connectors: &mut d.connectors,
                    pages: &mut d.pages,
                    inputs,
                    variables: &mut d.variables,
                    ladder: &mut d.ladder,
                    st: &mut d.st,
                })
            }
            BodyId::Macro(m) => {
                let def = self
                    .files
                    .iter_mut()
                    .flat_map(|f| f.doc.macros.iter_mut())
                    .find(|d| d.name == *m)
                    .ok_or_else(|| EditError(format!("no macro `{m}` in this project")))?;
                let inputs = def.inputs.iter().map(|p| p.name.clone()).collect();
                Ok(BodyMut {
                    blocks: &mut def.blocks,
                    outputs: &mut def.outputs,
                    connectors: &mut def.connectors,
                    pages: &mut def.pages,
                    inputs,
                    variables: &mut def.variables,
                    ladder: &mut def.ladder,
                    st: &mut def.st,
                })
            }
        }
    }

    /// The macro definition `name`, mutable.
    pub(crate) fn macro_mut(&mut self, name: &str) -> Result<&mut MacroDef, EditError> {
        self.files
            .iter_mut()
            .flat_map(|f| f.doc.macros.iter_mut())
            .find(|d| d.name == name)
            .ok_or_else(|| EditError(format!("no macro `{name}` in this project")))
    }

    /// The index of the file that holds `body`.
    pub(crate) fn file_of(&self, body: &BodyId) -> usize {
        match body {
            BodyId::Program => 0,
            BodyId::Macro(m) => self.files.iter().position(|f| f.doc.macros.iter().any(|d| d.name == *m)).unwrap_or(0),
        }
    }

    /// File `i`'s document, mutable.
    pub(crate) fn doc_mut(&mut self, i: usize) -> &mut Document {
        &mut self.files[i].doc
    }

    /// The root document, mutable.
    pub(crate) fn files_root_mut(&mut self) -> &mut Document {
        &mut self.files[0].doc
    }

    /// Every file's document, mutable.
    pub(crate) fn files_mut(&mut self) -> impl Iterator<Item = &mut EditFile> {
        self.files.iter_mut()
    }

    /// The blocks of every body of every file, mutable (to follow a port change into every
    /// instance).
    pub(crate) fn all_blocks_mut(&mut self) -> impl Iterator<Item = &mut Vec<Block>> {
        self.files.iter_mut().flat_map(|f| {
            let d = &mut f.doc;
            std::iter::once(&mut d.blocks).chain(d.macros.iter_mut().map(|m| &mut m.blocks))
        })
    }

    /// Marks the program as having no file of its own (`why`: embedded, imported, new): its
    /// paths are names, not places to write, so [`Workspace::save`] refuses with `why` until
    /// [`Workspace::save_as`] gives it a place. (Saving the embedded 2048 program wrote
    /// `diagrams/2048.json` under whatever folder the window was started in, and saving an
    /// imported `plc.xml` wrote a `plc.json` beside it, over any file of that name.)
    pub fn set_no_file(&mut self, why: impl Into<String>) {
        self.no_file = Some(why.into());
    }

    /// Whether the program has a file of its own to save to (not marked with
    /// [`Workspace::set_no_file`], or given one by [`Workspace::save_as`] since).
    pub fn has_file(&self) -> bool {
        self.no_file.is_none()
    }

    /// Writes every changed file (macros go back to the library file that defines them;
    /// untouched files are not rewritten). Returns the paths written.
    pub fn save(&mut self) -> std::io::Result<Vec<PathBuf>> {
        if let Some(why) = &self.no_file
            && self.files.iter().any(|f| f.text != f.saved)
        {
            return Err(std::io::Error::other(format!("{why}; choose where it goes with Save as")));
        }
        // All changed files or none (a full disk at the library leaves the program as it was).
        let changed: Vec<(&Path, &str)> =
            self.files.iter().filter(|f| f.text != f.saved).map(|f| (f.path.as_path(), f.text.as_str())).collect();
        fbd_model::load::write_texts(&changed)
            .map_err(|(p, e)| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
        let mut written = Vec::new();
        for f in self.files.iter_mut().filter(|f| f.text != f.saved) {
            f.saved = f.text.clone();
            written.push(f.path.clone());
        }
        Ok(written)
    }

    /// Saves the program as `path`; the included libraries are written beside it at their
    /// relative paths when they are not there yet or were changed, so the copy is complete.
    pub fn save_as(&mut self, path: impl AsRef<Path>) -> std::io::Result<Vec<PathBuf>> {
        let new_root = load::normalize(path.as_ref());
        let old_dir = self.files[0].path.parent().map(Path::to_path_buf).unwrap_or_default();
        let new_dir = new_root.parent().map(Path::to_path_buf).unwrap_or_default();
        let targets: Vec<PathBuf> = self
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                if i == 0 {
                    new_root.clone()
                } else {
                    match f.path.strip_prefix(&old_dir) {
                        Ok(rel) => load::normalize(&new_dir.join(rel)),
                        // A library outside the program's folder stays where it is.
                        Err(_) => f.path.clone(),
                    }
                }
            })
            .collect();
        // A library the copy would include from a file that is there already with other
        // content: the copy would load that file, not ours (it was kept and the program did not
        // load). Nothing is written then.
        for (f, target) in self.files.iter().zip(&targets).skip(1) {
            if *target != f.path
                && let Ok(there) = std::fs::read_to_string(target)
                && there != f.text
            {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    format!(
                        "{} exists with other content: the copy would include it instead of this program's library; nothing was written (save into another folder, or move that file)",
                        target.display()
                    ),
                ));
            }
        }
        let mut written = Vec::new();
        for (i, (f, target)) in self.files.iter_mut().zip(targets).enumerate() {
            let moved = target != f.path;
            if i == 0 || f.text != f.saved || (moved && !target.exists()) {
                if let Some(d) = target.parent()
                    && !d.as_os_str().is_empty()
                {
                    std::fs::create_dir_all(d)?;
                }
                fbd_model::load::write_text(&target, &f.text)?;
                written.push(target.clone());
            }
            f.path = target;
            f.saved = f.text.clone();
        }
        self.no_file = None;
        Ok(written)
    }
}

/// The project of `files` (the program first), read from memory.
fn project_of<'a>(mut files: impl Iterator<Item = (&'a Path, &'a str)>) -> Result<Project, Diagnostics> {
    let (root, text) = files.next().expect("a workspace has its program file");
    let mut mem = MemProvider::new();
    for (p, t) in files {
        mem = mem.with(p, t.to_string());
    }
    load::load_text(&mem, root, text.to_string())
}

/// Compiles the program held in `files` (as [`Workspace::texts`] gives them).
pub(crate) fn compile_texts(files: &[(PathBuf, String)]) -> Result<ScanPlan, Diagnostics> {
    let project = project_of(files.iter().map(|(p, t)| (p.as_path(), t.as_str())))?;
    compile_project(&project, &CompileOptions::default())
}

/// The reference a wire holds, without a feedback mark.
pub(crate) fn wire_ref(w: &Wire) -> Option<&str> {
    match w {
        Wire::Ref(r) => Some(r),
        Wire::Feedback { from, .. } => Some(from),
        Wire::Const(_) | Wire::Connector(_) => None,
    }
}
