//! Unsaved edits are not lost: New, loading another program and closing the window ask first
//! (Save, Discard, Cancel), as CODESYS asks on close. They used to drop the editor's
//! workspace without a word. Closing the window asks about a recording not yet saved too (a
//! load keeps it to be saved; a close would end the process with it).

use eframe::egui::{self, RichText};

use crate::source::Origin;

/// An answer to the question.
pub(crate) enum Choice {
    SaveEdits,
    SaveRecording,
    Discard,
    Cancel,
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

/// The question asked before unsaved work would be dropped.
pub(crate) struct Question<'a> {
    pub what: &'a Discarding,
    /// The editor's changed files.
    pub files: Vec<String>,
    /// A recording the close would lose: whether it is still under way.
    pub recording: Option<bool>,
    /// Why saving from the question failed.
    pub message: &'a str,
}

impl Question<'_> {
    /// Asks (a modal); the answer given in this frame, if one was.
    pub(crate) fn show(&self, ctx: &egui::Context) -> Option<Choice> {
        let doing = match self.what {
            Discarding::New => "starting a new program".to_string(),
            Discarding::Open(o) => format!("loading {}", o.label()),
            Discarding::Quit => "closing the window".to_string(),
        };
        let files = &self.files;
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("unsaved edits")).show(ctx, |ui| {
            ui.label(RichText::new(if files.is_empty() { "Unsaved recording" } else { "Unsaved edits" }).strong());
            if !files.is_empty() {
                ui.label(format!("The editor has unsaved changes in {}; {doing} would lose them.", files.join(", ")));
            }
            if let Some(live) = self.recording {
                let what = if live { "A recording is under way" } else { "A recording is not saved" };
                ui.label(format!("{what}; {doing} would lose it."));
            }
            if !self.message.is_empty() {
                ui.colored_label(egui::Color32::from_rgb(0xe0, 0x40, 0x40), self.message);
            }
            ui.horizontal(|ui| {
                if !files.is_empty()
                    && ui.button("Save changes").on_hover_text("write the changed files, then go on").clicked()
                {
                    choice = Some(Choice::SaveEdits);
                }
                if self.recording.is_some()
                    && ui.button("Save the recording...").on_hover_text("choose where; then close again").clicked()
                {
                    choice = Some(Choice::SaveRecording);
                }
                let discard = if files.is_empty() { "Discard the recording" } else { "Discard changes" };
                if ui.button(discard).on_hover_text("go on without them").clicked() {
                    choice = Some(Choice::Discard);
                }
                if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                    choice = Some(Choice::Cancel);
                }
            });
        });
        choice
    }
}
