//! The window's own commands: what the menu bar and the hotkeys ask for, as values. The menu
//! and the keys only say which command; `App::execute` carries each out, so a key and its menu
//! item run the same code, and what a command does is found in one place.

use std::path::PathBuf;

use eframe::egui;
use fbd2048_game::{Command, Wiring};

use crate::app::App;
use crate::source::Origin;

/// A command of the menu bar or the keyboard.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum UiCommand {
    /// File > Open...: the native dialog, or the typed path where there is none.
    OpenDialog,
    /// File > Open path...: the typed-path window.
    OpenPath,
    Open(Origin),
    Reload,
    Record,
    /// Stop recording and save (or save the recording kept unsaved).
    SaveRecording,
    OpenRecording,
    ExportPlcopen,
    /// Debug > Run test table...: a table file run on its own runtime, the results shown.
    RunTests,
    /// Debug > Serve on network...: the Modbus server's window.
    ServeOnNetwork,
    /// The shown body's drawing as SVG.
    ExportDrawing,
    /// File > Print on A4 sheets: the shown drawing as PNG sheets at a legible size.
    PrintSheets,
    /// An embedded wiring, loaded by online change.
    Embedded(Wiring),
    Quit,
    RunOrPause,
    OneCycle,
    NCycles,
    Stop,
    /// Write (false) or force (true) the prepared values.
    Prepared(bool),
    ReleaseAll,
    ResetCold,
    ShowDebugger(bool),
    ShowDiagram(bool),
    Theme(egui::ThemePreference),
    /// A move of the game.
    Move(ref2048::Dir),
}

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

/// What the menu bar shows, read from the application once per frame.
pub(crate) struct MenuView {
    pub recording: bool,
    pub unsaved_recording: bool,
    pub recent: Vec<PathBuf>,
    pub paused: bool,
    pub prepared: bool,
    pub step_n: u64,
    pub editing: bool,
    pub debugger_shown: bool,
    pub diagram_shown: bool,
    /// The running program's name and origin.
    pub label: String,
}
