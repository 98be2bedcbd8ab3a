//! One FBD body of the export: its blocks with their pins, the variable boxes its reads and
//! writes need (constants, the body's inputs and outputs, the feedback variables), each where
//! the drawing has it (`crate::geometry`).

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use fbd_layout::Point;
use fbd_model::library;
use fbd_model::load::Project;
use fbd_model::model::{Block, Connector, Wire};
use fbd_model::{Type, Value};

mod ladder;
mod st;

pub(super) use ladder::{LadderParts, ladder_body_xml};
pub(super) use st::{StParts, st_body_xml};

use super::{Instance, Types, VarDecl, documentation, esc, formal_in, formal_out, ident};
use crate::geometry::{BOX_H, Geometry, box_width};
use crate::literal::to_iec;

/// One exported FBD body.
pub(super) struct Body {
    pub(super) xml: String,
    /// Local variables (the feedback wires) with their initial values.
    pub(super) locals: Vec<VarDecl>,
    /// Function block instances: (instance name, type, initial member values).
    pub(super) instances: Vec<Instance>,
    /// The body's language: `FBD`, `LD` or `ST`.
    pub(super) language: &'static str,
    /// Variables of a user data type (an enumeration, an array), as declared.
    pub(super) typed: Vec<fbd_model::model::Variable>,
}

/// Writes the elements of one body: ids, the inVariables that reads need, feedback variables.
struct Emitter<'a> {
    next_id: u64,
    reads: String,
    locals: Vec<VarDecl>,
    /// Feedback variables to write at the end: (variable, block localId, formal parameter,
    /// where the pin it reads stands).
    /// (`None`: the block has EN, and the write reads its `holds` variable, named by the formal
    /// parameter's place: Beremiz would write it only while ENO is TRUE.)
    late: Vec<(String, Option<u64>, String, Point)>,
    /// The outputs of blocks with EN, each read through a variable written straight from the
    /// block (which Beremiz's generator writes only while the block's ENO is TRUE): (variable,
    /// block localId, formal parameter, where the pin stands). Its readers read the variable.
    holds: Vec<(String, u64, String, Point)>,
    blocks: &'a [Block],
    connectors: &'a [Connector],
    project: &'a Project,
    block_ids: HashMap<&'a str, u64>,
    types: &'a Types,
    mac: &'a str,
    /// Each block's input and output pins.
    pins: Vec<(Vec<String>, Vec<String>)>,
    geom: Option<Geometry>,
    /// The inVariable of each body input read so far: one box per input, at its port.
    input_vars: HashMap<String, (u64, Point)>,
    /// Each block's place in the execution order, and that of the block whose inputs are
    /// being connected (`usize::MAX` for the body's outputs, after every block).
    rank: Vec<usize>,
    reader_rank: usize,
    /// A ladder body's contacts and coils, and its rail (`rail`), by id: their localIds. A
    /// ladder body runs in document order (no executionOrderId) and reads block outputs as
    /// they are (its readers see what Beremiz's statements give them).
    ladder: Option<HashMap<String, u64>>,
    /// In a ladder body, the blocks whose ENO something reads.
    eno_read: std::collections::HashSet<String>,
}

impl<'a> Emitter<'a> {
    /// The writer of body `mac` (its `blocks` and the `connectors` its continuations read),
    /// its blocks numbered from 1 in order, the drawing's positions kept where stored (the rest
    /// laid out, so that it opens readable in other tools); an FBD body's until `ladder` is set.
    fn new(
        project: &'a Project,
        types: &'a Types,
        mac: &'a str,
        (blocks, connectors): (&'a [Block], &'a [Connector]),
    ) -> Self {
        Emitter {
            next_id: blocks.len() as u64 + 1,
            reads: String::new(),
            locals: Vec::new(),
            late: Vec::new(),
            holds: Vec::new(),
            blocks,
            connectors,
            project,
            block_ids: blocks.iter().enumerate().map(|(k, b)| (b.id.as_str(), k as u64 + 1)).collect(),
            types,
            mac,
            pins: blocks.iter().map(|b| project.block_pins(b)).collect(),
            geom: Geometry::of(project, mac, blocks),
            input_vars: HashMap::new(),
            rank: execution_order(blocks, connectors),
            reader_rank: usize::MAX,
            ladder: None,
            eno_read: Default::default(),
        }
    }
}

