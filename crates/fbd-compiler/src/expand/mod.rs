//! Macro expansion and name resolution: turns a [`Project`] into a flat netlist of primitive
//! blocks whose every input names its driver directly (a constant, a program input, another
//! block's output, or a feedback wire around one of those).
//!
//! Files: this one (scopes, one per macro instance, and every block's pins), `net.rs` (what
//! expansion produces), `resolve.rs` (a wire followed through macro ports to its driver).

mod net;
mod resolve;

pub(crate) use net::{Alias, At, BlockAt, InLoop, Loc, Net, NetBlock, NetLoop, NetPin, Src, TypeAssert};

use std::borrow::Cow;

use rustc_hash::FxHashMap as HashMap;

use crate::MacroDef;
use crate::Project;
use crate::checks::{check_bodies, list_or_none, output_names};
use crate::hierarchy::check_recursion_and_size;
use crate::st::{Calls, Loops};
use fbd_model::diag::Diagnostic;
use fbd_model::diag::closest;
use fbd_model::json_path;
use fbd_model::library;
use fbd_model::locate::Seg;
use fbd_model::model::{Connector, LeanBlock as Block, LeanPins, PinNames, Wire};
use fbd_model::types::{Literal, Type, Value};
use fbd_plan::InstanceInfo;
use fbd_plan::PathIndex;

/// What a block of a scope's body became: a net block, or the scope of a macro instance.
#[derive(Copy, Clone, Debug)]
enum Entry {
    Prim(u32),
    Inst(u32),
}

struct Scope<'p> {
    prefix: String,
    file: usize,
    /// A macro's body; `None`: the program's, which the expander owns ([`Expander::root`]).
    body: Option<&'p [Block]>,
    /// JSON path of the body's `blocks` array.
    body_at: Vec<Seg>,
    mac: Option<(&'p MacroDef, usize)>,
    /// Parent scope and the instance's index in the parent's body.
    parent: Option<(usize, usize)>,
    /// What each block of the body became, by its index in the body.
    entries: Vec<Entry>,
    /// Block id → index in the body (the ids are not copied: 4 bytes a block).
    index: PathIndex,
    /// The loop the scope's instance is in: where its blocks outside its own loops run.
    in_loop: Option<InLoop>,
}

/// Expands `project`, refusing programs that would grow past `max_blocks` primitive blocks.
/// The program's blocks are taken out of it and consumed: each primitive block's pins are
/// dropped once they are resolved, so the program is not held twice. `loops`: the ST bodies'
/// loops, made once per instance of their body.
pub(crate) fn expand(
    project: &mut Project,
    max_blocks: u64,
    loops: &Loops,
    calls: &Calls,
) -> Result<Net, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    check_bodies(project, &mut errors);
    // Independent of the bodies' mistakes, so reported with them in one pass.
    let (expanded, _) = check_recursion_and_size(project, max_blocks, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let root = std::mem::take(&mut project.files[0].doc.blocks);
    let project: &Project = project;
    let input_index = project.root().inputs.iter().enumerate().rev().map(|(i, p)| (p.name.as_str(), i)).collect();
    let mut ex = Expander {
        project,
        root,
        scopes: Vec::new(),
        // Reserved once: growing by doubling would copy the largest table of the expansion.
        net: Net {
            blocks: Vec::with_capacity(expanded.min(max_blocks) as usize),
            has_loops: !loops.is_empty(),
            ..Net::default()
        },
        errors,
        memo: HashMap::default(),
        visiting: Default::default(),
        input_index,
        port_names: HashMap::default(),
        conn_memo: HashMap::default(),
        conn_names: HashMap::default(),
        holds: Vec::new(),
        body_loops: loops,
        body_calls: calls,
        plain_feedback: false,
        loop_variables: loops
            .iter()
            .flat_map(|(&(f, m), list)| list.iter().flat_map(move |l| l.phis.iter().map(move |&p| (f, m, p))))
            .collect(),
    };
    ex.build_scopes();
    ex.net.first_negation = ex.net.blocks.len();
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
        Src::Const(v) => {
            let v = v.value();
            Src::Const(ty.fit(v).or_else(|_| v.coerce(ty).ok_or(())).unwrap_or(v).into())
        }
        other => other,
    }
}

