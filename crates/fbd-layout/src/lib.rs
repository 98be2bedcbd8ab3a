//! fbd-layout: one FBD body (the program, or one macro definition) laid out as a PLC engineer
//! draws it, as pure geometry: no GUI, no engine run.
//!
//! The algorithm is the layered (Sugiyama) one that the Eclipse Layout Kernel uses for block
//! diagrams with ports:
//!
//! 1. **Columns** by data flow, left to right (`layers`): the body's input ports in the first
//!    column, its output ports in the last. Feedback wires and delayed outputs (MEMORY.prev,
//!    DELAY.q) do not constrain the columns; a wire whose target is not right of its source is
//!    routed around the drawing (above it) and flagged `back`.
//! 2. Wires spanning several columns get a **dummy** per crossed column, one per net (fan-out
//!    shares them), so they run through the gaps between blocks.
//! 3. **Crossing minimisation**: barycentre sweeps over the columns with pin-aware positions;
//!    the order with the fewest crossings is kept.
//! 4. **Rows** (`place`): every node is pulled towards the median row of its neighbours' pins,
//!    so most wires run straight; blocks never overlap.
//! 5. **Orthogonal routing** (`route`): in each channel between two columns every net that
//!    must turn gets a vertical track of its own, ordered so that no two nets share a segment.
//!
//! The result is a [`Layout`]; [`check`] verifies its invariants (no overlap, no wire through a
//! block, no shared segment, every pin reached) and [`from_model`] builds a [`Body`] from a
//! diagram file.
//!
//! What is where: one body (program or macro) → geometry: columns by data flow, dummies, barycentre
//! ordering with transposes, rows by isotonic median placement, orthogonal channel routing with one
//! track per net (lanes above the drawing for back wires and for the rare track-order cycles); with
//! stored positions (`layout_kept`) columns keep their stored distances, so the online view draws
//! blocks where the editor has them; `Options::WITH_VALUES` (`layout_with`, `layout_kept_with`)
//! keeps room beside every output pin for its live value, so no other net's wire runs under it (the
//! online view and `fbd svg` with values); `Options::with_connectors` (a `ConnectorRule`: nets
//! crossing more than N others or longer than L drawn as a connector at the source and a
//! continuation at each reader, the rest laid out again; `route::net_crossings` counts each net's
//! crossings by two sweeps); `layout_free` (the editor's drawing: blocks exactly where they stand,
//! wires turned where no block is in the way or around the blocks between their ends, back wires
//! over every block between their ends, each run shifted within its grid step off other nets' runs,
//! sharing the least where a channel is too full; blocks found by band, not by scanning all);
//! `snap` (the grid blocks stand on: pins on the grid lines); `late` (which pieces of a net lead
//! only to feedback inputs: drawn dashed); `check` (invariants; `value_room` for the room beside
//! the pins; `ids_clear`: no wire through a block's id, a promise of the automatic layouts, whose
//! placement keeps the row above every block free), `from_model` (a body from a loaded diagram,
//! with each pin's negation; `body_for_editing` adds a free pin to input families), `svg` (negated
//! pins with IEC's circle), `page` (a page of a body: nets to other pages as connectors), `sheets`
//! (a drawing cut into sheets of paper or of the screen, only where no block, constant or tag
//! stands: `fbd svg --sheets`, Print on A4 sheets, the online view's sheets), `png` (feature `png`:
//! a drawing rendered to fit A4, or its sheets at 8 pt with captions, written beside NAME.png),
//! `ladder` (a ladder body: rails, rungs, contacts, coils and blocks where the file has them or a
//! rung per coil, its SVG, and the power flow a scan's values show). A
//! connector's tag widens only the channel after its source (`route::channel_rooms`). No GUI.
//! Near-linear in the body's size (100k blocks in ~4 s): each step reads only what it changes (a
//! transpose counts only the swapped pair's crossings, a sweep only its column's links, a net only
//! its channels)

pub mod check;
mod free;
pub mod from_model;
pub mod ladder;
mod late;
mod layers;
pub mod page;
mod place;
#[cfg(feature = "png")]
pub mod png;
mod route;
pub mod sheets;
pub mod st;
pub mod svg;

pub use free::layout_free;

