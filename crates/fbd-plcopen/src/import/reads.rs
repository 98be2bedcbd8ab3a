//! What each read of an imported body sees, given the statement sequence (`order.rs`): a
//! variable written earlier in the scan gives that write's value, one written later (or a
//! block called later) the previous scan's, starting from the variable's initial value; a
//! variable never written keeps its initial value.

use std::collections::{BTreeMap, HashMap, HashSet};

use fbd_model::model::{Block, Connector, TypeName, Wire};
use fbd_model::{Type, Value, library};

use super::lookup::Src;

/// Each written variable: what its last write stores, and where in the sequence it is.
pub(super) type Writes = BTreeMap<String, (Src, usize)>;
/// A variable's earlier writes in the sequence, when several outVariables write it.
pub(super) type EarlierWrites = BTreeMap<String, Vec<(Src, usize)>>;

/// A block pin that reads a variable, and where in the sequence the read happens.
pub(super) struct Read {
    pub(super) block: String,
    pub(super) pin: String,
    pub(super) var: String,
    pub(super) at: usize,
}

impl Read {
    pub(super) fn new(block: &str, pin: &str, var: &str, at: usize) -> Read {
        Read { block: block.to_string(), pin: pin.to_string(), var: var.to_string(), at }
    }
}

/// A variable's declaration, as far as its reads need it.
pub(super) struct Declared {
    pub(super) ty: Option<Type>,
    pub(super) init: Option<Value>,
}

/// The variables of one body and their single writes, resolved to wires.
pub(super) struct Dataflow<'a> {
    /// Each written variable: what its last outVariable in the sequence writes, and where.
    pub(super) writes: &'a Writes,
    /// A variable's earlier writes in the sequence, when several outVariables write it (legal:
    /// the reads between two writes see the first).
    pub(super) earlier: &'a EarlierWrites,
    /// The POU's inputs: read by name, never written in the body.
    pub(super) inputs: &'a HashSet<&'a str>,
    pub(super) declared: &'a HashMap<String, Declared>,
    /// Each block's call in the sequence, by block id.
    pub(super) block_at: &'a HashMap<String, usize>,
    /// Variables whose previous-scan value is read through a MOVE of their own (a written
    /// constant or copy of another variable has no block output to feed back from).
    held: Vec<String>,
    held_set: HashSet<String>,
    taken: &'a HashSet<String>,
}

impl<'a> Dataflow<'a> {
    pub(super) fn new(
        (writes, earlier): (&'a Writes, &'a EarlierWrites),
        inputs: &'a HashSet<&'a str>,
        declared: &'a HashMap<String, Declared>,
        block_at: &'a HashMap<String, usize>,
        taken: &'a HashSet<String>,
    ) -> Dataflow<'a> {
        Dataflow { writes, earlier, inputs, declared, block_at, held: Vec::new(), held_set: HashSet::new(), taken }
    }

    fn init(&self, var: &str) -> Option<Value> {
        self.declared.get(var).and_then(|d| d.init)
    }

    /// The value of `var` read at place `at` of the sequence.
    pub(super) fn value_at(&mut self, var: &str, at: usize) -> Wire {
        // The last write before `at`, if it is not the variable's last write of the scan.
        let earlier =
            self.earlier.get(var).and_then(|list| list.iter().filter(|(_, q)| *q < at).max_by_key(|(_, q)| *q));
        // An input the body writes (a located %I variable) is this scan's input until the
        // write, then what the write stored, until the next scan's input image.
        if self.inputs.contains(var) {
            return match (self.writes.get(var), earlier) {
                (Some((_, q)), _) if *q < at => self.written(var),
                (_, Some((src, q))) => self.stored(&src.clone(), *q),
                _ => Wire::Ref(var.to_string()),
            };
        }
        match (self.writes.get(var), earlier) {
            (Some((_, q)), _) if *q < at => self.written(var),
            (_, Some((src, q))) => self.stored(&src.clone(), *q),
            (Some(_), None) => self.previous(var),
            (None, _) => {
                Wire::constant(self.init(var).unwrap_or_else(|| zero(self.declared.get(var).and_then(|d| d.ty))))
            }
        }
    }

    /// What the last write of `var` stores, at its own place.
    fn written(&mut self, var: &str) -> Wire {
        let (src, q) = self.writes[var].clone();
        self.stored(&src, q)
    }

    /// What a write of `src` at place `q` stores.
    fn stored(&mut self, src: &Src, q: usize) -> Wire {
        match src {
            Src::Out(r) => {
                if self.called_by(r, q) {
                    Wire::Ref(r.clone())
                } else {
                    Wire::Feedback { from: r.clone(), init: None }
                }
            }
            Src::Var(w) => {
                let w = w.clone();
                self.value_at(&w, q)
            }
            Src::Const(c) => Wire::constant(*c),
            // Made into an OR block before; writes are stored without their connectors.
            Src::Or(_) | Src::Via { .. } => Wire::constant(Value::Bool(false)),
        }
    }

    /// Whether the block of output `r` is called no later than place `q`.
    fn called_by(&self, r: &str, q: usize) -> bool {
        let block = r.split_once('.').map_or(r, |(b, _)| b);
        self.block_at.get(block).is_none_or(|b| *b <= q)
    }

    /// The value `var` had at the end of the previous scan (its initial value in the first).
    fn previous(&mut self, var: &str) -> Wire {
        let init = self.init(var);
        if let Some((Src::Out(r), q)) = self.writes.get(var)
            && self.called_by(r, *q)
        {
            return Wire::Feedback { from: r.clone(), init: init.map(Box::new) };
        }
        if self.held_set.insert(var.to_string()) {
            self.held.push(var.to_string());
        }
        Wire::Feedback { from: format!("{}.out", self.hold_id(var)), init: init.map(Box::new) }
    }

    fn hold_id(&self, var: &str) -> String {
        let base: String = var.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
        let mut id = format!("{base}__var");
        let mut k = 1;
        while self.taken.contains(&id) {
            id = format!("{base}__var{k}");
            k += 1;
        }
        id
    }

    /// The MOVE blocks that hold variables read before their write (each holding what the
    /// write stores; resolving one may ask for more).
    /// They have no place of their own in the file: the layout places them.
    pub(super) fn hold_blocks(&mut self) -> Vec<Block> {
        let mut out = Vec::new();
        let mut k = 0;
        while k < self.held.len() {
            let var = self.held[k].clone();
            k += 1;
            let input = self.written(&var);
            let mut b = super::lookup::simple_block_at(&self.hold_id(&var), "MOVE", vec![("in".into(), input)], None);
            b.data_type = self.declared.get(&var).and_then(|d| d.ty).map(TypeName);
            b.comment = Some(format!("`{var}` as the previous scan left it (read before its write)"));
            out.push(b);
        }
        out
    }
}

