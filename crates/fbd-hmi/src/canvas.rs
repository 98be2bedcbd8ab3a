//! What the two drawing canvases share (the online diagram and the editor): zooming around the
//! pointer, the titles of a block and the circle of a negated input.

use eframe::egui::{self, Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, Vec2};

/// IEC 61131-3's negation circle just outside the pin at `pin` (left of an input, right of an
/// output: `side` -1 or 1; zoom `z`), over the wire's end, filled with the block's `fill`.
pub(crate) fn negation_circle(painter: &Painter, pin: Pos2, side: f32, z: f32, fill: Color32, ink: Color32) {
    let r = fbd_layout::NEGATION_R as f32 * z;
    let c = pin + Vec2::new(side * r, 0.0);
    painter.circle(c, r, fill, Stroke::new(1.2, ink));
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