/// Grid pitch in drawing units: the distance between two pins, two wires, two tracks.
pub const PITCH: f64 = 20.0;
/// The grid point nearest `p` where a block's top-left corner may stand: x on a multiple of
/// [`PITCH`], y half a pitch above one, so that the block's pins (and the wires along them)
/// lie on the grid lines. The layered layout stores its positions on this grid, and the
/// editor snaps to it, so a block moved by hand lines up with the ones it did not move.
pub fn snap(p: [f64; 2]) -> [f64; 2] {
    let x = (p[0] / PITCH).round() * PITCH;
    let y = ((p[1] + PITCH / 2.0) / PITCH).round() * PITCH - PITCH / 2.0;
    [x.max(0.0), y.max(PITCH / 2.0)]
}

/// Width of one character of a label, for sizing blocks and ports.
pub const CHAR_W: f64 = 7.0;

/// Radius of the circle a negated input is drawn with, just left of the block's edge.
pub const NEGATION_R: f64 = 3.5;

/// A point of the drawing (x right, y down).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Point {
    /// Horizontal.
    pub x: f64,
    /// Vertical (down).
    pub y: f64,
}

/// An axis-parallel rectangle.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Node {
    /// Whether input `k` is negated.
    pub fn is_negated(&self, k: usize) -> bool {
        self.negated.get(k).copied().unwrap_or(false)
    }
    /// Whether output `k` is negated.
    pub fn is_negated_output(&self, k: usize) -> bool {
        self.negated_outputs.get(k).copied().unwrap_or(false)
    }
}

impl Rect {
    /// Whether the interiors of two rectangles intersect.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// One block of a body: a library block or a macro instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The block id.
    pub id: String,
    /// The type shown in the title (`TON`, `Cell`).
    pub label: String,
    /// Input pins in library order, each with the constant wired to it, if one is.
    pub inputs: Vec<(String, Option<String>)>,
    /// Output pins in library order.
    pub outputs: Vec<String>,
    /// Per input pin, whether it is negated (drawn with a circle); empty when none is.
    pub negated: Vec<bool>,
    /// Per output pin, whether it is negated; empty when none is.
    pub negated_outputs: Vec<bool>,
    /// The block's comment (what it is for, in the author's words), shown on hover.
    pub comment: Option<String>,
}

/// What drives a wire.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// Input port `k` of the body (a program input or a macro input port).
    Port(usize),
    /// Output `pin` of block `node`.
    Out {
        /// Index into [`Body::nodes`].
        node: usize,
        /// Index into the node's outputs.
        pin: usize,
    },
}

/// What a wire feeds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// Output port `k` of the body.
    Port(usize),
    /// Input `pin` of block `node`.
    In {
        /// Index into [`Body::nodes`].
        node: usize,
        /// Index into the node's inputs.
        pin: usize,
    },
}

/// One wire of a body.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Edge {
    /// Its driver.
    pub from: Source,
    /// What it feeds.
    pub to: Target,
    /// It carries the previous scan's value (a feedback wire, or MEMORY.prev / DELAY.q): it does
    /// not order the columns and is drawn dashed.
    pub delayed: bool,
}

/// The input of the layout: one body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Body {
    /// Its blocks.
    pub nodes: Vec<Node>,
    /// Its input ports (left frame), by name.
    pub inputs: Vec<String>,
    /// Its output ports (right frame), each with the constant bound to it, if one is.
    pub outputs: Vec<(String, Option<String>)>,
    /// Its wires.
    pub edges: Vec<Edge>,
    /// Nets the author named with a connector: these edges (also in `edges`) are drawn as a
    /// connector and continuations with the author's name, whatever the options.
    pub connectors: Vec<NamedNet>,
    /// The last `remote_inputs` of `inputs` are signals of other pages of the body that this
    /// page reads (named `block.pin`), drawn only as the continuations of their connectors.
    pub remote_inputs: usize,
}

impl Body {
    /// Whether `s` is on another page (a remote input).
    pub fn is_remote(&self, s: Source) -> bool {
        matches!(s, Source::Port(k) if k + self.remote_inputs >= self.inputs.len())
    }
}

/// A connector of a body as its author wrote it: a name for the edges from `source` to
/// `targets`.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedNet {
    /// The connector's name.
    pub name: String,
    /// What it carries.
    pub source: Source,
    /// Its continuations' readers.
    pub targets: Vec<Target>,
}

/// One axis-parallel segment of a wire.
pub type Segment = (Point, Point);

