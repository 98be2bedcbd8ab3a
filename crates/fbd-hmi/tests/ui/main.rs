//! The HMI under egui_kittest (no display needed): the window is driven by clicks and key
//! presses, the program is stepped scan by scan (the app starts paused), and what the window
//! shows is checked against the reference rules.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fbd_hmi::best::BestStore;
use fbd_hmi::settings::SettingsStore;
use fbd_hmi::source::Origin;
use fbd_hmi::{App, Options};
use fbd2048_game::Wiring;
use ref2048::from_values;

mod debugger;
mod diagram;
mod editor;
mod editor_connectors;
mod editor_keys;
mod editor_negate;
mod editor_ports;
mod files;
mod network;
mod play;
mod tests_panel;

thread_local! {
    /// The running test's scratch directories by name: libtest runs each test on its own
    /// thread, so they are removed, with their files, when the test ends (pass or fail).
    static SCRATCH: std::cell::RefCell<std::collections::HashMap<String, tempfile::TempDir>> =
        Default::default();
}

/// The running test's scratch directory `name` (the same one for the same name, so a second
/// window of one test finds what the first saved).
pub(crate) fn temp_dir(name: &str) -> std::path::PathBuf {
    SCRATCH.with_borrow_mut(|dirs| {
        let d = dirs.entry(name.to_string()).or_insert_with(|| {
            tempfile::Builder::new().prefix(&format!("fbd-hmi-{name}-")).tempdir().expect("temp dir")
        });
        d.path().to_path_buf()
    })
}

/// Steps until the diagram's background layout is done (at most a minute: it takes well under
/// a second for the bodies the tests use).
pub(crate) fn wait_for_layout(h: &mut Harness<'static, App>) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        h.step();
        if h.query_by_label_contains("Laying out").is_none() {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "the layout did not finish within a minute");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

pub(crate) fn harness(w: Wiring, debugger: bool, name: &str) -> Harness<'static, App> {
    harness_dt(w, debugger, name, 0.25)
}

/// A harness whose frames are `dt` seconds apart (1/60 for double clicks: egui counts two
/// clicks within 0.3 s as one double click, and each event takes one frame).
pub(crate) fn harness_dt(w: Wiring, debugger: bool, name: &str, dt: f32) -> Harness<'static, App> {
    window(embedded(w, debugger, name), dt)
}

/// [`harness`] in a window of `size` (without the debugger).
pub(crate) fn harness_sized(w: Wiring, name: &str, size: egui::Vec2) -> Harness<'static, App> {
    let opts = embedded(w, false, name);
    Harness::builder().with_size(size).with_step_dt(0.25).build_eframe(move |cc| App::new(cc, opts))
}

/// The options of a window on the embedded wiring `w`, its files in a scratch directory.
fn embedded(w: Wiring, debugger: bool, name: &str) -> Options {
    let best = BestStore::at(temp_dir(name).join("best.json"));
    let settings = SettingsStore::at(temp_dir(name).join("settings.json"));
    Options {
        origin: Origin::Embedded(w),
        seed: 5,
        start_paused: true,
        best,
        show_debugger: debugger,
        settings,
        replay: None,
        native_dialogs: false,
    }
}

/// A window on the diagram `text`, written to a scratch file `name`/diagram.json, paused,
/// without the debugger or a best score.
pub(crate) fn file_window(name: &str, text: &str) -> Harness<'static, App> {
    file_window_dt(name, text, 0.25)
}

/// A program of `n` BOOL inputs `in0`.. (the first and the last ORed into its one output).
pub(crate) fn many_inputs(n: usize) -> String {
    let inputs: Vec<String> = (0..n).map(|k| format!(r#"{{"name": "in{k}", "type": "BOOL"}}"#)).collect();
    format!(
        r#"{{"fbd": 1, "name": "many", "inputs": [{}],
  "outputs": [{{"name": "any", "type": "BOOL", "from": "o.out"}}],
  "blocks": [{{"id": "o", "type": "OR", "inputs": {{"in1": "in0", "in2": "in{}"}}}}]}}"#,
        inputs.join(", "),
        n - 1
    )
}

/// [`file_window`] with frames `dt` seconds apart (a double click needs them close).
pub(crate) fn file_window_dt(name: &str, text: &str, dt: f32) -> Harness<'static, App> {
    file_window_as(name, "diagram.json", text, dt)
}

/// [`file_window_dt`] with the file named `file` (`plc.xml` is imported as PLCopen XML).
pub(crate) fn file_window_as(name: &str, file: &str, text: &str, dt: f32) -> Harness<'static, App> {
    let path = temp_dir(name).join(file);
    std::fs::write(&path, text).expect("write the diagram");
    let opts = Options {
        origin: Origin::File(path),
        seed: 5,
        start_paused: true,
        best: BestStore::none(),
        show_debugger: false,
        settings: SettingsStore::at(temp_dir(name).join("settings.json")),
        replay: None,
        native_dialogs: false,
    };
    window(opts, dt)
}

/// A 1200×850 window on `opts`, frames `dt` seconds apart.
pub(crate) fn window(opts: Options, dt: f32) -> Harness<'static, App> {
    Harness::builder().with_size(egui::vec2(1200.0, 850.0)).with_step_dt(dt).build_eframe(move |cc| App::new(cc, opts))
}

/// Frames and scans until every queued command was sent and the lockout released.
pub(crate) fn settle(h: &mut Harness<'static, App>) {
    for _ in 0..20_000 {
        h.step();
        if h.state().settled() {
            return;
        }
        h.state_mut().run_scans(1);
    }
    panic!("the program did not settle");
}

pub(crate) fn tiles(app: &App) -> usize {
    app.values().iter().filter(|v| **v != 0).count()
}

pub(crate) fn board(v: [u32; 16]) -> u64 {
    from_values(&v).expect("tiles")
}

pub(crate) fn click_at(h: &mut Harness<'static, App>, at: egui::Pos2, button: egui::PointerButton) {
    h.hover_at(at);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton { pos: at, button, pressed, modifiers: egui::Modifiers::NONE });
    }
    h.step();
}

/// The wheel turned by `dy` points over `at` (positive: zoom in).
pub(crate) fn wheel(h: &mut Harness<'static, App>, at: egui::Pos2, dy: f32) {
    h.hover_at(at);
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, dy),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
}

pub(crate) fn drag(h: &mut Harness<'static, App>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.drag_at(from);
    h.hover_at(from + (to - from) * 0.5);
    h.hover_at(to);
    h.event(egui::Event::PointerButton {
        pos: to,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    h.step();
}
