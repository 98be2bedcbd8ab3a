//! The online diagram, docked in the central panel: one body (the program's top level or a
//! macro instance) laid out by `fbd-layout`, with live values in badges beside the output pins,
//! BOOL wires green when TRUE and grey when FALSE, forced signals marked. Pan by dragging, zoom
//! with the wheel around the pointer, `F` or "Fit" to fit (a drawing larger than the view at
//! full-size text is fitted sheet by sheet: `sheets.rs`); double-click a macro instance to open
//! it, the breadcrumb to go back; search centres a block; right-click a block to write, force,
//! release, watch or set a breakpoint on its outputs.

use std::collections::HashMap;

use eframe::egui::{self, Align2, Color32, Pos2, Rect, Sense, Shape, Stroke, Vec2};
use fbd_engine::Value;
use fbd_layout::{Body, Layout, Source};

use crate::diagram::menu::{MenuAction, value_actions};

use std::sync::Arc;

use fbd_engine::ScanImage;

use crate::canvas::Pen;
use crate::diagram::{DiagramCtx, DiagramState};

/// What one frame reads from the image up front: the input ports' values, the forced paths,
/// the plan order of the shown blocks, and the paths breakpoints watch (block outputs are read
/// as they are drawn).
type Live = (Vec<Option<Value>>, Vec<String>, HashMap<String, usize>, Vec<String>);

const BADGE_TRUE: Color32 = Color32::from_rgb(0x1f, 0x9d, 0x3a);
const WIRE_FALSE: Color32 = Color32::from_rgb(0x9a, 0x9a, 0x9a);
const BREAKPOINT: Color32 = Color32::from_rgb(0xd0, 0x20, 0x20);
const FORCED: Color32 = Color32::from_rgb(0xe0, 0x70, 0x00);

fn wire_color(v: Option<Value>, dark: bool) -> Color32 {
    match v {
        Some(Value::Bool(true)) => BADGE_TRUE,
        Some(Value::Bool(false)) => WIRE_FALSE,
        _ => {
            if dark {
                Color32::from_rgb(0x90, 0xb0, 0xe0)
            } else {
                Color32::from_rgb(0x30, 0x48, 0x80)
            }
        }
    }
}

