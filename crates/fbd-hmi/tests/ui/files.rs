//! Loading, online change, settings that persist, PLCopen XML, recordings.

use egui_kittest::kittest::Queryable;
use fbd_engine::Value;
use fbd_hmi::Options;
use fbd_hmi::best::BestStore;
use fbd_hmi::settings::SettingsStore;
use fbd_hmi::source::Origin;
use fbd2048_game::Wiring;

use crate::*;

#[test]
fn a_broken_diagram_shows_its_error_and_the_game_goes_on() {
    let mut h = harness(Wiring::Upd1, false, "broken");
    h.get_by_label("Start").click();
    settle(&mut h);
    let before = h.state().values();
    let bad = temp_dir("broken").join("broken.json");
    std::fs::write(
        &bad,
        "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"TON\", \"inputs\": {\"in\": true}}\n]}",
    )
    .expect("write");
    h.state_mut().open(Origin::File(bad.clone()));
    h.step();
    h.step();
    h.step();
    let errs = h.state().errors().join("\n");
    assert!(errs.contains(&format!("{}:2:", bad.display())) && errs.contains("required input `pt`"), "{errs}");
    assert!(h.query_by_label_contains("required input `pt` of TON").is_some(), "the error window shows it");
    assert_eq!(h.state().values(), before, "the running program was kept");
    h.key_press(egui::Key::ArrowUp);
    h.key_press(egui::Key::ArrowLeft);
    settle(&mut h);
    assert!(h.state().scan_count() > 0);
    assert!(tiles(h.state()) >= 2, "still playing");
}

#[test]
fn switching_wiring_keeps_the_board_by_online_change() {
    let mut h = harness(Wiring::Upd1, false, "switch");
    h.get_by_label("Start").click();
    settle(&mut h);
    let before = h.state().values();
    h.state_mut().online_change(Origin::Embedded(Wiring::Original));
    h.step();
    assert_eq!(h.state().values(), before, "the cells' memories were kept: {}", h.state().status());
    assert!(h.state().status().contains("online change"));
}

#[test]
fn an_online_change_moves_the_task_to_the_new_cycle() {
    // Once the task kept scanning every 5 ms while each scan advanced the clock 50 ms.
    let dir = temp_dir("cycle");
    let text = fbd2048_game::Wiring::Upd1.text().replace("\"cycle_ms\": 5", "\"cycle_ms\": 50");
    assert!(text.contains("\"cycle_ms\": 50"), "the embedded program states its cycle");
    let path = dir.join("2048-50ms.json");
    std::fs::write(&path, text).expect("write");
    std::fs::create_dir_all(dir.join("lib")).expect("lib dir");
    std::fs::write(dir.join("lib/2048-macros.json"), fbd2048_game::LIBRARY).expect("write lib");
    let mut h = harness(Wiring::Upd1, false, "cycle");
    h.step();
    h.state_mut().online_change(Origin::File(path));
    h.step();
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
    assert_eq!(h.state().task_period(), std::time::Duration::from_millis(50));
    h.state_mut().online_change(Origin::Embedded(Wiring::Upd1));
    h.step();
    assert_eq!(h.state().task_period(), std::time::Duration::from_millis(5));
}

#[test]
fn a_good_load_clears_the_errors_of_an_earlier_failed_one() {
    let dir = temp_dir("stale");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"fbd\": 1, \"blocks\": [{\"id\": \"n\", \"type\": \"NOPE\"}]}").expect("write");
    let mut h = harness(Wiring::Upd1, false, "stale");
    h.step();
    h.state_mut().open(Origin::File(bad));
    h.step();
    assert!(!h.state().errors().is_empty(), "the failed load is reported");
    h.state_mut().open(Origin::Embedded(Wiring::Original));
    h.step();
    assert!(h.state().errors().is_empty(), "still showing: {:?}", h.state().errors());
}

