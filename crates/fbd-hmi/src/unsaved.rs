//! Unsaved edits are not lost: New, loading another program and closing the window ask first
//! (Save, Discard, Cancel), as CODESYS asks on close. They used to drop the editor's
//! workspace without a word.

use eframe::egui::{self, RichText};

use crate::app::App;
use crate::source::Origin;

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

    /// Does `what` now, or first asks what to do with the unsaved edits it would drop.
    pub(crate) fn unless_unsaved(&mut self, what: Discarding) {
        if self.unsaved_edits() == 0 {
            self.proceed(what);
        } else {
            self.discarding = Some(what);
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
        if ctx.input(|i| i.viewport().close_requested()) && self.unsaved_edits() > 0 {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.discarding = Some(Discarding::Quit);
        }
    }

    /// The question, while one is open.
    pub(crate) fn unsaved_modal(&mut self, ctx: &egui::Context) {
        let Some(what) = self.discarding.as_ref() else { return };
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
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("unsaved edits")).show(ctx, |ui| {
            ui.label(RichText::new("Unsaved edits").strong());
            ui.label(format!("The editor has unsaved changes in {}; {doing} would lose them.", files.join(", ")));
            if !self.unsaved_message.is_empty() {
                ui.colored_label(egui::Color32::from_rgb(0xe0, 0x40, 0x40), &self.unsaved_message);
            }
            ui.horizontal(|ui| {
                if ui.button("Save changes").on_hover_text("write the changed files, then go on").clicked() {
                    choice = Some(true);
                }
                if ui.button("Discard changes").on_hover_text("go on without them").clicked() {
                    choice = Some(false);
                }
                if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                    self.discarding = None;
                    self.unsaved_message.clear();
                }
            });
        });
        match choice {
            Some(true) => match self.editor_save() {
                Ok(_) if self.unsaved_edits() == 0 => self.go_on(),
                Ok(m) | Err(m) => self.unsaved_message = m,
            },
            Some(false) => self.go_on(),
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
