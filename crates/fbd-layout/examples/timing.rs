//! Layout time and quality of the 2048 bodies: `cargo run --release -p fbd-layout --example timing`.

use std::time::Instant;

use fbd_engine::load::{FsProvider, load};

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let p = load(&FsProvider, format!("{root}diagrams/2048.json").as_ref()).expect("2048 loads");
    let mut names: Vec<Option<&str>> = vec![None];
    let mut macros: Vec<&str> = p.macros.keys().map(String::as_str).collect();
    macros.sort_unstable();
    names.extend(macros.into_iter().map(Some));
    println!("| body | blocks | layout ms (median of 21) | crossings | bends | wire length | editor's drawing ms |");
    println!("|---|---|---|---|---|---|---|");
    for name in names {
        let b = fbd_layout::from_model::body(&p, name).expect("body");
        let mut times: Vec<f64> = (0..21)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(fbd_layout::layout(&b));
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let l = fbd_layout::layout(&b);
        // The editor draws blocks where they stand (`layout_free`), wires around the blocks.
        let pos = fbd_layout::from_model::positions(&p, name);
        let mut free: Vec<f64> = (0..21)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(fbd_layout::layout_free(&b, &pos));
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        free.sort_by(f64::total_cmp);
        println!(
            "| {} | {} | {:.2} | {} | {} | {:.0} | {:.2} |",
            name.unwrap_or("program (top level)"),
            b.nodes.len(),
            times[10],
            l.stats.crossings,
            l.stats.bends,
            l.stats.length,
            free[10]
        );
    }
    // The top level as the online view draws it: stored positions, room for values, long nets
    // as connector pairs; and page by page.
    let b = fbd_layout::from_model::body(&p, None).expect("program");
    let pos = fbd_layout::from_model::positions(&p, None);
    let online = fbd_layout::Options::WITH_VALUES.with_connectors(fbd_layout::ConnectorRule::DEFAULT);
    let median = |f: &dyn Fn()| {
        let mut t: Vec<f64> = (0..21)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        t.sort_by(f64::total_cmp);
        t[10]
    };
    let whole = median(&|| {
        std::hint::black_box(fbd_layout::layout_kept_with(&b, &pos, &online));
    });
    let pages = fbd_layout::from_model::pages(&p, None);
    let paged = median(&|| {
        for (_, nodes) in &pages {
            let (page, back) = fbd_layout::page::page_body(&b, nodes);
            let page_pos = fbd_layout::page::page_positions(&pos, &back);
            std::hint::black_box(fbd_layout::layout_kept_with(&page, &page_pos, &online));
        }
    });
    println!(
        "\nOnline view of the top level (stored positions, values, connectors): whole {whole:.2} ms, its {} pages {paged:.2} ms",
        pages.len()
    );
}
