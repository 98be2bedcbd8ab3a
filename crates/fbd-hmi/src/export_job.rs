//! File → Export PLCopen XML, written on its own thread: a program of 100,000 blocks takes
//! seconds to write as XML (70 MB), and the window must keep answering (and the program
//! running) meanwhile. What is exported is the program running when the user asked.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// An export being written.
pub(crate) struct ExportJob {
    /// Where it goes.
    path: PathBuf,
    /// The outcome: the status line's text.
    done: Receiver<String>,
}

/// Writes the program as PLCopen XML to `path` and says how it went (the status line's text).
fn write(project: &fbd_engine::load::Project, plan: &fbd_engine::ScanPlan, path: &std::path::Path) -> String {
    if let Some(why) = fbd_plcopen::not_exportable(project) {
        return format!("{}: {why}", path.display());
    }
    let xml = fbd_plcopen::export(project, plan);
    match fbd_engine::load::write_text(path, &xml) {
        Ok(()) => format!("exported as PLCopen XML to {}", path.display()),
        Err(e) => format!("{}: cannot write: {e}", path.display()),
    }
}

impl ExportJob {
    /// Starts writing `project` (compiled as `plan`) to `path` on a thread of its own. Without
    /// a thread to be had it is written here and now: `Err` with how it went.
    pub(crate) fn start(
        project: std::sync::Arc<fbd_engine::load::Project>,
        plan: std::sync::Arc<fbd_engine::ScanPlan>,
        path: PathBuf,
    ) -> Result<ExportJob, String> {
        let (tx, done) = channel();
        let to = path.clone();
        let (p2, plan2) = (project.clone(), plan.clone());
        let spawned = std::thread::Builder::new().name("fbd-export".into()).spawn(move || {
            let _ = tx.send(write(&p2, &plan2, &to));
        });
        match spawned {
            Ok(_) => Ok(ExportJob { path, done }),
            Err(_) => Err(write(&project, &plan, &path)),
        }
    }

    /// Where it is written.
    pub(crate) fn path(&self) -> std::path::Display<'_> {
        self.path.display()
    }

    /// How it went, once it is written (the status line's text).
    pub(crate) fn poll(&self) -> Option<String> {
        match self.done.try_recv() {
            Ok(said) => Some(said),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(self.stopped()),
        }
    }

    /// Waits until it is written; how it went.
    pub(crate) fn wait(self) -> String {
        self.done.recv().unwrap_or_else(|_| self.stopped())
    }

    fn stopped(&self) -> String {
        format!("the export to {} failed: its thread stopped", self.path.display())
    }
}
