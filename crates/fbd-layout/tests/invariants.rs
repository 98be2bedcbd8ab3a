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

/// The repository's diagrams with stored positions.
const DIAGRAMS: [&str; 5] = [
    "diagrams/2048.json",
    "diagrams/2048-original.json",
    "diagrams/2048-smart-spawn.json",
    "examples/blinker.json",
    "examples/tank.json",
];

/// Every (file, body name, body) of the repository's diagrams.
fn bodies() -> Vec<(String, String, fbd_layout::Body)> {
    let mut out = Vec::new();
    for f in DIAGRAMS {
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
        let mut bad = check(&b, &l);
        bad.extend(fbd_layout::check::ids_clear(&b, &l));
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
fn the_author_s_connectors_are_drawn_as_labels_with_their_names() {
    let p = load(&FsProvider, &root().join("examples/tank.json")).expect("loads");
    let b = body(&p, None).expect("program");
    let l = layout(&b);
    let mut names: Vec<(&str, usize)> = l.connectors.iter().map(|c| (c.label.as_str(), c.targets.len())).collect();
    names.sort();
    assert_eq!(names, [("is_high", 1), ("is_low", 2), ("run", 2)]);
    // No wire runs from a connector's source to a continuation's reader.
    for c in &l.connectors {
        for n in l.nets.iter().filter(|n| n.source == c.source) {
            assert!(n.targets.iter().all(|t| !c.targets.contains(t)), "{}: drawn as a wire too", c.label);
        }
    }
    // Wires remain for level, enable, fill.q1, starved.out and alarm.q; the output port `pump`
    // reads a continuation.
    assert_eq!(l.nets.len(), 5, "{:#?}", l.nets.iter().map(|n| n.source).collect::<Vec<_>>());
    assert!(l.connectors.iter().any(|c| c.label == "run" && c.targets.contains(&fbd_layout::Target::Port(0))));
}

/// A connector's tag takes room only in the channel after its source's column: the other
/// channels stay as narrow as their wires need (a long name widened every channel).
#[test]
fn a_connector_tag_widens_only_the_channel_after_its_source() {
    use fbd_engine::load::{MemProvider, load_text};
    let text = r#"{"fbd": 3, "inputs": [{"name": "x", "type": "INT"}], "blocks": [
      {"id": "a", "type": "MOVE", "inputs": {"in": "x"}},
      {"id": "b", "type": "MOVE", "inputs": {"in": "a.out"}},
      {"id": "c", "type": "MOVE", "inputs": {"in": "b.out"}},
      {"id": "d", "type": "ADD", "inputs": {"in1": "c.out", "in2": {"connector": "a_rather_long_connector_name"}}}],
      "connectors": [{"name": "a_rather_long_connector_name", "from": "a.out"}]}"#;
    let p = load_text(&MemProvider::new(), "t.json".as_ref(), text.into()).expect("loads");
    let b = body(&p, None).expect("program");
    let l = layout(&b);
    assert!(check(&b, &l).is_empty(), "{:?}", check(&b, &l));
    let x = |id: &str| l.blocks[b.nodes.iter().position(|n| n.id == id).expect("a block")].x;
    let tag = fbd_layout::tag_width("a_rather_long_connector_name");
    assert!(x("b") - x("a") > tag, "the tag's channel holds it: {} {}", x("a"), x("b"));
    assert!(x("c") - x("b") < tag, "a channel without a tag is not widened: {} {}", x("b"), x("c"));
}

/// Printed on A4 with 8-point text, every page of the 2048 top level is cut into sheets no
/// larger than the paper, only between blocks: each block is whole on one sheet.
#[test]
fn pages_printed_on_sheets_keep_every_block_whole() {
    use fbd_layout::sheets::{A4_POINTS, CAPTION_UNITS, TEXT_UNITS, a4_sheets};
    let p = load(&FsProvider, &root().join("diagrams/2048.json")).expect("loads");
    let b = body(&p, None).expect("program");
    let pos = fbd_layout::from_model::positions(&p, None);
    for (title, nodes) in fbd_layout::from_model::pages(&p, None) {
        let (page, back) = fbd_layout::page::page_body(&b, &nodes);
        let l = fbd_layout::layout_kept(&page, &fbd_layout::page::page_positions(&pos, &back));
        let sheets = a4_sheets(&page, &l, 8.0);
        let (pw, ph) = if sheets.portrait { (A4_POINTS.1, A4_POINTS.0) } else { A4_POINTS };
        let (w, h) = (pw * TEXT_UNITS / 8.0, ph * TEXT_UNITS / 8.0 - CAPTION_UNITS);
        for s in sheets.list.iter().map(|s| s.part) {
            assert!(s.w <= w + 1e-6 && s.h <= h + 1e-6, "{title}: a sheet of {} × {} units", s.w, s.h);
        }
        for (k, r) in l.blocks.iter().enumerate() {
            let whole = sheets
                .list
                .iter()
                .map(|s| s.part)
                .filter(|s| r.x >= s.x && r.x + r.w <= s.x + s.w && r.y >= s.y && r.y + r.h <= s.y + s.h)
                .count();
            assert_eq!(whole, 1, "{title}: block {} is not whole on one sheet", page.nodes[k].id);
        }
    }
}

