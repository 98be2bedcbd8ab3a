//! The 2048 field: 16 coloured tiles in the familiar palette, readable up to 131072.

use eframe::egui::{self, Align2, Color32, CornerRadius, FontId, Rect, Sense, Vec2};

/// Background and text colour of a tile.
pub fn tile_colors(v: i64) -> (Color32, Color32) {
    let dark = Color32::from_rgb(0x77, 0x6e, 0x65);
    let light = Color32::from_rgb(0xf9, 0xf6, 0xf2);
    match v {
        0 => (Color32::from_rgb(0xcd, 0xc1, 0xb4), dark),
        2 => (Color32::from_rgb(0xee, 0xe4, 0xda), dark),
        4 => (Color32::from_rgb(0xed, 0xe0, 0xc8), dark),
        8 => (Color32::from_rgb(0xf2, 0xb1, 0x79), light),
        16 => (Color32::from_rgb(0xf5, 0x95, 0x63), light),
        32 => (Color32::from_rgb(0xf6, 0x7c, 0x5f), light),
        64 => (Color32::from_rgb(0xf6, 0x5e, 0x3b), light),
        128 => (Color32::from_rgb(0xed, 0xcf, 0x72), light),
        256 => (Color32::from_rgb(0xed, 0xcc, 0x61), light),
        512 => (Color32::from_rgb(0xed, 0xc8, 0x50), light),
        1024 => (Color32::from_rgb(0xed, 0xc5, 0x3f), light),
        2048 => (Color32::from_rgb(0xed, 0xc2, 0x2e), light),
        _ => (Color32::from_rgb(0x3c, 0x3a, 0x32), light),
    }
}

/// Draws the board into the available square; returns the field's rect (for overlays).
pub fn board_ui(ui: &mut egui::Ui, values: &[i64; 16], forced: &[bool; 16]) -> Rect {
    let side = ui.available_width().min(ui.available_height()).clamp(160.0, 900.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    // Named for screen readers (and for the UI tests, which find the field by it).
    response.widget_info(|| egui::WidgetInfo::labeled(egui::accesskit::Role::Grid, true, "game board"));
    let painter = ui.painter_at(rect);
    // Tile labels go into a child Ui over the field, so they do not move the parent's cursor.
    let mut labels = ui.new_child(egui::UiBuilder::new().max_rect(rect));
    painter.rect_filled(rect, CornerRadius::same(8), Color32::from_rgb(0xbb, 0xad, 0xa0));
    let gap = side * 0.025;
    let cell = (side - 5.0 * gap) / 4.0;
    for (i, &v) in values.iter().enumerate() {
        let (r, c) = ((i / 4) as f32, (i % 4) as f32);
        let min = rect.min + Vec2::new(gap + c * (cell + gap), gap + r * (cell + gap));
        let tile = Rect::from_min_size(min, Vec2::splat(cell));
        let (bg, fg) = tile_colors(v);
        painter.rect_filled(tile, CornerRadius::same(4), bg);
        if forced[i] {
            painter.rect_stroke(
                tile.shrink(2.0),
                CornerRadius::same(4),
                egui::Stroke::new(3.0, Color32::from_rgb(0xd0, 0x20, 0x20)),
                egui::StrokeKind::Inside,
            );
        }
        if v != 0 {
            let digits = v.to_string().len().max(1) as f32;
            // Shrink the font with the number of digits so 131072 still fits.
            let size = (cell * 0.45).min(cell * 1.6 / digits);
            let text = v.to_string();
            // A label (not just paint) so that screen readers and UI tests can find the value.
            let label =
                egui::Label::new(egui::RichText::new(&text).font(FontId::proportional(size)).color(fg).strong());
            let galley_size = painter.layout_no_wrap(text.clone(), FontId::proportional(size), fg).size();
            let text_rect = Align2::CENTER_CENTER.anchor_size(tile.center(), galley_size);
            labels.put(text_rect, label);
        }
    }
    rect
}
