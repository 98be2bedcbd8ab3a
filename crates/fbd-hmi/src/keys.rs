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
        // saves, Ctrl+A) and the editor's keys are not moves (they moved the game unseen). Each
        // key press is read with the modifiers it was pressed with (the frame's modifiers are
        // those at its end: a Ctrl released within the frame made Ctrl+A a move), and the moves
        // go out in the order they were pressed (they went Up, Right, Down, Left).
        if self.editing() {
            return;
        }
        let pressed: Vec<Dir> = ctx.input(|i| i.events.iter().filter_map(move_of).collect());
        for d in pressed {
            self.send(Command::Move(d));
        }
    }
}

/// The move a key event is: a plain press (no Ctrl, Command or Alt) of an arrow or WASD.
fn move_of(e: &egui::Event) -> Option<Dir> {
    let egui::Event::Key { key, pressed: true, modifiers, .. } = e else { return None };
    if modifiers.ctrl || modifiers.command || modifiers.alt {
        return None;
    }
    match key {
        egui::Key::ArrowUp | egui::Key::W => Some(Dir::Up),
        egui::Key::ArrowRight | egui::Key::D => Some(Dir::Right),
        egui::Key::ArrowDown | egui::Key::S => Some(Dir::Down),
        egui::Key::ArrowLeft | egui::Key::A => Some(Dir::Left),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(key: egui::Key, modifiers: egui::Modifiers) -> egui::Event {
        egui::Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers }
    }

    /// A chord is read with its own modifiers, whatever the frame's are at its end.
    #[test]
    fn a_chord_is_not_a_move_and_a_plain_key_is() {
        assert_eq!(move_of(&key(egui::Key::A, egui::Modifiers::CTRL)), None);
        assert_eq!(move_of(&key(egui::Key::A, egui::Modifiers::COMMAND)), None);
        assert_eq!(move_of(&key(egui::Key::ArrowDown, egui::Modifiers::ALT)), None);
        assert_eq!(move_of(&key(egui::Key::A, egui::Modifiers::NONE)), Some(Dir::Left));
        assert_eq!(move_of(&key(egui::Key::ArrowUp, egui::Modifiers::SHIFT)), Some(Dir::Up));
        let released = egui::Event::Key {
            key: egui::Key::W,
            physical_key: None,
            pressed: false,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        };
        assert_eq!(move_of(&released), None);
    }
}
