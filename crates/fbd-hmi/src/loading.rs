//! Files in and out of the window: opening a diagram (a cold start), online change, the error
//! and open-path windows, drag and drop, recording (the PLCopen export: `export_job.rs`).

use std::path::PathBuf;
use std::time::Duration;

use eframe::egui::{self, Color32, RichText};
use fbd_engine::Runtime;
use fbd_engine::runtime::requests::{OnlineChange, StopPlayback, StopRecording};

use crate::app::{App, HISTORY_BYTES, HISTORY_EVERY};
use crate::source::{self, Origin};

impl App {
    /// Restarts the program (a cold start) and records everything that reaches it from then
    /// on, for `fbd replay`.
    pub fn start_recording(&mut self) {
        self.record_next = true;
        // The running program restarts as it is in memory, not as its origin would load it:
        // after an Apply from the editor that was another program (the embedded 2048 program
        // under a new one), and the editor's work is kept.
        if let Err(e) = self.reset_cold() {
            self.record_next = false;
            self.status = e;
        }
        if self.recording {
            self.status = "recording since this cold start (File > Stop recording and save)".into();
            if self.unsaved_recording.take().is_some() {
                self.status.push_str("; the unsaved recording was discarded");
            }
            if self.loaded.unsaved || matches!(self.loaded.origin, Origin::Editor(_)) {
                self.status.push_str("; save the program too, or `fbd replay` will not find the recorded one");
            }
        }
    }

    /// Stops recording and writes the recording to `path` (or where a save dialog says). No
    /// recording is lost on the way: with no file chosen it goes on recording, and one that
    /// cannot be written is kept to save elsewhere (this again, File > Save the unsaved
    /// recording).
    pub fn stop_recording(&mut self, path: Option<PathBuf>) -> Result<PathBuf, String> {
        if !self.recording && self.unsaved_recording.is_none() {
            return Err("nothing is being recorded".into());
        }
        let path = path
            .or_else(|| {
                self.save_path(
                    crate::path_prompt::PathAction::SaveRecording,
                    ("fbd recording", &["json"]),
                    "recording.json",
                )
            })
            .ok_or(if self.recording {
                "type the path to save the recording at (still recording)"
            } else {
                "type the path to save the recording at (still unsaved)"
            })?;
        let rec = if self.recording {
            let id = fbd_engine::runtime::ProgramId::of(&self.loaded.project);
            let rec = self.runner.call(StopRecording(id)).ok_or("nothing is being recorded")?;
            self.recording = false;
            rec
        } else {
            self.unsaved_recording.take().ok_or("nothing is being recorded")?
        };
        let mut rec = rec;
        rec.place_files_for(&path);
        if let Err(e) = fbd_engine::load::write_text(&path, &rec.to_json()) {
            self.unsaved_recording = Some(rec);
            return Err(format!(
                "{}: cannot write: {e}; the recording is kept (File > Save the unsaved recording)",
                path.display()
            ));
        }
        self.status = format!(
            "recorded {} scans, {} events to {} (fbd replay --check)",
            rec.scans,
            rec.events.len(),
            path.display()
        );
        Ok(path)
    }

    /// Opens a diagram: a fresh download (cold start). On failure the running program keeps
    /// running and the errors are shown.
    pub fn open(&mut self, origin: Origin) {
        self.unless_unsaved(crate::unsaved::Discarding::Open(origin));
    }

    /// Loads `origin` (what [`App::open`] does once unsaved edits are dealt with).
    pub(crate) fn load(&mut self, origin: Origin) {
        match source::load(&origin) {
            Ok((l, plan)) => {
                self.cold_start(l, plan);
            }
            Err(e) => self.load_failed(&origin, e),
        }
        self.refresh();
    }