impl Emitter<'_> {
    /// Every block of the body, each with its type (as compiled, or read from its wiring) and,
    /// a function block, its instance name; returns the instances and each one's name by block
    /// id.
    fn blocks_xml(
        &mut self,
        xml: &mut String,
        names: &mut InstanceNames,
        helpers: &mut BTreeSet<(String, Type)>,
    ) -> (Vec<Instance>, HashMap<String, String>) {
        let (project, blocks, mac) = (self.project, self.blocks, self.mac);
        let mut instances = Vec::new();
        let mut instance_of = HashMap::new();
        for (order, b) in blocks.iter().enumerate() {
            self.reader_rank = self.rank[order];
            let ty = b
                .data_type
                .map(|t| t.0)
                .or_else(|| self.types.block.get(&(mac.to_string(), b.id.clone())).copied())
                .or_else(|| wired_type(project, mac, blocks, order, 8));
            let (type_name, is_fb) = iec_type_name(b, ty, helpers);
            // A FUNCTION of the project is called, not instanced.
            let is_fb = is_fb && !project.macro_def(&b.ty).is_some_and(|(_, _, m)| super::is_function(m));
            let instance = if is_fb { names.name(&b.id) } else { b.id.clone() };
            if is_fb {
                let (_, outs) = project.block_pins(b);
                instances.push((instance.clone(), type_name.clone(), instance_members(b, &outs)));
                instance_of.insert(b.id.clone(), instance.clone());
            }
            self.block_xml(xml, order, ty, &type_name, is_fb.then_some(instance.as_str()));
        }
        self.reader_rank = usize::MAX;
        (instances, instance_of)
    }

    fn id(&mut self) -> u64 {
        let i = self.next_id;
        self.next_id += 1;
        i
    }

    /// A variable box reading `expr` whose connection point (its right end) is `at`, and the
    /// connection to it from a pin at `to`.
    fn in_variable(&mut self, expr: &str, at: Point, to: Point) -> String {
        let i = self.id();
        let w = box_width(expr);
        let _ = writeln!(
            self.reads,
            "            <inVariable localId=\"{i}\" height=\"{BOX_H}\" width=\"{w}\"><position x=\"{}\" y=\"{}\"/><connectionPointOut><relPosition x=\"{w}\" y=\"{}\"/></connectionPointOut><expression>{}</expression></inVariable>",
            at.x - w,
            at.y - BOX_H / 2.0,
            BOX_H / 2.0,
            esc(expr)
        );
        link(i, None, to, at)
    }

    /// Where block `b`'s output `pin` stands, if the body is drawn.
    fn out_point(&self, b: &str, pin: &str) -> Option<Point> {
        let k = (*self.block_ids.get(b)? - 1) as usize;
        let j = self.pins.get(k)?.1.iter().position(|p| p == pin)?;
        Some(self.geom.as_ref()?.out_at(k, j))
    }

    /// The `<connection>` for what drives a pin (`what` names the pin, for a feedback
    /// variable's name; `at` is where the pin stands).
    /// A constant is written as a typed literal of `want` where given (`LREAL#7.0`,
    /// `BOOL#TRUE`): a literal alone has no type for Beremiz's generator, which then declares
    /// the result of a function of literals `ANY`, which matiec refuses.
    fn connect(&mut self, w: &Wire, what: &str, at: Point, want: Option<Type>) -> String {
        match w {
            Wire::Connector(name) => {
                // A continuation of its own beside the pin, as the tools draw one per reader.
                let i = self.id();
                let w = box_width(name);
                let _ = writeln!(
                    self.reads,
                    "            <continuation localId=\"{i}\" name=\"{}\" height=\"{BOX_H}\" width=\"{w}\"><position x=\"{}\" y=\"{}\"/><connectionPointOut><relPosition x=\"{w}\" y=\"{}\"/></connectionPointOut></continuation>",
                    esc(name),
                    at.x - w - PITCH_GAP,
                    at.y - BOX_H / 2.0,
                    BOX_H / 2.0
                );
                link(i, None, at, Point { x: at.x - PITCH_GAP, y: at.y })
            }
            Wire::Const(v) => {
                let text = match want {
                    // A duration literal carries its type (`T#…`), a string its quotes (and
                    // matiec refuses `STRING#'…'`).
                    Some(t) if !t.is_time() && t != Type::String => format!("{}#{}", t.name(), to_iec(v.value())),
                    _ => to_iec(v.value()),
                };
                self.in_variable(&text, at, at)
            }
            Wire::Ref(r) if self.ladder.as_ref().is_some_and(|l| l.contains_key(r)) => {
                let i = self.ladder.as_ref().map_or(0, |l| l[r]);
                link(i, None, at, at)
            }
            Wire::Ref(r)
                if self.ladder.is_some() && r.split_once('.').is_some_and(|(b, _)| self.block_ids.contains_key(b)) =>
            {
                let (b, p) = r.split_once('.').unwrap_or_default();
                let from = self.out_point(b, p).unwrap_or(at);
                let formal = if p.eq_ignore_ascii_case("eno") {
                    "ENO".to_string()
                } else {
                    formal_out(self.blocks, &self.block_ids, b, p)
                };
                link(self.block_ids[b], Some(&formal), at, from)
            }
            Wire::Ref(r) => match r.split_once('.') {
                Some((b, p)) if self.block_ids.contains_key(b) => {
                    let bi = self.block_ids[b];
                    // Last scan's value, read by a block that runs before the one holding it:
                    // there an IEC function block's outputs are still those of its last call,
                    // so MEMORY's q (prev would be two scans old) and DELAY's next.
                    let src = (bi - 1) as usize;
                    let before = self.reader_rank < self.rank[src];
                    let p = match (self.blocks[src].ty.as_str(), p) {
                        ("MEMORY", "prev") if before => "q",
                        ("DELAY", "q") if before => "next",
                        _ => p,
                    };
                    let from = self.out_point(b, p).unwrap_or(at);
                    let formal = formal_out(self.blocks, &self.block_ids, b, p);
                    if gated(self.project, &self.blocks[src]) {
                        return self.held(b, p, (bi, formal, from), at);
                    }
                    link(bi, Some(&formal), at, from)
                }
                _ => match self.input_vars.get(r) {
                    Some(&(i, from)) => link(i, None, at, from),
                    None => {
                        // One box per input, where the drawing has its port.
                        let port = self.geom.as_ref().and_then(|g| g.input_port(r));
                        let conn = self.in_variable(r, port.unwrap_or(at), at);
                        if let Some(port) = port {
                            self.input_vars.insert(r.clone(), (self.next_id - 1, port));
                        }
                        conn
                    }
                },
            },
            Wire::Feedback { from, init } => {
                // The previous scan's value: a variable written at the end of the body and read
                // here, before that.
                let var = format!("fb_{}", ident(what));
                let ty = self.output_type(from).or_else(|| init.as_deref().map(|v| v.ty())).unwrap_or(Type::LInt);
                let init = init.as_deref().copied().or_else(|| source_init(self.blocks, from));
                self.locals.push((var.clone(), ty, init.map(|v| ty.fit(v).unwrap_or(v)), None));
                match from.split_once('.') {
                    Some((b, p)) if self.block_ids.contains_key(b) => {
                        let bi = self.block_ids[b];
                        let from_at = self.out_point(b, p).unwrap_or(Point { x: 0.0, y: 0.0 });
                        let formal = formal_out(self.blocks, &self.block_ids, b, p);
                        if gated(self.project, &self.blocks[bi as usize - 1]) {
                            let held = self.hold_var(b, p, (bi, formal, from_at));
                            self.late.push((var.clone(), None, held, from_at));
                        } else {
                            self.late.push((var.clone(), Some(bi), formal, from_at));
                        }
                    }
                    _ => {}
                }
                self.in_variable(&var, at, at)
            }
        }
    }
}

