//! What an import refuses before it converts a body, because converting it would change what
//! the program computes without a word: globals, types the file does not declare, and
//! ambiguous bodies (two elements with one localId, two connectors with one name).

use std::collections::{HashMap, HashSet};

use roxmltree::Node;

use super::names::map_type;
use super::vars::Var;
use super::{Ctx, child, children, structs};

/// The configuration's and the resource's globals (VAR_GLOBAL), by their name in upper case
/// (IEC names ignore case): what a program's VAR_EXTERNAL refers to.
pub(super) fn configuration_globals(cx: &mut Ctx, root: Node) -> HashMap<String, Var> {
    let mut globals: HashMap<String, Var> = HashMap::new();
    let holders =
        root.descendants().filter(|n| n.is_element() && matches!(n.tag_name().name(), "configuration" | "resource"));
    for holder in holders.collect::<Vec<_>>() {
        for v in super::vars::variables(cx, Some(holder), "globalVars") {
            // One name twice (the configuration's and a resource's): which one a program sees
            // would be a guess (the configuration's was taken without a word).
            if let Some(first) = globals.get(&v.name.to_ascii_uppercase()) {
                let (line, col) = cx.offset_pos(first.at);
                cx.err_at(
                    v.at,
                    format!(
                        "global `{}` is declared twice (first at {line}:{col}): name one of them otherwise",
                        v.name
                    ),
                );
                continue;
            }
            globals.insert(v.name.to_ascii_uppercase(), v);
        }
    }
    globals
}

/// The program's VAR_EXTERNALs as the configuration's variables they refer to (their type,
/// initial value and address: a located one is an input or an output of the program like a
/// located local); a program's own VAR_GLOBALs as its variables. With one program run, a
/// global is that program's variable. An external of an elementary type no global declares is
/// a stand-in (an extension's global). Refused: one of a derived type no global declares, one of another
/// type than the global's, and any external or global in a function block (nothing passes it to
/// an instance here).
pub(super) fn globals_of(
    cx: &mut Ctx,
    iface: Option<Node>,
    pou: &str,
    is_program: bool,
    globals: &HashMap<String, Var>,
) -> Vec<Var> {
    let Some(iface) = iface else { return Vec::new() };
    let mut out = Vec::new();
    for (section, what) in [("externalVars", "VAR_EXTERNAL"), ("globalVars", "VAR_GLOBAL")] {
        let vars = super::vars::variables(cx, Some(iface), section);
        let nodes: Vec<Node> = children(iface, section).flat_map(|sec| children(sec, "variable")).collect();
        for (v, node) in vars.into_iter().zip(nodes) {
            if !is_program {
                cx.err(
                    node,
                    format!(
                        "function block `{pou}`: `{}` is {what}; a global inside a function block is not imported (nothing passes it to an instance here): make it an input or an output of `{pou}`",
                        v.name
                    ),
                );
                continue;
            }
            if section == "globalVars" {
                out.push(v);
                continue;
            }
            match globals.get(&v.name.to_ascii_uppercase()) {
                // An extension's global (Beremiz's MQTT status, a python variable): a stand-in,
                // a variable of the program that something outside sets.
                None if v.ty.is_some() => {
                    cx.warnings.push(format!(
                        "program `{pou}`: `{}` is VAR_EXTERNAL and no configuration declares it (an extension's global?): a stand-in, set from outside where the program only reads it",
                        v.name
                    ));
                    out.push(Var { stand_in: true, ..v });
                }
                None => cx.err(
                    node,
                    format!("program `{pou}`: `{}` is VAR_EXTERNAL, but no configuration or resource declares it as VAR_GLOBAL", v.name),
                ),
                Some(g) if v.ty.is_some() && g.ty.is_some() && v.ty != g.ty => cx.err(
                    node,
                    format!(
                        "program `{pou}`: `{}` is VAR_EXTERNAL {} but the global is {}",
                        v.name,
                        v.ty.map_or("?", |t| t.name()),
                        g.ty.map_or("?", |t| t.name())
                    ),
                ),
                // The program's name for it, the global's declaration.
                Some(g) => out.push(Var { name: v.name.clone(), at: v.at, global: true, ..g.clone() }),
            }
        }
    }
    out
}

