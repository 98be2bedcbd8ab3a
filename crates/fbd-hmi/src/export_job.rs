//! File → Export PLCopen XML, written on its own thread: a program of 100,000 blocks takes
//! seconds to write as XML (70 MB), and the window must keep answering (and the program
//! running) meanwhile. What is exported is the program running when the user asked.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use eframe::egui;

use crate::app::App;

/// An export being written.
pub(crate) struct ExportJob {
    /// Where it goes.
    path: PathBuf,
    /// The outcome: the status line's text.
    done: Receiver<String>,
}

/// Writes the program as PLCopen XML to `path` and says how it went (the status line's text).
fn write(project: &fbd_engine::load::Project, plan: &fbd_engine::ScanPlan, path: &std::path::Path) -> String {
    let xml = fbd_plcopen::export(project, plan);
    match fbd_engine::load::write_text(path, &xml) {
        Ok(()) => format!("exported as PLCopen XML to {}", path.display()),
        Err(e) => format!("{}: cannot write: {e}", path.display()),
    }
}

impl App {
    /// Writes the running program as PLCopen TC6 XML to `path` (or where a save dialog says),
    /// on its own thread; the status line says when it is written ([`App::wait_for_export`]
    /// waits for it). One export at a time.
    pub fn export_plcopen(&mut self, path: Option<PathBuf>) {
        if let Some(job) = &self.export {
            self.status =
                format!("an export to {} is still being written; export again once it is done", job.path.display());
            return;
        }
        let Some(path) = path.or_else(|| {
            self.save_path(crate::path_prompt::PathAction::ExportPlcopen, ("PLCopen XML", &["xml"]), "program.xml")
        }) else {
            self.status = "type the path to export to".into();
            return;
        };
        let plan = std::sync::Arc::clone(&self.image().plan);
        let project = self.loaded.project.clone();
        let (tx, done) = channel();
        let to = path.clone();
        let spawned = std::thread::Builder::new().name("fbd-export".into()).spawn(move || {
            let _ = tx.send(write(&project, &plan, &to));
        });
        match spawned {
            Ok(_) => {
                self.status = format!("exporting PLCopen XML to {}...", path.display());
                self.export = Some(ExportJob { path, done });
            }
            // No thread to be had: written here and now, the window waits.
            Err(_) => self.status = write(&self.loaded.project, &self.image().plan, &path),
        }
    }

    /// Takes the outcome of a finished export (each frame); while one is being written, asks
    /// for a frame now and then to see it end.
    pub(crate) fn poll_export(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.export else { return };
        match job.done.try_recv() {
            Ok(said) => {
                self.status = said;
                self.export = None;
            }
            Err(TryRecvError::Empty) => ctx.request_repaint_after(Duration::from_millis(100)),
            Err(TryRecvError::Disconnected) => {
                self.status = format!("the export to {} failed: its thread stopped", job.path.display());
                self.export = None;
            }
        }
    }

    /// Waits until the export under way (if any) is written, and says how it went on the
    /// status line. Whether one was under way. (Closing the window waits too: a file cut off
    /// half-written is never left behind.)
    pub fn wait_for_export(&mut self) -> bool {
        let Some(job) = self.export.take() else { return false };
        self.status = job
            .done
            .recv()
            .unwrap_or_else(|_| format!("the export to {} failed: its thread stopped", job.path.display()));
        true
    }

    /// Whether an export is being written.
    pub fn exporting(&self) -> bool {
        self.export.is_some()
    }
}
