//! Following a connection to what drives it (through continuations), and the small blocks an
//! import adds (wired ORs), with the helpers that build and rewire blocks.

use std::collections::{HashMap, HashSet};

use fbd_model::Value;
use fbd_model::model::{Block, Params, Pins, Wire};
use roxmltree::Node;

use super::names::out_pin;
use super::reads::Read;
use super::{Ctx, child, children};
use crate::literal;

/// What drives a connection: a block output, a variable read, or a constant.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Src {
    Out(String),
    Var(String),
    Const(Value),
    /// Several outputs on one input: their OR (a "wired OR").
    Or(Vec<Src>),
    /// A block output `out` read through the continuation of `connector`: a pin reading it
    /// keeps the continuation (`{"connector": name}`) where the order allows.
    Via {
        connector: String,
        out: String,
    },
}

impl Src {
    /// The source without the connector it was read through.
    pub(super) fn direct(self) -> Src {
        match self {
            Src::Via { out, .. } => Src::Out(out),
            Src::Or(list) => Src::Or(list.into_iter().map(Src::direct).collect()),
            other => other,
        }
    }
}

/// What a body's connections are resolved against.
pub(super) struct Lookup<'a, 'x, 'i> {
    pub(super) by_id: &'a HashMap<&'x str, Node<'x, 'i>>,
    pub(super) connectors: &'a HashMap<&'x str, Node<'x, 'i>>,
    pub(super) block_ids: &'a HashMap<&'x str, String>,
    pub(super) var_names: &'a HashSet<&'x str>,
    /// Variables of a structure (or other non-block derived) type, with the type's name.
    pub(super) structs: &'a HashMap<&'x str, &'x str>,
    pub(super) pou_names: &'a HashSet<String>,
    /// In a function's body: the function's name, by which it writes and reads its result.
    pub(super) result_of: Option<&'a str>,
    /// A structure member's path (`st.Run`) → the variable it is flattened to (`st_Run`).
    pub(super) members: &'a HashMap<String, String>,
    /// In a ladder body: our id of each contact and coil, and `rail` for a left rail, by
    /// localId (`rungs.rs`); a connection to one reads its power by that name.
    pub(super) elements: &'a HashMap<&'x str, String>,
}

