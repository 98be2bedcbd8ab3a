//! Structured Text bodies (format version 6) lowered to blocks, before expansion: the front
//! end of ST.
//!
//! A body's `st` lines are parsed (`fbd_st`) and its statements turned into the blocks that
//! compute what matiec computes when it runs them (`lower.rs`): each assignment a new value
//! of its variable (the blocks of its expression), an IF or a CASE the values of its branches
//! merged by SEL on its conditions (a block in a branch runs under the branch's condition as
//! its EN, so a function block not reached keeps its state and a division not reached does not
//! fault), a function block's call its instance's inputs wired (once per scan). A variable read
//! before its first write sees what the previous scan left. The rest of the compiler knows no
//! ST.
//!
//! A RETURN sets a flag the statements after it run under (`IF NOT returned THEN ..`). A loop
//! (FOR, WHILE, REPEAT; EXIT as RETURN's flag) is one iteration's blocks between loop
//! variables, which the executor runs again while its test holds (`Loops`, counted by the
//! watchdog). An array is a variable per element, indexed by MUX and SEL blocks; an
//! enumeration's values are its positions. A library instance called again in the scan is a
//! block of its own sharing the instance's state and outputs (`Calls`); a project function
//! block called twice, and a call in a loop, are refused at their place. Every problem of
//! every body is reported at once, each at its line and column.
//!
//! Files: this one (the entry and the body's names), `lower.rs` (statements to blocks: values
//! as they change, branches merged, calls, what the scan leaves), `lower/expr.rs`
//! (expressions to blocks, computed as matiec's C computes them), `lower/loops.rs` (loops),
//! `lower/arrays.rs`, `lower/enums.rs`, `lower/calls.rs` (an instance called again).

mod lower;

use std::collections::HashMap;

use fbd_model::diag::Diagnostic;
use fbd_model::locate::Seg;
use fbd_model::model::{Connector, DataType, LeanBlock, PortOut, Variable};
use fbd_model::{Type, library};
use fbd_st::Pos;

use crate::Project;

/// One ST body's parts, borrowed from its document or macro.
pub(super) struct Body<'a> {
    pub(super) blocks: &'a mut Vec<LeanBlock>,
    pub(super) variables: &'a mut Vec<Variable>,
    pub(super) connectors: &'a mut Vec<Connector>,
    /// The body's inputs: name and type.
    pub(super) inputs: Vec<(String, Type)>,
    pub(super) outputs: &'a mut Vec<PortOut>,
    /// The macros of the project: name → (input pins, output pins) with their types.
    pub(super) macros: &'a HashMap<String, Pins>,
    /// The project's user data types (enumerations' values are names in ST).
    pub(super) types: &'a [DataType],
}

/// A function block type's pins (a macro's ports): inputs and outputs, with types.
#[derive(Clone, Debug, Default)]
pub(super) struct Pins {
    pub(super) inputs: Vec<(String, Type)>,
    pub(super) outputs: Vec<(String, Type)>,
}

/// A problem at a place of the ST text.
pub(super) type Found = Vec<(Pos, String)>;

pub(crate) use lower::{BodyLoop, SharedCall};

/// The loops of every ST body: (file, macro index or `None` for the program) → its loops, by
/// the indices of their blocks in that body.
pub(crate) type Loops = HashMap<(usize, Option<usize>), Vec<BodyLoop>>;

/// The calls of an instance after its first in every ST body, likewise by body.
pub(crate) type Calls = HashMap<(usize, Option<usize>), Vec<SharedCall>>;

/// Lowers every body of the project that has ST; every problem of every body is returned,
/// each at its place. The loops made, for the stages that run them again and again, and the
/// instances' calls after their first, whose blocks share the instance's state.
pub(crate) fn lower(project: &mut Project) -> Result<(Loops, Calls), Vec<Diagnostic>> {
    let mut loops = Loops::new();
    let mut calls = Calls::new();
    if !project.files.iter().any(|f| !f.doc.st.is_empty() || f.doc.macros.iter().any(|m| !m.st.is_empty())) {
        return Ok((loops, calls));
    }
    let macros: HashMap<String, Pins> = project
        .files
        .iter()
        .flat_map(|f| f.doc.macros.iter())
        .map(|m| {
            let pins = Pins {
                inputs: m.inputs.iter().map(|p| (p.name.clone(), p.ty.0)).collect(),
                outputs: m.outputs.iter().map(|p| (p.name.clone(), p.ty.0)).collect(),
            };
            (m.name.clone(), pins)
        })
        .collect();
    let types: Vec<DataType> = project.files.iter().flat_map(|f| f.doc.types.iter().cloned()).collect();
    let mut found: Vec<Diagnostic> = Vec::new();
    for f in 0..project.files.len() {
        let mut errors: Vec<(Vec<Seg>, Pos, String)> = Vec::new();
        {
            let doc = &mut project.files[f].doc;
            if f == 0 && !doc.st.is_empty() {
                let st = std::mem::take(&mut doc.st);
                let mut body = Body {
                    blocks: &mut doc.blocks,
                    variables: &mut doc.variables,
                    connectors: &mut doc.connectors,
                    inputs: doc.inputs.iter().map(|p| (p.name.clone(), p.ty.0)).collect(),
                    outputs: &mut doc.outputs,
                    macros: &macros,
                    types: &types,
                };
                let (found, made, again) = body_errors(&mut body, &st, !doc.ladder.is_empty());
                errors.extend(found.into_iter().map(|(p, m)| (vec![], p, m)));
                if !made.is_empty() {
                    loops.insert((f, None), made);
                }
                if !again.is_empty() {
                    calls.insert((f, None), again);
                }
                doc.st = st;
            }
            for (m, d) in doc.macros.iter_mut().enumerate() {
                if d.st.is_empty() {
                    continue;
                }
                let st = std::mem::take(&mut d.st);
                let mut body = Body {
                    blocks: &mut d.blocks,
                    variables: &mut d.variables,
                    connectors: &mut d.connectors,
                    inputs: d.inputs.iter().map(|p| (p.name.clone(), p.ty.0)).collect(),
                    outputs: &mut d.outputs,
                    macros: &macros,
                    types: &types,
                };
                let at = vec![Seg::from("macros"), Seg::from(m)];
                let (found, made, again) = body_errors(&mut body, &st, !d.ladder.is_empty());
                errors.extend(found.into_iter().map(|(p, msg)| (at.clone(), p, msg)));
                if !made.is_empty() {
                    loops.insert((f, Some(m)), made);
                }
                if !again.is_empty() {
                    calls.insert((f, Some(m)), again);
                }
                d.st = st;
            }
        }
        for (at, pos, msg) in errors {
            found.push(diag(project, f, &at, pos, msg));
        }
    }
    if found.is_empty() { Ok((loops, calls)) } else { Err(found) }
}

