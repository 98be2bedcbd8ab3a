//! Macro expansion and name resolution: turns a [`Project`] into a flat netlist of primitive
//! blocks whose every input names its driver directly (a constant, a program input, another
//! block's output, or a feedback wire around one of those).

use std::borrow::Cow;

use rustc_hash::FxHashMap as HashMap;

use crate::diag::Diagnostic;
use crate::json_path;
use crate::library::{self, BlockDef, PinTy};
use crate::load::{IDENT_HELP, Project, valid_ident};
use crate::locate::Seg;
use crate::model::{Block, MacroDef, Params, Wire};
use crate::plan::InstanceInfo;
use crate::types::{Type, Value};

/// A place in a source file: file index and JSON path.
#[derive(Clone, Debug)]
pub(crate) struct At {
    pub file: usize,
    pub path: Vec<Seg>,
}

impl At {
    fn new(file: usize, path: impl Into<Vec<Seg>>) -> At {
        At { file, path: path.into() }
    }
    pub(crate) fn join(&self, more: impl IntoIterator<Item = Seg>) -> At {
        let mut p = self.path.clone();
        p.extend(more);
        At { file: self.file, path: p }
    }
}

/// Where a block is written: compact, turned into an [`At`] only for an error.
#[derive(Copy, Clone, Debug)]
pub(crate) struct BlockAt {
    pub file: usize,
    pub key: crate::locate::BlockKey,
}

impl BlockAt {
    fn new(file: usize, mac: Option<usize>, index: usize) -> BlockAt {
        BlockAt { file, key: (mac, index) }
    }

    /// The block object's place.
    pub fn at(&self) -> At {
        let path = match self.key {
            (None, i) => json_path!["blocks", i].to_vec(),
            (Some(m), i) => json_path!["macros", m, "blocks", i].to_vec(),
        };
        At { file: self.file, path }
    }

    /// A place inside the block object.
    pub fn join(&self, more: impl IntoIterator<Item = Seg>) -> At {
        self.at().join(more)
    }
}

/// Where a wire is written, computed only when an error needs it: resolving every pin of a
/// large program must not build a JSON path per pin.
#[derive(Copy, Clone)]
pub(crate) enum Loc<'a> {
    /// A place already built.
    At(&'a At),
    /// Input `pin` of the block at `block`.
    Pin { block: BlockAt, pin: &'a str },
}

impl Loc<'_> {
    fn at(self) -> At {
        match self {
            Loc::At(a) => a.clone(),
            Loc::Pin { block, pin } => block.join(json_path!["inputs", pin]),
        }
    }
}

/// What drives an input after resolution.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Src {
    Const(Value),
    /// Output `pin` (index into the block's outputs, variadic ones last) of net block `block`.
    Out {
        block: usize,
        pin: usize,
    },
    /// Program input by index.
    Input(usize),
    /// The previous scan's value of the inner source.
    Feedback {
        src: Box<Src>,
        init: Option<Value>,
    },
}

/// One input pin of a net block.
#[derive(Clone, Debug)]
pub(crate) struct NetPin {
    pub name: Cow<'static, str>,
    pub ty: PinTy,
    pub src: Src,
}

/// One primitive block after expansion.
#[derive(Clone, Debug)]
pub(crate) struct NetBlock {
    pub path: String,
    pub def: &'static BlockDef,
    pub at: BlockAt,
    pub inputs: Vec<NetPin>,
    /// Number of variadic outputs (SELECTOR's q1..qn).
    pub n_var_out: usize,
    pub data_type: Option<Type>,
    pub params: Params,
    pub order: Option<i64>,
    pub pos: Option<[f64; 2]>,
}

impl NetBlock {
    /// Number of outputs, fixed then variadic.
    pub fn n_outputs(&self) -> usize {
        self.def.outputs.len() + self.n_var_out
    }

    /// Name of output `k`.
    pub fn output_name(&self, k: usize) -> Cow<'static, str> {
        match self.def.outputs.get(k) {
            Some(p) => Cow::Borrowed(p.name),
            None => {
                let v = self.def.var_outputs.expect("index within n_outputs");
                Cow::Owned(format!("{}{}", v.prefix, v.first + k - self.def.outputs.len()))
            }
        }
    }

    /// Index of the output named `pin`.
    pub fn output_index(&self, pin: &str) -> Option<usize> {
        if let Some(k) = self.def.outputs.iter().position(|p| p.name == pin) {
            return Some(k);
        }
        let v = self.def.var_outputs?;
        let num: usize = pin.strip_prefix(v.prefix)?.parse().ok()?;
        let k = num.checked_sub(v.first)?;
        (k < self.n_var_out && pin == format!("{}{num}", v.prefix)).then_some(self.def.outputs.len() + k)
    }
}

/// A type a source must have: a macro port or a program output.
#[derive(Clone, Debug)]
pub(crate) struct TypeAssert {
    pub src: Src,
    pub ty: Type,
    pub at: At,
    pub what: String,
}

/// A named alias: a macro instance pin or a program output.
#[derive(Clone, Debug)]
pub(crate) struct Alias {
    pub path: String,
    pub src: Src,
}

/// The expanded program.
#[derive(Debug, Default)]
pub(crate) struct Net {
    pub blocks: Vec<NetBlock>,
    pub instances: Vec<InstanceInfo>,
    pub macro_pins: Vec<Alias>,
    pub outputs: Vec<Alias>,
    pub asserts: Vec<TypeAssert>,
}

