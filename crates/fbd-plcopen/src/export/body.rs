//! One FBD body of the export: its blocks with their pins, the variable boxes its reads and
//! writes need (constants, the body's inputs and outputs, the feedback variables), each where
//! the drawing has it (`crate::geometry`).

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use fbd_engine::library;
use fbd_engine::load::Project;
use fbd_engine::model::{Block, Wire};
use fbd_engine::{Type, Value};
use fbd_layout::Point;

use super::{Instance, STANDARD, Types, VarDecl, documentation, esc, formal_in, formal_out, ident};
use crate::geometry::{BOX_H, Geometry, box_width};
use crate::literal::to_iec;

/// One exported FBD body.
pub(super) struct Body {
    pub(super) xml: String,
    /// Local variables (the feedback wires) with their initial values.
    pub(super) locals: Vec<VarDecl>,
    /// Function block instances: (instance name, type, initial member values).
    pub(super) instances: Vec<Instance>,
}

/// Writes the elements of one body: ids, the inVariables that reads need, feedback variables.
struct Emitter<'a> {
    next_id: u64,
    reads: String,
    locals: Vec<VarDecl>,
    /// Feedback variables to write at the end: (variable, block localId, formal parameter,
    /// where the pin it reads stands).
    late: Vec<(String, u64, String, Point)>,
    blocks: &'a [Block],
    block_ids: HashMap<&'a str, u64>,
    types: &'a Types,
    mac: &'a str,
    /// Each block's input and output pins.
    pins: Vec<(Vec<String>, Vec<String>)>,
    geom: Option<Geometry>,
    /// The inVariable of each body input read so far: one box per input, at its port.
    input_vars: HashMap<String, u64>,
}

impl Emitter<'_> {
    fn id(&mut self) -> u64 {
        let i = self.next_id;
        self.next_id += 1;
        i
    }

    /// A variable box reading `expr` whose connection point (its right end) is `at`.
    fn in_variable(&mut self, expr: &str, at: Point) -> String {
        let i = self.id();
        let w = box_width(expr);
        let _ = writeln!(
            self.reads,
            "            <inVariable localId=\"{i}\" height=\"{BOX_H}\" width=\"{w}\"><position x=\"{}\" y=\"{}\"/><connectionPointOut><relativePosition x=\"{w}\" y=\"{}\"/></connectionPointOut><expression>{}</expression></inVariable>",
            at.x - w,
            at.y - BOX_H / 2.0,
            BOX_H / 2.0,
            esc(expr)
        );
        format!("<connection refLocalId=\"{i}\"/>")
    }

    /// Where block `b`'s output `pin` stands, if the body is drawn.
    fn out_point(&self, b: &str, pin: &str) -> Option<Point> {
        let k = (*self.block_ids.get(b)? - 1) as usize;
        let j = self.pins.get(k)?.1.iter().position(|p| p == pin)?;
        Some(self.geom.as_ref()?.out_at(k, j))
    }

    /// The `<connection>` for what drives a pin (`what` names the pin, for a feedback
    /// variable's name; `at` is where the pin stands).
    fn connect(&mut self, w: &Wire, what: &str, at: Point) -> String {
        match w {
            Wire::Const(v) => self.in_variable(&to_iec(*v), at),
            Wire::Ref(r) => match r.split_once('.') {
                Some((b, p)) if self.block_ids.contains_key(b) => {
                    let bi = self.block_ids[b];
                    format!(
                        "<connection refLocalId=\"{bi}\" formalParameter=\"{}\"/>",
                        esc(&formal_out(self.blocks, &self.block_ids, b, p))
                    )
                }
                _ => match self.input_vars.get(r) {
                    Some(&i) => format!("<connection refLocalId=\"{i}\"/>"),
                    None => {
                        // One box per input, where the drawing has its port.
                        let port = self.geom.as_ref().and_then(|g| g.input_port(r));
                        let conn = self.in_variable(r, port.unwrap_or(at));
                        if port.is_some() {
                            self.input_vars.insert(r.clone(), self.next_id - 1);
                        }
                        conn
                    }
                },
            },
            Wire::Feedback { from, init } => {
                // The previous scan's value: a variable written at the end of the body and read
                // here, before that.
                let var = format!("fb_{}", ident(what));
                let ty = self.types.output.get(&(self.mac.to_string(), from.clone())).copied().unwrap_or(Type::Int);
                self.locals.push((var.clone(), ty, *init, None));
                match from.split_once('.') {
                    Some((b, p)) if self.block_ids.contains_key(b) => {
                        let bi = self.block_ids[b];
                        let from_at = self.out_point(b, p).unwrap_or(Point { x: 0.0, y: 0.0 });
                        self.late.push((var.clone(), bi, formal_out(self.blocks, &self.block_ids, b, p), from_at));
                    }
                    _ => {}
                }
                self.in_variable(&var, at)
            }
        }
    }
}

