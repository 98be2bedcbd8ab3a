//! Inputs that once crashed, hung or ate memory: loops through pass-through ports, deep and
//! wide macro hierarchies, expansion bombs of empty macros. Each must load or fail with its
//! error, never abort.

use crate::harness::plan;
use fbd_engine::{Runtime, Value, compile};

const PASS: &str = r#"{"name": "P", "inputs": [{"name": "x", "type": "INT"}], "outputs": [{"name": "y", "type": "INT", "from": "x"}], "blocks": []}"#;

fn err(text: &str) -> String {
    compile(text).expect_err("must be rejected").to_string()
}

#[test]
fn loops_through_pass_through_ports_are_errors_not_stack_overflows() {
    let direct = format!(
        r#"{{"fbd": 1, "macros": [{PASS}], "blocks": [{{"id": "p", "type": "P", "inputs": {{"x": "p.y"}}}}]}}"#
    );
    let ring = format!(
        r#"{{"fbd": 1, "macros": [{PASS}], "blocks": [{{"id": "a", "type": "P", "inputs": {{"x": "b.y"}}}}, {{"id": "b", "type": "P", "inputs": {{"x": "a.y"}}}}]}}"#
    );
    // (The same loop closed by a feedback wire is legal: `feedback.rs`.)
    let nested = r#"{"fbd": 1, "macros": [
        {"name": "P0", "inputs": [{"name": "x", "type": "INT"}], "outputs": [{"name": "y", "type": "INT", "from": "x"}], "blocks": []},
        {"name": "P1", "inputs": [{"name": "x", "type": "INT"}], "outputs": [{"name": "y", "type": "INT", "from": "i.y"}], "blocks": [{"id": "i", "type": "P0", "inputs": {"x": "x"}}]},
        {"name": "P2", "inputs": [{"name": "x", "type": "INT"}], "outputs": [{"name": "y", "type": "INT", "from": "i.y"}], "blocks": [{"id": "i", "type": "P1", "inputs": {"x": "x"}}]}],
      "blocks": [{"id": "p", "type": "P2", "inputs": {"x": "p.y"}}]}"#;
    for (name, text) in [("direct", direct.as_str()), ("ring", &ring), ("nested", nested)] {
        let e = err(text);
        assert!(e.contains("wire loops through macro ports without reaching a block"), "{name}: {e}");
    }
}

/// `depth` macros, each holding one instance of the one below; the bottom one a NOT block (or a
/// pass-through when `pass`).
fn nested(depth: usize, pass: bool) -> String {
    let mut macros = Vec::new();
    if pass {
        macros.push(r#"{"name": "M0", "inputs": [{"name": "x", "type": "BOOL"}], "outputs": [{"name": "y", "type": "BOOL", "from": "x"}], "blocks": []}"#.to_string());
    } else {
        macros.push(r#"{"name": "M0", "inputs": [{"name": "x", "type": "BOOL"}], "outputs": [{"name": "y", "type": "BOOL", "from": "n.out"}], "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": "x"}}]}"#.to_string());
    }
    for k in 1..depth {
        macros.push(format!(
            r#"{{"name": "M{k}", "inputs": [{{"name": "x", "type": "BOOL"}}], "outputs": [{{"name": "y", "type": "BOOL", "from": "i.y"}}], "blocks": [{{"id": "i", "type": "M{}", "inputs": {{"x": "x"}}}}]}}"#,
            k - 1
        ));
    }
    format!(
        r#"{{"fbd": 1, "inputs": [{{"name": "a", "type": "BOOL"}}], "outputs": [{{"name": "y", "type": "BOOL", "from": "top.y"}}],
            "macros": [{}], "blocks": [{{"id": "top", "type": "M{}", "inputs": {{"x": "a"}}}}]}}"#,
        macros.join(","),
        depth - 1
    )
}

#[test]
fn deep_nesting_works_up_to_the_limit_and_is_refused_beyond_it() {
    for pass in [false, true] {
        let mut rt = Runtime::new(plan(&nested(250, pass)));
        rt.set_input("a", Value::Bool(true)).expect("input");
        rt.step();
        assert_eq!(rt.output("y"), Some(Value::Bool(pass)), "NOT(TRUE) at the bottom, or TRUE passed through");
    }
    // 10,000 levels once overflowed the stack.
    let e = err(&nested(10_000, false));
    assert!(e.contains("nests macros 10000 levels deep, more than the limit of 256"), "{e}");
}

