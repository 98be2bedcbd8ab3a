//! A POU whose body is Structured Text: its text kept as the body's `st` lines (the compiler's
//! ST front end runs it, `fbd_compiler::st`), its interface as the body's variables, ports and
//! instances (a FUNCTION's variables `temp`, its result the variable of its own name). The text is parsed here already, so that a syntax error names the line and
//! column of the XML file the user gave.

use std::collections::HashSet;

use roxmltree::Node;

use fbd_model::library;
use fbd_model::model::{Block, Const, MacroDef, ProgramInput, TypeName, Variable, Wire};

use super::ctx::Ctx;
use super::vars::Var;
use super::{Role, pou_macro, pou_outputs, project};

/// The key under which the place of a body's ST text is kept in [`super::Imported::places`]
/// (with the POU's key: the program's is empty).
pub const ST_TEXT: &str = "#st";

/// What an ST POU's import needs of its interface.
pub(super) struct StParts<'a, 'x, 'i> {
    pub(super) pou: Node<'x, 'i>,
    pub(super) name: String,
    pub(super) st: Node<'x, 'i>,
    pub(super) is_program: bool,
    pub(super) role: Role,
    pub(super) ins: &'a [Var],
    pub(super) outs: &'a [Var],
    pub(super) locals: &'a [Var],
    pub(super) shared: &'a [String],
    pub(super) pou_names: &'a HashSet<String>,
}

/// The macro an ST POU imports as, or `None` with its errors reported.
pub(super) fn st_pou(cx: &mut Ctx, p: StParts) -> Option<(MacroDef, Vec<ProgramInput>, project::InstancePorts)> {
    let StParts { pou, name, st, is_program, role, ins, outs, locals, shared, pou_names } = p;
    // A FUNCTION's variables start afresh at each call; its result is written by its name.
    let function = pou.attribute("pouType") == Some("function");
    // The text is the paragraph's (`<xhtml:p>`), not the layout around it; a file that writes
    // it straight into `<ST>` has it there.
    let holder = st.children().find(|c| c.is_element()).unwrap_or(st);
    let text: String = holder.descendants().filter(|n| n.is_text()).map(|n| n.text().unwrap_or("")).collect();
    let errors_before = cx.errors.len();
    // Where the text starts, for an error the compiler finds in it (`crate::relocate`).
    let key = if is_program { String::new() } else { name.clone() };
    let start = text_start(cx, holder);
    cx.places.push((key, ST_TEXT.to_string(), start));
    if let Err(errors) = fbd_st::parse(&text) {
        for e in errors {
            cx.err_at(
                start + byte_offset(&text, e.pos),
                format!("POU `{name}`: ST {}:{}: {}", e.pos.line, e.pos.col, e.msg),
            );
        }
    }
    // The function block instances it declares: its blocks, their inputs given by its calls.
    let mut blocks = Vec::new();
    let mut variables = Vec::new();
    let written = assigned_names(&text);
    for v in ins.iter().chain(outs).chain(locals) {
        let is_input = ins.iter().any(|i| i.name == v.name);
        match (v.ty, &v.derived) {
            (Some(ty), _) => {
                if is_input && !written.contains(&v.name.to_ascii_uppercase()) {
                    continue;
                }
                let result = function && v.name == super::RESULT;
                variables.push(Variable {
                    name: if result { name.clone() } else { v.name.clone() },
                    ty: TypeName(ty),
                    init: v.init.map(Const),
                    data_type: None,
                    init_name: None,
                    init_elements: Vec::new(),
                    input: is_input,
                    temp: function && !is_input,
                    description: None,
                });
            }
            (None, None) if v.array.is_some() => {
                array_variable(cx, pou, &name, v, is_input, outs, &mut variables, function);
            }
            (None, Some(d)) if super::enums::find(&cx.enums, d).is_some_and(|t| t.array().is_some()) => {
                let mut w = v.clone();
                w.array = Some(d.clone());
                array_variable(cx, pou, &name, &w, is_input, outs, &mut variables, function);
            }
            (None, Some(d)) if super::enums::find(&cx.enums, d).is_some() => {
                if is_input && !written.contains(&v.name.to_ascii_uppercase()) {
                    continue;
                }
                let t = super::enums::find(&cx.enums, d).map(|t| t.name.clone());
                variables.push(Variable {
                    name: v.name.clone(),
                    ty: TypeName(fbd_model::model::ENUM_REPRESENTATION),
                    init: None,
                    data_type: t,
                    init_name: v.init_name.clone(),
                    init_elements: Vec::new(),
                    input: is_input,
                    temp: function && !is_input,
                    description: None,
                });
            }
            (None, Some(d)) if !is_input && fb_type(d, pou_names).is_some() => {
                let ty = fb_type(d, pou_names).unwrap_or_default();
                blocks.push(Block::instance(v.name.clone(), ty));
            }
            (None, d) => cx.err(
                pou,
                format!(
                    "POU `{name}`: variable `{}` is of type `{}`, which the ST front end does not compile yet (user types come with issue 48's types)",
                    v.name,
                    d.as_deref().unwrap_or("?")
                ),
            ),
        }
    }
    if cx.errors.len() > errors_before {
        return None;
    }
    let result_var = |v: &str| if function && v == super::RESULT { name.clone() } else { v.to_string() };
    let mut outputs = pou_outputs(cx, (pou, &name), outs, |v| Wire::Ref(result_var(v)), is_program);
    let mut ports = project::InstancePorts::default();
    if role == Role::Instance {
        let written: Vec<(String, Wire)> = shared
            .iter()
            .filter(|g| written.contains(&g.to_ascii_uppercase()))
            .map(|g| (g.clone(), Wire::Ref(g.clone())))
            .collect();
        ports = project::instance_ports((ins, outs), shared, written, &mut outputs);
    }
    let (mut m, prog_inputs, ports) =
        pou_macro(cx, (pou, st, name, ins, is_program), outputs, (blocks, variables, Vec::new(), Vec::new()), ports);
    m.st = text.lines().map(str::to_string).collect();
    Some((m, prog_inputs, ports))
}