/// Watches, breakpoints, the panels and recent files are remembered between runs; watches and
/// breakpoints per program.
#[test]
fn watches_breakpoints_and_panels_persist_between_runs() {
    let name = "persist";
    let mut h = harness(Wiring::Upd1, true, name);
    h.step();
    h.state_mut().watch("score").expect("watch");
    h.get_by_label("Breakpoint").click();
    h.step();
    h.get_by_label("Breakpoint").type_text("rises:busy");
    h.step();
    h.get_by_label("Add").click();
    h.step();
    h.state_mut().save_settings();
    drop(h);
    // A new window on the same program: the watch, the breakpoint and the debugger are back.
    let settings = SettingsStore::at(temp_dir(name).join("settings.json"));
    let opts = Options {
        origin: Origin::Embedded(Wiring::Upd1),
        seed: 5,
        start_paused: true,
        best: BestStore::none(),
        show_debugger: false,
        settings: settings.clone(),
        replay: None,
        native_dialogs: false,
    };
    let mut h = window(opts, 0.25);
    h.step();
    h.step();
    assert_eq!(h.state().breakpoint_paths(), vec!["busy".to_string()]);
    assert!(h.query_by_label("rises:busy").is_some(), "the debugger is open again with the breakpoint listed");
    assert!(h.query_by_label("score").is_some(), "the watch is back");
    // Switching program remembers this one's under its own key.
    h.state_mut().online_change(Origin::Embedded(Wiring::SmartSpawn));
    h.step();
    h.state_mut().save_settings();
    let (saved, _) = settings.load();
    assert!(saved.debugger);
    assert!(!saved.programs.is_empty(), "{saved:?}");
    let upd1 =
        saved.programs.values().find(|p| p.watches.contains(&"score".to_string())).expect("the first program's record");
    assert_eq!(upd1.breakpoints, vec![("rises:busy".to_string(), true)]);
}

/// A PLCopen XML file opens like a diagram (imported on the way in) and runs.
#[test]
fn a_plcopen_xml_file_opens_and_runs() {
    let mut h = harness(Wiring::Upd1, false, "plcopen");
    h.step();
    let xml = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fbd-plcopen/tests/data/blink.xml");
    h.state_mut().open(Origin::File(xml));
    h.step();
    assert!(h.query_by_label_contains("blink.xml loaded").is_some(), "the status says so");
    h.state_mut().run_scans(40);
    h.step();
    assert!(h.query_by_label("count").is_some(), "the imported program's outputs are on the panel");
    assert_eq!(h.state().scan_count(), 40);
    // File → Export PLCopen XML writes the running program; it imports back.
    let out = temp_dir("plcopen").join("out.xml");
    // It is written on its own thread (seconds for a large program): the window says so, and a
    // second export waits for the first.
    h.state_mut().export_plcopen(Some(out.clone()));
    assert!(
        h.state().exporting() && h.state().status().starts_with("exporting PLCopen XML to"),
        "{}",
        h.state().status()
    );
    h.state_mut().export_plcopen(Some(temp_dir("plcopen").join("second.xml")));
    assert!(h.state().status().contains("is still being written"), "{}", h.state().status());
    assert!(h.state_mut().wait_for_export() && !h.state().exporting());
    assert!(h.state().status().starts_with("exported as PLCopen XML to"), "{}", h.state().status());
    assert!(!temp_dir("plcopen").join("second.xml").exists(), "the second export was refused");
    let text = std::fs::read_to_string(&out).expect("exported");
    let back = fbd_plcopen::import(&out, &text).expect("imports back");
    assert_eq!(back.doc.cycle_ms, Some(20.0));
}