#[derive(Copy, Clone, Debug)]
enum Entry {
    Prim(usize),
    Inst(usize),
}

struct Scope<'p> {
    prefix: String,
    file: usize,
    body: &'p [Block],
    /// JSON path of the body's `blocks` array.
    body_at: Vec<Seg>,
    mac: Option<(&'p MacroDef, usize)>,
    /// Parent scope and the instance's index in the parent's body.
    parent: Option<(usize, usize)>,
    entries: HashMap<&'p str, Entry>,
}

/// Expands `project`, refusing programs that would grow past `max_blocks` primitive blocks.
pub(crate) fn expand(project: &Project, max_blocks: u64) -> Result<Net, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    check_bodies(project, &mut errors);
    // Independent of the bodies' mistakes, so reported with them in one pass.
    check_recursion_and_size(project, max_blocks, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let input_index = project.root().inputs.iter().enumerate().rev().map(|(i, p)| (p.name.as_str(), i)).collect();
    let mut ex = Expander {
        project,
        scopes: Vec::new(),
        net: Net::default(),
        errors,
        memo: HashMap::default(),
        visiting: Default::default(),
        input_index,
        port_names: HashMap::default(),
    };
    ex.build_scopes();
    ex.resolve_all();
    let Expander { net, mut errors, .. } = ex;
    dedup(&mut errors);
    if errors.is_empty() { Ok(net) } else { Err(errors) }
}

/// A constant bound to a typed port takes the port's type (an INT literal on a REAL port becomes
/// REAL), so that what reads it finds it in the right slot bank; anything else is left for the
/// type checker to report.
fn coerce_const(src: Src, ty: Type) -> Src {
    match src {
        Src::Const(v) => Src::Const(v.coerce(ty).unwrap_or(v)),
        other => other,
    }
}

fn dedup(errors: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    errors.retain(|d| seen.insert(d.to_string()));
}

/// The bodies of the program and of every macro: ids, types, pins, params.
fn check_bodies(project: &Project, errors: &mut Vec<Diagnostic>) {
    for (fi, f) in project.files.iter().enumerate() {
        let doc = &f.doc;
        if fi == 0 {
            if let Some(c) = doc.cycle_ms
                && !(MIN_CYCLE_MS..=MAX_CYCLE_MS).contains(&c)
            {
                errors.push(
                    project
                        .diag(fi, &json_path!["cycle_ms"], format!("cycle_ms {c} is outside {MIN_CYCLE_MS}..={MAX_CYCLE_MS} ms"))
                        .help("the scan cycle is at least 50 µs and at most one minute; PLC tasks typically run every 1 to 100 ms"),
                );
            }
            let mut names: HashMap<&str, ()> = HashMap::default();
            for (i, p) in doc.inputs.iter().enumerate() {
                let at = json_path!["inputs", i, "name"];
                if !valid_ident(&p.name) {
                    errors.push(project.diag(fi, &at, format!("invalid input name `{}`", p.name)).help(IDENT_HELP));
                } else if names.insert(&p.name, ()).is_some() {
                    errors.push(project.diag(fi, &at, format!("program port `{}` is declared twice", p.name)));
                }
                if let Some(d) = p.default
                    && d.0.coerce(p.ty.0).is_none()
                {
                    errors.push(project.diag(
                        fi,
                        &json_path!["inputs", i, "default"],
                        format!("default {} of input `{}` is not a {}", d.0, p.name, p.ty.0),
                    ));
                }
            }
            for (i, p) in doc.outputs.iter().enumerate() {
                let at = json_path!["outputs", i, "name"];
                if !valid_ident(&p.name) {
                    errors.push(project.diag(fi, &at, format!("invalid output name `{}`", p.name)).help(IDENT_HELP));
                } else if names.insert(&p.name, ()).is_some() {
                    errors.push(
                        project
                            .diag(fi, &at, format!("program port `{}` is declared twice", p.name))
                            .help("inputs and outputs share one namespace"),
                    );
                }
            }
            check_body(project, fi, &doc.blocks, &json_path!["blocks"], errors);
        } else if !doc.blocks.is_empty() || !doc.inputs.is_empty() || !doc.outputs.is_empty() {
            errors.push(
                project
                    .diag(fi, &json_path!["blocks"], "an included file may only define macros")
                    .help("move the blocks and ports into the program that includes this library"),
            );
        }
        for (mi, m) in doc.macros.iter().enumerate() {
            if m.inputs.len() > MAX_PINS || m.outputs.len() > MAX_PINS {
                errors.push(
                    project
                        .diag(fi, &json_path!["macros", mi, "name"], format!(
                            "macro `{}` has {} inputs and {} outputs, more than the limit of {MAX_PINS} in each direction",
                            m.name, m.inputs.len(), m.outputs.len()
                        ))
                        .help("group the signals into several macros"),
                );
                continue;
            }
            let mut names: HashMap<&str, ()> = HashMap::default();
            for (k, p) in m.inputs.iter().enumerate() {
                let at = json_path!["macros", mi, "inputs", k, "name"];
                if !valid_ident(&p.name) {
                    errors.push(project.diag(fi, &at, format!("invalid port name `{}`", p.name)).help(IDENT_HELP));
                } else if names.insert(&p.name, ()).is_some() {
                    errors.push(project.diag(fi, &at, format!("macro `{}` declares port `{}` twice", m.name, p.name)));
                }
            }
            for (k, p) in m.outputs.iter().enumerate() {
                let at = json_path!["macros", mi, "outputs", k, "name"];
                if !valid_ident(&p.name) {
                    errors.push(project.diag(fi, &at, format!("invalid port name `{}`", p.name)).help(IDENT_HELP));
                } else if names.insert(&p.name, ()).is_some() {
                    errors.push(project.diag(fi, &at, format!("macro `{}` declares port `{}` twice", m.name, p.name)));
                }
            }
            check_body(project, fi, &m.blocks, &json_path!["macros", mi, "blocks"], errors);
        }
    }
}

