//! The editor's ladder mode: a ladder body (or an empty one the user starts a rung in) drawn as
//! rungs, an element selected by a click, and the edits of a ladder editor's toolbar (CODESYS's
//! and OpenPLC Editor's): a new rung, a contact after, before or in parallel with the selected
//! element, a coil after it, its variable changed, normally open/closed, edges, set/reset
//! coils, delete. Each is an undoable workspace edit (`fbd_edit::ladder`), checked and applied
//! by online change as every edit is.

use std::rc::Rc;

use eframe::egui::{self, Color32, Rect, Sense, Vec2};
use fbd_edit::BodyId;
use fbd_edit::ladder::Place;
use fbd_engine::model::{LdKind, LdModifier};
use fbd_layout::ladder::{ELEMENT_H, LadderDrawing};

use crate::canvas::Pen;
use crate::editor::EditorState;

const SELECTED: Color32 = Color32::from_rgb(0xe0, 0x90, 0x10);

impl EditorState {
    /// Whether the editor shows `body` as ladder: it has a network, or the user started one.
    pub(crate) fn ladder_mode(&mut self, body: &BodyId) -> bool {
        self.ladder_started || !self.workspace().ladder(body).is_empty()
    }

    /// The drawing of the edited ladder body, made again after every edit.
    fn ladder_drawn(&mut self, body: &BodyId) -> Option<Rc<LadderDrawing>> {
        if let Some((v, d)) = &self.ladder_drawn
            && *v == self.version
        {
            return Some(Rc::clone(d));
        }
        let ws = self.workspace();
        let project = ws.project().ok()?;
        let (blocks, ladder) = match body {
            BodyId::Program => (&project.root().blocks, &project.root().ladder),
            BodyId::Macro(m) => {
                let (_, _, d) = project.macro_def(m)?;
                (&d.blocks, &d.ladder)
            }
        };
        let pins: Vec<(Vec<String>, Vec<String>)> = blocks.iter().map(|b| project.block_pins(b)).collect();
        let d = Rc::new(fbd_layout::ladder::drawing(blocks, &pins, ladder));
        self.ladder_drawn = Some((self.version, Rc::clone(&d)));
        Some(d)
    }

