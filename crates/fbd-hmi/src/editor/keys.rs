//! The editor's keys: undo and redo, save, delete, select all (Ctrl+A), clear the selection
//! (Escape), and the arrow keys moving the selected blocks a grid step (five with Shift), as
//! drawing editors do; in ladder mode Delete deletes the selected element and the rest that
//! moves blocks does nothing. Copy and paste are `clipboard.rs`.

use eframe::egui;
use fbd_edit::BodyId;

use crate::editor::EditorState;

impl EditorState {
    pub(crate) fn keys(&mut self, ui: &egui::Ui, body: &BodyId) {
        if ui.memory(|m| m.focused().is_some()) {
            return; // typing in a field
        }
        let (undo, redo, save, del) = ui.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z),
                i.consume_key(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z)
                    || i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::S),
                i.key_pressed(egui::Key::Delete),
            )
        });
        let (all, escape, nudge) = ui.input_mut(|i| {
            let step = if i.modifiers.shift { 5.0 } else { 1.0 } * fbd_layout::PITCH;
            let mut d = [0.0, 0.0];
            for (k, dx, dy) in [
                (egui::Key::ArrowLeft, -1.0, 0.0),
                (egui::Key::ArrowRight, 1.0, 0.0),
                (egui::Key::ArrowUp, 0.0, -1.0),
                (egui::Key::ArrowDown, 0.0, 1.0),
            ] {
                if i.key_pressed(k) && !i.modifiers.command && !i.modifiers.alt {
                    d = [d[0] + dx * step, d[1] + dy * step];
                }
            }
            (i.consume_key(egui::Modifiers::COMMAND, egui::Key::A), i.key_pressed(egui::Key::Escape), d)
        });
        let ladder = self.ladder_mode(body);
        if all && !ladder {
            self.selected =
                self.workspace().blocks(body).map_or(Vec::new(), |bs| bs.iter().map(|b| b.id.clone()).collect());
            self.message = format!("{} block(s) selected", self.selected.len());
        }
        if escape {
            self.selected.clear();
        }
        if nudge != [0.0, 0.0] && !self.selected.is_empty() && !ladder {
            let r = self.nudge(body, nudge);
            self.after(r);
        }
        // Ctrl+Shift+Z is checked first by egui's matching of modifiers; undo only without Shift.
        let r = if redo {
            Some(self.undo(false))
        } else if undo {
            Some(self.undo(true))
        } else if save {
            Some(self.save())
        } else if del && ladder && !self.selected.is_empty() {
            let id = std::mem::take(&mut self.selected).remove(0);
            Some(self.workspace().delete_element(body, &id).map(|()| format!("`{id}` deleted")).map_err(|e| e.0))
        } else if del && !self.selected.is_empty() {
            let ids = std::mem::take(&mut self.selected);
            Some(
                self.workspace()
                    .remove_blocks(body, &ids)
                    .map(|()| format!("deleted {}", ids.join(", ")))
                    .map_err(|e| e.0),
            )
        } else {
            None
        };
        if let Some(r) = r {
            self.after(r);
        }
    }

    /// Moves the selected blocks by `d` (one undo step); a block drawn without a stored
    /// position starts from where it is drawn.
    fn nudge(&mut self, body: &BodyId, d: [f64; 2]) -> Result<String, String> {
        let drawn = self.drawn_body();
        let selected = self.selected.clone();
        let ws = self.workspace();
        let mut moves = Vec::new();
        for id in &selected {
            let stored = ws.block(body, id).and_then(|b| b.pos);
            let at = stored.or_else(|| {
                let d = drawn.as_ref()?;
                let (b, l) = &**d;
                let k = b.nodes.iter().position(|n| n.id == *id)?;
                Some([l.blocks[k].x, l.blocks[k].y])
            });
            if let Some([x, y]) = at {
                moves.push((id.clone(), fbd_layout::snap([x + d[0], y + d[1]])));
            }
        }
        let n = moves.len();
        ws.move_blocks(body, &moves).map(|()| format!("moved {n} block(s)")).map_err(|e| e.0)
    }
}