/// A function block instance inside a FUNCTION (a timer, a counter): a function keeps no state
/// from one call to the next in IEC, an instance here would.
pub(super) fn instances_in_function(cx: &mut Ctx, pou: Node, name: &str, elems: &[Node]) {
    if pou.attribute("pouType") != Some("function") {
        return;
    }
    for b in elems.iter().filter(|e| e.tag_name().name() == "block") {
        if let Some(inst) = b.attribute("instanceName") {
            cx.err(
                *b,
                format!(
                    "function `{name}`: `{inst}` ({}) is a function block instance; a function keeps no state between calls: make `{name}` a function block",
                    b.attribute("typeName").unwrap_or("?")
                ),
            );
        }
    }
}

/// A variable whose derived type is neither a POU of the file, a block this runtime has, nor a
/// structure the file declares (HMI_REAL of an extension's library, say): it was read as 0 and
/// its writes dropped.
pub(super) fn unknown_types(
    cx: &mut Ctx,
    pou: Node,
    vars: &[&Var],
    pou_names: &HashSet<String>,
    types: &structs::StructTypes,
) {
    // Types the file declares that are no structure (enumerations, arrays, aliases): what they
    // are, for the message.
    let declared: HashMap<String, String> = pou
        .document()
        .descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == "dataType")
        .filter_map(|d| {
            let kind = d
                .children()
                .find(|c| c.is_element() && c.tag_name().name() == "baseType")
                .and_then(|b| b.children().find(|c| c.is_element()))
                .map_or("type", |k| match k.tag_name().name() {
                    "enum" => "an enumeration",
                    "array" => "an array",
                    "subrangeSigned" | "subrangeUnsigned" => "a subrange",
                    "struct" => "a structure",
                    _ => "an alias of another type",
                });
            Some((d.attribute("name")?.to_ascii_lowercase(), kind.to_string()))
        })
        .collect();
    let known = |t: &str| {
        map_type(t).is_some()
            || pou_names.iter().any(|p| p.eq_ignore_ascii_case(t))
            || types.keys().any(|k| k.eq_ignore_ascii_case(t))
    };
    // Enumerations are compiled in ST bodies (`fbd_compiler::st`), not yet in FBD and LD.
    let st_body = child(pou, "body").and_then(|b| child(b, "ST")).is_some();
    for v in vars {
        // A user data type of the file: what the variable is, and the kind in the plural.
        let user_type = match (&v.array, v.derived.as_deref().filter(|_| v.ty.is_none())) {
            (Some(a), _) => Some((format!("an array ({a})"), "arrays")),
            (None, Some(t)) => super::enums::find(&cx.enums, t).map(|dt| match dt.is_enum() {
                true => (format!("of `{t}`, an enumeration"), "enumerations"),
                false => (format!("of `{t}`, an array"), "arrays"),
            }),
            (None, None) => None,
        };
        if let Some((what, kinds)) = user_type {
            if !st_body {
                let msg = format!(
                    "variable `{}` is {what}; {kinds} are imported in Structured Text bodies so far (not in FBD or LD)",
                    v.name
                );
                cx.err_at(v.at, msg);
            }
            continue;
        }
        if let Some(t) = v.derived.as_deref()
            && v.ty.is_none()
            && !known(t)
        {
            let msg = match declared.get(&t.to_ascii_lowercase()) {
                Some(kind) => format!(
                    "variable `{}` is of type `{t}`, {kind}; only elementary types, structures and function blocks are imported",
                    v.name
                ),
                None => format!(
                    "variable `{}` is of type `{t}`, which the file does not declare and which is no standard type or block (a library of another tool's extension?); declare the type in the file or use an elementary type",
                    v.name
                ),
            };
            cx.err_at(v.at, msg);
        }
    }
}

