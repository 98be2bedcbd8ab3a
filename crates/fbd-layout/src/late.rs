//! Which pieces of a net carry the previous scan's value. A feedback wire is a property of one
//! input, not of the signal: `slow.cycles` feeds a port this scan and, through a feedback wire,
//! a block that reads last scan's value. The whole net was drawn dashed, so the port's wire
//! read as late too. Each piece is dashed only when every target it leads to reads late.

use std::collections::{HashMap, VecDeque};

use crate::check::on_segment;
use crate::{Body, Layout, Source, Target};

/// Sets each net's `late` (per segment) and `delayed` (some target reads late) from the
/// body's edges.
pub(crate) fn mark(body: &Body, l: &mut Layout) {
    let late_edge: HashMap<(Source, Target), bool> = body.edges.iter().map(|e| ((e.from, e.to), e.delayed)).collect();
    for k in 0..l.nets.len() {
        let net = &l.nets[k];
        let flags: Vec<bool> =
            net.targets.iter().map(|t| late_edge.get(&(net.source, *t)).copied().unwrap_or(false)).collect();
        let m = net.segments.len();
        let late = if flags.iter().all(|f| *f) {
            vec![true; m]
        } else if !flags.iter().any(|f| *f) {
            vec![false; m]
        } else {
            let source = l.source_anchor(net.source);
            let on_time: Vec<_> =
                net.targets.iter().zip(&flags).filter(|(_, f)| !**f).map(|(t, _)| l.target_anchor(*t)).collect();
            solid_pieces(&net.segments, source, &on_time).into_iter().map(|s| !s).collect()
        };
        let delayed = flags.iter().any(|f| *f);
        let net = &mut l.nets[k];
        net.late = late;
        net.delayed = delayed;
    }
}

/// The pieces on the way from `source` to any of `ends` (a breadth-first search over pieces
/// that touch: an end of one on the other, as at a T-junction). A piece on no such way is
/// false; if an end cannot be reached every piece is true (drawn solid: never claim lateness
/// that is not certain).
fn solid_pieces(segs: &[crate::Segment], source: crate::Point, ends: &[crate::Point]) -> Vec<bool> {
    let m = segs.len();
    let touch = |i: usize, j: usize| {
        let (a, b) = (&segs[i], &segs[j]);
        on_segment(a.0, b) || on_segment(a.1, b) || on_segment(b.0, a) || on_segment(b.1, a)
    };
    let adj: Vec<Vec<usize>> = (0..m).map(|i| (0..m).filter(|&j| j != i && touch(i, j)).collect()).collect();
    let mut parent: Vec<Option<usize>> = vec![None; m];
    let mut seen = vec![false; m];
    let mut queue = VecDeque::new();
    for (i, s) in segs.iter().enumerate() {
        if on_segment(source, s) {
            seen[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        for &j in &adj[i] {
            if !seen[j] {
                seen[j] = true;
                parent[j] = Some(i);
                queue.push_back(j);
            }
        }
    }
    let mut solid = vec![false; m];
    for &e in ends {
        let Some(mut i) = (0..m).find(|&i| seen[i] && on_segment(e, &segs[i])) else {
            return vec![true; m];
        };
        loop {
            solid[i] = true;
            match parent[i] {
                Some(p) => i = p,
                None => break,
            }
        }
    }
    solid
}

#[cfg(test)]
mod tests {
    use crate::check::on_segment;
    use crate::{Body, Edge, Layout, Node, Source, Target};

    fn node(id: &str, ins: &[&str]) -> Node {
        Node {
            id: id.into(),
            label: "X".into(),
            inputs: ins.iter().map(|p| (p.to_string(), None)).collect(),
            outputs: vec!["out".into()],
            negated: Default::default(),
            negated_outputs: Vec::new(),
            comment: None,
        }
    }

    /// The blinker example's shape: a counter feeds a port this scan and, through a feedback
    /// wire, a block before it. In every layout the pieces to the port are solid, the piece
    /// into the feedback input is dashed, and each net has a flag per piece.
    #[test]
    fn only_the_way_to_a_feedback_input_is_late() {
        let body = Body {
            connectors: Vec::new(),
            remote_inputs: 0,
            nodes: vec![node("done", &["in1"]), node("count", &["cu"])],
            inputs: Vec::new(),
            outputs: vec![("cycles".into(), None)],
            edges: vec![
                Edge { from: Source::Out { node: 0, pin: 0 }, to: Target::In { node: 1, pin: 0 }, delayed: false },
                Edge { from: Source::Out { node: 1, pin: 0 }, to: Target::In { node: 0, pin: 0 }, delayed: true },
                Edge { from: Source::Out { node: 1, pin: 0 }, to: Target::Port(0), delayed: false },
            ],
        };
        let check = |l: &Layout, what: &str| {
            for n in &l.nets {
                assert_eq!(n.late.len(), n.segments.len(), "{what}: a flag per piece");
            }
            let n = l.nets.iter().find(|n| n.source == (Source::Out { node: 1, pin: 0 })).expect("count's net");
            assert!(n.delayed, "{what}: a target reads late");
            let port = l.output_ports[0];
            let fb = l.in_anchors[0][0];
            for (s, late) in n.segments.iter().zip(&n.late) {
                if on_segment(port, s) {
                    assert!(!late, "{what}: the port's wire is solid: {s:?}");
                }
                if on_segment(fb, s) {
                    assert!(late, "{what}: the wire into the feedback input is dashed: {s:?}");
                }
            }
            assert!(n.late.iter().any(|l| *l) && n.late.iter().any(|l| !*l), "{what}: {:?}", n.late);
            let plain = l.nets.iter().find(|n| n.source == (Source::Out { node: 0, pin: 0 })).expect("done's net");
            assert!(!plain.delayed && plain.late.iter().all(|l| !*l), "{what}: a plain net is solid");
        };
        check(&crate::layout(&body), "layered");
        check(&crate::layout_kept(&body, &[Some([100.0, 50.0]), Some([300.0, 50.0])]), "kept");
        check(&crate::layout_free(&body, &[Some([100.0, 50.0]), Some([300.0, 50.0])]), "free");
    }
}
