//! The online view of a ladder (LD) body, as OpenPLC Editor's and CODESYS's online modes show
//! one: the rails, the rungs with their contacts, coils and blocks (`fbd_layout::ladder`), every
//! energised wire green, a closed contact and a powered coil lit, the values of block outputs in
//! badges. Pan by dragging, zoom with the wheel, `F` or Fit to fit; right-click a contact or
//! coil to write, force, release, watch or break on its variable (the debugger's rules, as the
//! block view's menu).

use std::rc::Rc;
use std::sync::Arc;

use eframe::egui::{self, Color32, Rect, Sense, Stroke, Vec2};
use fbd_engine::Value;
use fbd_engine::model::{Block, LdElement, LdKind};
use fbd_layout::ladder::{ELEMENT_H, LadderDrawing};

use crate::canvas::Pen;
use crate::diagram::menu::{MenuAction, value_actions};
use crate::diagram::{DiagramCtx, DiagramState};

const ENERGISED: Color32 = Color32::from_rgb(0x1f, 0x9d, 0x3a);
const OPEN: Color32 = Color32::from_rgb(0x9a, 0x9a, 0x9a);

/// The blocks and network of the body shown, if it is a ladder body.
pub(crate) fn ladder_of<'p>(cx: &DiagramCtx<'p>, mac: &str) -> Option<(&'p [Block], &'p [LdElement])> {
    let (blocks, ladder) = if mac.is_empty() {
        (&cx.project.root().blocks, &cx.project.root().ladder)
    } else {
        let (_, _, m) = cx.project.macro_def(mac)?;
        (&m.blocks, &m.ladder)
    };
    (!ladder.is_empty()).then_some((blocks.as_slice(), ladder.as_slice()))
}

impl DiagramState {
    /// The shown body as a ladder SVG with the power flow of the newest scan (File → Export
    /// drawing), if it is a ladder body.
    pub(crate) fn ladder_svg(
        &mut self,
        cx: &DiagramCtx<'_>,
        label: &str,
    ) -> Option<(String, Rc<LadderDrawing>, String)> {
        let mac = self.macro_shown(cx.img)?;
        let (blocks, ladder) = ladder_of(cx, &mac)?;
        let d = self.ladder_drawing(cx, &mac)?;
        let img = cx.img;
        let prefix = if self.instance.is_empty() { String::new() } else { format!("{}/", self.instance) };
        let read = |path: &str| match img.plan.signal_id(&format!("{prefix}{path}")).map(|i| img.read_signal(i)) {
            Some(Value::Bool(b)) => Some(b),
            _ => None,
        };
        let shown = if self.instance.is_empty() { "the program" } else { self.instance.as_str() };
        let title = format!("{label} — {shown}, scan {}", img.scan);
        let powered = |from: &str| fbd_layout::ladder::powered(ladder, from, &read);
        let text = fbd_layout::ladder::svg(&d, blocks, ladder, &title, &powered);
        Some((text, d, title))
    }

    /// The drawing of the ladder body of macro `mac` ("" the program's), laid out once.
    fn ladder_drawing(&mut self, cx: &DiagramCtx<'_>, mac: &str) -> Option<Rc<LadderDrawing>> {
        if let Some((k, d)) = &self.ladder_cache
            && k == mac
        {
            return Some(Rc::clone(d));
        }
        let (blocks, ladder) = ladder_of(cx, mac)?;
        let pins: Vec<(Vec<String>, Vec<String>)> = blocks.iter().map(|b| cx.project.block_pins(b)).collect();
        let d = Rc::new(fbd_layout::ladder::drawing(blocks, &pins, ladder));
        self.ladder_cache = Some((mac.to_string(), Rc::clone(&d)));
        Some(d)
    }

