//! A ladder body's statements and calls as blocks: each place of the sequence (`sequence.rs`)
//! in turn, every read resolved to the value it sees there.
//!
//! - A variable read at place `p` is the last write before `p`; without one, what the previous
//!   scan left (a feedback wire of what the last write stores, starting at the variable's init);
//!   a variable never written is its init.
//! - A block's output read before the block's call (or by the block itself) is the previous
//!   scan's: IEC keeps a function block's outputs between calls. `blk.ENO` is the block's EN
//!   as its call saw it (TRUE without an EN).
//! - Power into an element is the OR of its sources (TRUE once one is the rail); a contact is the
//!   AND of its power and its BOOL (a NOT, an R_TRIG or an F_TRIG of it when modified); the
//!   power through a coil is the AND of its sources (Beremiz's generator reads a coil's sources
//!   as a series there, as an OR in the coil's own statement). Each statement (and each block
//!   input) computes the power afresh, with triggers of its own, as Beremiz's ST does.
//! - A set coil stores `var OR power`, a reset coil `var AND NOT power`; a store straight from
//!   a block with EN writes only while the block's ENO is TRUE (Beremiz's `IF blk.ENO THEN`);
//!   a coil writes unguarded.
//!
//! The body's own blocks keep their places in the list (an error the compiler finds in one is
//! at its place in the file); the blocks made here follow, in the order they run. The first
//! block made for an element carries the element's id, so the debugger shows a contact's power
//! as `id.out`.

use std::collections::{HashMap, HashSet};

use fbd_model::model::{Connector, LdKind, LdModifier, LeanBlock, TypeName, Wire};
use fbd_model::{Type, Value, library};

use super::sequence::{Item, Sequence, sequence};
use super::{Body, Name, Names, gate};

const END: usize = usize::MAX;

fn truth() -> Wire {
    Wire::constant(Value::Bool(true))
}

fn is_true(w: &Wire) -> bool {
    matches!(w, Wire::Const(l) if l.value() == Value::Bool(true))
}

struct Lowerer<'b, 'a> {
    body: &'b mut Body<'a>,
    names: Names,
    seq: Sequence,
    made: Vec<LeanBlock>,
    /// Each variable's writes so far: what it stores, and where.
    writes: Vec<Vec<(Wire, usize)>>,
    /// Whether a statement writes the variable somewhere in the sequence.
    written: Vec<bool>,
    /// The variables read before their first write (held for the next scan).
    held: Vec<bool>,
    /// The ids in use.
    taken: HashSet<String>,
    /// The elements lowered once already (their next gate gets a fresh id).
    named: HashSet<usize>,
    /// The elements lowered for the statement (or block input) being made.
    memo: HashMap<usize, Wire>,
    /// The blocks whose ENO something reads.
    eno_read: Vec<bool>,
}

pub(super) fn lower(body: &mut Body) {
    let names = Names::new(body);
    let seq = sequence(body, &names);
    let mut taken: HashSet<String> = body.blocks.iter().map(|b| b.id.to_string()).collect();
    taken.extend(body.variables.iter().map(|v| v.name.clone()));
    taken.extend(body.inputs.iter().cloned());
    let mut written = vec![false; body.variables.len()];
    for e in body.ladder.iter().filter(|e| e.writes() && !e.from.is_empty()) {
        if let Some(Name::Var(v)) = names.resolve(&e.var) {
            written[v] = true;
        }
    }
    let mut eno_read = vec![false; body.blocks.len()];
    {
        let mut mark = |s: &str| {
            if let Some(Name::Output(b, pin)) = names.resolve(s)
                && pin == "ENO"
            {
                eno_read[b] = true;
            }
        };
        for e in body.ladder.iter() {
            mark(&e.var);
            // A store straight from a block with EN is guarded by the block's ENO.
            if let (LdKind::Store, [Wire::Ref(r)]) = (e.kind, &e.from[..]) {
                mark(&format!("{}.ENO", r.split_once('.').map_or("", |(b, _)| b)));
            }
        }
        let wires = body
            .blocks
            .iter()
            .flat_map(|b| b.inputs.iter().map(|(_, w)| w))
            .chain(body.outputs.iter().map(|o| &o.from));
        let wires = wires.chain(body.ladder.iter().flat_map(|e| e.from.iter()));
        for w in wires.chain(body.connectors.iter().map(|c| &c.from)) {
            if let Wire::Ref(r) = w {
                mark(r);
            }
        }
    }
    let nvars = body.variables.len();
    let mut l = Lowerer {
        body,
        names,
        seq,
        made: Vec::new(),
        writes: vec![Vec::new(); nvars],
        written,
        held: vec![false; nvars],
        taken,
        named: HashSet::new(),
        memo: HashMap::new(),
        eno_read,
    };
    l.run();
}