impl DiagramState {
    /// Draws the shown body with its live values; returns the menu actions chosen.
    pub(crate) fn ui(&mut self, ui: &mut egui::Ui, cx: &DiagramCtx<'_>) -> Vec<(String, MenuAction)> {
        // A ladder body is drawn as ladder (`ladder.rs`).
        if let Some(acts) = self.ladder_ui(ui, cx) {
            return acts;
        }
        // An ST body is shown as its text with the values inline (`st.rs`).
        if let Some(acts) = self.st_ui(ui, cx) {
            return acts;
        }
        let mut acts = Vec::new();
        let Some(bl) = self.body(cx) else {
            if let Some(job) = &self.job {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("Laying out {} blocks...", job.body.nodes.len()));
                });
                ui.ctx().request_repaint_after(std::time::Duration::from_millis(50));
            } else {
                self.instance.clear();
            }
            return acts;
        };
        let (body, layout) = &*bl;
        if self.zoom == 0.0 {
            self.zoom = 1.0;
            self.fit = true;
        }
        // Signal ids of what is shown, resolved once per instance.
        let key = self.instance.clone();
        if self.ids.as_ref().is_none_or(|(k, _, _)| *k != key) {
            let (o, i) = self.signal_ids(body, &cx.img.plan);
            self.ids = Some((key, o, i));
        }
        let (_, out_ids, in_ids) = self.ids.clone().expect("just set");
        // Everything shown comes from the scan image: the scan task never waits for a frame.
        let img = Arc::clone(cx.img);
        let (in_vals, forced, order, breaks): Live = self.live_values(body, &img, &out_ids, &in_ids);
        let pages = self.page_ids(cx);
        if let Some(q) = self.refind.take()
            && !self.find_here((body, layout), &q, false)
        {
            self.message = format!("no block or connector `{q}` here");
        }
        let page_before = (self.page, self.whole);
        let open = self.diagram_header(ui, (body, layout), &pages, &img);
        if (self.page, self.whole) != page_before {
            // Another page: drawn, and fitted, from the next frame (this one began with the
            // page before, and would take the fit).
            ui.ctx().request_repaint();
            return acts;
        }
        if !pages.is_empty()
            && let Some(label) = self.found_connector.clone().filter(|l| self.cross_ref_for.as_ref() != Some(l))
        {
            // The cross reference a printed page gives: where else the signal is read.
            let on = self.pages_reading(cx, &label, &pages);
            if !on.is_empty() {
                self.message = format!("{} · read on {}", self.message, on.join(", "));
            }
            self.cross_ref_for = Some(label);
        }
        if let Some(p) = open {
            // The rest of this frame would draw (and fit) the body it began with: the new one
            // is drawn, and fitted, from the next frame (it kept the parent's zoom).
            if self.open(&p, &img) {
                ui.ctx().request_repaint();
                return acts;
            }
        }
        // What the body is for, in its author's words (the program's or the macro's
        // description): one line, the whole text on hover. It was nowhere on screen.
        if let Some(d) = self.description(cx) {
            let first = d.lines().next().unwrap_or_default();
            ui.add(egui::Label::new(egui::RichText::new(first).weak().italics()).truncate()).on_hover_text(d);
        }

        let view = ui.available_rect_before_wrap();
        let (resp, painter) = ui.allocate_painter(view.size(), Sense::click_and_drag());
        let rect = resp.rect;
        self.canvas = rect.size();
        self.canvas_min = rect.min;
        let dark = ui.visuals().dark_mode;
        let refit = self.fit_hold.refit(rect.size(), self.pan, self.zoom);
        self.cut_into_sheets(body, layout, rect.size());
        if resp.hovered() {
            self.turn_sheets(ui, pages.len());
        }
        if self.fit || refit || (resp.hovered() && ui.input(|i| i.key_pressed(egui::Key::F))) {
            match self.shown_sheet() {
                // A sheet at full size (zoom 1: the text as large as it is drawn), centred.
                Some(part) => {
                    self.zoom = (rect.width() / part.w as f32).min(rect.height() / part.h as f32).min(1.0);
                    let drawn = Vec2::new(part.w as f32, part.h as f32) * self.zoom;
                    self.pan = (rect.size() - drawn) / 2.0 - Vec2::new(part.x as f32, part.y as f32) * self.zoom;
                }
                None => {
                    let sx = rect.width() / layout.width.max(1.0) as f32;
                    let sy = rect.height() / (layout.height + 20.0).max(1.0) as f32;
                    self.zoom = sx.min(sy).clamp(0.05, 2.0);
                    let drawn = Vec2::new(layout.width as f32, layout.height as f32) * self.zoom;
                    self.pan = (rect.size() - drawn) / 2.0;
                }
            }
            self.fit = false;
            self.fit_hold.fitted(rect.size(), self.pan, self.zoom);
        }
        if resp.dragged() {
            self.pan += resp.drag_delta();
        }
        crate::canvas::wheel_zoom(ui, &resp, &mut self.pan, &mut self.zoom);
        self.origin = rect.min + self.pan;
        let pen = Pen::new(painter.with_clip_rect(rect), rect, self.origin, self.zoom, dark);
        self.text_px = pen.text_ok.then_some(pen.font.size);
        pen.painter.rect_filled(rect, 0.0, if dark { Color32::from_gray(24) } else { Color32::from_gray(250) });
        if self.whole {
            page_frames(&pen, (body, layout), &pages, dark);
        }
        let shown = Shown {
            in_vals: &in_vals,
            out_ids: &out_ids,
            img: &img,
            forced: &forced,
            order: &order,
            breaks: &breaks,
            body,
        };
        let hover_net = resp.hover_pos().and_then(|hp| net_under(&layout.nets, &|x, y| pen.to(x, y), hp));
        self.draw_wires(&pen, body, layout, &shown, hover_net);
        self.draw_connectors(&pen, (body, layout), &shown);
        self.wire_tooltip(&resp, body, layout, &shown, hover_net);
        let mut badges: Vec<(Pos2, String, Color32)> = Vec::new();
        let (double, context) = self.draw_blocks(&pen, (body, layout), &shown, (&resp, hover_net), &mut badges);
        let (port_menu, port_toggle) = self.draw_ports(&pen, (body, layout), &shown, &resp, &mut badges);
        if pen.text_ok {
            pen.badges(badges);
        }
        if let Some(i) = context {
            self.menu_block = Some(i);
            self.menu_port = None;
        }
        if let Some(k) = port_menu {
            self.menu_port = Some(k);
            self.menu_block = None;
        }
        if let Some((path, v)) = port_toggle {
            acts.push((path, MenuAction::Write(v)));
        }
        let (act, open_inst) = self.diagram_menu(&resp, body, (&in_vals, &forced), &img, &out_ids);
        acts.extend(act);
        if let Some(i) = open_inst.or(double) {
            let id = &body.nodes[i].id;
            let path = if self.instance.is_empty() { id.clone() } else { format!("{}/{id}", self.instance) };
            self.open(&path, &img);
        }
        acts
    }

    /// What the shown body's drawing reads of the scan image besides the block outputs: the
    /// inputs' values, the forced nets' paths, the execution order of its blocks (when shown)
    /// and the breakpoints' paths.
    fn live_values(
        &self,
        body: &Body,
        img: &fbd_engine::ScanImage,
        out_ids: &[Vec<Option<usize>>],
        in_ids: &[Option<usize>],
    ) -> Live {
        let plan = &img.plan;
        let prefix = if self.instance.is_empty() { String::new() } else { format!("{}/", self.instance) };
        let order = if self.show_order {
            plan.blocks
                .iter()
                .enumerate()
                .filter_map(|(i, b)| {
                    b.path.strip_prefix(&prefix).filter(|r| !r.contains('/')).map(|r| (r.to_string(), i))
                })
                .collect()
        } else {
            HashMap::new()
        };
        let valid = |i: usize| i < plan.signals.len();
        let mut forced = Vec::new();
        for (n, ids) in out_ids.iter().enumerate() {
            for (p, id) in ids.iter().enumerate() {
                if id.is_some_and(|i| valid(i) && img.is_forced(i)) {
                    forced.push(self.net_path(body, Source::Out { node: n, pin: p }));
                }
            }
        }
        for (k, id) in in_ids.iter().enumerate() {
            if id.is_some_and(|i| valid(i) && img.is_forced(i)) {
                forced.push(self.net_path(body, Source::Port(k)));
            }
        }
        (
            in_ids.iter().map(|id| id.filter(|&i| valid(i)).map(|i| img.read_signal(i))).collect(),
            forced,
            order,
            img.breakpoint_paths.to_vec(),
        )
    }

    /// The header: breadcrumb, instance picker, search, fit, execution order, auto layout. It
    /// wraps: a header wider than the panel would widen the canvas under the debugger panel.
    /// Returns the instance to open, if one was chosen.
    fn diagram_header(
        &mut self,
        ui: &mut egui::Ui,
        (body, layout): (&Body, &Layout),
        pages: &[(String, Vec<String>)],
        img: &ScanImage,
    ) -> Option<String> {
        let mut open: Option<String> = None;
        ui.horizontal_wrapped(|ui| {
            open = self.breadcrumb(ui);
            ui.separator();
            // The instance picker: a shortcut to any macro instance of the program.
            egui::ComboBox::from_id_salt("diagram_instance").selected_text("instance…").height(400.0).show_ui(
                ui,
                |ui| {
                    let plan = img.plan.clone();
                    let instances: Vec<(String, String)> =
                        plan.instances.iter().map(|i| (i.path.clone(), i.macro_name.clone())).collect();
                    for (p, m) in &instances {
                        if ui.selectable_label(*p == self.instance, format!("{p} ({m})")).clicked() {
                            open = Some(p.clone());
                        }
                    }
                },
            );
            if !pages.is_empty() {
                self.page_picker(ui, pages);
            }
            let l = ui.label("Find");
            let r = ui
                .add(egui::TextEdit::singleline(&mut self.search).hint_text("block id").desired_width(120.0))
                .labelled_by(l.id);
            if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                let q = self.search.trim().to_string();
                // Whole names here, then a block of another page (or the block a `block.pin`
                // connector names: that page, and the search again there), then parts of names.
                if !self.find_here((body, layout), &q, true) {
                    let block = q.split_once('.').map_or(q.as_str(), |(b, _)| b);
                    match pages.iter().position(|(_, ids)| ids.iter().any(|id| id == block)) {
                        Some(k) if body.nodes.iter().all(|n| n.id != block) => {
                            self.show_page(Some(k));
                            self.fit = false;
                            self.refind = Some(q);
                        }
                        _ if self.find_here((body, layout), &q, false) => {}
                        _ => self.message = format!("no block or connector `{q}` here"),
                    }
                }
            }
            if ui.button("Fit").on_hover_text("fit the drawing to the view (F)").clicked() {
                self.fit = true;
            }
            ui.checkbox(&mut self.show_order, "execution order");
            if ui
                .checkbox(&mut self.auto_layout, "auto layout")
                .on_hover_text("lay the body out afresh instead of keeping the stored block positions")
                .changed()
            {
                self.cache.clear();
                self.job = None;
                self.fit = true;
            }
            let mut connectors = !self.wires_only;
            if ui
                .checkbox(&mut connectors, "connectors")
                .on_hover_text("draw long nets as a connector at the source and a continuation at each reader, named after the source")
                .changed()
            {
                self.wires_only = !connectors;
                self.cache.clear();
                self.job = None;
                self.fit = true;
            }
            // Last: it comes and goes with the view's size, and must not move the rest.
            self.sheet_picker(ui);
            ui.label(egui::RichText::new(&self.message).weak());
        });
        open
    }

    /// The context menu of a block (its outputs' write, force, watch...) or of an input port;
    /// returns the action chosen and the block to open.
    fn diagram_menu(
        &mut self,
        resp: &egui::Response,
        body: &Body,
        (in_vals, forced): (&[Option<Value>], &[String]),
        img: &fbd_engine::ScanImage,
        out_ids: &[Vec<Option<usize>>],
    ) -> (Option<(String, MenuAction)>, Option<usize>) {
        let out_val = |n: usize, p: usize| -> Option<Value> {
            out_ids[n][p].filter(|&i| i < img.plan.signals.len()).map(|i| img.read_signal(i))
        };
        let mut act: Option<(String, MenuAction)> = None;
        let mut open_inst: Option<usize> = None;
        // Clicks inside stay in the menu (the number field); buttons close it themselves.
        egui::Popup::context_menu(resp).close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside).show(|ui| {
            if let Some(k) = self.menu_port.filter(|&k| k < body.inputs.len()) {
                let path = self.net_path(body, Source::Port(k));
                ui.label(egui::RichText::new(&body.inputs[k]).strong());
                // Inside a macro an input port is the instance's pin: an alias of what drives it
                // outside (written there), so only watched, selected and broken on here.
                let writable = self.instance.is_empty();
                let cur = if writable {
                    in_vals[k]
                } else {
                    ui.label(egui::RichText::new("an instance's input: write what drives it outside").weak());
                    None
                };
                if matches!(cur, Some(Value::Int(_) | Value::Real(_))) {
                    ui.horizontal(|ui| {
                        let l = ui.label("value");
                        ui.add(egui::TextEdit::singleline(&mut self.menu_value).desired_width(80.0)).labelled_by(l.id);
                    });
                }
                ui.horizontal_wrapped(|ui| {
                    ui.set_max_width(260.0);
                    for (label, a) in value_actions(ui, cur, forced.contains(&path), &self.menu_value) {
                        if ui.small_button(label).clicked() {
                            act = Some((path.clone(), a));
                            ui.close();
                        }
                    }
                });
                return;
            }
            let Some(i) = self.menu_block.filter(|&i| i < body.nodes.len()) else {
                ui.label("right-click a block or an input");
                return;
            };
            ui.label(egui::RichText::new(&body.nodes[i].id).strong());
            if fbd_engine::library::lookup(&body.nodes[i].label).is_none() && ui.button("open").clicked() {
                open_inst = Some(i);
                ui.close();
            }
            let numeric = (0..out_ids[i].len()).any(|k| matches!(out_val(i, k), Some(Value::Int(_) | Value::Real(_))));
            if numeric {
                ui.horizontal(|ui| {
                    let l = ui.label("value");
                    ui.add(egui::TextEdit::singleline(&mut self.menu_value).desired_width(80.0)).labelled_by(l.id);
                });
            }
            for (k, pin) in body.nodes[i].outputs.iter().enumerate() {
                let path = self.net_path(body, Source::Out { node: i, pin: k });
                let cur = out_val(i, k);
                ui.separator();
                ui.label(egui::RichText::new(pin.as_str()).monospace());
                // Wrapped: a long row would be clipped by the menu's width and its buttons
                // past the edge could not be clicked.
                ui.horizontal_wrapped(|ui| {
                    ui.set_max_width(260.0);
                    let actions = value_actions(ui, cur, forced.contains(&path), &self.menu_value);
                    for (label, a) in actions {
                        let rr = ui.small_button(label.clone());
                        if rr.clicked() {
                            act = Some((path.clone(), a));
                            ui.close();
                        }
                    }
                });
            }
        });
        (act, open_inst)
    }

    /// The wires in view, coloured by value (forced orange; a feedback piece dashed), thicker
    /// under the pointer, with their junctions.
    fn draw_wires(&self, pen: &Pen, body: &Body, layout: &Layout, shown: &Shown, hover_net: Option<usize>) {
        let (z, dark, rect) = (pen.z, pen.dark, pen.rect);
        // Only what is in view is drawn: a net none of whose pieces reaches the view costs a
        // bounds test per piece (a large body's view holds a small part of it).
        let seen = |a: &fbd_layout::Point, b: &fbd_layout::Point| {
            Rect::from_two_pos(pen.to(a.x, a.y), pen.to(b.x, b.y)).expand(4.0).intersects(rect)
        };
        for (k, n) in layout.nets.iter().enumerate() {
            if !n.segments.iter().any(|(a, b)| seen(a, b)) {
                continue;
            }
            let v = shown.source(n.source);
            let is_forced = !shown.forced.is_empty() && shown.forced.contains(&self.net_path(body, n.source));
            let color = if is_forced { FORCED } else { wire_color(v, dark) };
            // A late piece of a non-BOOL wire is red (a BOOL's colour is its value).
            let late_color = if !is_forced && !matches!(v, Some(Value::Bool(_))) {
                Color32::from_rgb(0xc0, 0x40, 0x40)
            } else {
                color
            };
            let width = if hover_net == Some(k) { 3.0 } else { 1.4 } * z.clamp(0.5, 1.5);
            for (i, (a, b)) in n.segments.iter().enumerate().filter(|(_, (a, b))| seen(a, b)) {
                let (pa, pb) = (pen.to(a.x, a.y), pen.to(b.x, b.y));
                if n.late.get(i).copied().unwrap_or(n.delayed) {
                    pen.painter.extend(Shape::dashed_line(&[pa, pb], Stroke::new(width, late_color), 6.0 * z, 4.0 * z));
                } else {
                    pen.painter.line_segment([pa, pb], Stroke::new(width, color));
                }
            }
            let color = if n.delayed && n.late.iter().all(|l| *l) { late_color } else { color };
            for j in n.junctions.iter().filter(|j| rect.expand(4.0).contains(pen.to(j.x, j.y))) {
                pen.painter.circle_filled(pen.to(j.x, j.y), 3.0 * z.clamp(0.5, 1.5), color);
            }
        }
    }

    /// Find on the body shown: a block's id first, then a connector's name, each whole, and
    /// unless `whole`, then each in part; the found block is centred, the found connector's tags
    /// marked. Whether one was found (the message says which).
    pub(crate) fn find_here(&mut self, (body, layout): (&Body, &Layout), q: &str, whole: bool) -> bool {
        self.found_connector = None;
        self.cross_ref_for = None;
        let exact = body.nodes.iter().position(|n| n.id == q);
        if exact.is_none() && self.find_connector(layout, q, true) {
            return true;
        }
        let part = || body.nodes.iter().position(|n| n.id.contains(q));
        let found = match exact {
            Some(i) => Some(i),
            None if whole => None,
            None => part(),
        };
        if found.is_none() && !whole && self.find_connector(layout, q, false) {
            return true;
        }
        let Some(i) = found else { return false };
        let c = layout.blocks[i];
        // The sheet it is on is the one a refit shows.
        self.cut_into_sheets(body, layout, self.canvas);
        if let Some((_, _, s)) = &self.sheets
            && let Some(k) = s.list.iter().position(|p| p.part.overlaps(&c))
        {
            self.sheet = k;
        }
        // Centred at a readable size.
        self.zoom = self.zoom.max(1.0);
        self.pan =
            self.canvas / 2.0 - Vec2::new(c.x as f32 + c.w as f32 / 2.0, c.y as f32 + c.h as f32 / 2.0) * self.zoom;
        self.message = format!("found `{}`", body.nodes[i].id);
        true
    }

    /// The page picker of a body drawn on pages: each page by number and title, or the whole
    /// body (its pages two by two, as `fbd layout` stores them).
    fn page_picker(&mut self, ui: &mut egui::Ui, pages: &[(String, Vec<String>)]) {
        let shown = if self.whole {
            "whole body".to_string()
        } else {
            let k = self.page.min(pages.len() - 1);
            format!("page {}/{}: {}", k + 1, pages.len(), pages[k].0)
        };
        let mut pick = None;
        egui::ComboBox::from_id_salt("diagram_page").selected_text(shown).height(400.0).show_ui(ui, |ui| {
            if ui.selectable_label(self.whole, "whole body").clicked() {
                pick = Some(None);
            }
            for (k, (title, _)) in pages.iter().enumerate() {
                if ui.selectable_label(!self.whole && self.page == k, format!("{} {title}", k + 1)).clicked() {
                    pick = Some(Some(k));
                }
            }
        });
        if let Some(k) = pick {
            self.show_page(k);
        }
    }

    /// Find on a connector's name (the author's, or the `block.pin` an automatic one shows):
    /// its tags are marked and the view fits them all, so that where a signal goes reads at a
    /// glance. Whether one was found.
    fn find_connector(&mut self, layout: &Layout, q: &str, whole: bool) -> bool {
        let Some(c) =
            layout.connectors.iter().find(|c| if whole { c.label == q } else { !q.is_empty() && c.label.contains(q) })
        else {
            return false;
        };
        let src = fbd_layout::connector_tag(layout.source_anchor(c.source));
        let mut lo = (src.x, src.y - 10.0);
        let mut hi = (src.x + fbd_layout::tag_width(&c.label), src.y + 10.0);
        for &t in &c.targets {
            let p = layout.target_anchor(t);
            let w = fbd_layout::tag_width(&c.label) + 12.0 * fbd_layout::CHAR_W;
            lo = (lo.0.min(p.x - w - fbd_layout::PITCH), lo.1.min(p.y - 10.0));
            hi = (hi.0.max(p.x), hi.1.max(p.y + 10.0));
        }
        let (w, h) = ((hi.0 - lo.0) as f32 + 80.0, (hi.1 - lo.1) as f32 + 80.0);
        // Every tag in view, at a readable size where they fit (no closer than 1.5).
        self.zoom = (self.canvas.x / w).min(self.canvas.y / h).min(1.5);
        let centre = Vec2::new((lo.0 + hi.0) as f32 / 2.0, (lo.1 + hi.1) as f32 / 2.0);
        self.pan = self.canvas / 2.0 - centre * self.zoom;
        self.message = match c.targets.len() {
            0 => format!("connector `{}` marked at its source", c.label),
            n => format!("connector `{}`: its source and {n} continuation(s) marked", c.label),
        };
        self.found_connector = Some(c.label.clone());
        true
    }

    /// Nets drawn as labels: a connector tag beside the source, a continuation tag beside each
    /// target, both naming the source and, on the continuations, showing its live value (the
    /// source's own value is on its pin already).
    fn draw_connectors(&self, pen: &Pen, (body, layout): (&Body, &Layout), shown: &Shown) {
        let stroke = |s: Source| wire_color(shown.source(s), pen.dark);
        let value = |s: Source| shown.source(s).map(|v| v.short());
        crate::canvas::connector_tags(pen, (body, layout), (&stroke, &value), self.found_connector.as_deref());
    }

    /// The wire under the pointer says what it is: its signal and value, and for a dashed
    /// (feedback) wire what the dashes mean; they had no legend anywhere on screen.
    fn wire_tooltip(
        &self,
        resp: &egui::Response,
        body: &Body,
        layout: &Layout,
        shown: &Shown,
        hover_net: Option<usize>,
    ) {
        let Some(k) = hover_net.filter(|_| !resp.dragged()) else { return };
        let n = &layout.nets[k];
        let value = shown.source(n.source).map_or_else(|| "-".to_string(), |v| v.to_string());
        let mut text = format!("{} = {value}", self.net_path(body, n.source));
        if n.delayed {
            text.push_str(if n.late.iter().all(|l| *l) {
                "\nfeedback wire (dashed): where it closes a loop, the value it had at the end of the previous scan is read"
            } else {
                "\nits dashed part is a feedback wire: where it closes a loop, the value it had at the end of the previous scan is read"
            });
        }
        resp.clone().on_hover_text_at_pointer(text);
    }

    /// The blocks in view: box, titles, execution order, pins (negations, constants,
    /// breakpoints), their values' badges; returns the block double-clicked (to open) and the
    /// one right-clicked (its menu).
    fn draw_blocks(
        &self,
        pen: &Pen,
        (body, layout): (&Body, &Layout),
        shown: &Shown,
        (resp, hover_net): (&egui::Response, Option<usize>),
        badges: &mut Vec<(Pos2, String, Color32)>,
    ) -> (Option<usize>, Option<usize>) {
        let (z, dark, ink, painter) = (pen.z, pen.dark, pen.ink, &pen.painter);
        let (mut double, mut context) = (None, None);
        for (i, (n, r)) in body.nodes.iter().zip(&layout.blocks).enumerate() {
            let br = Rect::from_min_max(pen.to(r.x, r.y), pen.to(r.x + r.w, r.y + r.h));
            if !br.intersects(pen.rect) {
                continue;
            }
            let is_macro = fbd_engine::library::lookup(&n.label).is_none();
            let fill = match (is_macro, dark) {
                (true, false) => Color32::from_rgb(0xdd, 0xe8, 0xff),
                (true, true) => Color32::from_rgb(0x28, 0x34, 0x50),
                (false, false) => Color32::from_rgb(0xfd, 0xfd, 0xf6),
                (false, true) => Color32::from_gray(44),
            };
            painter.rect_filled(br, 3.0 * z, fill);
            painter.rect_stroke(br, 3.0 * z, Stroke::new(1.2, ink), egui::StrokeKind::Inside);
            if pen.text_ok {
                crate::canvas::block_titles(painter, br, &n.label, &n.id, z, &pen.font, &pen.small, ink);
                if let Some(o) = shown.order.get(&n.id) {
                    painter.text(
                        br.right_top() + Vec2::new(-2.0, 2.0),
                        Align2::RIGHT_TOP,
                        format!("#{o}"),
                        pen.small.clone(),
                        Color32::from_rgb(0x80, 0x60, 0xc0),
                    );
                }
                pen.input_pins(n, &layout.in_anchors[i], fill);
            }
            for (k, p) in n.outputs.iter().enumerate() {
                let a = layout.out_anchors[i][k];
                let pa = pen.to(a.x, a.y);
                if pen.text_ok {
                    painter.text(pa - Vec2::new(4.0 * z, 0.0), Align2::RIGHT_CENTER, p, pen.small.clone(), ink);
                }
                let path = self.net_path(body, Source::Out { node: i, pin: k });
                if shown.breaks.contains(&path) {
                    // A breakpoint on this output: a red dot on the pin, as in a code editor's gutter.
                    painter.circle_filled(pa, 4.0 * z.clamp(0.6, 1.5), BREAKPOINT);
                }
                let negated = n.is_negated_output(k);
                if negated && pen.text_ok {
                    crate::canvas::negation_circle(painter, pa, 1.0, z, fill, ink);
                }
                if let Some(v) = shown.out(i, k) {
                    // Beside the circle of a negated output: the block's own output (its wire,
                    // lit or not, carries the inverse).
                    let at = pa + Vec2::new(crate::canvas::negation_room(negated, z), 0.0);
                    badges.push(badge(pen, at, v, shown.forced.contains(&path)));
                }
            }
            if let Some(pp) = resp.interact_pointer_pos()
                && br.contains(pp)
            {
                if resp.double_clicked() && is_macro {
                    double = Some(i);
                }
                if resp.secondary_clicked() {
                    context = Some(i);
                }
            }
            // A block's comment says what it is for (the 2048 macros explain each block so; it
            // was nowhere on screen).
            if hover_net.is_none()
                && !resp.dragged()
                && let Some(c) = &n.comment
                && resp.hover_pos().is_some_and(|p| br.contains(p))
            {
                resp.clone().on_hover_text_at_pointer(format!("{} ({}): {c}", n.id, n.label));
            }
        }
        (double, context)
    }

    /// The body's input and output ports (the inputs with their values); returns the input
    /// right-clicked (its menu) and a BOOL input double-clicked (toggled, as in CODESYS's
    /// online mode).
    fn draw_ports(
        &self,
        pen: &Pen,
        (body, layout): (&Body, &Layout),
        shown: &Shown,
        resp: &egui::Response,
        badges: &mut Vec<(Pos2, String, Color32)>,
    ) -> (Option<usize>, Option<(String, Value)>) {
        let (z, ink, painter) = (pen.z, pen.ink, &pen.painter);
        let port_fill =
            if pen.dark { Color32::from_rgb(0x30, 0x30, 0x50) } else { Color32::from_rgb(0xe8, 0xe8, 0xf4) };
        let (mut port_menu, mut port_toggle) = (None, None);
        // Another page's signals are drawn only as the continuations of their connectors.
        for (k, name) in body.inputs.iter().enumerate().filter(|(k, _)| !body.is_remote(Source::Port(*k))) {
            let a = layout.input_ports[k];
            let pa = pen.to(a.x, a.y);
            let r = Rect::from_min_max(
                pa - Vec2::new((name.len() as f32 * 7.0 + 14.0) * z, 7.0 * z),
                pa + Vec2::new(0.0, 7.0 * z),
            );
            painter.rect_filled(r, 2.0, port_fill);
            if pen.text_ok {
                painter.text(r.left_center() + Vec2::new(3.0, 0.0), Align2::LEFT_CENTER, name, pen.small.clone(), ink);
            }
            let path = self.net_path(body, Source::Port(k));
            if let Some(v) = shown.in_vals[k] {
                badges.push(badge(pen, pa, v, shown.forced.contains(&path)));
            }
            if let Some(pp) = resp.interact_pointer_pos()
                && r.expand(2.0).contains(pp)
            {
                if resp.secondary_clicked() {
                    port_menu = Some(k);
                }
                if resp.double_clicked()
                    && self.instance.is_empty()
                    && let Some(Value::Bool(b)) = shown.in_vals[k]
                {
                    port_toggle = Some((path.clone(), Value::Bool(!b)));
                }
            }
        }
        for (k, (name, _)) in body.outputs.iter().enumerate() {
            let a = layout.output_ports[k];
            let pa = pen.to(a.x, a.y);
            let r = Rect::from_min_max(
                pa - Vec2::new(0.0, 7.0 * z),
                pa + Vec2::new((name.len() as f32 * 7.0 + 14.0) * z, 7.0 * z),
            );
            painter.rect_filled(r, 2.0, port_fill);
            if pen.text_ok {
                painter.text(r.left_center() + Vec2::new(8.0, 0.0), Align2::LEFT_CENTER, name, pen.small.clone(), ink);
            }
        }
        (port_menu, port_toggle)
    }
}