#[test]
fn generated_bodies_are_laid_out_cleanly() {
    use fbd_engine::load::{MemProvider, load_text};
    use fbd_reference::generate::{GenOptions, diagram};
    let opts = GenOptions { max_blocks: 40, max_macros: 3, iec_only: false };
    let mut bodies = 0;
    for seed in 0..150u64 {
        let text = diagram(seed, &opts);
        let p = load_text(&MemProvider::new(), "gen.json".as_ref(), text).expect("generated diagrams load");
        let mut names: Vec<Option<&str>> = vec![None];
        names.extend(p.macros.keys().map(|m| Some(m.as_str())));
        for name in names {
            let b = body(&p, name).expect("body");
            let l = layout(&b);
            let mut bad = check(&b, &l);
            bad.extend(fbd_layout::check::ids_clear(&b, &l));
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
        // The top level with its long nets as connector pairs, as the online view draws it.
        let opts = match name {
            None => fbd_layout::Options::default().with_connectors(fbd_layout::ConnectorRule::DEFAULT),
            Some(_) => fbd_layout::Options::default(),
        };
        let kept = fbd_layout::layout_kept_with(&b, &fbd_layout::from_model::positions(&p, name), &opts);
        let want = fbd_layout::svg::svg(&b, &kept, &title, &fbd_layout::svg::NoValues);
        let path = root().join(format!("docs/diagrams/{out}.svg"));
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(have == want, "{} is stale: run tools/render-diagrams.sh", path.display());
        // The structure other tools rely on.
        assert_eq!(want.matches("<g class=\"block\" data-id=").count(), b.nodes.len());
        assert!(want.contains("<polyline class=\"wire") || b.edges.is_empty());
    }
    // The top level's pages, each as `fbd svg --page K` draws it.
    let b = body(&p, None).expect("program");
    let pos = fbd_layout::from_model::positions(&p, None);
    let pages = fbd_layout::from_model::pages(&p, None);
    assert!(pages.len() >= 4, "the design's quarters: {pages:?}");
    for (k, (title, nodes)) in pages.iter().enumerate() {
        let (page, back) = fbd_layout::page::page_body(&b, nodes);
        let page_pos = fbd_layout::page::page_positions(&pos, &back);
        let l = fbd_layout::layout_kept(&page, &page_pos);
        let name = p.root().name.clone().unwrap_or_default();
        let want = fbd_layout::svg::svg(&page, &l, &format!("{name}, page {title}"), &fbd_layout::svg::NoValues);
        let path = root().join(format!("docs/diagrams/program-page-{}.svg", k + 1));
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(have == want, "{} is stale: run tools/render-diagrams.sh", path.display());
    }
}

#[test]
fn the_stored_positions_of_the_repository_are_the_layouts_and_are_kept() {
    for f in DIAGRAMS {
        let p = load(&FsProvider, &root().join(f)).expect("loads");
        let stale: Vec<String> = fbd_layout::from_model::with_positions(&p)
            .into_iter()
            .map(|(path, _)| path.display().to_string())
            .collect();
        assert!(stale.is_empty(), "positions are stale in {stale:?}: run `fbd layout {f} --write`");
        let mut names: Vec<Option<&str>> = vec![None];
        names.extend(p.macros.keys().map(|m| Some(m.as_str())));
        for name in names {
            let b = body(&p, name).expect("body");
            let pos = fbd_layout::from_model::positions(&p, name);
            let pages = fbd_layout::from_model::pages(&p, name);
            if pages.is_empty() {
                kept_as_laid_out(&format!("{f} {name:?}"), &b, &pos);
            }
            // A body on pages is laid out page by page: each page keeps its own drawing.
            for (title, nodes) in pages {
                let (page, back) = fbd_layout::page::page_body(&b, &nodes);
                let page_pos = fbd_layout::page::page_positions(&pos, &back);
                kept_as_laid_out(&format!("{f} {name:?} page {title}"), &page, &page_pos);
            }
        }
    }
}

/// `pos` (stored positions of `b`'s blocks) are on the editor's grid, lay `b` out cleanly, and
/// are where the automatic layout puts the blocks (same rows and column order).
fn kept_as_laid_out(what: &str, b: &fbd_layout::Body, pos: &[Option<[f64; 2]>]) {
    // On the grid the editor snaps to: a block moved by hand lines up with these.
    for q in pos.iter().flatten() {
        assert_eq!(fbd_layout::snap(*q), *q, "{what}: {q:?} is off the editor's grid");
    }
    let kept = fbd_layout::layout_kept(b, pos);
    let mut bad = check(b, &kept);
    // The online view draws these: no wire through a block's id (the Cell's `write` and
    // `choice3`, Processing's `s1_nz3` had one).
    bad.extend(fbd_layout::check::ids_clear(b, &kept));
    assert!(bad.is_empty(), "{what} kept: {:#?}", &bad[..bad.len().min(5)]);
    // Stored positions that came from the layout give its rows and columns back (the
    // channels' widths may differ where ports and wires are ordered anew).
    let auto = layout(b);
    for i in 0..b.nodes.len() {
        let rel = |l: &fbd_layout::Layout| l.blocks[i].y - l.blocks[0].y;
        assert_eq!(rel(&kept), rel(&auto), "{what} block {}", b.nodes[i].id);
        for j in 0..b.nodes.len() {
            let same = |l: &fbd_layout::Layout| l.blocks[i].x.total_cmp(&l.blocks[j].x);
            assert_eq!(same(&kept), same(&auto), "{what}: columns of {} and {}", b.nodes[i].id, b.nodes[j].id);
        }
    }
}

#[test]
fn positions_a_user_moved_are_kept_in_columns_and_rows() {
    let p = load(&FsProvider, &root().join("diagrams/2048.json")).expect("loads");
    let b = body(&p, Some("Cell")).expect("Cell");
    let mut pos = fbd_layout::from_model::positions(&p, Some("Cell"));
    // Move `done` far down, below every other block of its column.
    let i = b.nodes.iter().position(|n| n.id == "done").expect("done");
    let [x, _] = pos[i].expect("stored");
    pos[i] = Some([x, 2000.0]);
    let l = fbd_layout::layout_kept(&b, &pos);
    assert!(check(&b, &l).is_empty());
    let below = b
        .nodes
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i && l.blocks[*j].x == l.blocks[i].x)
        .all(|(j, _)| l.blocks[j].y < l.blocks[i].y);
    assert!(below, "the moved block stays in its column, below the others");
}

