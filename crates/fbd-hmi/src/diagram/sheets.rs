//! The online diagram's sheets: a drawing larger than the view at full-size text is read as a
//! printed page is, sheet by sheet, each fitted at zoom 1 (Page Down, Page Up, or the sheet
//! picker, which also shows the drawing whole). `fbd_layout::sheets` cuts it where no block,
//! constant or tag stands, as `fbd svg --sheets` prints.

use eframe::egui::{self, Vec2};
use fbd_layout::{Body, Layout};

use crate::diagram::DiagramState;

/// The largest body the view cuts into sheets (choosing where to cut the columns tries the rows
/// of each candidate: quadratic at worst in the items cut around).
const MAX_SHEETED_BLOCKS: usize = 600;

impl DiagramState {
    /// The shown drawing cut into sheets of the view's size at zoom 1 (the text at its full
    /// size), when it does not fit the view whole at that size: computed again for another
    /// drawing or view size. A very large body is not cut (an overview is what it needs).
    pub(crate) fn cut_into_sheets(&mut self, body: &Body, layout: &Layout, view: Vec2) {
        let key = layout as *const Layout as usize;
        if self.sheets.as_ref().is_some_and(|(k, v, _)| *k == key && *v == view) {
            return;
        }
        // A margin of a grid step around the sheet.
        let (w, h) = (f64::from(view.x) - 20.0, f64::from(view.y) - 20.0);
        let fits = layout.width <= w && layout.height + 20.0 <= h;
        let cut = (!fits && w > 100.0 && h > 100.0 && body.nodes.len() <= MAX_SHEETED_BLOCKS)
            .then(|| fbd_layout::sheets::screen_sheets(body, layout, w, h));
        self.sheets = cut.map(|s| (key, view, s));
        if self.sheets.is_none() {
            self.sheets = Some((key, view, fbd_layout::sheets::Sheets::default()));
        }
        // A sheet asked for before the cut (Page Up into a page: its last) is one it has.
        let n = self.sheets.as_ref().map_or(1, |(_, _, s)| s.list.len().max(1));
        self.sheet = self.sheet.min(n - 1);
    }

    /// The part of the drawing Fit shows: the current sheet, unless the drawing is shown whole
    /// or fits the view.
    pub(crate) fn shown_sheet(&self) -> Option<fbd_layout::Rect> {
        let (_, _, s) = self.sheets.as_ref()?;
        if self.unsheeted || s.list.len() < 2 {
            return None;
        }
        s.list.get(self.sheet.min(s.list.len() - 1)).map(|s| s.part)
    }

    /// The sheet picker, for a drawing cut into sheets: a sheet, or the whole drawing.
    pub(crate) fn sheet_picker(&mut self, ui: &mut egui::Ui) {
        let Some((_, _, s)) = &self.sheets else { return };
        let n = s.list.len();
        if n < 2 {
            return;
        }
        let at: Vec<(usize, usize)> = s.list.iter().map(|s| (s.column, s.row)).collect();
        let k = self.sheet.min(n - 1);
        let shown = if self.unsheeted { "whole drawing".to_string() } else { format!("sheet {}/{n}", k + 1) };
        let mut pick = None;
        egui::ComboBox::from_id_salt("diagram_sheet")
            .selected_text(shown)
            .height(400.0)
            .show_ui(ui, |ui| {
                if ui.selectable_label(self.unsheeted, "whole drawing").clicked() {
                    pick = Some(None);
                }
                for (i, (col, row)) in at.iter().enumerate() {
                    let label = format!("sheet {} (column {col}, row {row})", i + 1);
                    if ui.selectable_label(!self.unsheeted && k == i, label).clicked() {
                        pick = Some(Some(i));
                    }
                }
            })
            .response
            .on_hover_text("the drawing is larger than the view at full-size text: read it sheet by sheet (Page Up, Page Down), or whole");
        if let Some(p) = pick {
            self.sheet = p.unwrap_or(0);
            self.unsheeted = p.is_none();
            self.fit = true;
        }
    }

    /// Page Down and Page Up, the pointer over the drawing: the next or the previous sheet, and
    /// past the last (or before the first) sheet of a page, the next page (or the previous one,
    /// at its last sheet), as one reads a printed program; `pages`: the body's page count (0
    /// when it has none).
    pub(crate) fn turn_sheets(&mut self, ui: &egui::Ui, pages: usize) {
        let step = ui.input(|i| i.key_pressed(egui::Key::PageDown) as i32 - i.key_pressed(egui::Key::PageUp) as i32);
        let n = if self.unsheeted { 1 } else { self.sheets.as_ref().map_or(1, |(_, _, s)| s.list.len().max(1)) };
        let k = self.sheet.min(n - 1);
        let paged = pages > 0 && !self.whole;
        if step > 0 && k + 1 < n {
            self.sheet = k + 1;
        } else if step > 0 && paged && self.page + 1 < pages {
            self.show_page(Some(self.page + 1));
            return;
        } else if step < 0 && k > 0 {
            self.sheet = k - 1;
        } else if step < 0 && paged && self.page > 0 {
            self.show_page(Some(self.page - 1));
            // Its last sheet (the cut, made when it is drawn, bounds it).
            self.sheet = usize::MAX;
            return;
        } else {
            return;
        }
        self.unsheeted = false;
        self.fit = true;
    }
}
