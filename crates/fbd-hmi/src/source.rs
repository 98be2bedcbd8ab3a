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
}

impl Origin {
    /// A short label for the title bar and status line.
    pub fn label(&self) -> String {
        match self {
            Origin::Embedded(w) => format!("diagrams/{} (embedded)", w.file_name()),
            Origin::File(p) => p.display().to_string(),
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
}

/// Loads and compiles a diagram.
pub fn load(origin: &Origin) -> Result<(Loaded, ScanPlan), Diagnostics> {
    let project = match origin {
        Origin::Embedded(w) => {
            let provider = fbd2048_game::embedded_provider();
            let path = Path::new("diagrams").join(w.file_name());
            load::load_text(&provider, &path, w.text().to_string())?
        }
        // A PLCopen XML project (CODESYS, OpenPLC Editor, Beremiz) is imported on the way in.
        Origin::File(p) => fbd_plcopen::load_any(p)?.0,
    };
    let plan = compile_project(&project, &CompileOptions::default())?;
    Ok((Loaded { origin: origin.clone(), project: Arc::new(project) }, plan))
}
