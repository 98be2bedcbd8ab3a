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
        if f5 && m.ctrl {
            self.online_one_cycle();
        } else if f5 {
            self.online_run_or_pause();
        }
        if f8 && m.shift {
            self.online_stop();
        }
        if f7 {
            if m.alt {
                self.online_release_all();
            } else {
                self.online_prepared(!m.ctrl);
            }
        }
        if f10 {
            if m.shift { self.online_n_cycles() } else { self.online_one_cycle() }
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
