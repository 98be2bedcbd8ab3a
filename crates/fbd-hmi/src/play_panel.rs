//! The play panel: the 2048 board with its controls, the Game over / You win overlays, and the
//! generic panel of inputs and outputs for any other program.

use eframe::egui::{self, Color32, RichText};
use fbd_engine::Value;
use fbd_engine::runtime::requests::{PressButton, PulseInput, ReleaseButton, SetInput};
use fbd2048_game::Command;

use crate::app::App;

/// A round lamp, painted (the default fonts have no bullet glyph).
fn lamp(ui: &mut egui::Ui, color: Color32) -> egui::Response {
    let (rect, resp) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), 6.0, color);
    resp
}

impl App {
    pub(crate) fn play_panel(&mut self, ui: &mut egui::Ui) {
        // Both rows wrap: a row wider than the panel would widen it, and the board (sized to
        // the panel) would then be drawn under the debugger.
        ui.horizontal_wrapped(|ui| {
            if ui.button("Start").clicked() {
                self.send(Command::Start);
            }
            if ui.button("Reset").clicked() {
                self.send(Command::Reset);
            }
            ui.separator();
            ui.label(RichText::new(format!("Score {}", self.view.score)).strong());
            ui.label(format!("Best {}", self.best.saved()));
            if self.front.game_altered && self.view.score > 0 {
                ui.label(RichText::new("(not recorded)").weak()).on_hover_text(
                    "this game was changed by a write, a force or a set board, or began under another program: its score does not count as a best",
                );
            }
            ui.separator();
            let (color, text) = if self.view.busy {
                (Color32::from_rgb(0xe0, 0x90, 0x20), "busy")
            } else {
                (Color32::DARK_GREEN, "ready")
            };
            lamp(ui, color).on_hover_text("lockout lamp: commands are refused while busy");
            ui.label(text);
            ui.separator();
            ui.label(format!("scan {}  ({} ms)", self.view.scan, self.view.clock_ms));
        });
        ui.add_space(6.0);
        ui.horizontal_wrapped(|ui| {
            ui.label("Autoplay");
            egui::ComboBox::from_label("player").selected_text(self.front.autoplay_name.clone()).show_ui(ui, |ui| {
                for n in players::NAMES {
                    ui.selectable_value(&mut self.front.autoplay_name, n.to_string(), n);
                }
            });
            let mut max = self.front.autoplay_speed <= 0.0;
            if ui.checkbox(&mut max, "max speed").changed() {
                self.front.autoplay_speed = if max { 0.0 } else { 10.0 };
            }
            // The slider with its value and unit is one piece the wrapping cannot split or move:
            // where it would not fit, it starts the next line (it was drawn past the panel, over
            // the debugger, in a narrow window).
            if ui.available_size_before_wrap().x < ui.spacing().slider_width + 110.0 {
                ui.end_row();
            }
            // Always there (greyed at max speed), so the Play button never moves under the mouse.
            let mut shown = if max { 200.0 } else { self.front.autoplay_speed };
            ui.add_enabled(!max, egui::Slider::new(&mut shown, 1.0..=200.0).logarithmic(true).text("moves/s"));
            if !max {
                self.front.autoplay_speed = shown;
            }
            if self.front.autoplaying() {
                if ui.button("Stop").clicked() {
                    self.stop_autoplay();
                }
                ui.label(format!("{} moves", self.front.autoplay_moves));
            } else if ui.button("Play").clicked() {
                let (n, sp) = (self.front.autoplay_name.clone(), self.front.autoplay_speed);
                self.start_autoplay(&n, sp);
            }
        });
        // The hint above the board: below it, overlays covered it and the status bar hid it.
        ui.label(RichText::new("Arrow keys or WASD move; Start places two tiles.").weak());
        let field = crate::board::board_ui(ui, &self.view.values, &self.view.forced);
        if self.view.game_over {
            self.overlay(ui, field, "Game over", &format!("Final score {}", self.view.score), "New game", true);
        } else if self.view.win && !self.win_ack {
            self.overlay(ui, field, "You win!", &format!("Score {}", self.view.score), "Keep playing", false);
        }
    }

    pub(crate) fn overlay(
        &mut self,
        ui: &mut egui::Ui,
        field: egui::Rect,
        title: &str,
        line: &str,
        button: &str,
        new_game: bool,
    ) {
        ui.painter().rect_filled(field, 8.0, Color32::from_rgba_unmultiplied(238, 228, 218, 190));
        let inner =
            egui::Rect::from_center_size(field.center(), egui::vec2(field.width() * 0.8, field.height() * 0.45));
        ui.scope_builder(egui::UiBuilder::new().max_rect(inner), |ui| {
            ui.vertical_centered(|ui| {
                ui.label(
                    RichText::new(title)
                        .size((field.width() / 9.0).max(18.0))
                        .strong()
                        .color(Color32::from_rgb(0x77, 0x6e, 0x65)),
                );
                ui.label(RichText::new(line).size(18.0));
                if ui.button(RichText::new(button).size(18.0)).clicked() {
                    if new_game {
                        self.send(Command::Start);
                    } else {
                        self.win_ack = true;
                    }
                }
            });
        });
    }

