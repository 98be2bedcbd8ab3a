//! A ladder (LD) body as a PLC engineer draws it: the left power rail, rungs left to right and
//! top to bottom, contacts `-| |-` and coils `-( )-` with their variable above, blocks in the
//! rung with their pins, the right rail after the coils. The file's own positions are kept when
//! every element and block has one (OpenPLC Editor and CODESYS write them); otherwise a rung per
//! statement: a coil or store on the row of its first source, each further branch a row below,
//! each element a column right of what powers it, the coils aligned at the right.
//!
//! Pure geometry (no GUI): [`drawing`] builds it, [`svg`] writes it; the HMI's ladder view draws
//! the same [`LadderDrawing`] with the power flow online.

use std::collections::HashMap;
use std::fmt::Write as _;

use fbd_model::model::ladder::RAIL;
use fbd_model::model::{Block, LdElement, LdKind, LdModifier, Wire};

use crate::{CHAR_W, PITCH, Point};

/// An element's box.
pub const ELEMENT_W: f64 = 2.0 * PITCH;
/// An element's height (its connection points at half of it).
pub const ELEMENT_H: f64 = PITCH;
const COLUMN: f64 = 5.0 * PITCH;
const ROW: f64 = 3.0 * PITCH;
const LEFT: f64 = 2.0 * PITCH;

/// A contact, coil or store where it is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnElement {
    /// Its index in the body's network.
    pub index: usize,
    /// Its top-left corner.
    pub at: Point,
    /// Width (a store's box fits its variable's name).
    pub w: f64,
}

impl DrawnElement {
    /// Its connection point on the left.
    pub fn input(&self) -> Point {
        Point { x: self.at.x, y: self.at.y + ELEMENT_H / 2.0 }
    }
    /// Its connection point on the right.
    pub fn output(&self) -> Point {
        Point { x: self.at.x + self.w, y: self.at.y + ELEMENT_H / 2.0 }
    }
}

/// A block in a rung.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnBlock {
    /// Its index in the body's blocks.
    pub index: usize,
    /// Its top-left corner.
    pub at: Point,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// Input pins and where each stands (its left end).
    pub inputs: Vec<(String, Point)>,
    /// Output pins and where each stands (its right end).
    pub outputs: Vec<(String, Point)>,
}

/// A wire: what it carries (`rail`, an element's id, `block.pin`, or a variable, input or
/// constant drawn as a label at its start) and its points.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnWire {
    /// What it carries.
    pub from: String,
    /// Its corners, from its source to the pin or element it feeds.
    pub points: Vec<Point>,
    /// A label ending at the start (a variable or constant read by a block, written left of a
    /// short stub), if the source is no element of the drawing.
    pub label: Option<String>,
}

/// A ladder body's geometry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LadderDrawing {
    /// The contacts, coils and stores.
    pub elements: Vec<DrawnElement>,
    /// The blocks.
    pub blocks: Vec<DrawnBlock>,
    /// The wires, a coil's to the right rail among them.
    pub wires: Vec<DrawnWire>,
    /// The rails' x: left, right.
    pub rails: (f64, f64),
    /// Where the rails start.
    pub top: f64,
    /// Where the rails end.
    pub bottom: f64,
    /// The drawing's size.
    pub width: f64,
    /// The drawing's size.
    pub height: f64,
}

/// Where a source's power or value leaves: an element's right end, a block pin, the rail.
enum Anchor {
    At(Point),
    Label(String),
}

