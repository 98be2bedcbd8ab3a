//! Ladder networks and body variables (format version 5) lowered to blocks, before expansion:
//! the front end of LD.
//!
//! A body with `variables` or a `ladder` runs as Beremiz's generator writes it and matiec runs
//! it (`fbd_model::model::ladder`): its coils and stores are statements in list order, each
//! pulling first (depth first, source by source) the blocks it reads that have not been called;
//! then every block not called yet, in list order (`sequence.rs`). Each statement computes its
//! power flow afresh (series an AND, a joining of branches an OR, an edge an R_TRIG/F_TRIG of
//! its own, a set/reset coil a latch on the variable), and every read of a variable sees the
//! last write before it, else what the previous scan left (`lower.rs`). The result is a body
//! of blocks whose data flow computes those values: the rest of the compiler knows no LD.
//!
//! Files: this one (the entry and the checks, every problem at its place), `sequence.rs`
//! (where each statement and block runs), `lower.rs` (the blocks).

mod lower;
mod sequence;

use std::collections::HashMap;

use fbd_model::diag::Diagnostic;
use fbd_model::locate::Seg;
use fbd_model::model::ladder::RAIL;
use fbd_model::model::{Connector, LdElement, LdKind, LdModifier, LeanBlock, PortOut, Variable, Wire};
use fbd_model::{Type, library};

use crate::Project;

/// Lowers every body of the project that has variables or a ladder network; every problem of
/// every body is returned, each at its place, and nothing is changed then.
pub fn lower(project: &mut Project) -> Result<(), Vec<Diagnostic>> {
    let mut found: Vec<(usize, Vec<Seg>, String)> = Vec::new();
    for (f, file) in project.files.iter_mut().enumerate() {
        let doc = &mut file.doc;
        if f == 0 && doc.st.is_empty() && has_ladder(&doc.variables, &doc.ladder) {
            let mut body = Body {
                blocks: &mut doc.blocks,
                variables: &doc.variables,
                ladder: &doc.ladder,
                connectors: &mut doc.connectors,
                inputs: doc.inputs.iter().map(|p| p.name.clone()).collect(),
                outputs: &mut doc.outputs,
            };
            match body.check() {
                Ok(()) => lower::lower(&mut body),
                Err(errors) => found.extend(errors.into_iter().map(|(p, m)| (f, p, m))),
            }
        }
        for (m, d) in doc.macros.iter_mut().enumerate() {
            // An ST body's variables are the ST front end's (`st`).
            if !d.st.is_empty() || !has_ladder(&d.variables, &d.ladder) {
                continue;
            }
            let mut body = Body {
                blocks: &mut d.blocks,
                variables: &d.variables,
                ladder: &d.ladder,
                connectors: &mut d.connectors,
                inputs: d.inputs.iter().map(|p| p.name.clone()).collect(),
                outputs: &mut d.outputs,
            };
            match body.check() {
                Ok(()) => lower::lower(&mut body),
                Err(errors) => found.extend(
                    errors.into_iter().map(|(p, msg)| (f, [vec![Seg::from("macros"), Seg::from(m)], p].concat(), msg)),
                ),
            }
        }
    }
    if found.is_empty() {
        return Ok(());
    }
    // An element's problem names the element (its block path, where an import places it).
    let element = |f: usize, p: &[Seg]| match p {
        [Seg::Key(l), Seg::Index(k), ..] if l == "ladder" => project.files[f].doc.ladder.get(*k).map(|e| e.id.clone()),
        _ => None,
    };
    Err(found
        .into_iter()
        .map(|(f, p, m)| {
            let d = project.diag(f, &p, m);
            match element(f, &p) {
                Some(id) => d.block(id),
                None => d,
            }
        })
        .collect())
}

fn has_ladder(variables: &[Variable], ladder: &[LdElement]) -> bool {
    !variables.is_empty() || !ladder.is_empty()
}

/// One body being lowered: the parts of a document or a macro the lowering reads and changes.
pub(super) struct Body<'a> {
    pub(super) blocks: &'a mut Vec<LeanBlock>,
    pub(super) variables: &'a [Variable],
    pub(super) ladder: &'a [LdElement],
    pub(super) connectors: &'a mut Vec<Connector>,
    /// The names the body reads as inputs (the program's inputs, a macro's input ports).
    pub(super) inputs: Vec<String>,
    pub(super) outputs: &'a mut [PortOut],
}