/// File → Record restarts the program and records it; the recording replays bit for bit.
#[test]
fn a_game_recorded_in_the_window_replays_bit_for_bit() {
    let mut h = harness(Wiring::Upd1, false, "record");
    h.step();
    h.state_mut().start_recording();
    h.step();
    h.get_by_label("Start").click();
    settle(&mut h);
    let keys = [egui::Key::ArrowLeft, egui::Key::ArrowUp, egui::Key::ArrowRight, egui::Key::ArrowDown];
    for k in 0..30 {
        h.key_press(keys[k % 4]);
        settle(&mut h);
    }
    h.state_mut().run_scans(20);
    let path = temp_dir("record").join("game.json");
    // A write that fails keeps the recording, to be saved elsewhere: nothing is lost.
    let e = h.state_mut().stop_recording(Some(temp_dir("record"))).expect_err("a directory is in the way");
    assert!(e.contains("cannot write") && e.contains("the recording is kept"), "{e}");
    h.state_mut().stop_recording(Some(path.clone())).expect("saved");
    assert!(h.state_mut().stop_recording(Some(path.clone())).is_err(), "saved once, then nothing is left");
    let text = std::fs::read_to_string(&path).expect("written");
    let rec = fbd_engine::Recording::from_json(&text).expect("a recording");
    assert!(rec.scans >= 100 && !rec.hashes.is_empty(), "{} scans", rec.scans);
    let mut rt = fbd_engine::Runtime::with_seed(Wiring::Upd1.compile().expect("compiles"), 5);
    assert_eq!(rt.replay(&rec, true).expect("replays"), None, "every state hash matches");
    assert_eq!(rt.output("score"), Some(Value::Int(h.state().score())), "the same game");
    let (end_values, end_score) = (h.state().values(), h.state().score());

    // File > Open recording plays it back in the window, with a timeline to scrub.
    h.state_mut().open_recording(Some(path.clone())).expect("opens");
    h.state_mut().pause();
    h.step();
    h.step(); // the bar takes its height in the first frame
    h.get_by_label("|<").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains(&format!("scan 0 / {}", rec.scans)).is_some(), "the replay bar");
    h.state_mut().run_scans(rec.scans);
    h.step();
    assert_eq!((h.state().values(), h.state().score()), (end_values, end_score), "the recorded game");
    let st = h.state().replay_status().expect("replaying");
    assert_eq!((st.at, st.divergence), (rec.scans, None), "every hash matched on the way");
    // Back to the start, then a click in the middle of the timeline.
    h.get_by_label("|<").click();
    h.step();
    assert_eq!(h.state().scan_count(), 0);
    let bar = h.get_by_label_contains("click or drag to go to a scan").rect();
    crate::click_at(&mut h, bar.center(), egui::PointerButton::Primary);
    let mid = h.state().scan_count();
    assert!(mid.abs_diff(rec.scans / 2) <= 1 + rec.scans / 100, "{mid} of {}", rec.scans);
    let mut fresh = fbd_engine::Runtime::with_seed(Wiring::Upd1.compile().expect("compiles"), 5);
    let mut first = rec.clone();
    first.scans = mid;
    first.events.retain(|e| e.scan < mid);
    first.hashes.retain(|h| h.0 <= mid);
    fresh.replay(&first, false).expect("replays");
    let io = fbd2048_game::front::GameIo::find(fresh.plan());
    let view = fbd2048_game::front::View::read(io.as_ref(), &fresh.image());
    assert_eq!(h.state().values(), view.values, "the board at that scan, as a fresh replay has it");
    h.get_by_label(">|").click();
    h.step();
    assert_eq!((h.state().scan_count(), h.state().score()), (rec.scans, end_score));
    h.get_by_label("Go live").click();
    h.step();
    assert!(h.state().replay_status().is_none(), "live again");
}

/// A seek far into a long recording runs a slice of its scans per frame: the window answers
/// meanwhile, says how far it got, and stops where it is when asked (a seek used to run every
/// scan before the next frame: an hour with the window frozen for the longest legal recording).
#[test]
fn a_far_seek_goes_a_slice_per_frame_and_stops_where_asked() {
    use fbd_engine::load::{FsProvider, load};
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json"));
    let project = load(&FsProvider, path).expect("loads");
    let mut rt = fbd_engine::Runtime::with_seed(
        fbd_engine::compile_project(&project, &Default::default()).expect("compiles"),
        5,
    );
    rt.start_recording(1000);
    rt.pulse_input("start", Value::Bool(true)).expect("pulse");
    const SCANS: u64 = 300_000;
    rt.step_n(SCANS);
    let rec = rt.stop_recording(fbd_engine::runtime::ProgramId::of(&project)).expect("recording");
    let file = temp_dir("far-seek").join("long.json");
    std::fs::write(&file, rec.to_json()).expect("write the recording");

    let mut h = harness(Wiring::Upd1, false, "far-seek");
    h.state_mut().open_recording(Some(file)).expect("opens");
    h.state_mut().pause();
    h.step();
    h.step();
    h.get_by_label(">|").click();
    h.step();
    let first = h.state().scan_count();
    assert!(first > 0 && first < SCANS, "one slice in the first frame, not the whole seek: at {first}");
    assert_eq!(h.state().seek_target(), Some(SCANS));
    h.step();
    let second = h.state().scan_count();
    assert!(second > first && second < SCANS, "the next slice in the next frame: at {second}");
    assert!(h.query_by_label_contains(&format!("going to scan {SCANS}")).is_some(), "the window says where it goes");
    // Stopped where it is: no further scans.
    h.get_by_label("Stop here").click();
    h.step();
    h.step();
    let stopped = h.state().scan_count();
    assert!(stopped < SCANS);
    for _ in 0..3 {
        h.step();
    }
    assert_eq!((h.state().scan_count(), h.state().seek_target()), (stopped, None));
    assert!(h.query_by_label_contains("going to scan").is_none());
    // Again, to the end: frame after frame until it arrives, every recorded hash matching.
    h.get_by_label(">|").click();
    h.step();
    let mut frames = 1;
    while h.state().seek_target().is_some() {
        h.step();
        frames += 1;
        assert!(frames < 100_000, "the seek never arrived (at {})", h.state().scan_count());
    }
    let st = h.state().replay_status().expect("replaying");
    assert_eq!((st.at, st.divergence, st.problem), (SCANS, None, None));
    assert!(h.state().scan_count() == SCANS && frames >= 1);
    assert_eq!(h.state().values().len(), 16);
}