/// The drawing of a body: its `blocks` (with each one's input and output pins, `pins`) and its
/// network `ladder`.
pub fn drawing(blocks: &[Block], pins: &[(Vec<String>, Vec<String>)], ladder: &[LdElement]) -> LadderDrawing {
    let kept = !ladder.is_empty() && ladder.iter().all(|e| e.pos.is_some()) && blocks.iter().all(|b| b.pos.is_some());
    let (el_at, bl_at) = if kept { stored(blocks, ladder) } else { automatic(blocks, pins, ladder) };
    // At the file's positions an element is as wide as the room its row leaves it (OpenPLC
    // Editor draws contacts 21 wide, 30 apart), never wider than ours.
    let symbol_w = if kept { room(&el_at).clamp(PITCH, ELEMENT_W) } else { ELEMENT_W };
    let mut d = LadderDrawing::default();
    for (k, e) in ladder.iter().enumerate() {
        let w = if e.kind == LdKind::Store { (e.var.len() as f64 * CHAR_W + PITCH).max(symbol_w) } else { symbol_w };
        d.elements.push(DrawnElement { index: k, at: el_at[k], w });
    }
    for (k, b) in blocks.iter().enumerate() {
        let (ins, outs) = &pins[k];
        // A block with EN has ENO, its first output, as OpenPLC Editor and Beremiz draw it.
        let eno = ins.first().is_some_and(|p| p == fbd_model::library::ENABLE);
        let outs: Vec<String> = eno.then(|| "ENO".to_string()).into_iter().chain(outs.iter().cloned()).collect();
        let rows = ins.len().max(outs.len()).max(1) as f64;
        let label = b.ty.len().max(b.id.len()) as f64 * CHAR_W;
        let w = (label + 2.0 * PITCH).max(4.0 * PITCH);
        let h = (rows + 1.0) * PITCH;
        let at = bl_at[k];
        let pin = |j: usize, x: f64| Point { x, y: at.y + PITCH * (j as f64 + 1.0) };
        d.blocks.push(DrawnBlock {
            index: k,
            at,
            w,
            h,
            inputs: ins.iter().enumerate().map(|(j, p)| (p.clone(), pin(j, at.x))).collect(),
            outputs: outs.into_iter().enumerate().map(|(j, p)| (p, pin(j, at.x + w))).collect(),
        });
    }
    let ids: HashMap<&str, usize> = ladder.iter().enumerate().map(|(k, e)| (e.id.as_str(), k)).collect();
    let bids: HashMap<&str, usize> = blocks.iter().enumerate().map(|(k, b)| (b.id.as_str(), k)).collect();
    let top = d.elements.iter().map(|e| e.at.y).chain(d.blocks.iter().map(|b| b.at.y)).fold(f64::MAX, f64::min);
    let top = if top == f64::MAX { 0.0 } else { top - PITCH };
    let bottom = d
        .elements
        .iter()
        .map(|e| e.at.y + ELEMENT_H)
        .chain(d.blocks.iter().map(|b| b.at.y + b.h))
        .fold(top + ROW, f64::max)
        + PITCH;
    let left = d.elements.iter().map(|e| e.at.x).chain(d.blocks.iter().map(|b| b.at.x)).fold(f64::MAX, f64::min);
    let rail_x = if left == f64::MAX { 0.0 } else { left - 2.0 * PITCH };
    let right = d
        .elements
        .iter()
        .map(|e| e.at.x + e.w)
        .chain(d.blocks.iter().map(|b| b.at.x + b.w))
        .fold(rail_x + COLUMN, f64::max)
        + 2.0 * PITCH;
    let anchor = |s: &Wire, d: &LadderDrawing| -> Anchor {
        match s {
            Wire::Ref(r) if r == RAIL => Anchor::At(Point { x: rail_x, y: f64::NAN }),
            Wire::Ref(r) => match (ids.get(r.as_str()), r.split_once('.')) {
                (Some(&k), _) => Anchor::At(d.elements[k].output()),
                (None, Some((b, p))) if bids.contains_key(b) => {
                    let blk = &d.blocks[bids[b]];
                    let at = blk.outputs.iter().find(|(q, _)| q.eq_ignore_ascii_case(p)).map(|(_, at)| *at);
                    // ENO stands on the EN row, right side.
                    Anchor::At(at.unwrap_or(Point { x: blk.at.x + blk.w, y: blk.at.y + PITCH }))
                }
                _ => Anchor::Label(r.clone()),
            },
            Wire::Const(c) => Anchor::Label(c.value().to_string()),
            Wire::Connector(n) => Anchor::Label(format!(">{n}>")),
            Wire::Feedback { from, .. } => Anchor::Label(from.clone()),
        }
    };
    let mut wires = Vec::new();
    // What a block's ENO carries: its EN (the power its call saw).
    let en_of = |r: &str| -> Option<String> {
        let (b, p) = r.split_once('.')?;
        if !p.eq_ignore_ascii_case("eno") {
            return None;
        }
        match blocks.get(*bids.get(b)?)?.inputs.get(fbd_model::library::ENABLE) {
            Some(Wire::Ref(en)) => Some(en.clone()),
            _ => Some(RAIL.to_string()),
        }
    };
    let mut route = |from: &Wire, to: Point, d: &LadderDrawing| {
        let name = match from {
            Wire::Ref(r) => en_of(r).unwrap_or_else(|| r.clone()),
            other => format!("{other:?}"),
        };
        match anchor(from, d) {
            Anchor::At(p) if p.y.is_nan() => {
                // From the rail: straight left to it.
                wires.push(DrawnWire { from: name, points: vec![Point { x: p.x, y: to.y }, to], label: None });
            }
            Anchor::At(p) if to.x > p.x + PITCH / 2.0 || (p.y - to.y).abs() < 0.5 => {
                let mid = if (p.y - to.y).abs() < 0.5 { p.x } else { to.x - PITCH / 2.0 };
                let points = vec![p, Point { x: mid, y: p.y }, Point { x: mid, y: to.y }, to];
                wires.push(DrawnWire { from: name, points, label: None });
            }
            Anchor::At(p) => {
                // Back to the left: out right, along the row above the target, in from the left.
                let over = if to.y > p.y { (to.y - 3.0 * PITCH).max(p.y + PITCH) } else { to.y - PITCH };
                let points = vec![
                    p,
                    Point { x: p.x + PITCH / 2.0, y: p.y },
                    Point { x: p.x + PITCH / 2.0, y: over },
                    Point { x: to.x - PITCH / 2.0, y: over },
                    Point { x: to.x - PITCH / 2.0, y: to.y },
                    to,
                ];
                wires.push(DrawnWire { from: name, points, label: None });
            }
            Anchor::Label(text) => {
                let start = Point { x: to.x - PITCH, y: to.y };
                wires.push(DrawnWire { from: name, points: vec![start, to], label: Some(text) });
            }
        }
    };
    for (k, e) in ladder.iter().enumerate() {
        let to = d.elements[k].input();
        for s in &e.from {
            route(s, to, &d);
        }
    }
    for (k, b) in blocks.iter().enumerate() {
        for (pin, w) in b.inputs.0.iter() {
            let Some(&(_, to)) = d.blocks[k].inputs.iter().find(|(p, _)| p == pin) else { continue };
            route(w, to, &d);
        }
    }
    // Each coil to the right rail.
    for (k, e) in ladder.iter().enumerate() {
        if e.kind == LdKind::Coil {
            let p = d.elements[k].output();
            wires.push(DrawnWire { from: e.id.clone(), points: vec![p, Point { x: right, y: p.y }], label: None });
        }
    }
    d.wires = wires;
    d.rails = (rail_x, right);
    d.top = top;
    d.bottom = bottom;
    // The drawing starts at its rail and its first rung, wherever the file placed them (or at
    // the text of a constant a block by the rail reads, left of the rail).
    let labels =
        d.wires.iter().filter_map(|w| Some(w.points.first()?.x - 2.0 - w.label.as_ref()?.len() as f64 * CHAR_W));
    let left = labels.fold(rail_x, f64::min);
    d.shift(PITCH - left, PITCH - top);
    d.width = d.rails.1 + 2.0 * PITCH;
    d.height = d.bottom + PITCH;
    d
}

