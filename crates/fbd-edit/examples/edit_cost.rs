//! What one edit costs on the 2048 program: the edit with its undo record (canonical text of
//! the changed file), and the background check (load and compile from the edited texts).
//! `cargo run --release -p fbd-edit --example edit_cost`

use std::time::Instant;

use fbd_edit::{BodyId, Workspace};

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../diagrams/2048.json");
    let project = fbd_engine::load::load(&fbd_engine::FsProvider, &path).expect("the 2048 program loads");
    let mut w = Workspace::from_project(&project);
    let cell = BodyId::Macro("Cell".into());
    let n = 200;
    let t = Instant::now();
    for k in 0..n {
        w.set_constant(&cell, "two_four", "in0", if k % 2 == 0 { "4" } else { "2" }).expect("edit");
    }
    let edit = t.elapsed().as_secs_f64() * 1e3 / n as f64;
    let t = Instant::now();
    for _ in 0..n {
        w.undo();
    }
    let undo = t.elapsed().as_secs_f64() * 1e3 / n as f64;
    let t = Instant::now();
    let checks = 50;
    for _ in 0..checks {
        w.compile().expect("compiles");
    }
    let check = t.elapsed().as_secs_f64() * 1e3 / checks as f64;
    println!(
        "2048 program (2 files, 1 edited): edit {edit:.2} ms, undo {undo:.2} ms, check (load + compile) {check:.2} ms"
    );
}
