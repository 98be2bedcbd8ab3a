//! Copy, cut, paste and duplicate of the selected blocks in the editor (Ctrl+C, Ctrl+X,
//! Ctrl+V, Ctrl+D), through the system clipboard as text (`fbd_edit`'s clipboard format), so
//! blocks go between bodies, programs and windows. A paste lands at the pointer when it is on
//! the canvas, else two grid steps below and right of where the blocks were copied; the pasted
//! blocks are selected, to be dragged on.

use eframe::egui;
use fbd_edit::BodyId;

use crate::app::App;

/// Where a paste or duplicate lands when the pointer is not on the canvas.
const STEP: f64 = 2.0 * fbd_layout::PITCH;

impl App {
    /// The clipboard keys of the editor (not while a text field has the keyboard).
    pub(crate) fn editor_clipboard_keys(&mut self, ui: &egui::Ui, body: &BodyId) {
        if ui.memory(|m| m.focused().is_some()) {
            return;
        }
        let (copy, cut, paste, duplicate) = ui.input_mut(|i| {
            let (mut copy, mut cut, mut paste) = (false, false, None);
            for e in &i.events {
                match e {
                    egui::Event::Copy => copy = true,
                    egui::Event::Cut => cut = true,
                    egui::Event::Paste(t) => paste = Some(t.clone()),
                    _ => {}
                }
            }
            (copy, cut, paste, i.consume_key(egui::Modifiers::COMMAND, egui::Key::D))
        });
        if copy || cut || duplicate {
            let ids = self.editor.selected.clone();
            let text = match self.editor_workspace().copy_blocks(body, &ids) {
                Ok(t) => t,
                Err(e) => return self.editor_after(Err(e.0)),
            };
            if duplicate {
                // A duplicate leaves the clipboard alone.
                return self.editor_paste(ui, body, &text, false);
            }
            ui.ctx().copy_text(text.clone());
            self.editor.clipboard = Some(text);
            let n = ids.len();
            if cut {
                let r = self.editor_workspace().remove_blocks(body, &ids).map(|()| format!("cut {n} block(s)"));
                self.editor.selected.clear();
                self.editor_after(r.map_err(|e| e.0));
            } else {
                self.editor.message = format!("copied {n} block(s): Ctrl+V pastes them");
            }
        }
        if let Some(text) = paste {
            self.editor_paste(ui, body, &text, true);
        }
    }

    /// Pastes `text`: at the pointer if `at_pointer` and it is on the canvas, else a step from
    /// where the blocks were copied.
    fn editor_paste(&mut self, ui: &egui::Ui, body: &BodyId, text: &str, at_pointer: bool) {
        let from = fbd_edit::copied_origin(text);
        let pointer =
            ui.input(|i| i.pointer.hover_pos()).filter(|p| self.editor.canvas.is_some_and(|r| r.contains(*p)));
        let offset = match (from, pointer.filter(|_| at_pointer)) {
            (Some(o), Some(p)) => {
                let c = (p - self.editor.origin) / self.editor.zoom;
                let to = fbd_layout::snap([c.x as f64, c.y as f64]);
                [to[0] - o[0], to[1] - o[1]]
            }
            _ => [STEP, STEP],
        };
        let r = self.editor_workspace().paste_blocks(body, text, offset);
        let r = match r {
            Ok(ids) => {
                let m = format!("pasted {}", ids.join(", "));
                self.editor.selected = ids;
                Ok(m)
            }
            Err(e) => Err(e.0),
        };
        self.editor_after(r);
    }

    /// The text the editor last copied (what its Ctrl+V pastes, unless another program put
    /// something else on the system clipboard since).
    pub fn editor_clipboard(&self) -> Option<&str> {
        self.editor.clipboard.as_deref()
    }
}
