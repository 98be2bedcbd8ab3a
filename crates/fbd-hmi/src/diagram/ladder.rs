//! The online view of a ladder (LD) body, as OpenPLC Editor's and CODESYS's online modes show
//! one: the rails, the rungs with their contacts, coils and blocks (`fbd_layout::ladder`), every
//! energised wire green, a closed contact and a powered coil lit, the values of block outputs in
//! badges. Pan by dragging, zoom with the wheel, `F` or Fit to fit; right-click a contact or
//! coil to write, force, release, watch or break on its variable (the debugger's rules, as the
//! block view's menu).

use std::rc::Rc;
use std::sync::Arc;

use eframe::egui::{self, Color32, Rect, Sense, Stroke, Vec2};
use fbd_engine::model::{Block, LdElement, LdKind, LdModifier};
use fbd_engine::{ScanImage, Value};
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
        let live = Live { img: Arc::clone(cx.img), prefix: self.instance_prefix() };
        let shown = if self.instance.is_empty() { "the program" } else { self.instance.as_str() };
        let title = format!("{label} — {shown}, scan {}", live.img.scan);
        let powered = |from: &str| live.powered(ladder, from);
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
        let live = Live { img: Arc::clone(cx.img), prefix: self.instance_prefix() };
        if let Some(path) = self.ladder_header(ui, ladder, blocks.len()) {
            // The body it goes back to is drawn from the next frame.
            self.open(&path, &live.img);
            ui.ctx().request_repaint();
            return Some(Vec::new());
        }
        let view = ui.available_rect_before_wrap();
        let (resp, painter) = ui.allocate_painter(view.size(), Sense::click_and_drag());
        let rect = resp.rect;
        self.canvas = rect.size();
        self.canvas_min = rect.min;
        if self.zoom == 0.0 || self.fit || (resp.hovered() && ui.input(|i| i.key_pressed(egui::Key::F))) {
            (self.zoom, self.pan) = crate::canvas::ladder_fit(&d, rect.size());
            self.fit = false;
        }
        self.ladder_find_now(ladder, &d, rect.size());
        if resp.dragged() {
            self.pan += resp.drag_delta();
        }
        crate::canvas::wheel_zoom(ui, &resp, &mut self.pan, &mut self.zoom);
        self.origin = rect.min + self.pan;
        let pen = Pen::new(painter.with_clip_rect(rect), rect, self.origin, self.zoom, ui.visuals().dark_mode);
        self.text_px = pen.text_ok.then_some(pen.font.size);
        let (menu_on, open) = self.draw_ladder_online(&pen, &resp, (blocks, ladder, &d), (&live, cx));
        if let Some(path) = open {
            self.open(&path, &live.img);
            ui.ctx().request_repaint();
        }
        if let Some(k) = menu_on {
            self.ladder_menu = Some(k);
            self.menu_value.clear();
        }
        Some(self.ladder_menu_ui(&resp, ladder, &live))
    }

    /// The instance shown as a signal path prefix (`proc_2/`; empty for the program).
    fn instance_prefix(&self) -> String {
        if self.instance.is_empty() { String::new() } else { format!("{}/", self.instance) }
    }

    /// The header: the breadcrumb inside an instance, the network's size, Fit, Find, the
    /// message. The instance a breadcrumb link goes back to, if one was clicked.
    fn ladder_header(&mut self, ui: &mut egui::Ui, ladder: &[LdElement], blocks: usize) -> Option<String> {
        let mut back = None;
        ui.horizontal_wrapped(|ui| {
            if !self.instance.is_empty() {
                back = self.breadcrumb(ui);
                ui.separator();
            }
            let rungs = ladder.iter().filter(|e| e.writes()).count();
            let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
            let contacts = ladder.len() - rungs;
            ui.label(format!("Ladder · {} · {} · {}", n(rungs, "rung"), n(contacts, "contact"), n(blocks, "block")));
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
        back
    }

    /// A Find asked for: the first element on the variable (or of the id) centred in a view of
    /// `size`, every one marked, how many said.
    fn ladder_find_now(&mut self, ladder: &[LdElement], d: &LadderDrawing, size: Vec2) {
        let Some(q) = self.ladder_find.take().filter(|q| !q.is_empty()) else { return };
        let hit = |e: &LdElement| e.var.eq_ignore_ascii_case(&q) || e.id == q;
        let found: Vec<usize> = ladder.iter().enumerate().filter(|(_, e)| hit(e)).map(|(k, _)| k).collect();
        match d.elements.iter().find(|e| found.first() == Some(&e.index)) {
            Some(e) => {
                let c = Vec2::new((e.at.x + e.w / 2.0) as f32, (e.at.y + ELEMENT_H / 2.0) as f32) * self.zoom;
                self.pan = size / 2.0 - c;
                self.message = format!("`{q}`: {} element(s)", found.len());
            }
            None => self.message = format!("no contact or coil on `{q}`"),
        }
        self.ladder_found = found;
    }

    /// The network with the scan's values: energised wires, lit contacts and coils, the found
    /// ones marked, block outputs in badges. Returns the element right-clicked and the instance
    /// double-clicked, if any.
    fn draw_ladder_online(
        &self,
        pen: &Pen,
        resp: &egui::Response,
        (blocks, ladder, d): (&[Block], &[LdElement], &LadderDrawing),
        (live, cx): (&Live, &DiagramCtx<'_>),
    ) -> (Option<usize>, Option<String>) {
        pen.painter.rect_filled(pen.rect, 0.0, if pen.dark { Color32::from_gray(24) } else { Color32::from_gray(250) });
        let colour = |p: Option<bool>| match p {
            Some(true) => ENERGISED,
            Some(false) => OPEN,
            None => pen.ink,
        };
        let powered = |from: &str| live.powered(ladder, from);
        pen.ladder_wires(d, ENERGISED, &|from| colour(powered(from)));
        let (mut menu_on, mut open) = (None, None);
        let hover = resp.hover_pos();
        for e in d.elements.iter().filter(|e| pen.shows(e.at.x, e.at.y - 14.0, e.at.x + e.w, e.at.y + ELEMENT_H)) {
            let el = &ladder[e.index];
            // A contact lit when closed (its BOOL as modified TRUE), a coil when powered.
            let lit = match el.kind {
                LdKind::Contact => {
                    let v = live.bool_of(&el.var);
                    colour(if el.modifier == LdModifier::Negated { v.map(|v| !v) } else { v })
                }
                LdKind::Coil => colour(powered(&el.id)),
                LdKind::Store => pen.ink,
            };
            pen.ladder_element(el, e, lit, (lit == ENERGISED).then(|| ENERGISED.gamma_multiply(0.35)));
            let box_rect = Rect::from_min_max(pen.to(e.at.x, e.at.y), pen.to(e.at.x + e.w, e.at.y + ELEMENT_H));
            if self.ladder_found.contains(&e.index) {
                let mark = Stroke::new(2.0, Color32::from_rgb(0xe0, 0x90, 0x10));
                pen.painter.rect_stroke(box_rect.expand(4.0 * pen.z), 3.0, mark, egui::StrokeKind::Outside);
            }
            if hover.is_some_and(|h| box_rect.expand(4.0).contains(h)) {
                if resp.secondary_clicked() {
                    menu_on = Some(e.index);
                }
                let v = live.value(&el.var).map_or("?".to_string(), |v| v.to_string());
                resp.clone().on_hover_text(format!("{} `{}` = {v}", kind_name(el.kind), el.var));
            }
        }
        let mut badges = Vec::new();
        for b in d.blocks.iter().filter(|b| pen.shows(b.at.x, b.at.y - 14.0, b.at.x + b.w, b.at.y + b.h)) {
            let blk = &blocks[b.index];
            pen.ladder_block(blk, b, if pen.dark { Color32::from_gray(40) } else { Color32::from_gray(238) });
            // A double-click on a macro instance (a function block of the program) opens its
            // body with that instance's values, as in the block view.
            let r = Rect::from_min_max(pen.to(b.at.x, b.at.y), pen.to(b.at.x + b.w, b.at.y + b.h));
            if resp.double_clicked() && hover.is_some_and(|h| r.contains(h)) && cx.project.macro_def(&blk.ty).is_some()
            {
                open = Some(format!("{}{}", self.instance_prefix(), blk.id));
            }
            for (p, at) in b.outputs.iter().filter(|_| pen.text_ok) {
                if let Some(v) = live.value(&format!("{}.{p}", blk.id)) {
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
        (menu_on, open)
    }

    /// The open context menu of a contact or coil: its variable's write, force, release,
    /// watch and breakpoints; the action chosen.
    fn ladder_menu_ui(
        &mut self,
        resp: &egui::Response,
        ladder: &[LdElement],
        live: &Live,
    ) -> Vec<(String, MenuAction)> {
        let mut acts = Vec::new();
        let Some(k) = self.ladder_menu.filter(|k| *k < ladder.len()) else { return acts };
        let var = ladder[k].var.clone();
        let path = format!("{}{var}", live.prefix);
        let cur = live.value(&var);
        let forced = live.img.plan.signal_id(&path).is_some_and(|i| live.img.is_forced(i));
        resp.context_menu(|ui| {
            ui.label(egui::RichText::new(format!("{} `{var}`", kind_name(ladder[k].kind))).strong());
            if !matches!(cur, Some(Value::Bool(_)) | None) {
                ui.text_edit_singleline(&mut self.menu_value);
            }
            for (label, act) in value_actions(ui, cur, forced, &self.menu_value) {
                if ui.button(label).clicked() {
                    acts.push((path.clone(), act));
                    ui.close();
                }
            }
        });
        if !acts.is_empty() {
            self.ladder_menu = None;
        }
        acts
    }
}

/// The scan image as the ladder view reads it: values by path inside the shown instance.
struct Live {
    img: Arc<ScanImage>,
    prefix: String,
}

impl Live {
    fn value(&self, path: &str) -> Option<Value> {
        self.img.plan.signal_id(&format!("{}{path}", self.prefix)).map(|i| self.img.read_signal(i))
    }
    fn bool_of(&self, path: &str) -> Option<bool> {
        match self.value(path) {
            Some(Value::Bool(b)) => Some(b),
            _ => None,
        }
    }
    /// Whether `from` carries power (`fbd_layout::ladder::powered` on these values).
    fn powered(&self, ladder: &[LdElement], from: &str) -> Option<bool> {
        fbd_layout::ladder::powered(ladder, from, &|p| self.bool_of(p))
    }
}

fn kind_name(k: LdKind) -> &'static str {
    match k {
        LdKind::Contact => "contact",
        LdKind::Coil => "coil",
        LdKind::Store => "store",
    }
}