    /// Starts `plan` (compiled from `l`) from its initial state: what a download does.
    /// Returns what the status line says of a recording this ended ("" if none was under way).
    pub(crate) fn cold_start(&mut self, l: source::Loaded, plan: fbd_engine::ScanPlan) -> String {
        // Watches and breakpoints live in the runtime, which a cold start replaces: those of
        // the program are remembered now and set again below if the same program starts (File
        // > Open of the same file and Record lost them; another program gets its own).
        let old_key = self.best.key().to_string();
        self.collect_program_settings(&old_key);
        // A recording under way ends here, kept to be saved: it went with the old runtime
        // without a word (a Reset cold or an Open while recording lost it).
        let note = self.end_recording();
        // A fast-forward or Step N under way was of the old run.
        self.cancel_forward();
        let period = Duration::from_micros(plan.cycle_us);
        let mut rt = Runtime::with_seed(plan, self.seed);
        rt.enable_history(HISTORY_EVERY, HISTORY_BYTES);
        // A recording starts with the program: from scan 0, before anything is written.
        self.recording = std::mem::take(&mut self.record_next);
        if self.recording {
            rt.start_recording(100);
        }
        self.runner.replace(rt);
        // A new runtime: the program's watches are set again below, the user's `busy` with them.
        self.dbg.trends.busy_by_user = false;
        self.replay = None;
        self.runner.set_period(period);
        self.runner.reset_stats();
        self.status = format!("{} loaded (cold start){note}", l.label());
        if let Origin::File(p) = &l.origin {
            self.remember_recent(p.clone());
        }
        self.errors.clear();
        self.errors_open = false;
        self.loaded = l;
        self.board.new_game();
        self.front.scans_last = None;
        self.front.scans_max = 0;
        self.attach();
        if self.best.key() == old_key {
            self.restore_program_settings(&old_key);
        } else {
            self.another_program();
        }
        note
    }

    /// Another program runs: the editor's file field and message and the diagram's Find are of
    /// the previous one.
    fn another_program(&mut self) {
        self.editor.another_program();
        self.diagram.another_program();
    }

    /// Ends a recording under way and keeps it to be saved (a recording is of one program from
    /// a cold start: it cannot go on across a restart or an online change, which `fbd replay`
    /// could not reproduce). Returns what the status line says of it ("" if none).
    pub(crate) fn end_recording(&mut self) -> String {
        if !self.recording {
            return String::new();
        }
        self.recording = false;
        let id = fbd_engine::runtime::ProgramId::of(&self.loaded.project);
        let Some(rec) = self.runner.call(StopRecording(id)) else { return String::new() };
        if self.unsaved_recording.replace(rec).is_some() {
            "; the recording until then is kept (in place of the unsaved one): File > Save the unsaved recording".into()
        } else {
            "; the recording until then is kept: File > Save the unsaved recording".into()
        }
    }

    /// What an online change ends first: a recording (kept to be saved) and a playback (it
    /// replays the recorded program only; after a change its state checks would all fail).
    /// Returns what the status line says of them.
    pub(crate) fn before_online_change(&mut self) -> String {
        let mut note = self.end_recording();
        if let Some(r) = self.replay.take() {
            self.runner.call(StopPlayback);
            note.push_str(&format!(
                "; the playback of {} ended (it plays the recorded program only)",
                r.path.display()
            ));
        }
        note
    }

    /// Puts `plan` in place of the running program by online change (after
    /// [`Self::before_online_change`]). The task follows the program's cycle (the simulated
    /// clock advances by it each scan), unless the debugger has set a slow-motion period.
    pub(crate) fn change_program(&mut self, plan: fbd_engine::ScanPlan) -> fbd_engine::runtime::ChangeReport {
        let old_cycle = Duration::from_micros(self.image().plan.cycle_us);
        let new_cycle = Duration::from_micros(plan.cycle_us);
        let report = self.runner.call(OnlineChange(Box::new(plan)));
        if self.runner.period() == old_cycle {
            self.runner.set_period(new_cycle);
        }
        report
    }

    /// Loads `origin` into the running program by online change: the state of every stateful
    /// block whose path and type match is kept (the board survives a change of wiring).
    pub fn online_change(&mut self, origin: Origin) {
        match source::load(&origin) {
            Ok((l, plan)) => {
                let note = self.before_online_change();
                let report = self.change_program(plan);
                self.status = format!(
                    "{}: online change, {} kept, {} reset, {} removed{}",
                    l.origin.label(),
                    report.kept.len(),
                    report.reset.len(),
                    report.removed.len(),
                    if report.forces_released.is_empty() {
                        String::new()
                    } else {
                        format!(", forces released: {}", report.forces_released.join(", "))
                    }
                );
                self.status.push_str(&note);
                // Another file or wiring (not the same one changed): its own editor and Find.
                if l.origin != self.loaded.origin {
                    self.another_program();
                }
                self.loaded = l;
                self.errors.clear();
                self.errors_open = false;
                self.attach();
            }
            Err(e) => self.load_failed(&origin, e),
        }
        self.refresh();
    }