impl Emitter<'_> {
    /// The type of block output `from` (`blk.pin`): as compiled, else (a macro without an
    /// instance) the pin's fixed type or its block's data_type.
    fn output_type(&self, from: &str) -> Option<Type> {
        // A macro instance's output: its port's declared type.
        let (b, p) = from.split_once('.')?;
        let blk = self.blocks.iter().find(|x| x.id == b)?;
        if let Some((_, _, m)) = self.project.macro_def(&blk.ty) {
            return m.outputs.iter().find(|o| o.name == p).map(|o| o.ty.0);
        }
        self.types.output.get(&(self.mac.to_string(), from.to_string())).copied().or_else(|| {
            let def = library::lookup(&blk.ty)?;
            match def.outputs.iter().find(|o| o.name == p)?.ty {
                library::PinTy::Fixed(t) => Some(t),
                library::PinTy::T => {
                    let k = self.blocks.iter().position(|x| x.id == b)?;
                    wired_type(self.project, self.mac, self.blocks, k, 8)
                }
            }
        })
    }

    /// A read of output `p` of block `b`, which has EN: through the variable `en_b_p`, written
    /// straight from the pin (declared once, with the pin's value before the first call: a
    /// negated pin's TRUE), so that it holds while the block is not called as it does here
    /// (matiec's function returns 0 then, and the variable keeps its value).
    fn held(&mut self, b: &str, p: &str, pin: (u64, String, Point), at: Point) -> String {
        let var = self.hold_var(b, p, pin);
        self.in_variable(&var, at, at)
    }

    /// The variable output `p` of block `b` (which has EN) is held in, declared and written once.
    fn hold_var(&mut self, b: &str, p: &str, (bi, formal, from): (u64, String, Point)) -> String {
        let var = format!("en_{}_{}", ident(b), ident(p));
        // Declared once: the holds written already (`hold_writes`) are in the locals.
        if !self.holds.iter().any(|h| h.0 == var) && !self.locals.iter().any(|l| l.0 == var) {
            let pin = format!("{b}.{p}");
            let ty = self.output_type(&pin).unwrap_or(Type::LInt);
            // What its readers see before the first call (a negated pin's TRUE included).
            let init = source_init(self.blocks, &pin);
            self.locals.push((var.clone(), ty, init.map(|v| ty.fit(v).unwrap_or(v)), None));
            self.holds.push((var.clone(), bi, formal, from));
        }
        var
    }

    /// The variables of the outputs of blocks with EN, each written right after its block (the
    /// block's executionOrderId, after it in the file). An IEC function's through a connector
    /// and its continuation: Beremiz writes a variable straight from a block with EN only while
    /// EN is TRUE, and a function's readers see its result every scan, its type's initial value
    /// while EN is FALSE, as here.
    fn hold_writes(&mut self, xml: &mut String) {
        for (var, bi, formal, from) in std::mem::take(&mut self.holds) {
            let i = self.id();
            let at = Point { x: from.x + 3.0 * PITCH_GAP, y: from.y };
            let function =
                library::lookup(&self.blocks[bi as usize - 1].ty).is_some_and(library::BlockDef::is_iec_function);
            let conn = if function {
                // A name no connector of the body has.
                let mut name = format!("c_{var}");
                while self.connectors.iter().any(|c| c.name.eq_ignore_ascii_case(&name)) {
                    name.push('_');
                }
                self.through_connector(xml, &name, link(bi, Some(&formal), from, from), at)
            } else {
                link(bi, Some(&formal), at, from)
            };
            let _ = writeln!(xml, "            {}", out_variable(i, self.rank[bi as usize - 1] + 1, at, &conn, &var));
        }
    }

    /// A connector `name` fed by `conn` and a continuation of it ending at `at`: the link to
    /// the continuation.
    fn through_connector(&mut self, xml: &mut String, name: &str, conn: String, at: Point) -> String {
        let (c, k, w) = (self.id(), self.id(), box_width(name));
        let half = BOX_H / 2.0;
        let cat = Point { x: at.x - 2.0 * PITCH_GAP - w, y: at.y };
        let _ = writeln!(
            xml,
            "            <connector localId=\"{c}\" name=\"{}\" height=\"{BOX_H}\" width=\"{w}\"><position x=\"{}\" y=\"{}\"/><connectionPointIn>{}{conn}</connectionPointIn></connector>",
            esc(name),
            cat.x,
            cat.y - half,
            relative(Point { x: 0.0, y: half })
        );
        let _ = writeln!(
            xml,
            "            <continuation localId=\"{k}\" name=\"{}\" height=\"{BOX_H}\" width=\"{w}\"><position x=\"{}\" y=\"{}\"/><connectionPointOut><relPosition x=\"{w}\" y=\"{half}\"/></connectionPointOut></continuation>",
            esc(name),
            at.x - PITCH_GAP - w,
            at.y - half,
        );
        link(k, None, at, Point { x: at.x - PITCH_GAP, y: at.y })
    }
}

/// Whether block `b` has an EN of its own (not a macro's port of that name).
fn gated(project: &Project, b: &Block) -> bool {
    b.inputs.0.iter().any(|(p, _)| p == library::ENABLE)
        && !project.macro_def(&b.ty).is_some_and(|m| m.2.inputs.iter().any(|q| q.name == library::ENABLE))
}