/// What a name of the body is, as a source or a read.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Name {
    /// The left power rail.
    Rail,
    /// A ladder element, by index.
    Element(usize),
    /// A block's output (`block.pin`): the block's index and the pin (`ENO` for its EN).
    Output(usize, String),
    /// A variable, by index.
    Var(usize),
    /// An input of the body.
    Input,
}

/// The names of a body: what each element, block, variable and input is called.
pub(super) struct Names {
    elements: HashMap<String, usize>,
    blocks: HashMap<String, usize>,
    variables: HashMap<String, usize>,
    inputs: Vec<String>,
}

impl Names {
    pub(super) fn new(body: &Body) -> Names {
        Names {
            elements: body.ladder.iter().enumerate().map(|(k, e)| (e.id.clone(), k)).collect(),
            blocks: body.blocks.iter().enumerate().map(|(k, b)| (b.id.to_string(), k)).collect(),
            variables: body.variables.iter().enumerate().map(|(k, v)| (v.name.clone(), k)).collect(),
            inputs: body.inputs.clone(),
        }
    }

    /// What `name` is, if anything of the body.
    pub(super) fn resolve(&self, name: &str) -> Option<Name> {
        if name == RAIL {
            return Some(Name::Rail);
        }
        if let Some((b, pin)) = name.split_once('.') {
            let &k = self.blocks.get(b)?;
            let pin = if pin.eq_ignore_ascii_case("eno") { "ENO".to_string() } else { pin.to_string() };
            return Some(Name::Output(k, pin));
        }
        if let Some(&k) = self.elements.get(name) {
            return Some(Name::Element(k));
        }
        if let Some(&k) = self.variables.get(name) {
            return Some(Name::Var(k));
        }
        self.inputs.iter().any(|i| i == name).then_some(Name::Input)
    }
}

type Found = Vec<(Vec<Seg>, String)>;

/// The type of output `pin` of `b`, when the library says it.
pub(super) fn output_type(b: &LeanBlock, pin: &str) -> Option<Type> {
    let def = library::lookup(&b.ty)?;
    let p = def.outputs.iter().find(|p| p.name == pin)?;
    match p.ty {
        library::PinTy::Fixed(t) => Some(t),
        library::PinTy::T => b.data_type().map(|t| t.0),
    }
}