/// The drawing of one net: a source and every target it feeds.
#[derive(Clone, Debug, PartialEq)]
pub struct NetGeom {
    /// The driver.
    pub source: Source,
    /// The targets, in edge order.
    pub targets: Vec<Target>,
    /// Axis-parallel segments; together they connect the source anchor to every target anchor.
    pub segments: Vec<Segment>,
    /// Where the net branches (fan-out): drawn as dots.
    pub junctions: Vec<Point>,
    /// Some target reads the previous scan's value (a feedback wire, or a delayed output such
    /// as MEMORY.prev).
    pub delayed: bool,
    /// Per segment: it leads only to targets that read the previous scan's value (drawn
    /// dashed). A net with a feedback wire to one block and a plain wire to another is dashed
    /// only on the way to the first.
    pub late: Vec<bool>,
}

/// Quality figures of a layout.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Points where a segment of one net crosses a segment of another.
    pub crossings: usize,
    /// Corners of all wires.
    pub bends: usize,
    /// Total wire length in drawing units.
    pub length: f64,
}

/// The geometry of a laid-out body.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// One rectangle per node, in [`Body::nodes`] order.
    pub blocks: Vec<Rect>,
    /// Anchor of every input pin, per node.
    pub in_anchors: Vec<Vec<Point>>,
    /// Anchor of every output pin, per node.
    pub out_anchors: Vec<Vec<Point>>,
    /// Anchor of every body input port (at the left frame).
    pub input_ports: Vec<Point>,
    /// Anchor of every body output port (at the right frame).
    pub output_ports: Vec<Point>,
    /// The wires, one per source.
    pub nets: Vec<NetGeom>,
    /// Nets drawn as a connector at their source and a continuation at each target instead of
    /// a wire (see [`ConnectorRule`]); they are not in `nets`.
    pub connectors: Vec<ConnectorGeom>,
    /// The drawing's extent: everything lies in `[0, width] × [0, height]`.
    pub width: f64,
    /// See `width`.
    pub height: f64,
    /// Quality figures.
    pub stats: Stats,
}

impl Layout {
    /// The anchor of a source.
    pub fn source_anchor(&self, s: Source) -> Point {
        match s {
            Source::Port(k) => self.input_ports[k],
            Source::Out { node, pin } => self.out_anchors[node][pin],
        }
    }

    /// The anchor of a target.
    pub fn target_anchor(&self, t: Target) -> Point {
        match t {
            Target::Port(k) => self.output_ports[k],
            Target::In { node, pin } => self.in_anchors[node][pin],
        }
    }
}

/// A stored position the layout can work with: finite and within the drawing the loader
/// allows (`fbd_model::limits::MAX_POS`); any other counts as none. The editor opens files
/// that do not load (to mend them), and 1e300 overflowed the rows it was turned into.
pub(crate) fn usable(p: Option<[f64; 2]>) -> Option<[f64; 2]> {
    p.filter(|p| p.iter().all(|c| c.abs() <= fbd_model::limits::MAX_POS))
}

/// The width of a block drawn for `n`: its title and the longest input and output pin names
/// side by side, on the grid.
pub fn node_width(n: &Node) -> f64 {
    let longest = |v: &mut dyn Iterator<Item = usize>| v.max().unwrap_or(0) as f64;
    let ins = longest(&mut n.inputs.iter().map(|(p, _)| p.chars().count()));
    let outs = longest(&mut n.outputs.iter().map(|p| p.chars().count()));
    let w = ((ins + outs) * CHAR_W + 3.0 * CHAR_W)
        .max(n.label.chars().count() as f64 * 8.0 + 2.0 * CHAR_W)
        .max(3.0 * PITCH);
    (w / PITCH).ceil() * PITCH
}

/// What a view draws beside the drawing's pins, for which the layout leaves room.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// Free width right of every output pin and input port before the first vertical wire of
    /// the channel: an online view draws the pin's live value there. Without it a wire of
    /// another net ran up or down under the value box, where it read as a branch of that
    /// output. Zero for the drawing alone (the editor, SVG, stored positions).
    pub value_room: f64,
    /// Long nets drawn as connector pairs (PLCopen's connector and continuation, CODESYS's
    /// connection marks) instead of wires across the page; `None` draws every net as a wire.
    pub connectors: Option<ConnectorRule>,
}

