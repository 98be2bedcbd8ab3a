//! What the two drawing canvases share (the online diagram and the editor): zooming around the
//! pointer, the titles of a block, the circle of a negated input and the tags of connectors.

use eframe::egui::{self, Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, Vec2};

/// IEC 61131-3's negation circle just outside the pin at `pin` (left of an input, right of an
/// output: `side` -1 or 1; zoom `z`), over the wire's end, filled with the block's `fill`.
pub(crate) fn negation_circle(painter: &Painter, pin: Pos2, side: f32, z: f32, fill: Color32, ink: Color32) {
    let r = fbd_layout::NEGATION_R as f32 * z;
    let c = pin + Vec2::new(side * r, 0.0);
    painter.circle(c, r, fill, Stroke::new(1.2, ink));
}

/// How a connector's tags show its source: the stubs' colour and the value, if there is one.
pub(crate) type TagLook<'a> =
    (&'a dyn Fn(fbd_layout::Source) -> Color32, &'a dyn Fn(fbd_layout::Source) -> Option<String>);

/// Nets drawn as labels: a connector tag beside the source, a continuation tag beside each
/// target, both naming the net and, on the continuations, `value` of its source (the source's
/// own value is on its pin already); `color` is the stubs' colour. The tags of the connector
/// named `found` (by Find) are outlined.
pub(crate) fn connector_tags(
    pen: &Pen,
    (body, layout): (&fbd_layout::Body, &fbd_layout::Layout),
    (color, value): TagLook<'_>,
    found: Option<&str>,
) {
    let (z, dark) = (pen.z, pen.dark);
    let fill = if dark { Color32::from_rgb(0x4a, 0x3c, 0x10) } else { Color32::from_rgb(0xff, 0xf4, 0xd8) };
    let edge = Color32::from_rgb(0x80, 0x60, 0x00);
    let marked = Color32::from_rgb(0xe0, 0x40, 0x10);
    let tag = |x: f64, y: f64, w: f64, text: &str, found: bool| {
        let r = Rect::from_min_max(pen.to(x, y - 8.0), pen.to(x + w, y + 8.0));
        if !r.intersects(pen.rect) {
            return;
        }
        let outline = if found { Stroke::new(3.0, marked) } else { Stroke::new(1.0, edge) };
        pen.painter.rect(r, 2.0 * z, fill, outline, egui::StrokeKind::Outside);
        // In the block types' size: a connector's name is what a reader follows.
        if pen.text_ok {
            pen.painter.text(
                r.left_center() + Vec2::new(3.0 * z, 0.0),
                Align2::LEFT_CENTER,
                text,
                pen.font.clone(),
                pen.ink,
            );
        }
    };
    for c in &layout.connectors {
        let found = found == Some(c.label.as_str());
        let stroke = Stroke::new(1.4 * z.clamp(0.5, 1.5), color(c.source));
        // A source on another page has its connector there.
        if !body.is_remote(c.source) {
            let a = layout.source_anchor(c.source);
            let t = fbd_layout::connector_tag(a);
            pen.painter.line_segment([pen.to(a.x, a.y), pen.to(t.x, t.y)], stroke);
            tag(t.x, t.y, fbd_layout::tag_width(&c.label), &c.label, found);
        }
        let text = match value(c.source) {
            Some(v) => format!("{} = {v}", c.label),
            None => c.label.clone(),
        };
        let w = fbd_layout::tag_width(&text);
        for &target in &c.targets {
            let b = layout.target_anchor(target);
            let e = fbd_layout::continuation_tag(b);
            pen.painter.line_segment([pen.to(e.x, e.y), pen.to(b.x, b.y)], stroke);
            tag(e.x - w, e.y, w, &text, found);
        }
    }
}

/// How much further left a negated pin's constant stands (beyond the circle).
pub(crate) fn negation_room(negated: bool, z: f32) -> f32 {
    if negated { 2.0 * fbd_layout::NEGATION_R as f32 * z } else { 0.0 }
}

/// Zooms a canvas with the wheel (or pinch) around the pointer: the point under the pointer
/// stays where it is. `pan` is the drawing origin's offset from the canvas's corner.
pub(crate) fn wheel_zoom(ui: &egui::Ui, resp: &egui::Response, pan: &mut Vec2, zoom: &mut f32) {
    let Some(hp) = resp.hover_pos() else { return };
    let scroll = ui.input(|i| i.smooth_scroll_delta.y);
    let zd = ui.input(|i| i.zoom_delta()) * (scroll / 300.0).exp();
    if zd != 1.0 {
        let old = *zoom;
        let new = (old * zd).clamp(0.05, 4.0);
        let at = (hp - resp.rect.min - *pan) / old;
        *pan = hp - resp.rect.min - at * new;
        *zoom = new;
    }
}

