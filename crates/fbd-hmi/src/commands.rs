//! Where the window's commands are carried out ([`UiCommand`]: the menu bar's, the keys', the
//! panels' asks), and the actions that span panels and the running program: run, pause, step,
//! fast-forward, write and force, the online diagram's menu, the editor's Apply, the questions
//! about unsaved work and the typed paths.

use std::path::PathBuf;

use eframe::egui;
use fbd_engine::runtime::requests::{AddBreakpoint, Release, ReleaseAll, RunBackUntil, Step, StepBack, Write};
use fbd_engine::{Condition, StopReason, Value};
use fbd2048_game::Command;

use crate::app::App;
use crate::debugger::DebuggerAsk;
use crate::diagram::menu::{BreakOn, MenuAction};
use crate::link::{FrameCtx, Link};
use crate::path_prompt::{Outcome, PathAction, PathPrompt};
use crate::source::{self, Origin};
use crate::ui_command::{MenuView, UiCommand};
use crate::unsaved::{Choice, Discarding};

impl App {
    /// Carries out a command of the menu bar or the keyboard.
    pub(crate) fn execute(&mut self, c: UiCommand, ctx: &egui::Context) {
        match c {
            UiCommand::OpenDialog => {
                let picked = self.native_dialogs.then(|| {
                    rfd::FileDialog::new()
                        .add_filter("FBD diagram", &["json"])
                        .add_filter("PLCopen XML", &["xml"])
                        .pick_file()
                });
                match picked.flatten() {
                    Some(p) => self.open(Origin::File(p)),
                    // No dialog (or no file from it): the path is typed.
                    None => self.execute(UiCommand::OpenPath, ctx),
                }
            }
            UiCommand::OpenPath => {
                self.show_open_path = true;
                self.open_path_focus = true;
            }
            UiCommand::Open(o) => self.open(o),
            UiCommand::Reload => self.reload(),
            UiCommand::Record => self.start_recording(),
            UiCommand::SaveRecording => {
                if let Err(e) = self.stop_recording(None) {
                    self.status = e;
                }
            }
            UiCommand::OpenRecording => {
                if let Err(e) = self.open_recording(None) {
                    self.status = e;
                }
            }
            UiCommand::ExportPlcopen => self.export_plcopen(None),
            UiCommand::RunTests => self.run_tests(None),
            UiCommand::ServeOnNetwork => self.network.open = true,
            UiCommand::ExportDrawing => self.export_drawing(None),
            UiCommand::PrintSheets => self.print_sheets(None),
            UiCommand::Embedded(w) => self.online_change(Origin::Embedded(w)),
            UiCommand::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            UiCommand::RunOrPause => self.online_run_or_pause(),
            UiCommand::OneCycle => self.online_one_cycle(),
            UiCommand::NCycles => self.online_n_cycles(),
            UiCommand::Stop => self.online_stop(),
            UiCommand::Prepared(force) => self.online_prepared(force),
            UiCommand::ReleaseAll => self.online_release_all(),
            UiCommand::ResetCold => {
                if let Err(e) = self.reset_cold() {
                    self.status = e;
                }
            }
            UiCommand::ShowDebugger(on) => *self.debugger_shown_mut() = on,
            UiCommand::ShowDiagram(on) => self.dbg.show_diagram = on,
            UiCommand::Theme(pref) => {
                self.prefs.theme = Some(
                    match pref {
                        egui::ThemePreference::Light => "light",
                        egui::ThemePreference::Dark => "dark",
                        egui::ThemePreference::System => "system",
                    }
                    .into(),
                );
                ctx.set_theme(pref);
            }
            UiCommand::Move(d) => self.send(Command::Move(d)),
            UiCommand::Debugger(a) => self.debugger_ask(a),
            UiCommand::Signal(path, a) => self.diagram_act(&path, a),
            UiCommand::Status(line) => self.status = line,
            UiCommand::Game(c) => self.send(c),
            UiCommand::EditorAsked => self.editor_asks(),
            UiCommand::CloseTests => self.tests = None,
            UiCommand::ShowTest(k, scan) => {
                if let Err(e) = self.show_test_at(k, scan) {
                    self.status = e;
                }
            }
        }
    }

    /// What the menu bar shows this frame.
    pub(crate) fn menu_view(&self) -> MenuView {
        MenuView {
            recording: self.recording,
            unsaved_recording: self.unsaved_recording.is_some(),
            recent: self.prefs.recent.clone(),
            paused: self.is_paused(),
            prepared: !self.dbg.prepared.is_empty(),
            step_n: self.dbg.step_n,
            editing: self.editing(),
            debugger_shown: self.debugger_shown(),
            diagram_shown: self.dbg.show_diagram,
            label: self.loaded.label(),
        }
    }
}