/// The online view draws a program where the editor has it: a column the user moved right (with
/// room to spare for its wires) keeps its distance to the others, and the columns the user did
/// not touch do not move. (They were re-packed as tightly as the wires allowed, so blocks the
/// user never moved stood 40-120 units left of where the editor showed them.)
#[test]
fn columns_keep_their_stored_distances() {
    let p = load(&FsProvider, &root().join("examples/blinker.json")).expect("loads");
    let b = body(&p, None).expect("program");
    let mut pos = fbd_layout::from_model::positions(&p, None);
    let i = b.nodes.iter().position(|n| n.id == "fast").expect("fast");
    let [x, y] = pos[i].expect("stored");
    pos[i] = Some([x + 800.0, y]);
    let kept = fbd_layout::layout_kept(&b, &pos);
    assert!(check(&b, &kept).is_empty());
    let free = fbd_layout::layout_free(&b, &pos);
    let first = (0..b.nodes.len()).min_by(|&a, &c| pos[a].unwrap()[0].total_cmp(&pos[c].unwrap()[0])).unwrap();
    for j in 0..b.nodes.len() {
        let from_first = |l: &fbd_layout::Layout| l.blocks[j].x - l.blocks[first].x;
        assert_eq!(from_first(&kept), from_first(&free), "block {} online and in the editor", b.nodes[j].id);
    }
    // Columns closer than their wires need still move apart: no block overlaps a channel.
    let mut tight = fbd_layout::from_model::positions(&p, None);
    for q in tight.iter_mut().flatten() {
        q[0] /= 4.0;
    }
    let l = fbd_layout::layout_kept(&b, &tight);
    assert!(check(&b, &l).is_empty(), "{:#?}", check(&b, &l));
}