fn check_body(project: &Project, fi: usize, body: &[Block], body_at: &[Seg], errors: &mut Vec<Diagnostic>) {
    let mut ids: HashMap<&str, usize> = HashMap::default();
    for (bi, b) in body.iter().enumerate() {
        let at = |more: &[Seg]| {
            let mut p = body_at.to_vec();
            p.push(Seg::Index(bi));
            p.extend_from_slice(more);
            p
        };
        if !valid_ident(&b.id) {
            errors.push(
                project.diag(fi, &at(&json_path!["id"]), format!("invalid block id `{}`", b.id)).help(IDENT_HELP),
            );
        } else if let Some(first) = ids.insert(&b.id, bi) {
            errors.push(
                project
                    .diag(
                        fi,
                        &at(&json_path!["id"]),
                        format!("duplicate block id `{}` (first used by block #{first})", b.id),
                    )
                    .block(&b.id),
            );
        }
        if let Some(def) = library::lookup(&b.ty) {
            check_prim_pins(project, fi, b, def, &at(&[]), errors);
        } else if b.inputs.0.len() > MAX_PINS {
            errors.push(
                project
                    .diag(
                        fi,
                        &at(&json_path!["inputs"]),
                        format!(
                            "block `{}` has {} connected inputs, more than the limit of {MAX_PINS}",
                            b.id,
                            b.inputs.0.len()
                        ),
                    )
                    .block(&b.id)
                    .help("split the block (e.g. an AND of ANDs)"),
            );
        } else if let Some((_, _, m)) = project.macro_def(&b.ty)
            && (m.inputs.len() > MAX_PINS || m.outputs.len() > MAX_PINS)
        {
            // Reported once at the definition.
        } else if let Some((_, _, m)) = project.macro_def(&b.ty) {
            for (k, (pin, _)) in b.inputs.0.iter().enumerate() {
                let _ = k;
                if !m.inputs.iter().any(|p| p.name == *pin) {
                    let known: Vec<&str> = m.inputs.iter().map(|p| p.name.as_str()).collect();
                    errors.push(
                        project
                            .diag(
                                fi,
                                &at(&json_path!["inputs", pin]),
                                format!("macro `{}` has no input `{pin}`", m.name),
                            )
                            .block(&b.id)
                            .pin(pin)
                            .help(format!("its inputs are: {}", list_or_none(&known))),
                    );
                }
            }
            for p in &m.inputs {
                if p.default.is_none() && b.inputs.get(&p.name).is_none() {
                    errors.push(
                        project
                            .diag(
                                fi,
                                &at(&json_path!["inputs"]),
                                format!("required input `{}` of macro `{}` is not connected", p.name, m.name),
                            )
                            .block(&b.id)
                            .pin(&p.name)
                            .help("wire it, or give the port a `default` in the macro definition"),
                    );
                }
            }
            if b.params != Params::default() || b.data_type.is_some() {
                errors.push(
                    project
                        .diag(fi, &at(&json_path!["params"]), "a macro instance takes no params or data_type")
                        .block(&b.id)
                        .help("pass values through the macro's inputs"),
                );
            }
        } else {
            let mut d =
                project.diag(fi, &at(&json_path!["type"]), format!("unknown block type `{}`", b.ty)).block(&b.id);
            let mut names: Vec<&str> = library::LIBRARY.iter().map(|d| d.name).collect();
            names.extend(project.macros.keys().map(String::as_str));
            if let Some(s) = closest(&b.ty, &names) {
                d = d.help(format!("did you mean `{s}`? (`fbd blocks` lists the library)"));
            } else {
                d = d.help("`fbd blocks` lists the library; macros must be defined or included");
            }
            errors.push(d);
        }
    }
}

