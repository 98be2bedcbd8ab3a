//! Port names another IEC tool cannot take: a reserved word or a standard name (`EN`, `IF`,
//! `TRUE`, `RS`, `ADD`, `INT`: matiec refused each as a variable), a name that is no IEC
//! identifier (`a-b` reads as a subtraction there, `2x`, `café`), or one that differs from
//! another of the same POU only in case (IEC ignores case: `Speed` and `SPEED` are one
//! variable), or an enumeration's value (the body would read the port instead). The export renames such a port `FBD_<name made an identifier>` everywhere it is
//! named and lists each rename in the project's `addData`; the import renames them back.

use std::collections::{HashMap, HashSet};

use fbd_model::model::{Block, Document, Wire};

/// IEC 61131-3 keywords, type names and standard function and function block names.
const RESERVED: &[&str] = &[
    "EN",
    "ENO",
    "TRUE",
    "FALSE",
    "IF",
    "THEN",
    "ELSIF",
    "ELSE",
    "END_IF",
    "CASE",
    "OF",
    "END_CASE",
    "FOR",
    "TO",
    "BY",
    "DO",
    "END_FOR",
    "WHILE",
    "END_WHILE",
    "REPEAT",
    "UNTIL",
    "END_REPEAT",
    "EXIT",
    "RETURN",
    "CONTINUE",
    "VAR",
    "VAR_INPUT",
    "VAR_OUTPUT",
    "VAR_IN_OUT",
    "VAR_GLOBAL",
    "VAR_EXTERNAL",
    "VAR_TEMP",
    "VAR_ACCESS",
    "VAR_CONFIG",
    "END_VAR",
    "CONSTANT",
    "RETAIN",
    "NON_RETAIN",
    "AT",
    "PROGRAM",
    "END_PROGRAM",
    "FUNCTION",
    "END_FUNCTION",
    "FUNCTION_BLOCK",
    "END_FUNCTION_BLOCK",
    "TYPE",
    "END_TYPE",
    "STRUCT",
    "END_STRUCT",
    "ARRAY",
    "CONFIGURATION",
    "END_CONFIGURATION",
    "RESOURCE",
    "END_RESOURCE",
    "TASK",
    "WITH",
    "ON",
    "READ_ONLY",
    "READ_WRITE",
    "ACTION",
    "END_ACTION",
    "STEP",
    "END_STEP",
    "INITIAL_STEP",
    "TRANSITION",
    "END_TRANSITION",
    "FROM",
    "R_EDGE",
    "F_EDGE",
    "NOT",
    "AND",
    "OR",
    "XOR",
    "MOD",
    "BOOL",
    "SINT",
    "INT",
    "DINT",
    "LINT",
    "USINT",
    "UINT",
    "UDINT",
    "ULINT",
    "BYTE",
    "WORD",
    "DWORD",
    "LWORD",
    "REAL",
    "LREAL",
    "TIME",
    "LTIME",
    "DATE",
    "TIME_OF_DAY",
    "TOD",
    "DATE_AND_TIME",
    "DT",
    "STRING",
    "WSTRING",
    "ANY",
    "SR",
    "RS",
    "R_TRIG",
    "F_TRIG",
    "CTU",
    "CTD",
    "CTUD",
    "TON",
    "TOF",
    "TP",
    "ADD",
    "SUB",
    "MUL",
    "DIV",
    "EXPT",
    "MOVE",
    "ABS",
    "SQRT",
    "LN",
    "LOG",
    "EXP",
    "SIN",
    "COS",
    "TAN",
    "ASIN",
    "ACOS",
    "ATAN",
    "SEL",
    "MAX",
    "MIN",
    "LIMIT",
    "MUX",
    "SHL",
    "SHR",
    "ROL",
    "ROR",
    "GT",
    "GE",
    "EQ",
    "LE",
    "LT",
    "NE",
    "LEN",
    "LEFT",
    "RIGHT",
    "MID",
    "CONCAT",
    "INSERT",
    "DELETE",
    "REPLACE",
    "FIND",
    "TRUNC",
];
const PREFIX: &str = "FBD_";

/// The `addData` under which the export lists its renames.
pub(crate) const NAMES_DATA: &str = "https://fbd2048.example/plcopen/names";

/// One rename: the POU it is in (`None`: the program), the name written, the name it stands for.
pub(crate) type Rename = (Option<String>, String, String);

