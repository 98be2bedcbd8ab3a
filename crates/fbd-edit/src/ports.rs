//! Edit operations on the ports of a body (the program's inputs and outputs, a macro's
//! interface): add, remove, rename, retype, and their details (how the HMI shows a program
//! input, defaults, descriptions). Each is one undoable step, checked before it is made.

use fbd_model::Type;
use fbd_model::load::valid_ident;
use fbd_model::model::{Const, InputKind, PortIn, PortOut, ProgramInput, TypeName, Wire};
use fbd_model::types::Value;

use crate::ops::rename_in_wire;
use crate::workspace::{BodyId, EditError, Workspace, err, wire_ref};

impl Workspace {
    /// Adds an input port to `body` (a program input or a macro input).
    pub fn add_input_port(&mut self, body: &BodyId, name: &str, ty: Type) -> Result<(), EditError> {
        if !valid_ident(name) {
            return err(format!("`{name}` is not a valid port name"));
        }
        self.edit(format!("add input `{name}`"), |w| {
            if w.body_mut(body)?.inputs.iter().any(|n| n == name) {
                return err(format!("{body} already has an input `{name}`"));
            }
            match body {
                BodyId::Program => w.files_root_mut().inputs.push(ProgramInput {
                    address: None,
                    name: name.to_string(),
                    ty: TypeName(ty),
                    kind: Default::default(),
                    default: None,
                    options: Vec::new(),
                    description: None,
                }),
                BodyId::Macro(m) => w.macro_mut(m)?.inputs.push(PortIn {
                    name: name.to_string(),
                    ty: TypeName(ty),
                    default: None,
                    description: None,
                }),
            }
            Ok(())
        })
    }

    /// Adds an output port to `body` fed by `from` (`block.pin`, an input, or a constant).
    pub fn add_output_port(&mut self, body: &BodyId, name: &str, ty: Type, from: Wire) -> Result<(), EditError> {
        if !valid_ident(name) {
            return err(format!("`{name}` is not a valid port name"));
        }
        self.edit(format!("add output `{name}`"), |w| {
            let b = w.body_mut(body)?;
            if b.outputs.iter().any(|p| p.name == name) {
                return err(format!("{body} already has an output `{name}`"));
            }
            b.outputs.push(PortOut {
                address: None,
                name: name.to_string(),
                ty: TypeName(ty),
                from: from.clone(),
                kind: None,
                description: None,
            });
            Ok(())
        })
    }

    /// Removes an input or output port of `body`; wires from a removed input go, and so do
    /// the instance pins of a macro's removed input.
    pub fn remove_port(&mut self, body: &BodyId, name: &str) -> Result<(), EditError> {
        self.edit(format!("remove port `{name}`"), |w| {
            let mut found = false;
            match body {
                BodyId::Program => {
                    let d = w.files_root_mut();
                    let n = d.inputs.len() + d.outputs.len();
                    d.inputs.retain(|p| p.name != name);
                    d.outputs.retain(|p| p.name != name);
                    found |= d.inputs.len() + d.outputs.len() != n;
                }
                BodyId::Macro(m) => {
                    let d = w.macro_mut(m)?;
                    let n = d.inputs.len() + d.outputs.len();
                    d.inputs.retain(|p| p.name != name);
                    d.outputs.retain(|p| p.name != name);
                    found |= d.inputs.len() + d.outputs.len() != n;
                    for blocks in w.all_blocks_mut() {
                        for x in blocks.iter_mut().filter(|x| x.ty == *m) {
                            x.inputs.0.retain(|(p, _)| p != name);
                            x.negated.retain(|p| p != name);
                        }
                    }
                }
            }
            if !found {
                return err(format!("{body} has no port `{name}`"));
            }
            let mut b = w.body_mut(body)?;
            for x in b.blocks.iter_mut() {
                x.inputs.0.retain(|(_, wire)| wire_ref(wire) != Some(name));
            }
            let gone: Vec<String> =
                b.connectors.iter().filter(|c| wire_ref(&c.from) == Some(name)).map(|c| c.name.clone()).collect();
            crate::connectors::remove_connectors(&mut b, &gone);
            Ok(())
        })
    }