/// The editor's drawing (blocks where they are stored, wires routed freely) of the example and
/// of the 2048 macros: no wire through a block, and no two nets along one stretch of wire (they
/// read as one signal). Wires back to the left went two pitches over their higher end, through
/// any taller block on the way, and wires of different nets shared runs: the Installation macro
/// drew 74 shared pieces, the Cell 11. The 2048 top level (218 nets among 156 blocks) and the
/// multi-scan Processing are too dense for every net to have a run of its own; they share the
/// least they can.
#[test]
fn the_editors_drawing_keeps_wires_out_of_blocks_and_apart() {
    for (file, bodies) in [
        ("examples/blinker.json", vec![None, Some("Blinker")]),
        ("diagrams/2048.json", vec![Some("Cell"), Some("Installation"), Some("Random"), Some("Processing")]),
    ] {
        let p = load(&FsProvider, &root().join(file)).expect("loads");
        for name in bodies {
            let b = body(&p, name).expect("body");
            let pos = fbd_layout::from_model::positions(&p, name);
            assert!(pos.iter().all(Option::is_some), "{file} {name:?}: every block has a stored position");
            let l = fbd_layout::layout_free(&b, &pos);
            let bad: Vec<String> =
                check(&b, &l).into_iter().filter(|e| e.contains("share") || e.contains("through")).collect();
            assert!(bad.is_empty(), "{file} {name:?}:\n{}", bad.join("\n"));
        }
    }
}

/// A block's comment travels with it into the drawing: the body carries it, and the SVG gives
/// it as the block's title (a browser shows it on hover).
#[test]
fn comments_reach_the_drawing() {
    let p = load(&FsProvider, &root().join("diagrams/2048.json")).expect("loads");
    let b = body(&p, Some("Cell")).expect("Cell");
    let n = b.nodes.iter().find(|n| n.id == "two_four").expect("two_four");
    assert_eq!(n.comment.as_deref(), Some("Choice 1: a two or a four"));
    let svg = fbd_layout::svg::svg(&b, &layout(&b), "Cell", &fbd_layout::svg::NoValues);
    assert!(svg.contains("<title>two_four: Choice 1: a two or a four</title>"), "the SVG names it");
}

/// Laid out for an online view (the HMI's Diagram tab, `fbd svg` with values), every body of the
/// repository and of the generator keeps the room beside each output pin free of other nets'
/// wires, and stays clean otherwise. A wire of another net ran up or down right beside an output
/// (in the blinker, `start` on its way to `slow.reset` passed under `slow_en.out`'s value): under
/// the value box it read as a branch of that output.
#[test]
fn wires_keep_clear_of_the_values_beside_the_pins() {
    use fbd_engine::load::{MemProvider, load_text};
    use fbd_layout::check::value_room;
    use fbd_layout::{Options, layout_kept_with, layout_with};
    let opts = Options::WITH_VALUES;
    let mut checked = 0;
    let mut clean = |what: String, b: &fbd_layout::Body, l: &fbd_layout::Layout| {
        let mut bad = check(b, l);
        bad.extend(value_room(b, l, opts.value_room));
        assert!(bad.is_empty(), "{what}: {} violations, first: {:#?}", bad.len(), &bad[..bad.len().min(5)]);
        checked += 1;
    };
    for f in DIAGRAMS {
        let p = load(&FsProvider, &root().join(f)).expect("loads");
        let mut names: Vec<Option<&str>> = vec![None];
        names.extend(p.macros.keys().map(|m| Some(m.as_str())));
        for name in names {
            let b = body(&p, name).expect("body");
            let pos = fbd_layout::from_model::positions(&p, name);
            clean(format!("{f} {name:?} kept"), &b, &layout_kept_with(&b, &pos, &opts));
            clean(format!("{f} {name:?}"), &b, &layout_with(&b, &opts));
        }
    }
    let gen_opts = fbd_reference::generate::GenOptions { max_blocks: 40, max_macros: 3, iec_only: false };
    for seed in 0..60u64 {
        let text = fbd_reference::generate::diagram(seed, &gen_opts);
        let p = load_text(&MemProvider::new(), "gen.json".as_ref(), text).expect("generated diagrams load");
        let b = body(&p, None).expect("body");
        clean(format!("generated seed {seed}"), &b, &layout_with(&b, &opts));
    }
    assert!(checked >= 100, "only {checked} layouts");
}

