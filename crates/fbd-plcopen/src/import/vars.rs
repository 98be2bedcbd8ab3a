//! The variables a POU declares: elementary types mapped, initial values, located addresses,
//! a function block instance's initial members; a function's result (`OUT`); what a structure member is told;
//! the input ports a POU's inputs become.

use fbd_model::model::{Const, PortIn, ProgramInput, TypeName};
use fbd_model::{Type, Value};
use roxmltree::Node;

use super::{Ctx, child, children};
use crate::literal;

/// One declared variable.
#[derive(Clone)]
pub(super) struct Var {
    pub(super) name: String,
    pub(super) ty: Option<Type>,
    pub(super) init: Option<Value>,
    /// The initial value of a variable of an enumeration: a value's name.
    pub(super) init_name: Option<String>,
    /// A variable whose type is written out as an array: that type (`ARRAY[0..7] OF BYTE`).
    pub(super) array: Option<String>,
    /// An array's initial elements (`arrayValue`).
    pub(super) init_elements: Vec<Value>,
    /// A function block instance's initial member values (`structValue`).
    pub(super) members: Vec<(String, Value)>,
    /// A located variable's address (`%IX0.0`, `%QW2`).
    pub(super) address: Option<String>,
    /// The name of its derived type (a structure, an enumeration, a function block).
    pub(super) derived: Option<String>,
    /// What its documentation says (a port's description).
    pub(super) doc: Option<String>,
    /// Where it is declared (byte offset in the file).
    pub(super) at: usize,
    /// How the HMI shows it (a program input), as this tool's export keeps it in `addData`.
    pub(super) hmi: Option<(fbd_model::model::InputKind, Vec<String>)>,
    /// How the HMI shows it (a program output: `lamp`, `display`), from the same `addData`.
    pub(super) output_kind: Option<String>,
    /// A VAR_EXTERNAL that no configuration declares (an extension's global, set by the
    /// extension at run time): a stand-in that something outside sets.
    pub(super) stand_in: bool,
    /// A VAR_EXTERNAL naming a configuration's or resource's global: with several programs
    /// run, the variable they share.
    pub(super) global: bool,
}

impl Var {
    /// A variable of no type yet, no initial value, nothing else declared.
    pub(super) fn named(name: &str) -> Var {
        Var {
            name: name.to_string(),
            ty: None,
            init: None,
            init_name: None,
            array: None,
            init_elements: Vec::new(),
            members: Vec::new(),
            address: None,
            derived: None,
            doc: None,
            at: 0,
            hmi: None,
            output_kind: None,
            stand_in: false,
            global: false,
        }
    }
}

/// This tool's `addData` of a variable, if it has one.
fn our_data<'a, 'i>(v: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    child(v, "addData")
        .into_iter()
        .flat_map(|a| children(a, "data"))
        .find(|d| d.attribute("name") == Some(crate::export::HMI_DATA))
}

/// The HMI kind and selector labels this tool's export writes into a variable's `addData`.
fn hmi_data(v: Node) -> Option<(fbd_model::model::InputKind, Vec<String>)> {
    use fbd_model::model::InputKind;
    let input = child(our_data(v)?, "input")?;
    let kind = match input.attribute("kind")? {
        "button" => InputKind::Button,
        "switch" => InputKind::Switch,
        "selector" => InputKind::Selector,
        "number" => InputKind::Number,
        _ => return None,
    };
    let options = children(input, "option").map(|o| o.text().unwrap_or("").to_string()).collect();
    Some((kind, options))
}

