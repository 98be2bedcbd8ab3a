//! The window's own commands as values: what the menu bar, the hotkeys and the panels ask
//! for. The menu, the keys and the panels only say which command; `App::execute`
//! (`commands.rs`) carries each out, so a key and its menu item run the same code, and what a
//! command does is found in one place.

use std::path::PathBuf;

use eframe::egui;
use fbd2048_game::Wiring;

use crate::debugger::DebuggerAsk;
use crate::diagram::menu::MenuAction;
use crate::source::Origin;

/// A command of the menu bar or the keyboard.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum UiCommand {
    /// File > Open...: the native dialog, or the typed path where there is none.
    OpenDialog,
    /// File > Open path...: the typed-path window.
    OpenPath,
    Open(Origin),
    Reload,
    Record,
    /// Stop recording and save (or save the recording kept unsaved).
    SaveRecording,
    OpenRecording,
    ExportPlcopen,
    /// Debug > Run test table...: a table file run on its own runtime, the results shown.
    RunTests,
    /// Debug > Serve on network...: the Modbus server's window.
    ServeOnNetwork,
    /// The shown body's drawing as SVG.
    ExportDrawing,
    /// File > Print on A4 sheets: the shown drawing as PNG sheets at a legible size.
    PrintSheets,
    /// An embedded wiring, loaded by online change.
    Embedded(Wiring),
    Quit,
    RunOrPause,
    OneCycle,
    NCycles,
    Stop,
    /// Write (false) or force (true) the prepared values.
    Prepared(bool),
    ReleaseAll,
    ResetCold,
    ShowDebugger(bool),
    ShowDiagram(bool),
    Theme(egui::ThemePreference),
    /// A move of the game.
    Move(ref2048::Dir),
    /// What the debugger panel's controls asked for.
    Debugger(DebuggerAsk),
    /// A context-menu action of the online diagram on a signal.
    Signal(String, MenuAction),
    /// A line for the status bar.
    Status(String),
    /// A command of the game (the board's Start and Reset).
    Game(fbd2048_game::Command),
    /// Carry out what the editor asked for in this frame (`EditorState::asks`).
    EditorAsked,
    /// Close the Tests window.
    CloseTests,
    /// Replay test `k` of the open table and stop at scan `scan`.
    ShowTest(usize, u64),
}

/// What the menu bar shows, read from the application once per frame.
pub(crate) struct MenuView {
    pub recording: bool,
    pub unsaved_recording: bool,
    pub recent: Vec<PathBuf>,
    pub paused: bool,
    pub prepared: bool,
    pub step_n: u64,
    pub editing: bool,
    pub debugger_shown: bool,
    pub diagram_shown: bool,
    /// The running program's name and origin.
    pub label: String,
}