/// `name` as another tool can take it: itself if it is an IEC identifier and no reserved or
/// standard name, else `FBD_` and its letters and digits (`sr` → `FBD_sr`, `a-b` → `FBD_a_b`).
pub(crate) fn iec_name(name: &str) -> String {
    if iec_identifier(name) && !reserved(name) && !name.to_ascii_uppercase().starts_with(PREFIX) {
        return name.to_string();
    }
    let base: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let base = base.split('_').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("_");
    format!("{PREFIX}{}", if base.is_empty() { "block" } else { &base })
}

fn reserved(name: &str) -> bool {
    let u = name.to_ascii_uppercase();
    RESERVED.contains(&u.as_str()) || u.split_once("_TO_").is_some_and(|(a, b)| !a.is_empty() && !b.is_empty())
}

/// Whether `name` is an IEC identifier: a letter or `_` first, letters, digits and single
/// underscores after, no `_` at the end.
pub(crate) fn iec_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.contains("__")
        && !name.ends_with('_')
}

/// Renames, in `docs` (a project's files), every port another tool cannot take; returns the
/// renames.
pub(crate) fn hide(docs: &mut [&mut Document]) -> Vec<Rename> {
    // Per POU: the names already taken (ignoring case), and which of them were seen.
    let mut taken: HashMap<Option<String>, HashSet<String>> = HashMap::new();
    let mut seen: HashMap<Option<String>, HashSet<String>> = HashMap::new();
    if let Some(root) = docs.first() {
        taken.entry(None).or_default().extend(
            root.inputs
                .iter()
                .map(|p| &p.name)
                .chain(root.outputs.iter().map(|p| &p.name))
                .map(|n| n.to_ascii_lowercase()),
        );
    }
    for m in docs.iter().flat_map(|d| d.macros.iter()) {
        taken.entry(Some(m.name.clone())).or_default().extend(
            m.inputs.iter().map(|p| &p.name).chain(m.outputs.iter().map(|p| &p.name)).map(|n| n.to_ascii_lowercase()),
        );
    }
    // An enumeration's value names: a port of that name would be a variable the body's text
    // reads instead of the value (matiec looks a name up among the variables first).
    let values: HashSet<String> = docs
        .iter()
        .flat_map(|d| d.types.iter())
        .flat_map(|t| t.values().iter().map(|v| v.to_ascii_lowercase()))
        .collect();
    let mut renames = Vec::new();
    rename_all(docs, |scope, name| {
        let first = seen.entry(scope.map(str::to_string)).or_default().insert(name.to_ascii_lowercase());
        if first
            && iec_identifier(name)
            && !reserved(name)
            && !name.to_ascii_uppercase().starts_with(PREFIX)
            && !values.contains(&name.to_ascii_lowercase())
        {
            return None;
        }
        let taken = taken.entry(scope.map(str::to_string)).or_default();
        let base: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        let base = base.split('_').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("_");
        let base = if base.is_empty() { format!("{PREFIX}port") } else { format!("{PREFIX}{base}") };
        let mut new = base.clone();
        let mut k = 2;
        while taken.contains(&new.to_ascii_lowercase()) {
            new = format!("{base}_{k}");
            k += 1;
        }
        taken.insert(new.to_ascii_lowercase());
        renames.push((scope.map(str::to_string), new.clone(), name.to_string()));
        Some(new)
    });
    renames
}

/// Renames back what [`hide`] renamed, in an imported document: by the export's list, or (a
/// file an earlier export wrote, without one) `FBD_en` and `FBD_eno`.
pub(crate) fn restore(doc: &mut Document, renames: &[Rename]) {
    let program = doc.name.clone();
    rename_all(&mut [doc], |scope, name| {
        if let Some(r) = renames.iter().find(|(s, new, _)| {
            new == name
                && (s.as_deref() == scope || (s.is_none() && scope.is_none()) || (scope.is_none() && *s == program))
        }) {
            return Some(r.2.clone());
        }
        name.strip_prefix(PREFIX)
            .filter(|rest| matches!(rest.to_ascii_uppercase().as_str(), "EN" | "ENO"))
            .map(str::to_string)
    });
}