impl Lowerer<'_, '_> {
    fn run(&mut self) {
        let items = std::mem::take(&mut self.seq.items);
        for (p, item) in items.iter().enumerate() {
            match *item {
                Item::Block(b) => self.call(b, p),
                Item::Statement(k) => self.statement(k, p),
            }
        }
        self.finish();
    }

    /// A fresh block id from `base`.
    fn fresh(&mut self, base: &str) -> String {
        let base: String = base.chars().map(|c| if c == '.' || c == '/' { '_' } else { c }).collect();
        if self.taken.insert(base.clone()) {
            return base;
        }
        let mut k = 2;
        loop {
            let id = format!("{base}_{k}");
            if self.taken.insert(id.clone()) {
                return id;
            }
            k += 1;
        }
    }

    /// Adds a block made for element `k` (its output gate the first time: the element's id),
    /// and returns the wire of its output `out`.
    fn make(&mut self, k: usize, role: &str, ty: &str, inputs: Vec<(&str, Wire)>, out: &str) -> Wire {
        let el = self.body.ladder[k].id.clone();
        let id = if !role.is_empty() {
            self.fresh(&format!("{el}__{role}"))
        } else if self.named.insert(k) {
            self.fresh(&el)
        } else {
            self.fresh(&format!("{el}__{}", ty.to_ascii_lowercase()))
        };
        self.made.push(gate(id.clone(), ty, inputs, None));
        Wire::Ref(format!("{id}.{out}"))
    }

    /// The value of variable `v` at place `p`.
    fn value_at(&mut self, v: usize, p: usize) -> Wire {
        if let Some((w, _)) = self.writes[v].iter().rev().find(|(_, q)| *q < p) {
            return w.clone();
        }
        let var = &self.body.variables[v];
        if var.input {
            return Wire::Ref(var.name.clone());
        }
        let init = var.init.map(|c| c.0);
        if self.written[v] && !var.temp {
            self.held[v] = true;
            return Wire::Feedback { from: format!("{}.out", hold_id(&var.name)), init: init.map(Box::new) };
        }
        Wire::constant(init.unwrap_or_else(|| var.ty.0.zero()))
    }

    /// What `name` (a variable, an input, an element, the rail, `block.pin`) gives at place `p`.
    fn read(&mut self, name: &str, p: usize) -> Wire {
        match self.names.resolve(name) {
            Some(Name::Rail) => truth(),
            Some(Name::Var(v)) => self.value_at(v, p),
            Some(Name::Input) | None => Wire::Ref(name.to_string()),
            Some(Name::Element(o)) => self.element(o, p),
            Some(Name::Output(b, pin)) if pin == "ENO" => self.eno(b, p),
            Some(Name::Output(b, pin)) => {
                let delayed = library::lookup(&self.body.blocks[b].ty)
                    .is_some_and(|d| d.outputs.iter().any(|o| o.name == pin && o.delayed));
                if delayed || self.seq.block_at[b] < p {
                    Wire::Ref(name.to_string())
                } else {
                    Wire::Feedback { from: name.to_string(), init: None }
                }
            }
        }
    }

    /// Block `b`'s ENO read at place `p`: its EN as its call saw it.
    fn eno(&mut self, b: usize, p: usize) -> Wire {
        if self.body.blocks[b].inputs.get(library::ENABLE).is_none_or(is_true) {
            return truth();
        }
        let from = format!("{}.out", eno_id(&self.body.blocks[b].id));
        if self.seq.block_at[b] < p { Wire::Ref(from) } else { Wire::Feedback { from, init: None } }
    }

    /// The power into element `k` from its sources at place `p` (`None`: connected to
    /// nothing); a store's value.
    fn power(&mut self, k: usize, p: usize) -> Option<Wire> {
        let from = self.body.ladder[k].from.clone();
        let mut srcs: Vec<Wire> = Vec::new();
        for s in from {
            let w = self.rewrite(s, p, &mut HashSet::new());
            if is_true(&w) {
                return Some(truth());
            }
            if !srcs.contains(&w) {
                srcs.push(w);
            }
        }
        match srcs.len() {
            0 => None,
            1 => srcs.pop(),
            _ => {
                let pins: Vec<String> = (1..=srcs.len()).map(|j| format!("in{j}")).collect();
                let inputs = pins.iter().map(String::as_str).zip(srcs).collect();
                Some(self.make(k, "or", "OR", inputs, "out"))
            }
        }
    }