fn check_prim_pins(project: &Project, fi: usize, b: &Block, def: &BlockDef, at: &[Seg], errors: &mut Vec<Diagnostic>) {
    let here = |more: &[Seg]| {
        let mut p = at.to_vec();
        p.extend_from_slice(more);
        p
    };
    if b.inputs.0.len() > MAX_PINS {
        errors.push(
            project
                .diag(
                    fi,
                    &here(&json_path!["inputs"]),
                    format!(
                        "block `{}` has {} connected inputs, more than the limit of {MAX_PINS}",
                        b.id,
                        b.inputs.0.len()
                    ),
                )
                .block(&b.id)
                .help("split the block (e.g. an AND of ANDs)"),
        );
        return;
    }
    let mut var_numbers = Vec::new();
    for (pin, _) in &b.inputs.0 {
        if def.inputs.iter().any(|p| p.name == *pin) {
            continue;
        }
        if let Some(v) = def.var_inputs
            && let Some(num) = pin.strip_prefix(v.prefix).and_then(|n| n.parse::<usize>().ok())
            && num >= v.first
            && pin == &format!("{}{num}", v.prefix)
        {
            var_numbers.push(num);
            continue;
        }
        errors.push(
            project
                .diag(fi, &here(&json_path!["inputs", pin]), format!("{} has no input `{pin}`", def.name))
                .block(&b.id)
                .pin(pin)
                .help(format!("its inputs are: {}", input_names(def))),
        );
    }
    if let Some(v) = def.var_inputs {
        var_numbers.sort_unstable();
        for (k, num) in var_numbers.iter().enumerate() {
            if *num != v.first + k {
                errors.push(
                    project
                        .diag(
                            fi,
                            &here(&json_path!["inputs"]),
                            format!("input `{}{}` is missing before `{}{num}`", v.prefix, v.first + k, v.prefix),
                        )
                        .block(&b.id)
                        .pin(format!("{}{}", v.prefix, v.first + k))
                        .help("variadic inputs are numbered without gaps"),
                );
                break;
            }
        }
        if var_numbers.len() < v.min {
            errors.push(
                project
                    .diag(
                        fi,
                        &here(&json_path!["inputs"]),
                        format!(
                            "{} needs at least {} `{}` inputs, {} connected",
                            def.name,
                            v.min,
                            v.prefix,
                            var_numbers.len()
                        ),
                    )
                    .block(&b.id)
                    .pin(format!("{}{}", v.prefix, v.first + var_numbers.len())),
            );
        }
    }
    for p in def.inputs {
        if p.default.is_none() && b.inputs.get(p.name).is_none() {
            errors.push(
                project
                    .diag(
                        fi,
                        &here(&json_path!["inputs"]),
                        format!("required input `{}` of {} is not connected", p.name, def.name),
                    )
                    .block(&b.id)
                    .pin(p.name)
                    .help("wire it to `block.pin`, an input name, or a constant"),
            );
        }
    }
    let given: [(&str, bool); 3] =
        [("init", b.params.init.is_some()), ("seed", b.params.seed.is_some()), ("n", b.params.n.is_some())];
    for (name, set) in given {
        if set && !def.params.contains(&name) {
            errors.push(
                project
                    .diag(fi, &here(&json_path!["params", name]), format!("{} takes no parameter `{name}`", def.name))
                    .block(&b.id),
            );
        }
    }
    if def.var_outputs.is_some() {
        match b.params.n {
            Some(n) if (1..=1024).contains(&n) => {}
            Some(n) => errors.push(
                project
                    .diag(fi, &here(&json_path!["params", "n"]), format!("{} needs 1 <= n <= 1024, got {n}", def.name))
                    .block(&b.id),
            ),
            None => errors.push(
                project
                    .diag(
                        fi,
                        &here(&json_path!["params"]),
                        format!("{} needs params.n (number of positions)", def.name),
                    )
                    .block(&b.id),
            ),
        }
    }
    if b.data_type.is_some() && def.generic == library::Generic::No {
        errors.push(
            project
                .diag(
                    fi,
                    &here(&json_path!["data_type"]),
                    format!("{} is not generic; data_type does not apply", def.name),
                )
                .block(&b.id),
        );
    }
}

fn input_names(def: &BlockDef) -> String {
    let mut v: Vec<String> = def.inputs.iter().map(|p| p.name.to_string()).collect();
    if let Some(va) = def.var_inputs {
        v.push(format!("{0}{1}..{0}N", va.prefix, va.first));
    }
    if v.is_empty() { "none".into() } else { v.join(", ") }
}

fn output_names(def: &BlockDef, n: usize) -> Vec<String> {
    let mut v: Vec<String> = def.outputs.iter().map(|p| p.name.to_string()).collect();
    if let Some(va) = def.var_outputs {
        v.extend((0..n).map(|k| format!("{}{}", va.prefix, va.first + k)));
    }
    v
}

fn list_or_none(v: &[&str]) -> String {
    if v.is_empty() { "none".into() } else { v.join(", ") }
}

/// The candidate nearest to `s` by edit distance, if it is close enough to be a typo.
pub(crate) fn closest<'a>(s: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let d = |a: &str, b: &str| -> usize {
        let a: Vec<char> = a.to_lowercase().chars().collect();
        let b: Vec<char> = b.to_lowercase().chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for i in 1..=a.len() {
            let mut cur = vec![i; b.len() + 1];
            for j in 1..=b.len() {
                cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + usize::from(a[i - 1] != b[j - 1]));
            }
            prev = cur;
        }
        prev[b.len()]
    };
    // Typos are short: long names (and very different lengths) get no suggestion, which keeps
    // this linear in the number of candidates whatever the names' length.
    const LONGEST: usize = 64;
    if s.len() > LONGEST {
        return None;
    }
    candidates
        .iter()
        .filter(|c| c.len() <= LONGEST && c.len().abs_diff(s.len()) <= c.len().div_ceil(3).max(1))
        .map(|c| (d(s, c), *c))
        .filter(|(dist, c)| *dist <= c.len().div_ceil(3).max(1))
        .min()
        .map(|(_, c)| c)
}

/// Most pins a block may have (connected inputs of a library block; ports of a macro, each
/// direction). A library block's widest real use is a few dozen; a macro interface of
/// thousands of ports is generated by mistake.
pub const MAX_PINS: usize = 4096;

/// Shortest scan cycle a diagram may ask for, in ms (50 µs: the real-time runner's floor).
pub const MIN_CYCLE_MS: f64 = 0.05;
/// Longest scan cycle, in ms (one minute). The simulated clock counts µs in 64 bits, so even
/// at this cycle it would wrap only after 2^64 µs (584,000 years) of simulated time.
pub const MAX_CYCLE_MS: f64 = 60_000.0;

