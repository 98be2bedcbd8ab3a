//! Playing: the board, keys, overlays, forces on the board, autoplay, the best score.

use egui_kittest::kittest::Queryable;
use fbd_engine::Value;
use fbd_hmi::Options;
use fbd_hmi::best::BestStore;
use fbd_hmi::settings::SettingsStore;
use fbd_hmi::source::Origin;
use fbd2048_game::{Wiring, check_command};
use ref2048::{Dir, from_values};

use crate::*;

#[test]
fn start_places_two_tiles() {
    let mut h = harness(Wiring::Upd1, false, "start");
    h.step();
    assert_eq!(tiles(h.state()), 0);
    h.get_by_label("Start").click();
    settle(&mut h);
    assert_eq!(tiles(h.state()), 2, "{:?}", h.state().values());
}

/// A Ctrl or Alt chord is not a move (Ctrl+S, the editor's save, moved the tiles down), and
/// neither is a key pressed in the editor; a plain key is.
#[test]
fn chords_and_the_editors_keys_are_not_moves() {
    let mut h = harness(Wiring::Upd1, false, "chords");
    let start = board([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    h.state_mut().set_board(start);
    h.step();
    for (m, k) in [
        (egui::Modifiers::COMMAND, egui::Key::S),
        (egui::Modifiers::CTRL, egui::Key::D),
        (egui::Modifiers::ALT, egui::Key::ArrowDown),
    ] {
        h.key_press_modifiers(m, k);
        settle(&mut h);
        assert_eq!(h.state().values()[0], 2, "{m:?}+{k:?} moved the tiles");
    }
    h.get_by_label("Diagram").click();
    h.step();
    h.get_by_label("Edit").click();
    h.step();
    h.key_press(egui::Key::ArrowDown);
    settle(&mut h);
    assert_eq!(h.state().values()[0], 2, "a key in the editor moved the tiles");
    h.get_by_label("Online").click();
    h.step();
    h.key_press(egui::Key::ArrowDown);
    settle(&mut h);
    assert_eq!((h.state().values()[0], h.state().values()[12]), (0, 2), "a plain key in the online diagram moves");
}

#[test]
fn an_arrow_key_moves_the_tiles_as_the_reference_says() {
    for w in Wiring::ALL {
        let mut h = harness(w, false, "arrow");
        let start = board([2, 2, 4, 0, 0, 4, 0, 4, 0, 0, 0, 0, 8, 0, 0, 8]);
        h.state_mut().set_board(start);
        h.step();
        let s0 = h.state().score();
        h.key_press(egui::Key::ArrowLeft);
        settle(&mut h);
        let v = h.state().values();
        let after = from_values(&v.map(|x| x as u32)).expect("tiles");
        if let Err(m) = check_command(start, Dir::Left, after, h.state().score() - s0, h.state().game_over()) {
            panic!("{w:?}: {m}");
        }
        // WASD too.
        let before = after;
        let s0 = h.state().score();
        h.key_press(egui::Key::S);
        settle(&mut h);
        let after = from_values(&h.state().values().map(|x| x as u32)).expect("tiles");
        if let Err(m) = check_command(before, Dir::Down, after, h.state().score() - s0, h.state().game_over()) {
            panic!("{w:?}: {m}");
        }
    }
}

#[test]
fn reset_clears_the_board() {
    let mut h = harness(Wiring::Original, false, "reset");
    h.get_by_label("Start").click();
    settle(&mut h);
    assert_eq!(tiles(h.state()), 2);
    h.get_by_label("Reset").click();
    settle(&mut h);
    assert_eq!(tiles(h.state()), 0);
}

#[test]
fn the_game_over_overlay_appears_on_a_lost_board() {
    let mut h = harness(Wiring::Upd1, false, "over");
    h.step();
    assert!(h.query_by_label("Game over").is_none());
    h.state_mut().set_board(board([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2]));
    h.step();
    h.step();
    assert!(h.query_by_label("Game over").is_some(), "overlay shown");
    assert!(h.query_by_label("New game").is_some());
    h.get_by_label("New game").click();
    settle(&mut h);
    assert!(h.query_by_label("Game over").is_none());
    assert_eq!(tiles(h.state()), 2);
}

#[test]
fn forcing_a_cell_shows_on_the_board() {
    let mut h = harness(Wiring::Upd1, true, "force");
    h.step();
    assert!(h.query_by_label("2048").is_none());
    h.state_mut().force("cell_2_3/mem.q", Value::Int(2048)).expect("forceable");
    h.state_mut().run_scans(1);
    h.step();
    assert!(h.query_by_label("2048").is_some(), "the forced value is on the board");
    assert_eq!(h.state().values()[6], 2048);
    // The win overlay follows from the board.
    h.step();
    assert!(h.query_by_label("You win!").is_some());
}

#[test]
fn autoplay_drives_the_program_through_the_selector() {
    let mut h = harness(Wiring::SmartSpawn, false, "autoplay");
    h.get_by_label("Start").click();
    settle(&mut h);
    assert!(h.state_mut().start_autoplay("greedy", 0.0));
    let mut last = h.state().values();
    let mut judged = 0;
    for _ in 0..400 {
        let s0 = h.state().score();
        h.step();
        h.state_mut().run_scans(1);
        h.step();
        h.state_mut().run_scans(1);
        h.step();
        let now = h.state().values();
        if now != last {
            judged += 1;
            assert!(h.state().score() >= s0);
        }
        last = now;
        if !h.state().autoplaying() {
            break;
        }
    }
    assert!(
        judged > 20,
        "the player moved {judged} times; autoplaying {}, status {}, moves {}",
        h.state().autoplaying(),
        h.state().status(),
        h.state().autoplay_moves()
    );
    assert!(h.state().autoplay_moves() > 20);
    assert!(h.query_by_label("Stop").is_some() || !h.state().autoplaying());
}

/// While a player drives, Best follows the score (it moved only on Stop), and another player
/// chosen takes over at once (the old one went on playing).
#[test]
fn autoplay_raises_best_as_it_plays_and_a_new_player_takes_over() {
    let mut h = harness(Wiring::SmartSpawn, false, "autoplay-best");
    h.get_by_label("Start").click();
    settle(&mut h);
    assert!(h.state_mut().start_autoplay("greedy", 0.0));
    let mut seen_live = false;
    for _ in 0..300 {
        h.step();
        h.state_mut().run_scans(2);
        h.step();
        let score = h.state().score();
        if h.state().autoplaying() && score > 0 && h.query_by_label(&format!("Best {score}")).is_some() {
            seen_live = true;
            break;
        }
    }
    assert!(seen_live, "Best showed the score while the player drove (score {})", h.state().score());
    assert_eq!(h.state().autoplay_player(), Some("greedy"));
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "player").click();
    // The popup opens over two frames.
    h.step();
    h.step();
    h.get_by_label("random").click();
    h.step();
    assert_eq!(h.state().autoplay_player(), Some("random"), "the chosen player drives now");
    assert!(h.state().autoplaying());
}

#[test]
fn the_best_score_is_per_program_and_games_changed_from_outside_do_not_count() {
    let dir = temp_dir("best");
    let file = dir.join("best.json");
    // A corrupt file is reported and replaced.
    std::fs::write(&file, "not json").expect("write");
    let (b, warning) = BestStore::at(&file).load("any", true);
    assert_eq!(b, 0);
    assert!(warning.expect("reported").contains("corrupt"));
    // A file from before per-program records counts for the embedded default program.
    std::fs::write(&file, "{\"best\": 1234}").expect("write");
    let opts = Options {
        origin: Origin::Embedded(Wiring::Upd1),
        seed: 1,
        start_paused: true,
        best: BestStore::at(&file),
        show_debugger: false,
        settings: SettingsStore::none(),
        replay: None,
        native_dialogs: false,
    };
    let mut h = window(opts, 0.25);
    h.state_mut().run_scans(3);
    h.step();
    assert!(h.query_by_label("Best 1234").is_some(), "the stored best is restored");
    // Another wiring is another program: its own record, none yet.
    h.state_mut().online_change(Origin::Embedded(Wiring::SmartSpawn));
    h.step();
    assert!(h.query_by_label("Best 0").is_some(), "a changed wiring does not inherit the best");
    // A game changed from outside (a board set as the debugger would) is not recorded.
    h.get_by_label("Start").click();
    settle(&mut h);
    h.state_mut().set_board(board([1024, 1024, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    h.key_press(egui::Key::ArrowLeft);
    settle(&mut h);
    assert!(h.state().score() >= 2048);
    h.step();
    assert!(h.query_by_label("Best 0").is_some(), "the altered game's score is not a best");
    assert!(h.query_by_label("(not recorded)").is_some(), "and the window says so");
    // A new game played by the keys counts, under this program's own record.
    h.get_by_label("Start").click();
    settle(&mut h);
    let keys = [egui::Key::ArrowLeft, egui::Key::ArrowUp, egui::Key::ArrowRight, egui::Key::ArrowDown];
    for k in 0..200 {
        if h.state().score() > 0 {
            break;
        }
        h.key_press(keys[k % 4]);
        settle(&mut h);
    }
    let score = h.state().score();
    assert!(score > 0, "a merge within 200 moves");
    h.step();
    assert!(h.query_by_label(&format!("Best {score}")).is_some(), "the unaltered game's score is the best");
    let text = std::fs::read_to_string(&file).expect("saved");
    assert!(text.contains(&format!("\"best\": {score}")) && text.contains("1234"), "both records kept: {text}");
    assert!(!dir.join("best.json.tmp").exists(), "written through a temporary file");
}

/// At the window's default size, and in a small one (800×560), with the debugger open, the
/// play panel and the online diagram fit beside it: their rows wrap instead of widening the
/// panel, so neither the board nor the diagram is drawn under the debugger (they were: the
/// board's last column, the Play button and the diagram's outputs were hidden), and the
/// debugger's own rows wrap so that it keeps to its panel (at 800 wide the autoplay slider and
/// the fast-forward row pushed the two panels over each other and hid Run and Step).
#[test]
fn the_board_and_the_diagram_stay_clear_of_the_debugger_panel() {
    for (w, hgt) in [(1100.0, 760.0), (800.0, 560.0)] {
        let opts = Options {
            origin: Origin::Embedded(Wiring::Upd1),
            seed: 5,
            start_paused: true,
            best: BestStore::none(),
            show_debugger: true,
            settings: SettingsStore::at(temp_dir("narrow").join("settings.json")),
            replay: None,
            native_dialogs: false,
        };
        let mut h = egui_kittest::Harness::builder()
            .with_size(egui::vec2(w, hgt))
            .build_eframe(move |cc| fbd_hmi::App::new(cc, opts));
        h.step();
        h.get_by_label("Start").click();
        settle(&mut h);
        let panel_left = h.get_by_label("Reset statistics").rect().min.x;
        let play = h.get_by_label("Play").rect();
        assert!(play.max.x <= panel_left, "{w}: Play ends at {} under the debugger at {panel_left}", play.max.x);
        let board = h.get_by_label("game board").rect();
        assert!(board.max.x <= panel_left, "{w}: the board ends at {} under the debugger at {panel_left}", board.max.x);
        assert!(board.width() > 280.0, "{w}: and it still takes the room it has: {board:?}");
        for first in ["Run", "Step", "Fast-forward until", "Go"] {
            let r = h.get_by_label(first).rect();
            assert!(
                r.min.x >= panel_left && r.max.x <= w,
                "{w}: `{first}` at {r:?} outside the debugger from {panel_left}"
            );
        }
        // The same for the online diagram's header (the canvas below it takes the header's width).
        h.get_by_label("Diagram").click();
        h.step();
        h.step();
        let header_end = h.get_by_label("auto layout").rect().max.x;
        assert!(
            header_end <= panel_left,
            "{w}: the diagram header ends at {header_end} under the debugger at {panel_left}"
        );
    }
}

/// A diagram without the 2048 interface gets a panel of its inputs and outputs; each input's
/// control is named by the input (the harness's accessibility check refused the unnamed
/// checkbox and number field), and setting one reaches the program.
#[test]
fn the_generic_panel_names_every_input_control_and_sets_the_input() {
    let mut h = crate::file_window(
        "generic",
        r#"{"fbd": 1, "name": "io",
  "inputs": [{"name": "enable", "type": "BOOL"}, {"name": "level", "type": "INT"}],
  "outputs": [{"name": "out", "type": "INT", "from": "sel.out"}],
  "blocks": [{"id": "sel", "type": "SEL", "inputs": {"g": "enable", "in0": "level", "in1": 42}}]}"#,
    );
    h.step();
    assert!(h.query_by_label("level").is_some(), "the number field is named by its input");
    assert!(h.query_by_label("42").is_none());
    // Each port's IEC type beside its name (version 1's INT is a LINT).
    assert_eq!(h.query_all_by_label("LINT").count(), 2, "level and out");
    assert!(h.query_by_label("BOOL").is_some(), "enable");
    h.get_by_label("enable").click();
    h.step();
    h.state_mut().run_scans(2);
    h.step();
    assert!(h.query_by_label("42").is_some(), "the checkbox set the input: SEL gives in1");
    assert_eq!(h.state().runtime_locks(), 0, "the panel reads the image and sends requests");
}

/// A ULINT above 2^53 is shown exactly (a drag field holds an f64 and showed 2^64 for
/// 2^64 - 1); a TIME input has its field.
#[test]
fn a_ulint_input_shows_its_exact_value_and_a_time_its_milliseconds() {
    let mut h = crate::file_window(
        "ulint",
        r#"{"fbd": 3, "name": "big",
  "inputs": [{"name": "u", "type": "ULINT", "default": 18446744073709551615}, {"name": "t", "type": "TIME", "default": "T#1s500ms"}],
  "outputs": [{"name": "y", "type": "ULINT", "from": "u"}],
  "blocks": []}"#,
    );
    h.step();
    assert_eq!(h.query_all_by_label("18446744073709551615").count(), 2, "the input and the output, exact");
    assert!(h.query_by_label("18446744073709551616").is_none());
    assert!(h.query_by_label("t").is_some(), "the TIME field is named by its input");
}

/// What a program and its macros are for, in their authors' words: the program's description in
/// its panel, the shown body's (the program's, a macro's) above the online diagram with the
/// whole text on hover. Neither was anywhere on screen.
#[test]
fn descriptions_of_the_program_and_of_the_shown_macro_are_on_screen() {
    let mut h = crate::file_window(
        "descriptions",
        r#"{"fbd": 1, "name": "lamp", "description": "Lights the lamp while the switch is on.",
  "inputs": [{"name": "sw", "type": "BOOL"}],
  "outputs": [{"name": "lamp", "type": "BOOL", "from": "inv.out"}],
  "macros": [{"name": "Invert", "description": "The inverse of its input.\nA second line.",
              "inputs": [{"name": "x", "type": "BOOL"}],
              "outputs": [{"name": "out", "type": "BOOL", "from": "n.out"}],
              "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": "x"}}]}],
  "blocks": [{"id": "inv", "type": "Invert", "inputs": {"x": "sw"}}]}"#,
    );
    h.step();
    assert!(h.query_by_label("Lights the lamp while the switch is on.").is_some(), "in the panel");
    h.get_by_label("Diagram").click();
    h.step();
    h.step();
    assert!(h.query_by_label("Lights the lamp while the switch is on.").is_some(), "above the program's drawing");
    assert!(h.state_mut().diagram_mut().open("inv"));
    h.step();
    h.step();
    assert!(h.query_by_label("The inverse of its input.").is_some(), "the macro's first line above its drawing");
    assert!(h.query_by_label("Lights the lamp while the switch is on.").is_none());
}