impl LadderDrawing {
    /// Moves everything by (`dx`, `dy`).
    fn shift(&mut self, dx: f64, dy: f64) {
        let mv = |p: &mut Point| {
            p.x += dx;
            p.y += dy;
        };
        self.elements.iter_mut().for_each(|e| mv(&mut e.at));
        for b in &mut self.blocks {
            mv(&mut b.at);
            b.inputs.iter_mut().chain(b.outputs.iter_mut()).for_each(|(_, p)| mv(p));
        }
        self.wires.iter_mut().flat_map(|w| w.points.iter_mut()).for_each(mv);
        self.rails = (self.rails.0 + dx, self.rails.1 + dx);
        self.top += dy;
        self.bottom += dy;
    }
}

/// The least distance between two elements side by side on one row, less a gap.
fn room(at: &[Point]) -> f64 {
    let mut least = f64::MAX;
    for (i, a) in at.iter().enumerate() {
        for b in &at[i + 1..] {
            if (a.y - b.y).abs() < ELEMENT_H / 2.0 && (a.x - b.x).abs() > 1.0 {
                least = least.min((a.x - b.x).abs());
            }
        }
    }
    least - 6.0
}

/// How far in from its ends a contact's bars, or a coil's arcs, stand: its wire stubs.
pub fn stub(w: f64) -> f64 {
    (w * 0.3).min(12.0)
}