/// Keeps a fitted view fitted while the canvas changes size (a panel opening or closing
/// beside it, the window resized) until the user pans or zooms: a fit made in a frame where
/// the canvas was about to grow left the drawing in a corner of it.
#[derive(Default)]
pub(crate) struct FitHold(Option<(Vec2, Vec2, f32)>);

impl FitHold {
    /// Whether to fit again: the view is as the last fit left it and the canvas is another
    /// size now. A view the user moved is let go.
    pub(crate) fn refit(&mut self, canvas: Vec2, pan: Vec2, zoom: f32) -> bool {
        match self.0 {
            Some((size, p, z)) if p == pan && z == zoom => size != canvas,
            _ => {
                self.0 = None;
                false
            }
        }
    }

    /// A fit was just made: `pan` and `zoom` fit a canvas of size `canvas`.
    pub(crate) fn fitted(&mut self, canvas: Vec2, pan: Vec2, zoom: f32) {
        self.0 = Some((canvas, pan, zoom));
    }
}

/// A block's type inside its box, near the top, and its id just above the box.
#[allow(clippy::too_many_arguments)]
pub(crate) fn block_titles(
    painter: &Painter,
    br: Rect,
    label: &str,
    id: &str,
    z: f32,
    font: &FontId,
    small: &FontId,
    ink: Color32,
) {
    painter.text(br.center_top() + Vec2::new(0.0, 10.0 * z), Align2::CENTER_CENTER, label, font.clone(), ink);
    painter.text(br.center_top() - Vec2::new(0.0, 2.0), Align2::CENTER_BOTTOM, id, small.clone(), Color32::GRAY);
}

/// How a body is drawn this frame (the online diagram and the editor): where it stands on
/// screen, its scale and its ink.
pub(crate) struct Pen {
    pub(crate) painter: egui::Painter,
    /// The canvas.
    pub(crate) rect: Rect,
    /// Where the drawing's (0, 0) is on screen.
    pub(crate) origin: Pos2,
    pub(crate) z: f32,
    pub(crate) dark: bool,
    pub(crate) ink: Color32,
    pub(crate) font: FontId,
    pub(crate) small: FontId,
    /// Text is legible at this zoom (below, only boxes and wires are drawn).
    pub(crate) text_ok: bool,
}

impl Pen {
    pub(crate) fn new(painter: egui::Painter, rect: Rect, origin: Pos2, z: f32, dark: bool) -> Pen {
        Pen {
            painter,
            rect,
            origin,
            z,
            dark,
            ink: if dark { Color32::from_gray(220) } else { Color32::from_gray(30) },
            font: FontId::monospace((11.0 * z).clamp(6.0, 22.0)),
            small: FontId::monospace((9.5 * z).clamp(5.0, 20.0)),
            text_ok: z > 0.35,
        }
    }

    /// A point of the drawing on screen.
    pub(crate) fn to(&self, x: f64, y: f64) -> Pos2 {
        self.origin + Vec2::new(x as f32, y as f32) * self.z
    }

    /// A block's input pins: names, negation circles, constants left of the pin.
    pub(crate) fn input_pins(&self, n: &fbd_layout::Node, anchors: &[fbd_layout::Point], fill: Color32) {
        let (z, ink) = (self.z, self.ink);
        for (k, (p, c)) in n.inputs.iter().enumerate() {
            let a = anchors[k];
            let pa = self.to(a.x, a.y);
            self.painter.text(pa + Vec2::new(4.0 * z, 0.0), Align2::LEFT_CENTER, p, self.small.clone(), ink);
            if n.is_negated(k) {
                negation_circle(&self.painter, pa, -1.0, z, fill, ink);
            }
            if let Some(c) = c {
                self.painter.text(
                    pa - Vec2::new(4.0 * z + negation_room(n.is_negated(k), z), 0.0),
                    Align2::RIGHT_CENTER,
                    c,
                    self.small.clone(),
                    Color32::from_rgb(0xa0, 0x60, 0x00),
                );
            }
        }
    }

