//! A laid-out body as SVG text: blocks as `<g class="block" data-id="ID">` with their `<rect>`,
//! pin names inside, constants beside their pins, wires as `<polyline class="wire"
//! data-net="...">` (dashed when delayed), junction dots, the body's ports at the frames, and
//! optionally live values beside the pins.

use std::fmt::Write;

use crate::{Body, CHAR_W, Layout, NEGATION_R, PITCH, Source};

/// Values to print beside pins: `(node, output pin) → text` for outputs, and the body's ports.
pub trait Values {
    /// The value of output `pin` of node `node`, if known, as drawn (short).
    fn output(&self, node: usize, pin: usize) -> Option<String>;
    /// The value of body input port `k`, if known, as drawn.
    fn input_port(&self, _k: usize) -> Option<String> {
        None
    }
    /// Every digit of output `pin` of node `node`, where the drawn text is shorter: the value's
    /// `<title>` (a browser shows it on hover).
    fn output_exact(&self, _node: usize, _pin: usize) -> Option<String> {
        None
    }
    /// Every digit of body input port `k`, where the drawn text is shorter.
    fn input_port_exact(&self, _k: usize) -> Option<String> {
        None
    }
    /// A note that marks node `node` (drawn outlined in red, the note as its title): what a
    /// coverage report says a block missed.
    fn marked(&self, _node: usize) -> Option<String> {
        None
    }
}

/// A value's `<text>`, with every digit in its `<title>` where the drawn text is shorter.
fn value_text(s: &mut String, x: f64, y: f64, shown: &str, exact: Option<String>) {
    let title = exact.filter(|e| e != shown).map(|e| format!("<title>{}</title>", esc(&e))).unwrap_or_default();
    let _ = writeln!(s, r##"<text class="value" x="{x}" y="{y}">{title}{}</text>"##, esc(shown));
}

/// No values: a static drawing.
pub struct NoValues;

impl Values for NoValues {
    fn output(&self, _: usize, _: usize) -> Option<String> {
        None
    }
}

pub use fbd_model::xml::esc;

/// The name of a net: its source, `block.pin` or the port's name.
pub fn net_name(body: &Body, s: Source) -> String {
    match s {
        Source::Port(k) => body.inputs[k].clone(),
        Source::Out { node, pin } => format!("{}.{}", body.nodes[node].id, body.nodes[node].outputs[pin]),
    }
}

/// The pages of a body drawn on pages, one under another in one SVG, as the window shows them
/// one at a time: each page's drawing (its nets to other pages as connectors) titled with its
/// number and name, a gap between pages.
pub fn svg_pages(pages: &[(String, Body, Layout)], title: &str) -> String {
    const GAP: f64 = 3.0 * PITCH;
    let drawings: Vec<(f64, f64, String)> = pages
        .iter()
        .enumerate()
        .map(|(k, (name, body, l))| {
            let t = format!("{title}, page {}/{}: {name}", k + 1, pages.len());
            (l.width, l.height + PITCH, svg(body, l, &t, &NoValues))
        })
        .collect();
    let width = drawings.iter().map(|d| d.0).fold(0.0, f64::max);
    let height = drawings.iter().map(|d| d.1).sum::<f64>() + GAP * drawings.len().saturating_sub(1) as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"##
    );
    let mut y = 0.0;
    for (_, h, d) in &drawings {
        // Each page is a drawing of its own, placed at its offset.
        let placed = d.replacen("<svg xmlns=\"http://www.w3.org/2000/svg\"", &format!("<svg x=\"0\" y=\"{y}\""), 1);
        s.push_str(&placed);
        y += h + GAP;
    }
    s.push_str("</svg>\n");
    s
}

