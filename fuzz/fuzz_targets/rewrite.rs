//! Arbitrary bytes as a diagram rewritten by `fbd fmt` and `fbd layout --write` (the texts they
//! write, not the files): a text that loads is rewritten into one that loads again, the
//! canonical form is a fixed point, and the program compiles and runs the same before and
//! after (or is refused the same).
#![no_main]

use std::path::Path;

use fbd_engine::load::{MemProvider, Project, load_text};
use fbd_engine::{CompileOptions, Runtime, compile_project};
use libfuzzer_sys::fuzz_target;

/// What a program is, as far as a rewrite must keep it: its plan's fingerprint and its
/// outputs over a few scans, or the compiler's refusal.
fn behaviour(p: &Project) -> Result<(u64, Vec<String>), String> {
    let plan = compile_project(p, &CompileOptions::default()).map_err(|e| e.to_string())?;
    let fp = plan.fingerprint;
    let mut rt = Runtime::new(plan);
    let mut seen = Vec::new();
    for _ in 0..8 {
        rt.step();
        seen.push(rt.outputs().iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(","));
    }
    Ok((fp, seen))
}

fn load(text: String) -> Project {
    load_text(&MemProvider::new(), Path::new("fuzz.json"), text).expect("a rewrite loads")
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if text.len() > 20_000 {
        return;
    }
    let Ok(project) = load_text(&MemProvider::new(), Path::new("fuzz.json"), text.to_string()) else { return };
    let before = behaviour(&project).ok();
    // `fbd fmt`: canonical text, a fixed point.
    let canonical = fbd_edit::format::to_text(&project.files[0].doc);
    let formatted = load(canonical.clone());
    assert_eq!(fbd_edit::format::to_text(&formatted.files[0].doc), canonical, "fmt is idempotent");
    if let Some(b) = &before {
        assert_eq!(behaviour(&formatted).ok().as_ref(), Some(b), "fmt changed the program");
    }
    // `fbd layout --write`: positions only.
    for (path, moved) in fbd_layout::from_model::with_positions(&project) {
        assert_eq!(path, project.files[0].path, "only the program's file");
        let laid = load(moved);
        if let Some(b) = &before {
            assert_eq!(behaviour(&laid).ok().as_ref(), Some(b), "layout changed the program");
        }
    }
});