    /// Value badges last, on top; each in its own box so neighbours never overprint.
    pub(crate) fn badges(&self, badges: Vec<(Pos2, String, Color32)>) {
        let mut taken: Vec<Rect> = Vec::new();
        for (p, text, color) in badges {
            let galley = self.painter.layout_no_wrap(text, self.small.clone(), Color32::WHITE);
            let mut r = Rect::from_min_size(p, galley.size() + Vec2::new(6.0, 2.0));
            while taken.iter().any(|t| t.intersects(r)) {
                r = r.translate(Vec2::new(0.0, -r.height()));
            }
            taken.push(r);
            self.painter.rect_filled(r, 3.0, color);
            self.painter.galley(r.min + Vec2::new(3.0, 1.0), galley, Color32::WHITE);
        }
    }
}

/// The zoom and pan that fit ladder drawing `d` to a view of `size`, as a ladder editor opens a
/// program: the rungs at a legible size from the top, the rest a scroll away (a whole tall
/// network fitted would be a strip of hairlines).
pub(crate) fn ladder_fit(d: &fbd_layout::ladder::LadderDrawing, size: Vec2) -> (f32, Vec2) {
    let sx = size.x / d.width.max(1.0) as f32;
    let sy = size.y / (d.height + 20.0).max(1.0) as f32;
    let zoom = sx.min(sy.max(0.6)).clamp(0.3, 1.5);
    let drawn = Vec2::new(d.width as f32, d.height as f32) * zoom;
    let centred = Vec2::new(((size.x - drawn.x) / 2.0).max(0.0), ((size.y - drawn.y) / 2.0).max(0.0));
    (zoom, centred)
}