impl Lookup<'_, '_, '_> {
    /// The variable an expression names: a function's own name is its result, a structure
    /// member's path its flattened variable.
    pub(super) fn variable(&self, expr: &str) -> String {
        match self.result_of {
            // IEC 61131-3 names are not case-sensitive.
            Some(f) if f.eq_ignore_ascii_case(expr) => super::RESULT.to_string(),
            _ => match self.members.get(expr).or_else(|| self.members.get(&expr.to_ascii_lowercase())) {
                Some(flat) => flat.clone(),
                None => expr.to_string(),
            },
        }
    }

    /// Whether `expr` names a whole structure (flattened into its members: it has no variable
    /// of its own to wire).
    pub(super) fn whole_structure(&self, expr: &str) -> bool {
        let prefix = format!("{}.", expr.to_ascii_lowercase());
        self.members.keys().any(|k| k.starts_with(&prefix))
    }

    /// The source a connectionPointIn names, through continuations to their connector.
    pub(super) fn source(&self, cx: &mut Ctx, cpi: Node, depth: u32) -> Option<Src> {
        let conns: Vec<Node> = children(cpi, "connection").collect();
        if conns.len() > 1 {
            // Several outputs on one input: their OR, as the tools draw a "wired OR".
            let mut all = Vec::new();
            for c in &conns {
                all.push(self.one(cx, *c, depth)?);
            }
            return Some(Src::Or(all));
        }
        let c = conns.first()?;
        self.one(cx, *c, depth)
    }

    /// The source one `<connection>` names.
    pub(super) fn one(&self, cx: &mut Ctx, c: Node, depth: u32) -> Option<Src> {
        let c = &c;
        let r = c.attribute("refLocalId").unwrap_or("");
        let Some(src) = self.by_id.get(r) else {
            cx.err(*c, format!("connection to localId {r}, which is not in this body"));
            return None;
        };
        if let Some(id) = self.elements.get(r) {
            return Some(Src::Var(id.clone()));
        }
        match src.tag_name().name() {
            "block" => {
                let id = self.block_ids.get(r)?;
                let ty = src.attribute("typeName").unwrap_or("");
                let outs: Vec<Node> =
                    child(*src, "outputVariables").map(|o| children(o, "variable").collect()).unwrap_or_default();
                let param = c
                    .attribute("formalParameter")
                    .map(str::to_string)
                    .or_else(|| {
                        (outs.len() == 1).then(|| outs[0].attribute("formalParameter").unwrap_or("").to_string())
                    })
                    .unwrap_or_default();
                // This tool's export reads last scan's value from a stand-in that runs later in
                // the scan by the output that holds it there (MEMORY's q, DELAY's next).
                let order = |n: Node| n.attribute("executionOrderId").and_then(|o| o.parse::<u64>().ok());
                let reader = c.ancestors().find(|a| a.tag_name().name() == "block").and_then(order);
                let before = reader.zip(order(*src)).is_some_and(|(r, s)| r < s);
                let pin = match (super::names::helper(ty).map(|h| h.0), param.to_ascii_uppercase().as_str()) {
                    (Some(b), "Q") if b == "MEMORY" && before => "prev".to_string(),
                    (Some(b), "NEXT") if b == "DELAY" => "q".to_string(),
                    _ => out_pin(ty, &param, self.pou_names),
                };
                // A connection to an output the block does not list: which one was meant is a
                // guess (a block that lists no outputs is taken at its word).
                if !outs.is_empty()
                    && !outs
                        .iter()
                        .any(|o| o.attribute("formalParameter").is_some_and(|f| f.eq_ignore_ascii_case(&param)))
                {
                    cx.err(
                        *c,
                        format!("connection to output `{param}` of block `{id}` ({ty}), which has no such output"),
                    );
                    return None;
                }
                Some(Src::Out(format!("{id}.{pin}")))
            }
            "inVariable" | "inOutVariable" => {
                let e = self.variable(child(*src, "expression").and_then(|x| x.text()).unwrap_or("").trim());
                if self.var_names.contains(e.as_str()) {
                    Some(Src::Var(e))
                } else if let Ok(v) = literal::parse(&e) {
                    Some(Src::Const(v))
                } else if self.whole_structure(&e) {
                    cx.err(*src, format!("`{e}` is a whole structure; it is imported as a variable per member (`{e}.x` is `{e}_x`), so wire its members"));
                    None
                } else if let Some((v, t)) = e.split_once('.').and_then(|(v, _)| Some((v, *self.structs.get(v)?))) {
                    cx.err(*src, super::member_error(&e, v, Some(t)));
                    None
                } else if let Some((inst, pin)) = e.split_once('.') {
                    Some(Src::Out(format!("{inst}.{}", pin.to_ascii_lowercase())))
                } else {
                    cx.err(*src, format!("`{e}` is neither a declared variable nor a literal; ST expressions in variables are not imported"));
                    None
                }
            }
            "continuation" => {
                // Followed hop by hop without recursion: a long chain of connectors is legal; only
                // one that comes back to a connector it passed is a circle.
                let first = src.attribute("name").unwrap_or("");
                let mut n = first;
                let mut passed: HashSet<&str> = HashSet::new();
                loop {
                    let Some(conn) = self.connectors.get(n) else {
                        cx.err(*src, format!("continuation `{n}` has no connector of that name"));
                        return None;
                    };
                    if !passed.insert(n) {
                        cx.err(*src, format!("continuation `{n}` leads round in a circle of connectors"));
                        return None;
                    }
                    let cpi = child(*conn, "connectionPointIn")?;
                    let conns: Vec<Node> = children(cpi, "connection").collect();
                    let next = match conns.as_slice() {
                        [one] => one
                            .attribute("refLocalId")
                            .and_then(|r| self.by_id.get(r))
                            .filter(|e| e.tag_name().name() == "continuation"),
                        _ => None,
                    };
                    match next {
                        Some(e) => n = e.attribute("name").unwrap_or(""),
                        None if depth > 64 => {
                            cx.err(*src, format!("continuation `{n}`: wired ORs nested more than 64 deep"));
                            return None;
                        }
                        None => {
                            return self.source(cx, cpi, depth + 1).map(|s| match s {
                                Src::Out(out) => Src::Via { connector: first.to_string(), out },
                                other => other,
                            });
                        }
                    }
                }
            }
            other => {
                cx.err(*src, format!("<{other}> cannot drive a connection in FBD"));
                None
            }
        }
    }
}

