//! A drawing cut into sheets to print, as a PLC tool prints a page too large for one sheet:
//! every sheet the same scale (its text a chosen size), each at most a sheet of paper, cut only
//! where no block stands (in a channel between two columns, between two rows of blocks), so a
//! block is always whole on one sheet.

use crate::{Body, CHAR_W, Layout, PITCH, Rect};

/// The height of the drawing's text in drawing units (its SVG font size).
pub const TEXT_UNITS: f64 = 11.0;

/// A4 landscape in points (1/72 inch).
pub const A4_POINTS: (f64, f64) = (842.0, 595.0);

/// The text height a drawing is printed at on sheets (`fbd svg --sheets`, the window's File →
/// Print on A4 sheets), in points: small print, read without a loupe.
pub const PRINT_TEXT_PT: f64 = 8.0;

/// Room at the foot of each sheet for its caption (which sheet of how many).
pub const CAPTION_UNITS: f64 = PITCH;

/// `from..to` cut into pieces of at most `max`, each cut at a position inside none of `spans`
/// (the blocks' extents along this axis, `[start, end)`), as far along as allowed: a short
/// piece rather than a block cut in two. Only where no such position is within a sheet (a
/// block longer than a sheet) does the cut fall at the limit.
pub fn cuts(from: f64, to: f64, max: f64, spans: &[(f64, f64)]) -> Vec<(f64, f64)> {
    cuts_where(from, to, max, spans, |_, _| true).0
}

/// The positions inside none of `spans`, among their ends: the boundaries of their union
/// (spans that only touch stay apart: a cut may fall where one ends and the next begins),
/// ascending.
fn free_positions(spans: &[(f64, f64)]) -> Vec<f64> {
    let mut sorted = spans.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::with_capacity(2 * sorted.len());
    let mut run: Option<(f64, f64)> = None;
    for (a, b) in sorted {
        run = match run {
            Some((ra, rb)) if a < rb => Some((ra, rb.max(b))),
            Some((ra, rb)) => {
                out.extend([ra, rb]);
                Some((a, b))
            }
            None => Some((a, b)),
        };
    }
    out.extend(run.map(|(a, b)| [a, b]).into_iter().flatten());
    out.dedup();
    out
}

/// [`cuts`], each cut the furthest free position that `accept`s the piece it ends (`start`,
/// `cut`), else the furthest free one; whether every cut is free (no block cut).
fn cuts_where(
    from: f64,
    to: f64,
    max: f64,
    spans: &[(f64, f64)],
    accept: impl Fn(f64, f64) -> bool,
) -> (Vec<(f64, f64)>, bool) {
    let free = free_positions(spans);
    let mut out = Vec::new();
    let (mut start, mut clean) = (from, true);
    while to - start > max {
        let limit = start + max;
        // The free positions within this piece, furthest along first.
        let (lo, hi) = (free.partition_point(|&c| c <= start + PITCH), free.partition_point(|&c| c <= limit));
        let candidates = &free[lo..hi.max(lo)];
        let cut = match candidates.iter().rev().find(|&&c| accept(start, c)).or(candidates.last()) {
            Some(&c) => c,
            None => {
                clean = false;
                limit
            }
        };
        out.push((start, cut));
        start = cut;
    }
    out.push((start, to));
    (out, clean)
}

/// One sheet: its part of the drawing, in drawing units, and where it sits in the grid of
/// cuts (column and row, from 1).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Its part of the drawing.
    pub part: Rect,
    /// Its column of sheets, from 1.
    pub column: usize,
    /// Its row in that column, from 1.
    pub row: usize,
}

/// A drawing cut into sheets of paper.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sheets {
    /// The sheets row by row (left to right, then down; each column of sheets has rows of its
    /// own); sheets with no block, tag or port on them are left out.
    pub list: Vec<Sheet>,
    /// Printed upright (A4 portrait) rather than landscape.
    pub portrait: bool,
}

impl Sheets {
    /// How many columns and rows of sheets the drawing is cut into.
    pub fn grid(&self) -> (usize, usize) {
        self.list.iter().fold((0, 0), |(c, r), s| (c.max(s.column), r.max(s.row)))
    }
}

/// The sheets of drawing `l` printed on A4 with its text `pt` points high: landscape or
/// portrait, whichever takes fewer sheets (landscape on a tie). The drawing spans `x`
/// 0..width and `y` -PITCH..height (its title above row 0), as [`crate::svg::svg`] draws it.
pub fn a4_sheets(body: &Body, l: &Layout, pt: f64) -> Sheets {
    let items = items(body, l);
    let units = |(w, h): (f64, f64)| (w * TEXT_UNITS / pt, h * TEXT_UNITS / pt - CAPTION_UNITS);
    let landscape = on_sheets(l, &items, units(A4_POINTS));
    let portrait = on_sheets(l, &items, units((A4_POINTS.1, A4_POINTS.0)));
    if portrait.list.len() < landscape.list.len() { Sheets { portrait: true, ..portrait } } else { landscape }
}

