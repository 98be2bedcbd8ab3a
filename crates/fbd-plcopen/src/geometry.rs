//! Where the elements of an exported FBD body stand. Blocks stand where the diagram has them
//! (stored positions as they are, the others laid out by `fbd-layout`), with their size and
//! each pin's connection point; a program's (or a macro's) inputs and outputs are variable
//! boxes where the drawing has its ports, one per input however many pins it feeds; a constant
//! or a feedback read is a box just left of the pin it feeds, and a feedback write one just
//! right of the pin it reads. Every variable stood at (0, 0) with no size and no connection
//! point, so another tool opened the export with all of them piled in a corner.

use fbd_layout::{CHAR_W, Layout, PITCH, Point};
use fbd_model::load::Project;
use fbd_model::model::Block;

/// Height of a variable box: one pin row of the drawing.
pub(crate) const BOX_H: f64 = 14.0;

/// Width of a variable box that shows `text`.
pub(crate) fn box_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_W + PITCH / 2.0
}

/// The drawing of one body, as the export places its elements.
pub(crate) struct Geometry {
    l: Layout,
    /// Each block's exported position (its stored one, else the layout's).
    pos: Vec<[f64; 2]>,
    /// The body's input names, in the order of the layout's input ports.
    inputs: Vec<String>,
}

impl Geometry {
    /// The geometry of the body of macro `mac` (the program for ""), whose blocks are `blocks`;
    /// `None` where the body cannot be drawn (the export then says nothing of positions).
    pub(crate) fn of(project: &Project, mac: &str, blocks: &[Block]) -> Option<Geometry> {
        let mut body = fbd_layout::from_model::body(project, (!mac.is_empty()).then_some(mac)).ok()?;
        // The export drops a connector no continuation reads (a variable's name): no tag.
        body.connectors.retain(|c| !c.targets.is_empty());
        let stored: Vec<Option<[f64; 2]>> = blocks.iter().map(|b| b.pos).collect();
        let l = fbd_layout::layout_kept(&body, &stored);
        if l.blocks.len() != blocks.len() {
            return None;
        }
        let pos = blocks.iter().zip(&l.blocks).map(|(b, r)| b.pos.unwrap_or([r.x, r.y])).collect();
        Some(Geometry { l, pos, inputs: body.inputs })
    }

    /// Block `k`'s exported position.
    pub(crate) fn block_pos(&self, k: usize) -> [f64; 2] {
        self.pos[k]
    }

    /// Block `k`'s width and height.
    pub(crate) fn block_size(&self, k: usize) -> (f64, f64) {
        (self.l.blocks[k].w, self.l.blocks[k].h)
    }

    /// Input pin `pin` (its index among the block's input pins) of block `k`, relative to the
    /// block.
    pub(crate) fn in_rel(&self, k: usize, pin: usize) -> Point {
        let (a, r) = (self.l.in_anchors[k][pin], &self.l.blocks[k]);
        Point { x: a.x - r.x, y: a.y - r.y }
    }

    /// Output pin `pin` of block `k`, relative to the block.
    pub(crate) fn out_rel(&self, k: usize, pin: usize) -> Point {
        let (a, r) = (self.l.out_anchors[k][pin], &self.l.blocks[k]);
        Point { x: a.x - r.x, y: a.y - r.y }
    }

    /// Input pin `pin` of block `k` where it stands in the export.
    pub(crate) fn in_at(&self, k: usize, pin: usize) -> Point {
        let r = self.in_rel(k, pin);
        Point { x: self.pos[k][0] + r.x, y: self.pos[k][1] + r.y }
    }

    /// Output pin `pin` of block `k` where it stands in the export.
    pub(crate) fn out_at(&self, k: usize, pin: usize) -> Point {
        let r = self.out_rel(k, pin);
        Point { x: self.pos[k][0] + r.x, y: self.pos[k][1] + r.y }
    }

    /// The connection point of the body's input `name` (the right end of its port).
    pub(crate) fn input_port(&self, name: &str) -> Option<Point> {
        self.inputs.iter().position(|n| n == name).map(|k| self.l.input_ports[k])
    }

    /// The connection point of the body's output `k` (the left end of its port).
    pub(crate) fn output_port(&self, k: usize) -> Option<Point> {
        self.l.output_ports.get(k).copied()
    }
}
