//! The editor's ladder mode: a ladder body (or an empty one the user starts a rung in) drawn as
//! rungs, an element selected by a click, and the edits of a ladder editor's toolbar (CODESYS's
//! and OpenPLC Editor's): a new rung, a contact after, before or in parallel with the selected
//! element, a coil after it, its variable changed, normally open/closed, edges, set/reset
//! coils, delete. Each is an undoable workspace edit (`fbd_edit::ladder`), checked and applied
//! by online change as every edit is.

use std::rc::Rc;

use eframe::egui::{self, Align2, Color32, Rect, Sense, Stroke, Vec2};
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
        });
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
            let sx = rect.width() / d.width.max(1.0) as f32;
            let sy = rect.height() / (d.height + 20.0).max(1.0) as f32;
            self.zoom = sx.min(sy).clamp(0.3, 1.5);
            self.pan = Vec2::new(10.0, 10.0);
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
        let z = pen.z;
        let line = |a: egui::Pos2, b: egui::Pos2, c: Color32, w: f32| {
            pen.painter.line_segment([a, b], Stroke::new(w * z.max(0.5), c))
        };
        let (l, r) = d.rails;
        line(pen.to(l, d.top), pen.to(l, d.bottom), pen.ink, 4.0);
        line(pen.to(r, d.top), pen.to(r, d.bottom), pen.ink, 4.0);
        for w in &d.wires {
            for seg in w.points.windows(2) {
                line(pen.to(seg[0].x, seg[0].y), pen.to(seg[1].x, seg[1].y), pen.ink, 1.5);
            }
            if let (Some(t), Some(p)) = (&w.label, w.points.first()) {
                pen.painter.text(pen.to(p.x - 2.0, p.y), Align2::RIGHT_CENTER, t, pen.small.clone(), pen.ink);
            }
        }
        let click = resp.clicked().then(|| resp.interact_pointer_pos()).flatten();
        let mut picked: Option<String> = None;
        for e in &d.elements {
            let el = &ladder[e.index];
            let (x, y, w) = (e.at.x, e.at.y, e.w);
            let mid = y + ELEMENT_H / 2.0;
            let on = self.selected.first() == Some(&el.id);
            let c = if on { SELECTED } else { pen.ink };
            let area = Rect::from_min_max(pen.to(x, y - 14.0), pen.to(x + w, y + ELEMENT_H));
            if click.is_some_and(|p| area.expand(3.0).contains(p)) {
                picked = Some(el.id.clone());
            }
            match el.kind {
                LdKind::Contact => {
                    line(pen.to(x, mid), pen.to(x + 12.0, mid), c, 2.0);
                    line(pen.to(x + 12.0, y), pen.to(x + 12.0, y + ELEMENT_H), c, 2.5);
                    line(pen.to(x + w - 12.0, y), pen.to(x + w - 12.0, y + ELEMENT_H), c, 2.5);
                    line(pen.to(x + w - 12.0, mid), pen.to(x + w, mid), c, 2.0);
                }
                LdKind::Coil => {
                    line(pen.to(x, mid), pen.to(x + 10.0, mid), c, 2.0);
                    line(pen.to(x + w - 10.0, mid), pen.to(x + w, mid), c, 2.0);
                    pen.painter.circle_stroke(
                        pen.to(x + w / 2.0, mid),
                        (ELEMENT_H as f32 / 2.0 + 2.0) * z,
                        Stroke::new(2.0 * z.max(0.5), c),
                    );
                }
                LdKind::Store => {
                    pen.painter.rect_stroke(
                        Rect::from_min_max(pen.to(x, y), pen.to(x + w, y + ELEMENT_H)),
                        8.0 * z,
                        Stroke::new(1.5, c),
                        egui::StrokeKind::Inside,
                    );
                }
            }
            let sym = fbd_layout::ladder::symbol(el.modifier);
            if !sym.is_empty() {
                pen.painter.text(pen.to(x + w / 2.0, mid), Align2::CENTER_CENTER, sym, pen.font.clone(), c);
            }
            pen.painter.text(pen.to(x + w / 2.0, y - 2.0), Align2::CENTER_BOTTOM, &el.var, pen.small.clone(), c);
        }
        let blocks = self.workspace().blocks(body).map(<[_]>::to_vec).unwrap_or_default();
        for b in &d.blocks {
            let r = Rect::from_min_max(pen.to(b.at.x, b.at.y), pen.to(b.at.x + b.w, b.at.y + b.h));
            pen.painter.rect_stroke(r, 2.0, Stroke::new(1.2, pen.ink), egui::StrokeKind::Inside);
            if let Some(blk) = blocks.get(b.index) {
                pen.painter.text(
                    pen.to(b.at.x + b.w / 2.0, b.at.y + 2.0),
                    Align2::CENTER_TOP,
                    &blk.ty,
                    pen.font.clone(),
                    pen.ink,
                );
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

    /// The contact or coil ids of the edited network with their variables and modifiers, for
    /// tests.
    pub fn network(&mut self) -> Vec<(String, LdKind, String, LdModifier)> {
        let body = self.shown_body();
        self.workspace().ladder(&body).iter().map(|e| (e.id.clone(), e.kind, e.var.clone(), e.modifier)).collect()
    }
}
