//! Invariants stated in ARCHITECTURE.md, checked: generated files are fresh, the engine has no
//! GUI dependency, every example and diagram compiles, the architecture map names every crate.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(p: impl AsRef<Path>) -> String {
    let p = root().join(p);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_committed_schema_is_generated_from_the_types() {
    assert!(
        read("schema/diagram.schema.json") == fbd_engine::model::json_schema(),
        "schema/diagram.schema.json is stale: run `cargo run -p fbd-cli --bin fbd -- schema > schema/diagram.schema.json`"
    );
}

#[test]
fn the_block_reference_is_generated_from_the_library() {
    assert!(
        read("docs/blocks.md") == fbd_engine::library::markdown(),
        "docs/blocks.md is stale: run `cargo run -p fbd-cli --bin fbd -- blocks --markdown > docs/blocks.md`"
    );
}

/// The engine's crates, in pipeline order, with the engine crates each may depend on: a stage
/// sees only the stages before it (the VM runs a plan; it never compiles one).
const ENGINE_CRATES: [(&str, &[&str]); 8] = [
    ("fbd-model", &[]),
    ("fbd-plan", &["fbd-model"]),
    ("fbd-st", &["fbd-model"]),
    ("fbd-compiler", &["fbd-model", "fbd-plan", "fbd-st"]),
    ("fbd-vm", &["fbd-model", "fbd-plan"]),
    ("fbd-codegen", &["fbd-model", "fbd-plan", "fbd-vm"]),
    ("fbd-realtime", &["fbd-model", "fbd-plan", "fbd-vm"]),
    ("fbd-engine", &["fbd-model", "fbd-plan", "fbd-compiler", "fbd-vm", "fbd-codegen", "fbd-realtime"]),
];

#[test]
fn the_engine_depends_on_no_gui_crate() {
    for (krate, _) in ENGINE_CRATES {
        let deps = dependencies(&read(format!("crates/{krate}/Cargo.toml")));
        for gui in ["egui", "eframe", "winit", "wgpu", "glow", "rfd"] {
            assert!(!deps.iter().any(|d| d.starts_with(gui)), "{krate} depends on {gui}");
        }
    }
}

#[test]
fn each_pipeline_stage_depends_only_on_the_stages_before_it() {
    for (krate, allowed) in ENGINE_CRATES {
        let deps = dependencies(&read(format!("crates/{krate}/Cargo.toml")));
        for d in deps.iter().filter(|d| d.starts_with("fbd")) {
            assert!(allowed.contains(&d.as_str()), "{krate} depends on {d}, which is not a stage before it");
        }
    }
}

/// The reference evaluator is a second reading of the blocks: it may share the model and the
/// plan's definitions (faults, the RANDOM stream) and read the compiler's netlist, never run the
/// executor it checks. Only `diff.rs`, the comparison, runs both.
#[test]
fn the_reference_evaluator_never_uses_the_executor() {
    for file in ["eval.rs", "strings.rs", "generate.rs"] {
        let text = read(format!("crates/fbd-reference/src/{file}"));
        for executor in ["fbd_engine", "fbd_vm", "fbd_realtime"] {
            assert!(!text.contains(executor), "crates/fbd-reference/src/{file} uses {executor}");
        }
    }
}

#[test]
fn the_reference_rules_do_not_depend_on_the_engine() {
    let manifest = read("crates/ref2048/Cargo.toml");
    assert!(!manifest.contains("fbd-engine"), "ref2048 must stay independent of the engine it judges");
}

#[test]
fn the_architecture_map_names_every_crate() {
    let arch = read("ARCHITECTURE.md");
    for entry in std::fs::read_dir(root().join("crates")).expect("crates/") {
        let name = entry.expect("entry").file_name().to_string_lossy().to_string();
        assert!(arch.contains(&format!("crates/{name}")), "ARCHITECTURE.md does not mention crates/{name}");
    }
}

