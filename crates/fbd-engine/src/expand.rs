//! Macro expansion and name resolution: turns a [`Project`] into a flat netlist of primitive
//! blocks whose every input names its driver directly (a constant, a program input, another
//! block's output, or a feedback wire around one of those).

use std::borrow::Cow;

use rustc_hash::FxHashMap as HashMap;

use crate::checks::{check_bodies, closest, list_or_none, output_names};
use crate::diag::Diagnostic;
use crate::json_path;
use crate::library::{self, BlockDef, PinTy};
use crate::limits::check_recursion_and_size;
use crate::load::Project;
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
/// Twelve bytes: a large program has one per block.
#[derive(Copy, Clone, Debug)]
pub(crate) struct BlockAt {
    pub file: u32,
    /// The macro whose body holds the block; `u32::MAX`: the program's.
    mac: u32,
    index: u32,
}

impl BlockAt {
    fn new(file: usize, mac: Option<usize>, index: usize) -> BlockAt {
        // The loader's file size limit keeps every index far below u32::MAX.
        BlockAt { file: file as u32, mac: mac.map_or(u32::MAX, |m| m as u32), index: index as u32 }
    }

    /// The file index.
    pub fn file(&self) -> usize {
        self.file as usize
    }

    /// The key of [`crate::locate::BlockPositions`].
    pub fn key(&self) -> crate::locate::BlockKey {
        ((self.mac != u32::MAX).then_some(self.mac as usize), self.index as usize)
    }

    /// The block object's place.
    pub fn at(&self) -> At {
        let path = match self.key() {
            (None, i) => json_path!["blocks", i].to_vec(),
            (Some(m), i) => json_path!["macros", m, "blocks", i].to_vec(),
        };
        At { file: self.file(), path }
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

/// One input pin of a net block (its name: [`NetBlock::input_name`]).
#[derive(Clone, Debug)]
pub(crate) struct NetPin {
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
}

impl NetBlock {
    /// Number of outputs, fixed then variadic.
    pub fn n_outputs(&self) -> usize {
        self.def.outputs.len() + self.n_var_out
    }

    /// Name of input `k`: the fixed pins, then the variadic ones (`in1`, `in2`, ...).
    pub fn input_name(&self, k: usize) -> Cow<'static, str> {
        match self.def.inputs.get(k) {
            Some(p) => Cow::Borrowed(p.name),
            None => {
                let v = self.def.var_inputs.expect("index within the block's inputs");
                Cow::Owned(format!("{}{}", v.prefix, v.first + k - self.def.inputs.len()))
            }
        }
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
    let expanded = check_recursion_and_size(project, max_blocks, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let input_index = project.root().inputs.iter().enumerate().rev().map(|(i, p)| (p.name.as_str(), i)).collect();
    let mut ex = Expander {
        project,
        scopes: Vec::new(),
        // Reserved once: growing by doubling would copy the largest table of the expansion.
        net: Net { blocks: Vec::with_capacity(expanded.min(max_blocks) as usize), ..Net::default() },
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
            self.scopes[si].entries.reserve(body.len());
            for (bi, b) in body.iter().enumerate() {
                let at = BlockAt::new(file, mac_index, bi);
                let mut path = String::with_capacity(prefix.len() + b.id.len());
                path.push_str(&prefix);
                path.push_str(&b.id);
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
                // Sized for the fixed pins, trimmed after the variadic ones: a large program
                // holds one of these per block.
                let mut pins = Vec::with_capacity(def.inputs.len());
                for p in def.inputs {
                    match b.inputs.get(p.name) {
                        Some(w) => {
                            let src = self.resolve(si, w, Loc::Pin { block: block_at, pin: p.name });
                            pins.push(NetPin { ty: p.ty, src });
                        }
                        None => {
                            let v = p.default.unwrap_or(Value::Bool(false));
                            pins.push(NetPin { ty: p.ty, src: Src::Const(v) });
                        }
                    }
                }
                if let Some(va) = def.var_inputs {
                    for k in 0.. {
                        let name = format!("{}{}", va.prefix, va.first + k);
                        let Some(w) = b.inputs.get(&name) else { break };
                        let src = self.resolve(si, w, Loc::Pin { block: block_at, pin: &name });
                        pins.push(NetPin { ty: va.ty, src });
                    }
                }
                pins.shrink_to_fit();
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
