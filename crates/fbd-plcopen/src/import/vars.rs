//! The variables a POU declares: elementary types mapped, initial values, located addresses,
//! a function block instance's initial members.

use fbd_engine::{Type, Value};
use roxmltree::Node;

use super::{Ctx, child, children};
use crate::literal;

/// One declared variable.
pub(super) struct Var {
    pub(super) name: String,
    pub(super) ty: Option<Type>,
    pub(super) init: Option<Value>,
    /// A function block instance's initial member values (`structValue`).
    pub(super) members: Vec<(String, Value)>,
    /// A located variable's address (`%IX0.0`, `%QW2`).
    pub(super) address: Option<String>,
}

pub(super) fn variables(cx: &mut Ctx, iface: Option<Node>, section: &str) -> Vec<Var> {
    let Some(iface) = iface else { return Vec::new() };
    let mut out = Vec::new();
    for sec in iface.children().filter(|c| c.is_element() && c.tag_name().name() == section) {
        for v in children(sec, "variable") {
            let name = v.attribute("name").unwrap_or("").to_string();
            let tnode = child(v, "type").and_then(|t| t.children().find(|c| c.is_element()));
            let ty = match tnode {
                Some(t) if t.tag_name().name() == "derived" => None,
                Some(t) => match literal::elementary(t.tag_name().name()) {
                    Some((ty, widened)) => {
                        if widened {
                            cx.warnings.push(format!(
                                "variable `{name}` is {}: it becomes a 64-bit INT here and does not wrap at the {} limits",
                                t.tag_name().name(),
                                t.tag_name().name()
                            ));
                        }
                        Some(ty)
                    }
                    None => {
                        cx.err(t, format!("variable `{name}`: type {} is not supported (BOOL, the integer types, REAL, LREAL, TIME)", t.tag_name().name()));
                        None
                    }
                },
                None => None,
            };
            let init =
                child(v, "initialValue").and_then(|i| child(i, "simpleValue")).and_then(|s| s.attribute("value"));
            let init = match init {
                Some(t) => match literal::parse(t) {
                    Ok(v) => Some(v),
                    Err(e) => {
                        cx.err(v, format!("variable `{name}`: initial value: {e}"));
                        None
                    }
                },
                None => None,
            };
            let members = child(v, "initialValue")
                .and_then(|i| child(i, "structValue"))
                .map(|sv| {
                    children(sv, "value")
                        .filter_map(|m| {
                            let k = m.attribute("member")?.to_ascii_lowercase();
                            let val = child(m, "simpleValue")?.attribute("value")?;
                            literal::parse(val).ok().map(|x| (k, x))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let address = v.attribute("address").map(str::to_string);
            out.push(Var { name, ty, init, members, address });
        }
    }
    out
}
