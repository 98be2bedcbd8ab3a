//! The application and its frame: the composition root of the window. `App` owns the panels
//! and the running program; each frame (`ui`) takes one scan image, lends it with the link to
//! the scan task to every panel (`FrameCtx`), and carries out what the panels asked
//! (`UiCommand`, in `commands.rs`) in one place. Loading and the files in and out are
//! `loading.rs`. `impl App` stands in these three files only (a test in `shape.rs` keeps it
//! so); a panel never imports the application.

use std::sync::Arc;
use std::time::Duration;

use eframe::egui;
use fbd_engine::realtime::RealtimeRunner;
use fbd_engine::runtime::requests::{AddBreakpoint, Force, TakeImage, Watch, WriteNow};
use fbd_engine::{Runtime, ScanImage, ScanPlan, Value};
use fbd2048_game::front::{Front, GameIo, View};
use fbd2048_game::{Command, Wiring};
use ref2048::Board;

use crate::debugger::DebuggerState;
use crate::diagram::DiagramCtx;
use crate::link::{FrameCtx, Link};
use crate::source::{self, Loaded, Origin};
use crate::ui_command::UiCommand;
use crate::window::Window;
use fbd2048_game::best::{Best, BestStore};

/// How the HMI starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// The diagram to run.
    pub origin: Origin,
    /// Runtime seed.
    pub seed: u64,
    /// Start paused (nothing scans until Run or Step): deterministic tests and debugging.
    pub start_paused: bool,
    /// Where the best score is kept.
    pub best: BestStore,
    /// Open the debugger panel at start.
    pub show_debugger: bool,
    /// Where the window's settings (recent files, panels, watches, breakpoints) are kept.
    pub settings: crate::settings::SettingsStore,
    /// A recording to play back at start (its program is loaded instead of `origin`).
    pub replay: Option<std::path::PathBuf>,
    /// Offer the desktop's file dialogs (through its portal). Without them, or when one gives
    /// no file, a window of the HMI's own asks for the path to type.
    pub native_dialogs: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            origin: Origin::Embedded(Wiring::Upd1),
            seed: 0,
            start_paused: false,
            best: BestStore::default_location(),
            show_debugger: false,
            settings: crate::settings::SettingsStore::default_location(),
            replay: None,
            native_dialogs: true,
        }
    }
}