/// A program with thousands of inputs gets a scrolled list that lays out only the rows in view
/// (every row was drawn every frame, past the window's bottom, out of reach); scrolled to the
/// end, the last ones are there.
#[test]
fn a_program_with_thousands_of_inputs_lists_them_in_a_scrolled_panel() {
    let text = crate::many_inputs(3000);
    let mut h = crate::file_window("many-inputs", &text);
    h.step();
    h.step();
    assert!(h.query_by_label("in0").is_some(), "the first rows are shown");
    assert!(h.query_by_label("in2999").is_none(), "rows out of view are not laid out");
    let at = h.get_by_label("in0").rect().center();
    for _ in 0..40 {
        crate::wheel(&mut h, at, -5000.0);
    }
    h.step();
    assert!(h.query_by_label("in2999").is_some(), "scrolled to the end: the last input");
    assert!(h.query_by_label("any").is_some(), "and the output after the inputs");
}

/// A selector input (`kind: selector`) is a row of its positions by their labels, and a click
/// sets the position; it was a number field that showed none of the diagram's `options`.
#[test]
fn a_selector_input_shows_its_positions_by_name() {
    let mut h = crate::file_window(
        "selector",
        r#"{"fbd": 1, "name": "fan",
  "inputs": [{"name": "mode", "type": "INT", "kind": "selector", "options": ["off", "slow", "fast"],
              "description": "the fan's speed"}],
  "outputs": [{"name": "speed", "type": "INT", "from": "m.out"}],
  "blocks": [{"id": "m", "type": "MUL", "inputs": {"in1": "mode", "in2": 111}}]}"#,
    );
    h.step();
    for label in ["0 (none)", "1 off", "2 slow", "3 fast"] {
        assert!(h.query_by_label(label).is_some(), "position `{label}` is shown");
    }
    h.get_by_label("2 slow").click();
    h.step();
    h.state_mut().run_scans(2);
    h.step();
    assert!(h.query_by_label("222").is_some(), "position 2 reached the program");
    h.get_by_label("0 (none)").click();
    h.step();
    h.state_mut().run_scans(2);
    h.step();
    assert!(h.query_by_label("222").is_none() && h.query_by_label("0").is_some(), "and back to none");
}