/// What a feedback wire without an `init` reads before the first scan, where it is not its
/// type's zero: what its source holds then (a negated output's TRUE, a stateful block's init).
fn source_init(blocks: &[Block], from: &str) -> Option<Value> {
    let (b, p) = from.split_once('.')?;
    let blk = blocks.iter().find(|x| x.id == b)?;
    if blk.negated.has(p) {
        return Some(Value::Bool(true));
    }
    let def = library::lookup(&blk.ty)?;
    let stateful =
        matches!(def.kind, library::Kind::Memory | library::Kind::Delay | library::Kind::Sr | library::Kind::Rs);
    if stateful { blk.params.init.as_deref().map(|c| c.0) } else { None }
}

/// The IEC type a block goes out as, and whether it is a function block (an instance): a
/// standard block by its name (a counter by its type: IEC 61131-3 ed. 3's CTU counts in INT,
/// CTU_DINT in DINT), a macro by its own, anything else as a stand-in (noted in `helpers`,
/// whose bodies the export writes) of the block's type `ty`.
fn iec_type_name(b: &Block, ty: Option<Type>, helpers: &mut BTreeSet<(String, Type)>) -> (String, bool) {
    if library::lookup(&b.ty).is_none() {
        (b.ty.clone(), true)
    } else if super::standard(&b.ty) {
        // A block with state between scans is a function block (an instance) in IEC.
        let fb = library::lookup(&b.ty).is_some_and(|d| d.stateful);
        let name = match b.ty.as_str() {
            "CTU" | "CTD" | "CTUD" => match ty.unwrap_or(Type::LInt) {
                Type::Int => b.ty.clone(),
                t => format!("{}_{t}", b.ty),
            },
            // A BCD conversion by the name Beremiz's palette has where it has one
            // (`WORD_BCD_TO_UINT` is its `BCD_TO_UINT`, `UINT_TO_BCD_WORD` its `UINT_TO_BCD`).
            t if library::lookup(t).is_some_and(|d| d.kind == library::Kind::Bcd) => bcd_name(t),
            // IEC's MUL and DIV of a TIME by a number.
            "MULTIME" => "MUL".to_string(),
            "DIVTIME" => "DIV".to_string(),
            t => t.to_string(),
        };
        (name, fb)
    } else {
        let t = ty.unwrap_or(Type::LInt);
        helpers.insert((b.ty.clone(), t));
        (crate::stand_in::name(&b.ty, t), true)
    }
}

/// The name Beremiz's palette gives a BCD conversion between a bit string and the unsigned
/// integer of its width; any other keeps matiec's name.
fn bcd_name(name: &str) -> String {
    let natural = |bits: &str, uint: &str| {
        matches!((bits, uint), ("BYTE", "USINT") | ("WORD", "UINT") | ("DWORD", "UDINT") | ("LWORD", "ULINT"))
    };
    if let Some((bits, uint)) = name.split_once("_BCD_TO_")
        && natural(bits, uint)
    {
        return format!("BCD_TO_{uint}");
    }
    if let Some((uint, bits)) = name.split_once("_TO_BCD_")
        && natural(bits, uint)
    {
        return format!("{uint}_TO_BCD");
    }
    name.to_string()
}

/// A function block instance's initial member values: a stateful block's `init` as its first
/// output's (a DELAY's `next` too), a RANDOM's seed.
fn instance_members(b: &Block, outs: &[String]) -> Vec<(String, Value)> {
    let mut members = Vec::new();
    if let Some(init) = b.params.init.as_deref() {
        members.push((outs.first().cloned().unwrap_or_else(|| "q".into()), init.0));
        if b.ty == "DELAY" {
            members.push(("next".into(), init.0));
        }
    }
    if let Some(seed) = b.params.seed {
        members.push(("seed".into(), Value::Int(seed as i64)));
    }
    members
}

/// The FBD body of the program (`mac` empty) or of macro `mac`: its blocks in execution order,
/// their connections, the variables they read and write, where each stands, and the instances
/// and locals it declares.
pub(super) fn body_xml(
    project: &Project,
    types: &Types,
    mac: &str,
    (blocks, connectors): (&[Block], &[Connector]),
    outputs: &[fbd_model::model::PortOut],
    helpers: &mut BTreeSet<(String, Type)>,
) -> Body {
    // A connector no continuation reads only names a variable (an import's `cnt`): the body
    // goes out without it (a dangling connector element is noise to another tool).
    let read = |c: &Connector| {
        let reads = |w: &Wire| matches!(w, Wire::Connector(n) if *n == c.name);
        blocks.iter().any(|b| b.inputs.0.iter().any(|(_, w)| reads(w)))
            || outputs.iter().any(|o| reads(&o.from))
            || connectors.iter().any(|o| reads(&o.from))
    };
    let (kept, variables): (Vec<Connector>, Vec<Connector>) = connectors.iter().cloned().partition(|c| read(c));
    let connectors = kept.as_slice();
    let mut names = InstanceNames::of(project, mac);
    let mut em = Emitter::new(project, types, mac, (blocks, connectors));
    let mut xml = String::new();
    let (instances, _) = em.blocks_xml(&mut xml, &mut names, helpers);
    let taken = em.output_boxes(&mut xml, outputs);
    em.hold_writes(&mut xml);
    em.feedback_writes(&mut xml, taken);
    em.connector_elements(&mut xml);
    em.variable_writes(&mut xml, &variables, outputs);
    xml.push_str(&em.reads);
    Body { xml, locals: em.locals, instances, language: "FBD", typed: Vec::new() }
}