/// Deepest macro nesting a program may have (instances inside instances).
pub const MAX_NESTING: usize = 256;

/// Recursion is an error naming the chain; the expanded size (primitive blocks plus macro
/// instances, so that empty macros count too) and the nesting depth are computed per macro
/// (memoised, saturating) before anything is expanded, so an expansion bomb costs nothing.
/// Iterative: a 10,000-level chain of macros needs no stack.
fn check_recursion_and_size(project: &Project, max_blocks: u64, errors: &mut Vec<Diagnostic>) {
    #[derive(Copy, Clone, PartialEq)]
    enum Mark {
        Visiting,
        Done { size: u64, depth: usize },
    }
    struct Frame<'a> {
        name: &'a str,
        next: usize,
        size: u64,
        depth: usize,
    }
    let mut marks: HashMap<&str, Mark> = HashMap::default();
    let mut names: Vec<&String> = project.macros.keys().collect();
    names.sort();
    for start in names {
        if marks.contains_key(start.as_str()) {
            continue;
        }
        marks.insert(start, Mark::Visiting);
        let mut stack = vec![Frame { name: start, next: 0, size: 0, depth: 1 }];
        while let Some(top) = stack.last_mut() {
            let (fi, mi, m) = project.macro_def(top.name).expect("a macro of the table");
            let Some(b) = m.blocks.get(top.next) else {
                let done = stack.pop().expect("non-empty");
                marks.insert(done.name, Mark::Done { size: done.size, depth: done.depth });
                if let Some(parent) = stack.last_mut() {
                    parent.size = parent.size.saturating_add(1).saturating_add(done.size);
                    parent.depth = parent.depth.max(done.depth + 1);
                }
                continue;
            };
            let bi = top.next;
            top.next += 1;
            if !project.macros.contains_key(&b.ty) {
                top.size = top.size.saturating_add(1);
                continue;
            }
            match marks.get(b.ty.as_str()).copied() {
                Some(Mark::Done { size, depth }) => {
                    top.size = top.size.saturating_add(1).saturating_add(size);
                    top.depth = top.depth.max(depth + 1);
                }
                Some(Mark::Visiting) => {
                    let from = stack.iter().position(|f| f.name == b.ty).unwrap_or(0);
                    let mut cyc: Vec<&str> = stack[from..].iter().map(|f| f.name).collect();
                    cyc.push(&b.ty);
                    let shown = if cyc.len() > 12 {
                        format!(
                            "{} -> ... ({} macros) -> {}",
                            cyc[..6].join(" -> "),
                            cyc.len() - 8,
                            cyc[cyc.len() - 2..].join(" -> ")
                        )
                    } else {
                        cyc.join(" -> ")
                    };
                    errors.push(
                        project
                            .diag(
                                fi,
                                &json_path!["macros", mi, "blocks", bi, "type"],
                                format!("recursive macro: {shown}"),
                            )
                            .block(format!("{}/{}", m.name, b.id))
                            .help("a macro cannot contain an instance of itself, directly or through other macros"),
                    );
                }
                None => {
                    marks.insert(&b.ty, Mark::Visiting);
                    stack.push(Frame { name: &b.ty, next: 0, size: 0, depth: 1 });
                }
            }
        }
    }
    if !errors.is_empty() {
        return;
    }
    let mut total: u64 = 0;
    let mut biggest: Option<(u64, usize)> = None;
    let mut deepest: Option<(usize, usize)> = None;
    for (bi, b) in project.root().blocks.iter().enumerate() {
        let (n, depth) = match marks.get(b.ty.as_str()) {
            Some(Mark::Done { size, depth }) => (size.saturating_add(1), *depth),
            _ => (1, 0),
        };
        total = total.saturating_add(n);
        if biggest.is_none_or(|(m, _)| n > m) {
            biggest = Some((n, bi));
        }
        if deepest.is_none_or(|(d, _)| depth > d) {
            deepest = Some((depth, bi));
        }
    }
    if let Some((depth, bi)) = deepest
        && depth > MAX_NESTING
    {
        let b = &project.root().blocks[bi];
        errors.push(
            project
                .diag(
                    0,
                    &json_path!["blocks", bi],
                    format!(
                        "instance `{}` of `{}` nests macros {depth} levels deep, more than the limit of {MAX_NESTING}",
                        b.id, b.ty
                    ),
                )
                .block(&b.id)
                .help("flatten the macro hierarchy; a deeper one is almost certainly generated by mistake"),
        );
    }
    if total > max_blocks {
        let (n, bi) = biggest.unwrap_or((total, 0));
        let b = &project.root().blocks[bi];
        errors.push(
            project
                .diag(
                    0,
                    &json_path!["blocks", bi],
                    format!(
                        "the program would expand to {} blocks and macro instances, more than the limit of {max_blocks}; instance `{}` of `{}` alone expands to {n}",
                        fmt_big(total),
                        b.id,
                        b.ty
                    ),
                )
                .block(&b.id)
                .help("an expansion bomb (macros that instance each other many times) is refused; raise CompileOptions::max_blocks if the program is really this large"),
        );
    }
}

fn fmt_big(n: u64) -> String {
    if n == u64::MAX { "more than 18446744073709551614".into() } else { n.to_string() }
}

