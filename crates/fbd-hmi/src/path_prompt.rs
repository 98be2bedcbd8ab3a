//! The typed-path window every file dialog falls back to. The desktop's dialogs come through
//! its portal; without one (a bare X server, a remote session, a kiosk) a dialog gives no file,
//! and saving a recording or exporting was impossible ("no file chosen: still recording").
//! Here the user types the path (`~` is the home directory); a file that exists is written
//! over only after Overwrite, as a save dialog asks.

use std::path::PathBuf;

use eframe::egui::{self, Color32};

/// What the typed path is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum PathAction {
    /// File > Stop recording and save / Save the unsaved recording.
    SaveRecording,
    /// File > Open recording.
    OpenRecording,
    /// File > Export PLCopen XML.
    ExportPlcopen,
    /// File > Export drawing.
    ExportDrawing,
    /// File > Print on A4 sheets.
    PrintSheets,
    /// File > Run test table.
    RunTests,
}

impl PathAction {
    fn title(self) -> &'static str {
        match self {
            PathAction::SaveRecording => "Save the recording as",
            PathAction::OpenRecording => "Open a recording",
            PathAction::ExportPlcopen => "Export PLCopen XML as",
            PathAction::ExportDrawing => "Export the drawing as",
            PathAction::PrintSheets => "Print the drawing on A4 sheets named (NAME.png: NAME-1.png...)",
            PathAction::RunTests => "Run a test table",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            PathAction::SaveRecording => "Save",
            PathAction::OpenRecording => "Open",
            PathAction::ExportPlcopen | PathAction::ExportDrawing => "Export",
            PathAction::PrintSheets => "Print",
            PathAction::RunTests => "Run",
        }
    }

    /// Whether it writes the file (and so asks before writing over one).
    fn writes(self) -> bool {
        !matches!(self, PathAction::OpenRecording | PathAction::RunTests)
    }
}

/// The window's state while it is open.
pub(crate) struct PathPrompt {
    pub(crate) action: PathAction,
    text: String,
    /// The field takes the keyboard when the window opens (typed keys went to the game).
    focus: bool,
    /// The existing file the last confirmation would write over.
    overwrite: Option<PathBuf>,
}

/// What the user did in the window this frame.
pub(crate) enum Outcome {
    Nothing,
    Cancel,
    Go(PathBuf),
}

impl PathPrompt {
    pub(crate) fn new(action: PathAction, suggested: &str) -> PathPrompt {
        PathPrompt { action, text: suggested.to_string(), focus: true, overwrite: None }
    }

    pub(crate) fn show(&mut self, ctx: &egui::Context) -> Outcome {
        let mut open = true;
        let mut outcome = Outcome::Nothing;
        egui::Window::new(self.action.title()).open(&mut open).collapsible(false).show(ctx, |ui| {
            let mut go = false;
            ui.horizontal(|ui| {
                let l = ui.label("path");
                let focus = std::mem::take(&mut self.focus);
                let r = crate::paths::path_field(ui, &mut self.text, 320.0, focus).labelled_by(l.id);
                if r.changed() {
                    self.overwrite = None;
                }
                go = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            });
            let target = crate::paths::typed_path(self.text.trim());
            let asking = self.overwrite.as_ref().is_some_and(|p| *p == target);
            if asking {
                ui.colored_label(Color32::from_rgb(0xe0, 0x90, 0x30), format!("{} exists", target.display()));
            }
            ui.horizontal(|ui| {
                let verb = if asking { "Overwrite" } else { self.action.verb() };
                go |= ui.button(verb).clicked();
                if ui.button("Cancel").clicked() {
                    outcome = Outcome::Cancel;
                }
            });
            if go && !self.text.trim().is_empty() {
                if self.action.writes() && target.exists() && !asking {
                    self.overwrite = Some(target);
                } else {
                    outcome = Outcome::Go(target);
                }
            }
        });
        if !open {
            outcome = Outcome::Cancel;
        }
        outcome
    }
}