impl Options {
    /// Room for live values beside the pins, as the HMI's online view and `fbd svg` with values
    /// draw them: `FALSE`, or a number of up to eight characters (a REAL is drawn to five
    /// significant digits: `0.67997`), in the drawing's 11-unit monospace font.
    pub const WITH_VALUES: Options = Options { value_room: 3.0 * PITCH, connectors: None };

    /// These options with long nets drawn as connector pairs by `rule`.
    pub const fn with_connectors(self, rule: ConnectorRule) -> Options {
        Options { connectors: Some(rule), ..self }
    }
}

/// Which nets a layout draws as connector pairs: those whose wire, laid out as a wire, crosses
/// more than `crossings` other wires or is longer than `length` drawing units.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ConnectorRule {
    /// Crossings with other nets above which a net becomes a connector pair.
    pub crossings: usize,
    /// Wire length (drawing units) above which a net becomes a connector pair.
    pub length: f64,
}

impl ConnectorRule {
    /// What the online view and `fbd svg --connectors` use: a wire crossing more than 12 others,
    /// or longer than 120 grid steps (about two screen widths at a readable zoom).
    pub const DEFAULT: ConnectorRule = ConnectorRule { crossings: 12, length: 120.0 * PITCH };
}

/// A net drawn as labels: a connector beside its source, a continuation beside each target,
/// each naming the source (`block.pin`, or the input port's name).
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectorGeom {
    /// The driver.
    pub source: Source,
    /// The label both ends show.
    pub label: String,
    /// The targets, each drawn with a continuation.
    pub targets: Vec<Target>,
}

/// Lays out `body`. Deterministic: the same body gives the same geometry.
pub fn layout(body: &Body) -> Layout {
    layout_with(body, &Options::default())
}

/// [`layout`] with room for what a view draws beside the pins.
pub fn layout_with(body: &Body, opts: &Options) -> Layout {
    with_connectors(body, opts, wired)
}

/// The room a connector's tag takes right of its source, beyond the pin: the channel after
/// the source's column keeps it (only that channel: a tag elsewhere widened every channel).
pub(crate) type TagRoom = [(Source, f64)];

/// Lays out `body` with every net a wire, keeping `tags` room after the connectors' sources.
fn wired(body: &Body, opts: &Options, tags: &TagRoom) -> Layout {
    let g = layers::build(body, None);
    // Dummies (added after the grid was set) are free.
    let mut held = g.grid_rows.clone();
    held.resize(g.nodes.len(), None);
    let rows = place::rows(&g, &held);
    let mut l = route::route(body, &g, &rows, opts, tags);
    late::mark(body, &mut l);
    l
}

/// Lays out `body` keeping the blocks where the file puts them: `pos[i]` is the top-left corner
/// of node `i` as stored (`pos` in a diagram). Blocks with one stored x form a column, and the
/// columns keep their stored distances (the drawing as a whole may move), further apart only
/// where a channel needs more room for its wires; order and rows follow the stored y (snapped
/// to the grid, spaced where they would overlap); ports and wires are placed and routed as in
/// [`layout`]. So the online view shows a drawing where the editor has it. Without a position
/// for every block, this is [`layout`].
pub fn layout_kept(body: &Body, pos: &[Option<[f64; 2]>]) -> Layout {
    layout_kept_with(body, pos, &Options::default())
}

/// [`layout_kept`] with room for what a view draws beside the pins (the columns move further
/// apart where a channel needs it).
pub fn layout_kept_with(body: &Body, pos: &[Option<[f64; 2]>], opts: &Options) -> Layout {
    with_connectors(body, opts, |b, o, t| wired_kept(b, pos, o, t))
}

/// [`layout_kept_with`] with every net a wire.
fn wired_kept(body: &Body, pos: &[Option<[f64; 2]>], opts: &Options, tags: &TagRoom) -> Layout {
    let all: Option<Vec<[f64; 2]>> = pos.iter().map(|p| usable(*p)).collect();
    let Some(all) = all.filter(|a| a.len() == body.nodes.len() && !a.is_empty()) else {
        return wired(body, opts, tags);
    };
    let g = layers::build(body, Some(&all));
    let kept: Vec<Option<i64>> = g
        .nodes
        .iter()
        .map(|n| match n.kind {
            // The stored y is the rectangle's top, half a row above the title row.
            layers::Kind::Block(i) => Some(((all[i][1] + PITCH / 2.0) / PITCH).round() as i64),
            _ => None,
        })
        .collect();
    let rows = place::rows(&g, &kept);
    let mut l = route::route(body, &g, &rows, opts, tags);
    late::mark(body, &mut l);
    l
}