/// Makes a wired OR into an OR block named `id` and returns its output; other sources pass.
pub(super) fn wired_or(
    src: Src,
    id: &str,
    blocks: &mut Vec<Block>,
    reads: &mut Vec<Read>,
    at: &Node,
    seq_at: usize,
) -> Src {
    let Src::Or(list) = src else { return src };
    let mut ins = Vec::new();
    for (k, s) in list.into_iter().map(Src::direct).enumerate() {
        let pin = format!("in{}", k + 1);
        let w = match s {
            Src::Out(r) => Wire::Ref(r),
            Src::Var(n) => {
                reads.push(Read::new(id, &pin, &n, seq_at));
                Wire::Ref(n)
            }
            Src::Const(v) => Wire::constant(v),
            Src::Or(_) | Src::Via { .. } => Wire::constant(Value::Bool(false)), // nested wired ORs do not occur
        };
        ins.push((pin, w));
    }
    let mut b = simple_block(id, "OR", ins, at);
    if let Some(p) = b.pos.as_mut() {
        p[0] -= 120.0;
    }
    blocks.push(b);
    Src::Out(format!("{id}.out"))
}

/// Leaves the positions out of a body whose blocks all stand at one place (CODESYS exports
/// every position as 0,0) or where one stands outside the drawing this runtime keeps (a warning
/// says so): the layout engine draws the body then.
pub(super) fn drop_unusable_positions(cx: &mut Ctx, pou: &str, blocks: &mut [Block]) {
    let first = blocks.first().and_then(|b| b.pos);
    let outside =
        blocks.iter().filter_map(|b| b.pos).find(|p| !p.iter().all(|c| c.abs() <= fbd_model::limits::MAX_POS));
    if let Some(p) = outside {
        cx.warnings.push(format!(
            "POU `{pou}`: a block stands at ({}, {}), outside the drawing this runtime keeps; the body is laid out anew",
            p[0], p[1]
        ));
    }
    if (blocks.len() > 1 && blocks.iter().all(|b| b.pos == first)) || outside.is_some() {
        for b in blocks.iter_mut() {
            b.pos = None;
        }
    }
}

pub(super) fn simple_block(id: &str, ty: &str, inputs: Vec<(String, Wire)>, at: &Node) -> Block {
    simple_block_at(id, ty, inputs, position(*at))
}

/// An element's `<position>`.
pub(super) fn position(at: Node) -> Option<[f64; 2]> {
    child(at, "position").and_then(|p| {
        let x: f64 = p.attribute("x")?.parse().ok()?;
        let y: f64 = p.attribute("y")?.parse().ok()?;
        Some([x, y])
    })
}

pub(super) fn simple_block_at(id: &str, ty: &str, inputs: Vec<(String, Wire)>, pos: Option<[f64; 2]>) -> Block {
    Block {
        id: id.into(),
        ty: ty.into(),
        inputs: Pins(inputs),
        negated: Default::default(),
        params: Params::default(),
        data_type: None,
        pos,
        order: None,
        comment: None,
    }
}

pub(super) fn set_pin(blocks: &mut [Block], id: &str, pin: &str, w: Wire) {
    if let Some(b) = blocks.iter_mut().find(|b| b.id == id)
        && let Some(p) = b.inputs.0.iter_mut().find(|(p, _)| p == pin)
    {
        p.1 = w;
    }
}