    /// The ladder toolbar and the rungs.
    pub(crate) fn ladder_ui(&mut self, ui: &mut egui::Ui, body: &BodyId) {
        let selected =
            self.selected.first().cloned().filter(|s| self.workspace().ladder(body).iter().any(|e| e.id == *s));
        let mut act: Option<Result<String, String>> = None;
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("variable");
            ui.add(egui::TextEdit::singleline(&mut self.ladder_var).desired_width(110.0).hint_text("start"))
                .labelled_by(l.id)
                .on_hover_text("what a new contact reads or a new coil writes; Set gives it to the selected element");
            let var = self.ladder_var.trim().to_string();
            let ws = self.ws.as_mut().expect("made");
            if ui.button("New rung").on_hover_text("a contact on the variable into a coil, at the bottom").clicked() {
                let coil = if self.ladder_coil.trim().is_empty() {
                    "out1".to_string()
                } else {
                    self.ladder_coil.trim().to_string()
                };
                act = Some(ws.add_rung(body, &var, &coil).map(|k| format!("rung added, coil `{k}`")).map_err(|e| e.0));
                self.ladder_started = true;
            }
            let l = ui.label("coil");
            ui.add(egui::TextEdit::singleline(&mut self.ladder_coil).desired_width(90.0).hint_text("motor"))
                .labelled_by(l.id);
            ui.separator();
            let Some(sel) = selected.clone() else {
                ui.label(egui::RichText::new("click an element to edit it").weak());
                return;
            };
            let mut contact =
                |place: Place, label: &str, tip: &str, ui: &mut egui::Ui, act: &mut Option<Result<String, String>>| {
                    if ui.button(label).on_hover_text(tip).clicked() {
                        *act = Some(
                            ws.add_contact(body, &sel, place, &var)
                                .map(|id| format!("contact `{id}` added"))
                                .map_err(|e| e.0),
                        );
                    }
                };
            contact(
                Place::After,
                "Contact after",
                "a contact on the variable in series after the selected element",
                ui,
                &mut act,
            );
            contact(Place::Before, "Contact before", "a contact on the variable in series before it", ui, &mut act);
            contact(
                Place::Parallel,
                "Contact parallel",
                "a contact on the variable in parallel with it (OR)",
                ui,
                &mut act,
            );
            if ui
                .button("Coil after")
                .on_hover_text("a coil writing the variable, powered from the selected element")
                .clicked()
            {
                act = Some(ws.add_coil(body, &sel, &var).map(|id| format!("coil `{id}` added")).map_err(|e| e.0));
            }
            if ui.button("Set variable").clicked() {
                act =
                    Some(ws.set_element_var(body, &sel, &var).map(|_| format!("`{sel}` on `{var}`")).map_err(|e| e.0));
            }
            for (label, m) in [
                ("| |", LdModifier::Plain),
                ("|/|", LdModifier::Negated),
                ("P", LdModifier::Rising),
                ("N", LdModifier::Falling),
                ("S", LdModifier::Set),
                ("R", LdModifier::Reset),
            ] {
                let tip = format!("make `{sel}` {}", m.name());
                if ui.button(label).on_hover_text(tip).clicked() {
                    act =
                        Some(ws.set_modifier(body, &sel, m).map(|_| format!("`{sel}` {}", m.name())).map_err(|e| e.0));
                }
            }
            if ui.button("Delete").on_hover_text("the selected element; its readers read what powered it").clicked() {
                act = Some(ws.delete_element(body, &sel).map(|_| format!("`{sel}` deleted")).map_err(|e| e.0));
            }
            ui.separator();
            let l = ui.label("block");
            ui.add(egui::TextEdit::singleline(&mut self.ladder_block).desired_width(60.0).hint_text("TON"))
                .labelled_by(l.id);
            if ui
                .button("Block in rung")
                .on_hover_text("a timer, counter or function after the selected element, in series")
                .clicked()
            {
                let ty = self.ladder_block.trim().to_ascii_uppercase();
                act = Some(
                    ws.add_block_in_rung(body, &sel, &ty)
                        .map(|id| format!("{ty} `{id}` added in the rung"))
                        .map_err(|e| e.0),
                );
            }
        });
        // A block of the body selected: one of its inputs set to a constant (a timer's PT).
        let block = self.selected.first().cloned().filter(|s| self.workspace().block(body, s).is_some());
        if let Some(b) = block {
            ui.horizontal(|ui| {
                ui.label(format!("block `{b}`:"));
                let l = ui.label("input");
                ui.add(egui::TextEdit::singleline(&mut self.ladder_pin).desired_width(50.0).hint_text("pt"))
                    .labelled_by(l.id);
                let l = ui.label("value");
                ui.add(egui::TextEdit::singleline(&mut self.constant).desired_width(80.0).hint_text("T#2s"))
                    .labelled_by(l.id);
                if ui.button("Set input").clicked() {
                    let (pin, v) = (self.ladder_pin.trim().to_string(), self.constant.trim().to_string());
                    let ws = self.ws.as_mut().expect("made");
                    act =
                        Some(ws.set_constant(body, &b, &pin, &v).map(|_| format!("{b}.{pin} := {v}")).map_err(|e| e.0));
                }
            });
        }
        if let Some(a) = act {
            self.after(a);
        }
        let Some(d) = self.ladder_drawn(body) else {
            ui.label("this body cannot be drawn until its file parses");
            return;
        };
        self.ladder_canvas(ui, body, &d);
    }

    fn ladder_canvas(&mut self, ui: &mut egui::Ui, body: &BodyId, d: &LadderDrawing) {
        let ladder = self.workspace().ladder(body).to_vec();
        let view = ui.available_rect_before_wrap();
        let (resp, painter) = ui.allocate_painter(view.size(), Sense::click_and_drag());
        let rect = resp.rect;
        if self.fit || (resp.hovered() && ui.input(|i| i.key_pressed(egui::Key::F))) {
            (self.zoom, self.pan) = crate::canvas::ladder_fit(d, rect.size());
            self.fit = false;
        }
        if resp.dragged() {
            self.pan += resp.drag_delta();
        }
        crate::canvas::wheel_zoom(ui, &resp, &mut self.pan, &mut self.zoom);
        self.origin = rect.min + self.pan;
        let dark = ui.visuals().dark_mode;
        let pen = Pen::new(painter.with_clip_rect(rect), rect, self.origin, self.zoom, dark);
        pen.painter.rect_filled(rect, 0.0, if dark { Color32::from_gray(24) } else { Color32::from_gray(250) });
        pen.ladder_wires(d, pen.ink, &|_| pen.ink);
        let click = resp.clicked().then(|| resp.interact_pointer_pos()).flatten();
        let mut picked: Option<String> = None;
        for e in &d.elements {
            let el = &ladder[e.index];
            let on = self.selected.first() == Some(&el.id);
            pen.ladder_element(el, e, if on { SELECTED } else { pen.ink }, None);
            let area = Rect::from_min_max(pen.to(e.at.x, e.at.y - 14.0), pen.to(e.at.x + e.w, e.at.y + ELEMENT_H));
            if click.is_some_and(|p| area.expand(3.0).contains(p)) {
                picked = Some(el.id.clone());
            }
        }
        let blocks = self.workspace().blocks(body).map(<[_]>::to_vec).unwrap_or_default();
        for b in &d.blocks {
            let Some(blk) = blocks.get(b.index) else { continue };
            let on = self.selected.first() == Some(&blk.id);
            pen.ladder_block(
                blk,
                b,
                if on {
                    SELECTED.gamma_multiply(0.4)
                } else if dark {
                    Color32::from_gray(40)
                } else {
                    Color32::from_gray(238)
                },
            );
            let area = Rect::from_min_max(pen.to(b.at.x, b.at.y), pen.to(b.at.x + b.w, b.at.y + b.h));
            if click.is_some_and(|p| area.contains(p)) {
                picked = Some(blk.id.clone());
            }
        }
        if resp.clicked() {
            self.selected = picked.into_iter().collect();
            if let Some(id) = self.selected.first()
                && let Some(e) = ladder.iter().find(|e| e.id == *id)
            {
                self.ladder_var = e.var.clone();
            }
        }
    }

    /// Where ladder element `id` of the edited body was drawn in the last frame (its centre),
    /// for tests that click it.
    pub fn element_pos(&mut self, id: &str) -> Option<egui::Pos2> {
        let body = self.shown_body();
        let d = self.ladder_drawn(&body)?;
        let k = self.workspace().ladder(&body).iter().position(|e| e.id == id)?;
        let e = d.elements.iter().find(|e| e.index == k)?;
        let c = Vec2::new((e.at.x + e.w / 2.0) as f32, (e.at.y + ELEMENT_H / 2.0) as f32);
        Some(self.origin + c * self.zoom)
    }

    /// Where block `id` of the edited ladder body was drawn in the last frame (its centre).
    pub fn block_centre(&mut self, id: &str) -> Option<egui::Pos2> {
        let body = self.shown_body();
        let d = self.ladder_drawn(&body)?;
        let k = self.workspace().blocks(&body)?.iter().position(|b| b.id == id)?;
        let b = d.blocks.iter().find(|b| b.index == k)?;
        Some(self.origin + Vec2::new((b.at.x + b.w / 2.0) as f32, (b.at.y + b.h / 2.0) as f32) * self.zoom)
    }

    /// The contact or coil ids of the edited network with their variables and modifiers, for
    /// tests.
    pub fn network(&mut self) -> Vec<(String, LdKind, String, LdModifier)> {
        let body = self.shown_body();
        self.workspace().ladder(&body).iter().map(|e| (e.id.clone(), e.kind, e.var.clone(), e.modifier)).collect()
    }
}