    /// Renames a port of `body`; wires inside follow, and so do the pins of every instance of
    /// a macro and the references to its outputs.
    pub fn rename_port(&mut self, body: &BodyId, old: &str, new: &str) -> Result<(), EditError> {
        if !valid_ident(new) {
            return err(format!("`{new}` is not a valid port name"));
        }
        // Its own name again: nothing to do (it said the body "already has a port" of itself).
        if old == new {
            let d = self.port_details(body, old);
            return if d.is_some() { Ok(()) } else { err(format!("{body} has no port `{old}`")) };
        }
        self.edit(format!("rename port `{old}` to `{new}`"), |w| {
            let (is_input, is_output) = match body {
                BodyId::Program => {
                    let d = w.files_root_mut();
                    if d.inputs.iter().any(|p| p.name == new) || d.outputs.iter().any(|p| p.name == new) {
                        return err(format!("{body} already has a port `{new}`"));
                    }
                    let i = d.inputs.iter_mut().find(|p| p.name == old).map(|p| p.name = new.to_string()).is_some();
                    let o = d.outputs.iter_mut().find(|p| p.name == old).map(|p| p.name = new.to_string()).is_some();
                    (i, o)
                }
                BodyId::Macro(m) => {
                    let d = w.macro_mut(m)?;
                    if d.inputs.iter().any(|p| p.name == new) || d.outputs.iter().any(|p| p.name == new) {
                        return err(format!("{body} already has a port `{new}`"));
                    }
                    let i = d.inputs.iter_mut().find(|p| p.name == old).map(|p| p.name = new.to_string()).is_some();
                    let o = d.outputs.iter_mut().find(|p| p.name == old).map(|p| p.name = new.to_string()).is_some();
                    (i, o)
                }
            };
            if !is_input && !is_output {
                return err(format!("{body} has no port `{old}`"));
            }
            if is_input {
                let b = w.body_mut(body)?;
                let follow = |r: &mut String| {
                    if r == old {
                        *r = new.to_string();
                    }
                };
                for x in b.blocks.iter_mut() {
                    for (_, wire) in x.inputs.0.iter_mut() {
                        rename_in_wire(wire, &follow);
                    }
                }
                for p in b.outputs.iter_mut() {
                    rename_in_wire(&mut p.from, &follow);
                }
                for c in b.connectors.iter_mut() {
                    rename_in_wire(&mut c.from, &follow);
                }
            }
            if let BodyId::Macro(m) = body {
                // Every body that instantiates the macro: its pins and the references to
                // its outputs.
                for f in w.files_mut() {
                    let d = &mut f.doc;
                    let bodies = std::iter::once((&mut d.blocks, &mut d.outputs, &mut d.connectors))
                        .chain(d.macros.iter_mut().map(|x| (&mut x.blocks, &mut x.outputs, &mut x.connectors)));
                    for (blocks, outputs, connectors) in bodies {
                        let instances: Vec<String> =
                            blocks.iter().filter(|x| x.ty == *m).map(|x| x.id.clone()).collect();
                        if instances.is_empty() {
                            continue;
                        }
                        let follow = |r: &mut String| {
                            if let Some((src, pin)) = r.split_once('.')
                                && pin == old
                                && instances.iter().any(|i| i == src)
                            {
                                *r = format!("{src}.{new}");
                            }
                        };
                        for x in blocks.iter_mut() {
                            if is_input && x.ty == *m {
                                for (p, _) in x.inputs.0.iter_mut() {
                                    if p == old {
                                        *p = new.to_string();
                                    }
                                }
                            }
                            // A negated pin of an instance keeps its circle under the new name.
                            if x.ty == *m {
                                for p in x.negated.iter_mut().filter(|p| *p == old) {
                                    *p = new.to_string();
                                }
                            }
                            if is_output {
                                for (_, wire) in x.inputs.0.iter_mut() {
                                    rename_in_wire(wire, &follow);
                                }
                            }
                        }
                        if is_output {
                            for p in outputs.iter_mut() {
                                rename_in_wire(&mut p.from, &follow);
                            }
                            for c in connectors.iter_mut() {
                                rename_in_wire(&mut c.from, &follow);
                            }
                        }
                    }
                }
            }
            Ok(())
        })
    }