/// A variable of an array type (written out, or a named one in `array`): a local of the body,
/// its initial elements kept; an input or an output of a POU is refused (a port holds one value).
#[allow(clippy::too_many_arguments)]
fn array_variable(
    cx: &mut Ctx,
    pou: Node,
    name: &str,
    v: &Var,
    is_input: bool,
    outs: &[Var],
    variables: &mut Vec<Variable>,
    function: bool,
) {
    if is_input || outs.iter().any(|o| o.name == v.name) {
        let what = if is_input { "input" } else { "output" };
        cx.err(pou, format!("POU `{name}`: {what} `{}` is an array; a POU's inputs and outputs are single values so far (declare it a local)", v.name));
        return;
    }
    let mut var = Variable::new(v.name.clone(), fbd_model::Type::DInt);
    var.data_type = v.array.clone();
    var.init_elements = v.init_elements.iter().map(|x| Const(*x)).collect();
    var.temp = function;
    variables.push(var);
}

/// The block type of a declared function block type: a library one (by its IEC name) or a POU.
fn fb_type(derived: &str, pou_names: &HashSet<String>) -> Option<String> {
    if pou_names.contains(derived) {
        return Some(derived.to_string());
    }
    let up = derived.to_ascii_uppercase();
    library::lookup(&up).filter(|d| d.stateful).map(|d| d.name.to_string())
}

/// The names assigned somewhere in the text (upper case): `x := ..` and `=> x`.
fn assigned_names(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let Ok(body) = fbd_st::parse(text) else { return out };
    fn walk(list: &[fbd_st::Stmt], out: &mut HashSet<String>) {
        use fbd_st::ast::{Arg, Stmt};
        for s in list {
            match s {
                Stmt::Assign { target, .. } => {
                    out.insert(target.parts[0].to_ascii_uppercase());
                }
                Stmt::Call(c) => {
                    for a in &c.args {
                        if let Arg::Out { target, .. } = a {
                            out.insert(target.parts[0].to_ascii_uppercase());
                        }
                    }
                }
                Stmt::If { arms, otherwise, .. } => {
                    arms.iter().for_each(|(_, b)| walk(b, out));
                    walk(otherwise, out);
                }
                Stmt::Case { arms, otherwise, .. } => {
                    arms.iter().for_each(|a| walk(&a.body, out));
                    walk(otherwise, out);
                }
                Stmt::For(f) => {
                    out.insert(f.var.parts[0].to_ascii_uppercase());
                    walk(&f.body, out);
                }
                Stmt::While { body, .. } | Stmt::Repeat { body, .. } => walk(body, out),
                Stmt::Exit(_) | Stmt::Return(_) => {}
            }
        }
    }
    walk(&body, &mut out);
    out
}

/// The byte offset in the file where the ST text held by `holder` starts (inside a CDATA
/// section, after its `<![CDATA[`).
fn text_start(cx: &Ctx, holder: Node) -> usize {
    let Some(t) = holder.descendants().find(|n| n.is_text()) else { return holder.range().start };
    let at = t.range().start;
    if cx.file.get(at..).is_some_and(|s| s.starts_with("<![CDATA[")) { at + 9 } else { at }
}

/// The byte offset of line `pos.line`, column `pos.col` (characters) in `text`.
fn byte_offset(text: &str, pos: fbd_st::Pos) -> usize {
    let mut off = 0;
    for (k, line) in text.split('\n').enumerate() {
        if k + 1 == pos.line as usize {
            return off + line.char_indices().nth(pos.col.saturating_sub(1) as usize).map_or(line.len(), |(b, _)| b);
        }
        off += line.len() + 1;
    }
    text.len()
}