pub(super) fn variables(cx: &mut Ctx, iface: Option<Node>, section: &str) -> Vec<Var> {
    let Some(iface) = iface else { return Vec::new() };
    let mut out = Vec::new();
    for sec in iface.children().filter(|c| c.is_element() && c.tag_name().name() == section) {
        for v in children(sec, "variable") {
            let name = v.attribute("name").unwrap_or("").to_string();
            let tnode = child(v, "type").and_then(|t| t.children().find(|c| c.is_element()));
            let ty = match tnode {
                // An extension library's name for an elementary type (svghmi's HMI_INT).
                Some(t) if t.tag_name().name() == "derived" => {
                    t.attribute("name").and_then(|n| cx.stand_ins.type_of(n))
                }
                Some(t) if t.tag_name().name() == "string" && t.attribute("length").is_some() => {
                    let n = t.attribute("length").unwrap_or_default();
                    cx.err(t, format!("variable `{name}`: STRING[{n}]: a declared length is not supported: a STRING here holds {} characters, as matiec's (which refuses STRING[{n}] too); declare it STRING", fbd_model::types::STRING_CAPACITY));
                    None
                }
                Some(t) if t.tag_name().name() == "array" => None,
                Some(t) => match literal::elementary(t.tag_name().name()) {
                    Some(ty) => Some(ty),
                    None => {
                        cx.err(t, format!("variable `{name}`: type {} is not supported (BOOL, the integer types, REAL, LREAL, TIME, STRING)", t.tag_name().name()));
                        None
                    }
                },
                None => None,
            };
            let init =
                child(v, "initialValue").and_then(|i| child(i, "simpleValue")).and_then(|s| s.attribute("value"));
            let array = match tnode.filter(|t| t.tag_name().name() == "array") {
                Some(a) => match super::enums::array_type(a) {
                    Ok(shape) => Some(shape.to_string()),
                    Err(e) => {
                        cx.err(a, format!("variable `{name}`: {e}"));
                        None
                    }
                },
                None => None,
            };
            let of_array = array.is_some()
                || tnode
                    .filter(|t| t.tag_name().name() == "derived")
                    .and_then(|t| t.attribute("name"))
                    .and_then(|n| super::enums::find(&cx.enums, n))
                    .is_some_and(|t| t.array().is_some());
            let init_elements = match child(v, "initialValue").and_then(|i| child(i, "arrayValue")) {
                Some(av) if of_array => super::enums::array_value(av).unwrap_or_else(|e| {
                    cx.err(av, format!("variable `{name}`: initial value: {e}"));
                    Vec::new()
                }),
                _ => Vec::new(),
            };
            let of_enum = tnode
                .filter(|t| t.tag_name().name() == "derived" && ty.is_none())
                .and_then(|t| t.attribute("name"))
                .is_some_and(|n| super::enums::find(&cx.enums, n).is_some());
            let init_name = init.filter(|_| of_enum).map(str::to_string);
            let init = match init.filter(|_| !of_enum) {
                Some(t) => match literal::initial_value(t, ty) {
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
            // A malformed address refused at its place: dropped, the variable was a local.
            // A malformed address refused at its place: dropped, the variable was a local.
            if let Some(a) = &address
                && let Err(e) = fbd_model::located::parse_address(a)
            {
                cx.err(v, format!("variable `{name}`: {e}"));
            }
            let derived =
                tnode.filter(|t| t.tag_name().name() == "derived" && ty.is_none()).and_then(|t| t.attribute("name"));
            let doc = super::text::documentation(v);
            let hmi = hmi_data(v);
            let output_kind =
                our_data(v).and_then(|d| child(d, "output")).and_then(|o| o.attribute("kind")).map(str::to_string);
            out.push(Var {
                name,
                ty,
                init,
                init_name,
                array,
                init_elements,
                members,
                address,
                derived: derived.map(str::to_string),
                doc,
                at: v.range().start,
                hmi,
                output_kind,
                // An extension's type (svghmi's HMI_INT): its HMI sets what the program reads.
                stand_in: derived.is_none() && tnode.is_some_and(|t| t.tag_name().name() == "derived"),
                global: false,
            });
        }
    }
    out
}

/// A function's result as an output `OUT` of the POU (its type from `returnType`); returns the
/// name the body writes it by. None for a function block, a program, or a function without a
/// result.
pub(super) fn function_result(
    cx: &mut Ctx,
    pou: Node,
    iface: Option<Node>,
    name: &str,
    outs: &mut Vec<Var>,
) -> Option<String> {
    if pou.attribute("pouType") != Some("function") {
        return None;
    }
    let rt = iface.and_then(|i| child(i, "returnType"))?;
    let t = rt.children().find(|c| c.is_element())?;
    let ty = match literal::elementary(t.tag_name().name()) {
        Some(ty) => ty,
        None => {
            let what = t.attribute("name").unwrap_or(t.tag_name().name());
            cx.err(
                t,
                format!("function `{name}` returns {what}; results are BOOL, an integer type, REAL, LREAL or TIME"),
            );
            return None;
        }
    };
    if let Some(v) = outs.iter().find(|v| v.name == RESULT) {
        let at = v.name.clone();
        cx.err(
            rt,
            format!(
                "function `{name}` declares an output `{at}` as well as a result, which a call reads as `{RESULT}`"
            ),
        );
        return None;
    }
    outs.insert(0, Var { ty: Some(ty), ..Var::named(RESULT) });
    Some(name.to_string())
}

/// A write or read of `var.member` where `var` is declared but of no structure type the file
/// declares (those are flattened: see `structs`), or an instance's member written.
pub(super) fn member_error(path: &str, var: &str, ty: Option<&str>) -> String {
    let ty = ty.map(|t| format!(" ({t}, a type the file does not declare as a structure)")).unwrap_or_default();
    format!(
        "`{path}` is a member of `{var}`{ty}; only members of structures declared in the file's dataTypes are imported (and an instance's outputs read)"
    )
}

/// The pin a call reads a function's result from.
pub(super) const RESULT: &str = "OUT";

/// The input ports of a POU from its declared inputs: program inputs (a BOOL a switch unless
/// this tool's export said otherwise in `addData`) or a macro's inputs.
pub(super) fn input_ports(
    cx: &mut Ctx,
    pou: Node,
    name: &str,
    ins: &[Var],
    is_program: bool,
) -> (Vec<ProgramInput>, Vec<PortIn>) {
    let mut prog_inputs = Vec::new();
    let mut macro_inputs = Vec::new();
    for v in ins {
        let Some(ty) = v.ty else {
            cx.err(pou, format!("input `{}` of `{name}` has a derived type; a program's inputs are of elementary types (BOOL, the integers and bit strings, REAL, LREAL, TIME, STRING)", v.name));
            continue;
        };
        if is_program {
            prog_inputs.push(ProgramInput {
                // A located variable answers at its address (`fbd serve`).
                address: v.address.clone(),
                name: v.name.clone(),
                ty: TypeName(ty),
                // As this tool exported it (a push button stays one), else a BOOL is a switch.
                kind: match &v.hmi {
                    Some((k, _)) if k.needs().is_none_or(|t| t == ty) => *k,
                    _ if ty == Type::Bool => fbd_model::model::InputKind::Switch,
                    _ => Default::default(),
                },
                default: v.init.map(Const),
                options: match &v.hmi {
                    Some((fbd_model::model::InputKind::Selector, o)) if ty == Type::LInt => o.clone(),
                    _ => Vec::new(),
                },
                description: v.doc.clone(),
            });
        } else {
            macro_inputs.push(PortIn {
                name: v.name.clone(),
                ty: TypeName(ty),
                default: v.init.map(Const),
                description: v.doc.clone(),
            });
        }
    }
    (prog_inputs, macro_inputs)
}