pub(super) fn zero(ty: Option<Type>) -> Value {
    match ty {
        Some(Type::Bool) => Value::Bool(false),
        Some(Type::LReal) => Value::Real(0.0),
        _ => Value::Int(0),
    }
}

/// A block output read by a statement that comes before the block's call (or by the block
/// itself) is the previous scan's value: IEC keeps a function block's outputs between calls.
/// Outputs that already carry the previous scan's value (MEMORY.prev, DELAY.q) stay. A
/// continuation (of a connector in `connectors`: name → block output) read so is such a
/// feedback wire instead: a connector carries the value of this scan.
pub(super) fn last_scan_outputs(
    blocks: &mut [Block],
    block_at: &HashMap<String, usize>,
    connectors: &BTreeMap<String, String>,
) {
    let types: HashMap<String, String> = blocks.iter().map(|b| (b.id.clone(), b.ty.clone())).collect();
    for b in blocks.iter_mut() {
        let Some(mine) = block_at.get(&b.id).copied() else { continue };
        for (_, w) in b.inputs.0.iter_mut() {
            let r = match w {
                Wire::Ref(r) => r.clone(),
                Wire::Connector(n) => match connectors.get(n) {
                    Some(r) => r.clone(),
                    None => continue,
                },
                _ => continue,
            };
            let Some((src, pin)) = r.split_once('.') else { continue };
            let Some(theirs) = block_at.get(src).copied() else { continue };
            if theirs < mine || (theirs == mine && src != b.id) {
                continue;
            }
            let delayed = types
                .get(src)
                .and_then(|t| library::lookup(t))
                .is_some_and(|d| d.outputs.iter().any(|p| p.name == pin && p.delayed));
            if !delayed {
                *w = Wire::Feedback { from: r.clone(), init: None };
            }
        }
    }
}

/// The connectors of `carried` (name → block output) that a block still reads, as the body's
/// connectors.
pub(super) fn kept_connectors(blocks: &[Block], carried: &BTreeMap<String, String>) -> Vec<Connector> {
    let read: std::collections::BTreeSet<&str> = blocks
        .iter()
        .flat_map(|b| b.inputs.0.iter())
        .filter_map(|(_, w)| if let Wire::Connector(n) = w { Some(n.as_str()) } else { None })
        .collect();
    carried
        .iter()
        .filter(|(n, _)| read.contains(n.as_str()))
        .map(|(n, r)| Connector { name: n.clone(), from: Wire::Ref(r.clone()) })
        .collect()
}