    /// Reloads the current diagram by online change.
    pub fn reload(&mut self) {
        if let Origin::Editor(_) = &self.loaded.origin {
            self.status =
                format!("{}: nothing to reload it from (the editor's Save as gives it a file)", self.loaded.label());
            return;
        }
        self.online_change(self.loaded.origin.clone());
    }

    pub(crate) fn load_failed(&mut self, origin: &Origin, e: fbd_engine::Diagnostics) {
        self.errors = vec![format!("{}: {} error(s); the running program was kept.\n{e}", origin.label(), e.0.len())];
        self.errors_open = true;
        self.status = format!("{}: not loaded ({} error(s))", origin.label(), e.0.len());
    }

    // ----- the frame ------------------------------------------------------------------------------

    pub(crate) fn handle_dropped(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        if let Some(p) = dropped.first().map(|f| f.path().to_path_buf()) {
            self.open_file(p);
        }
    }

    /// Opens a dropped or typed path: a recording is played back (File → Open recording), any
    /// other file is loaded as a diagram (a dropped recording was refused as a broken diagram).
    pub fn open_file(&mut self, path: PathBuf) {
        if is_recording(&path) {
            if let Err(e) = self.open_recording(Some(path)) {
                self.status = e;
            }
        } else {
            self.open(Origin::File(path));
        }
    }

    pub(crate) fn error_window(&mut self, ctx: &egui::Context) {
        if !self.errors_open || self.errors.is_empty() {
            return;
        }
        let mut open = true;
        egui::Window::new("Diagram errors").open(&mut open).default_width(560.0).show(ctx, |ui| {
            egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
                for e in &self.errors {
                    ui.label(RichText::new(e).monospace().color(Color32::from_rgb(0xc0, 0x30, 0x30)));
                }
            });
        });
        self.errors_open = open;
    }

    pub(crate) fn open_path_window(&mut self, ctx: &egui::Context) {
        if !self.show_open_path {
            return;
        }
        let mut open = true;
        let mut go = false;
        egui::Window::new("Open path").open(&mut open).show(ctx, |ui| {
            ui.horizontal(|ui| {
                let focus = std::mem::take(&mut self.open_path_focus);
                let r = crate::paths::path_field(ui, &mut self.open_path, 280.0, focus);
                go = ui.button("Open").clicked() || (r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)));
            });
        });
        if go {
            let p = crate::paths::typed_path(self.open_path.trim());
            self.open_file(p);
            open = false;
        }
        self.show_open_path = open;
    }
}

/// Whether `path` is a recording: its first 64 KiB name the `fbd_recording` version (a
/// recording writes it first; a diagram has no such key).
fn is_recording(path: &std::path::Path) -> bool {
    use std::io::Read;
    // Regular files only: a FIFO would block here.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(64 << 10).read_to_end(&mut head));
    read.is_ok() && head.windows(15).any(|w| w == b"\"fbd_recording\"")
}

impl App {
    /// The status line: what was loaded or done last (or that the scan task halted), the
    /// import's warnings, and the errors of a load that failed.
    pub(crate) fn status_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if let Some(why) = self.runner.halted() {
                ui.label(
                    egui::RichText::new(format!("HALTED: {why}")).color(egui::Color32::from_rgb(0xe0, 0x40, 0x40)),
                );
            } else {
                ui.label(&self.status);
            }
            // What the import of a PLCopen file said behaves differently here: on the
            // status line while that program runs (it was dropped: an INT that no longer
            // wraps where the PLC's would was never mentioned).
            let w = &self.loaded.warnings;
            if !w.is_empty() {
                ui.label(
                    egui::RichText::new(format!("{} import warning{}", w.len(), if w.len() == 1 { "" } else { "s" }))
                        .color(egui::Color32::from_rgb(0xd0, 0x90, 0x20)),
                )
                .on_hover_text(w.join("\n"));
            }
            if !self.errors.is_empty() && ui.small_button("show errors").clicked() {
                self.errors_open = true;
            }
        });
    }
}