/// A value's badge beside the pin at `pa`: short, orange with an F when forced.
fn badge(pen: &Pen, pa: Pos2, v: Value, forced: bool) -> (Pos2, String, Color32) {
    (
        pa + Vec2::new(3.0, -8.0 * pen.z.clamp(0.6, 1.2)),
        format!("{}{}", if forced { "F " } else { "" }, v.short()),
        if forced { FORCED } else { wire_color(Some(v), pen.dark) },
    )
}

/// What the drawing shows of the scan image.
struct Shown<'a> {
    in_vals: &'a [Option<Value>],
    out_ids: &'a [Vec<Option<usize>>],
    img: &'a fbd_engine::ScanImage,
    forced: &'a [String],
    order: &'a HashMap<String, usize>,
    breaks: &'a [String],
    /// The body drawn: which outputs are negated.
    body: &'a Body,
}

impl Shown<'_> {
    /// A block output's value, read from the image when drawn (not every output of the body
    /// every frame).
    fn out(&self, n: usize, p: usize) -> Option<Value> {
        self.out_ids[n][p].filter(|&i| i < self.img.plan.signals.len()).map(|i| self.img.read_signal(i))
    }

    /// The value a wire from `s` carries: past the circle of a negated output, the inverse of
    /// the block's own output (which its pin's badge shows).
    fn source(&self, s: Source) -> Option<Value> {
        match s {
            Source::Port(k) => self.in_vals[k],
            Source::Out { node, pin } => match self.out(node, pin) {
                Some(Value::Bool(b)) if self.body.nodes.get(node).is_some_and(|n| n.is_negated_output(pin)) => {
                    Some(Value::Bool(!b))
                }
                v => v,
            },
        }
    }
}

