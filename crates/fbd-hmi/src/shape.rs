//! The crate's shape, kept by tests: the application (`App`) is implemented only in the
//! composition root, and the modules do not import each other in a circle (the panels never
//! import the application; it lends them what they use, and carries out what they ask).

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::{Path, PathBuf};

    /// The files where `impl App` may stand: the composition root.
    const ROOT: [&str; 3] = ["app.rs", "commands.rs", "loading.rs"];

    fn sources() -> Vec<(PathBuf, String)> {
        fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
            let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src").flatten().map(|e| e.path()).collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&p).expect("read");
                    out.push((p, text));
                }
            }
        }
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut out = Vec::new();
        walk(&src, &mut out);
        out.into_iter().map(|(p, t)| (p.strip_prefix(&src).expect("under src").to_path_buf(), t)).collect()
    }

    /// The top-level module a file belongs to (`debugger/tree.rs` is `debugger`'s).
    fn module_of(path: &Path) -> String {
        let first = path.components().next().expect("a file").as_os_str().to_string_lossy().to_string();
        first.trim_end_matches(".rs").to_string()
    }

    /// The crate's top-level modules another file names (`crate::x`, `crate::{x, y::z}`).
    fn named_modules(text: &str) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // Names at the group's first level: `crate::{a, b::{c, d}}` names a and b.
                let (mut depth, mut start) = (0, 0);
                for (k, ch) in group.char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            names.insert(ident(group[start..k].trim()));
                            break;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            names.insert(ident(group[start..k].trim()));
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
            } else {
                names.insert(ident(rest));
            }
        }
        names.remove("");
        names
    }

    #[test]
    fn the_application_is_implemented_only_in_the_composition_root() {
        let outside: Vec<String> = sources()
            .iter()
            .filter(|(p, t)| t.contains("\nimpl App {") && !ROOT.iter().any(|r| Path::new(r) == p.as_path()))
            .map(|(p, _)| p.display().to_string())
            .collect();
        assert!(outside.is_empty(), "`impl App` outside {ROOT:?}: {outside:?} (a panel's window is its own method)");
    }

    #[test]
    fn no_module_imports_another_in_a_circle() {
        let files = sources();
        let modules: BTreeSet<String> =
            files.iter().map(|(p, _)| module_of(p)).filter(|m| m != "lib" && m != "shape").collect();
        // The composition root is one node: its files are one application split by concern.
        let node = |m: &str| if ROOT.contains(&format!("{m}.rs").as_str()) { "app".to_string() } else { m.to_string() };
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (p, text) in &files {
            let from = node(&module_of(p));
            if !modules.contains(&module_of(p)) {
                continue;
            }
            for to in named_modules(text).into_iter().filter(|m| modules.contains(m)).map(|m| node(&m)) {
                if to != from {
                    edges.entry(from.clone()).or_default().insert(to);
                }
            }
        }
        // A depth-first search that reports the first circle it walks into.
        fn visit(
            m: &str,
            edges: &BTreeMap<String, BTreeSet<String>>,
            done: &mut BTreeSet<String>,
            path: &mut Vec<String>,
        ) -> Option<Vec<String>> {
            if let Some(k) = path.iter().position(|p| p == m) {
                let mut circle = path[k..].to_vec();
                circle.push(m.to_string());
                return Some(circle);
            }
            if done.contains(m) {
                return None;
            }
            path.push(m.to_string());
            for next in edges.get(m).into_iter().flatten() {
                if let Some(c) = visit(next, edges, done, path) {
                    return Some(c);
                }
            }
            path.pop();
            done.insert(m.to_string());
            None
        }
        let mut done = BTreeSet::new();
        for m in edges.keys() {
            let circle = visit(m, &edges, &mut done, &mut Vec::new());
            assert!(
                circle.is_none(),
                "modules import each other in a circle: {}",
                circle.unwrap_or_default().join(" -> ")
            );
        }
        // The guard sees imports at all: the application imports the panels.
        assert!(edges["app"].contains("debugger") && edges["app"].contains("diagram"), "{edges:?}");
    }

    #[test]
    fn named_modules_reads_single_and_grouped_paths() {
        let text = "use crate::a::B;\nuse crate::{c, d::{E, F}};\nlet x = crate::g::h();";
        let names: Vec<String> = named_modules(text).into_iter().collect();
        assert_eq!(names, ["a", "c", "d", "g"]);
    }
}
