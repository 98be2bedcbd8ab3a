//! Where a diagram comes from (an embedded wiring or a file) and loading it into a plan.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use fbd_engine::load::{self, Project};
use fbd_engine::{CompileOptions, Diagnostics, ScanPlan, compile_project};
use fbd2048_game::Wiring;

/// The origin of the running diagram.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// One of the wirings built into the binary.
    Embedded(Wiring),
    /// A file on disk (relative includes are read next to it).
    File(PathBuf),
    /// A program applied from the editor that has no file of its own (a new program, or the
    /// embedded or an imported program after edits, not yet given a file with Save as): it
    /// exists only in memory, so there is nothing to load or reload it from. The name is the
    /// editor's name for its program file.
    Editor(String),
}

impl Origin {
    /// A short label for the title bar and status line.
    pub fn label(&self) -> String {
        match self {
            Origin::Embedded(w) => format!("diagrams/{} (embedded)", w.file_name()),
            Origin::File(p) => p.display().to_string(),
            Origin::Editor(name) => format!("{name} (applied from the editor, no file)"),
        }
    }
}

/// A loaded diagram: its origin and parsed files (the diagram view draws from them). The
/// compiled plan is handed to the runtime, which owns it.
pub struct Loaded {
    /// Where it came from.
    pub origin: Origin,
    /// The parsed files (shared: an export on its own thread reads them).
    pub project: Arc<Project>,
    /// The program was applied from the editor with changes its file does not have yet (the
    /// running program is not what `origin` would load).
    pub unsaved: bool,
    /// What the PLCopen import said behaves differently here (an INT widened to 64 bits, which
    /// does not wrap where the PLC would; a second task ignored): shown beside the status line.
    pub warnings: Vec<String>,
}

impl Loaded {
    /// What the title bar and the status line call the running program.
    pub fn label(&self) -> String {
        let l = self.origin.label();
        if self.unsaved { format!("{l} (applied from the editor, not saved)") } else { l }
    }
}

/// Loads and compiles a diagram.
pub fn load(origin: &Origin) -> Result<(Loaded, ScanPlan), Diagnostics> {
    load_at(origin, None)
}

/// [`load()`], the program run at a cycle of `cycle_us` when given (a recording replays at the
/// cycle it was made at: `fbd serve --cycle`).
pub fn load_at(origin: &Origin, cycle_us: Option<u64>) -> Result<(Loaded, ScanPlan), Diagnostics> {
    let (mut project, warnings) = match origin {
        Origin::Embedded(w) => {
            let provider = fbd2048_game::embedded_provider();
            let path = Path::new("diagrams").join(w.file_name());
            (load::load_text(&provider, &path, w.text().to_string())?, Vec::new())
        }
        // A PLCopen XML project (CODESYS, OpenPLC Editor, Beremiz) is imported on the way in.
        Origin::File(p) => fbd_plcopen::load_any(p)?,
        Origin::Editor(name) => {
            return Err(fbd_engine::Diagnostics(vec![fbd_engine::Diagnostic::new(
                name,
                "this program was applied from the editor and has no file to load it from; \
                 give it one with the editor's Save as",
            )]));
        }
    };
    if let (Some(us), Some(root)) = (cycle_us, project.files.first_mut()) {
        root.doc.cycle_ms = Some(us as f64 / 1000.0);
    }
    let plan = compile_project(&project, &CompileOptions::default())?;
    Ok((Loaded { origin: origin.clone(), project: Arc::new(project), unsaved: false, warnings }, plan))
}