/// The instance names of one POU. IEC names are one namespace per POU and ignore case: an
/// instance `worked` beside the output `Worked` (the 2048 processing macro) is one name twice
/// there. Such an instance gets a free name; its id goes along in `addData` and comes back on
/// import.
struct InstanceNames {
    /// Upper case.
    taken: BTreeSet<String>,
}

impl InstanceNames {
    /// The POU's ports, and the function blocks' names too: an instance `processing` of an SR
    /// beside the macro `Processing` (the multi-scan wiring) is a variable named as a type.
    fn of(project: &Project, mac: &str) -> InstanceNames {
        let ports: Vec<String> = match mac {
            "" => {
                let r = project.root();
                r.inputs.iter().map(|p| p.name.clone()).chain(r.outputs.iter().map(|p| p.name.clone())).collect()
            }
            m => project
                .macro_def(m)
                .map(|(_, _, d)| {
                    d.inputs.iter().map(|p| p.name.clone()).chain(d.outputs.iter().map(|p| p.name.clone())).collect()
                })
                .unwrap_or_default(),
        };
        let macros = project.files.iter().flat_map(|f| f.doc.macros.iter().map(|m| m.name.clone()));
        InstanceNames { taken: ports.into_iter().chain(macros).map(|n| n.to_ascii_uppercase()).collect() }
    }

    /// A free name for the instance `id`. A block id another tool cannot take as a variable
    /// (`sr` is the type SR there, `a-b` a subtraction) goes out as an IEC name too, its id in
    /// `addData` as for the others.
    fn name(&mut self, id: &str) -> String {
        let base = crate::reserved::iec_name(id);
        let mut name = base.clone();
        let mut k = 1;
        while !self.taken.insert(name.to_ascii_uppercase()) {
            name = format!("{base}_{k}");
            k += 1;
        }
        name
    }
}

