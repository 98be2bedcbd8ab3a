//! The generic panel: for a program without a 2048 interface, a row per program input (a
//! control by the input's kind and type: a push button, a switch, a selector, a number, a
//! duration, a text) and per output (a lamp or a value), as a PLC tool's watch list.

use std::collections::HashMap;

use eframe::egui::{self, Color32, RichText};
use fbd_engine::runtime::requests::{PressButton, PulseInput, ReleaseButton, SetInput};
use fbd_engine::{ScanImage, Value};

use crate::link::Link;
use crate::play_panel::lamp;

/// The panel's own state; it reads the scan image and changes the program only by requests.
#[derive(Default)]
pub(crate) struct GenericPanel {
    /// The push button held down, and the scan count when it went down.
    held_button: Option<(String, u64)>,
    /// STRING inputs being typed (written on Enter or when the field is left).
    string_edits: HashMap<String, String>,
}

impl GenericPanel {
    /// Draws the panel for the program of `img`; `description` is what its author wrote it is
    /// for. Returns what the status line should say, when an entry was refused.
    pub(crate) fn ui(
        &mut self,
        ui: &mut egui::Ui,
        img: &ScanImage,
        description: Option<&str>,
        link: Link<'_>,
    ) -> Option<String> {
        ui.heading(img.plan.name.clone());
        // What the program is for, in its author's words (it was nowhere on screen).
        if let Some(d) = description.filter(|d| !d.trim().is_empty()) {
            ui.label(d);
        }
        ui.label(RichText::new("This diagram has no 2048 interface; its program inputs and outputs:").weak());
        // One row per port, in a scrolled list that lays out only the rows in view: a program
        // with thousands of inputs drew every row every frame, past the window's bottom where
        // no one could reach them.
        let (n_in, n_out) = (img.plan.inputs.len(), img.plan.outputs.len());
        let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        let mut refused = None;
        egui::ScrollArea::vertical().auto_shrink([false, true]).show_rows(ui, row, n_in + n_out, |ui, rows| {
            refused = self.rows(ui, img, link, rows, n_in);
        });
        refused
    }

    /// The generic panel's rows `rows` (inputs first, then outputs; `n_in` inputs).
    fn rows(
        &mut self,
        ui: &mut egui::Ui,
        img: &ScanImage,
        link: Link<'_>,
        rows: std::ops::Range<usize>,
        n_in: usize,
    ) -> Option<String> {
        let mut refused = None;
        // Only the ports in view, not a copy of the plan (a large program's plan is megabytes,
        // and this runs every frame).
        let (inputs, outputs) = {
            let plan = &img.plan;
            let ins: Vec<_> = plan
                .inputs
                .get(rows.start.min(n_in)..rows.end.min(n_in))
                .unwrap_or_default()
                .iter()
                .map(|p| {
                    let cur = img.input(&p.name).unwrap_or(p.default);
                    (p.name.clone(), p.kind, cur, p.options.clone(), p.description.clone(), p.ty)
                })
                .collect::<Vec<_>>();
            let outs: Vec<_> = plan
                .outputs
                .get(rows.start.saturating_sub(n_in)..rows.end.saturating_sub(n_in))
                .unwrap_or_default()
                .iter()
                .map(|p| (p.name.clone(), img.output(&p.name).unwrap_or(p.default), p.description.clone(), p.ty))
                .collect();
            (ins, outs)
        };
        egui::Grid::new("io").striped(true).min_row_height(ui.spacing().interact_size.y).show(ui, |ui| {
            for (name, kind, cur, options, description, ty) in &inputs {
                // The input's name labels its control, for screen readers; its description
                // (what the diagram says it is for) shows on hover.
                let mut l = ui.label(name);
                if let Some(d) = description {
                    l = l.on_hover_text(d);
                }
                type_cell(ui, *ty);
                let row = InputRow { name, kind: *kind, cur: *cur, options, ty: *ty, label: l.id };
                if let Some(r) = self.input_control(ui, &row, link) {
                    refused = Some(r);
                }
                ui.end_row();
            }
            for (name, v, description, ty) in &outputs {
                let l = ui.label(name);
                if let Some(d) = description {
                    l.on_hover_text(d);
                }
                type_cell(ui, *ty);
                match *v {
                    Value::Bool(b) => {
                        let on = match fbd_engine::model::LampColour::of(name) {
                            fbd_engine::model::LampColour::Green => Color32::from_rgb(0x20, 0xc0, 0x40),
                            fbd_engine::model::LampColour::Amber => Color32::from_rgb(0xe8, 0xa0, 0x20),
                            fbd_engine::model::LampColour::Red => Color32::from_rgb(0xe0, 0x30, 0x30),
                        };
                        lamp(ui, if b { on } else { Color32::GRAY });
                    }
                    other => {
                        ui.label(RichText::new(other.text_as(*ty)).monospace());
                    }
                }
                ui.end_row();
            }
        });
        refused
    }

