//! The compiler: diagram → [`ScanPlan`].
//!
//! Stages: load (with includes) → expand macros and resolve names (`expand.rs`) → infer and
//! check types → order by data flow, rejecting loops without a feedback point → allocate typed
//! slots and emit instructions, grouped by kind inside each data-flow level.

use std::collections::VecDeque;
use std::time::Instant;

use rustc_hash::FxHashMap as HashMap;
use std::path::Path;

use crate::diag::{Diagnostic, Diagnostics};
use crate::exec::{CmpOp, Instr};
use crate::expand::{self, At, Net, Src};
use crate::library::{Generic, Kind, PinTy};
use crate::load::{self, FsProvider, MemProvider, Project, SourceProvider};
use crate::plan::{BlockInfo, Commit, PhaseTimes, PlanStats, PortInfo, ScanPlan, SignalInfo, SignalKind, Slot};
use crate::types::{Type, Value};

/// Compiler settings.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Largest number of primitive blocks a program may expand to (expansion-bomb guard).
    pub max_blocks: u64,
    /// Group instructions of one kind inside each data-flow level (faster; on by default).
    pub group_by_kind: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions { max_blocks: 2_000_000, group_by_kind: true }
    }
}

/// Loads and compiles the diagram at `path` from disk.
pub fn compile_file(path: impl AsRef<Path>, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    let project = load::load(&FsProvider, path.as_ref())?;
    compile_project(&project, opts)
}

/// Compiles diagram text; `path` names it in errors and anchors relative includes, which are
/// read through `provider`.
pub fn compile_str(
    provider: &dyn SourceProvider,
    path: impl AsRef<Path>,
    text: &str,
    opts: &CompileOptions,
) -> Result<ScanPlan, Diagnostics> {
    let project = load::load_text(provider, path.as_ref(), text.to_string())?;
    compile_project(&project, opts)
}

/// Compiles a self-contained diagram given as text (no includes).
pub fn compile(text: &str) -> Result<ScanPlan, Diagnostics> {
    compile_str(&MemProvider::new(), "<memory>", text, &CompileOptions::default())
}

/// Compiles a loaded project.
pub fn compile_project(project: &Project, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    let t0 = Instant::now();
    let net = expand::expand(project, opts.max_blocks).map_err(Diagnostics)?;
    let t1 = Instant::now();
    let types = infer_types(project, &net).map_err(Diagnostics)?;
    let t2 = Instant::now();
    let (order, levels) = order_blocks(project, &net, &types, opts).map_err(Diagnostics)?;
    let t3 = Instant::now();
    let mut plan = emit(project, &net, &types, &order, &levels);
    plan.stats.phases = PhaseTimes { expand: t1 - t0, types: t2 - t1, order: t3 - t2, emit: t3.elapsed() };
    Ok(plan)
}

fn diag_at(project: &Project, at: &At, msg: impl Into<String>) -> Diagnostic {
    project.diag(at.file, &at.path, msg)
}

// ---------------------------------------------------------------------------------------------
// Types

/// The resolved type variable of each block (`None` for non-generic blocks).
type Tvars = Vec<Option<Type>>;