/// Positions far outside any drawing (a hand-edited file; the editor opens files that do not load,
/// to mend them) are laid out as if absent, and positions at the loader's limit are kept: no
/// overflow (1e300 became rows past `i64::MAX`, a panic in a debug build and a drawing 10^301
/// units long in a release build), and the invariants hold.
#[test]
fn positions_outside_the_drawing_are_ignored_and_those_at_the_limit_kept() {
    let p = load(&FsProvider, &root().join("examples/blinker.json")).expect("loads");
    let b = body(&p, None).expect("program");
    let stored = fbd_layout::from_model::positions(&p, None);
    let max = fbd_engine::limits::MAX_POS;
    for wild in [[1e300, 1e300], [-1e300, 5.0], [f64::NAN, 0.0], [f64::INFINITY, 0.0], [max, -max], [-max, max]] {
        let mut pos = stored.clone();
        pos[0] = Some(wild);
        for (what, l) in [("kept", fbd_layout::layout_kept(&b, &pos)), ("free", fbd_layout::layout_free(&b, &pos))] {
            // The editor draws a block at a negative position where it is (left of or above
            // the others); only the layered layout promises a drawing from (0, 0).
            let bad: Vec<String> =
                check(&b, &l).into_iter().filter(|e| what == "kept" || !e.contains("leaves the drawing")).collect();
            assert!(bad.is_empty(), "{what} {wild:?}: {:#?}", &bad[..bad.len().min(3)]);
            assert!(l.width <= 4.0 * max && l.height <= 4.0 * max, "{what} {wild:?}: {} × {}", l.width, l.height);
        }
        let free = fbd_layout::layout_free(&b, &pos);
        let usable = wild.iter().all(|c| c.abs() <= max);
        assert_eq!(free.blocks[0].x == wild[0], usable, "{wild:?}: the editor keeps a usable position, and only that");
    }
}

