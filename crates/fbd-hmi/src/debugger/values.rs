//! Prepared values and the list of forces, as CODESYS has them: values prepared for several
//! signals are written or forced together, in the same scan; every active force is listed with
//! its value and can be released one by one or all at once.

use eframe::egui::{self, Color32, RichText};
use fbd_engine::runtime::RuntimeError;
use fbd_engine::runtime::requests::{Force, Forced, Release, ReleaseAll, Write};
use fbd_engine::{ScanImage, Value};

use crate::debugger::DebuggerState;
use crate::link::Link;

/// Height of the section, fixed so that what is below never moves when a list grows.
const HEIGHT: f32 = 96.0;

/// The failed ones of a batch of prepared values, each named by its path.
fn failures(list: &[(String, Value)], replies: Vec<Result<(), RuntimeError>>) -> Vec<String> {
    list.iter().zip(replies).filter_map(|((p, _), r)| r.err().map(|e| format!("{p}: {e}"))).collect()
}

impl DebuggerState {
    /// Writes (`force` false) or forces every prepared value, together: one request, applied
    /// at the start of the same next scan.
    pub(crate) fn apply_prepared(&mut self, force: bool, link: Link<'_>) {
        let list = std::mem::take(&mut self.prepared);
        let replies = if force {
            link.call(list.iter().map(|(p, v)| Force { path: p.clone(), value: *v }).collect::<Vec<_>>())
        } else {
            link.call(list.iter().map(|(p, v)| Write { path: p.clone(), value: *v }).collect::<Vec<_>>())
        };
        let errors = failures(&list, replies);
        self.message = match (errors.is_empty(), force) {
            (true, true) => format!("{} prepared values forced", list.len()),
            (true, false) => format!("{} prepared values written at the next scan", list.len()),
            (false, _) => errors.join("; "),
        };
    }

    /// Prepares `v` for `path` (replacing a value prepared for it before).
    pub fn prepare(&mut self, path: &str, v: Value) {
        match self.prepared.iter_mut().find(|(p, _)| p == path) {
            Some(e) => e.1 = v,
            None => self.prepared.push((path.to_string(), v)),
        }
        self.message = format!("{path} := {v} prepared ({} prepared)", self.prepared.len());
    }

    /// The active forces (re-read only when they changed: the scan image says when).
    pub(crate) fn forces(&mut self, img: &ScanImage, link: Link<'_>) -> Vec<(String, Value)> {
        let stamp = img.forces_version;
        if self.forces_stamp != Some(stamp) {
            self.forces = link.call(Forced);
            self.forces_stamp = Some(stamp);
        }
        self.forces.clone()
    }

    /// The section: prepared values on the left, active forces on the right.
    /// Whether Write all or Force all was clicked, for the application (an altered game).
    pub(crate) fn prepared_ui(&mut self, ui: &mut egui::Ui, img: &ScanImage, link: Link<'_>) -> PreparedAsk {
        let forces = self.forces(img, link);
        let mut remove: Option<usize> = None;
        let mut release: Option<String> = None;
        let (mut write, mut force, mut clear, mut release_all) = (false, false, false, false);
        ui.columns(2, |cols| {
            cols[0].horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("Prepared ({})", self.prepared.len())).strong());
                let any = !self.prepared.is_empty();
                write = ui.add_enabled(any, egui::Button::new("Write all").small()).on_hover_text("Ctrl+F7").clicked();
                force = ui.add_enabled(any, egui::Button::new("Force all").small()).on_hover_text("F7").clicked();
                clear = ui.add_enabled(any, egui::Button::new("Clear").small()).clicked();
            });
            egui::ScrollArea::vertical().id_salt("prepared").min_scrolled_height(HEIGHT).max_height(HEIGHT).show(
                &mut cols[0],
                |ui| {
                    ui.set_min_height(HEIGHT);
                    if self.prepared.is_empty() {
                        ui.label(
                            RichText::new("Prepare values in the editor above, then write or force them together.")
                                .weak(),
                        );
                    }
                    for (i, (p, v)) in self.prepared.iter().enumerate() {
                        ui.horizontal(|ui| {
                            if ui.small_button("x").on_hover_text("remove").clicked() {
                                remove = Some(i);
                            }
                            ui.label(format!("{p} := {v}"));
                        });
                    }
                },
            );
            cols[1].horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("Forced ({})", forces.len())).strong());
                release_all = ui
                    .add_enabled(!forces.is_empty(), egui::Button::new("Release all").small())
                    .on_hover_text("Alt+F7")
                    .clicked();
            });
            egui::ScrollArea::vertical().id_salt("forces").min_scrolled_height(HEIGHT).max_height(HEIGHT).show(
                &mut cols[1],
                |ui| {
                    ui.set_min_height(HEIGHT);
                    if forces.is_empty() {
                        ui.label(RichText::new("No signal is forced.").weak());
                    }
                    for (p, v) in &forces {
                        ui.horizontal(|ui| {
                            if ui.small_button("release").clicked() {
                                release = Some(p.clone());
                            }
                            ui.label(RichText::new(format!("{p} = {v}")).color(Color32::from_rgb(0xe0, 0x70, 0x00)));
                        });
                    }
                },
            );
        });
        if let Some(i) = remove {
            self.prepared.remove(i);
        }
        if clear {
            self.prepared.clear();
        }
        if let Some(p) = release {
            link.call(Release(p.clone()));
            self.message = format!("{p} released");
        }
        if release_all {
            link.call(ReleaseAll);
            self.message = "all forces released".into();
        }
        PreparedAsk { write, force }
    }
}

/// What the prepared values' buttons asked for.
pub(crate) struct PreparedAsk {
    pub(crate) write: bool,
    pub(crate) force: bool,
}
