//! The keyboard: the debugger's hotkeys (as in an IDE's online mode) and the moves.

use eframe::egui;
use ref2048::Dir;

use crate::ui_command::UiCommand;

/// The commands of this frame's key presses. Debugger hotkeys, as in an IDE's online mode: F5
/// run/pause, F10 one scan, Shift+F10 the debugger's N scans (stepping pauses first); and
/// CODESYS's own: Ctrl+F5 one cycle, Shift+F8 stop, Ctrl+F7 write the prepared values, F7 force
/// them, Alt+F7 release every force. None while a text field has the keyboard.
pub(crate) fn commands_of_keys(ctx: &egui::Context, editing: bool) -> Vec<UiCommand> {
    let mut out = Vec::new();
    if ctx.egui_wants_keyboard_input() {
        return out;
    }
    let (f5, f7, f8, f10, m) = ctx.input(|i| {
        let k = |key| i.key_pressed(key);
        (k(egui::Key::F5), k(egui::Key::F7), k(egui::Key::F8), k(egui::Key::F10), i.modifiers)
    });
    if f5 {
        out.push(if m.ctrl { UiCommand::OneCycle } else { UiCommand::RunOrPause });
    }
    if f8 && m.shift {
        out.push(UiCommand::Stop);
    }
    if f7 {
        out.push(if m.alt { UiCommand::ReleaseAll } else { UiCommand::Prepared(!m.ctrl) });
    }
    if f10 {
        out.push(if m.shift { UiCommand::NCycles } else { UiCommand::OneCycle });
    }
    // Moves are plain keys on the board or the online diagram: a Ctrl/Alt chord (Ctrl+S
    // saves, Ctrl+A) and the editor's keys are not moves (they moved the game unseen). Each
    // key press is read with the modifiers it was pressed with (the frame's modifiers are
    // those at its end: a Ctrl released within the frame made Ctrl+A a move), and the moves
    // go out in the order they were pressed (they went Up, Right, Down, Left).
    if !editing {
        out.extend(ctx.input(|i| i.events.iter().filter_map(move_of).map(UiCommand::Move).collect::<Vec<_>>()));
    }
    out
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