    /// Changes the type of a port of `body`.
    pub fn retype_port(&mut self, body: &BodyId, name: &str, ty: Type) -> Result<(), EditError> {
        self.edit(format!("type of `{name}` to {}", ty.name()), |w| {
            let found = match body {
                BodyId::Program => {
                    let d = w.files_root_mut();
                    // What no longer fits the new type goes: a button or switch on what is no
                    // BOOL now, a selector's options on what is no INT, a default of the old type.
                    let a = d
                        .inputs
                        .iter_mut()
                        .find(|p| p.name == name)
                        .map(|p| {
                            p.ty = TypeName(ty);
                            if p.kind.needs().is_some_and(|t| t != ty) {
                                p.kind = InputKind::Number;
                                p.options.clear();
                            }
                            // A default the new type has is kept as one of it (1 is TRUE).
                            p.default = p.default.and_then(|c| c.0.coerce(ty)).map(Const);
                        })
                        .is_some();
                    a || d.outputs.iter_mut().find(|p| p.name == name).map(|p| p.ty = TypeName(ty)).is_some()
                }
                BodyId::Macro(m) => {
                    let d = w.macro_mut(m)?;
                    let a = d
                        .inputs
                        .iter_mut()
                        .find(|p| p.name == name)
                        .map(|p| {
                            p.ty = TypeName(ty);
                            // A default the new type has is kept as one of it (1 is TRUE).
                            p.default = p.default.and_then(|c| c.0.coerce(ty)).map(Const);
                        })
                        .is_some();
                    a || d.outputs.iter_mut().find(|p| p.name == name).map(|p| p.ty = TypeName(ty)).is_some()
                }
            };
            if found { Ok(()) } else { err(format!("{body} has no port `{name}`")) }
        })
    }

