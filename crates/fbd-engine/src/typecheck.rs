//! Type inference and checking over the expanded netlist: every generic block's type variable
//! is fixed from its wiring (hard sources first, then constants and `params.init`), every pin is
//! checked against its driver, and finally every constant is converted to the type of the pin
//! it feeds, so that emission puts it in the slot bank the instruction reads.

use std::collections::VecDeque;

use crate::diag::Diagnostic;
use crate::expand::{At, Net, Src};
use crate::library::{Generic, PinTy};
use crate::load::Project;
use crate::types::Type;

use crate::compile::diag_at;

/// The resolved type variable of each block (`None` for non-generic blocks).
pub(crate) type Tvars = Vec<Option<Type>>;

pub(crate) fn out_type(net: &Net, t: &Tvars, block: usize, pin: usize) -> Option<Type> {
    let b = &net.blocks[block];
    match b.def.outputs.get(pin) {
        Some(p) => match p.ty {
            PinTy::Fixed(ty) => Some(ty),
            PinTy::T => t[block],
        },
        None => Some(Type::Bool), // variadic outputs (SELECTOR q1..qn)
    }
}

/// The type of a source: `(type, hard)`; constants are soft (an INT constant may become REAL).
fn src_type(project: &Project, net: &Net, t: &Tvars, s: &Src) -> Option<(Type, bool)> {
    match s {
        Src::Const(v) => Some((v.ty(), false)),
        Src::Input(i) => Some((project.root().inputs[*i].ty.0, true)),
        Src::Out { block, pin } => out_type(net, t, *block, *pin).map(|ty| (ty, true)),
        Src::Feedback { src, init } => match src_type(project, net, t, src) {
            Some(x) => Some(x),
            None => init.map(|v| (v.ty(), false)),
        },
    }
}

/// The block output a source reads, through feedback wires.
fn out_of(s: &Src) -> Option<(usize, usize)> {
    match s {
        Src::Out { block, pin } => Some((*block, *pin)),
        Src::Feedback { src, .. } => out_of(src),
        _ => None,
    }
}

fn src_block(s: &Src) -> Option<usize> {
    match s {
        Src::Out { block, .. } => Some(*block),
        Src::Feedback { src, .. } => src_block(src),
        _ => None,
    }
}

/// The type soft sources (constants, `params.init`) settle on together: REAL if any is REAL (an
/// INT literal is accepted where REAL is expected), else INT if any is INT, else BOOL.
fn widest(types: impl Iterator<Item = Type>) -> Option<Type> {
    types.max_by_key(|t| match t {
        Type::Bool => 0,
        Type::Int => 1,
        Type::Real => 2,
    })
}