/// The SVG drawing of `body` laid out as `l`, titled `title`.
pub fn svg(body: &Body, l: &Layout, title: &str, values: &dyn Values) -> String {
    let mut s = String::new();
    let (w, h) = (l.width, l.height + PITCH);
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 {} {w} {h}" font-family="DejaVu Sans Mono, monospace" font-size="11">"##,
        -PITCH
    );
    let _ = writeln!(
        s,
        r##"<style>
.block rect {{ fill: #fdfdf8; stroke: #303030; stroke-width: 1.2; }}
.block.marked rect {{ fill: #fff0ec; stroke: #d03010; stroke-width: 3; }}
.block .title {{ font-weight: bold; fill: #202060; }}
.pin {{ fill: #303030; }}
.const {{ fill: #7a4a00; }}
.value {{ fill: #0a6a2a; font-weight: bold; }}
.wire {{ fill: none; stroke: #303030; stroke-width: 1.2; }}
.wire.delayed {{ stroke: #b03030; stroke-dasharray: 6 4; }}
.junction {{ fill: #303030; }}
.negation {{ fill: #fdfdf8; stroke: #303030; stroke-width: 1.2; }}
.port text {{ fill: #202060; }}
.port path {{ fill: #e8e8f4; stroke: #303030; }}
.connector path {{ fill: #fff4d8; stroke: #806000; }}
.connector text {{ fill: #604800; }}
.connector line {{ stroke: #303030; stroke-width: 1.2; }}
</style>"##
    );
    let _ = writeln!(s, r##"<rect x="0" y="{}" width="{w}" height="{h}" fill="#ffffff"/>"##, -PITCH);
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" font-size="13" font-weight="bold">{}</text>"##,
        PITCH / 2.0,
        -PITCH / 2.0 + 4.0,
        esc(title)
    );
    svg_nets(&mut s, body, l);
    svg_connectors(&mut s, body, l);
    for i in 0..body.nodes.len() {
        svg_block(&mut s, body, l, i, values);
    }
    svg_ports(&mut s, body, l, values);
    s.push_str("</svg>\n");
    s
}

/// Each net as a group of its pieces (dashed where they carry the previous scan's value) and
/// junctions, named after its source.
fn svg_nets(s: &mut String, body: &Body, l: &Layout) {
    for (k, n) in l.nets.iter().enumerate() {
        let name = esc(&net_name(body, n.source));
        let _ = writeln!(s, r##"<g class="net" data-net="{name}" data-index="{k}">"##);
        for (i, (a, b)) in n.segments.iter().enumerate() {
            let class = if n.late.get(i).copied().unwrap_or(n.delayed) { "wire delayed" } else { "wire" };
            let _ = writeln!(
                s,
                r##"<polyline class="{class}" data-net="{name}" points="{},{} {},{}"/>"##,
                a.x, a.y, b.x, b.y
            );
        }
        for p in &n.junctions {
            let _ = writeln!(s, r##"<circle class="junction" cx="{}" cy="{}" r="3"/>"##, p.x, p.y);
        }
        s.push_str("</g>\n");
    }
}

/// Each net drawn as labels: a connector (a tag pointing right) beside its source, a
/// continuation (a tag pointing at the pin) beside each target, both naming the source.
fn svg_connectors(s: &mut String, body: &Body, l: &Layout) {
    for c in &l.connectors {
        let name = esc(&c.label);
        let w = crate::tag_width(&c.label);
        let _ = writeln!(s, r##"<g class="connector" data-net="{name}">"##);
        // A source on another page has its connector there.
        if !body.is_remote(c.source) {
            let a = l.source_anchor(c.source);
            let t = crate::connector_tag(a);
            let _ = writeln!(s, r##"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"##, a.x, a.y, t.x, t.y);
            tag(s, t.x, t.y, w, &name);
        }
        for &target in &c.targets {
            let b = l.target_anchor(target);
            let e = crate::continuation_tag(b);
            let _ = writeln!(s, r##"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"##, e.x, e.y, b.x, b.y);
            tag(s, e.x - w, e.y, w, &name);
        }
        s.push_str("</g>\n");
    }
}

/// A tag `w` wide from `x` at height `y`, its right end pointed, with `name` in it.
fn tag(s: &mut String, x: f64, y: f64, w: f64, name: &str) {
    let h = PITCH * 0.4;
    let _ = writeln!(
        s,
        r##"<path d="M{x},{} L{},{} L{},{y} L{},{} L{x},{} Z"/><text x="{}" y="{}">{name}</text>"##,
        y - h,
        x + w - h,
        y - h,
        x + w,
        x + w - h,
        y + h,
        y + h,
        x + 3.0,
        y + 4.0
    );
}

/// Block `i`: its box, type, id above it, pins (negations, constants) and output values.
fn svg_block(s: &mut String, body: &Body, l: &Layout, i: usize, values: &dyn Values) {
    let (n, r) = (&body.nodes[i], &l.blocks[i]);
    let mark = values.marked(i);
    let class = if mark.is_some() { "block marked" } else { "block" };
    let _ = writeln!(s, r##"<g class="{class}" data-id="{}">"##, esc(&n.id));
    // The comment (or the mark's note) as the block's title: a browser shows it on hover.
    match (&mark, &n.comment) {
        (Some(m), _) => {
            let _ = writeln!(s, "<title>{}: {}</title>", esc(&n.id), esc(m));
        }
        (None, Some(c)) => {
            let _ = writeln!(s, "<title>{}: {}</title>", esc(&n.id), esc(c));
        }
        (None, None) => {}
    }
    let _ = writeln!(s, r##"<rect x="{}" y="{}" width="{}" height="{}" rx="3"/>"##, r.x, r.y, r.w, r.h);
    let _ = writeln!(
        s,
        r##"<text class="title" x="{}" y="{}" text-anchor="middle">{}</text>"##,
        r.x + r.w / 2.0,
        r.y + PITCH / 2.0 + 4.0,
        esc(&n.label)
    );
    let _ = writeln!(
        s,
        r##"<text class="pin" x="{}" y="{}" text-anchor="middle" font-size="9" fill="#707070">{}</text>"##,
        r.x + r.w / 2.0,
        r.y - 3.0,
        esc(&n.id)
    );
    for (k, (p, c)) in n.inputs.iter().enumerate() {
        let a = l.in_anchors[i][k];
        let _ = writeln!(s, r##"<text class="pin" x="{}" y="{}">{}</text>"##, a.x + 4.0, a.y + 4.0, esc(p));
        // IEC 61131-3's negation: a circle at the pin, over the wire's end.
        let negated = n.is_negated(k);
        if negated {
            let _ =
                writeln!(s, r##"<circle class="negation" cx="{}" cy="{}" r="{NEGATION_R}"/>"##, a.x - NEGATION_R, a.y);
        }
        if let Some(c) = c {
            let _ = writeln!(
                s,
                r##"<text class="const" x="{}" y="{}" text-anchor="end">{}</text>"##,
                a.x - 4.0 - if negated { 2.0 * NEGATION_R } else { 0.0 },
                a.y + 4.0,
                esc(c)
            );
        }
    }
    for (k, p) in n.outputs.iter().enumerate() {
        let a = l.out_anchors[i][k];
        let _ = writeln!(
            s,
            r##"<text class="pin" x="{}" y="{}" text-anchor="end">{}</text>"##,
            a.x - 4.0,
            a.y + 4.0,
            esc(p)
        );
        let negated = n.is_negated_output(k);
        if negated {
            let _ =
                writeln!(s, r##"<circle class="negation" cx="{}" cy="{}" r="{NEGATION_R}"/>"##, a.x + NEGATION_R, a.y);
        }
        if let Some(v) = values.output(i, k) {
            let x = a.x + 3.0 + if negated { 2.0 * NEGATION_R } else { 0.0 };
            value_text(s, x, a.y - 3.0, &v, values.output_exact(i, k));
        }
    }
    s.push_str("</g>\n");
}

/// The body's input ports (with their values) and output ports (with a constant they are set to).
fn svg_ports(s: &mut String, body: &Body, l: &Layout, values: &dyn Values) {
    for (k, name) in body.inputs.iter().enumerate().filter(|(k, _)| !body.is_remote(Source::Port(*k))) {
        let a = l.input_ports[k];
        let x0 = a.x - name.chars().count() as f64 * CHAR_W - PITCH;
        let _ = writeln!(
            s,
            r##"<g class="port" data-port="{0}"><path d="M{1},{2} H{3} L{4},{5} L{3},{6} H{1} Z"/><text x="{7}" y="{8}">{0}</text></g>"##,
            esc(name),
            x0,
            a.y - 7.0,
            a.x - 7.0,
            a.x,
            a.y,
            a.y + 7.0,
            x0 + 3.0,
            a.y + 4.0
        );
        if let Some(v) = values.input_port(k) {
            value_text(s, a.x + 3.0, a.y - 3.0, &v, values.input_port_exact(k));
        }
    }
    for (k, (name, c)) in body.outputs.iter().enumerate() {
        let a = l.output_ports[k];
        let x1 = a.x + name.chars().count() as f64 * CHAR_W + PITCH;
        let _ = writeln!(
            s,
            r##"<g class="port" data-port="{0}"><path d="M{1},{2} L{3},{4} H{5} V{6} H{3} Z"/><text x="{7}" y="{8}">{0}</text></g>"##,
            esc(name),
            a.x,
            a.y,
            a.x + 7.0,
            a.y - 7.0,
            x1,
            a.y + 7.0,
            a.x + 9.0,
            a.y + 4.0
        );
        if let Some(c) = c {
            let _ = writeln!(
                s,
                r##"<text class="const" x="{}" y="{}" text-anchor="end">{}</text>"##,
                a.x - 4.0,
                a.y + 4.0,
                esc(c)
            );
        }
    }
}

#[cfg(test)]
mod esc_tests {
    #[test]
    fn characters_xml_cannot_hold_are_replaced() {
        assert_eq!(super::esc("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(super::esc("x\u{0}y\u{1F}\tz\u{FFFE}\u{FFFF}"), "x\u{FFFD}y\u{FFFD}\tz\u{FFFD}\u{FFFD}");
    }
}
