//! The layout invariants on every body of the repository (every program and every macro of
//! diagrams/ and examples/) and on generated bodies.

use std::path::Path;

use fbd_engine::load::{FsProvider, load};
use fbd_layout::check::check;
use fbd_layout::from_model::body;
use fbd_layout::layout;

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every (file, body name, body) of the repository's diagrams.
fn bodies() -> Vec<(String, String, fbd_layout::Body)> {
    let mut out = Vec::new();
    for f in
        ["diagrams/2048.json", "diagrams/2048-original.json", "diagrams/2048-smart-spawn.json", "examples/blinker.json"]
    {
        let p = load(&FsProvider, &root().join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        out.push((f.to_string(), "(program)".to_string(), body(&p, None).expect("program")));
        let mut names: Vec<&String> = p.macros.keys().collect();
        names.sort();
        for m in names {
            out.push((f.to_string(), m.clone(), body(&p, Some(m)).expect("macro")));
        }
    }
    out
}

#[test]
fn every_body_of_the_repository_is_laid_out_cleanly() {
    let mut report = Vec::new();
    for (f, name, b) in bodies() {
        let l = layout(&b);
        let bad = check(&b, &l);
        assert!(bad.is_empty(), "{f} {name}: {} violations, first: {:#?}", bad.len(), &bad[..bad.len().min(5)]);
        assert_eq!(l, layout(&b), "{f} {name}: not deterministic");
        report.push(format!(
            "{f} {name}: {} blocks, {} crossings, {} bends, length {:.0}",
            b.nodes.len(),
            l.stats.crossings,
            l.stats.bends,
            l.stats.length
        ));
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn generated_bodies_are_laid_out_cleanly() {
    use fbd_engine::load::{MemProvider, load_text};
    use fbd_reference::generate::{GenOptions, diagram};
    let opts = GenOptions { max_blocks: 40, max_macros: 3 };
    let mut bodies = 0;
    for seed in 0..150u64 {
        let text = diagram(seed, &opts);
        let p = load_text(&MemProvider::new(), "gen.json".as_ref(), text).expect("generated diagrams load");
        let mut names: Vec<Option<&str>> = vec![None];
        names.extend(p.macros.keys().map(|m| Some(m.as_str())));
        for name in names {
            let b = body(&p, name).expect("body");
            let l = layout(&b);
            let bad = check(&b, &l);
            assert!(bad.is_empty(), "seed {seed} {name:?}: {:#?}", &bad[..bad.len().min(5)]);
            bodies += 1;
        }
    }
    assert!(bodies > 300, "only {bodies} bodies");
}

#[test]
fn the_drawings_in_docs_are_fresh() {
    let file = "diagrams/2048.json";
    let p = load(&FsProvider, &root().join(file)).expect("2048 loads");
    for (name, out) in [
        (None, "program"),
        (Some("Cell"), "Cell"),
        (Some("Installation"), "Installation"),
        (Some("Random"), "Random"),
        (Some("Processing"), "Processing"),
        (Some("ProcessingMultiScan"), "ProcessingMultiScan"),
    ] {
        let b = body(&p, name).expect("body");
        let title = match name {
            Some(m) => format!("{m} ({file})"),
            None => p.root().name.clone().unwrap_or_else(|| file.to_string()),
        };
        let want = fbd_layout::svg::svg(&b, &layout(&b), &title, &fbd_layout::svg::NoValues);
        let path = root().join(format!("docs/diagrams/{out}.svg"));
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(have == want, "{} is stale: run tools/render-diagrams.sh", path.display());
        // The structure other tools rely on.
        assert_eq!(want.matches("<g class=\"block\" data-id=").count(), b.nodes.len());
        assert!(want.contains("<polyline class=\"wire") || b.edges.is_empty());
    }
}