fn out_type(net: &Net, t: &Tvars, block: usize, pin: usize) -> Option<Type> {
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

fn src_block(s: &Src) -> Option<usize> {
    match s {
        Src::Out { block, .. } => Some(*block),
        Src::Feedback { src, .. } => src_block(src),
        _ => None,
    }
}

fn infer_types(project: &Project, net: &Net) -> Result<Tvars, Vec<Diagnostic>> {
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
            let mut soft: Option<Type> = b.params.init.map(|c| c.0.ty());
            for p in b.inputs.iter().filter(|p| p.ty == PinTy::T) {
                if let Some((ty, _)) = src_type(project, net, &t, &p.src) {
                    soft = Some(match (soft, ty) {
                        (Some(Type::Real), _) | (_, Type::Real) => Type::Real,
                        (Some(Type::Int), _) | (_, Type::Int) => Type::Int,
                        _ => ty,
                    });
                }
            }
            if let Some(ty) = soft {
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
                    let hint = b.params.init.map(|c| c.0.ty()).or_else(|| {
                        b.inputs.iter().filter(|p| p.ty == PinTy::T).find_map(|p| match &p.src {
                            Src::Const(v) => Some(v.ty()),
                            _ => None,
                        })
                    });
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

// ---------------------------------------------------------------------------------------------
// Order

/// Whether reading this source orders the reader after the source block in the same scan.
fn ordering_pred(net: &Net, s: &Src) -> Option<usize> {
    match s {
        Src::Out { block, pin } => {
            let b = &net.blocks[*block];
            let delayed = b.def.outputs.get(*pin).is_some_and(|p| p.delayed);
            if delayed { None } else { Some(*block) }
        }
        _ => None,
    }
}

fn order_blocks(
    project: &Project,
    net: &Net,
    t: &Tvars,
    opts: &CompileOptions,
) -> Result<(Vec<usize>, Vec<u32>), Vec<Diagnostic>> {
    let n = net.blocks.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indeg = vec![0u32; n];
    for (i, b) in net.blocks.iter().enumerate() {
        if b.def.kind == Kind::Delay {
            continue; // DELAY only copies at the end of the scan.
        }
        for p in &b.inputs {
            if let Some(s) = ordering_pred(net, &p.src) {
                succ[s].push(i);
                indeg[i] += 1;
            }
        }
    }
    let mut level = vec![0u32; n];
    let mut queue: VecDeque<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
    let mut seen = 0;
    while let Some(i) = queue.pop_front() {
        seen += 1;
        for &j in &succ[i] {
            level[j] = level[j].max(level[i] + 1);
            indeg[j] -= 1;
            if indeg[j] == 0 {
                queue.push_back(j);
            }
        }
    }
    if seen < n {
        return Err(report_cycles(project, net, &succ, &indeg));
    }
    let order = if opts.group_by_kind {
        schedule_by_kind(net, t, &succ)
    } else {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (level[i], net.blocks[i].order, i));
        order
    };
    Ok((order, level))
}

/// A topological order that keeps instructions of one kind together: among the blocks whose
/// inputs are all computed, take the kind with the most of them and run that kind until none
/// of it is ready; repeat. Any topological order gives the same results (a block only reads
/// what is already computed), so this choice only changes speed: long runs of one kind keep the
/// executor's dispatch branch predictable. Ties: kind order, then `order`, then file order.
fn schedule_by_kind(net: &Net, t: &Tvars, succ: &[Vec<usize>]) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = net.blocks.len();
    let key = |i: usize| (net.blocks[i].def.kind, t[i]);
    let mut kinds: Vec<(Kind, Option<Type>)> = (0..n).map(key).collect();
    kinds.sort();
    kinds.dedup();
    let kind_of: Vec<usize> = (0..n).map(|i| kinds.binary_search(&key(i)).unwrap_or(0)).collect();
    let mut indeg = vec![0u32; n];
    for s in succ {
        for &j in s {
            indeg[j] += 1;
        }
    }
    let mut ready: Vec<BinaryHeap<Reverse<(i64, usize)>>> = vec![BinaryHeap::new(); kinds.len()];
    let prio = |i: usize| Reverse((net.blocks[i].order.unwrap_or(0), i));
    for i in (0..n).filter(|&i| indeg[i] == 0) {
        ready[kind_of[i]].push(prio(i));
    }
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let Some(k) = (0..kinds.len()).filter(|&k| !ready[k].is_empty()).max_by_key(|&k| (ready[k].len(), Reverse(k)))
        else {
            break; // unreachable for an acyclic graph
        };
        while let Some(Reverse((_, i))) = ready[k].pop() {
            order.push(i);
            for &j in &succ[i] {
                indeg[j] -= 1;
                if indeg[j] == 0 {
                    ready[kind_of[j]].push(prio(j));
                }
            }
        }
    }
    order
}

