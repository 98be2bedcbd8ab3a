//! Debug > Run test table: a table run on its own runtime, its failing row shown in the Tests
//! window, and the test replayed on the live runtime up to the scan where it failed.

use egui_kittest::kittest::Queryable;
use fbd2048_game::Wiring;

use crate::*;

#[test]
fn a_failing_table_shows_its_row_and_replays_to_the_failing_scan() {
    let dir = temp_dir("tests-panel");
    let program = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/blinker.json");
    let table = dir.join("wrong.test.json");
    std::fs::write(
        &table,
        format!(
            r#"{{"fbd_test": 1, "program": {:?}, "tests": [
  {{"name": "runs after start", "steps": [{{"pulse": {{"start": true}}, "expect": {{"running": true}}}}]}},
  {{"name": "on for 21 scans", "steps": [{{"pulse": {{"start": true}}, "run": 21, "expect": {{"fast_lamp": {{"=": true, "throughout": true}}}}}}]}}]}}"#,
            program.display().to_string()
        ),
    )
    .expect("writes");
    let mut h = harness(Wiring::Upd1, false, "tests-panel");
    h.step();
    h.state_mut().run_tests(Some(table));
    h.step();
    h.step();
    assert_eq!(
        h.state().test_results(),
        [("runs after start".to_string(), true), ("on for 21 scans".to_string(), false)]
    );
    assert!(h.query_by_label_contains("FAILED  on for 21 scans").is_some(), "the failing test is named");
    assert!(
        h.query_by_label_contains(
            "row 1, scan 20: `fast_lamp` = FALSE at scan 20, expected TRUE throughout scans 0..20"
        )
        .is_some(),
        "its row, scan and values"
    );
    // Show it: the blinker is loaded and replayed to scan 20 (from 0), where the lamp went off:
    // 21 scans have run.
    h.get_by_label("show scan 20").click();
    for _ in 0..6 {
        h.step();
    }
    assert_eq!(h.state().scan_count(), 21, "{}", h.state().status());
    assert!(h.state().is_paused());
    assert!(h.state().status().contains("test `on for 21 scans` at scan 20"), "{}", h.state().status());
}