/// Two elements with one `localId`, or two connectors with one name: a connection to either
/// would be a guess (the last one won).
pub(super) fn ambiguous(cx: &mut Ctx, pou: &str, elems: &[Node]) {
    let mut ids: HashMap<&str, Node> = HashMap::new();
    let mut connectors: HashMap<String, Node> = HashMap::new();
    for e in elems {
        if let Some(l) = e.attribute("localId") {
            if let Some(first) = ids.get(l) {
                let (line, col) = cx.text_pos(*first);
                cx.err(*e, format!("POU `{pou}`: localId {l} is used twice (first at {line}:{col}); a connection to it would be ambiguous"));
            } else {
                ids.insert(l, *e);
            }
        }
        if e.tag_name().name() == "connector" {
            let n = e.attribute("name").unwrap_or("");
            let key = n.to_ascii_lowercase();
            if let Some(first) = connectors.get(&key) {
                let (line, col) = cx.text_pos(*first);
                cx.err(*e, format!("POU `{pou}`: two connectors named `{n}` (first at {line}:{col}); its continuations would read either"));
            } else {
                connectors.insert(key, *e);
            }
        }
    }
}

/// Whether pin `pin` (our name) is an input of library block `def`.
pub(super) fn library_input(def: &fbd_model::library::BlockDef, pin: &str) -> bool {
    def.inputs.iter().any(|p| p.name == pin)
        || def.var_inputs.is_some_and(|v| {
            pin.strip_prefix(v.prefix).and_then(|k| k.parse::<usize>().ok()).is_some_and(|k| k >= v.first)
        })
}

/// Every located variable of every POU (run or not: matiec builds them all) whose type is of
/// another size than its location (an INT at %IX0.1): matiec refuses the project, "bit size of
/// data type is incompatible with bit size of location".
pub(super) fn located_sizes(cx: &mut Ctx, root: Node) {
    // The located variables of one interface by address: two at one place are refused here,
    // at the second, with the first named.
    let mut seen: HashMap<(roxmltree::NodeId, String), String> = HashMap::new();
    for v in root.descendants().filter(|n| n.tag_name().name() == "variable" && n.attribute("address").is_some()) {
        let (Some(a), Some(name)) = (v.attribute("address"), v.attribute("name")) else { continue };
        let Ok(at) = fbd_model::located::parse_address(a) else { continue };
        let interface = v.ancestors().find(|n| matches!(n.tag_name().name(), "interface" | "globalVars"));
        if let Some(i) = interface
            && !at.path.is_empty()
        {
            match seen.entry((i.id(), at.to_string())) {
                std::collections::hash_map::Entry::Occupied(first) => {
                    let first = first.get().clone();
                    cx.err(
                        v,
                        format!("variable `{name}` at {a}: `{first}` is at that address too; two variables on one location are refused (each is an input or output of its own here)"),
                    );
                    continue;
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(name.to_string());
                }
            }
        }
        let ty = child(v, "type")
            .and_then(|t| t.children().find(|c| c.is_element()))
            .and_then(|t| crate::literal::elementary(t.tag_name().name()));
        if let (Some(t), Some(loc)) = (ty, location_bits(at.size).filter(|_| !at.path.is_empty()))
            && let Some(bits) = type_bits(t)
            && bits != loc
        {
            cx.err(
                v,
                format!(
                    "variable `{name}`: {t} is {bits} bit(s) and {a} holds {loc}: a located variable takes its location's size (%IX a BOOL, %IW an INT, WORD or UINT, %ID a DINT or REAL...), as matiec requires"
                ),
            );
        }
    }
}

/// The bits a location of size letter `size` holds (X a bit, B a byte, W, D, L words).
fn location_bits(size: char) -> Option<u32> {
    Some(match size {
        'X' => 1,
        'B' => 8,
        'W' => 16,
        'D' => 32,
        'L' => 64,
        _ => return None,
    })
}

/// The bits of an elementary type that matiec places at a location; `None` for those it has no
/// size rule for here (TIME, STRING...).
fn type_bits(t: fbd_model::Type) -> Option<u32> {
    use fbd_model::Type;
    match t {
        Type::Bool => Some(1),
        Type::Real => Some(32),
        Type::LReal | Type::LInt | Type::ULInt | Type::LWord => Some(64),
        t => t.width().map(|(b, _)| b),
    }
}