/// A selector of more positions than fit a row is a list to pick from.
#[test]
fn a_selector_of_many_positions_is_a_list() {
    let options: Vec<String> = (1..=12).map(|k| format!(r#""p{k}""#)).collect();
    let text = format!(
        r#"{{"fbd": 1, "name": "many",
  "inputs": [{{"name": "pos", "type": "INT", "kind": "selector", "options": [{}]}}],
  "outputs": [{{"name": "twice", "type": "INT", "from": "m.out"}}],
  "blocks": [{{"id": "m", "type": "MUL", "inputs": {{"in1": "pos", "in2": 2}}}}]}}"#,
        options.join(", ")
    );
    let mut h = crate::file_window("many-positions", &text);
    h.step();
    assert!(h.query_by_label("12 p12").is_none(), "not a row of twelve");
    h.get_by_label("pos").click();
    h.step();
    h.step();
    // (A position far down the list is out of the list's view until scrolled to.)
    h.get_by_label("3 p3").click();
    h.step();
    h.step();
    h.state_mut().run_scans(2);
    h.step();
    assert!(h.query_by_label("6").is_some(), "position 3 reached the program");
}

/// The generic panel's push button is TRUE while held, so a timer on it runs out (a press was
/// one scan, whatever its length), and a click shorter than a scan still gives one scan.
#[test]
fn a_push_button_is_true_while_held_and_for_one_scan_at_least() {
    let mut h = crate::file_window(
        "push-button",
        r#"{"fbd": 1, "name": "hold",
  "inputs": [{"name": "b", "type": "BOOL", "kind": "button"}],
  "outputs": [{"name": "presses", "type": "INT", "from": "c.cv"}, {"name": "held", "type": "INT", "from": "s.out"}],
  "blocks": [
    {"id": "c", "type": "CTU", "inputs": {"cu": "b", "r": false, "pv": 100}},
    {"id": "t", "type": "TON", "inputs": {"in": "b", "pt": 50}},
    {"id": "s", "type": "SEL", "inputs": {"g": "t.q", "in0": 0, "in1": 77}}
  ]}"#,
    );
    h.step();
    let at = h.get_by_label("b").rect().center();
    let button = |h: &mut egui_kittest::Harness<'static, fbd_hmi::App>, pressed: bool| {
        h.hover_at(at);
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
        h.step();
    };
    // A click while paused: no scan between press and release, one scan TRUE after.
    button(&mut h, true);
    button(&mut h, false);
    h.state_mut().run_scans(3);
    h.step();
    assert!(h.query_by_label("1").is_some(), "one press counted");
    // Held for 20 scans (100 ms): the 50 ms timer runs out.
    button(&mut h, true);
    h.state_mut().run_scans(20);
    h.step();
    assert!(h.query_by_label("77").is_some(), "the timer on the held button ran out");
    assert!(h.query_by_label("2").is_some(), "a second press");
    button(&mut h, false);
    h.state_mut().run_scans(2);
    h.step();
    assert!(h.query_by_label("77").is_none(), "released: the timer is off");
    assert!(h.query_by_label("2").is_some(), "and no press more");
    // The debugger's statistics count scans per command only for the 2048 interface's commands.
    h.key_press(egui::Key::F12);
    h.step();
    h.step();
    assert!(h.query_by_label("faults").is_some(), "the statistics are shown");
    assert!(h.query_by_label("scans per command (last / max)").is_none(), "no commands to count here");
}

