//! Unsaved edits are not lost: New, loading another program and closing the window ask first
//! (Save, Discard, Cancel), as CODESYS asks on close. They used to drop the editor's
//! workspace without a word. Closing the window asks about a recording not yet saved too (a
//! load keeps it to be saved; a close would end the process with it).

use eframe::egui::{self, RichText};

use crate::app::App;
use crate::source::Origin;

/// An answer to the question.
enum Choice {
    SaveEdits,
    SaveRecording,
    Discard,
}

/// What would drop the editor's unsaved edits.
pub(crate) enum Discarding {
    /// Editor → New.
    New,
    /// Loading another program (File → Open, a dropped file, a wiring, Reload).
    Open(Origin),
    /// Closing the window.
    Quit,
}

impl App {
    /// How many files the editor changed and did not save.
    pub fn unsaved_edits(&self) -> usize {
        self.editor.ws.as_ref().map_or(0, |w| w.dirty().len())
    }

    /// Whether the window asks what to do with unsaved edits.
    pub fn asking_about_unsaved(&self) -> bool {
        self.discarding.is_some()
    }

    /// Whether a recording is under way or ended and not saved.
    pub fn unsaved_recording(&self) -> bool {
        self.recording || self.unsaved_recording.is_some()
    }

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
            Discarding::New => self.editor_new_program(),
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

    /// The question, while one is open.
    pub(crate) fn unsaved_modal(&mut self, ctx: &egui::Context) {
        let Some(what) = self.discarding.as_ref() else { return };
        let quitting = matches!(what, Discarding::Quit);
        let doing = match what {
            Discarding::New => "starting a new program".to_string(),
            Discarding::Open(o) => format!("loading {}", o.label()),
            Discarding::Quit => "closing the window".to_string(),
        };
        let files: Vec<String> = self
            .editor
            .ws
            .as_ref()
            .map(|w| w.dirty().iter().map(|p| p.display().to_string()).collect())
            .unwrap_or_default();
        let recording = quitting && self.unsaved_recording();
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("unsaved edits")).show(ctx, |ui| {
            ui.label(RichText::new(if files.is_empty() { "Unsaved recording" } else { "Unsaved edits" }).strong());
            if !files.is_empty() {
                ui.label(format!("The editor has unsaved changes in {}; {doing} would lose them.", files.join(", ")));
            }
            if recording {
                let what = if self.recording { "A recording is under way" } else { "A recording is not saved" };
                ui.label(format!("{what}; {doing} would lose it."));
            }
            if !self.unsaved_message.is_empty() {
                ui.colored_label(egui::Color32::from_rgb(0xe0, 0x40, 0x40), &self.unsaved_message);
            }
            ui.horizontal(|ui| {
                if !files.is_empty()
                    && ui.button("Save changes").on_hover_text("write the changed files, then go on").clicked()
                {
                    choice = Some(Choice::SaveEdits);
                }
                if recording
                    && ui.button("Save the recording...").on_hover_text("choose where; then close again").clicked()
                {
                    choice = Some(Choice::SaveRecording);
                }
                let discard = if files.is_empty() { "Discard the recording" } else { "Discard changes" };
                if ui.button(discard).on_hover_text("go on without them").clicked() {
                    choice = Some(Choice::Discard);
                }
                if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                    self.discarding = None;
                    self.unsaved_message.clear();
                }
            });
        });
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
}
