//! The editor's column for the edited body itself: its description, and its ports (rename,
//! retype, remove, add, and each port's details: how the panel shows a program input, its
//! default, what it is for).

use eframe::egui::{self, RichText};
use fbd_edit::{BodyId, PortDetails};
use fbd_engine::model::{InputKind, Wire};
use fbd_engine::{Type, Value};

use crate::editor::EditorState;
use crate::editor::props::TYPES;

/// A port as listed: name and type.
type Port = (String, Type);

/// Ports listed at most at once; past it, a filter finds the rest (a program with thousands of
/// inputs laid out every port every frame, far past the column's bottom).
const LISTED: usize = 40;

/// The ports' text fields (they keep what is typed until applied).
#[derive(Default)]
pub struct PortsState {
    port_name: String,
    port_type: Option<Type>,
    /// A port being renamed: (old name, new name).
    rename: Option<(String, String)>,
    /// A port whose details are open, with its fields as typed.
    details: Option<DetailsDraft>,
    /// The body's description as typed: (the body, the description it was filled from, the text).
    description: Option<(String, String, String)>,
    /// Part of a port name: only the ports that contain it are listed (shown past [`LISTED`]).
    filter: String,
}

/// The details of one port as typed.
struct DetailsDraft {
    port: String,
    kind: InputKind,
    default: String,
    /// A selector's labels, comma-separated.
    options: String,
    description: String,
    /// A program port's IEC location, as typed.
    address: String,
}

impl EditorState {
    pub(crate) fn port_props(&mut self, ui: &mut egui::Ui, body: &BodyId) -> Option<Result<String, String>> {
        let ws = self.ws.as_ref()?;
        let (ins, outs): (Vec<Port>, Vec<Port>) = match body {
            BodyId::Program => (
                ws.root().inputs.iter().map(|p| (p.name.clone(), p.ty.0)).collect(),
                ws.root().outputs.iter().map(|p| (p.name.clone(), p.ty.0)).collect(),
            ),
            BodyId::Macro(m) => {
                let d = ws.macro_def(m)?;
                (
                    d.inputs.iter().map(|p| (p.name.clone(), p.ty.0)).collect(),
                    d.outputs.iter().map(|p| (p.name.clone(), p.ty.0)).collect(),
                )
            }
        };
        let saved = ws.description(body).unwrap_or_default().to_string();
        let mut out: Option<Result<String, String>> = None;
        let st = self.st_started || !self.workspace().st(body).is_empty();
        let p = &mut self.props.ports;
        // What the body is for: the panel and the online diagram show it.
        let key = body.to_string();
        // Filled again when another body is shown or the description changed under the field
        // (an undo, a set): the field shows what the file says, not a stale draft.
        if p.description.as_ref().is_none_or(|(k, seen, _)| *k != key || *seen != saved) {
            p.description = Some((key, saved.clone(), saved.clone()));
        }
        if let Some((_, _, text)) = p.description.as_mut() {
            let l = ui.label(RichText::new(format!("What {body} is for")).strong());
            ui.add(egui::TextEdit::multiline(text).desired_rows(2).desired_width(f32::INFINITY)).labelled_by(l.id);
            if *text != saved && ui.button("Set description").clicked() {
                out = Some(
                    self.ws
                        .as_mut()
                        .expect("made")
                        .set_description(body, text)
                        .map(|()| format!("description of {body} set"))
                        .map_err(|e| e.0),
                );
            }
            ui.separator();
        }
        ui.label(RichText::new(format!("Ports of {body}")).strong());
        let total = ins.len() + outs.len();
        if total > LISTED {
            ui.horizontal(|ui| {
                let l = ui.label("find port");
                ui.add(egui::TextEdit::singleline(&mut p.filter).desired_width(120.0)).labelled_by(l.id);
            });
        }
        // Past LISTED ports only those the filter finds, and always the one being renamed or
        // detailed.
        let needle = if total > LISTED { p.filter.trim().to_lowercase() } else { String::new() };
        let busy: Vec<String> =
            p.rename.iter().map(|(o, _)| o.clone()).chain(p.details.iter().map(|d| d.port.clone())).collect();
        let mut shown = 0;
        let mut hidden = 0;
        for (side, list) in [("in", &ins), ("out", &outs)] {
            for (name, ty) in list {
                if !busy.contains(name) && (!name.to_lowercase().contains(&needle) || shown >= LISTED) {
                    hidden += 1;
                    continue;
                }
                shown += 1;
                if let Some(r) = self.port_row(ui, body, (side, name), *ty) {
                    out = Some(r);
                }
            }
        }
        let p = &mut self.props.ports;
        if hidden > 0 {
            ui.label(RichText::new(format!("{hidden} more of {total} ports: type part of a name in find port")).weak());
        }
        ui.horizontal(|ui| {
            let l = ui.label("new port");
            ui.add(egui::TextEdit::singleline(&mut p.port_name).desired_width(80.0)).labelled_by(l.id);
            let t = p.port_type.get_or_insert(Type::Bool);
            egui::ComboBox::from_id_salt("new_port_type").selected_text(t.name()).width(60.0).show_ui(ui, |ui| {
                for x in TYPES {
                    ui.selectable_value(t, x, x.name());
                }
            });
        });
        let mut added = false;
        ui.horizontal(|ui| {
            let name = p.port_name.trim().to_string();
            let ty = p.port_type.unwrap_or(Type::Bool);
            let ws = self.ws.as_mut().expect("made");
            if ui.button("Add input").clicked() {
                out =
                    Some(ws.add_input_port(body, &name, ty).map(|()| format!("input `{name}` added")).map_err(|e| e.0));
                added = out.as_ref().is_some_and(|r| r.is_ok());
            }
            // A new output starts as a constant; connect it by editing `from` later or by
            // dragging to it once outputs take drops.
            let add_output = ui.button("Add output").clicked();
            if add_output && st {
                // In an ST body an output is the variable of its name, which the text writes.
                let declared = ws.variables(body).iter().any(|v| v.name.eq_ignore_ascii_case(&name));
                let r = if declared { Ok(()) } else { ws.declare(body, &name, ty.name()) };
                out = Some(
                    r.and_then(|()| ws.add_output_port(body, &name, ty, Wire::Ref(name.clone())))
                        .map(|()| format!("output `{name}` added: the variable `{name}` the text writes"))
                        .map_err(|e| e.0),
                );
                added = out.as_ref().is_some_and(|r| r.is_ok());
            } else if add_output {
                let zero = Wire::constant(ty.zero());
                out = Some(
                    ws.add_output_port(body, &name, ty, zero)
                        .map(|()| format!("output `{name}` added (fed by a constant until you wire it)"))
                        .map_err(|e| e.0),
                );
                added = out.as_ref().is_some_and(|r| r.is_ok());
            }
        });
        // A port added: the field is ready for the next name (typing appended to the last one).
        if added {
            p.port_name.clear();
        }
        out
    }