/// Parses and lowers one body; its problems, its loops and its instances' calls again.
fn body_errors(body: &mut Body, st: &[String], has_ladder: bool) -> (Found, Vec<BodyLoop>, Vec<SharedCall>) {
    if has_ladder {
        let msg = "a body is written in one language: this one has a ladder network and ST";
        return (vec![(Pos { line: 1, col: 1 }, msg.into())], Vec::new(), Vec::new());
    }
    let text = st.join("\n");
    match fbd_st::parse(&text) {
        Ok(statements) => lower::lower(body, &statements),
        Err(errors) => (errors.into_iter().map(|e| (e.pos, e.msg)).collect(), Vec::new(), Vec::new()),
    }
}

/// A diagnostic at ST position `pos` of the body at `at` in file `f`: the line of the file
/// that holds the ST line, its column moved by the string's opening quote; the message says
/// the line and column inside the body too (an imported body's XML has them).
fn diag(project: &Project, f: usize, at: &[Seg], pos: Pos, msg: String) -> Diagnostic {
    let mut path = at.to_vec();
    path.push(Seg::from("st"));
    path.push(Seg::from(pos.line.saturating_sub(1) as usize));
    // A macro's body is named (`scale`: ST 3:5: ..), so a tool can find its text.
    let body = match at {
        [Seg::Key(k), Seg::Index(m)] if k == "macros" => {
            project.files[f].doc.macros.get(*m).map(|d| format!("`{}`: ", d.name))
        }
        _ => None,
    };
    let mut d = project.diag(f, &path, format!("{}ST {}:{}: {msg}", body.unwrap_or_default(), pos.line, pos.col));
    if let (Some(_), Some(c)) = (d.line, d.col) {
        d.col = Some(c + pos.col as usize);
    }
    d
}

/// What a name in an ST body is.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Name {
    /// Variable `k` of the body.
    Var(usize),
    /// An input of the body (not a variable).
    Input(Type),
    /// A function block instance: block `k`.
    Instance(usize),
    /// An array variable: `k` of the lowering's arrays.
    Array(usize),
}

/// The output pins of a function block type (a library block or a macro) with their types
/// (`None`: generic).
pub(super) fn fb_outputs(ty: &str, macros: &HashMap<String, Pins>) -> Vec<(String, Option<Type>)> {
    if let Some(m) = macros.get(ty) {
        return m.outputs.iter().map(|(n, t)| (n.clone(), Some(*t))).collect();
    }
    match library::lookup(ty) {
        Some(d) => d.outputs.iter().map(|p| (p.name.to_string(), pin_type(p.ty))).collect(),
        None => Vec::new(),
    }
}

/// The input pins of a function block or function type, in order, with their types.
pub(super) fn fb_inputs(ty: &str, macros: &HashMap<String, Pins>) -> Vec<(String, Option<Type>)> {
    if let Some(m) = macros.get(ty) {
        return m.inputs.iter().map(|(n, t)| (n.clone(), Some(*t))).collect();
    }
    match library::lookup(ty) {
        Some(d) => d.inputs.iter().map(|p| (p.name.to_string(), pin_type(p.ty))).collect(),
        None => Vec::new(),
    }
}

/// A library pin's type when it is fixed.
pub(super) fn pin_type(t: library::PinTy) -> Option<Type> {
    match t {
        library::PinTy::Fixed(t) => Some(t),
        _ => None,
    }
}

/// A later stage's problem with a block the lowering made (`L3C10_add`, named by its place in
/// the text) said at that place: `ST 3:10: ..`. Other diagnostics pass unchanged.
pub(crate) fn at_text_place(mut d: Diagnostic) -> Diagnostic {
    let Some(block) = d.block.as_deref() else { return d };
    if let Some(p) = fbd_plan::st_place(block)
        && !d.message.starts_with("ST ")
    {
        let body = if p.instance.is_empty() { String::new() } else { format!("in `{}`: ", p.instance) };
        d.message = format!("{body}ST {}:{}: {}", p.line, p.col, d.message);
    }
    d
}