/// Names every block on every loop that has no feedback point (Tarjan's strongly connected
/// components over the blocks Kahn's algorithm could not order).
fn report_cycles(project: &Project, net: &Net, succ: &[Vec<usize>], indeg: &[u32]) -> Vec<Diagnostic> {
    let n = net.blocks.len();
    let stuck: Vec<bool> = indeg.iter().map(|&d| d > 0).collect();
    // Iterative Tarjan.
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut sccs: Vec<Vec<usize>> = Vec::new();
    for root in (0..n).filter(|&i| stuck[i]) {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k < succ[v].len() {
                let w = succ[v][*k];
                *k += 1;
                if !stuck[w] {
                    continue;
                }
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let is_cycle = comp.len() > 1 || succ[v].contains(&v);
                    if is_cycle {
                        comp.sort_unstable();
                        sccs.push(comp);
                    }
                }
            }
        }
    }
    sccs.sort();
    sccs.iter()
        .map(|comp| {
            let in_comp: std::collections::HashSet<usize> = comp.iter().copied().collect();
            // Shortest cycle through the first block, by BFS back to it.
            let start = comp[0];
            let mut prev: HashMap<usize, usize> = HashMap::default();
            let mut q = VecDeque::from([start]);
            let mut found = false;
            'bfs: while let Some(v) = q.pop_front() {
                for &w in &succ[v] {
                    if !in_comp.contains(&w) {
                        continue;
                    }
                    if w == start {
                        prev.insert(usize::MAX, v);
                        found = true;
                        break 'bfs;
                    }
                    if let std::collections::hash_map::Entry::Vacant(e) = prev.entry(w) {
                        e.insert(v);
                        q.push_back(w);
                    }
                }
            }
            let mut cycle = vec![start];
            if found {
                let mut v = prev[&usize::MAX];
                let mut back = Vec::new();
                while v != start {
                    back.push(v);
                    v = prev[&v];
                }
                back.reverse();
                cycle.extend(back);
            }
            cycle.push(start);
            let names: Vec<&str> = cycle.iter().map(|&i| net.blocks[i].path.as_str()).collect();
            let all: Vec<&str> = comp.iter().map(|&i| net.blocks[i].path.as_str()).collect();
            let b = &net.blocks[start];
            let mut msg = format!("loop without a feedback point: {}", names.join(" -> "));
            if all.len() + 1 > names.len() {
                msg.push_str(&format!("; blocks on the loop: {}", all.join(", ")));
            }
            diag_at(project, &b.at.at(), msg).block(&b.path).help(
                "mark one wire of the loop as feedback ({\"from\": \"blk.pin\", \"feedback\": true, \"init\": ...}), \
                 or read MEMORY.prev / a DELAY block: the loop then sees the previous scan's value",
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Emission

struct Slots {
    init_b: Vec<bool>,
    init_i: Vec<i64>,
    init_r: Vec<f64>,
    consts: HashMap<(Type, u64), u32>,
}

impl Slots {
    fn alloc(&mut self, v: Value) -> Slot {
        match v {
            Value::Bool(b) => {
                self.init_b.push(b);
                Slot { ty: Type::Bool, idx: self.init_b.len() as u32 - 1 }
            }
            Value::Int(i) => {
                self.init_i.push(i);
                Slot { ty: Type::Int, idx: self.init_i.len() as u32 - 1 }
            }
            Value::Real(r) => {
                self.init_r.push(r);
                Slot { ty: Type::Real, idx: self.init_r.len() as u32 - 1 }
            }
        }
    }
    fn init_of(&self, s: Slot) -> Value {
        match s.ty {
            Type::Bool => Value::Bool(self.init_b[s.idx as usize]),
            Type::Int => Value::Int(self.init_i[s.idx as usize]),
            Type::Real => Value::Real(self.init_r[s.idx as usize]),
        }
    }

    fn constant(&mut self, v: Value) -> Slot {
        let bits = match v {
            Value::Bool(b) => b as u64,
            Value::Int(i) => i as u64,
            Value::Real(r) => r.to_bits(),
        };
        if let Some(&idx) = self.consts.get(&(v.ty(), bits)) {
            return Slot { ty: v.ty(), idx };
        }
        let s = self.alloc(v);
        self.consts.insert((v.ty(), bits), s.idx);
        s
    }
}

fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn emit(project: &Project, net: &Net, t: &Tvars, order: &[usize], levels: &[u32]) -> ScanPlan {
    let mut slots = Slots { init_b: Vec::new(), init_i: Vec::new(), init_r: Vec::new(), consts: HashMap::default() };
    let root = project.root();
    let mut signals: Vec<SignalInfo> = Vec::new();

    // Program inputs.
    let mut inputs = Vec::new();
    let mut input_slots = Vec::new();
    for p in &root.inputs {
        let ty = p.ty.0;
        let default = p.default.and_then(|c| c.0.coerce(ty)).unwrap_or(ty.zero());
        let slot = slots.alloc(default);
        input_slots.push(slot);
        signals.push(SignalInfo { path: p.name.clone(), slot, kind: SignalKind::ProgramInput });
        inputs.push(PortInfo { name: p.name.clone(), ty, slot, default, kind: p.kind, options: p.options.clone() });
    }

    // Outputs and state of every block, in plan order so that slots are touched in order.
    let n = net.blocks.len();
    let mut out_slots: Vec<Vec<Slot>> = vec![Vec::new(); n];
    let mut state_slots: Vec<Vec<Slot>> = vec![Vec::new(); n];
    for &i in order {
        let b = &net.blocks[i];
        let tv = t[i];
        let init = b.params.init.and_then(|c| tv.and_then(|ty| c.0.coerce(ty)).or(Some(c.0)));
        for k in 0..b.n_outputs() {
            let name = b.output_name(k);
            let ty = out_type(net, t, i, k).unwrap_or(Type::Bool);
            let v = match (b.def.kind, init) {
                (Kind::Memory | Kind::Delay | Kind::Sr | Kind::Rs, Some(v)) => v,
                _ => ty.zero(),
            };
            let s = slots.alloc(v);
            out_slots[i].push(s);
            signals.push(SignalInfo { path: format!("{}.{name}", b.path), slot: s, kind: SignalKind::BlockOutput });
        }
        for (_, ty) in b.def.state {
            state_slots[i].push(slots.alloc(ty.zero()));
        }
    }

    // Sources to slots; feedback wires get a delayed slot each (shared by equal wires).
    let mut commits: Vec<Commit> = Vec::new();
    let mut srcs =
        SourceSlots { project, net, input_slots, out_slots, feedback: HashMap::default(), fb_signals: Vec::new() };

    let mut code = Vec::with_capacity(n);
    let mut args: Vec<u32> = Vec::new();
    let mut instr_block: Vec<u32> = Vec::with_capacity(n);
    let mut rng_keys = Vec::new();
    let mut blocks: Vec<BlockInfo> = Vec::with_capacity(n);
    let mut block_pos = vec![0usize; n];
    let mut input_signals: Vec<SignalInfo> = Vec::new();
    let mut max_level = 0;
    let mut positions: HashMap<usize, HashMap<crate::locate::BlockKey, (usize, usize)>> = HashMap::default();

    for &i in order {
        let b = &net.blocks[i];
        let ins: Vec<Slot> = b.inputs.iter().map(|p| srcs.slot(&p.src, &mut slots, &mut commits)).collect();
        let outs = &srcs.out_slots[i];
        let ty = t[i].unwrap_or(Type::Bool);
        let ops = Operands { ins: &ins, outs, state: &state_slots[i], ty };
        let (instr, rng) = select_instruction(
            b,
            &ops,
            &mut Emitted { slots: &mut slots, args: &mut args, commits: &mut commits, rng_keys: &mut rng_keys },
        );
        let instr_idx = instr.map(|ins| {
            code.push(ins);
            instr_block.push(blocks.len() as u32);
            code.len() as u32 - 1
        });
        // Signals of the input pins (aliases of their drivers).
        let mut in_sig = Vec::with_capacity(b.inputs.len());
        for (k, p) in b.inputs.iter().enumerate() {
            let path = format!("{}.{}", b.path, p.name);
            let kind = if matches!(p.src, Src::Const(_)) { SignalKind::Constant } else { SignalKind::BlockInput };
            in_sig.push((signals.len() + input_signals.len()) as u32);
            input_signals.push(SignalInfo { path, slot: ins[k], kind });
        }
        max_level = max_level.max(levels[i]);
        let mut state: Vec<Slot> = Vec::new();
        if b.def.stateful {
            state.extend(outs.iter().copied());
            state.extend(state_slots[i].iter().copied());
        }
        block_pos[i] = blocks.len();
        let file_pos = positions
            .entry(b.at.file)
            .or_insert_with(|| crate::locate::block_positions(&project.files[b.at.file].text));
        let line = file_pos.get(&b.at.key).map(|p| p.0);
        blocks.push(BlockInfo {
            path: b.path.clone(),
            type_name: b.def.name,
            kind: b.def.kind,
            data_type: t[i],
            file: b.at.file as u32,
            line,
            pos: b.pos,
            inputs: in_sig,
            outputs: Vec::with_capacity(b.n_outputs()),
            state,
            instr: instr_idx,
            rng,
            level: levels[i],
        });
    }
    // Output signals were pushed first in plan order; link them to the blocks.
    let mut sig_i = inputs.len();
    for &i in order {
        let bi = block_pos[i];
        for _ in 0..net.blocks[i].n_outputs() {
            blocks[bi].outputs.push(sig_i as u32);
            sig_i += 1;
        }
    }
    signals.extend(input_signals);
    let mut outputs = Vec::new();
    let mut alias_signals = Vec::new();
    for a in &net.macro_pins {
        let slot = srcs.slot(&a.src, &mut slots, &mut commits);
        alias_signals.push(SignalInfo { path: a.path.clone(), slot, kind: SignalKind::MacroPin });
    }
    for (k, a) in net.outputs.iter().enumerate() {
        let slot = srcs.slot(&a.src, &mut slots, &mut commits);
        let p = &root.outputs[k];
        alias_signals.push(SignalInfo { path: a.path.clone(), slot, kind: SignalKind::ProgramOutput });
        outputs.push(PortInfo {
            name: p.name.clone(),
            ty: p.ty.0,
            slot,
            default: p.ty.0.zero(),
            kind: Default::default(),
            options: Vec::new(),
        });
    }
    signals.extend(alias_signals);
    signals.extend(std::mem::take(&mut srcs.fb_signals));
    let signal_index = crate::plan::PathIndex::build(signals.iter().map(|s| s.path.as_str()));
    let stats = PlanStats {
        blocks: n,
        macros: project.macros.len(),
        instances: net.instances.len(),
        signals: signals.len(),
        instructions: code.len(),
        slots: [slots.init_b.len(), slots.init_i.len(), slots.init_r.len()],
        levels: if n == 0 { 0 } else { max_level as usize + 1 },
        files: project.files.len(),
        phases: PhaseTimes::default(),
    };
    let cycle_ms = root.cycle_ms.filter(|c| c.is_finite() && *c > 0.0).unwrap_or(5.0);
    let mut fp = fnv1a(&format!("{}:{}", code.len(), signals.len()));
    for s in &signals {
        fp = (fp ^ fnv1a(&s.path)).wrapping_mul(0x0000_0100_0000_01b3) ^ (s.slot.idx as u64) << 2 ^ s.slot.ty as u64;
    }
    let stages = commits.iter().map(|c| (Slot { ty: c.ty, idx: c.to }, Slot { ty: c.ty, idx: c.stage })).collect();
    let block_index = crate::plan::PathIndex::build(blocks.iter().map(|b| b.path.as_str()));
    ScanPlan {
        fingerprint: fp,
        block_index,
        stages,
        files: project.files.iter().map(|f| f.path.clone()).collect(),
        slot_owner: Default::default(),
        name: root.name.clone().unwrap_or_else(|| project.files[0].path.display().to_string()),
        cycle_us: ((cycle_ms * 1000.0).round() as u64).max(1),
        code,
        args,
        instr_block,
        commits,
        init_bool: slots.init_b,
        init_int: slots.init_i,
        init_real: slots.init_r,
        rng_keys,
        inputs,
        outputs,
        signals,
        signal_index,
        blocks,
        instances: net.instances.clone(),
        stats,
    }
}

/// The slots one block's instruction reads and writes.
struct Operands<'a> {
    ins: &'a [Slot],
    outs: &'a [Slot],
    state: &'a [Slot],
    /// The block's resolved type variable (BOOL for non-generic blocks, where it is unused).
    ty: Type,
}

/// What instruction selection appends to besides the instruction itself.
struct Emitted<'a> {
    slots: &'a mut Slots,
    args: &'a mut Vec<u32>,
    commits: &'a mut Vec<Commit>,
    rng_keys: &'a mut Vec<u64>,
}