impl Emitter<'_> {
    /// The `<block>` of block `order`: its type (`instance`: its instance name, for a function
    /// block), where it stands, its input variables connected, its output variables.
    fn block_xml(&mut self, xml: &mut String, order: usize, ty: Option<Type>, type_name: &str, instance: Option<&str>) {
        let b = &self.blocks[order];
        let (ins, outs) = self.project.block_pins(b);
        let [x, y] = self.geom.as_ref().map_or(b.pos.unwrap_or([0.0, 0.0]), |g| g.block_pos(order));
        let size = self.geom.as_ref().map_or(String::new(), |g| {
            let (w, h) = g.block_size(order);
            format!(" width=\"{w}\" height=\"{h}\"")
        });
        let _ = write!(
            xml,
            "            <block localId=\"{}\"{size} typeName=\"{}\"{} executionOrderId=\"{}\">\n              <position x=\"{x}\" y=\"{y}\"/>\n              <inputVariables>\n",
            order + 1,
            esc(type_name),
            instance.map_or(String::new(), |i| format!(" instanceName=\"{}\"", esc(i))),
            if self.ladder.is_some() { 0 } else { self.rank[order] + 1 }
        );
        let typed = typed_literals(b, &ins);
        // A ladder body's block whose ENO something reads and that has no EN: EN on the rail
        // (called every scan, as without one), so that Beremiz finds its ENO.
        let rail_en = self.eno_read.contains(&b.id) && ins.first().is_none_or(|p| p != fbd_model::library::ENABLE);
        if rail_en {
            let rail = self.ladder.as_ref().and_then(|l| l.get(fbd_model::model::ladder::RAIL)).copied().unwrap_or(0);
            let at = self.geom.as_ref().map_or(Point { x: 0.0, y: 0.0 }, |g| g.in_at(order, 0));
            let _ = writeln!(
                xml,
                "                <variable formalParameter=\"EN\"><connectionPointIn>{}</connectionPointIn></variable>",
                link(rail, None, at, at)
            );
        }
        for (k, p) in ins.iter().enumerate() {
            self.input_variable(xml, order, (k, p), ty, typed);
        }
        let _ = writeln!(
            xml,
            "              </inputVariables>\n              <inOutVariables/>\n              <outputVariables>"
        );
        // A block with EN has ENO, its first output, as Beremiz and OpenPLC Editor draw it
        // (Beremiz's generator calls a function of one output by position, EN among them,
        // unless it has another output). In a ladder body a block whose ENO something reads
        // has both (`rail_en`).
        if rail_en || ins.first().is_some_and(|p| p == fbd_model::library::ENABLE) {
            let rel = self.geom.as_ref().map_or(String::new(), |g| {
                let (w, _) = g.block_size(order);
                relative(Point { x: w, y: g.in_rel(order, 0).y })
            });
            let _ = writeln!(
                xml,
                "                <variable formalParameter=\"ENO\"><connectionPointOut>{rel}</connectionPointOut></variable>"
            );
        }
        for (k, p) in outs.iter().enumerate() {
            let rel = self.geom.as_ref().map_or(String::new(), |g| relative(g.out_rel(order, k)));
            let negated = b.negated.has(p);
            let _ = writeln!(
                xml,
                "                <variable formalParameter=\"{}\"{}><connectionPointOut>{rel}</connectionPointOut></variable>",
                esc(&formal_out(self.blocks, &self.block_ids, &b.id, p)),
                if negated { " negated=\"true\"" } else { "" }
            );
        }
        // DELAY's stand-in has a second output, `next`, read by blocks that run before it.
        if b.ty == "DELAY" {
            let rel = self.geom.as_ref().map_or(String::new(), |g| {
                let (w, h) = g.block_size(order);
                relative(Point { x: w, y: h })
            });
            let _ = writeln!(
                xml,
                "                <variable formalParameter=\"NEXT\"><connectionPointOut>{rel}</connectionPointOut></variable>"
            );
        }
        // A function has no instance name, so its id goes along here too (it came back as
        // `sel_2`, and a watch on `set_empty.out` found nothing after a round trip).
        let renamed = if instance != Some(b.id.as_str()) {
            format!(
                "              <addData><data name=\"{}\" handleUnknown=\"discard\"><id value=\"{}\"/></data></addData>\n",
                super::ID_DATA,
                esc(&b.id)
            )
        } else {
            String::new()
        };
        let _ = write!(
            xml,
            "              </outputVariables>\n{renamed}{}            </block>\n",
            documentation("              ", b.comment.as_deref())
        );
    }

    /// Input `p` (the `k`th) of block `order`: its wire (an unconnected negated pin the
    /// negation of its default), a constant as a literal of the pin's type when `typed`.
    fn input_variable(
        &mut self,
        xml: &mut String,
        order: usize,
        (k, p): (usize, &String),
        ty: Option<Type>,
        typed: bool,
    ) {
        let (project, b) = (self.project, &self.blocks[order]);
        let negated = b.negated.has(p);
        // An unconnected negated pin is the negation of its default: written as that
        // constant, since an open input reads the callee's own default elsewhere.
        let default = || {
            let d = match library::lookup(&b.ty) {
                Some(def) => def.inputs.iter().find(|q| q.name == p)?.default?,
                None => project.macro_def(&b.ty)?.2.inputs.iter().find(|q| q.name == *p)?.default?.0,
            };
            Some(Wire::constant(d))
        };
        let w = match b.inputs.0.iter().find(|(q, _)| q == p) {
            Some((_, w)) => w.clone(),
            None => match default().filter(|_| negated) {
                Some(w) => w,
                None => return,
            },
        };
        let want = pin_type(project, b, p, ty);
        // A constant as a literal of the pin's type (`7` on an LREAL pin is `7.0`: an INT
        // literal there is a type error in a strict compiler such as matiec).
        let w = match w {
            Wire::Const(v) => {
                let v = v.value();
                Wire::constant(want.and_then(|t| t.fit(v).ok()).unwrap_or(v))
            }
            w => w,
        };
        let at = self.geom.as_ref().map_or(Point { x: 0.0, y: 0.0 }, |g| g.in_at(order, k));
        let rel = self.geom.as_ref().map_or(String::new(), |g| relative(g.in_rel(order, k)));
        let conn = self.connect(&w, &format!("{}_{p}", b.id), at, want.filter(|_| typed));
        let _ = writeln!(
            xml,
            "                <variable formalParameter=\"{}\"{}><connectionPointIn>{rel}{conn}</connectionPointIn></variable>",
            esc(&formal_in(b, p)),
            if negated { " negated=\"true\"" } else { "" }
        );
    }

    /// The body's output variables, each at its port; returns what stands where so far, as
    /// [left, top, right, bottom] (the blocks, then the output boxes), for the feedback writes
    /// to keep clear of.
    fn output_boxes(&mut self, xml: &mut String, outputs: &[fbd_model::model::PortOut]) -> Vec<[f64; 4]> {
        let last = self.blocks.len() + 1;
        let mut taken: Vec<[f64; 4]> = self.geom.as_ref().map_or(Vec::new(), |g| {
            (0..self.blocks.len())
                .map(|k| {
                    let ([x, y], (w, h)) = (g.block_pos(k), g.block_size(k));
                    [x, y, x + w, y + h]
                })
                .collect()
        });
        for (k, p) in outputs.iter().enumerate() {
            // The box stands where the drawing has the output's port (its left end, the
            // connection point).
            let at = self.geom.as_ref().and_then(|g| g.output_port(k)).unwrap_or(Point { x: 0.0, y: 0.0 });
            // A constant written as a literal of the output's type: `-1` on a REAL output is an
            // INT literal, which a strict compiler refuses there (matiec: incompatible types).
            let from = match &p.from {
                Wire::Const(v) => Wire::constant(p.ty.0.fit(v.value()).unwrap_or(v.value())),
                w => w.clone(),
            };
            let conn = self.connect(&from, &p.name, at, None);
            let i = self.id();
            let _ = writeln!(xml, "            {}", out_variable(i, last, at, &conn, &p.name));
            taken.push(var_rect(at, box_width(&p.name)));
        }
        taken
    }

    /// The body's connectors, each just right of the pin that drives it (PLCopen's
    /// `connector`; its continuations stand beside their readers).
    fn connector_elements(&mut self, xml: &mut String) {
        for c in self.connectors {
            let i = self.id();
            let w = box_width(&c.name);
            let from = match through(self.connectors, &c.from) {
                Wire::Ref(r) | Wire::Feedback { from: r, .. } => {
                    r.split_once('.').and_then(|(b, p)| self.out_point(b, p)).unwrap_or(Point { x: 0.0, y: 0.0 })
                }
                _ => Point { x: 0.0, y: 0.0 },
            };
            let at = Point { x: from.x + 2.0 * PITCH_GAP, y: from.y };
            let conn = self.connect(&c.from, &c.name, at, None);
            let _ = writeln!(
                xml,
                "            <connector localId=\"{i}\" name=\"{}\" height=\"{BOX_H}\" width=\"{w}\"><position x=\"{}\" y=\"{}\"/><connectionPointIn>{}{conn}</connectionPointIn></connector>",
                esc(&c.name),
                at.x,
                at.y - BOX_H / 2.0,
                relative(Point { x: 0.0, y: BOX_H / 2.0 })
            );
        }
    }

    /// The body's variables by name (connectors no continuation reads: an imported program's
    /// locals), each a local written by an outVariable from what drives it, so the program goes
    /// out with its variables (without one, Beremiz's generator refused "No variable defined").
    /// One the body declares already (a feedback variable of the same name) is not twice.
    fn variable_writes(&mut self, xml: &mut String, variables: &[Connector], outputs: &[fbd_model::model::PortOut]) {
        let last = self.blocks.len() + 1;
        for c in variables {
            let clash = |n: &str| n.eq_ignore_ascii_case(&c.name);
            if ident(&c.name) != c.name
                || self.locals.iter().any(|l| clash(&l.0))
                || outputs.iter().any(|o| clash(&o.name))
                || self.project.root().inputs.iter().any(|p| clash(&p.name))
                || self.blocks.iter().any(|b| clash(&b.id))
            {
                continue;
            }
            let ty = match through(self.connectors, &c.from) {
                Wire::Ref(r) | Wire::Feedback { from: r, .. } => match r.split_once('.') {
                    Some(_) => self.types.output.get(&(self.mac.to_string(), r.clone())).copied(),
                    None => self.project.root().inputs.iter().find(|p| p.name == *r).map(|p| p.ty.0),
                },
                Wire::Const(v) => Some(v.value().ty()),
                Wire::Connector(_) => None,
            };
            let Some(ty) = ty else { continue };
            let from = match through(self.connectors, &c.from) {
                Wire::Ref(r) => r.split_once('.').and_then(|(b, p)| self.out_point(b, p)),
                _ => None,
            };
            let at = from.map_or(Point { x: 0.0, y: 0.0 }, |f| Point { x: f.x + 2.0 * PITCH_GAP, y: f.y + BOX_H });
            self.locals.push((c.name.clone(), ty, None, None));
            let conn = self.connect(&c.from, &c.name, at, Some(ty));
            let i = self.id();
            let _ = writeln!(xml, "            {}", out_variable(i, last + 1, at, &conn, &c.name));
        }
    }

    /// The feedback variables written at the end of the body, each just right of the pin it
    /// reads, moved down past whatever stands there (the program's output fed by the same pin,
    /// the next block).
    fn feedback_writes(&mut self, xml: &mut String, mut taken: Vec<[f64; 4]>) {
        let last = self.blocks.len() + 1;
        let clash =
            |r: [f64; 4], t: &[[f64; 4]]| t.iter().any(|o| r[0] < o[2] && o[0] < r[2] && r[1] < o[3] && o[1] < r[3]);
        for (var, bi, formal, from) in std::mem::take(&mut self.late) {
            let i = self.id();
            let mut at = Point { x: from.x + PITCH_GAP, y: from.y };
            let w = box_width(&var);
            if self.geom.is_some() {
                while clash(var_rect(at, w), &taken) {
                    at.y += BOX_H / 2.0;
                }
            }
            taken.push(var_rect(at, w));
            let conn = match bi {
                Some(bi) => link(bi, Some(&formal), at, from),
                None => self.in_variable(&formal, at, at),
            };
            let _ = writeln!(xml, "            {}", out_variable(i, last + 1, at, &conn, &var));
        }
    }
}

