//! A recording turned into a test table: the session replayed, a row per stretch between two
//! stimuli (what was set, pulsed, written or forced, and how long it ran), each row expecting
//! every program output as the replay shows it at the row's end. A bug seen in the HMI becomes
//! a regression test in one step: record, convert, correct the expectation that was wrong.

use fbd_engine::runtime::{Stimulus, StimulusValue};
use fbd_engine::{Recording, Runtime, ScanPlan};
use serde_json::{Map, Value as Json, json};

/// The table (as JSON) of `rec` replayed on `plan`; `program` is what its `program` field says
/// (the diagram's path relative to where the table is written).
pub fn table_from_recording(rec: &Recording, plan: ScanPlan, program: &str, name: &str) -> Json {
    let mut rt = Runtime::with_seed(plan, rec.seed);
    let mut rows: Vec<Json> = Vec::new();
    let mut k = 0;
    let events = &rec.events;
    let mut scan = 0;
    while scan < rec.scans {
        let mut row = Map::new();
        let mut put = |field: &str, key: &str, value: Json| {
            row.entry(field)
                .or_insert_with(|| Json::Object(Map::new()))
                .as_object_mut()
                .expect("object")
                .insert(key.to_string(), value);
        };
        let mut released: Vec<Json> = Vec::new();
        while k < events.len() && events[k].scan == scan {
            let konst =
                |v: &StimulusValue| serde_json::to_value(fbd_engine::model::Const(v.get())).unwrap_or(Json::Null);
            match &events[k].stimulus {
                Stimulus::Input { name, value } => put("set", name, konst(value)),
                Stimulus::Pulse { name, value } => put("pulse", name, konst(value)),
                Stimulus::Write { path, value } | Stimulus::WriteNow { path, value } => {
                    put("write", path, konst(value))
                }
                Stimulus::Force { path, value } => put("force", path, konst(value)),
                Stimulus::Release { path } => released.push(Json::String(path.clone())),
                Stimulus::ReleaseAll => {
                    released.extend(rt.forced().into_iter().map(|(p, _)| Json::String(p)));
                }
            }
            k += 1;
        }
        if !released.is_empty() {
            row.insert("release".into(), Json::Array(released));
        }
        // Replayed by the runner's own means: the row as written is what runs.
        let step: crate::table::Step = serde_json::from_value(Json::Object(row.clone())).unwrap_or_default();
        for p in &step.release {
            rt.release(p);
        }
        for (p, v) in &step.write {
            let _ = rt.write(p, v.0);
        }
        for (p, v) in &step.force {
            let _ = rt.force(p, v.0);
        }
        for (p, v) in &step.set {
            let _ = rt.set_input(p, v.0);
        }
        for (p, v) in &step.pulse {
            let _ = rt.pulse_input(p, v.0);
        }
        let next = events.get(k).map_or(rec.scans, |e| e.scan).min(rec.scans);
        let run = next.saturating_sub(scan).max(1);
        rt.step_n(run);
        scan += run;
        if run > 1 {
            row.insert("run".into(), json!(run));
        }
        let expect: Map<String, Json> = rt
            .plan()
            .outputs
            .iter()
            .zip(rt.outputs())
            .map(|(p, v)| (p.name.clone(), serde_json::to_value(fbd_engine::model::Const(*v)).unwrap_or(Json::Null)))
            .collect();
        row.insert("expect".into(), Json::Object(expect));
        rows.push(Json::Object(row));
    }
    json!({
        "fbd_test": crate::table::FORMAT_VERSION,
        "program": program,
        "seed": rec.seed,
        "description": format!("Made from a recording of {} scans: every output as the replay showed it at the end of each row.", rec.scans),
        "tests": [{ "name": name, "steps": rows }],
    })
}
