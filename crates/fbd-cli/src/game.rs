//! The 2048 program `fbd play` and `fbd latency` measure: a file, or an embedded wiring.

use std::path::PathBuf;

use clap::Args;
use fbd_engine::ScanPlan;
use fbd2048_game::Wiring;

/// Which program: a file, or an embedded wiring.
#[derive(Args)]
pub(crate) struct Source {
    /// A 2048 diagram (default: the embedded diagrams/2048.json).
    pub(crate) file: Option<PathBuf>,
    /// An embedded wiring instead of a file: upd1, original, smart-spawn.
    #[arg(long, conflicts_with = "file")]
    pub(crate) wiring: Option<String>,
}

impl Source {
    pub(crate) fn plans(&self, all: bool) -> Result<Vec<(String, ScanPlan)>, String> {
        if all {
            return Wiring::ALL
                .iter()
                .map(|w| w.compile().map(|p| (format!("diagrams/{}", w.file_name()), p)).map_err(|e| e.to_string()))
                .collect();
        }
        if let Some(f) = &self.file {
            let p = crate::source::compile_file(f).map_err(|e| e.to_string())?;
            return Ok(vec![(f.display().to_string(), p)]);
        }
        let w = match &self.wiring {
            Some(s) => {
                Wiring::parse(s).ok_or_else(|| format!("unknown wiring `{s}`; use upd1, original or smart-spawn"))?
            }
            None => Wiring::Upd1,
        };
        Ok(vec![(format!("diagrams/{}", w.file_name()), w.compile().map_err(|e| e.to_string())?)])
    }
}