/// A negated pin reaches the drawing as IEC 61131-3's circle, just outside the block's edge,
/// and an input's constant stands beyond the circle (not under it).
#[test]
fn a_negated_pin_is_drawn_with_a_circle() {
    let text = r#"{"fbd": 1, "inputs": [{"name": "a", "type": "BOOL"}],
      "outputs": [{"name": "y", "type": "BOOL", "from": "g.out"}],
      "blocks": [{"id": "g", "type": "AND", "inputs": {"in1": "a", "in2": true, "in3": "a"}, "negated": ["in2", "in3"]}]}"#;
    let p = fbd_engine::load::load_text(&fbd_engine::MemProvider::new(), Path::new("n.json"), text.to_string())
        .expect("loads");
    let b = body(&p, None).expect("program");
    assert_eq!(b.nodes[0].negated, vec![false, true, true]);
    let l = layout(&b);
    let problems = check(&b, &l);
    assert!(problems.is_empty(), "{problems:?}");
    let svg = fbd_layout::svg::svg(&b, &l, "n", &fbd_layout::svg::NoValues);
    assert_eq!(svg.matches(r#"<circle class="negation""#).count(), 2, "{svg}");
    for k in [1, 2] {
        let a = l.in_anchors[0][k];
        let circle = format!(r#"cx="{}" cy="{}" r="{}""#, a.x - fbd_layout::NEGATION_R, a.y, fbd_layout::NEGATION_R);
        assert!(svg.contains(&circle), "a circle at in{}: {circle}\n{svg}", k + 1);
    }
    let a = l.in_anchors[0][1];
    let constant =
        format!(r#"<text class="const" x="{}" y="{}" text-anchor="end">TRUE</text>"#, a.x - 4.0 - 7.0, a.y + 4.0);
    assert!(svg.contains(&constant), "{constant}\n{svg}");
    // A negated output: its circle just right of the block's edge.
    let text = text.replace(r#""negated": ["in2", "in3"]"#, r#""negated": ["out"]"#);
    let p = fbd_engine::load::load_text(&fbd_engine::MemProvider::new(), Path::new("n.json"), text).expect("loads");
    let b = body(&p, None).expect("program");
    assert_eq!((b.nodes[0].negated.clone(), b.nodes[0].negated_outputs.clone()), (vec![false; 3], vec![true]));
    let l = layout(&b);
    let svg = fbd_layout::svg::svg(&b, &l, "n", &fbd_layout::svg::NoValues);
    let a = l.out_anchors[0][0];
    let circle = format!(r#"cx="{}" cy="{}" r="{}""#, a.x + fbd_layout::NEGATION_R, a.y, fbd_layout::NEGATION_R);
    assert_eq!(svg.matches(r#"<circle class="negation""#).count(), 1, "{svg}");
    assert!(svg.contains(&circle), "{circle}\n{svg}");
}

/// Long nets drawn as connector pairs: the 2048 top levels (4,466, 4,082 and 3,244 crossings as
/// wires) come down to a handful; every connector names its source and lists exactly the
/// source's readers, none of those nets is also drawn as a wire, and the drawing keeps every
/// invariant. A body whose wires are all short (the Cell) is left alone.
#[test]
fn long_nets_become_connector_pairs_and_the_crossings_go() {
    let rule = fbd_layout::ConnectorRule::DEFAULT;
    let opts = fbd_layout::Options::default().with_connectors(rule);
    for f in ["diagrams/2048.json", "diagrams/2048-original.json", "diagrams/2048-smart-spawn.json"] {
        let p = load(&FsProvider, &root().join(f)).expect("loads");
        let b = body(&p, None).expect("body");
        let wires = fbd_layout::layout_with(&b, &fbd_layout::Options::default());
        let l = fbd_layout::layout_with(&b, &opts);
        assert!(wires.stats.crossings > 3000, "{f}: {} crossings as wires", wires.stats.crossings);
        assert!(l.stats.crossings <= 150, "{f}: {} crossings with connectors", l.stats.crossings);
        assert!(!l.connectors.is_empty());
        for c in &l.connectors {
            assert_eq!(c.label, fbd_layout::svg::net_name(&b, c.source), "{f}");
            let readers: Vec<_> = b.edges.iter().filter(|e| e.from == c.source).map(|e| e.to).collect();
            assert_eq!(c.targets, readers, "{f}: {}", c.label);
            assert!(l.nets.iter().all(|n| n.source != c.source), "{f}: {} is a wire too", c.label);
        }
        // Every other net is still drawn as a wire.
        let wired: std::collections::BTreeSet<String> =
            l.nets.iter().map(|n| fbd_layout::svg::net_name(&b, n.source)).collect();
        for e in &b.edges {
            let name = fbd_layout::svg::net_name(&b, e.from);
            assert!(
                wired.contains(&name) || l.connectors.iter().any(|c| c.label == name),
                "{f}: {name} is drawn nowhere"
            );
        }
        let bad = check(&b, &l);
        assert!(bad.is_empty(), "{f}: {:#?}", &bad[..bad.len().min(5)]);
    }
    let p = load(&FsProvider, &root().join("diagrams/2048.json")).expect("loads");
    let cell = body(&p, Some("Cell")).expect("Cell");
    assert!(fbd_layout::layout_with(&cell, &opts).connectors.is_empty(), "the Cell's wires are all short");
}

/// The whole drawing of a body on pages frames each page (the whole view drew none): every
/// page of the 2048 top level, at its stored positions, has a frame around all its blocks, and
/// no two frames overlap.
#[test]
fn each_page_of_the_whole_drawing_has_a_frame_of_its_own() {
    let p = load(&FsProvider, &root().join("diagrams/2048.json")).expect("loads");
    let b = body(&p, None).expect("body");
    let pos = fbd_layout::from_model::positions(&p, None);
    let l = fbd_layout::layout_kept(&b, &pos);
    let pages: Vec<Vec<usize>> = fbd_layout::from_model::pages(&p, None).into_iter().map(|(_, n)| n).collect();
    assert_eq!(pages.len(), 9);
    let frames: Vec<fbd_layout::Rect> =
        fbd_layout::page::frames(&l, &pages).into_iter().map(|f| f.expect("a frame")).collect();
    for (f, nodes) in frames.iter().zip(&pages) {
        for &k in nodes {
            let r = &l.blocks[k];
            assert!(
                r.x >= f.x && r.y >= f.y && r.x + r.w <= f.x + f.w && r.y + r.h <= f.y + f.h,
                "block {k} in its frame"
            );
        }
    }
    for (i, a) in frames.iter().enumerate() {
        for b in &frames[i + 1..] {
            let apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
            assert!(apart, "frames overlap: {a:?} {b:?}");
        }
    }
}