pub(super) fn body_xml(
    project: &Project,
    types: &Types,
    mac: &str,
    blocks: &[Block],
    outputs: &[fbd_engine::model::PortOut],
    helpers: &mut BTreeSet<(String, Type)>,
) -> Body {
    let mut xml = String::new();
    let block_ids: HashMap<&str, u64> = blocks.iter().enumerate().map(|(k, b)| (b.id.as_str(), k as u64 + 1)).collect();
    // The drawing: stored positions kept, the rest laid out, so that it opens readable in
    // other tools.
    let geom = Geometry::of(project, mac, blocks);
    let mut em = Emitter {
        next_id: blocks.len() as u64 + 1,
        reads: String::new(),
        locals: Vec::new(),
        late: Vec::new(),
        blocks,
        block_ids,
        types,
        mac,
        pins: blocks.iter().map(|b| project.block_pins(b)).collect(),
        geom,
        input_vars: HashMap::new(),
    };
    let origin = Point { x: 0.0, y: 0.0 };
    let mut instances = Vec::new();
    for (order, b) in blocks.iter().enumerate() {
        let bi = order as u64 + 1;
        let (ins, outs) = project.block_pins(b);
        let ty = b.data_type.map(|t| t.0).or_else(|| types.block.get(&(mac.to_string(), b.id.clone())).copied());
        let (type_name, is_fb) = if library::lookup(&b.ty).is_none() {
            (b.ty.clone(), true)
        } else if STANDARD.contains(&b.ty.as_str()) {
            let fb = matches!(b.ty.as_str(), "CTU" | "CTD" | "CTUD" | "R_TRIG" | "F_TRIG" | "SR" | "RS");
            // The conversions by the names of the types the export declares (LINT, LREAL):
            // REAL_TO_INT takes a 32-bit REAL and gives a 16-bit INT, a type error on the
            // LREAL and LINT variables it was wired to in a strict compiler.
            // The counters likewise by their 64-bit forms (IEC 61131-3 ed. 3's CTU_LINT: a
            // plain CTU counts in 16-bit INT).
            let name = match b.ty.as_str() {
                "REAL_TO_INT" => "LREAL_TO_LINT".to_string(),
                "INT_TO_REAL" => "LINT_TO_LREAL".to_string(),
                "CTU" | "CTD" | "CTUD" => format!("{}_LINT", b.ty),
                t => t.to_string(),
            };
            (name, fb)
        } else {
            let t = ty.unwrap_or(Type::Int);
            helpers.insert((b.ty.clone(), t));
            (crate::stand_in::name(&b.ty, t), true)
        };
        if is_fb {
            let mut members = Vec::new();
            if let Some(init) = b.params.init {
                members.push((outs.first().cloned().unwrap_or_else(|| "q".into()), init.0));
            }
            if let Some(seed) = b.params.seed {
                members.push(("seed".into(), Value::Int(seed as i64)));
            }
            instances.push((b.id.clone(), type_name.clone(), members));
        }
        let [x, y] = em.geom.as_ref().map_or(b.pos.unwrap_or([0.0, 0.0]), |g| g.block_pos(order));
        let size = em.geom.as_ref().map_or(String::new(), |g| {
            let (w, h) = g.block_size(order);
            format!(" width=\"{w}\" height=\"{h}\"")
        });
        let _ = write!(
            xml,
            "            <block localId=\"{bi}\"{size} typeName=\"{}\"{} executionOrderId=\"{}\">\n              <position x=\"{x}\" y=\"{y}\"/>\n              <inputVariables>\n",
            esc(&type_name),
            if is_fb { format!(" instanceName=\"{}\"", esc(&b.id)) } else { String::new() },
            order + 1
        );
        for (k, p) in ins.iter().enumerate() {
            let Some((_, w)) = b.inputs.0.iter().find(|(q, _)| q == p) else { continue };
            let at = em.geom.as_ref().map_or(origin, |g| g.in_at(order, k));
            let rel = em.geom.as_ref().map_or(String::new(), |g| relative(g.in_rel(order, k)));
            let conn = em.connect(w, &format!("{}_{p}", b.id), at);
            let _ = writeln!(
                xml,
                "                <variable formalParameter=\"{}\"><connectionPointIn>{rel}{conn}</connectionPointIn></variable>",
                esc(&formal_in(b, p))
            );
        }
        let _ = writeln!(
            xml,
            "              </inputVariables>\n              <inOutVariables/>\n              <outputVariables>"
        );
        for (k, p) in outs.iter().enumerate() {
            let rel = em.geom.as_ref().map_or(String::new(), |g| relative(g.out_rel(order, k)));
            let _ = writeln!(
                xml,
                "                <variable formalParameter=\"{}\"><connectionPointOut>{rel}</connectionPointOut></variable>",
                esc(&formal_out(blocks, &em.block_ids, &b.id, p))
            );
        }
        let _ = write!(
            xml,
            "              </outputVariables>\n{}            </block>\n",
            documentation("              ", b.comment.as_deref())
        );
    }
    let last = blocks.len() + 1;
    // What stands where so far, as [left, top, right, bottom]: the blocks, then the output
    // boxes; a feedback write keeps clear of them.
    let mut taken: Vec<[f64; 4]> = em.geom.as_ref().map_or(Vec::new(), |g| {
        (0..blocks.len())
            .map(|k| {
                let ([x, y], (w, h)) = (g.block_pos(k), g.block_size(k));
                [x, y, x + w, y + h]
            })
            .collect()
    });
    let var_rect = |at: Point, w: f64| [at.x, at.y - BOX_H / 2.0, at.x + w, at.y + BOX_H / 2.0];
    for (k, p) in outputs.iter().enumerate() {
        // The box stands where the drawing has the output's port (its left end, the
        // connection point).
        let at = em.geom.as_ref().and_then(|g| g.output_port(k)).unwrap_or(origin);
        let conn = em.connect(&p.from, &p.name, at);
        let i = em.id();
        let _ = writeln!(xml, "            {}", out_variable(i, last, at, &conn, &p.name));
        taken.push(var_rect(at, box_width(&p.name)));
    }
    for (var, bi, formal, from) in std::mem::take(&mut em.late) {
        let i = em.id();
        // Just right of the pin it reads, moved down past whatever stands there (the
        // program's output fed by the same pin, the next block).
        let mut at = Point { x: from.x + PITCH_GAP, y: from.y };
        let w = box_width(&var);
        let clash =
            |r: [f64; 4], t: &[[f64; 4]]| t.iter().any(|o| r[0] < o[2] && o[0] < r[2] && r[1] < o[3] && o[1] < r[3]);
        if em.geom.is_some() {
            while clash(var_rect(at, w), &taken) {
                at.y += BOX_H / 2.0;
            }
        }
        taken.push(var_rect(at, w));
        let conn = format!("<connection refLocalId=\"{bi}\" formalParameter=\"{}\"/>", esc(&formal));
        let _ = writeln!(xml, "            {}", out_variable(i, last + 1, at, &conn, &var));
    }
    xml.push_str(&em.reads);
    Body { xml, locals: em.locals, instances }
}

/// How far right of the pin it reads a feedback write's box stands.
const PITCH_GAP: f64 = fbd_layout::PITCH;

/// A connection point's `relativePosition` element.
fn relative(p: Point) -> String {
    format!("<relativePosition x=\"{}\" y=\"{}\"/>", p.x, p.y)
}

/// An outVariable writing `expr` from `conn`, its connection point (left end) at `at`.
fn out_variable(i: u64, order: usize, at: Point, conn: &str, expr: &str) -> String {
    let w = box_width(expr);
    format!(
        "<outVariable localId=\"{i}\" executionOrderId=\"{order}\" height=\"{BOX_H}\" width=\"{w}\"><position x=\"{}\" y=\"{}\"/><connectionPointIn>{}{conn}</connectionPointIn><expression>{}</expression></outVariable>",
        at.x,
        at.y - BOX_H / 2.0,
        relative(Point { x: 0.0, y: BOX_H / 2.0 }),
        esc(expr)
    )
}
