//! The program a command works on: a file of either format, or a wiring embedded in the
//! binary. One place, so every command says a PLCopen import's warnings (`run`, `play`,
//! `tui`, `bench`, `autoplay` and `latency` dropped them: an INT widened to 64 bits that no
//! longer wraps where the PLC's would went unsaid).

use std::path::Path;

use fbd_engine::load::{Project, load_text};
use fbd_engine::{CompileOptions, Diagnostics, ScanPlan};
use fbd2048_game::Wiring;

/// Loads `path` (a diagram, or PLCopen XML imported on the way in), saying the import's
/// warnings on standard error.
pub(crate) fn load_file(path: &Path) -> Result<Project, Diagnostics> {
    fbd_plcopen::load_any(path).map(said)
}

/// Loads `path` as [`load_file`] does, for the compiler (its blocks lean: see
/// [`fbd_plcopen::load_any_lean`]).
pub(crate) fn load_file_lean(path: &Path) -> Result<fbd_engine::compile::Project, Diagnostics> {
    fbd_plcopen::load_any_lean(path).map(said)
}

/// A loaded project, its warnings said on standard error.
fn said<P>((project, warnings): (P, Vec<String>)) -> P {
    for w in warnings {
        eprintln!("warning: {w}");
    }
    project
}

/// Loads and compiles `path` (see [`load_file`]).
pub(crate) fn compile_file(path: &Path) -> Result<ScanPlan, Diagnostics> {
    fbd_engine::compile_lean(load_file_lean(path)?, &CompileOptions::default())
}

/// The project of a file (either format) or of an embedded wiring (the default one if neither).
pub(crate) fn project(file: Option<&Path>, wiring: Option<&str>) -> Result<Project, String> {
    if let Some(f) = file {
        return load_file(f).map_err(|e| e.to_string());
    }
    Ok(project_quiet(None, wiring)?.0)
}

/// [`project`] with an import's warnings returned, not printed: `fbd tui` says them on its
/// status line and prints them when the terminal is back (printed before, the screen switch
/// hid them at once).
pub(crate) fn project_quiet(file: Option<&Path>, wiring: Option<&str>) -> Result<(Project, Vec<String>), String> {
    if let Some(f) = file {
        return fbd_plcopen::load_any(f).map_err(|e| e.to_string());
    }
    let w = match wiring {
        Some(s) => {
            Wiring::parse(s).ok_or_else(|| format!("unknown wiring `{s}`; use upd1, original or smart-spawn"))?
        }
        None => Wiring::Upd1,
    };
    let path = Path::new("diagrams").join(w.file_name());
    let project =
        load_text(&fbd2048_game::embedded_provider(), &path, w.text().to_string()).map_err(|e| e.to_string())?;
    Ok((project, Vec::new()))
}

/// Says that `--seed` changes nothing in a program without RANDOM blocks (`fbd play --seed 4`
/// gave the same game as seed 0, silently).
pub(crate) fn seed_warning(seed: u64, name: &str) {
    eprintln!(
        "warning: --seed {seed} changes nothing: {name} has no RANDOM block (the seed feeds only those; \
         a clock-driven generator such as the 2048 design's depends on when inputs change)"
    );
}
