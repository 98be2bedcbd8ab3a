//! The C form of a plan (`fbd_engine::cgen`) computes what the executor computes: the same
//! state and the same number of faults after the same scans, on both synthetic shapes. (The C
//! form is the native lower bound `fbd bench --native-c` reports; a wrong one would flatter us.)

use std::process::Command;

use fbd_engine::{Runtime, cgen, compile, synth};

/// Compiles `c` with the machine's C compiler and runs `scans` scans: (checksum, faults).
fn run_c(c: &str, scans: u64, tag: &str) -> (u64, u64) {
    // Removed with its files when `dir` drops, also when an assertion fails.
    let dir = tempfile::Builder::new().prefix(&format!("fbd-cgen-{tag}-")).tempdir().expect("temp dir");
    let (src, exe) = (dir.path().join("plan.c"), dir.path().join("plan"));
    std::fs::write(&src, c).expect("write C");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out =
        Command::new(&cc).args(["-O1", "-o"]).arg(&exe).arg(&src).output().expect("a C compiler (Rust links with one)");
    assert!(out.status.success(), "{cc} rejected the generated C:\n{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(&exe).arg(scans.to_string()).output().expect("run the C program");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let f: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(f.len(), 3, "unexpected output `{text}`");
    (u64::from_str_radix(f[1], 16).expect("hex checksum"), f[2].parse().expect("fault count"))
}

#[test]
fn the_c_form_of_a_plan_computes_the_executors_state_and_faults() {
    for (shape, text) in
        [("chain", synth::diagram(600, 7)), ("wide", synth::wide(600, 7)), ("modchain", synth::mod_chain(300))]
    {
        let plan = compile(&text).expect("synthetic diagrams compile");
        let c = cgen::emit(&plan).expect("synthetic diagrams have a C form");
        for scans in [0u64, 1, 37] {
            let mut rt = Runtime::new(plan.clone());
            rt.step_n(scans);
            let want = (cgen::state_checksum(&rt.state().ints, &rt.state().bools), rt.faults().total);
            assert_eq!(run_c(&c, scans, shape), want, "{shape}, {scans} scans");
        }
    }
}

#[test]
fn a_plan_with_instructions_c_has_no_form_for_is_refused_by_name() {
    let text = r#"{"fbd": 1, "cycle_ms": 10, "inputs": [{"name": "a", "type": "INT"}],
        "outputs": [{"name": "q", "type": "INT", "from": "m.out"}],
        "blocks": [{"id": "m", "type": "MUL", "inputs": {"in1": "a", "in2": "a"}}]}"#;
    let plan = compile(text).expect("compiles");
    let err = cgen::emit(&plan).expect_err("MUL has no C form");
    assert!(err.starts_with("no C form for Mul"), "{err}");
}