/// A block's `negated` list, asked once per pin: a set only for a long list, so that a block
/// of many variadic inputs, each negated, stays linear.
enum Negated<'b> {
    Few(&'b PinNames),
    Many(std::collections::HashSet<&'b str>),
}

impl<'b> Negated<'b> {
    fn of(list: &'b PinNames) -> Negated<'b> {
        if list.len() <= 16 { Negated::Few(list) } else { Negated::Many(list.iter().map(String::as_str).collect()) }
    }
    fn has(&self, pin: &str) -> bool {
        match self {
            Negated::Few(list) => list.has(pin),
            Negated::Many(set) => set.contains(pin),
        }
    }
}

/// The error of a DELAY under an EN, at the block.
fn diag_at_block(project: &Project, at: BlockAt, path: &str) -> Diagnostic {
    crate::diag_at(project, &at.at(), format!("DELAY `{path}` is under an EN, which a DELAY cannot honour")).block(path)
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
    /// The program's blocks, taken from the project: their pins are consumed as resolved.
    root: Vec<Block>,
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
    /// What each connector of each scope resolved to.
    conn_memo: HashMap<resolve::ConnKey, Src>,
    /// (file, macro or `None` for the program) → connector name → index.
    conn_names: HashMap<(usize, Option<usize>), HashMap<&'p str, usize>>,
    /// The MOVEs that hold an output of an instance under an EN (net block, the instance's
    /// scope): they get the scope's ENs once those are resolved.
    holds: Vec<(u32, usize)>,
    /// The ST bodies' loops, by body.
    body_loops: &'p Loops,
    /// The ST bodies' instances called again, by body.
    body_calls: &'p Calls,
    /// Resolving a loop variable's `in1`: a feedback wire is not held under an EN.
    plain_feedback: bool,
    /// Every loop variable: (file, macro, index in the body).
    loop_variables: rustc_hash::FxHashSet<(usize, Option<usize>, usize)>,
}

impl<'p> Expander<'p> {
    fn build_scopes(&mut self) {
        self.scopes.push(Scope {
            prefix: String::new(),
            file: 0,
            body: None,
            body_at: json_path!["blocks"].to_vec(),
            mac: None,
            parent: None,
            entries: Vec::new(),
            index: PathIndex::default(),
            in_loop: None,
        });
        let mut si = 0;
        while si < self.scopes.len() {
            let (prefix, file, mac_index) = {
                let s = &self.scopes[si];
                (s.prefix.clone(), s.file, s.mac.map(|(_, mi)| mi))
            };
            let where_ = self.scope_loops(si, file, mac_index);
            let body: &[Block] = self.scopes[si].body.unwrap_or(&self.root);
            let mut entries = Vec::with_capacity(body.len());
            for (bi, b) in body.iter().enumerate() {
                let here = where_.get(bi).copied().unwrap_or(self.scopes[si].in_loop);
                let at = BlockAt::new(file, mac_index, bi);
                let mut path = String::with_capacity(prefix.len() + b.id.len());
                path.push_str(&prefix);
                path.push_str(&b.id);
                let entry = if let Some(def) = library::lookup(&b.ty) {
                    let n_out = b.params().n.unwrap_or(0) as usize;
                    let n_var_out = if def.var_outputs.is_some() { n_out } else { 0 };
                    let mut nb = NetBlock::new(path.into_boxed_str(), def, at, n_var_out as u32)
                        .with_params(b.params(), b.order());
                    nb.data_type = b.data_type().map(|t| t.0);
                    if !b.negated().is_empty() {
                        let negated = Negated::of(b.negated());
                        let neg: Vec<bool> = (0..nb.n_outputs()).map(|k| negated.has(&nb.output_name(k))).collect();
                        if neg.contains(&true) {
                            self.net.neg_out.insert(self.net.blocks.len() as u32, neg.into_boxed_slice());
                        }
                    }
                    self.net.push(nb, here);
                    Entry::Prim(self.net.blocks.len() as u32 - 1)
                } else {
                    let (mf, mi, m) = self.project.macro_def(&b.ty).expect("checked by check_bodies");
                    self.net.instances.push(InstanceInfo { path: path.clone(), macro_name: m.name.clone() });
                    self.scopes.push(Scope {
                        prefix: format!("{path}/"),
                        file: mf,
                        body: Some(&m.blocks),
                        body_at: json_path!["macros", mi, "blocks"].to_vec(),
                        mac: Some((m, mi)),
                        parent: Some((si, bi)),
                        entries: Vec::new(),
                        index: PathIndex::default(),
                        in_loop: here,
                    });
                    Entry::Inst(self.scopes.len() as u32 - 1)
                };
                entries.push(entry);
            }
            let index = PathIndex::build(body.len(), |i| &body[i as usize].id);
            self.link_loops(si, file, mac_index, &entries);
            self.link_calls(file, mac_index, &entries);
            self.scopes[si].entries = entries;
            self.scopes[si].index = index;
            si += 1;
        }
    }

    /// The loops of scope `si`'s body made for this instance of it (their tests and loop
    /// variables linked once its blocks are made), and per block of the body the innermost
    /// one it is in (empty when the body has none).
    fn scope_loops(&mut self, si: usize, file: usize, mac: Option<usize>) -> Vec<Option<InLoop>> {
        let Some(list) = self.body_loops.get(&(file, mac)) else { return Vec::new() };
        let first = self.net.loops.len() as u32;
        let len = self.body(si).len();
        let mut here: Vec<Option<InLoop>> = vec![self.scopes[si].in_loop; len];
        // Outer loops first: an inner loop's blocks are inside its outer loop's ranges and end
        // up marked by the inner one. A loop is recorded when it ends, so inner ones come first
        // in the list; ordered by size, outer ones (larger) come first.
        let mut by_size: Vec<usize> = (0..list.len()).collect();
        by_size.sort_by_key(|&k| std::cmp::Reverse(list[k].body.end - list[k].head.start));
        let mut parent = vec![self.scopes[si].in_loop; list.len()];
        for &k in &by_size {
            let l = &list[k];
            parent[k] = here.get(l.head.start).copied().flatten().or(self.scopes[si].in_loop);
            for (b, h) in here.iter_mut().enumerate().take(l.body.end).skip(l.head.start) {
                *h = Some(InLoop { loop_: first + k as u32, body: b >= l.body.start });
            }
        }
        for p in parent {
            self.net.loops.push(NetLoop { parent: p, test: u32::MAX, phis: Vec::new(), guard: None });
        }
        here
    }

    /// Each loop of scope `si`'s body linked to its test and loop variables, now net blocks.
    fn link_loops(&mut self, si: usize, file: usize, mac: Option<usize>, entries: &[Entry]) {
        let Some(list) = self.body_loops.get(&(file, mac)) else { return };
        let first = self.net.loops.len() - list.len();
        let prim = |b: usize| match entries.get(b) {
            Some(Entry::Prim(n)) => *n,
            _ => u32::MAX,
        };
        for (k, l) in list.iter().enumerate() {
            let nl = &mut self.net.loops[first + k];
            nl.test = prim(l.test);
            nl.phis = l.phis.iter().map(|&p| prim(p)).collect();
            nl.guard = l.guard.map(prim);
        }
        let _ = si;
    }

    /// Each call of an instance after its first in this instance of the body: its block
    /// sharing the instance's slots, run after what it must follow.
    fn link_calls(&mut self, file: usize, mac: Option<usize>, entries: &[Entry]) {
        let Some(list) = self.body_calls.get(&(file, mac)) else { return };
        let prim = |b: usize| match entries.get(b) {
            Some(Entry::Prim(n)) => Some(*n),
            _ => None,
        };
        for c in list {
            let (Some(block), Some(of)) = (prim(c.block), prim(c.of)) else { continue };
            self.net.shares.insert(block, of);
            self.net.after.insert(block, c.after.iter().filter_map(|&a| prim(a)).collect());
        }
    }

    /// Whether the block at `at` of scope `si`'s body is a loop variable of an ST loop.
    fn is_loop_variable(&self, si: usize, at: BlockAt) -> bool {
        let (file, mac) = (self.scopes[si].file, self.scopes[si].mac.map(|(_, mi)| mi));
        !self.loop_variables.is_empty() && self.loop_variables.contains(&(file, mac, at.key().1))
    }

    /// The body of scope `si`.
    fn body(&self, si: usize) -> &[Block] {
        self.scopes[si].body.unwrap_or(&self.root)
    }

    /// What the block `id` of scope `si`'s body became.
    fn entry(&self, si: usize, id: &str) -> Option<Entry> {
        let (s, body) = (&self.scopes[si], self.body(si));
        s.index.get(id, |i| &body[i as usize].id).map(|i| s.entries[i as usize])
    }

    /// The pins of net block `ni`, written in scope `si` at `block_at` as `inputs`, each
    /// resolved to its driver (a default for an unconnected fixed pin).
    fn resolve_pins(
        &mut self,
        si: usize,
        ni: u32,
        block_at: BlockAt,
        inputs: &LeanPins,
        negated: &PinNames,
    ) -> Vec<NetPin> {
        let def = self.net.blocks[ni as usize].def;
        // Sized for the fixed pins, trimmed after the variadic ones: a large program holds one
        // of these per block.
        let mut pins = Vec::with_capacity(def.inputs.len());
        let negated = Negated::of(negated);
        // A loop variable's `in1` is the iteration's end, copied back in the same scan: a
        // feedback wire to it is not held under an instance's EN like a previous scan's value
        // (the loop runs only while the instance is called).
        let phi = self.is_loop_variable(si, block_at);
        for p in def.inputs {
            let negate = negated.has(p.name);
            match inputs.get(p.name) {
                Some(w) => {
                    self.plain_feedback = phi && p.name == "in1";
                    let src = self.resolve(si, w, Loc::Pin { block: block_at, pin: p.name });
                    self.plain_feedback = false;
                    pins.push(NetPin { ty: p.ty, src, negate });
                }
                None => {
                    let v = p.default.unwrap_or(Value::Bool(false));
                    pins.push(NetPin { ty: p.ty, src: Src::Const(v.into()), negate });
                }
            }
        }
        if let Some(va) = def.var_inputs {
            for k in 0.. {
                let name = format!("{}{}", va.prefix, va.first + k);
                let Some(w) = inputs.get(&name) else { break };
                let src = self.resolve(si, w, Loc::Pin { block: block_at, pin: &name });
                pins.push(NetPin { ty: va.ty, src, negate: negated.has(&name) });
            }
        }
        pins.shrink_to_fit();
        pins
    }

    /// What drives the EN of block `bi` of scope `si`'s body, if it has one (a macro that
    /// declares a port `EN` has that port instead); the driver must be a BOOL.
    fn enable(&mut self, si: usize, bi: usize) -> Option<Src> {
        let b = &self.body(si)[bi];
        let wire = b.inputs.get(library::ENABLE)?.clone();
        if let Some((_, _, m)) = self.project.macro_def(&b.ty)
            && m.inputs.iter().any(|p| p.name == library::ENABLE)
        {
            return None;
        }
        let (file, mac_index) = (self.scopes[si].file, self.scopes[si].mac.map(|(_, mi)| mi));
        let block_at = BlockAt::new(file, mac_index, bi);
        let src = self.resolve(si, &wire, Loc::Pin { block: block_at, pin: library::ENABLE });
        let src = coerce_const(src, Type::Bool);
        let id = &self.body(si)[bi].id;
        let what = format!("EN of block `{}{id}`", self.scopes[si].prefix);
        let at = block_at.join(json_path!["inputs", library::ENABLE]);
        self.net.asserts.push(TypeAssert { src: src.clone(), ty: Type::Bool, at, what });
        Some(src)
    }

    /// The ENs every block of each scope is under: its instance's parent's, then the
    /// instance's own (scopes come after their parents).
    fn scope_gates(&mut self) -> Vec<Vec<Src>> {
        let mut gates: Vec<Vec<Src>> = vec![Vec::new(); self.scopes.len()];
        for si in 1..self.scopes.len() {
            let (ps, pbi) = self.scopes[si].parent.expect("non-root scopes are instances");
            let mut g = gates[ps].clone();
            g.extend(self.enable(ps, pbi));
            gates[si] = g;
        }
        gates
    }

    /// Records the ENs net block `ni` (block `bi` of scope `si`) is under. A DELAY is refused
    /// under one: its output is the last scan's input whether it was called or not.
    fn gate(&mut self, si: usize, bi: usize, ni: u32, scope_gates: &[Src]) {
        let mut gates = scope_gates.to_vec();
        let own = self.enable(si, bi);
        if own.is_some() {
            self.net.own_gate.insert(ni);
        }
        gates.extend(own);
        if gates.is_empty() {
            return;
        }
        let b = &self.net.blocks[ni as usize];
        if b.def.kind == library::Kind::Delay {
            let d = diag_at_block(self.project, b.at, &b.path)
                .help("a DELAY's output is the previous scan's input, called or not; under an EN use MEMORY (its `en` pin) or a feedback wire");
            self.errors.push(d);
            return;
        }
        self.net.gates.insert(ni, gates.into_boxed_slice());
    }

    fn resolve_all(&mut self) {
        let scope_gates = self.scope_gates();
        self.resolve_pins_and_ports(&scope_gates);
        for (ni, si) in std::mem::take(&mut self.holds) {
            if !scope_gates[si].is_empty() {
                self.net.gates.insert(ni, scope_gates[si].clone().into_boxed_slice());
            }
        }
    }

    /// Whether the instance of scope `si`, or one around it, has an EN (looked up, not
    /// resolved: the ENs are resolved after the ports they may read).
    fn under_en(&self, mut si: usize) -> bool {
        while let Some((ps, pbi)) = self.scopes[si].parent {
            let b = &self.body(ps)[pbi];
            let own = self
                .project
                .macro_def(&b.ty)
                .is_some_and(|(_, _, m)| m.inputs.iter().any(|p| p.name == library::ENABLE));
            if b.inputs.get(library::ENABLE).is_some() && !own {
                return true;
            }
            si = ps;
        }
        false
    }

    fn resolve_pins_and_ports(&mut self, scope_gates: &[Vec<Src>]) {
        // Primitive block inputs.
        for (si, scope_gates) in scope_gates.iter().enumerate() {
            let (file, mac_index) = (self.scopes[si].file, self.scopes[si].mac.map(|(_, mi)| mi));
            for bi in 0..self.body(si).len() {
                let Entry::Prim(ni) = self.scopes[si].entries[bi] else { continue };
                self.gate(si, bi, ni, scope_gates);
                let block_at = BlockAt::new(file, mac_index, bi);
                let pins = match self.scopes[si].body {
                    Some(body) => self.resolve_pins(si, ni, block_at, &body[bi].inputs, body[bi].negated()),
                    None => {
                        // The program's own block: its pins are not read again once resolved.
                        let b = &mut self.root[bi];
                        let (inputs, negated) = (std::mem::take(&mut b.inputs), b.negated().clone());
                        self.resolve_pins(si, ni, block_at, &inputs, &negated)
                    }
                };
                self.net.blocks[ni as usize].inputs = pins.into_boxed_slice();
            }
        }
        // Connectors no continuation reads: their `from` is checked all the same.
        for si in 0..self.scopes.len() {
            let (file, mac) = (self.scopes[si].file, self.scopes[si].mac);
            let list: &'p [Connector] = match mac {
                None => &self.project.files[0].doc.connectors,
                Some((m, _)) => &m.connectors,
            };
            for (k, c) in list.iter().enumerate() {
                let at = match mac {
                    None => At::new(file, json_path!["connectors", k, "name"]),
                    Some((_, mi)) => At::new(file, json_path!["macros", mi, "connectors", k, "name"]),
                };
                let src = match self.conn_memo.get(&(si, k)) {
                    Some(s) => s.clone(),
                    None => self.resolve(si, &Wire::Connector(c.name.clone()), Loc::At(&at)),
                };
                let path = format!("{}{}", self.scopes[si].prefix, c.name);
                self.net.connectors.push(Alias { path, src, negated: false });
            }
        }
        // Macro instance pins, as aliases for the debugger (and to report bad output ports).
        for si in 1..self.scopes.len() {
            let (m, mi) = self.scopes[si].mac.expect("non-root scopes are instances");
            let file = self.scopes[si].file;
            let inst_path = self.scopes[si].prefix.trim_end_matches('/').to_string();
            for (k, p) in m.inputs.iter().enumerate() {
                let at = At::new(file, json_path!["macros", mi, "inputs", k]);
                // A negated pin shows what the inside gets (after the circle): the instance's
                // body, opened in the online view, shows its port so.
                let src = self.resolve(si, &Wire::Ref(p.name.clone()), Loc::At(&at));
                let negated = self.negated_port(si, &p.name).is_some();
                self.net.macro_pins.push(Alias { path: format!("{inst_path}.{}", p.name), src, negated });
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
                // A negated output shows the instance's own output, as Beremiz's and CODESYS's
                // debuggers do (the negation belongs to the connection); its readers read the
                // NOT made here (or by the first of them).
                let negate = self.negated_port(si, &p.name);
                let negated = negate.is_some();
                let key = PortKey { scope: si, output: true, port: k };
                // Under an EN the output holds (`inst/port:hold`, made once: by a reader that
                // came first, or here, for the readers after).
                let own = match self.memo.get(&key).cloned() {
                    Some(Src::Out { block, .. }) if negated => self.net.blocks[block].inputs[0].src.clone(),
                    Some(Src::Const(Literal::Bool(v))) if negated => Src::Const(Literal::Bool(!v)),
                    Some(read) if !negated => read,
                    _ => {
                        let own = if self.under_en(si) { self.hold(src, key, p.ty.0) } else { src };
                        let read = match negate {
                            Some((path, nat)) => self.negation(own.clone(), path, nat, self.scopes[si].in_loop),
                            None => own.clone(),
                        };
                        self.memo.insert(key, read);
                        own
                    }
                };
                self.net.macro_pins.push(Alias { path: format!("{inst_path}.{}", p.name), src: own, negated });
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
            self.net.outputs.push(Alias { path: p.name.clone(), src, negated: false });
        }
    }
}
