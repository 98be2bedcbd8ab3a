//! Type inference and checking over the expanded netlist: every generic block's type variable
//! is fixed from its wiring (hard sources first, then constants and `params.init`), every pin is
//! checked against its driver, and finally every constant is converted to the type of the pin
//! it feeds, so that emission puts it in the slot bank the instruction reads.

use rustc_hash::FxHashMap as HashMap;

use crate::Project;
use crate::expand::{At, Net, NetBlock, Src};
use fbd_model::diag::Diagnostic;
use fbd_model::library::{Generic, PinTy};
use fbd_model::types::{Bank, Type, Value};

use super::diag_at;

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
            None => init.as_deref().map(|v| (v.ty(), false)),
        },
    }
}

/// The type of a source that does not depend on any type variable: a program input or a
/// fixed-type output, directly or through feedback wires.
fn fixed_type(project: &Project, net: &Net, s: &Src) -> Option<(Type, bool)> {
    match s {
        Src::Input(i) => Some((project.root().inputs[*i].ty.0, true)),
        Src::Out { block, pin } => match net.blocks[*block].def.outputs.get(*pin) {
            Some(p) => match p.ty {
                PinTy::Fixed(ty) => Some((ty, true)),
                PinTy::T => None,
            },
            None => Some((Type::Bool, true)),
        },
        Src::Feedback { src, .. } => fixed_type(project, net, src),
        Src::Const(_) => None,
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

/// The type soft sources (constants, `params.init`) settle on together: REAL if any is REAL (an
/// INT literal is accepted where REAL is expected), else INT if any is INT, else BOOL.
fn widest(types: impl Iterator<Item = Type>) -> Option<Type> {
    types.max_by_key(|t| t.bank())
}

/// The type of every generic block's type variable (`None` where nothing decides it), and each
/// block's group (blocks whose `T` pins and outputs are wired together share one type).
fn type_variables(project: &Project, net: &Net) -> (Tvars, Vec<usize>) {
    // A `T` pin driven by a `T` output makes the two blocks' type variables one: union them.
    // Each group then takes its first firm type (data_type, a fixed-type source wired to a T
    // pin, a declared port type bound to a T output) or, without one, the widest of its soft
    // hints (constants, params.init, feedback inits): REAL over INT over BOOL, because an INT
    // literal is accepted where REAL is expected. Conflicting firm types are reported by the
    // pin checks below, at the pin that disagrees with the group.
    let n = net.blocks.len();
    let is_t_out = |(b, pin): (usize, usize)| {
        net.blocks[b].def.generic != Generic::No && net.blocks[b].def.outputs.get(pin).is_some_and(|p| p.ty == PinTy::T)
    };
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (i, b) in net.blocks.iter().enumerate() {
        for p in b.inputs.iter().filter(|p| p.ty == PinTy::T) {
            if let Some(o) = out_of(&p.src)
                && is_t_out(o)
            {
                let (a, c) = (find(&mut parent, i), find(&mut parent, o.0));
                if a != c {
                    parent[a.max(c)] = a.min(c);
                }
            }
        }
    }
    let mut firm: Vec<Option<Type>> = vec![None; n];
    let mut soft: Vec<Option<Type>> = vec![None; n];
    let add_soft = |soft: &mut Vec<Option<Type>>, r: usize, ty: Type| {
        soft[r] = widest(soft[r].into_iter().chain([ty]));
    };
    for (i, b) in net.blocks.iter().enumerate().filter(|(_, b)| b.def.generic != Generic::No) {
        let r = find(&mut parent, i);
        if let Some(ty) = b.data_type {
            firm[r] = firm[r].or(Some(ty));
        }
        // Only a BOOL can be negated: a negated T pin says the block is BOOL (where it can be;
        // on ADD the pin check below says why the negation is wrong).
        let t_out_negated = b.def.outputs.iter().enumerate().any(|(k, p)| p.ty == PinTy::T && net.out_negated(i, k));
        if b.def.generic.admits(Type::Bool) && (t_out_negated || b.inputs.iter().any(|p| p.negate && p.ty == PinTy::T))
        {
            firm[r] = firm[r].or(Some(Type::Bool));
        }
    }
    for (i, b) in net.blocks.iter().enumerate().filter(|(_, b)| b.def.generic != Generic::No) {
        let r = find(&mut parent, i);
        if let Some(c) = b.params().init.as_deref() {
            add_soft(&mut soft, r, c.0.ty());
        }
        for p in b.inputs.iter().filter(|p| p.ty == PinTy::T) {
            match (&p.src, out_of(&p.src)) {
                (Src::Const(v), _) => add_soft(&mut soft, r, v.ty()),
                (_, Some(o)) if is_t_out(o) => {
                    if let Src::Feedback { init: Some(v), .. } = &p.src {
                        add_soft(&mut soft, r, v.ty());
                    }
                }
                (s, _) => {
                    if let Some((ty, _)) = fixed_type(project, net, s) {
                        firm[r] = firm[r].or(Some(ty));
                    }
                }
            }
        }
    }
    for a in &net.asserts {
        if let Some(o) = out_of(&a.src)
            && is_t_out(o)
        {
            let r = find(&mut parent, o.0);
            firm[r] = firm[r].or(Some(a.ty));
        }
    }
    // A group of logic blocks (AND, OR, XOR, NOT) is BOOL unless a data_type makes it a bit
    // string or a bit string reaches it: a loop of NOTs has no other type to take, and a LINT
    // wired to a NOT is then reported at its pin, as a BOOL block's would be.
    let mut logic_bool = vec![false; n];
    let mut declared = vec![false; n];
    for i in (0..n).filter(|&i| net.blocks[i].def.generic == Generic::Logic) {
        let r = find(&mut parent, i);
        logic_bool[r] = true;
    }
    for i in (0..n).filter(|&i| net.blocks[i].data_type.is_some()) {
        let r = find(&mut parent, i);
        declared[r] = true;
    }
    let t: Tvars = (0..n)
        .map(|i| {
            if net.blocks[i].def.generic == Generic::No {
                return None;
            }
            let r = find(&mut parent, i);
            let ty = firm[r].or(soft[r]);
            match ty {
                _ if !logic_bool[r] || declared[r] => ty,
                Some(t) if Generic::Logic.admits(t) => ty,
                _ => Some(Type::Bool),
            }
        })
        .collect();
    let group_of: Vec<usize> = (0..n).map(|i| find(&mut parent, i)).collect();
    (t, group_of)
}

/// A generic block whose type nothing decides (said once per group), or whose type its
/// generic group does not admit.
fn undecided_or_inadmissible(project: &Project, net: &Net, t: &Tvars, group_of: &[usize]) -> Vec<Diagnostic> {
    let generic: Vec<usize> = (0..net.blocks.len()).filter(|&i| net.blocks[i].def.generic != Generic::No).collect();
    let mut errors = Vec::new();
    let mut members: HashMap<usize, Vec<usize>> = HashMap::default();
    for &i in &generic {
        members.entry(group_of[i]).or_default().push(i);
    }
    for &i in &generic {
        let b = &net.blocks[i];
        match t[i] {
            // Once per group, at its first block.
            None if group_of[i] == i => {
                let others: Vec<&str> =
                    members[&i].iter().filter(|&&j| j != i).map(|&j| &*net.blocks[j].path).collect();
                let mut msg = format!("cannot infer the data type of {} block `{}`", b.def.name, b.path);
                let reads_itself =
                    b.inputs.iter().any(|p| p.ty == PinTy::T && out_of(&p.src).is_some_and(|o| o.0 == i));
                if others.is_empty() && reads_itself {
                    msg.push_str(": its only typed input is its own output (a loop through the block)");
                } else if !others.is_empty() {
                    let shown: Vec<&str> = others.iter().take(8).copied().collect();
                    let more = if others.len() > 8 { format!(" and {} more", others.len() - 8) } else { String::new() };
                    let shown = shown.join(", ");
                    msg.push_str(&format!(
                        ": nothing but {shown}{more} (whose type is the same) feeds it a typed value"
                    ));
                }
                errors.push(
                    diag_at(project, &b.at.at(), msg)
                        .block(&*b.path)
                        .help("set \"data_type\": \"DINT\" (or another type: BOOL, INT, LINT, REAL, LREAL...) on one of these blocks, or wire a typed value or constant to it"),
                );
            }
            None => {}
            Some(ty) if !b.def.generic.admits(ty) => errors.push(
                diag_at(
                    project,
                    &b.at.at(),
                    format!("{} works on {}, but `{}` is {ty}", b.def.name, b.def.generic.describe(), b.path),
                )
                .block(&*b.path),
            ),
            _ => {}
        }
    }
    errors
}

/// The type of every generic block, and every pin checked against its driver (ports first);
/// all the problems at once.
pub(crate) fn infer_types(project: &Project, net: &Net) -> Result<Tvars, Vec<Diagnostic>> {
    let (t, group_of) = type_variables(project, net);
    let mut errors = undecided_or_inadmissible(project, net, &t, &group_of);
    if !errors.is_empty() {
        return Err(errors);
    }
    // Ports first: a wrong binding is best reported where it is written, at the instance.
    for a in &net.asserts {
        if let Err(d) =
            check_src(project, net, &t, &a.src, Want { ty: a.ty, widen: true }, || a.at.clone(), || a.what.clone())
        {
            errors.push(d);
        }
    }
    // Every pin against its driver (a negated macro pin's NOT: at the instance's port).
    for (bi, b) in net.blocks.iter().enumerate() {
        for (k, p) in b.inputs.iter().enumerate().filter(|_| bi < net.first_negation) {
            let want = match p.ty {
                PinTy::Fixed(ty) => ty,
                PinTy::T => t[bi].unwrap_or(Type::Bool),
            };
            // A fixed-type pin takes a narrower type of its bank as it is (the value is the
            // same: IEC's implicit widening); a `T` pin takes exactly its block's type, as
            // matiec requires (widening there would change which width the block computes in).
            let widen = matches!(p.ty, PinTy::Fixed(_));
            if p.negate && want != Type::Bool {
                let name = b.input_name(k);
                let at = b.at.join(fbd_model::json_path!["inputs", name.as_ref()]);
                errors.push(not_bool(project, b, &at, &format!("pin `{name}`"), want, "input", name.into_owned()));
                continue;
            }
            check_src(
                project,
                net,
                &t,
                &p.src,
                Want { ty: want, widen },
                || b.at.join(fbd_model::json_path!["inputs", b.input_name(k).as_ref()]),
                || format!("pin `{}` of {} `{}`", b.input_name(k), b.def.name, b.path),
            )
            .map_err(|d| d.block(b.path.to_string()).pin(b.input_name(k).into_owned()))
            .unwrap_or_else(|d| errors.push(d));
        }
        for k in (0..b.n_outputs()).filter(|&k| net.out_negated(bi, k)) {
            let ty = out_type(net, &t, bi, k).unwrap_or(Type::Bool);
            if ty != Type::Bool {
                let name = b.output_name(k);
                let at = b.at.join(fbd_model::json_path!["negated"]);
                errors.push(not_bool(project, b, &at, &format!("output `{name}`"), ty, "output", name.into_owned()));
            }
        }
        if let Some(init) = b.params().init.as_deref() {
            let want = t[bi].unwrap_or(Type::Bool);
            if let Err(why) =
                init.0.coerce(want).ok_or_else(|| format!("{} is not a {want}", init.0)).and_then(|v| want.admit(v))
            {
                errors.push(
                    diag_at(
                        project,
                        &b.at.join(fbd_model::json_path!["params", "init"]),
                        format!("params.init does not fit {} block `{}` of type {want}: {why}", b.def.name, b.path),
                    )
                    .block(&*b.path),
                );
            }
        }
    }
    if errors.is_empty() { Ok(t) } else { Err(errors) }
}

/// A negated pin that is not BOOL: `what` (`pin `in1``) of block `b` is `ty`.
fn not_bool(project: &Project, b: &NetBlock, at: &At, what: &str, ty: Type, side: &str, pin: String) -> Diagnostic {
    diag_at(project, at, format!("{what} of {} `{}` is {ty}: only a BOOL {side} can be negated", b.def.name, b.path))
        .block(b.path.to_string())
        .pin(pin)
        .help("remove it from `negated`, or compare the value first (e.g. NE 0) and negate that")
}

fn src_name(project: &Project, net: &Net, s: &Src) -> String {
    match s {
        Src::Const(v) => format!("constant {v}"),
        Src::Input(i) => format!("input `{}`", project.root().inputs[*i].name),
        Src::Out { block, pin } => format!("`{}.{}`", net.blocks[*block].path, net.blocks[*block].output_name(*pin)),
        Src::Feedback { src, .. } => format!("feedback of {}", src_name(project, net, src)),
    }
}

/// What a pin or port expects: its type, and whether a narrower one of its bank is taken as it
/// is (a fixed-type pin, a port: IEC's implicit widening).
struct Want {
    ty: Type,
    widen: bool,
}

fn check_src(
    project: &Project,
    net: &Net,
    t: &Tvars,
    src: &Src,
    want: Want,
    at: impl Fn() -> At,
    what: impl Fn() -> String,
) -> Result<(), Diagnostic> {
    let Want { ty: want, widen } = want;
    // A constant (or an initial value) is written for the pin: it takes the pin's type if its
    // value is one of that type's (40000 is no INT: refused, not wrapped).
    let fits = |v: Value| v.coerce(want).ok_or_else(|| format!("{v} is not a {want}")).and_then(|c| want.admit(c));
    if let Src::Feedback { init: Some(v), .. } = src
        && let Err(why) = fits(**v)
    {
        return Err(diag_at(project, &at(), format!("feedback init does not fit {} ({want}): {why}", what())));
    }
    if let Src::Const(v) = src
        && v.value().coerce(want).is_some()
    {
        return fits(v.value())
            .map(|_| ())
            .map_err(|why| diag_at(project, &at(), format!("constant for {}: {why}", what())));
    }
    let Some((got, hard)) = src_type(project, net, t, src) else {
        return Ok(());
    };
    let ok = got == want
        || (!hard && got.bank() == want.bank() && got.is_time() == want.is_time())
        || (!hard && got == Type::LInt && want.is_real())
        || (widen && got.widens_to(want));
    if ok {
        return Ok(());
    }
    let help = match (got.bank(), want.bank()) {
        _ if got.is_time() != want.is_time() => {
            "a duration is written T#500ms, T#1m30s; A_TO_TIME and TIME_TO_A convert through seconds (as matiec)"
        }
        (Bank::Int, Bank::Real) | (Bank::Real, Bank::Int) | (Bank::Int, Bank::Int) | (Bank::Real, Bank::Real) => {
            "convert with a conversion block (LINT_TO_LREAL, LREAL_TO_LINT; TRUNC or FLOOR for a REAL's whole part)"
        }
        (Bank::Str, _) | (_, Bank::Str) => {
            "convert with A_TO_STRING or STRING_TO_A (a STRING constant is written \"'text'\")"
        }
        (_, Bank::Bool) => "compare with EQ/NE/GT... to get a BOOL",
        (Bank::Bool, _) => "select a number with SEL (g = the BOOL)",
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
/// conversion left is one [`fbd_model::types::Value::coerce`] allows.
pub(crate) fn coerce_constants(net: &mut Net, t: &Tvars) {
    for (bi, b) in net.blocks.iter_mut().enumerate() {
        for p in &mut b.inputs {
            let want = match p.ty {
                PinTy::Fixed(ty) => ty,
                PinTy::T => t[bi].unwrap_or(Type::Bool),
            };
            if let Src::Const(v) = &mut p.src
                && let Some(Ok(c)) = v.value().coerce(want).map(|c| want.admit(c))
            {
                *v = c.into();
            }
        }
    }
}