#[test]
fn every_example_and_diagram_compiles() {
    let mut n = 0;
    for dir in ["examples", "diagrams"] {
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else { continue };
        for e in entries {
            let p = e.expect("entry").path();
            // Test tables (`*.test.json`) sit beside the diagrams they test.
            if p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().ends_with(".test.json") {
                fbd_engine::compile_file(&p, &Default::default()).unwrap_or_else(|e| panic!("{}:\n{e}", p.display()));
                n += 1;
            }
        }
    }
    assert!(n >= 1, "no diagram found");
}

/// The compiler's three ways in give one plan: a project of `Block`s lent (`compile_project`,
/// the editor's) or given (`compile_project_owned`: bodies dropped after expansion, texts before
/// emission), and a file read lean (`compile_file`: blocks never held as `Block`s). Errors
/// found after expansion must still point into the text.
#[test]
fn compiling_an_owned_project_gives_the_same_plan() {
    use fbd_engine::load::{FsProvider, MemProvider, load, load_text};
    use fbd_engine::{CompileOptions, compile, compile_file, compile_project, compile_project_owned};
    let opts = CompileOptions::default();
    let sig = |p: &fbd_engine::ScanPlan| p.signals.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>();
    let blocks = |p: &fbd_engine::ScanPlan| p.blocks.iter().map(|b| format!("{b:?}")).collect::<Vec<_>>();
    let same = |a: &fbd_engine::ScanPlan, b: &fbd_engine::ScanPlan, what: &str| {
        assert_eq!(a.fingerprint, b.fingerprint, "{what}");
        assert_eq!(a.listing(), b.listing(), "{what}");
        assert_eq!(sig(a), sig(b), "{what}");
        assert_eq!(blocks(a), blocks(b), "{what}");
    };
    for file in ["diagrams/2048.json", "diagrams/2048-original.json", "diagrams/2048-smart-spawn.json"] {
        let path = root().join(file);
        let borrowed = compile_project(&load(&FsProvider, &path).expect("loads"), &opts).expect("compiles");
        let owned = compile_project_owned(load(&FsProvider, &path).expect("loads"), &opts).expect("compiles");
        let lean = compile_file(&path, &opts).expect("compiles");
        same(&borrowed, &owned, file);
        same(&borrowed, &lean, file);
    }
    // A version-1 file is migrated as it is read, block by block when read lean: renamed
    // conversions, widened data types, timer presets in ms become TIMEs.
    let v1 = r#"{"fbd": 1, "inputs": [{"name": "x", "type": "INT"}], "blocks": [
      {"id": "c", "type": "INT_TO_REAL", "inputs": {"in": "x"}},
      {"id": "m", "type": "MOVE", "data_type": "INT", "inputs": {"in": "x"}},
      {"id": "t", "type": "TON", "inputs": {"in": true, "pt": 500}}]}"#;
    let lean = compile(v1).expect("compiles");
    let blocky = compile_project(&load_text(&MemProvider::new(), "<memory>".as_ref(), v1.into()).unwrap(), &opts)
        .expect("compiles");
    same(&blocky, &lean, "version 1");
    assert!(lean.blocks.iter().any(|b| b.type_name == "LINT_TO_LREAL"), "{:?}", blocks(&lean));
    // A type error is found after expansion, when the owned project's bodies are gone.
    let text = "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"a\", \"type\": \"AND\", \"inputs\": {\"in1\": true, \"in2\": 3.5}}\n]}";
    let owned = compile_project_owned(load_text(&MemProvider::new(), "t.json".as_ref(), text.into()).unwrap(), &opts)
        .expect_err("a REAL on a BOOL pin");
    let borrowed =
        compile_project(&load_text(&MemProvider::new(), "t.json".as_ref(), text.into()).unwrap(), &opts).unwrap_err();
    assert_eq!(owned.to_string(), borrowed.to_string());
    assert_eq!(owned.0[0].line, Some(2), "{owned}");
}

