//! Files in and out of the window: opening a diagram (a cold start), online change, the error
//! and open-path windows, drag and drop, recording and playing back, the settings, the PLCopen
//! export, test tables, the drawing's export.

use std::path::PathBuf;
use std::time::Duration;

use eframe::egui::{self, Color32, RichText};
use fbd_engine::Runtime;
use fbd_engine::runtime::requests::{OnlineChange, StopPlayback, StopRecording};

use crate::app::{App, HISTORY_BYTES, HISTORY_EVERY};
use crate::diagram::DiagramCtx;
use crate::diagram::export::Written;
use crate::export_job::ExportJob;
use crate::link::Link;
use crate::replay_bar::{Replay, ReplayAsked, Seeking, recorded_origin};
use crate::settings::{ProgramSettings, RECENT};
use crate::source::{self, Origin};
use crate::tests_panel::TestsPanel;
use fbd_engine::Recording;
use fbd_engine::runtime::requests::{RestoreBreakpoints, StartPlayback};

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
        self.dbg.cancel_forward();
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
            } else if let Some(why) = self.image().halt_message() {
                ui.label(
                    egui::RichText::new(format!("STOP: the task stopped at {why}; Reset restarts the program"))
                        .color(egui::Color32::from_rgb(0xe0, 0x40, 0x40)),
                )
                .on_hover_text("a loop ran longer than the watchdog (the document's watchdog_ms; default three cycles): the PLC stops the task, as CODESYS and Beremiz do");
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

impl App {
    // The settings: the recent files, each program's watches and breakpoints.
    /// Puts a file at the top of the recent list.
    pub(crate) fn remember_recent(&mut self, path: PathBuf) {
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        self.prefs.recent.retain(|p| *p != path);
        self.prefs.recent.insert(0, path);
        self.prefs.recent.truncate(RECENT);
    }

    /// Restores the watches and breakpoints remembered for program `key` (those whose signals
    /// no longer exist are dropped quietly: the program changed).
    pub(crate) fn restore_program_settings(&mut self, key: &str) {
        let Some(ps) = self.prefs.programs.get(key).cloned() else { return };
        for w in &ps.watches {
            let _ = self.watch_signal(w);
        }
        let parsed = ps.breakpoints.iter().filter_map(|(c, on)| Some((fbd_engine::Condition::parse(c).ok()?, *on)));
        self.runner.call(RestoreBreakpoints(parsed.collect()));
    }

    /// Takes the running program's watches and breakpoints into the settings.
    pub(crate) fn collect_program_settings(&mut self, key: &str) {
        if key.is_empty() {
            return;
        }
        let watches = self.dbg.trends.user_watches(self.frame_ctx(&self.image()));
        let breakpoints =
            self.image().breakpoints().into_iter().map(|b| (b.condition.to_string(), b.enabled)).collect();
        let ps = ProgramSettings { watches, breakpoints };
        if ps == ProgramSettings::default() {
            self.prefs.programs.remove(key);
        } else {
            self.prefs.programs.insert(key.to_string(), ps);
        }
    }

    /// Writes the settings (on exit, and when the program changes).
    pub fn save_settings(&mut self) {
        let key = self.program_key().to_string();
        self.collect_program_settings(&key);
        self.prefs.debugger = self.show_debugger;
        self.prefs.debugger_editing = self.debugger_while_editing;
        self.prefs.diagram = self.dbg.show_diagram;
        if let Err(e) = self.settings_store.save(&self.prefs) {
            self.status = e;
        }
    }

    // Recordings played back, and the replay bar's asks.
    /// Plays the recording at `path` (or one a file dialog picks) back through its program:
    /// a cold start with the recorded seed, then every recorded event before its scan.
    pub fn open_recording(&mut self, path: Option<PathBuf>) -> Result<(), String> {
        if self.unsaved_edits() > 0 {
            return Err("the editor has unsaved changes: save them (Ctrl+S) or undo them before playing a recording, which loads its own program".into());
        }
        let path = path
            .or_else(|| self.open_path(crate::path_prompt::PathAction::OpenRecording, ("fbd recording", &["json"])))
            .ok_or("type the path of the recording to open")?;
        // Bounded and regular files only, like a diagram: a device or a FIFO would never end.
        let rec = Recording::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let origin = recorded_origin(&rec, &path)?;
        // The program as loaded now must be the recorded one, or the replay is another run.
        let project = crate::source::load(&origin).map_err(|e| format!("{}: {e}", origin.label()))?.0.project;
        if let Some(why) = rec.program_differs(&project) {
            return Err(format!("{}: {why}; the replay would not be the recorded run", path.display()));
        }
        // At the recording's cycle, which a run may have set from outside the file
        // (`fbd serve --cycle`): the playback refused another.
        match crate::source::load_at(&origin, Some(rec.cycle_us)) {
            Ok((l, plan)) => {
                self.cold_start(l, plan);
            }
            Err(e) => {
                self.load_failed(&origin, e);
                return Err(format!("{}: its program does not load", path.display()));
            }
        }
        self.refresh();
        let replay = Replay::of(&rec, &path);
        self.runner.pause();
        self.runner.call(StartPlayback(Box::new(rec))).map_err(|e| format!("{}: {e}", path.display()))?;
        self.runner.resume();
        // A replayed game is not a new best.
        self.note_altered();
        self.status = format!("replaying {} ({} scans)", path.display(), replay.scans);
        self.replay = Some(replay);
        self.refresh();
        Ok(())
    }

    /// Moves the replay to scan `target` (the task pauses): back through the history, or
    /// forward by scanning. Returns the scan reached in this frame; a seek far ahead goes on
    /// a slice per frame ([`App::seek_target`]) until it arrives or is cancelled.
    pub fn seek(&mut self, target: u64) -> Result<u64, String> {
        self.runner.pause();
        let seeking = self.replay.as_mut().and_then(|r| r.seeking.take());
        self.seek_slice(Seeking::to(target, seeking))
    }

    /// Stops a seek under way where it is.
    pub fn cancel_seek(&mut self) {
        if let Some(r) = self.replay.as_mut()
            && let Some(s) = r.seeking.take()
        {
            self.status = format!("stopped at scan {} on the way to {}", self.image().scan, s.target);
        }
    }

    /// Runs one slice of a seek and keeps the rest for the next frame.
    fn seek_slice(&mut self, mut s: Seeking) -> Result<u64, String> {
        let link = Link::new(&self.runner);
        let r = match self.replay.as_mut() {
            Some(replay) => replay.seek_slice(s, link),
            None => s.run(link).0,
        };
        self.refresh();
        r
    }

    /// Ends the replay; the program runs on live from where it is.
    pub fn stop_replay(&mut self) {
        self.runner.call(StopPlayback);
        if let Some(r) = self.replay.take() {
            self.status = format!("replay of {} ended; running live", r.path.display());
        }
    }

    /// Carries out what the replay bar asked (pacing and seeking are the application's).
    pub(crate) fn replay_asked(&mut self, asked: ReplayAsked, ctx: &egui::Context) {
        if asked.play {
            self.resume();
        }
        if asked.pause {
            self.pause();
        }
        if asked.go_live {
            self.stop_replay();
        }
        if asked.stop_seek {
            self.cancel_seek();
        }
        // A seek under way goes on by a slice per frame, unless a new one replaces it.
        let seek = asked.seek_to.map(|t| self.seek(t)).or_else(|| {
            let s = self.replay.as_mut()?.seeking.take()?;
            Some(self.seek_slice(s))
        });
        if let Some(Err(e)) = seek {
            self.status = e;
        }
        if self.seek_target().is_some() {
            ctx.request_repaint();
        }
    }

    // The PLCopen export on its own thread.
    /// Writes the running program as PLCopen TC6 XML to `path` (or where a save dialog says),
    /// on its own thread; the status line says when it is written ([`App::wait_for_export`]
    /// waits for it). One export at a time.
    pub fn export_plcopen(&mut self, path: Option<PathBuf>) {
        if let Some(job) = &self.export {
            self.status = format!("an export to {} is still being written; export again once it is done", job.path());
            return;
        }
        let Some(path) = path.or_else(|| {
            self.save_path(crate::path_prompt::PathAction::ExportPlcopen, ("PLCopen XML", &["xml"]), "program.xml")
        }) else {
            self.status = "type the path to export to".into();
            return;
        };
        let plan = std::sync::Arc::clone(&self.image().plan);
        match ExportJob::start(self.loaded.project.clone(), plan, path) {
            Ok(job) => {
                self.status = format!("exporting PLCopen XML to {}...", job.path());
                self.export = Some(job);
            }
            // Written already, or not at all: the window waited.
            Err(said) => self.status = said,
        }
    }

    /// Takes the outcome of a finished export (each frame); while one is being written, asks
    /// for a frame now and then to see it end.
    pub(crate) fn poll_export(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.export else { return };
        match job.poll() {
            Some(said) => {
                self.status = said;
                self.export = None;
            }
            None => ctx.request_repaint_after(Duration::from_millis(100)),
        }
    }

    /// Waits until the export under way (if any) is written, and says how it went on the
    /// status line. Whether one was under way. (Closing the window waits too: a file cut off
    /// half-written is never left behind.)
    pub fn wait_for_export(&mut self) -> bool {
        let Some(job) = self.export.take() else { return false };
        self.status = job.wait();
        true
    }

    // Test tables run from the window.
    /// Runs the test table at `path` (or one the file dialog or the typed-path window gives)
    /// and opens the Tests window with its results.
    pub fn run_tests(&mut self, path: Option<PathBuf>) {
        let Some(path) =
            path.or_else(|| self.open_path(crate::path_prompt::PathAction::RunTests, ("test table", &["json"])))
        else {
            self.status = "type the path of the test table to run".into();
            return;
        };
        let panel = TestsPanel::run(path);
        self.status = panel.summary();
        self.tests = Some(panel);
    }

    /// Replays test `k` of the open table on the live runtime (as a recording, through its
    /// program) and stops at `scan`.
    pub fn show_test_at(&mut self, k: usize, scan: u64) -> Result<(), String> {
        let (file, name) = self.tests.as_ref().ok_or("no test table is open")?.recording_file(k)?;
        self.open_recording(Some(file))?;
        // Scan `scan` (numbered from 0) has run when the count is one more.
        self.seek(scan + 1)?;
        self.status = format!("test `{name}` at scan {scan}");
        Ok(())
    }

    /// The Tests window's results, for tests: each test's name and whether it passed.
    pub fn test_results(&self) -> Vec<(String, bool)> {
        self.tests.as_ref().map_or(Vec::new(), TestsPanel::results)
    }

    // The online diagram's drawing written as SVG, PNG or A4 sheets.
    /// Writes the shown body's drawing to `path` (or one a dialog or the typed-path window
    /// gives); says what happened on the status line.
    pub fn export_drawing(&mut self, path: Option<PathBuf>) {
        self.write_drawing(path, Written::Drawing);
    }

    /// Prints the shown body's drawing on A4 sheets with 8-point text: NAME-1.png,
    /// NAME-2.png... beside `path` (NAME.png, or one a dialog or the typed-path window gives);
    /// says what was written on the status line.
    pub fn print_sheets(&mut self, path: Option<PathBuf>) {
        self.write_drawing(path, Written::Sheets);
    }

    fn write_drawing(&mut self, path: Option<PathBuf>, how: Written) {
        let img = self.image();
        let Some(bl) = self.diagram.body(&DiagramCtx { img: &img, project: &self.loaded.project }) else {
            self.status = "no drawing to export yet: open the Diagram tab first".into();
            return;
        };
        let (action, filter, file) = self.diagram.drawing_file(how);
        let Some(path) = path.or_else(|| self.save_path(action, filter, &file)) else {
            self.status = "type the path to export the drawing to".into();
            return;
        };
        let cx = DiagramCtx { img: &img, project: &self.loaded.project };
        self.status = match self.diagram.ladder_svg(&cx, &self.loaded.label()) {
            // A ladder body is drawn as ladder, its power flow as on screen; printed, it is cut
            // between rungs.
            Some((text, d, title)) if how == Written::Sheets => {
                let path = crate::paths::typed_path(&path.display().to_string());
                let pt = fbd_layout::sheets::PRINT_TEXT_PT;
                let sheets = fbd_layout::ladder::a4_sheets(&d, pt);
                match fbd_layout::png::write_these_sheets(&path, &text, &sheets, (pt, &title), |_| Ok(())) {
                    Ok(said) => format!("printed on {said}"),
                    Err(e) => e,
                }
            }
            Some((text, _, _)) => crate::diagram::export::write_svg(&text, &path, how),
            None => self.diagram.write_drawing(&bl, &img, &self.loaded.label(), &path, how),
        };
    }
}