pub(crate) fn infer_types(project: &Project, net: &Net) -> Result<Tvars, Vec<Diagnostic>> {
    let n = net.blocks.len();
    let mut t: Tvars = net.blocks.iter().map(|b| b.data_type).collect();
    let mut consumers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, b) in net.blocks.iter().enumerate() {
        for p in &b.inputs {
            if let Some(s) = src_block(&p.src) {
                consumers[s].push(i);
            }
        }
    }
    let generic: Vec<usize> = (0..n).filter(|&i| net.blocks[i].def.generic != Generic::No).collect();
    let mut queue: VecDeque<usize> = generic.iter().copied().collect();
    loop {
        while let Some(i) = queue.pop_front() {
            if t[i].is_some() {
                continue;
            }
            let hard = net.blocks[i].inputs.iter().filter(|p| p.ty == PinTy::T).find_map(|p| {
                match src_type(project, net, &t, &p.src) {
                    Some((ty, true)) => Some(ty),
                    _ => None,
                }
            });
            if let Some(ty) = hard {
                t[i] = Some(ty);
                queue.extend(consumers[i].iter().copied());
            }
        }
        // A declared port type (a macro port, a program output) bound to a generic block's
        // output fixes that block's type as firmly as wiring does: it settles loops such as
        // ABS(in: a pass-through port fed back from the ABS) whose only constant is an INT init.
        let mut declared = false;
        for a in &net.asserts {
            if let Some((b, pin)) = out_of(&a.src)
                && t[b].is_none()
                && net.blocks[b].def.outputs.get(pin).is_some_and(|p| p.ty == PinTy::T)
                && net.blocks[b].def.generic.admits(a.ty)
            {
                t[b] = Some(a.ty);
                queue.extend(consumers[b].iter().copied());
                declared = true;
            }
        }
        if declared {
            continue;
        }
        // Nothing more is fixed by wiring: settle blocks from constants and params.init, then
        // propagate again.
        let mut settled = false;
        for &i in &generic {
            if t[i].is_some() {
                continue;
            }
            let b = &net.blocks[i];
            let waits = b.inputs.iter().any(|p| {
                p.ty == PinTy::T && src_block(&p.src).is_some() && src_type(project, net, &t, &p.src).is_none()
            });
            if waits {
                continue;
            }
            let types = b.inputs.iter().filter(|p| p.ty == PinTy::T).filter_map(|p| src_type(project, net, &t, &p.src));
            if let Some(ty) = widest(b.params.init.map(|c| c.0.ty()).into_iter().chain(types.map(|(ty, _)| ty))) {
                t[i] = Some(ty);
                queue.extend(consumers[i].iter().copied());
                settled = true;
            }
        }
        if !settled {
            // Break a cycle of generic blocks with nothing but each other as inputs, if one has
            // any hint at all; otherwise report.
            let first = generic.iter().copied().find(|&i| t[i].is_none());
            match first {
                Some(i) => {
                    let b = &net.blocks[i];
                    // Every constant counts, not only the first: LIMIT(mn: -1, in: <loop>,
                    // mx: 0.5) is REAL (an INT literal is accepted where REAL is expected).
                    let consts = b.inputs.iter().filter(|p| p.ty == PinTy::T).filter_map(|p| match &p.src {
                        Src::Const(v) => Some(v.ty()),
                        _ => None,
                    });
                    let hint = widest(b.params.init.map(|c| c.0.ty()).into_iter().chain(consts));
                    match hint {
                        Some(ty) => {
                            t[i] = Some(ty);
                            queue.extend(consumers[i].iter().copied());
                        }
                        None => break,
                    }
                }
                None => break,
            }
        }
    }
    let mut errors = Vec::new();
    for &i in &generic {
        let b = &net.blocks[i];
        match t[i] {
            None => errors.push(
                diag_at(
                    project,
                    &b.at.at(),
                    format!("cannot infer the data type of {} block `{}`", b.def.name, b.path),
                )
                .block(&b.path)
                .help("set \"data_type\": \"INT\" (or BOOL/REAL) on the block"),
            ),
            Some(ty) if !b.def.generic.admits(ty) => errors.push(
                diag_at(project, &b.at.at(), format!("{} works on INT or REAL, but `{}` is {ty}", b.def.name, b.path))
                    .block(&b.path),
            ),
            _ => {}
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // Ports first: a wrong binding is best reported where it is written, at the instance.
    for a in &net.asserts {
        if let Err(d) = check_src(project, net, &t, &a.src, a.ty, || a.at.clone(), || a.what.clone()) {
            errors.push(d);
        }
    }
    // Every pin against its driver.
    for (bi, b) in net.blocks.iter().enumerate() {
        for p in &b.inputs {
            let want = match p.ty {
                PinTy::Fixed(ty) => ty,
                PinTy::T => t[bi].unwrap_or(Type::Bool),
            };
            check_src(
                project,
                net,
                &t,
                &p.src,
                want,
                || b.at.join(crate::json_path!["inputs", p.name.as_ref()]),
                || format!("pin `{}` of {} `{}`", p.name, b.def.name, b.path),
            )
            .map_err(|d| d.block(b.path.clone()).pin(p.name.to_string()))
            .unwrap_or_else(|d| errors.push(d));
        }
        if let Some(init) = b.params.init {
            let want = t[bi].unwrap_or(Type::Bool);
            if init.0.coerce(want).is_none() {
                errors.push(
                    diag_at(
                        project,
                        &b.at.at(),
                        format!("params.init {} does not fit {} block `{}` of type {want}", init.0, b.def.name, b.path),
                    )
                    .block(&b.path),
                );
            }
        }
    }
    if errors.is_empty() { Ok(t) } else { Err(errors) }
}

fn src_name(project: &Project, net: &Net, s: &Src) -> String {
    match s {
        Src::Const(v) => format!("constant {v}"),
        Src::Input(i) => format!("input `{}`", project.root().inputs[*i].name),
        Src::Out { block, pin } => format!("`{}.{}`", net.blocks[*block].path, net.blocks[*block].output_name(*pin)),
        Src::Feedback { src, .. } => format!("feedback of {}", src_name(project, net, src)),
    }
}

fn check_src(
    project: &Project,
    net: &Net,
    t: &Tvars,
    src: &Src,
    want: Type,
    at: impl Fn() -> At,
    what: impl Fn() -> String,
) -> Result<(), Diagnostic> {
    if let Src::Feedback { init: Some(v), .. } = src
        && v.coerce(want).is_none()
    {
        return Err(diag_at(project, &at(), format!("feedback init {v} does not fit {} ({want})", what())));
    }
    let Some((got, hard)) = src_type(project, net, t, src) else {
        return Ok(());
    };
    let ok = got == want || (!hard && got == Type::Int && want == Type::Real);
    if ok {
        return Ok(());
    }
    let help = match (got, want) {
        (Type::Int, Type::Real) => "convert with INT_TO_REAL",
        (Type::Real, Type::Int) => "convert with REAL_TO_INT, TRUNC or FLOOR",
        (_, Type::Bool) => "compare with EQ/NE/GT... to get a BOOL",
        (Type::Bool, _) => "select a number with SEL (g = the BOOL)",
        _ => "",
    };
    let mut d = diag_at(
        project,
        &at(),
        format!("type mismatch: {} expects {want}, but {} is {got}", what(), src_name(project, net, src)),
    );
    if !help.is_empty() {
        d = d.help(help);
    }
    Err(d)
}

/// Converts every constant to the type of the pin it feeds: an INT literal on a REAL pin (or on
/// a `T` pin of a block whose `T` is REAL) becomes a REAL constant, so emission allocates it in
/// the REAL slot bank that the block's instruction reads. Runs after checking, so every
/// conversion left is one [`crate::types::Value::coerce`] allows.
pub(crate) fn coerce_constants(net: &mut Net, t: &Tvars) {
    for (bi, b) in net.blocks.iter_mut().enumerate() {
        for p in &mut b.inputs {
            let want = match p.ty {
                PinTy::Fixed(ty) => ty,
                PinTy::T => t[bi].unwrap_or(Type::Bool),
            };
            if let Src::Const(v) = &mut p.src
                && let Some(c) = v.coerce(want)
            {
                *v = c;
            }
        }
    }
}