/// The instruction of one block, specialised by kind, type and arity; `None` for DELAY, which is
/// only an end-of-scan copy. Also returns the block's random stream index, for RANDOM.
fn select_instruction(b: &expand::NetBlock, ops: &Operands, out: &mut Emitted) -> (Option<Instr>, Option<u32>) {
    let (ins, outs, st, ty) = (ops.ins, ops.outs, ops.state, ops.ty);
    let x = |k: usize| ins[k].idx;
    let o = |k: usize| outs[k].idx;
    let Emitted { slots, args, commits, rng_keys } = out;
    let list = |from: usize, args: &mut Vec<u32>| -> (u32, u32) {
        let start = args.len() as u32;
        args.extend(ins[from..].iter().map(|s| s.idx));
        (start, (ins.len() - from) as u32)
    };
    let cmp = |op: CmpOp| match (ins[0].ty, op) {
        (Type::Int, CmpOp::Eq) => Instr::EqI { a: x(0), b: x(1), o: o(0) },
        (Type::Int, CmpOp::Ne) => Instr::NeI { a: x(0), b: x(1), o: o(0) },
        (Type::Bool, _) => Instr::CmpB { op, a: x(0), b: x(1), o: o(0) },
        (Type::Int, _) => Instr::CmpI { op, a: x(0), b: x(1), o: o(0) },
        (Type::Real, _) => Instr::CmpR { op, a: x(0), b: x(1), o: o(0) },
    };
    let mut rng = None;
    let instr: Option<Instr> = match b.def.kind {
        Kind::And if ins.len() == 2 => Some(Instr::And2 { a: x(0), b: x(1), o: o(0) }),
        Kind::Or if ins.len() == 2 => Some(Instr::Or2 { a: x(0), b: x(1), o: o(0) }),
        Kind::And => {
            let (args_, n_) = list(0, args);
            Some(Instr::AndN { args: args_, n: n_, o: o(0) })
        }
        Kind::Or => {
            let (args_, n_) = list(0, args);
            Some(Instr::OrN { args: args_, n: n_, o: o(0) })
        }
        Kind::Xor => {
            let (args_, n_) = list(0, args);
            Some(Instr::XorN { args: args_, n: n_, o: o(0) })
        }
        Kind::Not => Some(Instr::Not { a: x(0), o: o(0) }),
        Kind::Eq => Some(cmp(CmpOp::Eq)),
        Kind::Ne => Some(cmp(CmpOp::Ne)),
        Kind::Gt => Some(cmp(CmpOp::Gt)),
        Kind::Ge => Some(cmp(CmpOp::Ge)),
        Kind::Lt => Some(cmp(CmpOp::Lt)),
        Kind::Le => Some(cmp(CmpOp::Le)),
        Kind::Add | Kind::Mul | Kind::Min | Kind::Max => {
            let two = ins.len() == 2;
            let (a_, n_) = list(0, args);
            Some(match (b.def.kind, ty) {
                (Kind::Add, Type::Int) if two => Instr::AddI2 { a: x(0), b: x(1), o: o(0) },
                (Kind::Add, Type::Real) if two => Instr::AddR2 { a: x(0), b: x(1), o: o(0) },
                (Kind::Add, Type::Int) => Instr::AddIN { args: a_, n: n_, o: o(0) },
                (Kind::Add, _) => Instr::AddRN { args: a_, n: n_, o: o(0) },
                (Kind::Mul, Type::Int) => Instr::MulIN { args: a_, n: n_, o: o(0) },
                (Kind::Mul, _) => Instr::MulRN { args: a_, n: n_, o: o(0) },
                (Kind::Min, Type::Int) => Instr::MinIN { args: a_, n: n_, o: o(0) },
                (Kind::Min, _) => Instr::MinRN { args: a_, n: n_, o: o(0) },
                (Kind::Max, Type::Int) => Instr::MaxIN { args: a_, n: n_, o: o(0) },
                _ => Instr::MaxRN { args: a_, n: n_, o: o(0) },
            })
        }
        Kind::Sub => Some(if ty == Type::Int {
            Instr::SubI { a: x(0), b: x(1), o: o(0) }
        } else {
            Instr::SubR { a: x(0), b: x(1), o: o(0) }
        }),
        Kind::Div => Some(if ty == Type::Int {
            Instr::DivI { a: x(0), b: x(1), o: o(0) }
        } else {
            Instr::DivR { a: x(0), b: x(1), o: o(0) }
        }),
        Kind::Mod => Some(Instr::ModI { a: x(0), b: x(1), o: o(0) }),
        Kind::Abs => {
            Some(if ty == Type::Int { Instr::AbsI { a: x(0), o: o(0) } } else { Instr::AbsR { a: x(0), o: o(0) } })
        }
        Kind::Neg => {
            Some(if ty == Type::Int { Instr::NegI { a: x(0), o: o(0) } } else { Instr::NegR { a: x(0), o: o(0) } })
        }
        Kind::Limit => Some(if ty == Type::Int {
            Instr::LimitI { mn: x(0), a: x(1), mx: x(2), o: o(0) }
        } else {
            Instr::LimitR { mn: x(0), a: x(1), mx: x(2), o: o(0) }
        }),
        Kind::Floor => Some(Instr::Floor { a: x(0), o: o(0) }),
        Kind::Trunc => Some(Instr::Trunc { a: x(0), o: o(0) }),
        Kind::Frac => Some(Instr::Frac { a: x(0), o: o(0) }),
        Kind::IntToReal => Some(Instr::IntToReal { a: x(0), o: o(0) }),
        Kind::RealToInt => Some(Instr::RealToInt { a: x(0), o: o(0) }),
        Kind::Sel => Some(match ty {
            Type::Bool => Instr::SelB { g: x(0), a: x(1), b: x(2), o: o(0) },
            Type::Int => Instr::SelI { g: x(0), a: x(1), b: x(2), o: o(0) },
            Type::Real => Instr::SelR { g: x(0), a: x(1), b: x(2), o: o(0) },
        }),
        Kind::Mux => {
            let (a_, n_) = list(1, args);
            Some(match ty {
                Type::Bool => Instr::MuxB { k: x(0), args: a_, n: n_, o: o(0) },
                Type::Int => Instr::MuxI { k: x(0), args: a_, n: n_, o: o(0) },
                Type::Real => Instr::MuxR { k: x(0), args: a_, n: n_, o: o(0) },
            })
        }
        Kind::Move => Some(match ty {
            Type::Bool => Instr::MoveB { a: x(0), o: o(0) },
            Type::Int => Instr::MoveI { a: x(0), o: o(0) },
            Type::Real => Instr::MoveR { a: x(0), o: o(0) },
        }),
        Kind::Memory => {
            let stage = slots.alloc(slots.init_of(outs[1]));
            commits.push(Commit { ty, from: o(0), to: o(1), stage: stage.idx });
            Some(match ty {
                Type::Bool => Instr::MemB { x: x(0), en: x(1), q: o(0) },
                Type::Int => Instr::MemI { x: x(0), en: x(1), q: o(0) },
                Type::Real => Instr::MemR { x: x(0), en: x(1), q: o(0) },
            })
        }
        Kind::Delay => {
            let stage = slots.alloc(slots.init_of(outs[0]));
            commits.push(Commit { ty, from: x(0), to: o(0), stage: stage.idx });
            None
        }
        Kind::Sr => Some(Instr::Sr { s: x(0), r: x(1), q: o(0) }),
        Kind::Rs => Some(Instr::Rs { s: x(0), r: x(1), q: o(0) }),
        Kind::RTrig => Some(Instr::RTrig { clk: x(0), m: st[0].idx, q: o(0) }),
        Kind::FTrig => Some(Instr::FTrig { clk: x(0), m: st[0].idx, q: o(0) }),
        Kind::Ton | Kind::Tof | Kind::Tp => {
            let aux = args.len() as u32;
            args.extend([x(0), x(1), o(0), o(1), st[0].idx, st[1].idx, st[2].idx]);
            Some(match b.def.kind {
                Kind::Ton => Instr::Ton { aux },
                Kind::Tof => Instr::Tof { aux },
                _ => Instr::Tp { aux },
            })
        }
        Kind::Ctu | Kind::Ctd => {
            let aux = args.len() as u32;
            args.extend([x(0), x(1), x(2), o(0), o(1), st[0].idx]);
            Some(if b.def.kind == Kind::Ctu { Instr::Ctu { aux } } else { Instr::Ctd { aux } })
        }
        Kind::Ctud => {
            let aux = args.len() as u32;
            args.extend([x(0), x(1), x(2), x(3), x(4), o(0), o(1), o(2), st[0].idx, st[1].idx]);
            Some(Instr::Ctud { aux })
        }
        Kind::Now => Some(Instr::Now { ms: o(0), s: o(1) }),
        Kind::Saw => Some(Instr::Saw { period: x(0), lo: x(1), hi: x(2), o: o(0) }),
        Kind::Random => {
            let key = fnv1a(&b.path) ^ b.params.seed.unwrap_or(0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            rng_keys.push(key);
            rng = Some(rng_keys.len() as u32 - 1);
            let aux = args.len() as u32;
            args.extend([rng_keys.len() as u32 - 1, x(0), x(1), x(2), o(0), o(1)]);
            Some(Instr::Random { aux })
        }
        Kind::Selector => {
            Some(Instr::Selector { sel: x(0), first: outs.first().map(|s| s.idx).unwrap_or(0), n: outs.len() as u32 })
        }
    };
    (instr, rng)
}

/// Maps resolved sources to slots, creating the delayed slot of each feedback wire once.
struct SourceSlots<'a> {
    project: &'a Project,
    net: &'a Net,
    input_slots: Vec<Slot>,
    out_slots: Vec<Vec<Slot>>,
    feedback: HashMap<(Slot, u64), Slot>,
    fb_signals: Vec<SignalInfo>,
}