/// The fbd2048 HMI.
pub struct App {
    pub(crate) runner: RealtimeRunner,
    pub(crate) loaded: Loaded,
    pub(crate) game: Option<GameIo>,
    pub(crate) view: View,
    pub(crate) errors: Vec<String>,
    pub(crate) errors_open: bool,
    pub(crate) status: String,
    /// The 2048 board with its controls and overlays.
    pub(crate) board: crate::play_panel::BoardPanel,
    /// The inputs and outputs of a program without a 2048 interface.
    pub(crate) generic: crate::generic_panel::GenericPanel,
    /// The running program's best score (and its content hash, the key of its records).
    pub(crate) best: Best,
    pub(crate) seed: u64,
    pub(crate) dbg: DebuggerState,
    pub(crate) diagram: crate::diagram::DiagramState,
    pub(crate) editor: crate::editor::EditorState,
    /// Recording since the last cold start, and a recording asked for at the next one.
    pub(crate) recording: bool,
    pub(crate) record_next: bool,
    /// A stopped recording that could not be written (kept to save elsewhere).
    pub(crate) unsaved_recording: Option<fbd_engine::Recording>,
    /// A recording being played back (File > Open recording).
    pub(crate) replay: Option<crate::replay_bar::Replay>,
    /// Where the settings are kept, and what they are now.
    pub(crate) settings_store: crate::settings::SettingsStore,
    pub(crate) prefs: crate::settings::Settings,
    /// The plan the runtime runs (to tell a scan image of an earlier plan).
    pub(crate) plan: Option<Arc<ScanPlan>>,
    /// The debugger panel is open while running (the board, the panel, the online diagram).
    pub(crate) show_debugger: bool,
    /// The debugger panel is open while editing: each mode keeps its own, as CODESYS's
    /// perspectives do, so that the editor's canvas gets the width (closed by default: with
    /// the debugger beside it the canvas had ~270 points in the default window).
    pub(crate) debugger_while_editing: bool,
    pub(crate) open_path: String,
    pub(crate) show_open_path: bool,
    /// The Open path window was just opened: its field takes the keyboard (typed keys went to
    /// the game as moves).
    pub(crate) open_path_focus: bool,
    /// Offer the desktop's file dialogs ([`Options::native_dialogs`]).
    pub(crate) native_dialogs: bool,
    /// The typed-path window a file dialog fell back to, while it is open.
    pub(crate) path_prompt: Option<crate::path_prompt::PathPrompt>,
    /// The results of the last test table run, while their window is open.
    pub(crate) tests: Option<crate::tests_panel::TestsPanel>,
    /// The Modbus server (Debug → Serve on network) and its window.
    pub(crate) network: crate::network::NetworkPanel,
    /// What waits for an answer about the editor's unsaved edits.
    pub(crate) discarding: Option<crate::unsaved::Discarding>,
    /// Why saving them from that question failed.
    pub(crate) unsaved_message: String,
    /// The user chose to close the window with unsaved edits dropped.
    pub(crate) quit_now: bool,
    /// A PLCopen export being written on its own thread.
    pub(crate) export: Option<crate::export_job::ExportJob>,
    /// The command queue, the scans-per-command measurement, the automated player.
    pub(crate) front: Front,
    /// The scan image this frame shows, taken once as the frame begins: every panel of one
    /// frame shows one scan (they took one each, up to 27, and a frame could show values of
    /// several scans). `None` between frames, where a read is of the newest.
    pub(crate) frame_image: Option<Arc<ScanImage>>,
    /// How many images were taken from the scan task (a test counts them per frame).
    pub(crate) images_taken: std::cell::Cell<u64>,
}

/// Reverse stepping: a snapshot every 100 scans, at most 64 MB of history.
pub(crate) const HISTORY_EVERY: u64 = 100;
pub(crate) const HISTORY_BYTES: usize = 64 << 20;

/// Internal watches: the lockout lamp, to count scans per command exactly even when frames are
/// sparse.
const BUSY_HISTORY: usize = 16_384;

impl App {
    /// Builds the app (eframe calls this with the creation context).
    pub fn new(cc: &eframe::CreationContext<'_>, opts: Options) -> App {
        App::with_context(&cc.egui_ctx, opts)
    }

