//! The menu bar: File (open, reload, record, recordings, PLCopen export, recent files,
//! embedded wirings), Debug (the debugger's commands with their keys, reset cold) and View
//! (panels, theme).

use eframe::egui::{self, RichText};
use fbd2048_game::Wiring;

use crate::app::App;
use crate::source::Origin;

impl App {
    pub(crate) fn menu(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open...").clicked() {
                    ui.close();
                    let picked = self.native_dialogs.then(|| {
                        rfd::FileDialog::new()
                            .add_filter("FBD diagram", &["json"])
                            .add_filter("PLCopen XML", &["xml"])
                            .pick_file()
                    });
                    match picked.flatten() {
                        Some(p) => self.open(Origin::File(p)),
                        // No dialog (or no file from it): the path is typed.
                        None => {
                            self.show_open_path = true;
                            self.open_path_focus = true;
                        }
                    }
                }
                if ui.button("Open path...").clicked() {
                    ui.close();
                    self.show_open_path = true;
                    self.open_path_focus = true;
                }
                if ui.button("Reload (online change)").clicked() {
                    ui.close();
                    self.reload();
                }
                if !self.recording && ui.button("Record (restarts the program)").clicked() {
                    ui.close();
                    self.start_recording();
                }
                let save = if self.recording { "Stop recording and save..." } else { "Save the unsaved recording..." };
                if (self.recording || self.unsaved_recording.is_some()) && ui.button(save).clicked() {
                    ui.close();
                    if let Err(e) = self.stop_recording(None) {
                        self.status = e;
                    }
                }
                if ui.button("Open recording...").on_hover_text("plays a recorded run back, with a timeline").clicked()
                {
                    ui.close();
                    if let Err(e) = self.open_recording(None) {
                        self.status = e;
                    }
                }
                if ui.button("Export PLCopen XML...").clicked() {
                    ui.close();
                    self.export_plcopen(None);
                }
                let recent = self.prefs.recent.clone();
                ui.add_enabled_ui(!recent.is_empty(), |ui| {
                    ui.menu_button("Open recent", |ui| {
                        for p in recent {
                            if ui.button(p.display().to_string()).clicked() {
                                ui.close();
                                self.open(Origin::File(p));
                            }
                        }
                    });
                });
                ui.separator();
                ui.label("Embedded wirings (online change):");
                for w in Wiring::ALL {
                    if ui.button(format!("diagrams/{}", w.file_name())).clicked() {
                        ui.close();
                        self.online_change(Origin::Embedded(w));
                    }
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("Debug", |ui| self.debug_menu(ui));
            ui.menu_button("View", |ui| {
                let label = if self.editing() { "Debugger while editing (F12)" } else { "Debugger (F12)" };
                ui.checkbox(self.debugger_shown_mut(), label);
                ui.checkbox(&mut self.dbg.show_diagram, "Diagram (online view)");
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
                    self.prefs.theme = Some(
                        match pref {
                            egui::ThemePreference::Light => "light",
                            egui::ThemePreference::Dark => "dark",
                            egui::ThemePreference::System => "system",
                        }
                        .into(),
                    );
                }
                ui.ctx().set_theme(pref);
            });
            ui.separator();
            ui.label(RichText::new(self.loaded.label()).weak());
        });
    }

    /// The Debug menu: the debugger's commands with their keys, as CODESYS's Online and Debug
    /// menus list them (the keys alone were not to be found without the README). Not called
    /// "Online": the Diagram tab's Online mode has that name.
    fn debug_menu(&mut self, ui: &mut egui::Ui) {
        let item =
            |ui: &mut egui::Ui, text: &str, key: &str| ui.add(egui::Button::new(text).shortcut_text(key)).clicked();
        let paused = self.is_paused();
        if item(ui, if paused { "Run" } else { "Pause" }, "F5") {
            ui.close();
            self.online_run_or_pause();
        }
        if item(ui, "One cycle", "Ctrl+F5") {
            ui.close();
            self.online_one_cycle();
        }
        let n = self.dbg.step_n.max(1);
        if item(ui, &format!("{n} cycles"), "Shift+F10") {
            ui.close();
            self.online_n_cycles();
        }
        if ui.add_enabled(!paused, egui::Button::new("Stop").shortcut_text("Shift+F8")).clicked() {
            ui.close();
            self.online_stop();
        }
        ui.separator();
        let prepared = !self.dbg.prepared.is_empty();
        if ui.add_enabled(prepared, egui::Button::new("Write values").shortcut_text("Ctrl+F7")).clicked() {
            ui.close();
            self.online_prepared(false);
        }
        if ui.add_enabled(prepared, egui::Button::new("Force values").shortcut_text("F7")).clicked() {
            ui.close();
            self.online_prepared(true);
        }
        if item(ui, "Release all forces", "Alt+F7") {
            ui.close();
            self.online_release_all();
        }
        ui.separator();
        let reset = ui
            .button("Reset cold")
            .on_hover_text("start the running program again from its initial values, at scan 0, without forces");
        if reset.clicked() {
            ui.close();
            if let Err(e) = self.reset_cold() {
                self.status = e;
            }
        }
    }
}
