//! An output pin's connector in the editor's pin menu: make the net a connector pair (its
//! readers become continuations, drawn as labels), rename it, or draw it as a wire again.

use eframe::egui;
use fbd_edit::BodyId;
use fbd_engine::model::Wire;

use crate::editor::EditorState;

impl EditorState {
    /// The connector part of the menu of output `b.p`; what it did once something was chosen.
    pub(crate) fn connector_menu(
        &mut self,
        ui: &mut egui::Ui,
        body_id: &BodyId,
        b: &str,
        p: &str,
    ) -> Option<Result<String, String>> {
        let source = format!("{b}.{p}");
        let existing = self.ws.as_ref().and_then(|w| {
            w.connectors(body_id).iter().find(|c| c.from == Wire::Ref(source.clone())).map(|c| c.name.clone())
        });
        ui.separator();
        let mut result = None;
        match existing {
            None => {
                ui.horizontal(|ui| {
                    let l = ui.label("connector");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.connector_name)
                            .hint_text(format!("{b}_{p}"))
                            .desired_width(100.0),
                    )
                    .labelled_by(l.id);
                    if ui
                        .button("make connector")
                        .on_hover_text("draw this net as a label at the output and one at each reader")
                        .clicked()
                    {
                        let typed = self.connector_name.trim();
                        let name = if typed.is_empty() { format!("{b}_{p}") } else { typed.to_string() };
                        result = Some(
                            self.workspace()
                                .make_connector(body_id, &source, &name)
                                .map(|n| format!("connector `{name}` carries {source} to {n} reader(s)"))
                                .map_err(|e| e.0),
                        );
                        ui.close();
                    }
                });
            }
            Some(name) => {
                let uses = self.ws.as_ref().map_or(0, |w| w.connector_uses(body_id, &name).len());
                ui.label(format!("connector `{name}`: {uses} continuation(s)"));
                ui.horizontal(|ui| {
                    let l = ui.label("rename to");
                    ui.add(egui::TextEdit::singleline(&mut self.connector_name).hint_text(&name).desired_width(100.0))
                        .labelled_by(l.id);
                    if ui.button("rename connector").clicked() {
                        let new = self.connector_name.trim().to_string();
                        result = Some(
                            self.workspace()
                                .rename_connector(body_id, &name, &new)
                                .map(|()| format!("connector `{name}` is `{new}` now"))
                                .map_err(|e| e.0),
                        );
                        ui.close();
                    }
                });
                if ui.button("draw as a wire again").clicked() {
                    result = Some(
                        self.workspace()
                            .remove_connector(body_id, &name)
                            .map(|()| format!("{source} is wired to its readers again"))
                            .map_err(|e| e.0),
                    );
                    ui.close();
                }
            }
        }
        result
    }
}