    /// Builds the app for an egui context.
    pub fn with_context(ctx: &egui::Context, opts: Options) -> App {
        let mut errors = Vec::new();
        let (loaded, plan) = match source::load(&opts.origin) {
            Ok(l) => l,
            Err(e) => {
                // Said on the terminal too: whoever started the window with a broken file
                // should not have to look for the reason.
                eprintln!("{e}\n{}: not loaded; running the embedded 2048 program instead", opts.origin.label());
                errors.push(format!("{}:\n{e}", opts.origin.label()));
                source::load(&Origin::Embedded(Wiring::Upd1)).expect("the embedded wiring compiles")
            }
        };
        let mut rt = Runtime::with_seed(plan, opts.seed);
        rt.enable_history(HISTORY_EVERY, HISTORY_BYTES);
        let ctx2 = ctx.clone();
        let runner = RealtimeRunner::start_with(rt, Some(Box::new(move || ctx2.request_repaint())), opts.start_paused);
        let mut status = format!("{} loaded", loaded.label());
        let (prefs, warning) = opts.settings.load();
        if let Some(w) = warning {
            status = w;
        }
        match prefs.theme.as_deref() {
            Some("light") => ctx.set_theme(egui::ThemePreference::Light),
            Some("dark") => ctx.set_theme(egui::ThemePreference::Dark),
            _ => {}
        }
        let mut app = App {
            runner,
            loaded,
            game: None,
            view: View::default(),
            errors_open: !errors.is_empty(),
            errors,
            status,
            board: Default::default(),
            generic: Default::default(),
            best: Best::new(opts.best),
            seed: opts.seed,
            dbg: DebuggerState::default(),
            diagram: Default::default(),
            editor: Default::default(),
            plan: None,
            recording: false,
            record_next: false,
            unsaved_recording: None,
            export: None,
            replay: None,
            show_debugger: opts.show_debugger || prefs.debugger,
            debugger_while_editing: prefs.debugger_editing,
            settings_store: opts.settings,
            prefs,
            open_path: String::new(),
            show_open_path: false,
            open_path_focus: false,
            native_dialogs: opts.native_dialogs,
            path_prompt: None,
            tests: None,
            network: Default::default(),
            discarding: None,
            unsaved_message: String::new(),
            quit_now: false,
            front: Front::default(),
            frame_image: None,
            images_taken: Default::default(),
        };
        app.dbg.show_diagram = app.prefs.diagram;
        if let Origin::File(p) = &app.loaded.origin {
            let p = p.clone();
            app.remember_recent(p);
        }
        app.attach();
        app.refresh();
        if let Some(path) = opts.replay
            && let Err(e) = app.open_recording(Some(path))
        {
            app.errors.push(e.clone());
            app.errors_open = true;
            app.status = e;
        }
        app
    }

    /// The running program's content hash (its best score and settings are kept under it).
    pub fn program_key(&self) -> &str {
        self.best.key()
    }

    /// Binds the 2048 interface (if any) after a load and restores the best score into it.
    pub(crate) fn attach(&mut self) {
        // The best score is the running program's own: another wiring has another record.
        let old = self.best.key().to_string();
        let name = self.loaded.project.root().name.clone().unwrap_or_default();
        let default = self.loaded.origin == Origin::Embedded(Wiring::Upd1);
        let (changed, warning) =
            self.best.attach(self.loaded.project.files.iter().map(|f| f.text.as_str()), &name, default);
        if changed {
            // The watches and breakpoints of the program that was running are remembered.
            self.collect_program_settings(&old);
            if let Some(w) = warning {
                self.status = w;
            }
            self.front.game_altered = true; // a game carried over from another program is not this one's
            let key = self.best.key().to_string();
            self.restore_program_settings(&key);
        }
        let best = &self.best;
        let img = self.runner.call(TakeImage);
        self.game = GameIo::find(&img.plan);
        if self.game.is_some() {
            self.runner.call(best.restore_request());
            let _ = self.runner.call(Watch { path: "busy".into(), capacity: BUSY_HISTORY });
        }
        let plan = Arc::clone(&img.plan);
        self.plan = Some(plan.clone());
        self.dbg.rebuild(plan);
        self.diagram.reset();
        self.editor.reset();
        self.front.clear();
    }

    /// The scan image the panels read: during a frame the one the frame began with
    /// ([`App::frame_image`]), else the newest (the scan task publishes it and never waits for
    /// the UI). An image of an earlier plan (a load during the frame, or before the task
    /// published one for the new plan) is replaced by one taken now.
    pub(crate) fn image(&self) -> Arc<ScanImage> {
        let current = |img: &Arc<ScanImage>| self.plan.as_ref().is_none_or(|p| Arc::ptr_eq(p, &img.plan));
        if let Some(img) = self.frame_image.as_ref().filter(|i| current(i)) {
            return Arc::clone(img);
        }
        self.images_taken.set(self.images_taken.get() + 1);
        let img = self.runner.image();
        if current(&img) { img } else { Arc::new(self.runner.call(TakeImage)) }
    }

    /// Takes the image this frame shows (at its start, and again after a command that changed
    /// what the panels read: a load).
    fn begin_frame(&mut self) {
        self.frame_image = None;
        self.frame_image = Some(self.image());
    }