/// A macro port of one instance: the unit of memoised resolution.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct PortKey {
    scope: usize,
    output: bool,
    port: usize,
}

struct Expander<'p> {
    project: &'p Project,
    scopes: Vec<Scope<'p>>,
    net: Net,
    errors: Vec<Diagnostic>,
    /// What each instance port resolved to.
    memo: HashMap<PortKey, Src>,
    /// Ports crossed by the resolution in progress (loop detection).
    visiting: rustc_hash::FxHashSet<PortKey>,
    /// Program input name → index.
    input_index: HashMap<&'p str, usize>,
    /// (file, macro) → input port name → index.
    port_names: HashMap<(usize, usize), HashMap<&'p str, usize>>,
}

impl<'p> Expander<'p> {
    fn build_scopes(&mut self) {
        let root = &self.project.files[0].doc;
        self.scopes.push(Scope {
            prefix: String::new(),
            file: 0,
            body: &root.blocks,
            body_at: json_path!["blocks"].to_vec(),
            mac: None,
            parent: None,
            entries: HashMap::default(),
        });
        let mut si = 0;
        while si < self.scopes.len() {
            let (prefix, file, body, mac_index) = {
                let s = &self.scopes[si];
                (s.prefix.clone(), s.file, s.body, s.mac.map(|(_, mi)| mi))
            };
            for (bi, b) in body.iter().enumerate() {
                let at = BlockAt::new(file, mac_index, bi);
                let path = format!("{prefix}{}", b.id);
                let entry = if let Some(def) = library::lookup(&b.ty) {
                    let n_out = b.params.n.unwrap_or(0) as usize;
                    self.net.blocks.push(NetBlock {
                        path,
                        def,
                        at,
                        inputs: Vec::new(),
                        n_var_out: if def.var_outputs.is_some() { n_out } else { 0 },
                        data_type: b.data_type.map(|t| t.0),
                        params: b.params.clone(),
                        order: b.order,
                        pos: b.pos,
                    });
                    Entry::Prim(self.net.blocks.len() - 1)
                } else {
                    let (mf, mi, m) = self.project.macro_def(&b.ty).expect("checked by check_bodies");
                    self.net.instances.push(InstanceInfo { path: path.clone(), macro_name: m.name.clone() });
                    self.scopes.push(Scope {
                        prefix: format!("{path}/"),
                        file: mf,
                        body: &m.blocks,
                        body_at: json_path!["macros", mi, "blocks"].to_vec(),
                        mac: Some((m, mi)),
                        parent: Some((si, bi)),
                        entries: HashMap::default(),
                    });
                    Entry::Inst(self.scopes.len() - 1)
                };
                self.scopes[si].entries.insert(&b.id, entry);
            }
            si += 1;
        }
    }

    fn resolve_all(&mut self) {
        // Primitive block inputs.
        for si in 0..self.scopes.len() {
            let (file, body, mac_index) = {
                let s = &self.scopes[si];
                (s.file, s.body, s.mac.map(|(_, mi)| mi))
            };
            for (bi, b) in body.iter().enumerate() {
                let Some(Entry::Prim(ni)) = self.scopes[si].entries.get(b.id.as_str()).copied() else {
                    continue;
                };
                let def = self.net.blocks[ni].def;
                let block_at = BlockAt::new(file, mac_index, bi);
                let mut pins = Vec::new();
                for p in def.inputs {
                    match b.inputs.get(p.name) {
                        Some(w) => {
                            let src = self.resolve(si, w, Loc::Pin { block: block_at, pin: p.name });
                            pins.push(NetPin { name: Cow::Borrowed(p.name), ty: p.ty, src });
                        }
                        None => {
                            let v = p.default.unwrap_or(Value::Bool(false));
                            pins.push(NetPin { name: Cow::Borrowed(p.name), ty: p.ty, src: Src::Const(v) });
                        }
                    }
                }
                if let Some(va) = def.var_inputs {
                    for k in 0.. {
                        let name = format!("{}{}", va.prefix, va.first + k);
                        let Some(w) = b.inputs.get(&name) else { break };
                        let src = self.resolve(si, w, Loc::Pin { block: block_at, pin: &name });
                        pins.push(NetPin { name: Cow::Owned(name), ty: va.ty, src });
                    }
                }
                self.net.blocks[ni].inputs = pins;
            }
        }
        // Macro instance pins, as aliases for the debugger (and to report bad output ports).
        for si in 1..self.scopes.len() {
            let (m, mi) = self.scopes[si].mac.expect("non-root scopes are instances");
            let file = self.scopes[si].file;
            let inst_path = self.scopes[si].prefix.trim_end_matches('/').to_string();
            for (k, p) in m.inputs.iter().enumerate() {
                let at = At::new(file, json_path!["macros", mi, "inputs", k]);
                let src = self.resolve(si, &Wire::Ref(p.name.clone()), Loc::At(&at));
                self.net.macro_pins.push(Alias { path: format!("{inst_path}.{}", p.name), src });
            }
            for (k, p) in m.outputs.iter().enumerate() {
                let at = At::new(file, json_path!["macros", mi, "outputs", k, "from"]);
                let src = coerce_const(self.resolve(si, &p.from, Loc::At(&at)), p.ty.0);
                self.net.asserts.push(TypeAssert {
                    src: src.clone(),
                    ty: p.ty.0,
                    at: at.clone(),
                    what: format!("output `{}` of macro `{}`", p.name, m.name),
                });
                self.net.macro_pins.push(Alias { path: format!("{inst_path}.{}", p.name), src });
            }
        }
        // Program outputs.
        let root = &self.project.files[0].doc;
        for (k, p) in root.outputs.iter().enumerate() {
            let at = At::new(0, json_path!["outputs", k, "from"]);
            let src = coerce_const(self.resolve(0, &p.from, Loc::At(&at)), p.ty.0);
            self.net.asserts.push(TypeAssert {
                src: src.clone(),
                ty: p.ty.0,
                at,
                what: format!("program output `{}`", p.name),
            });
            self.net.outputs.push(Alias { path: p.name.clone(), src });
        }
    }