/// A STRING input is a text field named by its input, written when Enter is pressed; the
/// outputs show their literals.
#[test]
fn a_string_input_is_a_text_field_written_on_enter() {
    let mut h = crate::file_window(
        "string",
        r#"{"fbd": 3, "name": "greet",
  "inputs": [{"name": "who", "type": "STRING", "default": "'World'"}],
  "outputs": [{"name": "line", "type": "STRING", "from": "c.out"}],
  "blocks": [{"id": "c", "type": "CONCAT", "inputs": {"in1": "'Hello, '", "in2": "who"}}]}"#,
    );
    h.step();
    h.state_mut().run_scans(1);
    h.step();
    assert!(h.query_by_label("'Hello, World'").is_some(), "the output's literal");
    assert_eq!(h.query_all_by_label("STRING").count(), 2, "the ports' type");
    let field = h.get_by_label("who");
    field.click();
    h.step();
    h.key_press(egui::Key::End);
    h.step();
    h.get_by_label("who").type_text("!");
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.state_mut().run_scans(1);
    h.step();
    assert!(h.query_by_label("'Hello, World!'").is_some(), "the typed text reached the program");
}

/// After a cold start the keys work at once: they used to wait until the scan counter, back at
/// 0, passed the scan of the last command before the restart (minutes to hours of play).
#[test]
fn keys_work_right_after_a_cold_start() {
    let mut h = harness(Wiring::Upd1, false, "cold-keys");
    h.get_by_label("Start").click();
    settle(&mut h);
    h.state_mut().run_scans(3_000);
    h.key_press(egui::Key::ArrowLeft);
    settle(&mut h);
    assert!(h.state().scan_count() > 3_000);
    h.state_mut().reset_cold().expect("reset");
    h.step();
    assert_eq!((h.state().scan_count(), tiles(h.state())), (0, 0), "a cold start");
    h.get_by_label("Start").click();
    settle(&mut h);
    h.key_press(egui::Key::ArrowUp);
    settle(&mut h);
    assert!(tiles(h.state()) >= 2, "Start after the cold start placed tiles");
    assert!(h.state().scan_count() < 200, "both commands went out at once: {} scans", h.state().scan_count());
}