    /// One port's row: its side, its name (a link: rename), its type (a choice: retype), and its
    /// details (kind, default, options, description) when open. What an edit did.
    fn port_row(
        &mut self,
        ui: &mut egui::Ui,
        body: &BodyId,
        (side, name): (&str, &String),
        ty: Type,
    ) -> Option<Result<String, String>> {
        let mut out = None;
        let p = &mut self.props.ports;
        ui.horizontal(|ui| {
            ui.label(RichText::new(side).weak());
            match &mut p.rename {
                Some((old, new)) if old == name => {
                    ui.add(egui::TextEdit::singleline(new).desired_width(90.0));
                    if ui.small_button("ok").clicked() {
                        let (o, n) = (old.clone(), new.trim().to_string());
                        out = Some(
                            self.ws
                                .as_mut()
                                .expect("made")
                                .rename_port(body, &o, &n)
                                .map(|()| {
                                    if o == n {
                                        format!("port `{o}` has that name already")
                                    } else {
                                        format!("port `{o}` renamed to `{n}`")
                                    }
                                })
                                .map_err(|e| e.0),
                        );
                        p.rename = None;
                    }
                }
                _ => {
                    if ui.link(name).on_hover_text("rename").clicked() {
                        p.rename = Some((name.clone(), name.clone()));
                    }
                }
            }
            let mut t = ty;
            egui::ComboBox::from_id_salt(("port_type", side, name)).selected_text(t.name()).width(60.0).show_ui(
                ui,
                |ui| {
                    for x in TYPES {
                        ui.selectable_value(&mut t, x, x.name());
                    }
                },
            );
            if t != ty {
                out = Some(
                    self.ws
                        .as_mut()
                        .expect("made")
                        .retype_port(body, name, t)
                        .map(|()| format!("`{name}` is {} now", t.name()))
                        .map_err(|e| e.0),
                );
            }
            let open = p.details.as_ref().is_some_and(|d| d.port == *name);
            if ui
                .selectable_label(open, "details")
                .on_hover_text("how the panel shows it, its default, what it is for")
                .clicked()
            {
                p.details = if open {
                    None
                } else {
                    self.ws.as_ref().and_then(|ws| ws.port_details(body, name)).map(|d| DetailsDraft {
                        port: name.clone(),
                        kind: d.kind,
                        default: d.default.map(|v| v.to_string()).unwrap_or_default(),
                        options: d.options.join(", "),
                        description: d.description.unwrap_or_default(),
                        address: d.address.unwrap_or_default(),
                    })
                };
            }
        });
        if let Some(d) = p.details.as_mut().filter(|d| d.port == *name) {
            let program_input = side == "in" && *body == BodyId::Program;
            let ws = self.ws.as_mut().expect("made");
            match details_ui(ui, d, (side == "in", program_input, *body == BodyId::Program), ty) {
                None => {}
                Some(Action::Set(details)) => {
                    out = Some(
                        ws.set_port_details(body, name, details)
                            .map(|()| format!("details of `{name}` set"))
                            .map_err(|e| e.0),
                    )
                }
                Some(Action::Remove) => {
                    out = Some(ws.remove_port(body, name).map(|()| format!("port `{name}` removed")).map_err(|e| e.0));
                    p.details = None;
                }
                Some(Action::Invalid(e)) => out = Some(Err(e)),
            }
        }
        out
    }
}