impl App {
    // The online commands, as CODESYS's Online and Debug menus have them (the keys, the menu
    // and the debugger's buttons call these).
    /// Steps `n` scans back (the task pauses first), as if they had not run.
    pub fn step_back(&mut self, n: u64) -> Result<u64, String> {
        self.pause();
        let r = self.runner.call(StepBack(n)).map_err(|e| e.to_string());
        self.note_altered();
        self.refresh();
        r
    }

    /// Runs `n` scans now (used while paused, and by tests).
    pub fn run_scans(&mut self, n: u64) {
        self.cancel_seek();
        self.dbg.cancel_forward();
        self.runner.call(Step(n));
        self.refresh();
    }

    /// Pauses the scan thread.
    pub fn pause(&mut self) {
        // The debugger takes over from where a seek or a fast-forward got to.
        self.cancel_seek();
        self.dbg.cancel_forward();
        self.runner.pause();
    }

    /// Resumes the scan thread.
    pub fn resume(&mut self) {
        // Running live from where a seek or a fast-forward got to: it ends there.
        self.cancel_seek();
        self.dbg.cancel_forward();
        self.runner.resume();
        // Messages about where a stepped or fast-forwarded run stopped no longer hold.
        if self.dbg.message.ends_with("(paused)") {
            self.dbg.message.clear();
        }
    }

    /// F5: runs the task if it is paused, pauses it if it runs.
    pub fn online_run_or_pause(&mut self) {
        if self.runner.is_paused() { self.resume() } else { self.pause() }
    }

    /// Ctrl+F5 (and F10): one cycle, pausing the task first.
    pub fn online_one_cycle(&mut self) {
        if !self.runner.is_paused() {
            self.pause();
        }
        self.run_scans(1);
    }

    /// Shift+F10: the debugger's N cycles, pausing the task first.
    pub fn online_n_cycles(&mut self) {
        if !self.runner.is_paused() {
            self.pause();
        }
        self.fast_forward(None, self.dbg.step_n.max(1));
    }

    /// Shift+F8: stops the task (it stays stopped until run again).
    pub fn online_stop(&mut self) {
        if !self.runner.is_paused() {
            self.pause();
        }
    }

    /// Ctrl+F7 (`force` false) and F7 (`force` true): writes or forces the prepared values,
    /// together in one scan.
    pub fn online_prepared(&mut self, force: bool) {
        if self.dbg.prepared.is_empty() {
            self.dbg.message = "nothing is prepared: prepare values in the signal editor first".into();
        } else {
            self.note_altered();
            self.dbg.apply_prepared(force, Link::new(&self.runner));
            self.refresh();
        }
    }

    /// Alt+F7: releases every force.
    pub fn online_release_all(&mut self) {
        self.runner.call(ReleaseAll);
        self.dbg.message = "all forces released".into();
        self.refresh();
    }

    /// Reset cold: the running program starts again from its initial values, scan 0, no forces
    /// (what a download of the same program does, without reading its file again: after an
    /// Apply from the editor the file may be another program, or there is none). The task
    /// keeps running or stays paused; the editor's work, the watches and the breakpoints stay.
    pub fn reset_cold(&mut self) -> Result<(), String> {
        let l = source::Loaded {
            origin: self.loaded.origin.clone(),
            project: self.loaded.project.clone(),
            unsaved: self.loaded.unsaved,
            warnings: self.loaded.warnings.clone(),
        };
        let plan = fbd_engine::compile_project(&l.project, &Default::default())
            .map_err(|e| format!("{}: cannot restart: {e}", l.label()))?;
        let ws = self.editor.ws.take();
        let body = self.editor.body.clone();
        let note = self.cold_start(l, plan);
        self.editor.ws = ws;
        self.editor.body = body;
        self.status = format!("{}: reset cold (initial values, scan 0){note}", self.loaded.label());
        self.refresh();
        Ok(())
    }

    /// The active forces (re-read only when they changed: the scan image says when).
    pub fn forces(&mut self) -> Vec<(String, Value)> {
        let img = self.image();
        self.dbg.forces(&img, Link::new(&self.runner))
    }

    /// Starts running up to `limit` scans (the task pauses), until `cond` holds if there is
    /// one; the first slice runs now, the rest one per frame (`forward_slice`).
    pub(crate) fn fast_forward(&mut self, cond: Option<Condition>, limit: u64) {
        self.pause();
        self.dbg.start_forward(cond, limit);
        self.forward_slice();
    }

