//! The invariants of a layout, checked on geometry alone: the tests run it on every body of the
//! repository and on generated ones.

use crate::{Body, Layout, Point, Segment};

fn horizontal(s: &Segment) -> bool {
    s.0.y == s.1.y
}

fn span(a: f64, b: f64) -> (f64, f64) {
    (a.min(b), a.max(b))
}

/// Whether `p` lies on `s` (ends included).
pub fn on_segment(p: Point, s: &Segment) -> bool {
    let (x0, x1) = span(s.0.x, s.1.x);
    let (y0, y1) = span(s.0.y, s.1.y);
    p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1
}

/// Every violated invariant, described: no two blocks overlap; no wire passes through a
/// block; two nets never share a piece of wire; each net is connected and reaches its source's
/// anchor and every target's anchor; everything lies inside the drawing.
pub fn check(body: &Body, l: &Layout) -> Vec<String> {
    let mut bad = Vec::new();
    for i in 0..l.blocks.len() {
        for j in i + 1..l.blocks.len() {
            if l.blocks[i].overlaps(&l.blocks[j]) {
                bad.push(format!("blocks `{}` and `{}` overlap", body.nodes[i].id, body.nodes[j].id));
            }
        }
    }
    for (k, n) in l.nets.iter().enumerate() {
        for s in &n.segments {
            if s.0.x != s.1.x && s.0.y != s.1.y {
                bad.push(format!("net {k}: a diagonal piece {s:?}"));
            }
            for (i, r) in l.blocks.iter().enumerate() {
                let (x0, x1) = span(s.0.x, s.1.x);
                let (y0, y1) = span(s.0.y, s.1.y);
                let through = if horizontal(s) {
                    s.0.y > r.y && s.0.y < r.y + r.h && x0 < r.x + r.w && x1 > r.x
                } else {
                    s.0.x > r.x && s.0.x < r.x + r.w && y0 < r.y + r.h && y1 > r.y
                };
                if through {
                    bad.push(format!("net {k} passes through block `{}`: {s:?}", body.nodes[i].id));
                }
            }
            for p in [s.0, s.1] {
                if p.x < 0.0 || p.y < 0.0 || p.x > l.width || p.y > l.height {
                    bad.push(format!("net {k} leaves the drawing at {p:?}"));
                }
            }
        }
        for (m, o) in l.nets.iter().enumerate().skip(k + 1) {
            for a in &n.segments {
                for b in &o.segments {
                    let shared = if horizontal(a) && horizontal(b) && a.0.y == b.0.y {
                        let (a0, a1) = span(a.0.x, a.1.x);
                        let (b0, b1) = span(b.0.x, b.1.x);
                        a0.max(b0) < a1.min(b1)
                    } else if !horizontal(a) && !horizontal(b) && a.0.x == b.0.x {
                        let (a0, a1) = span(a.0.y, a.1.y);
                        let (b0, b1) = span(b.0.y, b.1.y);
                        a0.max(b0) < a1.min(b1)
                    } else {
                        false
                    };
                    if shared {
                        bad.push(format!("nets {k} and {m} share a piece of wire: {a:?} and {b:?}"));
                    }
                }
            }
        }
        // Connected, and reaching every anchor.
        let segs = &n.segments;
        let mut group: Vec<usize> = (0..segs.len()).collect();
        fn find(g: &mut [usize], mut x: usize) -> usize {
            while g[x] != x {
                g[x] = g[g[x]];
                x = g[x];
            }
            x
        }
        for i in 0..segs.len() {
            for j in i + 1..segs.len() {
                let touch = [segs[j].0, segs[j].1].iter().any(|&p| on_segment(p, &segs[i]))
                    || [segs[i].0, segs[i].1].iter().any(|&p| on_segment(p, &segs[j]));
                if touch {
                    let (a, b) = (find(&mut group, i), find(&mut group, j));
                    group[a] = b;
                }
            }
        }
        let roots: std::collections::BTreeSet<usize> = (0..segs.len()).map(|i| find(&mut group, i)).collect();
        if roots.len() > 1 {
            bad.push(format!("net {k} is in {} pieces", roots.len()));
        }
        let anchors = std::iter::once(l.source_anchor(n.source)).chain(n.targets.iter().map(|&t| l.target_anchor(t)));
        for a in anchors {
            if !segs.iter().any(|s| on_segment(a, s)) {
                bad.push(format!("net {k} does not reach its anchor {a:?}"));
            }
        }
    }
    bad
}

/// Every place where a wire of another net runs through the room an online view keeps for a
/// pin's value (`room` wide right of each output pin and input port, a pitch high around its
/// row): there the wire would pass under the value box and read as a branch of that output.
pub fn value_room(body: &Body, l: &Layout, room: f64) -> Vec<String> {
    let mut bad = Vec::new();
    let mut pins: Vec<(crate::Source, Point, String)> = Vec::new();
    for (i, outs) in l.out_anchors.iter().enumerate() {
        for (k, &a) in outs.iter().enumerate() {
            let name = format!("{}.{}", body.nodes[i].id, body.nodes[i].outputs[k]);
            pins.push((crate::Source::Out { node: i, pin: k }, a, name));
        }
    }
    for (k, &a) in l.input_ports.iter().enumerate() {
        pins.push((crate::Source::Port(k), a, body.inputs[k].clone()));
    }
    for (src, a, name) in pins {
        let (x0, x1) = (a.x, a.x + room);
        let (y0, y1) = (a.y - crate::PITCH / 2.0, a.y + crate::PITCH / 2.0);
        for n in l.nets.iter().filter(|n| n.source != src) {
            for s in &n.segments {
                let (sx0, sx1) = span(s.0.x, s.1.x);
                let (sy0, sy1) = span(s.0.y, s.1.y);
                if sx0 <= x1 && sx1 > x0 && sy0 < y1 && sy1 > y0 {
                    bad.push(format!("a wire passes beside `{name}`, where its value is drawn: {s:?}"));
                }
            }
        }
    }
    bad
}

/// Wires clear of the blocks' ids, which are drawn centred just above each frame (up to 6
/// units a character, 10 high): a promise of the automatic layouts (`layout`, `layout_kept`),
/// not of the editor's, where blocks stand wherever the user put them.
pub fn ids_clear(body: &Body, l: &Layout) -> Vec<String> {
    let mut bad = Vec::new();
    for (k, n) in l.nets.iter().enumerate() {
        for s in n.segments.iter().filter(|s| horizontal(s)) {
            let (x0, x1) = span(s.0.x, s.1.x);
            for (i, r) in l.blocks.iter().enumerate() {
                let half = body.nodes[i].id.chars().count() as f64 * 3.0;
                let cx = r.x + r.w / 2.0;
                if s.0.y > r.y - 12.0 && s.0.y < r.y - 2.0 && x0 < cx + half && x1 > cx - half {
                    bad.push(format!("net {k} runs through the id of block `{}`: {s:?}", body.nodes[i].id));
                }
            }
        }
    }
    bad
}
