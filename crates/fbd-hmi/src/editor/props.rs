//! The editor's properties column: the selected block (id, parameters, data type, comment)
//! and a macro made of the selection; the ports of the edited body are `ports.rs`.

use eframe::egui::{self, RichText};
use fbd_edit::BodyId;
use fbd_engine::Type;
use fbd_engine::model::{Const, Params};

use crate::editor::EditorState;

/// What the properties column is editing (the text fields keep what is typed until applied).
#[derive(Default)]
pub struct PropsState {
    /// The block the fields were filled from.
    block: String,
    id: String,
    init: String,
    seed: String,
    n: String,
    data_type: Option<Type>,
    comment: String,
    macro_name: String,
    /// The ports' fields.
    pub(crate) ports: crate::editor::ports::PortsState,
}

pub(crate) const TYPES: [Type; Type::ALL.len()] = Type::ALL;

impl EditorState {
    /// The properties column of the editor.
    pub(crate) fn props(&mut self, ui: &mut egui::Ui, body: &BodyId) {
        let mut result: Option<Result<String, String>> = None;
        egui::ScrollArea::vertical().show(ui, |ui| {
            if self.selected.len() == 1 {
                result = result.take().or(self.block_props(ui, body));
            } else if self.selected.is_empty() {
                ui.label(RichText::new("Click a block to edit it; drag on the grid to select several.").weak());
            } else {
                ui.label(format!("{} blocks selected", self.selected.len()));
            }
            if !self.selected.is_empty() {
                ui.separator();
                ui.label(RichText::new("Make a macro of the selection").strong());
                ui.horizontal(|ui| {
                    let l = ui.label("name");
                    ui.add(egui::TextEdit::singleline(&mut self.props.macro_name).desired_width(110.0))
                        .labelled_by(l.id);
                    if ui.button("Make macro").clicked() {
                        let name = self.props.macro_name.trim().to_string();
                        let ids = self.selected.clone();
                        result = Some(
                            self.workspace()
                                .extract_macro(body, &ids, &name)
                                .map(|inst| {
                                    format!("macro `{name}` made of {} blocks; `{inst}` is its instance", ids.len())
                                })
                                .map_err(|e| e.0),
                        );
                        self.selected.clear();
                    }
                });
            }
            ui.separator();
            result = result.take().or(self.port_props(ui, body));
        });
        if let Some(r) = result {
            self.after(r);
        }
    }

    fn block_props(&mut self, ui: &mut egui::Ui, body: &BodyId) -> Option<Result<String, String>> {
        let id = self.selected[0].clone();
        let ws = self.ws.as_ref()?;
        let block = ws.block(body, &id)?.clone();
        let p = &mut self.props;
        if p.block != id {
            p.block = id.clone();
            p.id = id.clone();
            p.init = block.params.init.as_deref().map(|c| c.0.to_string()).unwrap_or_default();
            p.seed = block.params.seed.map(|s| s.to_string()).unwrap_or_default();
            p.n = block.params.n.map(|s| s.to_string()).unwrap_or_default();
            p.data_type = block.data_type.map(|t| t.0);
            p.comment = block.comment.clone().unwrap_or_default();
        }
        let def = fbd_engine::library::lookup(&block.ty);
        ui.label(RichText::new(format!("{} `{id}`", block.ty)).strong());
        if let Some(d) = def {
            ui.label(RichText::new(d.summary).weak());
        }
        let mut out = None;
        ui.horizontal(|ui| {
            let l = ui.label("id");
            ui.add(egui::TextEdit::singleline(&mut p.id).desired_width(110.0)).labelled_by(l.id);
            if ui.button("Rename").clicked() {
                out = Some((true, p.id.trim().to_string()));
            }
        });
        let params = def.map(|d| d.params).unwrap_or_default();
        let stateful =
            def.is_some_and(|d| d.stateful && !d.state.is_empty() || d.name == "MEMORY" || d.name == "DELAY");
        egui::Grid::new("block_params").num_columns(2).show(ui, |ui| {
            if stateful || block.params.init.is_some() {
                ui.label("init");
                ui.add(egui::TextEdit::singleline(&mut p.init).hint_text("0, TRUE, 2.5").desired_width(90.0));
                ui.end_row();
            }
            if params.contains(&"seed") {
                ui.label("seed");
                ui.add(egui::TextEdit::singleline(&mut p.seed).desired_width(90.0));
                ui.end_row();
            }
            if params.contains(&"n") {
                ui.label("n");
                ui.add(egui::TextEdit::singleline(&mut p.n).desired_width(90.0));
                ui.end_row();
            }
            if def.is_some_and(|d| d.generic != fbd_engine::library::Generic::No) {
                ui.label("data type");
                egui::ComboBox::from_id_salt("data_type")
                    .selected_text(p.data_type.map_or("from the wiring", |t| t.name()))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut p.data_type, None, "from the wiring");
                        for t in TYPES {
                            ui.selectable_value(&mut p.data_type, Some(t), t.name());
                        }
                    });
                ui.end_row();
            }
            ui.label("comment");
            ui.add(egui::TextEdit::singleline(&mut p.comment).desired_width(150.0));
            ui.end_row();
        });
        if ui.button("Apply to the block").clicked() {
            out = Some((false, String::new()));
        }
        let (rename, new_id) = out?;
        let ws = self.ws.as_mut()?;
        if rename {
            let r = ws
                .rename_block(body, &id, &new_id)
                .map(|()| {
                    if new_id == id {
                        format!("`{id}` has that id already")
                    } else {
                        format!("renamed `{id}` to `{new_id}`")
                    }
                })
                .map_err(|e| e.0);
            if r.is_ok() {
                self.selected = vec![new_id];
            }
            return Some(r);
        }
        let p = &self.props;
        let parse_init = |t: &str| -> Result<Option<Const>, String> {
            let t = t.trim();
            match t.to_ascii_lowercase().as_str() {
                "" => Ok(None),
                "true" => Ok(Some(Const(fbd_engine::Value::Bool(true)))),
                "false" => Ok(Some(Const(fbd_engine::Value::Bool(false)))),
                _ => fbd_engine::model::number(t).map(|v| Some(Const(v))),
            }
        };
        let opt = |t: &str, what: &str| -> Result<Option<u64>, String> {
            let t = t.trim();
            if t.is_empty() {
                Ok(None)
            } else {
                t.parse().map(Some).map_err(|_| format!("{what} is a whole number ≥ 0"))
            }
        };
        let params = (|| -> Result<Params, String> {
            Ok(Params {
                init: parse_init(&p.init)?.map(Box::new),
                seed: opt(&p.seed, "seed")?,
                n: opt(&p.n, "n")?.map(|n| n.min(u32::MAX as u64) as u32),
            })
        })();
        Some(match params {
            Ok(params) => ws
                .set_block_options(body, &id, params, p.data_type, Some(p.comment.clone()))
                .map(|()| format!("`{id}` updated"))
                .map_err(|e| e.0),
            Err(e) => Err(e),
        })
    }
}