    /// What the panels are lent of the running program with image `img`.
    pub(crate) fn frame_ctx<'a>(&'a self, img: &'a ScanImage) -> FrameCtx<'a> {
        FrameCtx::new(img, &self.runner, self.game.is_some())
    }

    /// The scan task as the debugger shows it this frame.
    fn task_view(&self) -> crate::debugger::TaskView {
        crate::debugger::TaskView {
            paused: self.runner.is_paused(),
            // An internal error, or the watchdog (the program's own fault: a PLC in STOP).
            halted: self.runner.halted().or_else(|| self.image().halt_message().map(|m| format!("watchdog, {m}"))),
            stats: self.runner.stats(),
            scans_per_command: self.game.is_some().then_some((self.front.scans_last, self.front.scans_max)),
            program_tasks: self.loaded.project.root().tasks.iter().map(crate::debugger::task_when).collect(),
        }
    }

    /// Reads what the panels show.
    pub(crate) fn refresh(&mut self) {
        let img = self.image();
        self.view = View::read(self.game.as_ref(), &img);
    }

    pub(crate) fn pump_commands(&mut self) {
        if self.game.is_none() {
            return;
        }
        let p = self.front.pump(&self.runner.handle(), &self.view, self.best.saved());
        if let Some(st) = p.status {
            self.status = st;
        }
        if let Some(c) = p.sent {
            if c == Command::Start {
                self.board.new_game();
            }
            self.refresh();
        }
    }

    /// Marks the game in progress as changed from outside the program (a write, a force, a set
    /// board): it is not recorded as a best.
    pub(crate) fn note_altered(&mut self) {
        self.front.game_altered = true;
    }

    pub(crate) fn save_best(&mut self) {
        // The score of this game, not the program's best memory: an altered game may have
        // raised that.
        if self.game.is_some()
            && let Err(e) = self.best.offer(self.view.score, &self.front)
        {
            self.status = e;
        }
        // A rising record is written at most once a second; whatever is left, when the game
        // rests.
        if !self.front.in_flight()
            && let Err(e) = self.best.flush()
        {
            self.status = e;
        }
    }
}

impl eframe::App for App {
    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.save_settings();
        let _ = self.best.flush();
        // An export under way is finished, not cut off (a few seconds at most).
        self.wait_for_export();
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if let Some(r) = ctx.input(|i| i.viewport().inner_rect) {
            self.prefs.window = Some([r.width(), r.height()]);
        }
        self.hold_close(&ctx);
        self.handle_dropped(&ctx);
        if ctx.input(|i| i.key_pressed(egui::Key::F12)) {
            let shown = self.debugger_shown();
            *self.debugger_shown_mut() = !shown;
        }
        self.begin_frame();
        self.refresh();
        for c in crate::keys::commands_of_keys(&ctx, self.editing()) {
            self.execute(c, &ctx);
        }
        // A fast-forward or Step N under way: its next slice (with the debugger shown or not).
        if self.dbg.forward.is_some() {
            self.forward_slice();
            ctx.request_repaint();
        }
        self.pump_commands();
        self.save_best();
        self.poll_export(&ctx);