    /// Sets the details of a port of `body`: its description, and for an input its default
    /// (`None`: none; a macro input without one must be wired at every instance) and for a
    /// program input how an HMI shows it (`kind`, and a selector's position labels). Checked
    /// as the loader checks them: a button or switch is BOOL, a selector INT, options only on
    /// a selector, a default of the port's type.
    pub fn set_port_details(&mut self, body: &BodyId, name: &str, d: PortDetails) -> Result<(), EditError> {
        let description = d.description.map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
        let address = d.address.map(|t| t.trim().to_ascii_uppercase()).filter(|t| !t.is_empty());
        let options: Vec<String> = d.options.iter().map(|o| o.trim().to_string()).filter(|o| !o.is_empty()).collect();
        self.edit(format!("details of `{name}`"), |w| {
            // The port's type, and whether it is an input.
            let found = match body {
                BodyId::Program => {
                    let r = w.files_root_mut();
                    let i = r.inputs.iter().find(|p| p.name == name).map(|p| (p.ty.0, true));
                    i.or_else(|| r.outputs.iter().find(|p| p.name == name).map(|p| (p.ty.0, false)))
                }
                BodyId::Macro(m) => {
                    let r = w.macro_mut(m)?;
                    let i = r.inputs.iter().find(|p| p.name == name).map(|p| (p.ty.0, true));
                    i.or_else(|| r.outputs.iter().find(|p| p.name == name).map(|p| (p.ty.0, false)))
                }
            };
            let Some((ty, is_input)) = found else {
                return err(format!("{body} has no port `{name}`"));
            };
            let program_input = is_input && *body == BodyId::Program;
            if !program_input && (d.kind != InputKind::Number || !options.is_empty()) {
                return err(format!("`{name}` is no program input: only a program input has a kind and options"));
            }
            if let Some(a) = &address {
                if *body != BodyId::Program {
                    return err(format!("`{name}` is a macro's port: only the program's ports have an address"));
                }
                let addr = fbd_model::located::parse_address(a).map_err(EditError)?;
                if !is_input && addr.area == 'I' {
                    return err(format!("`{name}` at {a}: an output is located at %Q or %M"));
                }
                if addr.is_unbound() {
                    return err(format!("`{name}` at {a}: a program's port needs a full address"));
                }
            }
            if !is_input && d.default.is_some() {
                return err(format!("`{name}` is an output: an output has no default (it is what its wire carries)"));
            }
            if let Some(t) = d.kind.needs()
                && t != ty
            {
                return err(format!("`{name}` is {}, but a {} input is {t}", ty.name(), d.kind.name()));
            }
            if !options.is_empty() && d.kind != InputKind::Selector {
                return err(format!("options label a selector's positions; `{name}` is a {}", d.kind.name()));
            }
            let default = match d.default {
                Some(v) => {
                    Some(v.coerce(ty).ok_or_else(|| EditError(format!("the default {v} is not a {}", ty.name())))?)
                }
                None => None,
            };
            let default = default.map(fbd_model::model::Const);
            match body {
                BodyId::Program => {
                    let r = w.files_root_mut();
                    if let Some(p) = r.inputs.iter_mut().find(|p| p.name == name) {
                        p.kind = d.kind;
                        p.default = default;
                        p.options = options.clone();
                        p.description = description.clone();
                        p.address = address.clone();
                    } else if let Some(p) = r.outputs.iter_mut().find(|p| p.name == name) {
                        p.description = description.clone();
                        p.address = address.clone();
                    }
                }
                BodyId::Macro(m) => {
                    let r = w.macro_mut(m)?;
                    if let Some(p) = r.inputs.iter_mut().find(|p| p.name == name) {
                        p.default = default;
                        p.description = description.clone();
                    } else if let Some(p) = r.outputs.iter_mut().find(|p| p.name == name) {
                        p.description = description.clone();
                    }
                }
            }
            Ok(())
        })
    }

    /// The details of a port of `body` as [`Workspace::set_port_details`] takes them.
    pub fn port_details(&self, body: &BodyId, name: &str) -> Option<PortDetails> {
        let details = |kind,
                       default: Option<fbd_model::model::Const>,
                       options: &[String],
                       (description, address): (&Option<String>, &Option<String>)| {
            PortDetails {
                kind,
                default: default.map(|c| c.0),
                options: options.to_vec(),
                description: description.clone(),
                address: address.clone(),
            }
        };
        match body {
            BodyId::Program => {
                let r = self.root();
                if let Some(p) = r.inputs.iter().find(|p| p.name == name) {
                    return Some(details(p.kind, p.default, &p.options, (&p.description, &p.address)));
                }
                r.outputs
                    .iter()
                    .find(|p| p.name == name)
                    .map(|p| details(InputKind::Number, None, &[], (&p.description, &p.address)))
            }
            BodyId::Macro(m) => {
                let r = self.macro_def(m)?;
                if let Some(p) = r.inputs.iter().find(|p| p.name == name) {
                    return Some(details(InputKind::Number, p.default, &[], (&p.description, &None)));
                }
                r.outputs
                    .iter()
                    .find(|p| p.name == name)
                    .map(|p| details(InputKind::Number, None, &[], (&p.description, &None)))
            }
        }
    }
}

/// A port's details: see [`Workspace::set_port_details`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PortDetails {
    /// How an HMI shows a program input (`Number` for any other port).
    pub kind: InputKind,
    /// An input's value before anything is written (a macro input: when it is not wired).
    pub default: Option<Value>,
    /// A selector's position labels, 1..=n.
    pub options: Vec<String>,
    /// What the port is for.
    pub description: Option<String>,
    /// A program port's IEC location (`%IX0.0`), where `fbd serve` puts it.
    pub address: Option<String>,
}