    /// The power out of element `o` (a contact, the power through a coil) at place `p`.
    fn element(&mut self, o: usize, p: usize) -> Wire {
        if let Some(w) = self.memo.get(&o) {
            return w.clone();
        }
        let e = self.body.ladder[o].clone();
        let w = match e.kind {
            LdKind::Contact => {
                let input = self.power(o, p).unwrap_or_else(truth);
                let read = self.read(&e.var, p);
                let term = match e.modifier {
                    LdModifier::Negated => self.make(o, "not", "NOT", vec![("in", read)], "out"),
                    LdModifier::Rising => self.make(o, "rise", "R_TRIG", vec![("clk", read)], "q"),
                    LdModifier::Falling => self.make(o, "fall", "F_TRIG", vec![("clk", read)], "q"),
                    _ => read,
                };
                if is_true(&input) { term } else { self.make(o, "", "AND", vec![("in1", input), ("in2", term)], "out") }
            }
            // Through a coil: the AND of its sources.
            LdKind::Coil => {
                let mut srcs: Vec<Wire> = Vec::new();
                for s in e.from {
                    let w = self.rewrite(s, p, &mut HashSet::new());
                    if !is_true(&w) && !srcs.contains(&w) {
                        srcs.push(w);
                    }
                }
                match srcs.len() {
                    0 => truth(),
                    1 => srcs.pop().unwrap_or_else(truth),
                    _ => {
                        let pins: Vec<String> = (1..=srcs.len()).map(|j| format!("in{j}")).collect();
                        let inputs = pins.iter().map(String::as_str).zip(srcs).collect();
                        self.make(o, "through", "AND", inputs, "out")
                    }
                }
            }
            // Checked: nothing is powered from a store.
            LdKind::Store => truth(),
        };
        self.memo.insert(o, w.clone());
        w
    }

    /// The statement of coil or store `k`, at place `p`.
    fn statement(&mut self, k: usize, p: usize) {
        self.memo.clear();
        let e = self.body.ladder[k].clone();
        let Some(Name::Var(v)) = self.names.resolve(&e.var) else { return };
        let value = match e.kind {
            LdKind::Coil => {
                let Some(power) = self.power(k, p) else { return };
                match e.modifier {
                    LdModifier::Plain => power,
                    LdModifier::Negated => self.make(k, "", "NOT", vec![("in", power)], "out"),
                    LdModifier::Rising => self.make(k, "", "R_TRIG", vec![("clk", power)], "q"),
                    LdModifier::Falling => self.make(k, "", "F_TRIG", vec![("clk", power)], "q"),
                    LdModifier::Set => {
                        let now = self.value_at(v, p);
                        self.make(k, "", "OR", vec![("in1", now), ("in2", power)], "out")
                    }
                    LdModifier::Reset => {
                        let now = self.value_at(v, p);
                        let off = self.make(k, "off", "NOT", vec![("in", power)], "out");
                        self.make(k, "", "AND", vec![("in1", now), ("in2", off)], "out")
                    }
                }
            }
            _ => self.store_value(k, v, p),
        };
        self.writes[v].push((value, p));
    }

    /// What store `k` writes into variable `v` at place `p`: its source (negated if it says
    /// so), guarded by the ENO of the block it reads straight from.
    fn store_value(&mut self, k: usize, v: usize, p: usize) -> Wire {
        let e = self.body.ladder[k].clone();
        let mut value = self.power(k, p).unwrap_or_else(truth);
        if e.modifier == LdModifier::Negated {
            value = self.make(k, "", "NOT", vec![("in", value)], "out");
        }
        let [Wire::Ref(src)] = &e.from[..] else { return value };
        let Some(Name::Output(b, pin)) = self.names.resolve(src) else { return value };
        if pin == "ENO" {
            return value;
        }
        // A generic block writing a typed variable computes in the variable's type, as matiec
        // types an expression by the variable it is assigned to.
        let ty = self.body.variables[v].ty;
        let generic = library::lookup(&self.body.blocks[b].ty)
            .and_then(|d| d.outputs.iter().find(|o| o.name == pin))
            .is_some_and(|o| matches!(o.ty, library::PinTy::T));
        if generic && self.body.blocks[b].data_type().is_none() {
            self.body.blocks[b].set_data_type(Some(ty));
        }
        let en = self.eno(b, p);
        if is_true(&en) {
            return value;
        }
        let now = self.value_at(v, p);
        let id = self.fresh(&format!("{}__eno_guard", e.id));
        self.made.push(gate(id.clone(), "SEL", vec![("g", en), ("in0", now), ("in1", value)], Some(ty.0)));
        Wire::Ref(format!("{id}.out"))
    }

