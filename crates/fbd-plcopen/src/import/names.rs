//! Names: the library block for an IEC type name, the export's stand-ins, pin names.

use std::collections::{HashMap, HashSet};

use fbd_model::{Type, library};

use roxmltree::Node;

use super::ctx::{child, children};
use crate::literal;

/// A function block this crate's export wrote for a library block IEC has no equivalent of
/// (`FBD_MEMORY_OF_LINT`, or `FBD_MEMORY_INT` and `MEMORY__INT` as earlier exports named it): the block and its type.
pub(crate) fn helper(name: &str) -> Option<(String, Type)> {
    crate::stand_in::block_of(name)
}

/// The library block for a standard IEC type name (conversions between integer types are MOVE).
pub(super) fn map_type(ty: &str) -> Option<String> {
    if let Some((b, _)) = helper(ty) {
        return Some(b);
    }
    let u = ty.to_ascii_uppercase();
    if library::lookup(&u).is_some() {
        return Some(u);
    }
    // IEC 61131-3's time functions of its first edition (matiec has them): ours by their
    // generic names.
    match u.as_str() {
        "ADD_TIME" => return Some("ADD".into()),
        "SUB_TIME" => return Some("SUB".into()),
        "MUL_TIME" => return Some("MULTIME".into()),
        "DIV_TIME" => return Some("DIVTIME".into()),
        _ => {}
    }
    // IEC 61131-3 ed. 3's typed counters (CTU_DINT, CTUD_LINT, …): ours, of that type.
    if counter_type(&u).is_some() {
        return u.split_once('_').map(|(c, _)| c.to_string());
    }
    // A conversion: ours by its types (a type to itself is a MOVE).
    if let Some((a, b)) = u.split_once("_TO_") {
        let ta = literal::elementary(a)?;
        let tb = literal::elementary(b)?;
        if ta == tb {
            return Some("MOVE".into());
        }
        return library::lookup(&format!("{ta}_TO_{tb}")).map(|d| d.name.to_string());
    }
    None
}

/// Our input pin for a formal parameter: library pins are the IEC names in lower case; a POU's
/// pins keep their declared case.
pub(super) fn in_pin(ty: &str, formal: &str) -> String {
    if library::lookup(ty).is_some() { formal.to_ascii_lowercase() } else { formal.to_string() }
}

/// Our output pin for a formal parameter (a function's result is `OUT`, sometimes written as
/// the function's name or left empty).
pub(super) fn out_pin(ty: &str, formal: &str, pou_names: &HashSet<String>) -> String {
    // A POU of the file keeps its pin names (a user's `Random` is not the library's RANDOM).
    if pou_names.contains(ty) && helper(ty).is_none() {
        // A function's result, which some tools name after the function or leave unnamed.
        if formal.is_empty() || formal.eq_ignore_ascii_case(ty) {
            return super::RESULT.to_string();
        }
        return formal.to_string();
    }
    let our = map_type(ty);
    match our.as_deref().and_then(library::lookup) {
        Some(def) => {
            let f = formal.to_ascii_lowercase();
            if f == "eno" {
                return f;
            }
            if f.is_empty()
                || f == ty.to_ascii_lowercase()
                || !def.outputs.iter().any(|p| p.name == f) && def.outputs.len() == 1
            {
                def.outputs.first().map_or(f, |p| p.name.to_string())
            } else {
                f
            }
        }
        None => formal.to_string(),
    }
}

/// The program's name: the project's (`contentHeader`) where the program POU is that name made
/// an IEC identifier, as this tool's export writes it (`2048 (original)` came back as
/// `p2048_original`), else the POU's.
pub(super) fn program_name(root: Node, program: Node) -> Option<String> {
    let pou = program.attribute("name")?;
    let project = child(root, "contentHeader").and_then(|h| h.attribute("name"));
    let key = |s: &str| s.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
    let stem = pou.strip_suffix("_program").unwrap_or(pou);
    match project {
        Some(p) if !p.is_empty() && (key(p) == key(stem) || format!("p{}", key(p)) == key(stem)) => Some(p.to_string()),
        _ => Some(pou.to_string()),
    }
}

/// The type a standard counter counts in: CTU, CTD, CTUD in INT (as IEC 61131-3 defines them),
/// CTU_DINT and the other typed forms in theirs; `None` for any other block.
pub(super) fn counter_type(ty: &str) -> Option<Type> {
    let u = ty.to_ascii_uppercase();
    match u.split_once('_') {
        None if matches!(u.as_str(), "CTU" | "CTD" | "CTUD") => Some(Type::Int),
        Some(("CTU" | "CTD" | "CTUD", t)) => literal::elementary(t).filter(|ty| library::Generic::Int.admits(*ty)),
        _ => None,
    }
}

/// Each block's id by its `localId`: its instance name (or `<type>_<localId>` for a function),
/// made a valid id, unique in the body; the id this tool's export kept in `addData` where it
/// renamed one.
pub(super) fn block_ids<'a>(elems: &[Node<'a, '_>]) -> HashMap<&'a str, String> {
    let mut ids: HashMap<&str, String> = HashMap::new();
    let mut taken: HashSet<String> = HashSet::new();
    for e in elems.iter().filter(|e| e.tag_name().name() == "block") {
        let ty = e.attribute("typeName").unwrap_or("");
        let id = e
            .attribute("instanceName")
            .map(str::to_string)
            .unwrap_or_else(|| format!("{}_{}", ty.to_ascii_lowercase(), e.attribute("localId").unwrap_or("0")));
        // This tool's export renames an instance whose name another one takes (IEC ignores
        // case); the id it had comes back from `addData`.
        let ours = child(*e, "addData")
            .into_iter()
            .flat_map(|a| children(a, "data"))
            .find(|d| d.attribute("name") == Some(crate::export::ID_DATA))
            .and_then(|d| child(d, "id")?.attribute("value").map(str::to_string))
            // Our id as this tool's export kept it (`a-b` is a valid id here, no IEC name).
            .filter(|i| !i.is_empty() && i.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
        let id: String = match ours {
            Some(i) => i,
            None => id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect(),
        };
        let id = if taken.contains(&id) { format!("{id}_{}", e.attribute("localId").unwrap_or("")) } else { id };
        taken.insert(id.clone());
        if let Some(l) = e.attribute("localId") {
            ids.insert(l, id);
        }
    }
    ids
}