    /// Draws the shown ladder body online; returns the menu actions chosen. `None` when the
    /// body shown is no ladder body.
    pub(crate) fn ladder_ui(&mut self, ui: &mut egui::Ui, cx: &DiagramCtx<'_>) -> Option<Vec<(String, MenuAction)>> {
        let mac = self.macro_shown(cx.img)?;
        let (blocks, ladder) = ladder_of(cx, &mac)?;
        let d = self.ladder_drawing(cx, &mac)?;
        let img = Arc::clone(cx.img);
        let prefix = if self.instance.is_empty() { String::new() } else { format!("{}/", self.instance) };
        let value = |path: &str| img.plan.signal_id(&format!("{prefix}{path}")).map(|i| img.read_signal(i));
        let bool_of = |path: &str| match value(path) {
            Some(Value::Bool(b)) => Some(b),
            _ => None,
        };
        let powered = |from: &str| fbd_layout::ladder::powered(ladder, from, &bool_of);
        let mut acts = Vec::new();
        let mut back: Option<String> = None;
        ui.horizontal_wrapped(|ui| {
            if !self.instance.is_empty() {
                if let Some(path) = self.breadcrumb(ui) {
                    back = Some(path);
                }
                ui.separator();
            }
            let rungs = ladder.iter().filter(|e| e.writes()).count();
            let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
            let contacts = ladder.len() - rungs;
            ui.label(format!(
                "Ladder · {} · {} · {}",
                n(rungs, "rung"),
                n(contacts, "contact"),
                n(blocks.len(), "block")
            ));
            if ui.button("Fit").on_hover_text("Fit the network to the view (F)").clicked() {
                self.fit = true;
            }
            let l = ui.label("Find");
            let find = ui
                .add(egui::TextEdit::singleline(&mut self.search).hint_text("variable").desired_width(110.0))
                .labelled_by(l.id);
            if find.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                self.ladder_find = Some(self.search.trim().to_string());
            }
            ui.label(egui::RichText::new("green: energised · right-click a contact or coil").weak());
            if !self.message.is_empty() {
                ui.label(&self.message);
            }
        });
        if let Some(path) = back {
            // The body it goes back to is drawn from the next frame.
            self.open(&path, &img);
            ui.ctx().request_repaint();
            return Some(acts);
        }
        let view = ui.available_rect_before_wrap();
        let (resp, painter) = ui.allocate_painter(view.size(), Sense::click_and_drag());
        let rect = resp.rect;
        self.canvas = rect.size();
        self.canvas_min = rect.min;
        if self.zoom == 0.0 {
            self.zoom = 1.0;
            self.fit = true;
        }
        if self.fit || (resp.hovered() && ui.input(|i| i.key_pressed(egui::Key::F))) {
            // As a ladder editor opens a program: the rungs at a legible size from the top, the
            // rest a scroll away (a whole tall network fitted would be a strip of hairlines).
            let sx = rect.width() / d.width.max(1.0) as f32;
            let sy = rect.height() / (d.height + 20.0).max(1.0) as f32;
            self.zoom = sx.min(sy.max(0.6)).clamp(0.3, 1.5);
            let drawn = Vec2::new(d.width as f32, d.height as f32) * self.zoom;
            self.pan = Vec2::new(((rect.width() - drawn.x) / 2.0).max(0.0), ((rect.height() - drawn.y) / 2.0).max(0.0))
                - Vec2::new(0.0, (d.top as f32 - 10.0).max(0.0) * self.zoom * f32::from(drawn.y > rect.height()));
            self.fit = false;
        }
        // Find: the first element on the variable (or of the id) centred, every one marked.
        if let Some(q) = self.ladder_find.take().filter(|q| !q.is_empty()) {
            let hit = |e: &LdElement| e.var.eq_ignore_ascii_case(&q) || e.id == q;
            let found: Vec<usize> = ladder.iter().enumerate().filter(|(_, e)| hit(e)).map(|(k, _)| k).collect();
            match d.elements.iter().find(|e| found.first() == Some(&e.index)) {
                Some(e) => {
                    let c = Vec2::new((e.at.x + e.w / 2.0) as f32, (e.at.y + ELEMENT_H / 2.0) as f32) * self.zoom;
                    self.pan = rect.size() / 2.0 - c;
                    self.message = format!("`{q}`: {} element(s)", found.len());
                }
                None => self.message = format!("no contact or coil on `{q}`"),
            }
            self.ladder_found = found;
        }
        if resp.dragged() {
            self.pan += resp.drag_delta();
        }
        crate::canvas::wheel_zoom(ui, &resp, &mut self.pan, &mut self.zoom);
        self.origin = rect.min + self.pan;
        let dark = ui.visuals().dark_mode;
        let pen = Pen::new(painter.with_clip_rect(rect), rect, self.origin, self.zoom, dark);
        self.text_px = pen.text_ok.then_some(pen.font.size);
        pen.painter.rect_filled(rect, 0.0, if dark { Color32::from_gray(24) } else { Color32::from_gray(250) });
        let colour = |p: Option<bool>| match p {
            Some(true) => ENERGISED,
            Some(false) => OPEN,
            None => pen.ink,
        };
        let z = pen.z;
        pen.ladder_wires(&d, ENERGISED, &|from| colour(powered(from)));
        let mut menu_on: Option<usize> = None;
        let hover = resp.hover_pos();
        for e in d.elements.iter().filter(|e| pen.shows(e.at.x, e.at.y - 14.0, e.at.x + e.w, e.at.y + ELEMENT_H)) {
            let el = &ladder[e.index];
            // A contact lit when closed (its BOOL as modified TRUE), a coil when powered.
            let lit = match el.kind {
                LdKind::Contact => {
                    let closed = match el.modifier {
                        fbd_engine::model::LdModifier::Negated => bool_of(&el.var).map(|v| !v),
                        _ => bool_of(&el.var),
                    };
                    colour(closed)
                }
                LdKind::Coil => colour(powered(&el.id)),
                LdKind::Store => pen.ink,
            };
            let fill = (lit == ENERGISED).then(|| ENERGISED.gamma_multiply(0.35));
            pen.ladder_element(el, e, lit, fill);
            let box_rect = Rect::from_min_max(pen.to(e.at.x, e.at.y), pen.to(e.at.x + e.w, e.at.y + ELEMENT_H));
            if self.ladder_found.contains(&e.index) {
                let mark = Color32::from_rgb(0xe0, 0x90, 0x10);
                pen.painter.rect_stroke(
                    box_rect.expand(4.0 * z),
                    3.0,
                    Stroke::new(2.0, mark),
                    egui::StrokeKind::Outside,
                );
            }
            if hover.is_some_and(|h| box_rect.expand(4.0).contains(h)) {
                if resp.secondary_clicked() {
                    menu_on = Some(e.index);
                }
                let v = value(&el.var).map_or("?".to_string(), |v| v.to_string());
                resp.clone().on_hover_text(format!("{} `{}` = {v}", kind_name(el.kind), el.var));
            }
        }
        let mut badges = Vec::new();
        let mut open: Option<String> = None;
        for b in d.blocks.iter().filter(|b| pen.shows(b.at.x, b.at.y - 14.0, b.at.x + b.w, b.at.y + b.h)) {
            let blk = &blocks[b.index];
            pen.ladder_block(blk, b, if dark { Color32::from_gray(40) } else { Color32::from_gray(238) });
            // A double-click on a macro instance (a function block of the program) opens its
            // body with that instance's values, as in the block view.
            let r = Rect::from_min_max(pen.to(b.at.x, b.at.y), pen.to(b.at.x + b.w, b.at.y + b.h));
            if resp.double_clicked() && hover.is_some_and(|h| r.contains(h)) && cx.project.macro_def(&blk.ty).is_some()
            {
                open = Some(if self.instance.is_empty() {
                    blk.id.clone()
                } else {
                    format!("{}/{}", self.instance, blk.id)
                });
            }
            if !pen.text_ok {
                continue;
            }
            for (p, at) in &b.outputs {
                if let Some(v) = value(&format!("{}.{p}", blk.id)) {
                    let c = match v {
                        Value::Bool(true) => ENERGISED,
                        Value::Bool(false) => OPEN,
                        _ => Color32::from_rgb(0x2b, 0x5c, 0xab),
                    };
                    badges.push((pen.to(at.x + 3.0, at.y - 14.0), v.short(), c));
                }
            }
        }
        if pen.text_ok {
            pen.badges(badges);
        }
        if let Some(path) = open {
            self.open(&path, &img);
            ui.ctx().request_repaint();
        }
        if let Some(k) = menu_on {
            self.ladder_menu = Some(k);
            self.menu_value.clear();
        }
        if let Some(k) = self.ladder_menu.filter(|k| *k < ladder.len()) {
            let var = ladder[k].var.clone();
            let cur = value(&var);
            let forced = img.plan.signal_id(&format!("{prefix}{var}")).is_some_and(|i| img.is_forced(i));
            let mut keep = true;
            resp.context_menu(|ui| {
                ui.label(egui::RichText::new(format!("{} `{var}`", kind_name(ladder[k].kind))).strong());
                if !matches!(cur, Some(Value::Bool(_)) | None) {
                    ui.text_edit_singleline(&mut self.menu_value);
                }
                for (label, act) in value_actions(ui, cur, forced, &self.menu_value) {
                    if ui.button(label).clicked() {
                        acts.push((format!("{prefix}{var}"), act));
                        keep = false;
                        ui.close();
                    }
                }
            });
            if !keep {
                self.ladder_menu = None;
            }
        }
        Some(acts)
    }
}

fn kind_name(k: LdKind) -> &'static str {
    match k {
        LdKind::Contact => "contact",
        LdKind::Coil => "coil",
        LdKind::Store => "store",
    }
}
