//! The keyboard: the debugger's hotkeys (as in an IDE's online mode) and the moves.

use eframe::egui;
use fbd2048_game::Command;
use ref2048::Dir;

use crate::app::App;

impl App {
    pub(crate) fn handle_keys(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        // Debugger hotkeys, as in an IDE's online mode: F5 run/pause, F10 one scan, Shift+F10
        // the debugger's N scans (stepping pauses first); and CODESYS's own: Ctrl+F5 one cycle,
        // Shift+F8 stop, Ctrl+F7 write the prepared values, F7 force them, Alt+F7 release every
        // force.
        let (f5, f7, f8, f10, m) = ctx.input(|i| {
            let k = |key| i.key_pressed(key);
            (k(egui::Key::F5), k(egui::Key::F7), k(egui::Key::F8), k(egui::Key::F10), i.modifiers)
        });
        let shift = m.shift;
        if f5 && m.ctrl {
            if !self.runner.is_paused() {
                self.pause();
            }
            self.run_scans(1);
        } else if f5 {
            if self.runner.is_paused() { self.resume() } else { self.pause() }
        }
        if f8 && m.shift && !self.runner.is_paused() {
            self.pause();
        }
        if f7 {
            if m.alt {
                self.runner.with(|rt| rt.release_all());
                self.dbg.message = "all forces released".into();
            } else if self.dbg.prepared.is_empty() {
                self.dbg.message = "nothing is prepared: prepare values in the signal editor first".into();
            } else if m.ctrl {
                self.write_prepared();
            } else {
                self.force_prepared();
            }
        }
        if f10 {
            if !self.runner.is_paused() {
                self.pause();
            }
            if shift {
                self.fast_forward(None, self.dbg.step_n.max(1));
            } else {
                self.run_scans(1);
            }
        }
        // Moves are plain keys on the board or the online diagram: a Ctrl/Alt chord (Ctrl+S
        // saves, Ctrl+A) and the editor's keys are not moves (they moved the game unseen).
        if self.editing() || ctx.input(|i| i.modifiers.ctrl || i.modifiers.command || i.modifiers.alt) {
            return;
        }
        let pressed: Vec<Dir> = ctx.input(|i| {
            let mut v = Vec::new();
            for (keys, d) in [
                ([egui::Key::ArrowUp, egui::Key::W], Dir::Up),
                ([egui::Key::ArrowRight, egui::Key::D], Dir::Right),
                ([egui::Key::ArrowDown, egui::Key::S], Dir::Down),
                ([egui::Key::ArrowLeft, egui::Key::A], Dir::Left),
            ] {
                if keys.iter().any(|k| i.key_pressed(*k)) {
                    v.push(d);
                }
            }
            v
        });
        for d in pressed {
            self.send(Command::Move(d));
        }
    }
}