impl SourceSlots<'_> {
    fn slot(&mut self, s: &Src, slots: &mut Slots, commits: &mut Vec<Commit>) -> Slot {
        match s {
            Src::Const(v) => slots.constant(*v),
            Src::Input(i) => self.input_slots[*i],
            Src::Out { block, pin } => self.out_slots[*block][*pin],
            Src::Feedback { src, init } => {
                let from = self.slot(src, slots, commits);
                let init = init.and_then(|v| v.coerce(from.ty)).unwrap_or(from.ty.zero());
                let key = (from, init.as_f64().to_bits());
                if let Some(&d) = self.feedback.get(&key) {
                    return d;
                }
                let to = slots.alloc(init);
                let stage = slots.alloc(init);
                commits.push(Commit { ty: from.ty, from: from.idx, to: to.idx, stage: stage.idx });
                self.feedback.insert(key, to);
                let name = src_path(self.project, self.net, src);
                self.fb_signals.push(SignalInfo { path: format!("{name}@prev"), slot: to, kind: SignalKind::Feedback });
                to
            }
        }
    }
}

fn src_path(project: &Project, net: &Net, s: &Src) -> String {
    match s {
        Src::Const(v) => v.to_string(),
        Src::Input(i) => project.root().inputs[*i].name.clone(),
        Src::Out { block, pin } => format!("{}.{}", net.blocks[*block].path, net.blocks[*block].output_name(*pin)),
        Src::Feedback { src, .. } => format!("{}@prev", src_path(project, net, src)),
    }
}