    /// The control of one input, by its kind and type; what was refused, if anything.
    fn input_control(&mut self, ui: &mut egui::Ui, row: &InputRow<'_>, link: Link<'_>) -> Option<String> {
        let InputRow { name, kind, cur, options, ty, label } = *row;
        match (kind, cur) {
            (fbd_engine::model::InputKind::Button, _) => {
                // A push button: TRUE while held, and for at least one scan however
                // short the press (it was one scan always: a timer on a held button
                // never ran out).
                let r = ui.button("press").labelled_by(label).on_hover_text("TRUE while held down (at least one scan)");
                let down = r.is_pointer_button_down_on();
                let held = self.held_button.as_ref().is_some_and(|(n, _)| n == name);
                if down && !held {
                    if let Ok(at) = link.call(PressButton(name.clone())) {
                        self.held_button = Some((name.clone(), at));
                    }
                } else if !down && held {
                    let at = self.held_button.take().map_or(0, |(_, at)| at);
                    link.send(ReleaseButton { name: name.clone(), pressed_at: at });
                } else if r.clicked() {
                    // From the keyboard or a screen reader: one scan.
                    link.send(PulseInput { name: name.clone(), value: Value::Bool(true) });
                }
            }
            (_, Value::Bool(mut b)) => {
                if ui.checkbox(&mut b, "").labelled_by(label).changed() {
                    let _ = link.call(SetInput { name: name.clone(), value: Value::Bool(b) });
                }
            }
            (fbd_engine::model::InputKind::Selector, Value::Int(i)) if !options.is_empty() => {
                // A selector switch: its positions by their labels (the diagram's
                // `options`, positions 1..=n; 0 selects nothing). It was a number field
                // that took any integer and showed none of the labels.
                if let Some(k) = selector(ui, name, label, i, options) {
                    let _ = link.call(SetInput { name: name.clone(), value: Value::Int(k) });
                }
            }
            (_, Value::Int(mut i)) => {
                // Within the input's type: an INT's drag stops at 32767.
                let (lo, hi) = ty.int_range().unwrap_or((i64::MIN, i64::MAX));
                if ui.add(egui::DragValue::new(&mut i).range(lo..=hi)).labelled_by(label).changed() {
                    let _ = link.call(SetInput { name: name.clone(), value: Value::Int(i) });
                }
            }
            // A drag field holds an f64: exact up to 2^53. Above it the value is shown as it
            // is (it showed 2^64 for 2^64 - 1); the debugger's write field takes any.
            (_, Value::ULInt(u)) if u > 1 << 53 => {
                ui.label(RichText::new(u.to_string()).monospace())
                    .on_hover_text("beyond what a drag field holds exactly: write it from the debugger");
            }
            (_, Value::ULInt(mut u)) => {
                if ui.add(egui::DragValue::new(&mut u)).labelled_by(label).changed() {
                    let _ = link.call(SetInput { name: name.clone(), value: Value::ULInt(u) });
                }
            }
            (_, Value::Time(ns)) => {
                // A duration in milliseconds (what a preset is thought in), to the µs.
                let mut ms = ns as f64 / 1e6;
                let field = egui::DragValue::new(&mut ms).suffix(" ms").max_decimals(3).range(0.0..=1e12);
                if ui.add(field).labelled_by(label).changed() {
                    let ns = (ms * 1e6).round() as i64;
                    let _ = link.call(SetInput { name: name.clone(), value: Value::Time(ns) });
                }
            }
            (_, Value::Real(mut r)) => {
                if ui.add(egui::DragValue::new(&mut r).speed(0.01)).labelled_by(label).changed() {
                    let _ = link.call(SetInput { name: name.clone(), value: Value::Real(r) });
                }
            }
            (_, Value::Str(s)) => {
                // The text as typed (no quotes needed; `'a$Nb'` reads its escapes),
                // written when Enter is pressed or the field is left.
                let text = self
                    .string_edits
                    .entry(name.clone())
                    .or_insert_with(|| String::from_utf8_lossy(s.as_bytes()).into_owned());
                let r = ui.add(egui::TextEdit::singleline(text).desired_width(160.0)).labelled_by(label);
                if r.lost_focus() {
                    match Value::parse(text, fbd_engine::Type::String) {
                        Ok(v) => {
                            let _ = link.call(SetInput { name: name.clone(), value: v });
                            self.string_edits.remove(name);
                        }
                        Err(e) => return Some(format!("{name}: {e}")),
                    }
                } else if !r.has_focus() && self.string_edits.get(name).is_some_and(|t| t.as_bytes() != s.as_bytes()) {
                    self.string_edits.remove(name);
                }
            }
        }
        None
    }
}

/// One input row's port, as its control needs it.
struct InputRow<'a> {
    name: &'a String,
    kind: fbd_engine::model::InputKind,
    cur: Value,
    options: &'a [String],
    ty: fbd_engine::Type,
    /// The id of the name's label, which names the control.
    label: egui::Id,
}

/// A port's IEC type beside its name, as a PLC tool's watch list has it (an INT field wraps
/// at 32767, a TIME takes T#500ms: the type says why).
fn type_cell(ui: &mut egui::Ui, ty: fbd_engine::Type) {
    ui.label(RichText::new(ty.name()).small().weak());
}

/// A selector switch's positions in a row (up to eight; a list beyond), `0` (off) first; the
/// position clicked, if one was. `name`: the input; `label`: its label.
fn selector(ui: &mut egui::Ui, name: &str, label: egui::Id, cur: i64, options: &[String]) -> Option<i64> {
    let positions: Vec<(i64, String)> = std::iter::once((0, "0 (none)".to_string()))
        .chain(options.iter().enumerate().map(|(k, o)| (k as i64 + 1, format!("{} {o}", k + 1))))
        .collect();
    let mut chosen = cur;
    if positions.len() <= 9 {
        ui.horizontal(|ui| {
            for (k, text) in &positions {
                ui.selectable_value(&mut chosen, *k, text);
            }
        });
    } else {
        let shown = positions.iter().find(|(k, _)| *k == cur).map_or_else(|| cur.to_string(), |(_, t)| t.clone());
        // Named by the input's label, for screen readers; kept by the input's name (the label's
        // own id is not stable from one frame to the next in a scrolled list).
        egui::ComboBox::from_id_salt(("selector", name))
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for (k, text) in &positions {
                    ui.selectable_value(&mut chosen, *k, text);
                }
            })
            .response
            .labelled_by(label);
    }
    (chosen != cur).then_some(chosen)
}
