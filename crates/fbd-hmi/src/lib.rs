//! fbd-hmi: the window of fbd2048. A play panel for the 2048 program (or the inputs and
//! outputs of any other diagram), diagram loading with online change, and a scan-cycle
//! debugger in the manner of CODESYS online mode. The engine runs on its own thread
//! ([`fbd_engine::realtime::RealtimeRunner`]); the UI repaints when an output changes.
//!
//! # Code map
//!
//! The shell (the composition root, the only files with `impl App`):
//! - `app.rs`: `App`, the frame (`ui`: one scan image per frame lent to every panel), the
//!   public face tests and tools read and drive, `poll_interval`.
//! - `commands.rs`: `App::execute`, where every `UiCommand` is carried out: the online
//!   commands (run, pause, cycles forward and back, write, force, reset cold), the debugger's
//!   and the online diagram's asks, the editor's Apply, unsaved work asked about, typed paths.
//! - `loading.rs`: open and cold start, online change, the status line, error windows, drag and
//!   drop, recordings and their playback, settings, the PLCopen export, test tables, the
//!   drawing's export.
//!
//! What the shell lends and what comes back: `link.rs` (`Link`, requests only; `FrameCtx`),
//! `ui_command.rs` (`UiCommand`, `MenuView`), `window.rs` (`Window`, the windows over the
//! panels), `menu.rs` (the menu bar, a function of a `MenuView`), `keys.rs` (the hotkeys).
//!
//! The panels, each a struct owning its state, its window its own method:
//! - `play_panel.rs` and `board.rs` (the 2048 board, overlays), `generic_panel.rs` (any other
//!   program's ports: a scrolled list laid out only in view).
//! - `debugger/`: the online view (`mod.rs`: controls, statistics, the selected signal),
//!   `tree.rs` (the signal tree and its index of the plan), `values.rs` (prepared values,
//!   forces), `trends.rs` (watches, their plot, CSV), `slices.rs` (long runs a slice per frame,
//!   about 30 ms, stoppable: a seek, Fast-forward until, Step N), `hints.rs` (the empty fields'
//!   examples).
//! - `diagram/`: the online diagram (`mod.rs`: what it shows, laid-out bodies, signal ids,
//!   net paths), `view.rs` (the FBD drawing: `fbd-layout` geometry with live values, only what
//!   is in view), `ladder.rs` (a ladder body: rails, rungs, contacts and coils lit by the power
//!   flow, block values in badges, a contact's or coil's variable written or forced), `menu.rs` (a signal's context menu), `sheets.rs` (a large drawing sheet by
//!   sheet), `layout_job.rs` (a body of 2,000 blocks or more laid out on its own thread),
//!   `export.rs` (the drawing as SVG, PNG or A4 sheets).
//! - `editor/`: the Diagram tab's Edit mode (`mod.rs`: the workspace, header, palette,
//!   Save and Apply asked through `EditorAsks`), `canvas.rs` (pointer input, `HitTest`,
//!   drawing), `props.rs`, `ports.rs`, `keys.rs`, `clipboard.rs`, `connectors.rs`, `ladder.rs`
//!   (a ladder body's rungs: a new rung, contacts in series or parallel, coils, modifiers,
//!   delete, on the clicked element).
//! - `replay_bar.rs` (the timeline of a recording played back), `tests_panel.rs` (the Tests
//!   window), `network.rs` (Serve on network), `path_prompt.rs` (the typed-path window every
//!   file dialog falls back to), `unsaved.rs` (the question before unsaved work is dropped).
//!
//! Shared: `canvas.rs` (zoom around the pointer, a kept fit, `Pen`: where a body stands on
//! screen and in what ink), `export_job.rs` (the PLCopen export's thread), `settings.rs`,
//! `source.rs` (embedded or file diagrams, PLCopen XML imported on the way in), `paths.rs`.

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
