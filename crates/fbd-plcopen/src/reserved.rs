//! Ports named as IEC reserves: every block has an EN and an ENO of its own, so a port `en`
//! (the blinker macro's enable) cannot be declared as a variable there (matiec refused it, and
//! refused reading it). The export renames such a port `FBD_<name>` everywhere it is named, and
//! the import renames it back.

use fbd_engine::model::{Block, Document, Wire};

const RESERVED: &[&str] = &["EN", "ENO"];
const PREFIX: &str = "FBD_";

/// Renames, in `docs` (a project's files), every port IEC reserves to `FBD_<name>`; returns
/// whether anything was renamed.
pub(crate) fn hide(docs: &mut [&mut Document]) -> bool {
    rename_all(docs, |name| RESERVED.contains(&name.to_ascii_uppercase().as_str()).then(|| format!("{PREFIX}{name}")))
}

/// Renames back what [`hide`] renamed, in an imported document.
pub(crate) fn restore(doc: &mut Document) {
    rename_all(&mut [doc], |name| {
        name.strip_prefix(PREFIX)
            .filter(|rest| RESERVED.contains(&rest.to_ascii_uppercase().as_str()))
            .map(str::to_string)
    });
}

/// Applies `new_name` to every port of the program and of every macro, and to every place
/// that names the renamed ones.
fn rename_all(docs: &mut [&mut Document], new_name: impl Fn(&str) -> Option<String>) -> bool {
    let mut any = false;
    // The program's ports (in the first document, the program's file).
    if let Some(root) = docs.first_mut() {
        let renames: Vec<(String, String)> = root
            .inputs
            .iter()
            .map(|p| p.name.clone())
            .chain(root.outputs.iter().map(|p| p.name.clone()))
            .filter_map(|n| new_name(&n).map(|m| (n, m)))
            .collect();
        for (old, new) in renames {
            any = true;
            for p in root.inputs.iter_mut().filter(|p| p.name == old) {
                p.name = new.clone();
            }
            for p in root.outputs.iter_mut().filter(|p| p.name == old) {
                p.name = new.clone();
            }
            rename_reads(&mut root.blocks, &mut root.outputs, &old, &new);
        }
    }
    // Each macro's ports: inside its body, and at every instance in every body.
    let macros: Vec<(String, Vec<(String, String)>)> = docs
        .iter()
        .flat_map(|d| d.macros.iter())
        .map(|m| {
            let ports = m.inputs.iter().map(|p| p.name.clone()).chain(m.outputs.iter().map(|p| p.name.clone()));
            (m.name.clone(), ports.filter_map(|n| new_name(&n).map(|x| (n, x))).collect::<Vec<_>>())
        })
        .filter(|(_, r)| !r.is_empty())
        .collect();
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
                    rename_reads(&mut m.blocks, &mut m.outputs, old, new);
                }
                rename_pins(&mut d.blocks, &mut d.outputs, mac, old, new);
                for m in d.macros.iter_mut() {
                    rename_pins(&mut m.blocks, &mut m.outputs, mac, old, new);
                }
            }
        }
    }
    any
}

/// A body's reads of its port `old` (a bare name in a wire) become reads of `new`.
fn rename_reads(blocks: &mut [Block], outputs: &mut [fbd_engine::model::PortOut], old: &str, new: &str) {
    let follow = |w: &mut Wire| {
        if let Wire::Ref(r) = w
            && r == old
        {
            *r = new.to_string();
        }
    };
    blocks.iter_mut().flat_map(|b| b.inputs.0.iter_mut()).for_each(|(_, w)| follow(w));
    outputs.iter_mut().for_each(|p| follow(&mut p.from));
}

/// In a body, the pin `old` of every instance of macro `mac` becomes `new`: where it is
/// wired, and where its output is read (`inst.old`).
fn rename_pins(blocks: &mut [Block], outputs: &mut [fbd_engine::model::PortOut], mac: &str, old: &str, new: &str) {
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
            Wire::Const(_) => return,
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
}
