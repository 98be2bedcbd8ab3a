//! An LD body's rails, contacts, coils and variables as the model's ladder network
//! (`fbd_model::model::ladder`): the file's elements one for one, with their positions, in
//! document order (the order of Beremiz's statements); the blocks of the rungs are imported as
//! an FBD body's are, their connections to contacts, coils and the rail named by those
//! elements' ids. What the network computes, and when, is the compiler's (`fbd_compiler::ladder`),
//! which runs it as Beremiz's generator writes it and matiec runs it.

use std::collections::HashMap;

use fbd_model::model::ladder::RAIL;
use fbd_model::model::{Block, LdElement, LdKind, LdModifier, Wire};
use roxmltree::Node;

use super::ctx::{Ctx, child, children};
use super::lookup::{Lookup, Src, position};

/// Our id of each contact and coil, by its localId; the left rails are the rail.
pub(super) fn element_ids<'x>(elems: &[Node<'x, '_>]) -> HashMap<&'x str, String> {
    let mut ids = HashMap::new();
    for e in elems {
        let Some(l) = e.attribute("localId") else { continue };
        let id = match e.tag_name().name() {
            "contact" => format!("contact{l}"),
            "coil" => format!("coil{l}"),
            "leftPowerRail" => RAIL.to_string(),
            _ => continue,
        };
        ids.insert(l, id);
    }
    ids
}

/// The variable or block output a contact's or coil's `<variable>` names.
fn var_of(look: &Lookup, e: Node) -> String {
    let text = child(e, "variable").and_then(|v| v.text()).unwrap_or("").trim();
    let v = look.variable(text);
    if look.var_names.contains(v.as_str()) {
        return v;
    }
    match v.split_once('.') {
        Some((inst, pin)) => format!("{inst}.{}", pin.to_ascii_lowercase()),
        None => v,
    }
}

/// What a contact's or coil's attributes say: negation first, then a set or reset storage,
/// then an edge (Beremiz's ExtractModifier).
fn modifier(e: Node) -> LdModifier {
    if e.attribute("negated") == Some("true") {
        return LdModifier::Negated;
    }
    match (e.attribute("storage"), e.attribute("edge")) {
        (Some("set"), _) => LdModifier::Set,
        (Some("reset"), _) => LdModifier::Reset,
        (_, Some("rising")) => LdModifier::Rising,
        (_, Some("falling")) => LdModifier::Falling,
        _ => LdModifier::Plain,
    }
}

/// The sources of an element's connectionPointIn, each as a wire.
fn sources(cx: &mut Ctx, look: &Lookup, ids: &HashMap<&str, String>, e: Node) -> Vec<Wire> {
    let Some(cpi) = child(e, "connectionPointIn") else { return Vec::new() };
    let mut out = Vec::new();
    for c in children(cpi, "connection") {
        let r = c.attribute("refLocalId").unwrap_or("");
        if let Some(id) = ids.get(r) {
            out.push(Wire::Ref(id.clone()));
            continue;
        }
        match look.by_id.get(r).map(|n| n.tag_name().name()) {
            Some("rightPowerRail") => {
                cx.err(c, "the right power rail is no source of power");
                continue;
            }
            None => {
                cx.err(c, format!("a connection names element {r}, which the body does not have"));
                continue;
            }
            _ => {}
        }
        match look.one(cx, c, 0).map(Src::direct) {
            Some(Src::Out(r) | Src::Var(r)) => out.push(Wire::Ref(r)),
            Some(Src::Const(v)) => out.push(Wire::constant(v)),
            Some(Src::Or(_) | Src::Via { .. }) | None => {}
        }
    }
    out
}

/// The body's contacts, coils and stores (outVariables, inOutVariables), in document order.
/// Each is placed at its element for the compiler's errors (`pou_key`: the POU in
/// `Ctx::places`).
pub(super) fn network(
    cx: &mut Ctx,
    (look, pou_key): (&Lookup, &str),
    (ids, blocks): (&HashMap<&str, String>, &[Block]),
    elems: &[Node],
) -> Vec<LdElement> {
    let mut out = Vec::new();
    for e in elems {
        let name = e.tag_name().name();
        let kind = match name {
            "contact" => LdKind::Contact,
            "coil" => LdKind::Coil,
            "outVariable" | "inOutVariable" => LdKind::Store,
            "jump" | "label" | "return" => {
                cx.err(*e, format!("<{name}> in a ladder body is not imported (Beremiz's generator ignores it too)"));
                continue;
            }
            _ => continue,
        };
        let l = e.attribute("localId").unwrap_or("");
        let (id, var, modifier) = match kind {
            LdKind::Store => {
                let text = child(*e, "expression").and_then(|x| x.text()).unwrap_or("").trim();
                let var = look.variable(text);
                if e.attribute("edge").is_some_and(|x| x != "none") {
                    cx.err(*e, format!("`{var}`: an edge on a variable's write is not imported"));
                    continue;
                }
                if e.attribute("storage").is_some_and(|s| s != "none") {
                    cx.err(
                        *e,
                        format!(
                            "`{var}`: set/reset storage on a variable's write is not imported; use a set or reset coil"
                        ),
                    );
                    continue;
                }
                let negated =
                    if e.attribute("negated") == Some("true") { LdModifier::Negated } else { LdModifier::Plain };
                (format!("store{l}"), var, negated)
            }
            _ => {
                let var = var_of(look, *e);
                if var.is_empty() {
                    cx.err(*e, format!("a {name} without a variable"));
                    continue;
                }
                if !var.contains('.') && !look.var_names.contains(var.as_str()) {
                    cx.err(*e, format!("{name} `{var}`: `{var}` is not a declared variable of the POU"));
                    continue;
                }
                (ids.get(l).cloned().unwrap_or_else(|| format!("{name}{l}")), var, modifier(*e))
            }
        };
        let from = sources(cx, look, ids, *e);
        cx.places.push((pou_key.to_string(), id.clone(), e.range().start));
        out.push((LdElement { id, kind, var, modifier, from, pos: position(*e), comment: None }, *e));
    }
    // A contact connected to nothing on its left is refused where something reads it: Beremiz's
    // generator never reaches one that nothing reads.
    for (c, node) in out.iter().filter(|(c, _)| c.kind == LdKind::Contact && c.from.is_empty()) {
        let reads = |w: &Wire| matches!(w, Wire::Ref(r) if *r == c.id);
        if out.iter().any(|(e, _)| e.from.iter().any(reads))
            || blocks.iter().any(|b| b.inputs.0.iter().any(|(_, w)| reads(w)))
        {
            cx.err(*node, format!("contact `{}` is not connected on its left", c.var));
        }
    }
    out.into_iter().map(|(e, _)| e).collect()
}