#[test]
fn a_long_chain_of_pass_through_instances_resolves_without_recursion() {
    let n = 20_000;
    let mut blocks = vec![r#"{"id": "p0", "type": "P", "inputs": {"x": "a"}}"#.to_string()];
    for k in 1..n {
        blocks.push(format!(r#"{{"id": "p{k}", "type": "P", "inputs": {{"x": "p{}.y"}}}}"#, k - 1));
    }
    let text = format!(
        r#"{{"fbd": 1, "inputs": [{{"name": "a", "type": "INT"}}], "outputs": [{{"name": "y", "type": "INT", "from": "p{}.y"}}],
            "macros": [{PASS}], "blocks": [{}]}}"#,
        n - 1,
        blocks.join(",")
    );
    let mut rt = Runtime::new(plan(&text));
    rt.set_input("a", Value::Int(42)).expect("input");
    rt.step();
    assert_eq!(rt.output("y"), Some(Value::Int(42)));
}

#[test]
fn empty_macros_count_towards_the_expansion_limit() {
    // 10 instances per level, 9 levels of empty macros: 10^9 instances once expanded until
    // memory ran out because empty macros counted as 0 blocks.
    let mut macros = vec![r#"{"name": "E0", "blocks": []}"#.to_string()];
    for k in 1..10 {
        let inst: Vec<String> = (0..10).map(|j| format!(r#"{{"id": "i{j}", "type": "E{}"}}"#, k - 1)).collect();
        macros.push(format!(r#"{{"name": "E{k}", "blocks": [{}]}}"#, inst.join(",")));
    }
    let text = format!(r#"{{"fbd": 1, "macros": [{}], "blocks": [{{"id": "boom", "type": "E9"}}]}}"#, macros.join(","));
    let e = err(&text);
    assert!(e.contains("would expand to 1111111111 blocks and macro instances, more than the limit of 2000000"), "{e}");
}

#[test]
fn long_ids_in_nested_instances_cannot_ask_for_gigabytes_of_names() {
    // 1.8 million blocks and instances (under the block limit) from a 2 MB file, but each named
    // by three 1,000-character ids: 5 GB of paths before a single signal name.
    let long = |k: usize| format!("{}{k}", "x".repeat(1000));
    let m0 =
        format!(r#"{{"name": "M0", "blocks": [{{"id": "{}", "type": "NOT", "inputs": {{"in": true}}}}]}}"#, long(0));
    let inst = |n: usize, ty: &str| -> String {
        (0..n).map(|j| format!(r#"{{"id": "{}", "type": "{ty}"}}"#, long(j))).collect::<Vec<_>>().join(",")
    };
    let m1 = format!(r#"{{"name": "M1", "blocks": [{}]}}"#, inst(1000, "M0"));
    let m2 = format!(r#"{{"name": "M2", "blocks": [{}]}}"#, inst(900, "M1"));
    let text = format!(r#"{{"fbd": 1, "macros": [{m0}, {m1}, {m2}], "blocks": [{{"id": "top", "type": "M2"}}]}}"#);
    let e = err(&text);
    assert!(e.contains("the program's expanded block paths would take"), "{e}");
    assert!(e.contains(&format!("more than the limit of {}", fbd_engine::limits::MAX_PATH_BYTES)), "{e}");
    assert!(e.contains("instance `top` of `M2`"), "{e}");
}

#[test]
fn thousands_of_errors_and_loops_are_all_reported_with_their_places() {
    // Once quadratic (every error re-scanned the file for its line): each error still names
    // its own block and line.
    let n = 10_000;
    let blocks: Vec<String> = (0..n)
        .map(|i| format!("{{\"id\": \"n{i}\", \"type\": \"NOT\", \"inputs\": {{\"in\": \"nosuch{i}\"}}}}"))
        .collect();
    let e = compile(&format!("{{\"fbd\": 1, \"blocks\": [\n{}\n]}}", blocks.join(",\n"))).expect_err("bad");
    assert_eq!(e.0.len(), n);
    assert_eq!((e.0[n - 1].line, e.0[n - 1].block.as_deref()), (Some(n + 1), Some("n9999")));
    let mut blocks = Vec::new();
    for i in 0..n {
        blocks.push(format!("{{\"id\": \"a{i}\", \"type\": \"NOT\", \"inputs\": {{\"in\": \"b{i}.out\"}}}}"));
        blocks.push(format!("{{\"id\": \"b{i}\", \"type\": \"NOT\", \"inputs\": {{\"in\": \"a{i}.out\"}}}}"));
    }
    let e = compile(&format!("{{\"fbd\": 1, \"blocks\": [{}]}}", blocks.join(","))).expect_err("loops");
    assert_eq!(e.0.len(), n, "one error per loop");
    assert!(e.0[7].message.contains("loop without a feedback point: a7 -> b7 -> a7"), "{}", e.0[7]);
    // The rendering lists the first 50 and counts the rest.
    assert!(e.to_string().ends_with("... and 9950 more errors"));
}

#[test]
fn oversized_blocks_and_interfaces_are_refused_by_the_pin_limit() {
    let pins: Vec<String> = (1..=5000).map(|k| format!("\"in{k}\": true")).collect();
    let e = err(&format!(
        "{{\"fbd\": 1, \"blocks\": [{{\"id\": \"a\", \"type\": \"AND\", \"inputs\": {{{}}}}}]}}",
        pins.join(",")
    ));
    assert!(e.contains("block `a` has 5000 connected inputs, more than the limit of 4096"), "{e}");
    let ports: Vec<String> = (0..5000).map(|k| format!("{{\"name\": \"p{k}\", \"type\": \"BOOL\"}}")).collect();
    let e = err(&format!(
        "{{\"fbd\": 1, \"macros\": [{{\"name\": \"Big\", \"inputs\": [{}], \"blocks\": []}}], \"blocks\": [{{\"id\": \"b\", \"type\": \"Big\"}}]}}",
        ports.join(",")
    ));
    assert!(e.contains("macro `Big` has 5000 inputs and 0 outputs, more than the limit of 4096"), "{e}");
    // A long loop is named by its ends, on one line.
    let n = 2000;
    let chain: Vec<String> = (0..n)
        .map(|i| format!("{{\"id\": \"n{i}\", \"type\": \"NOT\", \"inputs\": {{\"in\": \"n{}.out\"}}}}", (i + 1) % n))
        .collect();
    let e = err(&format!("{{\"fbd\": 1, \"blocks\": [{}]}}", chain.join(",")));
    assert!(e.lines().next().is_some_and(|l| l.len() < 400 && l.contains("(1991 more blocks)")), "{e}");
}

mod files {
    use fbd_engine::{CompileOptions, compile_file};

    /// A scratch directory, removed with everything in it when the returned guard drops.
    fn dir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new().prefix(&format!("fbd-limits-{name}-")).tempdir().expect("temp dir")
    }

    fn check(path: &std::path::Path) -> Result<(), String> {
        compile_file(path, &CompileOptions::default()).map(|_| ()).map_err(|e| e.to_string())
    }

    #[test]
    fn devices_fifos_and_directories_are_refused_without_reading_them() {
        for p in ["/dev/zero", "/dev/urandom", "/tmp"] {
            let e = check(p.as_ref()).expect_err(p);
            assert!(
                e.contains("cannot read the diagram") && e.contains("regular file") || e.contains("directory"),
                "{p}: {e}"
            );
        }
        let guard = dir("fifo");
        let d = guard.path();
        let fifo = d.join("pipe.json");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        if made {
            // Opening a FIFO blocks until a writer comes: it must be refused before opening.
            let e = check(&fifo).expect_err("fifo");
            assert!(e.contains("not a regular file"), "{e}");
            let main = d.join("main.json");
            std::fs::write(&main, "{\"fbd\": 1,\n \"include\": [\"pipe.json\", \"/dev/zero\"]}").expect("write");
            let e = check(&main).expect_err("includes");
            assert!(
                e.contains("main.json:2:14: cannot read included file")
                    && e.contains("main.json:2:27: cannot read included file `/dev/zero`"),
                "{e}"
            );
        }
        // A /proc file reports size 0 and reads on: the read stops at the limit (or at its end).
        if std::path::Path::new("/proc/self/pagemap").exists() {
            let e = check("/proc/self/pagemap".as_ref()).expect_err("pagemap");
            assert!(
                e.contains("larger than the limit") || e.contains("not valid UTF-8") || e.contains("cannot read"),
                "{e}"
            );
        }
    }

    /// What the tools write (diagrams, exports, recordings) is replaced whole: the permissions
    /// stay, a new file gets the mode any other would, and a write that fails leaves the old
    /// file and no temporary one behind.
    #[test]
    #[cfg(unix)]
    fn a_written_file_is_replaced_whole_and_a_failed_write_leaves_nothing_behind() {
        use fbd_engine::load::write_text;
        use std::os::unix::fs::PermissionsExt;
        let guard = dir("write");
        let d = guard.path();
        let mode = |p: &std::path::Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
        std::fs::write(d.join("plain.json"), "x").expect("write");
        write_text(&d.join("new.json"), "{}").expect("a new file");
        assert_eq!(mode(&d.join("new.json")), mode(&d.join("plain.json")), "the mode any new file gets");
        std::fs::set_permissions(d.join("new.json"), std::fs::Permissions::from_mode(0o640)).expect("chmod");
        write_text(&d.join("new.json"), "{\"fbd\": 1}").expect("replaced");
        assert_eq!(std::fs::read_to_string(d.join("new.json")).expect("read"), "{\"fbd\": 1}");
        assert_eq!(mode(&d.join("new.json")), 0o640, "a replaced file keeps its permissions");
        // A directory cannot be replaced by a file: the write fails and cleans up after itself.
        std::fs::create_dir(d.join("taken")).expect("mkdir");
        let e = write_text(&d.join("taken"), "lost").expect_err("a directory is in the way").to_string();
        assert!(
            e.contains("Is a directory") && !e.contains(".fbd-write-"),
            "the system's reason, not our temporary file: {e}"
        );
        let e = write_text(&d.join("no/such/dir.json"), "lost").expect_err("no directory").to_string();
        assert!(e.starts_with("the directory ") && e.ends_with("no/such does not exist"), "{e}");
        let e = write_text(&d.join("plain.json/x.json"), "lost").expect_err("a file, not a directory").to_string();
        assert!(e.ends_with("plain.json is not a directory"), "{e}");
        let mut left: Vec<String> = std::fs::read_dir(d)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into())
            .collect();
        left.sort();
        assert_eq!(left, ["new.json", "plain.json", "taken"], "no temporary file is left");
    }

    /// `fbd fmt`, `layout --write` and Save write what the user has: through a symlink (the link
    /// stays), into both names of a hard link, never over a read-only file, keeping the owner
    /// and the mode; several files all or none.
    #[test]
    #[cfg(unix)]
    fn a_rewrite_keeps_links_owner_mode_and_read_only_files() {
        use fbd_engine::load::{write_text, write_texts};
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let guard = dir("rewrite");
        let d = guard.path();
        let read = |p: &std::path::Path| std::fs::read_to_string(p).expect("read");
        // A symlink: its target is written, the link stays a link.
        std::fs::write(d.join("real.json"), "old").expect("write");
        std::os::unix::fs::symlink("real.json", d.join("link.json")).expect("symlink");
        write_text(&d.join("link.json"), "new").expect("through the link");
        assert!(std::fs::symlink_metadata(d.join("link.json")).expect("link").file_type().is_symlink());
        assert_eq!(read(&d.join("real.json")), "new");
        // A hard link: both names see the new content.
        std::fs::hard_link(d.join("real.json"), d.join("other.json")).expect("hard link");
        write_text(&d.join("real.json"), "both").expect("in place");
        assert_eq!(read(&d.join("other.json")), "both", "the other name is the same file still");
        // A read-only file is refused and left as it is.
        std::fs::write(d.join("ro.json"), "keep").expect("write");
        std::fs::set_permissions(d.join("ro.json"), std::fs::Permissions::from_mode(0o444)).expect("chmod");
        let e = write_text(&d.join("ro.json"), "lost").expect_err("read-only").to_string();
        assert!(e.contains("is read-only (mode 444)"), "{e}");
        assert_eq!(read(&d.join("ro.json")), "keep");
        // Mode and, where this user may give it (root), another owner.
        std::fs::write(d.join("owned.json"), "x").expect("write");
        std::fs::set_permissions(d.join("owned.json"), std::fs::Permissions::from_mode(0o664)).expect("chmod");
        let root = std::fs::metadata(d.join("owned.json")).expect("meta").uid() == 0;
        if root {
            std::os::unix::fs::chown(d.join("owned.json"), Some(65534), Some(65534)).expect("chown");
        }
        let before = std::fs::metadata(d.join("owned.json")).expect("meta");
        write_text(&d.join("owned.json"), "y").expect("rewritten");
        let after = std::fs::metadata(d.join("owned.json")).expect("meta");
        assert_eq!((after.uid(), after.gid(), after.mode() & 0o7777), (before.uid(), before.gid(), 0o664));
        // All or none: a second file that cannot be written leaves the first as it was.
        std::fs::write(d.join("main.json"), "main").expect("write");
        let e = write_texts(&[(&d.join("main.json"), "changed"), (&d.join("gone/lib.json"), "lib")])
            .expect_err("no directory for the library");
        assert!(e.0.ends_with("gone/lib.json") && e.1.to_string().contains("none of the files was changed"), "{e:?}");
        assert_eq!(read(&d.join("main.json")), "main");
    }

    #[test]
    fn a_bom_is_dropped_and_a_bad_byte_has_its_line_and_column() {
        let guard = dir("utf8");
        let d = guard.path();
        let bom = d.join("bom.json");
        std::fs::write(&bom, b"\xEF\xBB\xBF{\"fbd\": 1, \"blocks\": [{\"id\": \"n\", \"type\": \"NOW\"}]}")
            .expect("write");
        check(&bom).expect("a BOM is accepted");
        let bad = d.join("bad.json");
        std::fs::write(&bad, b"{\"fbd\": 1,\n \"name\": \"caf\xE9\"}").expect("write");
        let e = check(&bad).expect_err("latin-1");
        assert!(e.contains("bad.json:2:14: byte 0xE9 is not valid UTF-8"), "{e}");
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_before_parsing() {
        let guard = dir("big");
        let d = guard.path();
        let big = d.join("big.json");
        let f = std::fs::File::create(&big).expect("create");
        f.set_len(fbd_engine::load::MAX_FILE_BYTES + 1).expect("sparse file");
        let e = check(&big).expect_err("too big");
        assert!(e.contains("larger than the limit of 256 MiB"), "{e}");
    }
}

#[test]
fn independent_mistakes_of_different_kinds_are_reported_together() {
    // A type mismatch and a loop: once only the first was shown, the loop after fixing it.
    let text = r#"{"fbd": 1, "blocks": [
      {"id": "t", "type": "TON", "inputs": {"in": true, "pt": 2.5}},
      {"id": "a", "type": "NOT", "inputs": {"in": "b.out"}},
      {"id": "b", "type": "NOT", "inputs": {"in": "a.out"}}]}"#;
    let e = compile(text).expect_err("two mistakes");
    assert_eq!(e.0.len(), 2, "{e}");
    assert!(
        e.0[0].message.contains("type mismatch") && e.0[1].message.contains("loop without a feedback point"),
        "{e}"
    );
    // An unknown pin and a recursive macro.
    let text = r#"{"fbd": 1, "macros": [{"name": "R", "blocks": [{"id": "r", "type": "R"}]}],
      "blocks": [{"id": "n", "type": "NOT", "inputs": {"in": true, "inn": false}}]}"#;
    let e = compile(text).expect_err("two mistakes");
    let all = e.to_string();
    assert!(all.contains("NOT has no input `inn`") && all.contains("recursive macro: R -> R"), "{all}");
}