/// A variable box's rectangle (connection point `at`, width `w`) as [left, top, right, bottom].
fn var_rect(at: Point, w: f64) -> [f64; 4] {
    [at.x, at.y - BOX_H / 2.0, at.x + w, at.y + BOX_H / 2.0]
}

/// How far right of the pin it reads a feedback write's box stands.
const PITCH_GAP: f64 = fbd_layout::PITCH;

/// A `<connection>` to element `id` (its output `formal`), drawn from its connection point
/// `from` to the pin at `to`: TC6 lists a connection's points from the pin back to the source
/// (Beremiz's generator reads the last one to find the source's pin).
fn link(id: u64, formal: Option<&str>, to: Point, from: Point) -> String {
    let formal = formal.map(|f| format!(" formalParameter=\"{}\"", esc(f))).unwrap_or_default();
    format!(
        "<connection refLocalId=\"{id}\"{formal}><position x=\"{}\" y=\"{}\"/><position x=\"{}\" y=\"{}\"/></connection>",
        to.x, to.y, from.x, from.y
    )
}

/// A connection point's `relPosition` element.
fn relative(p: Point) -> String {
    format!("<relPosition x=\"{}\" y=\"{}\"/>", p.x, p.y)
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

/// Each block's place in the order the body runs: every block after the blocks it reads this
/// scan (a feedback wire, MEMORY.prev and a DELAY read the previous scan's value and order
/// nothing), ties in the order of the file. The export wrote the file's order, so a tool that runs by `executionOrderId`
/// ran a block before the one it reads and saw last scan's value.
fn execution_order(blocks: &[Block], connectors: &[Connector]) -> Vec<usize> {
    let index: HashMap<&str, usize> = blocks.iter().enumerate().map(|(k, b)| (b.id.as_str(), k)).collect();
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
    let mut waits = vec![0usize; blocks.len()];
    for (k, b) in blocks.iter().enumerate() {
        let mut from: Vec<usize> = b
            .inputs
            .0
            .iter()
            .filter_map(|(_, w)| match through(connectors, w) {
                Wire::Ref(r) => r.split_once('.').and_then(|(blk, pin)| {
                    let f = *index.get(blk)?;
                    // MEMORY.prev and a DELAY's q are last scan's values: they order nothing.
                    let delayed = library::lookup(&blocks[f].ty)
                        .is_some_and(|d| d.outputs.iter().any(|p| p.name == pin && p.delayed));
                    (!delayed).then_some(f)
                }),
                _ => None,
            })
            .filter(|&f| f != k)
            .collect();
        from.sort_unstable();
        from.dedup();
        waits[k] = from.len();
        for f in from {
            readers[f].push(k);
        }
    }
    let mut ready: BTreeSet<usize> = (0..blocks.len()).filter(|&k| waits[k] == 0).collect();
    let mut rank = vec![usize::MAX; blocks.len()];
    let mut next = 0;
    while let Some(k) = ready.pop_first() {
        rank[k] = next;
        next += 1;
        for &r in &readers[k] {
            waits[r] -= 1;
            if waits[r] == 0 {
                ready.insert(r);
            }
        }
    }
    // A loop without a feedback point does not compile, so nothing is left; were it, its
    // blocks keep the file's order after the rest.
    for r in rank.iter_mut().filter(|r| **r == usize::MAX) {
        *r = next;
        next += 1;
    }
    rank
}

/// What a wire of a body reads: a continuation followed to its connector's `from` (through
/// connectors of connectors); a continuation of none, or a circle, as it is.
fn through<'w>(connectors: &'w [Connector], w: &'w Wire) -> &'w Wire {
    let mut at = w;
    for _ in 0..=connectors.len() {
        match at {
            Wire::Connector(n) => match connectors.iter().find(|c| c.name == *n) {
                Some(c) => at = &c.from,
                None => return at,
            },
            other => return other,
        }
    }
    at
}

/// The type variable of generic block `k` read from its wiring, for a body the plan does not
/// type (a macro of the library no instance uses): its `init`, or what drives a pin of type
/// `T` (a constant, a port, another block's output). Such a MEMORY of BOOL went out as
/// `FBD_MEMORY_OF_BOOL` with `q := FALSE`, refused by the compiler.
fn wired_type(project: &Project, mac: &str, blocks: &[Block], k: usize, depth: u32) -> Option<Type> {
    let b = blocks.get(k)?;
    if let Some(t) = b.data_type {
        return Some(t.0);
    }
    // An initial value's type, like a constant's, is only a default (a DINT MEMORY has init 0).
    let init = b.params.init.as_deref().map(|i| i.0.ty());
    let def = library::lookup(&b.ty)?;
    if depth == 0 || def.generic == library::Generic::No {
        return init;
    }
    let t_pin = |pin: &str| {
        def.inputs.iter().any(|p| p.name == pin && p.ty == library::PinTy::T)
            || def.var_inputs.is_some_and(|v| v.ty == library::PinTy::T && pin.starts_with(v.prefix))
    };
    let ports: Vec<(&str, Type)> = match mac {
        "" => project.root().inputs.iter().map(|p| (p.name.as_str(), p.ty.0)).collect(),
        m => project
            .macro_def(m)
            .map_or(Vec::new(), |(_, _, d)| d.inputs.iter().map(|p| (p.name.as_str(), p.ty.0)).collect()),
    };
    // A wired source first: a constant's type is only its default (an integer on a REAL pin).
    let t_inputs: Vec<&(String, Wire)> = b.inputs.0.iter().filter(|(pin, _)| t_pin(pin)).collect();
    let wired = t_inputs.iter().filter(|(_, w)| !matches!(w, Wire::Const(_))).find_map(|(_, w)| match w {
        Wire::Const(_) | Wire::Connector(_) => None,
        Wire::Ref(r) | Wire::Feedback { from: r, .. } => match r.split_once('.') {
            None => ports.iter().find(|(n, _)| n == r).map(|p| p.1),
            Some((blk, pin)) => {
                let j = blocks.iter().position(|x| x.id == blk)?;
                let src = library::lookup(&blocks[j].ty)?;
                match src.outputs.iter().find(|p| p.name == pin).map(|p| p.ty) {
                    Some(library::PinTy::Fixed(t)) => Some(t),
                    _ => wired_type(project, mac, blocks, j, depth - 1),
                }
            }
        },
    });
    let constant = || t_inputs.iter().find_map(|(_, w)| if let Wire::Const(c) = w { Some(c.ty()) } else { None });
    wired.or(init).or_else(constant)
}

/// The type of input `pin` of block `b` (whose type variable is `ty`): its fixed type, `ty`,
/// or a macro port's declared type.
fn pin_type(project: &Project, b: &Block, pin: &str, ty: Option<Type>) -> Option<Type> {
    let own_en = project.macro_def(&b.ty).is_some_and(|m| m.2.inputs.iter().any(|q| q.name == pin));
    if pin == library::ENABLE && !own_en {
        return Some(Type::Bool);
    }
    match library::lookup(&b.ty) {
        Some(def) => match def.inputs.iter().find(|q| q.name == pin).map(|q| q.ty).or(def.var_inputs.map(|v| v.ty))? {
            library::PinTy::Fixed(t) => Some(t),
            library::PinTy::T => ty,
        },
        None => project.macro_def(&b.ty).and_then(|m| m.2.inputs.iter().find(|q| q.name == pin)).map(|q| q.ty.0),
    }
}

/// Whether block `b` (pins `ins`) needs its literals typed (`LREAL#7.0`): Beremiz's generator
/// takes a function's type from its first input (IEC's AND, SEL, ADD are generic), or its first
/// generic one, so a literal there (AND(FALSE, x), SEL(g, 2, 5)) makes it declare the result
/// ANY, which matiec refuses.
fn typed_literals(b: &Block, ins: &[String]) -> bool {
    let Some(def) = library::lookup(&b.ty) else { return false };
    // matiec's EXPT takes its exponent as ANY_NUM, typed apart from the base: a bare `0.1`
    // there is a REAL (0.100000001...) beside an LREAL base.
    if def.kind == library::Kind::Expt {
        return true;
    }
    let is_t = |q: &str| {
        def.inputs.iter().any(|x| x.name == q && x.ty == library::PinTy::T)
            || def.var_inputs.is_some_and(|v| v.ty == library::PinTy::T && q.starts_with(v.prefix))
    };
    let wire = |q: &str| b.inputs.0.iter().find(|(x, _)| x == q).map(|(_, w)| w);
    let first_is_literal = |generic_only: bool| {
        ins.iter()
            .filter(|q| wire(q).is_some())
            .find(|q| !generic_only || is_t(q))
            .is_some_and(|q| matches!(wire(q), Some(Wire::Const(_))))
    };
    first_is_literal(false) || first_is_literal(true)
}