        let view = self.menu_view();
        let mut asks: Vec<UiCommand> = Vec::new();
        asks.extend(egui::Panel::top("menu").show(ui, |ui| crate::menu::menu_bar(ui, &view)).inner);
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        // Every panel of this frame is lent the image the frame began with.
        let img = self.image();
        if let Some(replay) = self.replay.as_mut() {
            let (paused, link) = (self.runner.is_paused(), Link::new(&self.runner));
            let asked = egui::Panel::bottom("replay").show(ui, |ui| replay.bar_ui(ui, img.scan, paused, link)).inner;
            self.replay_asked(asked, &ctx);
        }
        if self.debugger_shown() {
            let task = self.task_view();
            let cx = FrameCtx::new(&img, &self.runner, self.game.is_some());
            let dbg = &mut self.dbg;
            let shown = egui::Panel::right("debugger")
                .resizable(true)
                .default_size(460.0)
                // Its rows wrap: the panel never takes the board's width.
                .size_range(320.0..=(ui.available_width() * 0.6).max(320.0))
                .show(ui, |ui| dbg.window(ui, cx, &task));
            asks.extend(shown.inner.into_iter().map(UiCommand::Debugger));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                let board = if self.game.is_some() { "Board" } else { "Panel" };
                ui.selectable_value(&mut self.dbg.show_diagram, false, board);
                ui.selectable_value(&mut self.dbg.show_diagram, true, "Diagram");
                if self.dbg.show_diagram {
                    ui.separator();
                    ui.selectable_value(&mut self.editor.on, false, "Online");
                    ui.selectable_value(&mut self.editor.on, true, "Edit");
                }
            });
            ui.separator();
            if self.editing() {
                self.editor.ensure_workspace(&self.loaded, &img.plan);
                self.editor.ui(ui);
                asks.push(UiCommand::EditorAsked);
            } else if self.dbg.show_diagram {
                let acts = self.diagram.ui(ui, &DiagramCtx { img: &img, project: &self.loaded.project });
                asks.extend(acts.into_iter().map(|(path, a)| UiCommand::Signal(path, a)));
            } else if self.game.is_some() {
                let game = crate::play_panel::Game {
                    view: &self.view,
                    front: &mut self.front,
                    best: self.best.saved(),
                    seed: self.seed,
                };
                asks.extend(self.board.ui(ui, game).map(UiCommand::Game));
            } else {
                let description = self.loaded.project.root().description.as_deref();
                asks.extend(self.generic.ui(ui, &img, description, Link::new(&self.runner)).map(UiCommand::Status));
            }
        });
        // What the panels asked is carried out before the windows over them are drawn: a
        // question it raises (unsaved edits, a path to type) shows in this frame.
        for c in asks {
            self.execute(c, &ctx);
        }
        self.error_window(&ctx);
        self.open_path_window(&ctx);
        self.path_prompt_window(&ctx);
        // A command above may have loaded another program: the image of this one.
        let img = self.image();
        let cx = FrameCtx::new(&img, &self.runner, self.game.is_some());
        let windows: [&mut dyn Window; 2] = [&mut self.tests, &mut self.network];
        let asked: Vec<UiCommand> = windows.into_iter().filter_map(|w| w.show(&ctx, cx)).collect();
        for c in asked {
            self.execute(c, &ctx);
        }
        self.unsaved_modal(&ctx);
        if let Some(every) = self.poll_interval() {
            ctx.request_repaint_after(every);
        }
        // A command of this frame (a step, a seek, a write while paused) shows in the next one;
        // what the window's readers ask for (the board's values, the score) follows it now.
        if let Some(shown) = self.frame_image.take() {
            let newest = self.runner.image();
            if self.runner.is_paused() && (newest.scan != shown.scan || !Arc::ptr_eq(&newest.plan, &shown.plan)) {
                self.refresh();
                ctx.request_repaint();
            }
        }
    }
}

impl App {
    /// How often the window redraws without being asked (the scan thread asks on output
    /// changes): while something is in flight or live values are on screen, 30 times a
    /// second; the board's scan counter, 4 times; the editor, with nothing live on screen,
    /// never (it polled at 30 frames a second: a whole core on a machine without a GPU).
    pub fn poll_interval(&self) -> Option<Duration> {
        let running = !self.runner.is_paused();
        let live_diagram = self.dbg.show_diagram && !self.editing();
        if !self.front.settled(&self.view) || self.front.autoplaying() {
            // A command in flight is watched closely; an autoplayer at a set speed needs frames
            // to time its moves, even when nothing on screen changes.
            Some(Duration::from_millis(33))
        } else if running && (self.debugger_shown() || live_diagram || self.replay.is_some()) {
            // Live values at 10 per second, as an IDE's online monitoring refreshes them: at 30
            // the debugger alone took 60 % of a core drawn in software.
            Some(Duration::from_millis(100))
        } else if running && !self.editing() {
            // The scan counter in the header keeps counting while idle, at a low rate.
            Some(Duration::from_millis(250))
        } else {
            None
        }
    }
}