/// Applies `new_name` to every port of the program and of every macro, and to every place
/// that names the renamed ones.
fn rename_all(docs: &mut [&mut Document], mut new_name: impl FnMut(Option<&str>, &str) -> Option<String>) -> bool {
    let mut any = false;
    // The program's ports (in the first document, the program's file).
    if let Some(root) = docs.first_mut() {
        let renames: Vec<(String, String)> = root
            .inputs
            .iter()
            .map(|p| p.name.clone())
            .chain(root.outputs.iter().map(|p| p.name.clone()))
            .filter_map(|n| new_name(None, &n).map(|m| (n, m)))
            .collect();
        for (old, new) in renames {
            any = true;
            for p in root.inputs.iter_mut().filter(|p| p.name == old) {
                p.name = new.clone();
            }
            for p in root.outputs.iter_mut().filter(|p| p.name == old) {
                p.name = new.clone();
            }
            rename_reads((&mut root.blocks, &mut root.outputs, &mut root.connectors), &old, &new);
        }
    }
    // Each macro's ports: inside its body, and at every instance in every body.
    let mut macros: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for m in docs.iter().flat_map(|d| d.macros.iter()) {
        let ports: Vec<String> =
            m.inputs.iter().map(|p| p.name.clone()).chain(m.outputs.iter().map(|p| p.name.clone())).collect();
        let renames: Vec<(String, String)> =
            ports.into_iter().filter_map(|n| new_name(Some(&m.name), &n).map(|x| (n, x))).collect();
        if !renames.is_empty() {
            macros.push((m.name.clone(), renames));
        }
    }
    for (mac, renames) in &macros {
        for (old, new) in renames {
            any = true;
            for d in docs.iter_mut() {
                for m in d.macros.iter_mut().filter(|m| &m.name == mac) {
                    for p in m.inputs.iter_mut().filter(|p| &p.name == old) {
                        p.name = new.clone();
                    }
                    for p in m.outputs.iter_mut().filter(|p| &p.name == old) {
                        p.name = new.clone();
                    }
                    rename_reads((&mut m.blocks, &mut m.outputs, &mut m.connectors), old, new);
                }
                rename_pins((&mut d.blocks, &mut d.outputs, &mut d.connectors), mac, old, new);
                for m in d.macros.iter_mut() {
                    rename_pins((&mut m.blocks, &mut m.outputs, &mut m.connectors), mac, old, new);
                }
            }
        }
    }
    any
}

/// A body's reads of its port `old` (a bare name in a wire) become reads of `new`.
fn rename_reads((blocks, outputs, connectors): BodyWires<'_>, old: &str, new: &str) {
    let follow = |w: &mut Wire| {
        if let Wire::Ref(r) = w
            && r == old
        {
            *r = new.to_string();
        }
    };
    blocks.iter_mut().flat_map(|b| b.inputs.0.iter_mut()).for_each(|(_, w)| follow(w));
    outputs.iter_mut().for_each(|p| follow(&mut p.from));
    connectors.iter_mut().for_each(|c| follow(&mut c.from));
}

/// Where a body's wires are: its blocks' pins, its output ports and its connectors.
type BodyWires<'a> = (&'a mut [Block], &'a mut [fbd_model::model::PortOut], &'a mut [fbd_model::model::Connector]);

/// In a body, the pin `old` of every instance of macro `mac` becomes `new`: where it is
/// wired, and where its output is read (`inst.old`).
fn rename_pins((blocks, outputs, connectors): BodyWires<'_>, mac: &str, old: &str, new: &str) {
    let instances: Vec<String> = blocks.iter().filter(|b| b.ty == mac).map(|b| b.id.clone()).collect();
    if instances.is_empty() {
        return;
    }
    for b in blocks.iter_mut().filter(|b| b.ty == mac) {
        for (pin, _) in b.inputs.0.iter_mut().filter(|(p, _)| p == old) {
            *pin = new.to_string();
        }
    }
    let follow = |w: &mut Wire| {
        let r = match w {
            Wire::Ref(r) => r,
            Wire::Feedback { from, .. } => from,
            Wire::Const(_) | Wire::Connector(_) => return,
        };
        if let Some((blk, pin)) = r.split_once('.')
            && pin == old
            && instances.iter().any(|i| i == blk)
        {
            *r = format!("{blk}.{new}");
        }
    };
    blocks.iter_mut().flat_map(|b| b.inputs.0.iter_mut()).for_each(|(_, w)| follow(w));
    outputs.iter_mut().for_each(|p| follow(&mut p.from));
    connectors.iter_mut().for_each(|c| follow(&mut c.from));
}
