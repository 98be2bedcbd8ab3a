//! PLCopen TC6 XML for FBD programs: [`import`] reads what CODESYS, OpenPLC Editor and Beremiz
//! write (`plc.xml`), [`export`] writes a project those tools open. No GUI; the `fbd` tool and
//! the HMI are clients.

mod export;
mod geometry;
mod import;
pub mod literal;
mod reserved;
mod stand_in;

pub use export::export;
pub use import::{Imported, import};

use std::path::Path;

use fbd_engine::load::{FsProvider, MemProvider, Project, load, load_text, read_text};
use fbd_engine::{CompileOptions, Diagnostics, ScanPlan, compile_project_owned};

/// Loads a diagram from disk whatever its format: `.xml` is PLCopen XML (imported on the way
/// in, its warnings returned), anything else the diagram format.
pub fn load_any(path: &Path) -> Result<(Project, Vec<String>), Diagnostics> {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) {
        let text = read_text(path)?;
        let imported = import(path, &text)?;
        let json = serde_json::to_string(&imported.doc).expect("a document serialises");
        Ok((load_text(&MemProvider::new(), &path.with_extension("json"), json)?, imported.warnings))
    } else {
        // A file of an older format version is read as the current one: said, with how.
        let project = load(&FsProvider, path)?;
        let notices = project.files.iter().filter_map(|f| f.notice()).collect();
        Ok((project, notices))
    }
}

/// Loads and compiles a diagram in either format (see [`load_any`]).
pub fn compile_any(path: &Path) -> Result<ScanPlan, Diagnostics> {
    let (project, _) = load_any(path)?;
    compile_project_owned(project, &CompileOptions::default())
}