    /// Block `b`'s call at place `p`: its inputs read there.
    fn call(&mut self, b: usize, p: usize) {
        let pins: Vec<(Box<str>, Wire)> =
            self.body.blocks[b].inputs.iter().map(|(pin, w)| (pin.into(), w.clone())).collect();
        let mut rewritten = Vec::with_capacity(pins.len());
        for (pin, w) in pins {
            self.memo.clear();
            let w = self.rewrite(w, p, &mut HashSet::new());
            rewritten.push((pin, w));
        }
        self.body.blocks[b].inputs.0 = rewritten.into_boxed_slice();
        if self.eno_read[b] {
            let en = self.body.blocks[b].inputs.get(library::ENABLE).cloned().unwrap_or_else(truth);
            let id = eno_id(&self.body.blocks[b].id);
            self.taken.insert(id.clone());
            self.made.push(gate(id, "MOVE", vec![("in", en)], Some(Type::Bool)));
        }
    }

    /// Wire `w` of a block input read at place `p`: a ladder name resolved, a continuation
    /// followed to its connector's source.
    fn rewrite(&mut self, w: Wire, p: usize, followed: &mut HashSet<String>) -> Wire {
        match w {
            Wire::Ref(r) => self.read(&r, p),
            Wire::Connector(n) => {
                let from = self.body.connectors.iter().find(|c| c.name == n).map(|c| c.from.clone());
                match from {
                    Some(f) if followed.insert(n.clone()) => self.rewrite(f, p, followed),
                    _ => Wire::Connector(n),
                }
            }
            w => w,
        }
    }

    /// `w` as a wire a port or a connector may carry: a reference or a constant (a feedback
    /// wire through a MOVE of its own).
    fn as_signal(&mut self, w: Wire, name: &str, ty: Option<TypeName>) -> Wire {
        match w {
            Wire::Feedback { .. } => {
                let id = self.fresh(&format!("{name}__end"));
                self.made.push(gate(id.clone(), "MOVE", vec![("in", w)], ty.map(|t| t.0)));
                Wire::Ref(format!("{id}.out"))
            }
            w => w,
        }
    }

    /// The ports and connectors read at the end of the scan, each variable's connector (it
    /// answers by its name), the held variables' blocks, and the made blocks added.
    fn finish(&mut self) {
        let mut followed = HashSet::new();
        for k in 0..self.body.outputs.len() {
            let w = self.body.outputs[k].from.clone();
            let w = self.rewrite(w, END, &mut followed);
            let ty = Some(self.body.outputs[k].ty);
            let name = self.body.outputs[k].name.clone();
            self.body.outputs[k].from = self.as_signal(w, &name, ty);
        }
        let mut connectors = Vec::new();
        for v in 0..self.body.variables.len() {
            if self.body.variables[v].input {
                continue; // it answers by its name as the input; its writes reach its readers
            }
            let end = self.value_at(v, END);
            let var = self.body.variables[v].clone();
            let from = self.as_signal(end, &var.name, Some(var.ty));
            connectors.push(Connector { name: var.name.clone(), from });
        }
        // What the previous scan left in a variable read before its write: what its last write
        // stores, through a MOVE when that is no block output.
        let mut direct: HashMap<String, String> = HashMap::new();
        for v in 0..self.body.variables.len() {
            if !self.held[v] {
                continue;
            }
            let var = self.body.variables[v].clone();
            let last = self.writes[v].last().map(|(w, _)| w.clone()).unwrap_or_else(|| Wire::constant(var.ty.0.zero()));
            let id = hold_id(&var.name);
            match last {
                Wire::Ref(r) if r.contains('.') => {
                    direct.insert(format!("{id}.out"), r);
                }
                w => {
                    self.taken.insert(id.clone());
                    self.made.push(gate(id, "MOVE", vec![("in", w)], Some(var.ty.0)));
                }
            }
        }
        let mut blocks = std::mem::take(self.body.blocks);
        blocks.append(&mut self.made);
        if !direct.is_empty() {
            let fix = |w: &mut Wire| {
                if let Wire::Feedback { from, .. } = w
                    && let Some(r) = direct.get(from)
                {
                    *from = r.clone();
                }
            };
            for b in &mut blocks {
                b.inputs.0.iter_mut().for_each(|(_, w)| fix(w));
            }
            self.body.outputs.iter_mut().for_each(|o| fix(&mut o.from));
            connectors.iter_mut().for_each(|c| fix(&mut c.from));
        }
        *self.body.blocks = blocks;
        *self.body.connectors = connectors;
    }
}

/// The block that holds variable `name` for the next scan.
fn hold_id(name: &str) -> String {
    format!("{name}__var")
}

/// The block that keeps block `id`'s EN as its call saw it (its ENO).
fn eno_id(id: &str) -> String {
    format!("{id}__eno")
}
