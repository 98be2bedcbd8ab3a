//! Copy, cut, paste and duplicate of the selected blocks in the editor (Ctrl+C, Ctrl+X,
//! Ctrl+V, Ctrl+D), through the system clipboard as text (`fbd_edit`'s clipboard format), so
//! blocks go between bodies, programs and windows. A paste lands at the pointer when it is on
//! the canvas, else two grid steps below and right of where the blocks were copied; the pasted
//! blocks are selected, to be dragged on.

use eframe::egui;
use fbd_edit::BodyId;

use crate::editor::EditorState;

/// Where a paste or duplicate lands when the pointer is not on the canvas.
const STEP: f64 = 2.0 * fbd_layout::PITCH;

impl EditorState {
    /// The clipboard keys of the editor (not while a text field has the keyboard).
    pub(crate) fn clipboard_keys(&mut self, ui: &egui::Ui, body: &BodyId) {
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
            let ids = self.selected.clone();
            let text = match self.workspace().copy_blocks(body, &ids) {
                Ok(t) => t,
                Err(e) => return self.after(Err(e.0)),
            };
            if duplicate {
                // A duplicate leaves the clipboard alone.
                return self.paste(ui, body, &text, false);
            }
            ui.ctx().copy_text(text.clone());
            self.clipboard = Some(text);
            let n = ids.len();
            if cut {
                let r = self.workspace().remove_blocks(body, &ids).map(|()| format!("cut {n} block(s)"));
                self.selected.clear();
                self.after(r.map_err(|e| e.0));
            } else {
                self.message = format!("copied {n} block(s): Ctrl+V pastes them");
            }
        }
        if let Some(text) = paste {
            self.paste(ui, body, &text, true);
        }
    }

    /// Pastes `text`: at the pointer if `at_pointer` and it is on the canvas, else a step from
    /// where the blocks were copied.
    fn paste(&mut self, ui: &egui::Ui, body: &BodyId, text: &str, at_pointer: bool) {
        let from = fbd_edit::copied_origin(text);
        let pointer = ui.input(|i| i.pointer.hover_pos()).filter(|p| self.canvas.is_some_and(|r| r.contains(*p)));
        let offset = match (from, pointer.filter(|_| at_pointer)) {
            (Some(o), Some(p)) => {
                let c = (p - self.origin) / self.zoom;
                let to = fbd_layout::snap([c.x as f64, c.y as f64]);
                [to[0] - o[0], to[1] - o[1]]
            }
            _ => [STEP, STEP],
        };
        let r = self.workspace().paste_blocks(body, text, offset);
        let r = match r {
            Ok(ids) => {
                let m = format!("pasted {}", ids.join(", "));
                self.selected = ids;
                Ok(m)
            }
            Err(e) => Err(e.0),
        };
        self.after(r);
    }

    /// The text the editor last copied (what its Ctrl+V pastes, unless another program put
    /// something else on the system clipboard since).
    pub fn clipboard_text(&self) -> Option<&str> {
        self.clipboard.as_deref()
    }
}