    /// Runs the next slice of a fast-forward under way.
    pub(crate) fn forward_slice(&mut self) {
        self.dbg.forward_slice(Link::new(&self.runner));
        self.refresh();
    }

    /// Watches `path` for the trends.
    pub(crate) fn watch_signal(&mut self, path: &str) -> Result<(), String> {
        let img = self.image();
        let cx = FrameCtx::new(&img, &self.runner, self.game.is_some());
        self.dbg.trends.watch(path, cx)
    }

    // The online diagram's context menu on a signal.
    /// Carries out a context-menu action on signal `path`.
    pub(crate) fn diagram_act(&mut self, path: &str, a: MenuAction) {
        if matches!(a, MenuAction::Write(_)) {
            self.note_altered();
        }
        let result: Result<String, String> = match a {
            MenuAction::Write(v) => self
                .runner
                .call(Write { path: path.to_string(), value: v })
                .map(|()| format!("{path} := {v} at the next scan"))
                .map_err(|e| e.to_string()),
            MenuAction::Break(on) => {
                let cond = match on {
                    BreakOn::Rise => Condition::Rises(path.to_string()),
                    BreakOn::Change => Condition::Changes(path.to_string()),
                    BreakOn::Equals(v) => Condition::Equals(path.to_string(), v),
                };
                let text = cond.to_string();
                self.runner
                    .call(AddBreakpoint(cond))
                    .map(|_| format!("breakpoint `{text}` set: the task pauses after a scan where it holds"))
                    .map_err(|e| e.to_string())
            }
            MenuAction::Force(v) => self.force(path, v).map(|()| format!("{path} forced to {v}")),
            MenuAction::Release => Ok(if self.runner.call(Release(path.to_string())) {
                format!("{path} released")
            } else {
                format!("{path} was not forced")
            }),
            MenuAction::Watch => self.watch_signal(path).map(|()| format!("watching {path}")),
            MenuAction::Select => {
                self.dbg.select_from_menu(path);
                *self.debugger_shown_mut() = true;
                Ok(format!("{path} selected in the debugger (write or force it there)"))
            }
        };
        self.diagram.message = result.unwrap_or_else(|e| format!("{path}: {e}"));
    }

    // Paths from the desktop's dialogs or the typed-path window.
    /// The path of a file to write, from the desktop's save dialog; without one (or when it
    /// gives none) the typed-path window opens for `action` and this returns `None`.
    pub(crate) fn save_path(&mut self, action: PathAction, filter: (&str, &[&str]), name: &str) -> Option<PathBuf> {
        let picked = if self.native_dialogs {
            rfd::FileDialog::new().add_filter(filter.0, filter.1).set_file_name(name).save_file()
        } else {
            None
        };
        if picked.is_none() {
            self.path_prompt = Some(PathPrompt::new(action, &format!("~/{name}")));
        }
        picked
    }

    /// The path of a file to read, from the desktop's open dialog, or (as `save_path`) the
    /// typed-path window.
    pub(crate) fn open_path(&mut self, action: PathAction, filter: (&str, &[&str])) -> Option<PathBuf> {
        let picked =
            if self.native_dialogs { rfd::FileDialog::new().add_filter(filter.0, filter.1).pick_file() } else { None };
        if picked.is_none() {
            self.path_prompt = Some(PathPrompt::new(action, ""));
        }
        picked
    }

    /// The typed-path window, while open; a confirmed path does what it was asked for.
    pub(crate) fn path_prompt_window(&mut self, ctx: &egui::Context) {
        let Some(prompt) = self.path_prompt.as_mut() else { return };
        let action = prompt.action;
        match prompt.show(ctx) {
            Outcome::Nothing => {}
            Outcome::Cancel => {
                self.path_prompt = None;
                self.status = match action {
                    PathAction::SaveRecording if self.recording => "not saved: still recording".into(),
                    PathAction::SaveRecording => {
                        "not saved: the recording is kept (File > Save the unsaved recording)".into()
                    }
                    _ => "cancelled".into(),
                };
            }
            Outcome::Go(path) => {
                self.path_prompt = None;
                let result = match action {
                    PathAction::SaveRecording => self.stop_recording(Some(path)).map(|_| ()),
                    PathAction::OpenRecording => self.open_recording(Some(path)),
                    PathAction::ExportPlcopen => {
                        self.export_plcopen(Some(path));
                        Ok(())
                    }
                    PathAction::ExportDrawing => {
                        self.export_drawing(Some(path));
                        Ok(())
                    }
                    PathAction::PrintSheets => {
                        self.print_sheets(Some(path));
                        Ok(())
                    }
                    PathAction::RunTests => {
                        self.run_tests(Some(path));
                        Ok(())
                    }
                };
                if let Err(e) = result {
                    self.status = e;
                }
            }
        }
    }