/// Lays `body` out with `lay`, the nets its author named with connectors drawn as connector
/// pairs; with a connector rule, lays it out again without the nets the rule picks, which are
/// then drawn as connector pairs too. The blocks are placed for the wires that remain (stored
/// positions stay stored), so a wire that was short can grow long: the rule is applied again
/// to the new drawing, up to three rounds. The channels keep room for the tags (a
/// continuation's tag stands left of its pin, a connector's right of its source).
fn with_connectors(body: &Body, opts: &Options, lay: impl Fn(&Body, &Options, &TagRoom) -> Layout) -> Layout {
    let mut cut: Vec<ConnectorGeom> = body
        .connectors
        .iter()
        .map(|n| ConnectorGeom { source: n.source, label: n.name.clone(), targets: n.targets.clone() })
        .collect();
    let relay = |cut: &[ConnectorGeom]| {
        let (wired_only, tags) = without_cut_nets(body, cut, opts);
        lay(&wired_only, opts, &tags)
    };
    let mut l = if cut.is_empty() { lay(body, opts, &[]) } else { relay(&cut) };
    if let Some(rule) = opts.connectors {
        for _ in 0..3 {
            let crossings = route::net_crossings(&l.nets);
            let long = |n: &NetGeom| {
                n.segments.iter().map(|s| (s.0.x - s.1.x).abs() + (s.0.y - s.1.y).abs()).sum::<f64>() > rule.length
            };
            let more: Vec<ConnectorGeom> = l
                .nets
                .iter()
                .zip(&crossings)
                .filter(|(n, c)| **c > rule.crossings || long(n))
                .map(|(n, _)| ConnectorGeom {
                    source: n.source,
                    label: svg::net_name(body, n.source),
                    targets: n.targets.clone(),
                })
                .collect();
            if more.is_empty() {
                break;
            }
            cut.extend(more);
            l = relay(&cut);
        }
    }
    l.connectors = cut;
    l
}

/// Whether `cut` draws the edge from `from` to `to` as a connector pair.
fn is_cut(cut: &[ConnectorGeom], from: Source, to: Target) -> bool {
    cut.iter().any(|c| c.source == from && c.targets.contains(&to))
}

/// `body` without the edges of `cut`, and the room their tags take: a connector's tag right
/// of its source (in the channel after the source's column), a continuation's left of its
/// reader, as much as that channel needs (held like a constant's label: the pin gets a blank
/// one as long as the tag, and the value an online view adds).
fn without_cut_nets(body: &Body, cut: &[ConnectorGeom], opts: &Options) -> (Body, Vec<(Source, f64)>) {
    let mut b = body.clone();
    b.edges.retain(|e| !is_cut(cut, e.from, e.to));
    let value_chars = if opts.value_room > 0.0 { 10 } else { 0 };
    for c in cut {
        // A tag is its label and a grid step; it ends a grid step left of the pin.
        let blank = " ".repeat(c.label.chars().count() + value_chars + (2.0 * PITCH / CHAR_W) as usize);
        for t in &c.targets {
            match *t {
                Target::In { node, pin } => b.nodes[node].inputs[pin].1 = Some(blank.clone()),
                Target::Port(k) => b.outputs[k].1 = Some(blank.clone()),
            }
        }
    }
    let tags = cut
        .iter()
        .map(|c| (c.source, connector_tag(Point { x: 0.0, y: 0.0 }).x + tag_width(&c.label) + PITCH))
        .collect();
    (b, tags)
}

/// Where a connector's tag is drawn: the stub from the source anchor runs right to the tag,
/// past the room an online view keeps for the pin's value. Returns the tag's left end.
pub fn connector_tag(source_anchor: Point) -> Point {
    Point { x: source_anchor.x + 3.0 * PITCH, y: source_anchor.y }
}

/// Where a continuation's tag ends: one grid step left of the target anchor, the stub between.
/// Returns the tag's right end; the tag is [`tag_width`] wide.
pub fn continuation_tag(target_anchor: Point) -> Point {
    Point { x: target_anchor.x - PITCH, y: target_anchor.y }
}

/// The width of a connector's or continuation's tag for `label`.
pub fn tag_width(label: &str) -> f64 {
    label.chars().count() as f64 * CHAR_W + PITCH
}
