//! The application's public face: what the tests, the screenshot tools and the other panels
//! read (the board, the score, the mode, the task) and do (send a command, set a board, watch,
//! force, start a player), apart from the frame loop in `app.rs`.

use std::time::Duration;

use fbd_engine::Value;
use fbd_engine::runtime::requests::{AddBreakpoint, Force, WriteNow};
use fbd2048_game::Command;
use ref2048::Board;

use crate::app::App;

impl App {
    /// The 16 cell values shown.
    pub fn values(&self) -> [i64; 16] {
        self.view.values
    }

    /// The score shown.
    pub fn score(&self) -> i64 {
        self.view.score
    }

    /// Whether the game-over overlay is up.
    pub fn game_over(&self) -> bool {
        self.view.game_over
    }

    /// Scans run so far.
    pub fn scan_count(&self) -> u64 {
        self.image().scan
    }

    /// How many scan images the window has taken from the scan task: one per frame however
    /// many panels it shows (one more after a load, or a command while paused, in that frame).
    pub fn images_taken(&self) -> u64 {
        self.images_taken.get()
    }

    /// The running program's scan cycle in µs.
    pub fn cycle_us(&self) -> u64 {
        self.image().plan.cycle_us
    }

    /// Whether the debugger panel is open in the current mode (editing, or running).
    pub fn debugger_shown(&self) -> bool {
        if self.editing() { self.debugger_while_editing } else { self.show_debugger }
    }

    /// The current mode's "debugger open".
    pub(crate) fn debugger_shown_mut(&mut self) -> &mut bool {
        if self.editing() { &mut self.debugger_while_editing } else { &mut self.show_debugger }
    }

    /// Whether the editor is what the window shows.
    pub fn editing(&self) -> bool {
        self.dbg.show_diagram && self.editor.on
    }

    /// Whether scanning is paused.
    pub fn is_paused(&self) -> bool {
        self.runner.is_paused()
    }

    /// The scan task's pacing period.
    pub fn task_period(&self) -> Duration {
        self.runner.period()
    }

    /// Queues a command; it is sent when the lockout allows.
    pub fn send(&mut self, c: Command) {
        if self.game.is_some() {
            // A new game makes an autoplayer's "stopped" line old news.
            if matches!(c, Command::Start | Command::Reset) && self.status.starts_with("autoplay") {
                self.status = format!("{} loaded", self.loaded.label());
            }
            self.front.send(c);
        }
    }

    /// The signal paths the enabled breakpoints watch.
    pub fn breakpoint_paths(&self) -> Vec<String> {
        self.image().breakpoint_paths.to_vec()
    }

    /// Whether every queued command has been sent and the lockout has released.
    pub fn settled(&self) -> bool {
        self.front.settled(&self.view)
    }

    /// Puts a board on the field (writes the cell memories, then one idle scan).
    pub fn set_board(&mut self, b: Board) {
        self.note_altered();
        let v = ref2048::to_values(b);
        let values = v.iter().enumerate();
        let values = values.map(|(i, x)| (format!("cell_{}_{}/mem.q", i / 4 + 1, i % 4 + 1), Value::Int(*x as i64)));
        self.runner.call(WriteNow { values: values.collect(), then_step: true });
        self.board.new_game();
        self.refresh();
    }

    /// Watches a signal: its history feeds the trend plot.
    pub fn watch(&mut self, path: &str) -> Result<(), String> {
        self.watch_signal(path)
    }

    /// Forces a signal (the debugger does the same from the tree).
    pub fn force(&mut self, path: &str, v: Value) -> Result<(), String> {
        self.note_altered();
        let r = self.runner.call(Force { path: path.to_string(), value: v }).map_err(|e| e.to_string());
        self.refresh();
        r
    }

    /// Starts the automated player `name` (see `players::NAMES`); `speed` in moves per second,
    /// 0 for as fast as the lockout allows.
    pub fn start_autoplay(&mut self, name: &str, speed: f64) -> bool {
        self.front.start_autoplay(name, speed, self.seed)
    }

    /// Stops the automated player.
    pub fn stop_autoplay(&mut self) {
        self.front.stop_autoplay();
    }

    /// The automated player driving now, if one is.
    pub fn autoplay_player(&self) -> Option<&'static str> {
        self.front.autoplay_player()
    }

    /// Whether an automated player is driving the game.
    pub fn autoplaying(&self) -> bool {
        self.front.autoplaying()
    }

    /// Moves the automated player has sent.
    pub fn autoplay_moves(&self) -> u64 {
        self.front.autoplay_moves
    }

    /// Load errors shown in the error window.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// The status line.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// How many times the window has taken the runtime's lock (a frame is meant never to).
    pub fn runtime_locks(&self) -> u64 {
        self.runner.client_locks()
    }

    /// Sets a breakpoint written as the Breakpoint field takes it (`score=4`, `rises:busy`).
    pub fn add_breakpoint_text(&mut self, text: &str) -> Result<usize, String> {
        let c = fbd_engine::Condition::parse(text)?;
        self.runner.call(AddBreakpoint(c)).map_err(|e| e.to_string())
    }
}