/// Frame time of the online diagram on a 100,000-block body (timing belongs here, not in a
/// pass/fail test): `cargo test --release -p fbd-hmi --test ui large_diagram -- --ignored
/// --nocapture`. The view draws only what is in it and reads values as it draws them.
#[test]
#[ignore]
fn large_diagram_frame_time() {
    let mut h = crate::file_window("large", &fbd_engine::synth::diagram(100_000, 3));
    h.step();
    h.get_by_label("Diagram").click();
    let t = std::time::Instant::now();
    crate::wait_for_layout(&mut h);
    let open = t.elapsed();
    let frame = |h: &mut egui_kittest::Harness<'static, fbd_hmi::App>| {
        let t = std::time::Instant::now();
        for _ in 0..5 {
            h.step();
        }
        t.elapsed() / 5
    };
    let fitted = frame(&mut h);
    h.get_by_label("Find").click();
    h.get_by_label("Find").type_text("b50000");
    h.key_press(egui::Key::Enter);
    h.step();
    let found = frame(&mut h);
    eprintln!("100k-block body: open (layout) {open:?}, a frame fitted {fitted:?}, at a block {found:?}");
}

/// A large body is laid out on its own thread: the window answers meanwhile and says what it is
/// doing, then shows the drawing (it froze for the whole layout: ~3 s at 100,000 blocks).
#[test]
fn a_large_body_is_laid_out_while_the_window_answers() {
    let mut h = crate::file_window("layout-job", &fbd_engine::synth::diagram(3_000, 3));
    h.step();
    h.get_by_label("Diagram").click();
    h.step();
    assert!(h.query_by_label_contains("Laying out 3000 blocks").is_some(), "the frame after the click says so");
    crate::wait_for_layout(&mut h);
    assert!(h.state_mut().diagram_mut().block_pos("b2999").is_some(), "then the drawing is there");
    assert!(h.query_by_label("Fit").is_some(), "with its header");
}

/// File → Open path..., `text` typed into its field, Enter.
fn open_typed_path(h: &mut egui_kittest::Harness<'static, fbd_hmi::App>, text: &str) {
    h.get_by_label("File").click();
    h.step();
    h.step();
    h.get_by_label("Open path...").click();
    h.step();
    h.step();
    h.event(egui::Event::Text(text.into()));
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
}

/// File → Open path... gives its field the keyboard: what is typed is the path (it went to the
/// game, WASD as moves), and Enter opens it.
#[test]
fn open_path_takes_the_keyboard_and_enter_opens_the_path() {
    let mut h = harness(Wiring::Upd1, false, "open-path");
    h.step();
    open_typed_path(&mut h, "no_such_dir/wasd.json");
    assert!(
        h.query_all_by_label_contains("no_such_dir/wasd.json").count() > 0,
        "the typed path was opened (and refused)"
    );
    assert_eq!(tiles(h.state()), 0, "no key reached the game");
    // Opened again, the field shows the last path selected: what is typed replaces it (it was
    // appended after the cursor at its end).
    open_typed_path(&mut h, "other.json");
    assert!(h.query_all_by_label_contains("other.json").count() > 0, "the typed path was opened");
    assert!(
        h.query_all_by_label_contains("wasd.jsonother.json").count() == 0,
        "the typed path replaced the last one, not appended to it"
    );
}