    fn err(&mut self, at: Loc, msg: String) -> Diagnostic {
        let at = at.at();
        self.project.diag(at.file, &at.path, msg)
    }

    /// Resolves a wire written in scope `si` at `at`. On error, records it and returns a
    /// constant so that resolution goes on and every error is reported once.
    fn resolve(&mut self, si: usize, w: &Wire, at: Loc) -> Src {
        match self.resolve_inner(si, w, at) {
            Ok(s) => s,
            Err(d) => {
                self.errors.push(d);
                Src::Const(Value::Bool(false))
            }
        }
    }

    fn scope_block_label(&self, si: usize, at: &At) -> Option<String> {
        // The block whose pin this is: the path element after the body's `blocks`.
        let s = &self.scopes[si];
        let idx = at.path.get(s.body_at.len()).and_then(|seg| match seg {
            Seg::Index(i) => Some(*i),
            _ => None,
        })?;
        if at.path.len() < s.body_at.len() || at.path[..s.body_at.len()] != s.body_at[..] {
            return None;
        }
        s.body.get(idx).map(|b| format!("{}{}", s.prefix, b.id))
    }

    fn pin_label(at: &At) -> Option<String> {
        match at.path.iter().rev().take(2).collect::<Vec<_>>().as_slice() {
            [Seg::Key(pin), Seg::Key(inputs)] if inputs == "inputs" => Some(pin.clone()),
            _ => None,
        }
    }

