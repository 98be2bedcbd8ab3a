//! The menu bar: File (open, reload, record, recordings, PLCopen export, recent files,
//! embedded wirings) and View (panels, theme).

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
                    let picked = rfd::FileDialog::new()
                        .add_filter("FBD diagram", &["json"])
                        .add_filter("PLCopen XML", &["xml"])
                        .pick_file();
                    match picked {
                        Some(p) => self.open(Origin::File(p)),
                        None => {
                            self.status =
                                "no file chosen (if no dialog appeared, use Open path... or drop a file)".into()
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
}