/// A recording opened by path (or dropped on the window) is played back, not refused as a
/// broken diagram; a diagram by path is still loaded as one.
#[test]
fn a_recording_opened_by_path_is_played_back() {
    use fbd_engine::load::{FsProvider, load};
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json"));
    let project = load(&FsProvider, path).expect("loads");
    let mut rt =
        fbd_engine::Runtime::new(fbd_engine::compile_project(&project, &Default::default()).expect("compiles"));
    rt.start_recording(10);
    rt.step_n(50);
    let rec = rt.stop_recording(fbd_engine::runtime::ProgramId::of(&project)).expect("recording");
    let file = temp_dir("open-rec").join("run.json");
    std::fs::write(&file, rec.to_json()).expect("write");
    let mut h = harness(Wiring::Upd1, false, "open-rec");
    h.step();
    h.state_mut().open_file(file);
    h.step();
    h.step();
    let st = h.state().replay_status().expect("a replay");
    assert_eq!(st.scans, 50);
    assert!(h.query_by_label_contains(" / 50 (").is_some(), "the replay bar");
    h.state_mut().stop_replay();
    h.state_mut().open_file(path.to_path_buf());
    h.step();
    assert!(h.state().replay_status().is_none());
    assert!(h.query_by_label_contains("This diagram has no 2048 interface").is_some(), "the blinker is loaded");
}

/// A recording under way when the program restarts (Reset cold, or another program opened) is
/// kept to be saved, and says so; it was dropped without a word with the old runtime. What was
/// kept replays bit for bit up to the restart.
#[test]
fn a_restart_while_recording_keeps_the_recording_until_then() {
    let mut h = harness(Wiring::Upd1, false, "record-reset");
    h.step();
    h.state_mut().start_recording();
    h.step();
    h.get_by_label("Start").click();
    settle(&mut h);
    h.key_press(egui::Key::ArrowLeft);
    settle(&mut h);
    let (values, scans) = (h.state().values(), h.state().scan_count());
    h.state_mut().reset_cold().expect("reset");
    h.step();
    assert!(h.state().status().contains("the recording until then is kept"), "{}", h.state().status());
    let path = temp_dir("record-reset").join("kept.json");
    h.state_mut().stop_recording(Some(path.clone())).expect("the kept recording is saved");
    let rec = fbd_engine::Recording::from_json(&std::fs::read_to_string(&path).expect("written")).expect("a recording");
    assert_eq!(rec.scans, scans, "every scan until the reset");
    let mut rt = fbd_engine::Runtime::with_seed(Wiring::Upd1.compile().expect("compiles"), 5);
    assert_eq!(rt.replay(&rec, true).expect("replays"), None, "every state hash matches");
    let replayed: Vec<Value> =
        (1..=4).flat_map(|r| (1..=4).map(move |c| format!("v{r}{c}"))).map(|p| rt.output(&p).expect("v")).collect();
    let shown: Vec<Value> = values.iter().map(|v| Value::Int(*v)).collect();
    assert_eq!(replayed, shown, "the board at the reset");
}

/// An online change (another wiring, Reload, the editor's Apply) ends a recording, kept to be
/// saved, and a playback: the recording went on across the change, so `fbd replay` of it
/// failed at its first state check, and a playback went on feeding the recorded events into
/// the changed program.
#[test]
fn an_online_change_ends_a_recording_and_a_playback() {
    let mut h = harness(Wiring::Upd1, false, "record-change");
    h.step();
    h.state_mut().start_recording();
    h.step();
    h.get_by_label("Start").click();
    settle(&mut h);
    let scans = h.state().scan_count();
    h.state_mut().online_change(Origin::Embedded(Wiring::Original));
    h.step();
    assert!(h.state().status().contains("the recording until then is kept"), "{}", h.state().status());
    h.state_mut().run_scans(50);
    let path = temp_dir("record-change").join("kept.json");
    h.state_mut().stop_recording(Some(path.clone())).expect("the kept recording is saved");
    let rec = fbd_engine::Recording::from_json(&std::fs::read_to_string(&path).expect("written")).expect("a recording");
    assert_eq!(rec.scans, scans, "the scans before the change, of the program recorded");
    let mut rt = fbd_engine::Runtime::with_seed(Wiring::Upd1.compile().expect("compiles"), 5);
    assert_eq!(rt.replay(&rec, true).expect("replays"), None, "every state hash matches");
    // A playback ends at a change too.
    h.state_mut().open_recording(Some(path)).expect("plays back");
    h.step();
    assert!(h.state().replay_status().is_some(), "playing back");
    h.state_mut().online_change(Origin::Embedded(Wiring::SmartSpawn));
    h.step();
    assert!(h.state().replay_status().is_none(), "the playback ended");
    assert!(h.state().status().contains("the playback of"), "{}", h.state().status());
}