impl Body<'_> {
    /// Every problem of the body's variables and network, each at its place.
    fn check(&self) -> Result<(), Found> {
        let mut found = Found::new();
        let names = Names::new(self);
        let blocks: HashMap<&str, usize> = self.blocks.iter().enumerate().map(|(k, b)| (&*b.id, k)).collect();
        let good_id = |s: &str| !s.is_empty() && !s.contains(['/', '.']) && s != RAIL;
        let mut seen: HashMap<&str, &str> = HashMap::new();
        for (k, v) in self.variables.iter().enumerate() {
            let at = vec![Seg::from("variables"), Seg::from(k), Seg::from("name")];
            if !good_id(&v.name) {
                found.push((at, format!("`{}` is no variable name (not empty, no `/` or `.`, not `rail`)", v.name)));
            } else if let Some(other) = seen.insert(&v.name, "a variable") {
                found.push((at, format!("`{}` is {other} already", v.name)));
            } else if blocks.contains_key(v.name.as_str()) {
                found.push((at, format!("`{}` names a block of the body already", v.name)));
            } else if self.inputs.contains(&v.name) != v.input {
                let m = if v.input {
                    format!("`{}` takes the input of its name (`input`), which the body does not have", v.name)
                } else {
                    format!(
                        "`{}` names an input of the body already (a variable that takes it says `\"input\": true`)",
                        v.name
                    )
                };
                found.push((at, m));
            }
            if let Some(t) = &v.data_type {
                let at = vec![Seg::from("variables"), Seg::from(k), Seg::from("type")];
                found.push((
                    at,
                    format!("`{}` is of `{t}`: variables of user data types (enumerations, arrays) are compiled in Structured Text bodies so far, not in ladder networks", v.name),
                ));
            }
            if let Some(init) = &v.init
                && v.ty.0.admit(init.0).is_err()
            {
                found.push((
                    vec![Seg::from("variables"), Seg::from(k), Seg::from("init")],
                    format!("`{}` is {}: its init {} is no {}", v.name, v.ty.0.name(), init.0, v.ty.0.name()),
                ));
            }
        }
        for (k, e) in self.ladder.iter().enumerate() {
            let at = |rest: &[&str]| {
                [vec![Seg::from("ladder"), Seg::from(k)], rest.iter().map(|s| Seg::from(*s)).collect()].concat()
            };
            if !good_id(&e.id) {
                found
                    .push((at(&["id"]), format!("`{}` is no element id (not empty, no `/` or `.`, not `rail`)", e.id)));
            } else if let Some(other) = seen.insert(&e.id, "an element") {
                found.push((at(&["id"]), format!("`{}` is {other} already", e.id)));
            } else if blocks.contains_key(e.id.as_str()) || self.inputs.contains(&e.id) {
                found.push((at(&["id"]), format!("`{}` names a block or an input of the body already", e.id)));
            }
            self.check_element(&names, k, e, &mut |rest, m| found.push((at(rest), m)));
        }
        self.check_loops(&names, &mut found);
        if found.is_empty() { Ok(()) } else { Err(found) }
    }

    fn check_element(&self, names: &Names, k: usize, e: &LdElement, err: &mut dyn FnMut(&[&str], String)) {
        let what = match e.kind {
            LdKind::Contact => format!("contact `{}`", e.id),
            LdKind::Coil => format!("coil `{}`", e.id),
            LdKind::Store => format!("store `{}`", e.id),
        };
        match (e.kind, names.resolve(&e.var)) {
            (LdKind::Contact, Some(Name::Var(v))) if self.variables[v].ty.0 != Type::Bool => err(
                &["var"],
                format!("{what} reads `{}` ({}): a contact reads a BOOL", e.var, self.variables[v].ty.0.name()),
            ),
            (LdKind::Contact, Some(Name::Output(b, pin))) => match output_type(&self.blocks[b], &pin) {
                Some(t) if t != Type::Bool => {
                    err(&["var"], format!("{what} reads `{}` ({}): a contact reads a BOOL", e.var, t.name()))
                }
                _ if pin == "ENO" => {}
                None if library::lookup(&self.blocks[b].ty).is_some() => err(
                    &["var"],
                    format!("{what} reads `{}`: block `{}` has no output `{pin}`", e.var, self.blocks[b].id),
                ),
                _ => {}
            },
            (LdKind::Contact, Some(Name::Var(_) | Name::Input)) => {}
            (LdKind::Contact, _) => err(
                &["var"],
                format!("{what} reads `{}`, which is no variable, input or `block.pin` of the body", e.var),
            ),
            (_, Some(Name::Var(v))) => {
                let ty = self.variables[v].ty.0;
                let bool_only = e.kind == LdKind::Coil || e.modifier == LdModifier::Negated || e.from.len() > 1;
                if bool_only && ty != Type::Bool {
                    err(&["var"], format!("{what} writes `{}` ({}): it writes a BOOL (power)", e.var, ty.name()));
                }
            }
            (_, Some(Name::Input)) => {
                err(&["var"], format!("{what} writes `{}`, an input: the body writes only its variables", e.var))
            }
            (_, _) => err(
                &["var"],
                format!("{what} writes `{}`, which is no variable of the body (declare it in `variables`)", e.var),
            ),
        }
        if e.kind == LdKind::Store && !matches!(e.modifier, LdModifier::Plain | LdModifier::Negated) {
            err(&["modifier"], format!("{what} is a store: plain or negated, not `{}`", e.modifier.name()));
        }
        if e.kind == LdKind::Contact && matches!(e.modifier, LdModifier::Set | LdModifier::Reset) {
            err(
                &["modifier"],
                format!("{what}: a contact is plain, negated, rising or falling, not `{}`", e.modifier.name()),
            );
        }
        if e.kind == LdKind::Contact && e.from.is_empty() && self.is_read(&e.id) {
            err(&["from"], format!("{what} is connected to nothing on its left, and something reads its power"));
        }
        for (j, w) in e.from.iter().enumerate() {
            let mut bad = |m: String| err(&["from", &j.to_string()], m);
            let power = e.kind != LdKind::Store || e.from.len() > 1;
            let s = match w {
                Wire::Ref(s) => s,
                Wire::Const(c)
                    if power
                        && c.value() != fbd_model::Value::Bool(true)
                        && c.value() != fbd_model::Value::Bool(false) =>
                {
                    bad(format!("{what} is powered from the constant {}: power is a BOOL", c.value()));
                    continue;
                }
                Wire::Connector(n) if !self.connectors.iter().any(|c| &c.name == n) => {
                    bad(format!("{what} reads connector `{n}`, which the body does not have"));
                    continue;
                }
                _ => continue,
            };
            match names.resolve(s) {
                None => bad(format!(
                    "{what} is powered from `{s}`, which is not `rail`, an element, a `block.pin`, a variable or an input of the body"
                )),
                Some(Name::Element(o)) if self.ladder[o].kind == LdKind::Store => {
                    bad(format!("{what} is powered from store `{s}`, which passes no power"))
                }
                Some(Name::Element(o)) if o == k => bad(format!("{what} is powered from itself")),
                Some(Name::Output(b, pin)) if power => match output_type(&self.blocks[b], &pin) {
                    Some(t) if t != Type::Bool => {
                        bad(format!("{what} is powered from `{s}` ({}): power is a BOOL", t.name()))
                    }
                    _ => {}
                },
                Some(Name::Var(v)) if power && self.variables[v].ty.0 != Type::Bool => {
                    bad(format!("{what} is powered from `{s}` ({}): power is a BOOL", self.variables[v].ty.0.name()))
                }
                _ => {}
            }
        }
    }

    /// Whether something reads the power of element `id` (an element, a block, a port, a
    /// connector): a contact connected to nothing that nothing reads is no part of a rung
    /// (Beremiz's generator never reaches it).
    fn is_read(&self, id: &str) -> bool {
        let names = |w: &Wire| matches!(w, Wire::Ref(r) if r == id);
        self.ladder.iter().any(|e| e.from.iter().any(names))
            || self.blocks.iter().any(|b| b.inputs.iter().any(|(_, w)| names(w)))
            || self.outputs.iter().any(|o| names(&o.from))
            || self.connectors.iter().any(|c| names(&c.from))
    }

    /// A circle of elements powering each other has no first element: named, with its members.
    fn check_loops(&self, names: &Names, found: &mut Found) {
        // 0 unvisited, 1 on the path, 2 done; iterative.
        let n = self.ladder.len();
        let mut state = vec![0u8; n];
        for start in 0..n {
            if state[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            state[start] = 1;
            while let Some(&mut (k, ref mut next)) = stack.last_mut() {
                let from = &self.ladder[k].from;
                if *next < from.len() {
                    let s = &from[*next];
                    *next += 1;
                    let Wire::Ref(s) = s else { continue };
                    if let Some(Name::Element(o)) = names.resolve(s) {
                        if o == k {
                            continue; // reported by the element's own check
                        }
                        match state[o] {
                            0 => {
                                state[o] = 1;
                                stack.push((o, 0));
                            }
                            1 => {
                                let at = stack.iter().position(|&(x, _)| x == o).unwrap_or(0);
                                let members: Vec<&str> =
                                    stack[at..].iter().map(|&(x, _)| self.ladder[x].id.as_str()).collect();
                                found.push((
                                    vec![Seg::from("ladder"), Seg::from(o), Seg::from("from")],
                                    format!(
                                        "elements {} power each other in a circle: a rung runs from the left rail",
                                        members.join(" → ")
                                    ),
                                ));
                            }
                            _ => {}
                        }
                    }
                } else {
                    state[k] = 2;
                    stack.pop();
                }
            }
        }
    }
}

/// A block as the lowering makes it: id, type, inputs, and a data type when it needs one.
pub(super) fn gate(id: String, ty: &str, inputs: Vec<(&str, Wire)>, data_type: Option<Type>) -> LeanBlock {
    LeanBlock::from(fbd_model::model::Block {
        id,
        ty: ty.into(),
        inputs: fbd_model::model::Pins(inputs.into_iter().map(|(p, w)| (p.to_string(), w)).collect()),
        negated: Default::default(),
        params: Default::default(),
        data_type: data_type.map(fbd_model::model::TypeName),
        pos: None,
        order: None,
        comment: None,
    })
}