    /// Follows a wire through macro ports to what drives it. Iterative, so a chain of any length
    /// (a pass-through port of a pass-through port ...) costs no stack; every port it crosses is
    /// memoised with its result, so each (instance, port) is resolved, coerced to the port's type
    /// and type-asserted once however many readers it has. Crossing the same port twice in one
    /// resolution is a loop through ports that never reaches a block: an error, not a hang.
    fn resolve_inner(&mut self, si0: usize, w0: &Wire, at0: Loc) -> Result<Src, Diagnostic> {
        enum Post {
            Port { key: PortKey, ty: Type, assert: Option<(At, String)> },
            Feedback { init: Option<Value>, at: At, si: usize },
        }
        let mut posts: Vec<Post> = Vec::new();
        let mut si = si0;
        let mut w: Cow<'_, Wire> = Cow::Borrowed(w0);
        let mut owned_at: Option<At> = None;
        self.visiting.clear();
        let base: Src = loop {
            let at = match &owned_at {
                Some(a) => Loc::At(a),
                None => at0,
            };
            let decorate = |this: &Self, d: Diagnostic| {
                let mut d = d;
                if d.block.is_none()
                    && let Some(b) = this.scope_block_label(si, &at.at())
                {
                    d = d.block(b);
                }
                if d.pin.is_none()
                    && let Some(p) = Self::pin_label(&at.at())
                {
                    d = d.pin(p);
                }
                d
            };
            match w.as_ref() {
                Wire::Const(v) => break Src::Const(*v),
                Wire::Feedback { from, init } => {
                    posts.push(Post::Feedback { init: *init, at: at.at(), si });
                    w = Cow::Owned(Wire::Ref(from.clone()));
                }
                Wire::Ref(r) => {
                    if let Some((blk, pin)) = r.split_once('.') {
                        let entry = self.scopes[si].entries.get(blk).copied();
                        match entry {
                            None => {
                                let ids: Vec<&str> = self.scopes[si].body.iter().map(|b| b.id.as_str()).collect();
                                let mut d = self.err(at, format!("unknown block `{blk}` in `{r}`"));
                                if let Some(c) = closest(blk, &ids) {
                                    d = d.help(format!("did you mean `{c}.{pin}`?"));
                                } else {
                                    d = d
                                        .help("references name a block of the same program or macro body: `block.pin`");
                                }
                                return Err(decorate(self, d));
                            }
                            Some(Entry::Prim(ni)) => {
                                let nb = &self.net.blocks[ni];
                                match nb.output_index(pin) {
                                    Some(p) => break Src::Out { block: ni, pin: p },
                                    None => {
                                        let outs = output_names(nb.def, nb.n_var_out).join(", ");
                                        let ty = nb.def.name;
                                        let d = self
                                            .err(at, format!("block `{blk}` ({ty}) has no output `{pin}`"))
                                            .help(format!("its outputs are: {outs}"));
                                        return Err(decorate(self, d));
                                    }
                                }
                            }
                            Some(Entry::Inst(cs)) => {
                                let (m, mi) = self.scopes[cs].mac.expect("instance scope");
                                let Some(k) = m.outputs.iter().position(|o| o.name == pin) else {
                                    let outs: Vec<&str> = m.outputs.iter().map(|o| o.name.as_str()).collect();
                                    let d = self
                                        .err(at, format!("macro instance `{blk}` ({}) has no output `{pin}`", m.name))
                                        .help(format!("its outputs are: {}", list_or_none(&outs)));
                                    return Err(decorate(self, d));
                                };
                                let key = PortKey { scope: cs, output: true, port: k };
                                if let Some(s) = self.memo.get(&key) {
                                    break s.clone();
                                }
                                let port_at =
                                    At::new(self.scopes[cs].file, json_path!["macros", mi, "outputs", k, "from"]);
                                if !self.visiting.insert(key) {
                                    return Err(self.port_loop(&port_at));
                                }
                                posts.push(Post::Port { key, ty: m.outputs[k].ty.0, assert: None });
                                si = cs;
                                w = Cow::Borrowed(&m.outputs[k].from);
                                owned_at = Some(port_at);
                            }
                        }
                    } else {
                        let name = r.as_str();
                        match self.scopes[si].mac {
                            None => match self.input_index.get(name) {
                                Some(&i) => break Src::Input(i),
                                None => {
                                    let root = &self.project.files[0].doc;
                                    let names: Vec<&str> = root.inputs.iter().map(|p| p.name.as_str()).collect();
                                    let mut d = self.err(at, format!("unknown program input `{name}`"));
                                    d = match closest(name, &names) {
                                        Some(c) => d.help(format!("did you mean `{c}`?")),
                                        None => d.help("block outputs are written `block.pin`; program inputs are declared in `inputs`"),
                                    };
                                    return Err(decorate(self, d));
                                }
                            },
                            Some((m, mi)) => {
                                let Some(k) = self.port_index(mi, self.scopes[si].file, name) else {
                                    let names: Vec<&str> = m.inputs.iter().map(|p| p.name.as_str()).collect();
                                    let d = self.err(at, format!("macro `{}` has no input `{name}`", m.name)).help(
                                        format!(
                                            "its inputs are: {}; block outputs are written `block.pin`",
                                            list_or_none(&names)
                                        ),
                                    );
                                    return Err(decorate(self, d));
                                };
                                let key = PortKey { scope: si, output: false, port: k };
                                if let Some(s) = self.memo.get(&key) {
                                    break s.clone();
                                }
                                let port = &m.inputs[k];
                                let port_at = At::new(self.scopes[si].file, json_path!["macros", mi, "inputs", k]);
                                if !self.visiting.insert(key) {
                                    return Err(self.port_loop(&port_at));
                                }
                                let (ps, pbi) = self.scopes[si].parent.expect("macro scope has a parent");
                                let inst = &self.scopes[ps].body[pbi];
                                match inst.inputs.get(name) {
                                    Some(iw) => {
                                        let wat = At::new(self.scopes[ps].file, self.scopes[ps].body_at.clone())
                                            .join([Seg::Index(pbi)])
                                            .join(json_path!["inputs", name]);
                                        let what = format!(
                                            "input `{name}` of macro `{}` (instance `{}{}`)",
                                            m.name, self.scopes[ps].prefix, inst.id
                                        );
                                        posts.push(Post::Port {
                                            key,
                                            ty: port.ty.0,
                                            assert: Some((wat.clone(), what)),
                                        });
                                        si = ps;
                                        w = Cow::Borrowed(iw);
                                        owned_at = Some(wat);
                                    }
                                    None => match port.default {
                                        Some(c) => match c.0.coerce(port.ty.0) {
                                            Some(v) => break Src::Const(v),
                                            None => {
                                                return Err(self.err(
                                                    Loc::At(&port_at),
                                                    format!("default {} of port `{name}` is not a {}", c.0, port.ty.0),
                                                ));
                                            }
                                        },
                                        // Reported once by check_bodies at the instance.
                                        None => break Src::Const(port.ty.0.zero()),
                                    },
                                }
                            }
                        }
                    }
                }
            }
        };
        let mut src = base;
        for post in posts.into_iter().rev() {
            match post {
                Post::Port { key, ty, assert } => {
                    src = coerce_const(src, ty);
                    if let Some((at, what)) = assert {
                        self.net.asserts.push(TypeAssert { src: src.clone(), ty, at, what });
                    }
                    self.memo.insert(key, src.clone());
                }
                Post::Feedback { init, at, si } => {
                    if let Src::Const(_) = src {
                        let mut d =
                            self.project.diag(at.file, &at.path, "a feedback wire needs a signal, not a constant");
                        if let Some(b) = self.scope_block_label(si, &at) {
                            d = d.block(b);
                        }
                        if let Some(p) = Self::pin_label(&at) {
                            d = d.pin(p);
                        }
                        return Err(d);
                    }
                    src = Src::Feedback { src: Box::new(src), init };
                }
            }
        }
        Ok(src)
    }

    fn port_loop(&self, port_at: &At) -> Diagnostic {
        self.project
            .diag(port_at.file, &port_at.path, "wire loops through macro ports without reaching a block")
            .help("a macro output that passes an input straight through is wired back to that input; put a block (MOVE, DELAY) or a feedback wire on the loop")
    }

    /// Index of input port `name` of macro `mi` of file `file` (hashed per macro on first use).
    fn port_index(&mut self, mi: usize, file: usize, name: &str) -> Option<usize> {
        let project = self.project;
        let ports = self.port_names.entry((file, mi)).or_insert_with(|| {
            project.files[file].doc.macros[mi]
                .inputs
                .iter()
                .enumerate()
                .map(|(k, p)| (p.name.as_str(), k))
                .rev()
                .collect()
        });
        ports.get(name).copied()
    }
}