/// A PLCopen file whose import says something behaves differently here (an INT that becomes a
/// 64-bit INT and no longer wraps where the PLC's would) says so beside the status line, the
/// whole text on hover; the import's warnings were dropped.
#[test]
fn the_warnings_of_a_plcopen_import_are_on_the_status_line() {
    let xml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../fbd-plcopen/tests/data/blink.xml"))
        .expect("test data");
    let mut h = crate::file_window_as("import-warnings", "plc.xml", &xml, 0.25);
    h.step();
    h.step();
    // (One: its second program instance runs in a slower task, counted from tick 0 as
    // OpenPLC's runtime counts, where Beremiz's counts from 1.)
    assert!(h.query_by_label("1 import warning").is_some(), "the count beside the status line");
}

/// Opens the File menu and clicks `item`.
fn file_menu(h: &mut egui_kittest::Harness<'static, fbd_hmi::App>, item: &str) {
    h.get_by_label("File").click();
    h.step();
    h.step();
    h.get_by_label(item).click();
    h.step();
    h.step();
}

/// Without the desktop's dialogs (no portal) a recording is still saved: the path is typed in
/// a window of the HMI's own, `~` read as home, and a file that exists is written over only
/// after Overwrite. Closing the window with a recording not saved asks first (it was dropped).
#[test]
fn a_recording_is_saved_by_a_typed_path_and_closing_asks_about_one_not_saved() {
    let mut h = harness(Wiring::Upd1, false, "rec-typed");
    h.step();
    file_menu(&mut h, "Record (restarts the program)");
    h.state_mut().run_scans(50);
    // Closing the window now asks.
    let close = |h: &mut egui_kittest::Harness<'static, fbd_hmi::App>| {
        h.input_mut().viewports.entry(egui::ViewportId::ROOT).or_default().events.push(egui::ViewportEvent::Close);
        h.step();
        h.step();
    };
    close(&mut h);
    assert!(h.query_by_label_contains("A recording is under way").is_some(), "closing asked about the recording");
    h.get_by_label("Save the recording...").click();
    h.step();
    h.step();
    // No dialog here: the typed-path window.
    let dir = temp_dir("rec-typed");
    let taken = dir.join("taken.json");
    std::fs::write(&taken, "keep me").expect("write");
    h.step(); // a window's first frame only measures it
    assert!(
        h.query_by_label_contains("Save the recording as").is_some(),
        "the typed-path window: {}",
        h.state().status()
    );
    h.get_by_label("path").click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("path").type_text(taken.to_str().expect("utf-8"));
    h.step();
    h.get_by_label("Save").click();
    h.step();
    h.step();
    assert_eq!(std::fs::read_to_string(&taken).expect("read"), "keep me", "not written over without asking");
    assert!(h.query_by_label_contains("exists").is_some());
    h.get_by_label("Overwrite").click();
    h.step();
    h.step();
    let text = std::fs::read_to_string(&taken).expect("read");
    assert!(text.contains("fbd_recording"), "Overwrite saved the recording: {}", h.state().status());
    assert!(!h.state().unsaved_recording(), "{}", h.state().status());
    // Saved: closing does not ask any more.
    close(&mut h);
    assert!(h.query_by_label_contains("A recording is under way").is_none());
    assert!(h.query_by_label_contains("A recording is not saved").is_none());
}

/// A recording made at another cycle than the file's (`fbd serve --cycle 10`) is played back at
/// its cycle (the window refused it: "the program's cycle is 5000 us, the recording's 10000").
#[test]
fn a_recording_made_at_another_cycle_plays_back_at_it() {
    use fbd_engine::load::{FsProvider, load};
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json"));
    let mut project = load(&FsProvider, path).expect("loads");
    let id = fbd_engine::runtime::ProgramId::of(&project);
    let file_cycle = project.files[0].doc.cycle_ms;
    project.files[0].doc.cycle_ms = Some(file_cycle.unwrap_or(5.0) * 2.0);
    let mut rt =
        fbd_engine::Runtime::new(fbd_engine::compile_project(&project, &Default::default()).expect("compiles"));
    rt.start_recording(10);
    rt.step_n(50);
    let rec = rt.stop_recording(id).expect("recording");
    let cycle_us = rec.cycle_us;
    let file = temp_dir("other-cycle").join("run.json");
    std::fs::write(&file, rec.to_json()).expect("write");
    let mut h = harness(Wiring::Upd1, false, "other-cycle");
    h.step();
    h.state_mut().open_recording(Some(file)).expect("played back");
    h.step();
    assert_eq!(h.state().cycle_us(), cycle_us, "at the recording's cycle");
}