/// A ladder network drawn: what the online view and the editor share.
impl Pen {
    /// Whether the drawing's rectangle from (`x0`, `y0`) to (`x1`, `y1`) is (nearly) in view.
    pub(crate) fn shows(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> bool {
        self.rect.expand(40.0).intersects(Rect::from_min_max(self.to(x0, y0), self.to(x1, y1)))
    }

    /// The rails (the left one in `rail`) and every wire in the ink `ink(from)` of what it
    /// carries, with the labels of the variables and constants blocks read.
    pub(crate) fn ladder_wires(
        &self,
        d: &fbd_layout::ladder::LadderDrawing,
        rail: Color32,
        ink: &dyn Fn(&str) -> Color32,
    ) {
        let line = |a: Pos2, b: Pos2, c: Color32, w: f32| {
            self.painter.line_segment([a, b], Stroke::new(w * self.z.max(0.5), c));
        };
        let (l, r) = d.rails;
        line(self.to(l, d.top), self.to(l, d.bottom), rail, 4.0);
        line(self.to(r, d.top), self.to(r, d.bottom), self.ink, 4.0);
        let view = self.rect.expand(40.0);
        for w in &d.wires {
            // Only what is in view is drawn (and its power found): a network of thousands of
            // rungs costs the rungs on screen.
            let (lo, hi) = w.points.iter().fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), p| {
                ([lo[0].min(p.x), lo[1].min(p.y)], [hi[0].max(p.x), hi[1].max(p.y)])
            });
            if !view.intersects(Rect::from_min_max(self.to(lo[0], lo[1]), self.to(hi[0], hi[1])).expand(1.0)) {
                continue;
            }
            let c = ink(&w.from);
            for seg in w.points.windows(2) {
                line(self.to(seg[0].x, seg[0].y), self.to(seg[1].x, seg[1].y), c, 1.5);
            }
            if let (Some(t), Some(p), true) = (&w.label, w.points.first(), self.text_ok) {
                let at = self.to(p.x - 2.0, p.y);
                self.painter.text(at, Align2::RIGHT_CENTER, t, self.small.clone(), Color32::from_rgb(0xa0, 0x60, 0x00));
            }
        }
    }

    /// Contact, coil or store `el` where `e` stands, in ink `c`, filled with `fill` (lit): its
    /// symbol, its modifier's letter and its variable above (a store's inside).
    pub(crate) fn ladder_element(
        &self,
        el: &fbd_engine::model::LdElement,
        e: &fbd_layout::ladder::DrawnElement,
        c: Color32,
        fill: Option<Color32>,
    ) {
        use fbd_engine::model::LdKind;
        use fbd_layout::ladder::ELEMENT_H;
        let (x, y, w, z) = (e.at.x, e.at.y, e.w, self.z);
        if !self.shows(x, y - 14.0, x + w, y + ELEMENT_H) {
            return;
        }
        let mid = y + ELEMENT_H / 2.0;
        let line = |a: Pos2, b: Pos2, width: f32| self.painter.line_segment([a, b], Stroke::new(width * z.max(0.5), c));
        match el.kind {
            LdKind::Contact => {
                let t = fbd_layout::ladder::stub(w);
                line(self.to(x, mid), self.to(x + t, mid), 2.0);
                line(self.to(x + t, y), self.to(x + t, y + ELEMENT_H), 2.5);
                line(self.to(x + w - t, y), self.to(x + w - t, y + ELEMENT_H), 2.5);
                line(self.to(x + w - t, mid), self.to(x + w, mid), 2.0);
                if let Some(f) = fill {
                    let inside = Rect::from_min_max(
                        self.to(x + t + 1.0, y + 2.0),
                        self.to(x + w - t - 1.0, y + ELEMENT_H - 2.0),
                    );
                    self.painter.rect_filled(inside, 0.0, f);
                }
            }
            LdKind::Coil => {
                let t = fbd_layout::ladder::stub(w) - 2.0;
                line(self.to(x, mid), self.to(x + t, mid), 2.0);
                line(self.to(x + w - t, mid), self.to(x + w, mid), 2.0);
                // `( )`: two arcs of the circle between the stubs.
                let centre = self.to(x + w / 2.0, mid);
                let rad = (ELEMENT_H as f32 / 2.0 + 2.0).min(w as f32 / 2.0) * z;
                let arc = |from: f32, to: f32| -> Vec<Pos2> {
                    (0..=12)
                        .map(|k| from + (to - from) * k as f32 / 12.0)
                        .map(|a| centre + Vec2::angled(a) * rad)
                        .collect()
                };
                use std::f32::consts::PI;
                if let Some(f) = fill {
                    self.painter.circle_filled(centre, rad * 0.8, f);
                }
                let stroke = Stroke::new(2.0 * z.max(0.5), c);
                self.painter.add(egui::Shape::line(arc(PI * 0.7, PI * 1.3), stroke));
                self.painter.add(egui::Shape::line(arc(-PI * 0.3, PI * 0.3), stroke));
            }
            LdKind::Store => {
                let r = Rect::from_min_max(self.to(x, y), self.to(x + w, y + ELEMENT_H));
                self.painter.rect_stroke(r, 8.0 * z, Stroke::new(1.5 * z.max(0.5), c), egui::StrokeKind::Inside);
            }
        }
        if !self.text_ok {
            return;
        }
        let sym = fbd_layout::ladder::symbol(el.modifier);
        if !sym.is_empty() {
            self.painter.text(self.to(x + w / 2.0, mid), Align2::CENTER_CENTER, sym, self.font.clone(), c);
        }
        let (at, align) = if el.kind == LdKind::Store {
            (self.to(x + w / 2.0, mid), Align2::CENTER_CENTER)
        } else {
            (self.to(x + w / 2.0, y - 2.0), Align2::CENTER_BOTTOM)
        };
        self.painter.text(at, align, &el.var, self.small.clone(), self.ink);
    }

    /// A block of a rung where `b` stands: its box filled with `fill`, its type inside, its id
    /// above, its pins' names.
    pub(crate) fn ladder_block(
        &self,
        blk: &fbd_engine::model::Block,
        b: &fbd_layout::ladder::DrawnBlock,
        fill: Color32,
    ) {
        if !self.shows(b.at.x, b.at.y - 14.0, b.at.x + b.w, b.at.y + b.h) {
            return;
        }
        let r = Rect::from_min_max(self.to(b.at.x, b.at.y), self.to(b.at.x + b.w, b.at.y + b.h));
        self.painter.rect_filled(r, 2.0, fill);
        self.painter.rect_stroke(r, 2.0, Stroke::new(1.2, self.ink), egui::StrokeKind::Inside);
        if !self.text_ok {
            return;
        }
        let mid = b.at.x + b.w / 2.0;
        self.painter.text(self.to(mid, b.at.y + 2.0), Align2::CENTER_TOP, &blk.ty, self.font.clone(), self.ink);
        self.painter.text(self.to(mid, b.at.y - 2.0), Align2::CENTER_BOTTOM, &blk.id, self.small.clone(), self.ink);
        for (p, at) in &b.inputs {
            self.painter.text(self.to(at.x + 3.0, at.y), Align2::LEFT_CENTER, p, self.small.clone(), self.ink);
        }
        for (p, at) in &b.outputs {
            self.painter.text(self.to(at.x - 3.0, at.y), Align2::RIGHT_CENTER, p, self.small.clone(), self.ink);
        }
    }
}