/// The crates a `Cargo.toml` depends on (its `[dependencies]`, not the dev ones).
fn dependencies(manifest: &str) -> std::collections::BTreeSet<String> {
    let mut in_deps = false;
    let mut out = std::collections::BTreeSet::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
        } else if in_deps
            && let Some(name) = line.split(['=', '.', ' ']).next().filter(|n| !n.is_empty() && !n.starts_with('#'))
        {
            out.insert(name.to_string());
        }
    }
    out
}

/// ARCHITECTURE.md's crate table names each crate's dependencies as its Cargo.toml has them
/// (it had drifted: tempfile, serde_json, players, mimalloc were missing from it).
#[test]
fn the_architecture_table_names_every_crate_s_dependencies() {
    let arch = read("ARCHITECTURE.md");
    let mut manifests: Vec<(String, String)> = vec![("root package `fbd2048`".into(), read("Cargo.toml"))];
    for entry in std::fs::read_dir(root().join("crates")).expect("crates/") {
        let dir = entry.expect("entry").path();
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        manifests.push((format!("`crates/{name}`"), read(format!("crates/{name}/Cargo.toml"))));
    }
    let every: std::collections::BTreeSet<String> = manifests.iter().flat_map(|(_, m)| dependencies(m)).collect();
    for (row, manifest) in &manifests {
        let line = arch
            .lines()
            .find(|l| l.starts_with(&format!("| {row} |")))
            .unwrap_or_else(|| panic!("ARCHITECTURE.md's crate table has no row {row}"));
        let column = line.trim_end_matches('|').rsplit('|').next().unwrap_or_default();
        let named: std::collections::BTreeSet<String> = column
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .filter(|w| every.contains(*w))
            .map(str::to_string)
            .collect();
        assert_eq!(
            named,
            dependencies(manifest),
            "ARCHITECTURE.md's row {row} names other dependencies than its Cargo.toml"
        );
    }
}

/// Front ends never hold the runtime: they read the scan image the task publishes and send
/// requests through its queue (`RealtimeRunner::call`/`send`). `RealtimeRunner::with` takes
/// the runtime's lock; only tests and tools that own the runner may call it.
#[test]
fn front_ends_send_requests_and_never_take_the_runtime_s_lock() {
    let mut checked = 0;
    // Every file, in the crates' folders too (the HMI's panels are in debugger/, diagram/...).
    let mut files = Vec::new();
    let mut dirs: Vec<std::path::PathBuf> = ["crates/fbd-hmi/src", "crates/fbd-tui/src", "crates/fbd2048-game/src"]
        .iter()
        .map(|d| root().join(d))
        .collect();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    for path in files {
        let text = read(&path);
        // Unit tests below `#[cfg(test)]` drive a runner of their own.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in code.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("//") {
                continue;
            }
            assert!(
                !(t.contains("runner.with(") || t.contains(".with(|rt|")),
                "{}:{}: a front end takes the runtime's lock: {t}",
                path.display(),
                n + 1
            );
        }
        checked += 1;
    }
    assert!(checked > 45, "only {checked} front-end files found");
}

/// The README's test command works in a root shell without sudo (a container, a CI image): it
/// is `tools/test.sh`, which `.ci/run` calls too and which runs apt-get through sudo only when
/// the shell is not root (the command began with `sudo` and failed at its first word there).
#[test]
fn the_readme_test_command_is_the_one_ci_runs_and_needs_no_sudo() {
    let readme = read(root().join("README.md"));
    assert!(readme.contains("\n    tools/test.sh\n"), "README's test command is tools/test.sh");
    let ci = read(root().join(".ci/run"));
    assert!(ci.lines().any(|l| l.trim_start().starts_with("tools/test.sh")), ".ci/run calls tools/test.sh");
    let script = read(root().join("tools/test.sh"));
    for l in script.lines().filter(|l| !l.trim_start().starts_with('#')) {
        assert!(!l.trim_start().starts_with("sudo "), "an unconditional sudo in tools/test.sh: {l}");
    }
    assert!(script.contains("cargo test --workspace"), "it runs the tests");
}