/// The sheets of drawing `l` at most `w × h` drawing units each (a screen at zoom 1: the
/// online view's sheets, whose text is then drawn at its full size).
pub fn screen_sheets(body: &Body, l: &Layout, w: f64, h: f64) -> Sheets {
    on_sheets(l, &items(body, l), (w, h))
}

/// What a cut must not go through: each block with the constants left of its pins, and each
/// connector's and continuation's tag with its stub.
fn items(body: &Body, l: &Layout) -> Vec<Rect> {
    let mut out: Vec<Rect> = l
        .blocks
        .iter()
        .zip(&body.nodes)
        .map(|(b, n)| {
            let label = n.inputs.iter().filter_map(|(_, c)| c.as_ref()).map(|c| c.chars().count()).max();
            let left = label.map_or(0.0, |chars| (chars + 2) as f64 * CHAR_W);
            Rect { x: b.x - left, w: b.w + left, ..*b }
        })
        .collect();
    let tag = |x0: f64, x1: f64, y: f64| Rect { x: x0, y: y - PITCH / 2.0, w: x1 - x0, h: PITCH };
    for c in &l.connectors {
        let w = crate::tag_width(&c.label);
        if !body.is_remote(c.source) {
            let a = l.source_anchor(c.source);
            let t = crate::connector_tag(a);
            out.push(tag(a.x, t.x + w + PITCH / 2.0, a.y));
        }
        for &target in &c.targets {
            let b = l.target_anchor(target);
            out.push(tag(crate::continuation_tag(b).x - w, b.x, b.y));
        }
    }
    out
}

/// `l` on sheets of `w × h` drawing units, cut around `items`.
fn on_sheets(l: &Layout, items: &[Rect], (w, h): (f64, f64)) -> Sheets {
    // A little room beside each item: a cut never touches a block's frame.
    let xs: Vec<(f64, f64)> = items.iter().map(|b| (b.x - 2.0, b.x + b.w + 2.0)).collect();
    // Each column of sheets is cut into rows between its own blocks (a column of many short
    // blocks beside one of a few tall ones is cut where each has its gaps); a column is made
    // narrower where its rows could not be cut without cutting a block.
    let rows_of = |x0: f64, x1: f64| {
        let ys: Vec<(f64, f64)> = items
            .iter()
            .filter(|b| b.x < x1 && b.x + b.w > x0)
            // The id stands in the grid row above the frame; two blocks stacked a row apart
            // leave a cut between the lower one's id and the upper one's frame.
            .map(|b| (b.y - PITCH + 2.0, b.y + b.h + 1.0))
            .collect();
        cuts_where(-PITCH, l.height, h, &ys, |_, _| true)
    };
    let (cols, _) = cuts_where(0.0, l.width, w, &xs, |x0, x1| rows_of(x0, x1).1);
    let rows: Vec<Vec<(f64, f64)>> = cols.iter().map(|&(x0, x1)| rows_of(x0, x1).0).collect();
    let mut sheets = Sheets::default();
    let n_rows = rows.iter().map(Vec::len).max().unwrap_or(0);
    for r in 0..n_rows {
        for (c, &(x0, x1)) in cols.iter().enumerate() {
            let Some(&(y0, y1)) = rows[c].get(r) else { continue };
            let part = Rect { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
            // A sheet of wires only is left out; the title's sheet and a port's stay.
            let inside = |p: &crate::Point| p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1;
            let ports = l.input_ports.iter().chain(&l.output_ports).any(inside);
            if (r, c) == (0, 0) || ports || items.iter().any(|b| b.overlaps(&part)) {
                sheets.list.push(Sheet { part, column: c + 1, row: r + 1 });
            }
        }
    }
    sheets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_fall_between_blocks_and_keep_each_piece_within_a_sheet() {
        let spans = [(0.0, 100.0), (150.0, 250.0), (300.0, 400.0), (420.0, 520.0)];
        let c = cuts(0.0, 520.0, 300.0, &spans);
        assert_eq!(c, [(0.0, 300.0), (300.0, 520.0)], "at the edge of the third block");
        for (a, b) in &c {
            assert!(b - a <= 300.0);
        }
        // Short enough: one piece.
        assert_eq!(cuts(0.0, 200.0, 300.0, &spans), [(0.0, 200.0)]);
        // Blocks overlapping all along the second half: a short piece, no block cut.
        assert_eq!(
            cuts(0.0, 500.0, 300.0, &[(100.0, 250.0), (200.0, 400.0)]),
            [(0.0, 100.0), (100.0, 400.0), (400.0, 500.0)]
        );
        // A block longer than a sheet: cut at the limit.
        assert_eq!(
            cuts(0.0, 1000.0, 300.0, &[(10.0, 990.0)]),
            [(0.0, 300.0), (300.0, 600.0), (600.0, 900.0), (900.0, 1000.0)]
        );
    }
}