/// The net with the piece nearest `at` (within 4 px), where `to` maps drawing units to the
/// screen. Where wires run close together (a zoomed-out drawing) the first net listed was
/// taken, not the one under the pointer.
fn net_under(nets: &[fbd_layout::NetGeom], to: &impl Fn(f64, f64) -> Pos2, at: Pos2) -> Option<usize> {
    let mut best: Option<(f32, usize)> = None;
    for (k, n) in nets.iter().enumerate() {
        for (a, b) in &n.segments {
            let (pa, pb) = (to(a.x, a.y), to(b.x, b.y));
            if !Rect::from_two_pos(pa, pb).expand(4.0).contains(at) {
                continue;
            }
            // Pieces are horizontal or vertical: the distance across them.
            let d = if (pa.y - pb.y).abs() < 0.5 { (at.y - pa.y).abs() } else { (at.x - pa.x).abs() };
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, k));
            }
        }
    }
    best.map(|(_, k)| k)
}

/// The whole view of a body drawn on pages: a frame around each page's blocks, titled with its
/// number and name, as a printed program's pages are (the whole view drew none: where a page
/// ended could not be seen).
fn page_frames(pen: &Pen, (body, layout): (&Body, &Layout), pages: &[(String, Vec<String>)], dark: bool) {
    let colour = if dark { Color32::from_gray(110) } else { Color32::from_gray(160) };
    let nodes: Vec<Vec<usize>> = pages
        .iter()
        .map(|(_, ids)| body.nodes.iter().enumerate().filter(|(_, n)| ids.contains(&n.id)).map(|(k, _)| k).collect())
        .collect();
    for (k, frame) in fbd_layout::page::frames(layout, &nodes).into_iter().enumerate() {
        let Some(f) = frame else { continue };
        let on_screen = egui::Rect::from_min_max(pen.to(f.x, f.y), pen.to(f.x + f.w, f.y + f.h));
        pen.painter.rect_stroke(on_screen, 4.0, egui::Stroke::new(1.0, colour), egui::StrokeKind::Inside);
        if pen.text_ok {
            pen.painter.text(
                on_screen.left_top() + Vec2::new(6.0, 4.0),
                egui::Align2::LEFT_TOP,
                format!("page {}/{}: {}", k + 1, pages.len(), pages[k].0),
                pen.font.clone(),
                colour,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fbd_layout::{NetGeom, Point, Source};

    fn wire(y: f64) -> NetGeom {
        NetGeom {
            source: Source::Port(0),
            targets: Vec::new(),
            segments: vec![(Point { x: 0.0, y }, Point { x: 100.0, y })],
            junctions: Vec::new(),
            delayed: false,
            late: vec![false],
        }
    }

    #[test]
    fn the_wire_under_the_pointer_is_the_nearest_not_the_first() {
        // Two wires a pitch apart, drawn at zoom 0.15: 3 px apart on screen.
        let nets = [wire(20.0), wire(40.0)];
        let to = |x: f64, y: f64| Pos2::new(x as f32 * 0.15, y as f32 * 0.15);
        assert_eq!(net_under(&nets, &to, Pos2::new(5.0, 6.0)), Some(1), "on the second wire");
        assert_eq!(net_under(&nets, &to, Pos2::new(5.0, 3.2)), Some(0), "on the first");
        assert_eq!(net_under(&nets, &to, Pos2::new(5.0, 30.0)), None, "far from both");
    }
}