impl App {
    /// The debugger panel.
    pub fn debugger(&self) -> &DebuggerState {
        &self.dbg
    }

    /// The debugger panel, to select or prepare signals as its tree does.
    pub fn debugger_mut(&mut self) -> &mut DebuggerState {
        &mut self.dbg
    }

    /// The online diagram panel.
    pub fn diagram(&self) -> &crate::diagram::DiagramState {
        &self.diagram
    }

    /// The online diagram panel lent the newest scan image and the loaded program, as a frame
    /// lends them.
    pub fn diagram_mut(&mut self) -> crate::diagram::Lent<'_> {
        let img = self.image();
        crate::diagram::Lent { panel: &mut self.diagram, img, project: &self.loaded.project }
    }

    /// The editor panel.
    pub fn editor(&self) -> &crate::editor::EditorState {
        &self.editor
    }

    /// The editor panel, its workspace made from the running program if it had none.
    pub fn editor_mut(&mut self) -> &mut crate::editor::EditorState {
        let img = self.image();
        self.editor.ensure_workspace(&self.loaded, &img.plan);
        &mut self.editor
    }

    /// The Serve on network panel.
    pub fn network(&self) -> &crate::network::NetworkPanel {
        &self.network
    }

    /// Starts the Modbus server on `addr` for the program running now; what it said.
    pub fn serve_modbus(&mut self, addr: &str, allow_write: bool) -> Result<String, String> {
        let img = self.image();
        let cx = FrameCtx::new(&img, &self.runner, self.game.is_some());
        self.network.serve_modbus(addr, allow_write, cx)
    }

    /// Starts the browser HMI on `addr` beside the Modbus server.
    pub fn serve_web(&mut self, addr: &str) -> Result<String, String> {
        let img = self.image();
        let cx = FrameCtx::new(&img, &self.runner, self.game.is_some());
        self.network.serve_web(addr, cx)
    }

    /// Stops the Modbus server and the browser HMI.
    pub fn stop_modbus(&mut self) {
        self.network.stop();
    }

    /// The watched history as CSV.
    pub fn trends_csv(&self) -> String {
        let img = self.image();
        self.dbg.trends.csv(self.frame_ctx(&img))
    }

    /// Whether a fast-forward or Step N is under way.
    pub fn fast_forwarding(&self) -> bool {
        self.dbg.fast_forwarding()
    }

    /// How many files the editor changed and did not save.
    pub fn unsaved_edits(&self) -> usize {
        self.editor.ws.as_ref().map_or(0, |w| w.dirty().len())
    }

    /// Whether the window asks what to do with unsaved edits.
    pub fn asking_about_unsaved(&self) -> bool {
        self.discarding.is_some()
    }

    /// Whether a recording is under way or ended and not saved.
    pub fn unsaved_recording(&self) -> bool {
        self.recording || self.unsaved_recording.is_some()
    }

    /// Whether an export is being written.
    pub fn exporting(&self) -> bool {
        self.export.is_some()
    }

    /// Where a seek under way goes, if one is.
    pub fn seek_target(&self) -> Option<u64> {
        self.replay.as_ref()?.seeking.as_ref().map(|s| s.target)
    }

    /// The replay's status: the scan reached, the first differing scan (while paused).
    pub fn replay_status(&self) -> Option<fbd_engine::runtime::PlaybackStatus> {
        self.replay.as_ref()?;
        self.runner.call(fbd_engine::runtime::requests::Playback)
    }

    // The public face: what tests, the screenshot tools and the panels read and do.
    /// The value of signal `path` (an input, an output, a variable, `block.pin`) in the newest
    /// scan image.
    pub fn read(&self, path: &str) -> Option<Value> {
        let img = self.image();
        img.plan.signal_id(path).map(|i| img.read_signal(i))
    }

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
