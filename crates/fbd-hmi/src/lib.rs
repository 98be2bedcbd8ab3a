//! fbd-hmi: the window of fbd2048. A play panel for the 2048 program (or the inputs and
//! outputs of any other diagram), diagram loading with online change, and a scan-cycle
//! debugger in the manner of CODESYS online mode. The engine runs on its own thread
//! ([`fbd_engine::realtime::RealtimeRunner`]); the UI repaints when an output changes.

mod app;
/// The best scores (shared with the terminal).
pub use fbd2048_game::best;
mod board;
mod canvas;
mod commands;
mod debugger;
mod diagram;
mod editor;
mod export_job;
mod generic_panel;
mod keys;
mod link;
mod loading;
mod menu;
mod network;
mod path_prompt;
mod paths;
mod play_panel;
mod replay_bar;
pub mod settings;
mod shape;
pub mod source;
mod tests_panel;
mod ui_command;
mod unsaved;
mod window;

pub use app::{App, Options};

/// Opens the window and runs until it is closed.
pub fn run(opts: Options) -> eframe::Result {
    // The window opens at the size it had when it was last closed.
    let size = opts.settings.load().0.window.unwrap_or([1100.0, 760.0]);
    let size = [size[0].clamp(420.0, 4000.0), size[1].clamp(420.0, 3000.0)];
    let native = eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default()
            .with_title("fbd2048: 2048 on a soft-PLC")
            .with_inner_size(size)
            .with_min_inner_size([420.0, 420.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native("fbd2048", native, Box::new(move |cc| Ok(Box::new(App::new(cc, opts)))))
}