/// The file's positions: each element and block where it stands.
fn stored(blocks: &[Block], ladder: &[LdElement]) -> (Vec<Point>, Vec<Point>) {
    let p = |a: Option<[f64; 2]>| a.map_or(Point { x: 0.0, y: 0.0 }, |[x, y]| Point { x, y });
    (ladder.iter().map(|e| p(e.pos)).collect(), blocks.iter().map(|b| p(b.pos)).collect())
}

/// A rung per statement, in the network's order.
fn automatic(blocks: &[Block], pins: &[(Vec<String>, Vec<String>)], ladder: &[LdElement]) -> (Vec<Point>, Vec<Point>) {
    let ids: HashMap<&str, usize> = ladder.iter().enumerate().map(|(k, e)| (e.id.as_str(), k)).collect();
    let bids: HashMap<&str, usize> = blocks.iter().enumerate().map(|(k, b)| (b.id.as_str(), k)).collect();
    #[derive(Clone, Copy, PartialEq)]
    enum N {
        E(usize),
        B(usize),
    }
    // What feeds a node (elements and blocks), and its column: one right of its feeders.
    let feeders = |n: N| -> Vec<N> {
        let wires: Vec<&Wire> = match n {
            N::E(k) => ladder[k].from.iter().collect(),
            N::B(k) => blocks[k].inputs.0.iter().map(|(_, w)| w).collect(),
        };
        wires
            .into_iter()
            .filter_map(|w| match w {
                Wire::Ref(r) => match (ids.get(r.as_str()), r.split_once('.')) {
                    (Some(&k), _) => Some(N::E(k)),
                    (None, Some((b, _))) => bids.get(b).map(|&k| N::B(k)),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    };
    let n_all = ladder.len() + blocks.len();
    let slot = |n: N| match n {
        N::E(k) => k,
        N::B(k) => ladder.len() + k,
    };
    // Columns, iteratively (longest path from the rail, a circle cut at its first return).
    let mut col = vec![0usize; n_all];
    let mut done = vec![0u8; n_all];
    let all: Vec<N> = (0..ladder.len()).map(N::E).chain((0..blocks.len()).map(N::B)).collect();
    for &start in &all {
        let mut stack = vec![(start, false)];
        while let Some((n, expanded)) = stack.pop() {
            let s = slot(n);
            if expanded {
                col[s] = feeders(n).iter().map(|&f| col[slot(f)] + 1).max().unwrap_or(0);
                done[s] = 2;
                continue;
            }
            if done[s] != 0 {
                continue;
            }
            done[s] = 1;
            stack.push((n, true));
            stack.extend(feeders(n).into_iter().filter(|&f| done[slot(f)] == 0).map(|f| (f, false)));
        }
    }
    let last = ladder
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind != LdKind::Contact)
        .map(|(k, _)| col[k])
        .chain(col.iter().copied())
        .max()
        .unwrap_or(0);
    // Rows: each statement a rung; a node takes the row of the first node it feeds, its further
    // feeders a row below each.
    let height = |n: N| match n {
        N::E(_) => 1,
        N::B(k) => pins[k].0.len().max(pins[k].1.len()).max(1) + 1,
    };
    let mut row: Vec<Option<usize>> = vec![None; n_all];
    let mut next_row = 0usize;
    let roots: Vec<N> = (0..ladder.len())
        .filter(|&k| ladder[k].kind != LdKind::Contact)
        .map(N::E)
        .chain((0..blocks.len()).map(N::B))
        .chain((0..ladder.len()).map(N::E))
        .collect();
    for root in roots {
        if row[slot(root)].is_some() {
            continue;
        }
        let rung_top = next_row;
        // A node's first feeder on its row, each further one on the first free row below once
        // it is reached (so a block's height, known when it is placed, is kept clear).
        let mut stack: Vec<(N, Option<usize>)> = vec![(root, Some(rung_top))];
        let mut lowest = rung_top;
        while let Some((n, want)) = stack.pop() {
            if row[slot(n)].is_some() {
                continue;
            }
            let r = want.unwrap_or(lowest + 1);
            row[slot(n)] = Some(r);
            lowest = lowest.max(r + height(n) - 1);
            let fs: Vec<N> = feeders(n).into_iter().filter(|f| row[slot(*f)].is_none()).collect();
            for (j, f) in fs.into_iter().enumerate().rev() {
                stack.push((f, (j == 0).then_some(r)));
            }
        }
        next_row = lowest + 1;
    }
    let at = |n: N| {
        let s = slot(n);
        let c = match n {
            N::E(k) if ladder[k].kind != LdKind::Contact => last.max(col[s]),
            _ => col[s],
        };
        Point { x: LEFT + PITCH + c as f64 * COLUMN, y: row[s].unwrap_or(0) as f64 * ROW + PITCH }
    };
    ((0..ladder.len()).map(|k| at(N::E(k))).collect(), (0..blocks.len()).map(|k| at(N::B(k))).collect())
}

/// The drawing printed on A4 with its text `pt` points high: cut between rungs (never through
/// an element, a block or a label), landscape or portrait, whichever takes fewer sheets.
pub fn a4_sheets(d: &LadderDrawing, pt: f64) -> crate::sheets::Sheets {
    use crate::sheets::{A4_POINTS, CAPTION_UNITS, Sheet, Sheets, TEXT_UNITS, cuts};
    let items: Vec<(f64, f64, f64, f64)> = d
        .elements
        .iter()
        .map(|e| (e.at.x, e.at.y - PITCH, e.at.x + e.w, e.at.y + ELEMENT_H))
        .chain(d.blocks.iter().map(|b| (b.at.x - 6.0 * PITCH, b.at.y - PITCH, b.at.x + b.w, b.at.y + b.h)))
        .collect();
    let on = |(w, h): (f64, f64)| {
        let (w, h) = (w * TEXT_UNITS / pt, h * TEXT_UNITS / pt - CAPTION_UNITS);
        let xs: Vec<(f64, f64)> = items.iter().map(|i| (i.0 - 2.0, i.2 + 2.0)).collect();
        let cols = cuts(0.0, d.width, w, &xs);
        let mut list = Vec::new();
        for (c, &(x0, x1)) in cols.iter().enumerate() {
            let ys: Vec<(f64, f64)> = items.iter().filter(|i| i.0 < x1 && i.2 > x0).map(|i| (i.1, i.3 + 1.0)).collect();
            for (r, (y0, y1)) in cuts(0.0, d.height, h, &ys).into_iter().enumerate() {
                let part = crate::Rect { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
                list.push(Sheet { part, column: c + 1, row: r + 1 });
            }
        }
        list.sort_by_key(|s| (s.row, s.column));
        list
    };
    let landscape = on(A4_POINTS);
    let portrait = on((A4_POINTS.1, A4_POINTS.0));
    if portrait.len() < landscape.len() {
        Sheets { list: portrait, portrait: true }
    } else {
        Sheets { list: landscape, portrait: false }
    }
}

/// What an element shows inside its symbol: `/` negated, `P` rising, `N` falling, `S`, `R`.
pub fn symbol(m: LdModifier) -> &'static str {
    match m {
        LdModifier::Plain => "",
        LdModifier::Negated => "/",
        LdModifier::Rising => "P",
        LdModifier::Falling => "N",
        LdModifier::Set => "S",
        LdModifier::Reset => "R",
    }
}

/// The drawing as SVG; `powered` says which sources carry power (online), else all are drawn
/// alike.
pub fn svg(
    d: &LadderDrawing,
    blocks: &[Block],
    ladder: &[LdElement],
    title: &str,
    powered: &dyn Fn(&str) -> Option<bool>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="monospace" font-size="11">"#,
        w = d.width,
        h = d.height + PITCH
    );
    let _ = writeln!(s, r#"<title>{}</title><rect width="100%" height="100%" fill="white"/>"#, esc(title));
    let colour = |from: &str| match powered(from) {
        Some(true) => "#1a9641",
        Some(false) => "#2b5cab",
        None => "#222",
    };
    let (l, r) = d.rails;
    let _ = writeln!(
        s,
        r#"<line x1="{l}" y1="{}" x2="{l}" y2="{}" stroke="{}" stroke-width="4"/>"#,
        d.top,
        d.bottom,
        colour(RAIL)
    );
    let _ =
        writeln!(s, r##"<line x1="{r}" y1="{}" x2="{r}" y2="{}" stroke="#222" stroke-width="4"/>"##, d.top, d.bottom);
    for w in &d.wires {
        let pts: Vec<String> = w.points.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="1.5"/>"#,
            pts.join(" "),
            colour(&w.from)
        );
        if let (Some(t), Some(p)) = (&w.label, w.points.first()) {
            let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#, p.x - 2.0, p.y + 4.0, esc(t));
        }
    }
    for e in &d.elements {
        let el = &ladder[e.index];
        let (x, y) = (e.at.x, e.at.y);
        let mid = y + ELEMENT_H / 2.0;
        let c = colour(&el.id);
        let sym = symbol(el.modifier);
        match el.kind {
            LdKind::Contact => {
                let _ = writeln!(
                    s,
                    r#"<g stroke="{c}" stroke-width="2"><line x1="{x}" y1="{mid}" x2="{a}" y2="{mid}"/><line x1="{a}" y1="{y}" x2="{a}" y2="{b}"/><line x1="{z}" y1="{y}" x2="{z}" y2="{b}"/><line x1="{z}" y1="{mid}" x2="{e}" y2="{mid}"/></g>"#,
                    a = x + stub(e.w),
                    z = x + e.w - stub(e.w),
                    b = y + ELEMENT_H,
                    e = x + e.w
                );
            }
            LdKind::Coil => {
                let _ = writeln!(
                    s,
                    r#"<g stroke="{c}" stroke-width="2" fill="none"><line x1="{x}" y1="{mid}" x2="{a}" y2="{mid}"/><path d="M {a1} {y} Q {a} {mid} {a1} {b}"/><path d="M {z1} {y} Q {z} {mid} {z1} {b}"/><line x1="{z}" y1="{mid}" x2="{e}" y2="{mid}"/></g>"#,
                    a = x + stub(e.w) - 2.0,
                    a1 = x + stub(e.w) + 2.0,
                    z = x + e.w - stub(e.w) + 2.0,
                    z1 = x + e.w - stub(e.w) - 2.0,
                    b = y + ELEMENT_H,
                    e = x + e.w
                );
            }
            LdKind::Store => {
                let _ = writeln!(
                    s,
                    r#"<rect x="{x}" y="{y}" width="{}" height="{ELEMENT_H}" rx="8" fill="none" stroke="{c}"/>"#,
                    e.w
                );
            }
        }
        if !sym.is_empty() {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="middle" font-weight="bold">{sym}</text>"#,
                x + e.w / 2.0,
                mid + 4.0
            );
        }
        let (tx, ty) = if el.kind == LdKind::Store { (x + e.w / 2.0, mid + 4.0) } else { (x + e.w / 2.0, y - 4.0) };
        let _ = writeln!(s, r#"<text x="{tx}" y="{ty}" text-anchor="middle">{}</text>"#, esc(&el.var));
    }
    for b in &d.blocks {
        let blk = &blocks[b.index];
        let _ = writeln!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#f4f4f4" stroke="#222"/>"##,
            b.at.x, b.at.y, b.w, b.h
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle" font-weight="bold">{}</text>"#,
            b.at.x + b.w / 2.0,
            b.at.y + 12.0,
            esc(&blk.ty)
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            b.at.x + b.w / 2.0,
            b.at.y - 4.0,
            esc(&blk.id)
        );
        for (p, at) in &b.inputs {
            let _ = writeln!(s, r#"<text x="{}" y="{}">{}</text>"#, at.x + 3.0, at.y + 4.0, esc(p));
        }
        for (p, at) in &b.outputs {
            let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#, at.x - 3.0, at.y + 4.0, esc(p));
        }
    }
    s.push_str("</svg>\n");
    s
}

use fbd_model::xml::esc;

/// Whether `from` (`rail`, an element's id, `block.pin`, a variable) carries power, as the
/// network shows it online: read from the scan where the scan has it (`read` of an element's id
/// gives the power its first statement computed, `id.out`; a variable or `block.pin` its
/// value), else evaluated from the values the scan left (the rail TRUE, a contact its power AND
/// its BOOL as modified, through a coil the AND of its sources). `None`: unknown.
pub fn powered(ladder: &[LdElement], from: &str, read: &dyn Fn(&str) -> Option<bool>) -> Option<bool> {
    power_at(ladder, from, read, 0)
}

fn power_at(ladder: &[LdElement], from: &str, read: &dyn Fn(&str) -> Option<bool>, depth: u32) -> Option<bool> {
    if from == RAIL {
        return Some(true);
    }
    let Some(e) = ladder.iter().find(|e| e.id == from) else { return read(from) };
    if depth > 64 {
        return None;
    }
    let sources = |d: u32| -> Vec<Option<bool>> {
        e.from
            .iter()
            .map(|w| match w {
                Wire::Ref(r) => power_at(ladder, r, read, d + 1),
                Wire::Const(c) => match c.value() {
                    fbd_model::Value::Bool(b) => Some(b),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    };
    match e.kind {
        LdKind::Contact => {
            if let Some(p) = read(&format!("{}.out", e.id)) {
                return Some(p);
            }
            let input = any(&sources(depth));
            let v = read(&e.var);
            let term = match e.modifier {
                LdModifier::Negated => v.map(|v| !v),
                LdModifier::Rising => read(&format!("{}__rise.q", e.id)),
                LdModifier::Falling => read(&format!("{}__fall.q", e.id)),
                _ => v,
            };
            match (input, term) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            }
        }
        LdKind::Coil => {
            let s = sources(depth);
            if s.contains(&Some(false)) {
                Some(false)
            } else if s.iter().all(Option::is_some) {
                Some(true)
            } else {
                None
            }
        }
        LdKind::Store => None,
    }
}

/// The OR of several powers: TRUE if one is, FALSE if all are, else unknown.
fn any(s: &[Option<bool>]) -> Option<bool> {
    if s.contains(&Some(true)) {
        Some(true)
    } else if s.iter().all(|p| *p == Some(false)) {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fbd_model::model::LdModifier::{Negated, Plain};

    /// A seal-in rung: start and the motor's own contact in parallel, stop (normally closed)
    /// after them, the coil; and a second rung, a lamp on the motor.
    fn seal_in() -> Vec<LdElement> {
        vec![
            LdElement::contact("start_c", "start", Plain, &["rail"]),
            LdElement::contact("seal", "motor", Plain, &["rail"]),
            LdElement::contact("stop_c", "stop", Negated, &["start_c", "seal"]),
            LdElement::coil("motor_k", "motor", Plain, &["stop_c"]),
            LdElement::contact("m", "motor", Plain, &["rail"]),
            LdElement::coil("lamp_k", "lamp", Plain, &["m"]),
        ]
    }

    #[test]
    fn rungs_run_left_to_right_top_to_bottom_without_overlap() {
        let ladder = seal_in();
        let d = drawing(&[], &[], &ladder);
        let at = |id: &str| d.elements[ladder.iter().position(|e| e.id == id).expect(id)].at;
        // In series left to right, a parallel branch below its first, coils aligned at the right.
        assert!(at("start_c").x < at("stop_c").x && at("stop_c").x < at("motor_k").x);
        assert_eq!(at("start_c").y, at("stop_c").y);
        assert!(at("seal").y > at("start_c").y);
        assert_eq!(at("motor_k").x, at("lamp_k").x);
        // The second rung below the first.
        assert!(at("m").y > at("seal").y);
        for (i, a) in d.elements.iter().enumerate() {
            for b in &d.elements[i + 1..] {
                let apart = a.at.x + a.w <= b.at.x
                    || b.at.x + b.w <= a.at.x
                    || a.at.y + ELEMENT_H <= b.at.y
                    || b.at.y + ELEMENT_H <= a.at.y;
                assert!(apart, "{a:?} overlaps {b:?}");
            }
        }
        // A wire into every element from each of its sources, and each coil to the right rail.
        for (k, e) in ladder.iter().enumerate() {
            let into = d.wires.iter().filter(|w| w.points.last() == Some(&d.elements[k].input())).count();
            assert_eq!(into, e.from.len(), "{}", e.id);
            if e.kind == LdKind::Coil {
                assert!(d.wires.iter().any(|w| w.from == e.id && w.points.last().is_some_and(|p| p.x == d.rails.1)));
            }
        }
    }

    /// A long network printed: cut between rungs into several A4 sheets, every element whole
    /// on one of them.
    #[test]
    fn a_long_network_is_printed_on_sheets_cut_between_rungs() {
        let mut ladder = Vec::new();
        for k in 0..120 {
            let c = format!("c{k}");
            ladder.push(LdElement::contact(&c, "x", Plain, &["rail"]));
            ladder.push(LdElement::coil(&format!("k{k}"), "y", Plain, &[&c]));
        }
        let d = drawing(&[], &[], &ladder);
        let sheets = a4_sheets(&d, crate::sheets::PRINT_TEXT_PT);
        assert!(sheets.list.len() >= 3, "{} sheets", sheets.list.len());
        for e in &d.elements {
            let whole = sheets.list.iter().any(|s| {
                let p = s.part;
                e.at.y - PITCH >= p.y && e.at.y + ELEMENT_H <= p.y + p.h && e.at.x >= p.x && e.at.x + e.w <= p.x + p.w
            });
            assert!(whole, "{e:?} is cut between sheets");
        }
    }

    #[test]
    fn the_power_flow_follows_the_values_of_the_scan() {
        let ladder = seal_in();
        let values = |start: bool, stop: bool, motor: bool| {
            move |name: &str| match name {
                "start" => Some(start),
                "stop" => Some(stop),
                "motor" => Some(motor),
                _ => None,
            }
        };
        let read = values(false, false, true);
        // Held by the seal-in contact: energised through stop (closed) to the coil.
        assert_eq!(powered(&ladder, "start_c", &read), Some(false));
        assert_eq!(powered(&ladder, "seal", &read), Some(true));
        assert_eq!(powered(&ladder, "stop_c", &read), Some(true));
        assert_eq!(powered(&ladder, "motor_k", &read), Some(true));
        // Stop pressed: open from the stop contact on.
        let read = values(false, true, true);
        assert_eq!(powered(&ladder, "seal", &read), Some(true));
        assert_eq!(powered(&ladder, "stop_c", &read), Some(false));
        assert_eq!(powered(&ladder, "motor_k", &read), Some(false));
        // A value the scan does not give is unknown, not FALSE.
        assert_eq!(powered(&ladder, "m", &|_| None), None);
    }
}
