//! The play panel: the 2048 board with its controls, the Game over / You win overlays, and the
//! generic panel of inputs and outputs for any other program.

use eframe::egui::{self, Color32, RichText};
use fbd2048_game::Command;

use fbd2048_game::front::{Front, View};

/// A round lamp, painted (the default fonts have no bullet glyph).
pub(crate) fn lamp(ui: &mut egui::Ui, color: Color32) -> egui::Response {
    let (rect, resp) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), 6.0, color);
    resp
}

/// The 2048 board's panel. It owns whether the player has seen the win; the game (its view,
/// its command queue and automated player) is the front end's, which it is lent each frame.
#[derive(Default)]
pub(crate) struct BoardPanel {
    /// "You win!" was acknowledged with Keep playing (until the next game).
    win_ack: bool,
}

/// What the board panel lends from the application for one frame.
pub(crate) struct Game<'a> {
    pub view: &'a View,
    pub front: &'a mut Front,
    /// The record, shown as Best.
    pub best: i64,
    /// The seed an automated player starts from.
    pub seed: u64,
}

impl BoardPanel {
    /// A new game: a win is news again.
    pub(crate) fn new_game(&mut self) {
        self.win_ack = false;
    }

    /// Draws the board and its controls; returns the game command a button gave (Start, Reset,
    /// New game), for the application to send as a key's.
    pub(crate) fn ui(&mut self, ui: &mut egui::Ui, game: Game<'_>) -> Option<Command> {
        let Game { view, front, best, seed } = game;
        let mut clicked = None;
        // Both rows wrap: a row wider than the panel would widen it, and the board (sized to
        // the panel) would then be drawn under the debugger.
        ui.horizontal_wrapped(|ui| {
            if ui.button("Start").clicked() {
                clicked = Some(Command::Start);
            }
            if ui.button("Reset").clicked() {
                clicked = Some(Command::Reset);
            }
            ui.separator();
            ui.label(RichText::new(format!("Score {}", view.score)).strong());
            ui.label(format!("Best {best}"));
            if front.game_altered && view.score > 0 {
                ui.label(RichText::new("(not recorded)").weak()).on_hover_text(
                    "this game was changed by a write, a force or a set board, or began under another program: its score does not count as a best",
                );
            }
            ui.separator();
            let (color, text) = if view.busy {
                (Color32::from_rgb(0xe0, 0x90, 0x20), "busy")
            } else {
                (Color32::DARK_GREEN, "ready")
            };
            lamp(ui, color).on_hover_text("lockout lamp: commands are refused while busy");
            ui.label(text);
            ui.separator();
            ui.label(format!("scan {}  ({} ms)", view.scan, view.clock_ms));
        });
        ui.add_space(6.0);
        ui.horizontal_wrapped(|ui| {
            ui.label("Autoplay");
            egui::ComboBox::from_label("player").selected_text(front.autoplay_name.clone()).show_ui(ui, |ui| {
                for n in players::NAMES {
                    ui.selectable_value(&mut front.autoplay_name, n.to_string(), n);
                }
            });
            // Another player chosen during a run takes over (the old one went on playing).
            front.follow_selected_player(seed);
            let mut max = front.autoplay_speed <= 0.0;
            if ui.checkbox(&mut max, "max speed").changed() {
                front.autoplay_speed = if max { 0.0 } else { 10.0 };
            }
            // The slider with its value and unit is one piece the wrapping cannot split or move:
            // where it would not fit, it starts the next line (it was drawn past the panel, over
            // the debugger, in a narrow window).
            if ui.available_size_before_wrap().x < ui.spacing().slider_width + 110.0 {
                ui.end_row();
            }
            // Always there (greyed at max speed), so the Play button never moves under the mouse.
            let mut shown = if max { 200.0 } else { front.autoplay_speed };
            ui.add_enabled(!max, egui::Slider::new(&mut shown, 1.0..=200.0).logarithmic(true).text("moves/s"));
            if !max {
                front.autoplay_speed = shown;
            }
            if front.autoplaying() {
                if ui.button("Stop").clicked() {
                    front.stop_autoplay();
                }
                ui.label(format!("{} moves", front.autoplay_moves));
            } else if ui.button("Play").clicked() {
                let (n, sp) = (front.autoplay_name.clone(), front.autoplay_speed);
                front.start_autoplay(&n, sp, seed);
            }
        });
        // The hint above the board: below it, overlays covered it and the status bar hid it.
        ui.label(RichText::new("Arrow keys or WASD move; Start places two tiles.").weak());
        let field = crate::board::board_ui(ui, &view.values, &view.forced);
        if view.game_over {
            if overlay(ui, field, "Game over", &format!("Final score {}", view.score), "New game") {
                clicked = Some(Command::Start);
            }
        } else if view.win && !self.win_ack {
            self.win_ack = overlay(ui, field, "You win!", &format!("Score {}", view.score), "Keep playing");
        }
        clicked
    }
}

/// An overlay over the board with a title, a line and a button; whether the button was clicked.
fn overlay(ui: &mut egui::Ui, field: egui::Rect, title: &str, line: &str, button: &str) -> bool {
    let mut clicked = false;
    ui.painter().rect_filled(field, 8.0, Color32::from_rgba_unmultiplied(238, 228, 218, 190));
    let inner = egui::Rect::from_center_size(field.center(), egui::vec2(field.width() * 0.8, field.height() * 0.45));
    ui.scope_builder(egui::UiBuilder::new().max_rect(inner), |ui| {
        ui.vertical_centered(|ui| {
            ui.label(
                RichText::new(title)
                    .size((field.width() / 9.0).max(18.0))
                    .strong()
                    .color(Color32::from_rgb(0x77, 0x6e, 0x65)),
            );
            ui.label(RichText::new(line).size(18.0));
            clicked = ui.button(RichText::new(button).size(18.0)).clicked();
        });
    });
    clicked
}
