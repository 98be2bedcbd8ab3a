//! The menu bar: File (open, reload, record, recordings, PLCopen export, recent files,
//! embedded wirings), Debug (the debugger's commands with their keys, reset cold) and View
//! (panels, theme).

use eframe::egui::{self, RichText};
use fbd2048_game::Wiring;

use crate::source::Origin;
use crate::ui_command::{MenuView, UiCommand};

/// The menu bar: it shows `view` and returns the command chosen, if one was.
pub(crate) fn menu_bar(ui: &mut egui::Ui, view: &MenuView) -> Option<UiCommand> {
    let mut chosen = None;
    egui::MenuBar::new().ui(ui, |ui| {
        chosen = file_menu_button(ui, view)
            .or_else(|| ui.menu_button("Debug", |ui| debug_menu(ui, view)).inner.flatten())
            .or_else(|| view_menu_button(ui, view));
        ui.separator();
        ui.label(RichText::new(&view.label).weak());
    });
    chosen
}

/// A menu item that closes its menu when clicked.
fn item(ui: &mut egui::Ui, b: egui::Button<'_>) -> bool {
    let clicked = ui.add(b).clicked();
    if clicked {
        ui.close();
    }
    clicked
}

fn file_menu_button(ui: &mut egui::Ui, view: &MenuView) -> Option<UiCommand> {
    ui.menu_button("File", |ui| {
        let mut c = None;
        let mut pick = |ui: &mut egui::Ui, text: &str, cmd: UiCommand| {
            if item(ui, egui::Button::new(text)) {
                c = Some(cmd);
            }
        };
        pick(ui, "Open...", UiCommand::OpenDialog);
        pick(ui, "Open path...", UiCommand::OpenPath);
        pick(ui, "Reload (online change)", UiCommand::Reload);
        if !view.recording {
            pick(ui, "Record (restarts the program)", UiCommand::Record);
        }
        if view.recording {
            pick(ui, "Stop recording and save...", UiCommand::SaveRecording);
        } else if view.unsaved_recording {
            pick(ui, "Save the unsaved recording...", UiCommand::SaveRecording);
        }
        if ui.button("Open recording...").on_hover_text("plays a recorded run back, with a timeline").clicked() {
            ui.close();
            c = Some(UiCommand::OpenRecording);
        }
        if item(ui, egui::Button::new("Export PLCopen XML...")) {
            c = Some(UiCommand::ExportPlcopen);
        }
        if ui
            .button("Run test table...")
            .on_hover_text("runs a *.test.json on its own runtime; a failing row can be shown at its scan")
            .clicked()
        {
            ui.close();
            c = Some(UiCommand::RunTests);
        }
        if ui
            .button("Export drawing...")
            .on_hover_text("the body the Diagram tab shows, as SVG, with the values of the moment")
            .clicked()
        {
            ui.close();
            c = Some(UiCommand::ExportDrawing);
        }
        if ui
            .button("Print on A4 sheets...")
            .on_hover_text("the body the Diagram tab shows, as PNG sheets of A4 with 8-point text (NAME-1.png, NAME-2.png...), cut between blocks")
            .clicked()
        {
            ui.close();
            c = Some(UiCommand::PrintSheets);
        }
        ui.add_enabled_ui(!view.recent.is_empty(), |ui| {
            ui.menu_button("Open recent", |ui| {
                for p in &view.recent {
                    if item(ui, egui::Button::new(p.display().to_string())) {
                        c = Some(UiCommand::Open(Origin::File(p.clone())));
                    }
                }
            });
        });
        ui.separator();
        ui.label("Embedded wirings (online change):");
        for w in Wiring::ALL {
            if item(ui, egui::Button::new(format!("diagrams/{}", w.file_name()))) {
                c = Some(UiCommand::Embedded(w));
            }
        }
        ui.separator();
        if ui.button("Quit").clicked() {
            c = Some(UiCommand::Quit);
        }
        c
    })
    .inner
    .flatten()
}

fn view_menu_button(ui: &mut egui::Ui, view: &MenuView) -> Option<UiCommand> {
    ui.menu_button("View", |ui| {
        let mut c = None;
        let label = if view.editing { "Debugger while editing (F12)" } else { "Debugger (F12)" };
        let mut shown = view.debugger_shown;
        if ui.checkbox(&mut shown, label).changed() {
            c = Some(UiCommand::ShowDebugger(shown));
        }
        let mut diagram = view.diagram_shown;
        if ui.checkbox(&mut diagram, "Diagram (online view)").changed() {
            c = Some(UiCommand::ShowDiagram(diagram));
        }
        ui.separator();
        // Words, not egui's emoji buttons: the default fonts have no emoji glyphs.
        let mut pref = ui.ctx().options(|o| o.theme_preference);
        ui.horizontal(|ui| {
            ui.label("Theme");
            ui.selectable_value(&mut pref, egui::ThemePreference::System, "System");
            ui.selectable_value(&mut pref, egui::ThemePreference::Light, "Light");
            ui.selectable_value(&mut pref, egui::ThemePreference::Dark, "Dark");
        });
        if pref != ui.ctx().options(|o| o.theme_preference) {
            c = Some(UiCommand::Theme(pref));
        }
        c
    })
    .inner
    .flatten()
}

/// The Debug menu: the debugger's commands with their keys, as CODESYS's Online and Debug
/// menus list them (the keys alone were not to be found without the README). Not called
/// "Online": the Diagram tab's Online mode has that name.
fn debug_menu(ui: &mut egui::Ui, view: &MenuView) -> Option<UiCommand> {
    let mut c = None;
    let mut pick = |ui: &mut egui::Ui, enabled: bool, text: &str, key: &str, cmd: UiCommand| {
        if ui.add_enabled(enabled, egui::Button::new(text).shortcut_text(key)).clicked() {
            ui.close();
            c = Some(cmd);
        }
    };
    pick(ui, true, if view.paused { "Run" } else { "Pause" }, "F5", UiCommand::RunOrPause);
    pick(ui, true, "One cycle", "Ctrl+F5", UiCommand::OneCycle);
    pick(ui, true, &format!("{} cycles", view.step_n.max(1)), "Shift+F10", UiCommand::NCycles);
    pick(ui, !view.paused, "Stop", "Shift+F8", UiCommand::Stop);
    ui.separator();
    pick(ui, view.prepared, "Write values", "Ctrl+F7", UiCommand::Prepared(false));
    pick(ui, view.prepared, "Force values", "F7", UiCommand::Prepared(true));
    pick(ui, true, "Release all forces", "Alt+F7", UiCommand::ReleaseAll);
    ui.separator();
    let reset = ui
        .button("Reset cold")
        .on_hover_text("start the running program again from its initial values, at scan 0, without forces");
    if reset.clicked() {
        ui.close();
        c = Some(UiCommand::ResetCold);
    }
    ui.separator();
    let serve = ui.button("Serve on network...").on_hover_text(
        "Modbus TCP, as `fbd serve`: the program's values to read, and (if allowed) its inputs to write",
    );
    if serve.clicked() {
        ui.close();
        c = Some(UiCommand::ServeOnNetwork);
    }
    c
}