/// What the details form asks for.
enum Action {
    /// Apply details: set these.
    Set(PortDetails),
    /// Remove the port.
    Remove,
    /// The typed text is not a detail (a default that is no value of the type).
    Invalid(String),
}

/// The details form of one port, and what it asks for when a button is pressed.
fn details_ui(
    ui: &mut egui::Ui,
    d: &mut DetailsDraft,
    (input, program_input, program): (bool, bool, bool),
    ty: Type,
) -> Option<Action> {
    let mut apply = false;
    let mut remove = false;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        egui::Grid::new(("port_details", &d.port)).num_columns(2).show(ui, |ui| {
            if program_input {
                let l = ui.label("shown as");
                let fits = |k: InputKind| k.needs().is_none_or(|t| t == ty);
                egui::ComboBox::from_id_salt(("port_kind", &d.port))
                    .selected_text(d.kind.name())
                    .show_ui(ui, |ui| {
                        for k in [InputKind::Number, InputKind::Switch, InputKind::Button, InputKind::Selector] {
                            ui.add_enabled_ui(fits(k), |ui| ui.selectable_value(&mut d.kind, k, k.name()));
                        }
                    })
                    .response
                    .labelled_by(l.id);
                ui.end_row();
                if d.kind == InputKind::Selector {
                    let l = ui.label("positions");
                    ui.add(
                        egui::TextEdit::singleline(&mut d.options).hint_text("off, slow, fast").desired_width(120.0),
                    )
                    .labelled_by(l.id)
                    .on_hover_text("the labels of positions 1, 2, ... (0 selects nothing), comma-separated");
                    ui.end_row();
                }
            }
            if input {
                let l = ui.label("default");
                ui.add(egui::TextEdit::singleline(&mut d.default).hint_text("none").desired_width(120.0))
                    .labelled_by(l.id)
                    .on_hover_text(if program_input {
                        "the value before anything is written"
                    } else {
                        "the value where an instance leaves the input open (none: it must be wired)"
                    });
                ui.end_row();
            }
            let l = ui.label("description");
            ui.add(egui::TextEdit::singleline(&mut d.description).desired_width(120.0)).labelled_by(l.id);
            ui.end_row();
            if program {
                let l = ui.label("address");
                ui.add(
                    egui::TextEdit::singleline(&mut d.address)
                        .hint_text(if input { "%IX0.0" } else { "%QX0.0" })
                        .desired_width(120.0),
                )
                .labelled_by(l.id)
                .on_hover_text("its IEC location: where `fbd serve` puts it in the Modbus map, as OpenPLC would");
                ui.end_row();
            }
        });
        ui.horizontal(|ui| {
            apply = ui.button("Apply details").clicked();
            remove =
                ui.button("Remove port").on_hover_text("wires from it go, and so do the instances' pins").clicked();
        });
    });
    if remove {
        return Some(Action::Remove);
    }
    if !apply {
        return None;
    }
    let default = match d.default.trim() {
        "" => None,
        t => match Value::parse(t, ty) {
            Ok(v) => Some(v),
            Err(e) => return Some(Action::Invalid(format!("default of `{}`: {e}", d.port))),
        },
    };
    let options =
        if d.kind == InputKind::Selector { d.options.split(',').map(str::to_string).collect() } else { Vec::new() };
    let description = Some(d.description.clone());
    Some(Action::Set(PortDetails {
        kind: if program_input { d.kind } else { InputKind::Number },
        default,
        options,
        description,
        address: Some(d.address.clone()),
    }))
}