    pub(crate) fn generic_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading(self.image().plan.name.clone());
        // What the program is for, in its author's words (it was nowhere on screen).
        if let Some(d) = self.loaded.project.root().description.as_deref().filter(|d| !d.trim().is_empty()) {
            ui.label(d);
        }
        ui.label(RichText::new("This diagram has no 2048 interface; its program inputs and outputs:").weak());
        // One row per port, in a scrolled list that lays out only the rows in view: a program
        // with thousands of inputs drew every row every frame, past the window's bottom where
        // no one could reach them.
        let (n_in, n_out) = {
            let img = self.image();
            (img.plan.inputs.len(), img.plan.outputs.len())
        };
        let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        egui::ScrollArea::vertical().auto_shrink([false, true]).show_rows(ui, row, n_in + n_out, |ui, rows| {
            self.generic_rows(ui, rows, n_in);
        });
    }

    /// The generic panel's rows `rows` (inputs first, then outputs; `n_in` inputs).
    fn generic_rows(&mut self, ui: &mut egui::Ui, rows: std::ops::Range<usize>, n_in: usize) {
        // Only the ports in view, not a copy of the plan (a large program's plan is megabytes,
        // and this runs every frame).
        let (inputs, outputs) = {
            let img = self.image();
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
                match (kind, *cur) {
                    (fbd_engine::model::InputKind::Button, _) => {
                        // A push button: TRUE while held, and for at least one scan however
                        // short the press (it was one scan always: a timer on a held button
                        // never ran out).
                        let r = ui
                            .button("press")
                            .labelled_by(l.id)
                            .on_hover_text("TRUE while held down (at least one scan)");
                        let down = r.is_pointer_button_down_on();
                        let held = self.held_button.as_ref().is_some_and(|(n, _)| n == name);
                        if down && !held {
                            if let Ok(at) = self.runner.call(PressButton(name.clone())) {
                                self.held_button = Some((name.clone(), at));
                            }
                        } else if !down && held {
                            let at = self.held_button.take().map_or(0, |(_, at)| at);
                            self.runner.send(ReleaseButton { name: name.clone(), pressed_at: at });
                        } else if r.clicked() {
                            // From the keyboard or a screen reader: one scan.
                            self.runner.send(PulseInput { name: name.clone(), value: Value::Bool(true) });
                        }
                    }
                    (_, Value::Bool(mut b)) => {
                        if ui.checkbox(&mut b, "").labelled_by(l.id).changed() {
                            let _ = self.runner.call(SetInput { name: name.clone(), value: Value::Bool(b) });
                        }
                    }
                    (fbd_engine::model::InputKind::Selector, Value::Int(i)) if !options.is_empty() => {
                        // A selector switch: its positions by their labels (the diagram's
                        // `options`, positions 1..=n; 0 selects nothing). It was a number field
                        // that took any integer and showed none of the labels.
                        if let Some(k) = selector(ui, name, l.id, i, options) {
                            let _ = self.runner.call(SetInput { name: name.clone(), value: Value::Int(k) });
                        }
                    }
                    (_, Value::Int(mut i)) => {
                        // Within the input's type: an INT's drag stops at 32767.
                        let (lo, hi) = ty.int_range().unwrap_or((i64::MIN, i64::MAX));
                        if ui.add(egui::DragValue::new(&mut i).range(lo..=hi)).labelled_by(l.id).changed() {
                            let _ = self.runner.call(SetInput { name: name.clone(), value: Value::Int(i) });
                        }
                    }
                    // A drag field holds an f64: exact up to 2^53. Above it the value is shown as it
                    // is (it showed 2^64 for 2^64 - 1); the debugger's write field takes any.
                    (_, Value::ULInt(u)) if u > 1 << 53 => {
                        ui.label(RichText::new(u.to_string()).monospace())
                            .on_hover_text("beyond what a drag field holds exactly: write it from the debugger");
                    }
                    (_, Value::ULInt(mut u)) => {
                        if ui.add(egui::DragValue::new(&mut u)).labelled_by(l.id).changed() {
                            let _ = self.runner.call(SetInput { name: name.clone(), value: Value::ULInt(u) });
                        }
                    }
                    (_, Value::Time(ns)) => {
                        // A duration in milliseconds (what a preset is thought in), to the µs.
                        let mut ms = ns as f64 / 1e6;
                        let field = egui::DragValue::new(&mut ms).suffix(" ms").max_decimals(3).range(0.0..=1e12);
                        if ui.add(field).labelled_by(l.id).changed() {
                            let ns = (ms * 1e6).round() as i64;
                            let _ = self.runner.call(SetInput { name: name.clone(), value: Value::Time(ns) });
                        }
                    }
                    (_, Value::Real(mut r)) => {
                        if ui.add(egui::DragValue::new(&mut r).speed(0.01)).labelled_by(l.id).changed() {
                            let _ = self.runner.call(SetInput { name: name.clone(), value: Value::Real(r) });
                        }
                    }
                    (_, Value::Str(s)) => {
                        // The text as typed (no quotes needed; `'a$Nb'` reads its escapes),
                        // written when Enter is pressed or the field is left.
                        let text = self
                            .string_edits
                            .entry(name.clone())
                            .or_insert_with(|| String::from_utf8_lossy(s.as_bytes()).into_owned());
                        let r = ui.add(egui::TextEdit::singleline(text).desired_width(160.0)).labelled_by(l.id);
                        if r.lost_focus() {
                            match Value::parse(text, fbd_engine::Type::String) {
                                Ok(v) => {
                                    let _ = self.runner.call(SetInput { name: name.clone(), value: v });
                                    self.string_edits.remove(name);
                                }
                                Err(e) => self.status = format!("{name}: {e}"),
                            }
                        } else if !r.has_focus()
                            && self.string_edits.get(name).is_some_and(|t| t.as_bytes() != s.as_bytes())
                        {
                            self.string_edits.remove(name);
                        }
                    }
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
                        lamp(ui, if b { Color32::from_rgb(0x20, 0xc0, 0x40) } else { Color32::GRAY });
                    }
                    other => {
                        ui.label(RichText::new(other.text_as(*ty)).monospace());
                    }
                }
                ui.end_row();
            }
        });
    }
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