/// A frame reads the published scan image and never takes the runtime's lock (the scan task
/// would wait for it): the board, the debugger (statistics, faults, breakpoints, the signal
/// tree, trends) and the online diagram, over 400 frames with scans between them; and every
/// action (keys, breakpoints, watches, forces, steps back and forth) goes through the task's
/// request queue, so the whole session takes the lock not once.
#[test]
fn frames_of_the_board_the_debugger_and_the_diagram_take_no_runtime_lock() {
    let mut h = harness(Wiring::Upd1, true, "no-locks");
    h.step();
    h.get_by_label("Start").click();
    settle(&mut h);
    h.state_mut().add_breakpoint_text("score=4").expect("a breakpoint");
    // Scans between the frames, run here (their locks are not the frames'): deterministic.
    let frames = |h: &mut egui_kittest::Harness<'static, fbd_hmi::App>, what: &str| {
        for _ in 0..5 {
            h.step();
        }
        for _ in 0..100 {
            h.state_mut().run_scans(3);
            let before = h.state().runtime_locks();
            h.step();
            assert_eq!(h.state().runtime_locks() - before, 0, "{what}: a frame took the runtime's lock");
        }
    };
    frames(&mut h, "board and debugger");
    h.state_mut().watch("score").expect("watch");
    h.state_mut().watch("busy").expect("watch");
    frames(&mut h, "board, debugger and a trend");
    h.get_by_label("Diagram").click();
    frames(&mut h, "online diagram and debugger");
    assert!(h.state_mut().diagram_mut().open("cell_1_1"));
    frames(&mut h, "a macro's online diagram");
    h.state_mut().force("cell_1_1/mem.q", fbd_engine::Value::Int(2)).expect("a force");
    h.state_mut().online_release_all();
    h.state_mut().step_back(2).expect("the history goes back");
    h.key_press(egui::Key::ArrowDown);
    settle(&mut h);
    assert_eq!(h.state().runtime_locks(), 0, "an action took the runtime's lock");
}