    // Unsaved work is asked about before it is dropped.
    /// Whether `what` would lose something: the editor's unsaved edits, or for a close a
    /// recording not saved.
    fn would_lose(&self, what: &Discarding) -> bool {
        self.unsaved_edits() > 0 || (matches!(what, Discarding::Quit) && self.unsaved_recording())
    }

    /// Does `what` now, or first asks what to do with the unsaved work it would drop.
    pub(crate) fn unless_unsaved(&mut self, what: Discarding) {
        if self.would_lose(&what) {
            self.discarding = Some(what);
        } else {
            self.proceed(what);
        }
    }

    fn proceed(&mut self, what: Discarding) {
        match what {
            Discarding::New => self.editor.new_program(),
            Discarding::Open(origin) => self.load(origin),
            Discarding::Quit => self.quit_now = true,
        }
    }

    /// A close of the window with unsaved edits is held until the user says what to do.
    pub(crate) fn hold_close(&mut self, ctx: &egui::Context) {
        if self.quit_now {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        if ctx.input(|i| i.viewport().close_requested()) && self.would_lose(&Discarding::Quit) {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.discarding = Some(Discarding::Quit);
        }
    }

    /// The question about unsaved work, while one is open; its answer is carried out here.
    pub(crate) fn unsaved_modal(&mut self, ctx: &egui::Context) {
        let Some(what) = self.discarding.as_ref() else { return };
        let files: Vec<String> = self
            .editor
            .ws
            .as_ref()
            .map(|w| w.dirty().iter().map(|p| p.display().to_string()).collect())
            .unwrap_or_default();
        let question = crate::unsaved::Question {
            what,
            files,
            recording: (matches!(what, Discarding::Quit) && self.unsaved_recording()).then_some(self.recording),
            message: &self.unsaved_message,
        };
        let choice = question.show(ctx);
        match choice {
            Some(Choice::SaveEdits) => match self.editor_save() {
                Ok(_) if !self.would_lose(self.discarding.as_ref().expect("asking")) => self.go_on(),
                Ok(m) | Err(m) => self.unsaved_message = m,
            },
            Some(Choice::SaveRecording) => {
                // The close waits: the recording is saved where the user says, then they close.
                self.discarding = None;
                self.unsaved_message.clear();
                if let Err(e) = self.stop_recording(None) {
                    self.status = e;
                }
            }
            Some(Choice::Discard) => self.go_on(),
            Some(Choice::Cancel) => {
                self.discarding = None;
                self.unsaved_message.clear();
            }
            None => {}
        }
    }

    fn go_on(&mut self) {
        self.unsaved_message.clear();
        // The edits are dropped knowingly: New replaces the workspace, a load resets it, a
        // close ends the process.
        if let Some(what) = self.discarding.take() {
            self.proceed(what);
        }
    }

    // The debugger panel's asks.
    /// Carries out what the debugger panel asked for.
    fn debugger_ask(&mut self, a: DebuggerAsk) {
        match a {
            DebuggerAsk::Run => self.resume(),
            DebuggerAsk::Pause => self.pause(),
            DebuggerAsk::Step => self.run_scans(1),
            DebuggerAsk::StepN(n) => self.fast_forward(None, n),
            DebuggerAsk::Back(n) => {
                self.dbg.message = match self.step_back(n) {
                    Ok(s) => format!("back at scan {s}"),
                    Err(e) => e,
                }
            }
            DebuggerAsk::RunUntil => self.run_until(),
            DebuggerAsk::RunBackUntil => self.run_back_until(),
            DebuggerAsk::Period(p) => self.runner.set_period(p),
            DebuggerAsk::StopForward => self.dbg.cancel_forward(),
            DebuggerAsk::ResetStatistics => {
                self.runner.reset_stats();
                self.front.scans_max = 0;
            }
            DebuggerAsk::Altered => self.note_altered(),
            DebuggerAsk::Prepared { force } => self.online_prepared(force),
        }
    }

    /// Runs back through the history until the condition held (re-executing from snapshots).
    pub fn run_back_until(&mut self) {
        let cond = match Condition::parse(self.dbg.until.trim()) {
            Ok(c) => c,
            Err(e) => {
                self.dbg.message = e;
                return;
            }
        };
        self.pause();
        let limit = self.dbg.until_limit;
        let r = self.runner.call(RunBackUntil { cond, limit });
        self.note_altered();
        self.refresh();
        self.dbg.message = match r {
            Ok(StopReason::Condition { scans, .. }) => format!("condition held {scans} scans back (paused)"),
            Ok(StopReason::Limit) => format!("did not hold within {limit} scans back or the history (paused)"),
            Err(e) => e.to_string(),
        };
    }

    /// Fast-forward until the typed condition holds, at most the set number of scans, a slice
    /// per frame (ten million scans take seconds; the window answers meanwhile).
    fn run_until(&mut self) {
        match Condition::parse(self.dbg.until.trim()) {
            Ok(c) => self.fast_forward(Some(c), self.dbg.until_limit),
            Err(e) => self.dbg.message = e,
        }
    }

    // The editor's asks: Apply by online change, New, a save that makes the running program
    // the saved file's.
    /// Carries out what the editor asked for in this frame.
    pub(crate) fn editor_asks(&mut self) {
        let asks = std::mem::take(&mut self.editor.asks);
        if asks.saved {
            self.editor_saved();
        }
        if let Some(main) = asks.saved_as {
            // A file written with Save as is one to open again (File > Open recent).
            self.remember_recent(main);
        }
        if asks.new_program {
            self.unless_unsaved(crate::unsaved::Discarding::New);
        }
        if asks.apply {
            self.editor_apply();
        }
    }

    /// Save (Ctrl+S, and the unsaved-edits question's Save).
    pub(crate) fn editor_save(&mut self) -> Result<String, String> {
        self.editor_mut();
        let r = self.editor.save();
        self.editor_asks();
        r
    }

    /// Loads the edited program into the running runtime by online change.
    pub fn editor_apply(&mut self) {
        let ws = self.editor_mut().workspace();
        let (project, plan) = match ws.project().and_then(|p| {
            let plan = fbd_engine::compile_project(&p, &Default::default())?;
            Ok((p, plan))
        }) {
            Ok(x) => x,
            Err(d) => {
                self.editor.errors = d.0.iter().map(|e| e.to_string()).collect();
                self.editor.message = format!("not applied: {} error(s); the running program is unchanged", d.0.len());
                return;
            }
        };
        let note = self.before_online_change();
        let report = self.change_program(plan);
        self.editor.message = format!(
            "applied by online change: {} kept, {} reset, {} removed (hover for the list)",
            report.kept.len(),
            report.reset.len(),
            report.removed.len()
        );
        let list = |title: &str, v: &[String]| {
            let mut t = format!("{title} ({}):", v.len());
            for p in v.iter().take(30) {
                t.push_str("\n  ");
                t.push_str(p);
            }
            if v.len() > 30 {
                t.push_str(&format!("\n  ... and {} more", v.len() - 30));
            }
            t
        };
        self.editor.details =
            [list("state reset", &report.reset), list("removed", &report.removed), list("kept", &report.kept)]
                .join("\n");
        self.loaded.project = std::sync::Arc::new(project);
        // What an import said was of the file it read; the editor's program is in this format.
        self.loaded.warnings.clear();
        // The running program is now the editor's: named after its file, or said to have none
        // (the title still named the embedded 2048 program over a new program, and Record
        // reloaded that).
        let ws = self.editor.ws.as_ref().expect("made");
        let dirty = !ws.dirty().is_empty();
        if ws.has_file() {
            self.loaded.origin = Origin::File(ws.path().to_path_buf());
            self.loaded.unsaved = dirty;
        } else if dirty || matches!(self.loaded.origin, Origin::Editor(_)) {
            self.loaded.origin = Origin::Editor(ws.path().display().to_string());
            self.loaded.unsaved = false;
        }
        // The status line said what was loaded before.
        self.status = format!("{}: online change from the editor{note}", self.loaded.label());
        // The runtime has a new plan: rebind the game and the views, keep the editor's work.
        let ws = self.editor.ws.take();
        let body = self.editor.body.clone();
        self.attach();
        self.editor.ws = ws;
        self.editor.body = body;
    }

    /// After a save: when the running program is what was just saved, it is that file's now
    /// (Reload and the title follow the file).
    fn editor_saved(&mut self) {
        let Some(ws) = self.editor.ws.as_ref() else { return };
        if !ws.has_file() || !ws.dirty().is_empty() {
            return;
        }
        let running = self.loaded.project.files.iter().map(|f| f.text.as_str());
        if ws.texts().map(|(_, t)| t).eq(running) {
            self.loaded.origin = Origin::File(ws.path().to_path_buf());
            self.loaded.unsaved = false;
        }
    }
}
