//! A configuration of several program instances, as matiec runs it: one tick at the greatest
//! common divisor of the tasks' intervals, each task's programs called when the tick is a
//! multiple of the task's period (its interval over the tick), every program in the order the
//! configuration declares them, and the globals shared between them.
//!
//! It becomes a top level of one instance per program instance (the program POU a macro,
//! `Role::Instance`), each under an EN that is TRUE in the scans its task runs (`T__runs`),
//! so a program of a slower task is not called in the others: its timers, counters and
//! variables hold, as the PLC's. A global is routed through the instances in their order: each
//! reads the value the instances before it left (the first, the last scan's), each that writes
//! it passes on its `NAME__out`, or (under a task's EN) what it had while not called.

use std::collections::HashMap;

use fbd_model::Type;
use fbd_model::model::{Block, Connector, Document, MacroDef, PortOut, ProgramInput, TypeName, Wire};
use roxmltree::Node;

use super::lookup::simple_block_at;
use super::vars::Var;
use super::{Ctx, literal};

/// The suffix of the output by which an instance passes on a global it writes.
pub(super) const WRITTEN_BACK: &str = "__out";

/// The ports of a program POU imported as an instance's macro.
#[derive(Default)]
pub(super) struct InstancePorts {
    /// Each input: its name, its address (a located variable), whether it is a global.
    pub(super) ins: Vec<(String, Option<String>, bool)>,
    /// Each output: its name, its address, the global it passes on (`NAME__out`).
    pub(super) outs: Vec<(String, Option<String>, Option<String>)>,
}

/// One program instance of a task.
pub(super) struct ProgramInstance<'a, 'i> {
    pub(super) name: String,
    /// The program POU it runs (CODESYS names an instance as its program, `typeName=""`).
    pub(super) program: String,
    pub(super) task: String,
    /// The task's interval in ns (`None`: not a duration, reported at the task; or a SINGLE
    /// task).
    pub(super) interval_ns: Option<u64>,
    /// A SINGLE (event) task's variable: the task runs in the scans where it rises.
    pub(super) single: Option<String>,
    pub(super) node: Node<'a, 'i>,
}

/// Every program instance of every task, in the order the configuration declares them (the
/// order matiec calls them in).
pub(super) fn program_instances<'a, 'i>(root: Node<'a, 'i>) -> Vec<ProgramInstance<'a, 'i>> {
    let mut out = Vec::new();
    for t in root.descendants().filter(|n| n.is_element() && n.tag_name().name() == "task") {
        let interval_ns = t
            .attribute("interval")
            .and_then(literal::interval_ms)
            .filter(|ms| *ms > 0.0)
            .map(|ms| (ms * 1e6).round() as u64);
        for p in t.descendants().filter(|n| n.tag_name().name() == "pouInstance") {
            let name = p.attribute("name").unwrap_or("").to_string();
            let program = p.attribute("typeName").filter(|t| !t.trim().is_empty()).map_or(name.clone(), str::to_string);
            out.push(ProgramInstance {
                name,
                program,
                task: t.attribute("name").unwrap_or("").to_string(),
                interval_ns,
                single: t.attribute("single").map(str::trim).filter(|v| !v.is_empty()).map(str::to_string),
                node: p,
            });
        }
    }
    out
}

/// In an instance's body, a variable that is a plain copy of one of its inputs (a global, a
/// located input) reads it through a MOVE of its own: under a task's EN the MOVE is not called
/// when the program is not, so the variable keeps what the program last stored, as the PLC's
/// does (read straight from the input it followed the input every scan). The instance's
/// outputs hold by themselves (the compiler reads every output of an instance under an EN
/// through a MOVE under it).
pub(super) fn hold_port_reads(ins: &[Var], blocks: &mut Vec<Block>, connectors: &mut [Connector]) {
    let ports: HashMap<&str, Option<Type>> = ins.iter().map(|v| (v.name.as_str(), v.ty)).collect();
    let mut taken: std::collections::HashSet<String> = blocks.iter().map(|b| b.id.clone()).collect();
    let mut hold = |name: &str, from: &mut Wire, blocks: &mut Vec<Block>| {
        let Wire::Ref(r) = from else { return };
        let Some(ty) = ports.get(r.as_str()) else { return };
        let mut id = format!("{name}__hold");
        while !taken.insert(id.clone()) {
            id.push('_');
        }
        let mut mv = simple_block_at(&id, "MOVE", vec![("in".into(), Wire::Ref(r.clone()))], None);
        mv.data_type = ty.map(TypeName);
        blocks.push(mv);
        *from = Wire::Ref(format!("{id}.out"));
    };
    for c in connectors.iter_mut() {
        hold(&c.name, &mut c.from, blocks);
    }
}

/// The ports of a program POU imported as an instance's macro: its inputs (globals among
/// them) and outputs as they are, and each global it writes (`written`: the global and what
/// the scan leaves in it) passed on as an output `NAME__out`, added to `outputs`.
pub(super) fn instance_ports(
    (ins, outs): (&[Var], &[Var]),
    shared: &[String],
    written: Vec<(String, Wire)>,
    outputs: &mut Vec<PortOut>,
) -> InstancePorts {
    let mut ports = InstancePorts::default();
    for v in outs {
        ports.outs.push((v.name.clone(), v.address.clone(), None));
    }
    for (g, from) in written {
        let Some(ty) = ins.iter().find(|v| v.name == g).and_then(|v| v.ty) else { continue };
        let port = format!("{g}{WRITTEN_BACK}");
        outputs.push(PortOut {
            address: None,
            name: port.clone(),
            ty: TypeName(ty),
            from,
            kind: None,
            description: None,
        });
        ports.outs.push((port, None, Some(g)));
    }
    for v in ins {
        ports.ins.push((v.name.clone(), v.address.clone(), shared.contains(&v.name)));
    }
    ports
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The tick (ms) several instances run at: the greatest common divisor of their tasks'
/// intervals, as matiec's `common_ticktime__`.
pub(super) fn tick_ms(cx: &mut Ctx, instances: &[ProgramInstance]) -> Option<f64> {
    let mut tick = 0;
    for i in instances.iter().filter(|i| i.single.is_none()) {
        match i.interval_ns {
            Some(ns) => tick = gcd(tick, ns),
            None => {
                let task = i.node.parent().unwrap_or(i.node);
                let iv = task.attribute("interval").unwrap_or("");
                cx.err(task, format!("task `{}`: interval `{iv}` is not a duration (T#20ms or 00:00:00.020)", i.task));
            }
        }
    }
    (tick > 0).then(|| tick as f64 / 1e6)
}

/// A program POU imported as an instance's macro, with its ports.
pub(super) type ImportedProgram = (MacroDef, InstancePorts);

/// Builds the top level of `doc` from `instances`: each program POU imported once by
/// `import_program` (a macro), an instance of it per program instance under its task's EN,
/// the located variables and the program inputs and outputs as the top level's ports, the
/// globals routed between them.
pub(super) fn assemble<'a, 'i>(
    cx: &mut Ctx,
    (pous, globals): (&[Node<'a, 'i>], &HashMap<String, Var>),
    instances: &[ProgramInstance<'a, 'i>],
    doc: &mut Document,
    import_program: &mut dyn FnMut(&mut Ctx, Node<'a, 'i>) -> Option<ImportedProgram>,
) {
    let tick = instances.iter().filter_map(|i| i.interval_ns).fold(0, gcd);
    let programs = import_programs(cx, pous, instances, doc, import_program);
    check_event_globals(cx, instances, globals);
    if !cx.errors.is_empty() {
        return;
    }
    let mut top = Top::default();
    let Tasks { mut tasks, gates, triggers } = tasks_of(instances, tick);
    let mut blocks = instance_blocks(instances, (&programs, doc), &mut top);
    route_globals(&mut top, (instances, &programs), (globals, &triggers), (&gates, &mut tasks), &mut blocks);
    blocks.append(&mut top.blocks);
    doc.blocks = blocks;
    doc.inputs = top.inputs;
    doc.outputs = top.outputs;
    doc.connectors = top.connectors;
    doc.cycle_ms = (tick > 0).then(|| tick as f64 / 1e6);
    // One task running its instances every scan needs no word of it.
    if tasks.len() > 1 || tasks.iter().any(|t| t.single.is_some()) {
        doc.tasks = tasks;
        doc.fbd = doc.version_needed();
    }
    tick_warning(cx, instances, &gates, tick);
}

/// Each program POU the instances run, imported once as a macro named after it (added to
/// `doc`): its ports, by its name in upper case.
fn import_programs<'a, 'i>(
    cx: &mut Ctx,
    pous: &[Node<'a, 'i>],
    instances: &[ProgramInstance<'a, 'i>],
    doc: &mut Document,
    import_program: &mut dyn FnMut(&mut Ctx, Node<'a, 'i>) -> Option<ImportedProgram>,
) -> HashMap<String, InstancePorts> {
    let mut programs: HashMap<String, InstancePorts> = HashMap::new();
    for i in instances {
        let key = i.program.to_ascii_uppercase();
        if programs.contains_key(&key) {
            continue;
        }
        let pou = pous.iter().find(|p| {
            p.attribute("pouType") == Some("program")
                && p.attribute("name").is_some_and(|n| n.eq_ignore_ascii_case(&i.program))
        });
        let Some(pou) = pou else {
            cx.err(
                i.node,
                format!("program instance `{}` runs `{}`, which is no program POU of the file", i.name, i.program),
            );
            continue;
        };
        if let Some((m, ports)) = import_program(cx, *pou) {
            doc.macros.push(m);
            programs.insert(key, ports);
        }
    }
    programs
}

/// An event task's variable is a global the runtime reads before the programs run: refused at
/// the task when no configuration declares it.
fn check_event_globals(cx: &mut Ctx, instances: &[ProgramInstance], globals: &HashMap<String, Var>) {
    for i in instances {
        if let Some(var) = &i.single
            && !globals.contains_key(&var.to_ascii_uppercase())
        {
            let task = i.node.parent().unwrap_or(i.node);
            cx.err(
                task,
                format!("task `{}` is SINGLE on `{var}`, which is no global of the configuration or resource", i.task),
            );
        }
    }
}

/// The configuration's tasks as the diagram has them (`fbd_model::model::tasks`).
struct Tasks {
    tasks: Vec<fbd_model::model::Task>,
    /// The flag of each task that does not run every scan, which the globals' routing reads.
    gates: HashMap<String, Wire>,
    /// Each SINGLE task's variable and the task: it runs in the scans where the variable rises
    /// (matiec's R_TRIG of it, read before any program runs), wired with the globals.
    triggers: Vec<(String, String)>,
}

/// Each task once, in the order the instances name them, with its instances; `tick` in ns.
fn tasks_of(instances: &[ProgramInstance], tick: u64) -> Tasks {
    let mut out = Tasks { tasks: Vec::new(), gates: HashMap::new(), triggers: Vec::new() };
    for i in instances {
        if let Some(t) = out.tasks.iter_mut().find(|t| t.name == i.task) {
            t.programs.push(i.name.clone());
            continue;
        }
        let flag = Wire::Ref(format!("{}{}.out", i.task, fbd_model::model::tasks::RUNS));
        let mut task = fbd_model::model::Task {
            name: i.task.clone(),
            interval_ms: None,
            single: None,
            programs: vec![i.name.clone()],
        };
        if let Some(var) = &i.single {
            out.triggers.push((var.clone(), i.task.clone()));
            out.gates.insert(i.task.clone(), flag);
        } else {
            let period = i.interval_ns.map_or(1, |ns| ns / tick.max(1));
            task.interval_ms = Some((period * tick) as f64 / 1e6);
            if period > 1 {
                out.gates.insert(i.task.clone(), flag);
            }
        }
        out.tasks.push(task);
    }
    out
}

/// A block per program instance, in declared order, its own inputs and outputs wired to the
/// top level's ports (made in `top`); the globals are wired after.
fn instance_blocks(
    instances: &[ProgramInstance],
    (programs, doc): (&HashMap<String, InstancePorts>, &Document),
    top: &mut Top,
) -> Vec<Block> {
    let mut blocks = Vec::new();
    for (k, i) in instances.iter().enumerate() {
        let m = doc.macros.iter().find(|m| m.name.eq_ignore_ascii_case(&i.program)).expect("imported");
        let mut b = simple_block_at(&i.name, &m.name, Vec::new(), None);
        b.order = Some(k as i64);
        let ports = &programs[&i.program.to_ascii_uppercase()];
        for (name, address, global) in &ports.ins {
            if *global {
                continue;
            }
            let Some(p) = m.inputs.iter().find(|p| p.name == *name) else { continue };
            let input = ProgramInput {
                address: address.clone(),
                name: name.clone(),
                ty: p.ty,
                kind: if p.ty.0 == Type::Bool { fbd_model::model::InputKind::Switch } else { Default::default() },
                default: p.default,
                options: Vec::new(),
                description: p.description.clone(),
            };
            let wire = top.input(&i.name, input);
            b.inputs.0.push((name.clone(), wire));
        }
        for (name, address, global) in &ports.outs {
            if global.is_some() {
                continue;
            }
            let Some(p) = m.outputs.iter().find(|p| p.name == *name) else { continue };
            let port = top.port_name(&i.name, name);
            top.outputs.push(PortOut {
                address: address.clone(),
                name: port,
                ty: p.ty,
                from: Wire::Ref(format!("{}.{name}", i.name)),
                kind: p.kind.clone(),
                description: p.description.clone(),
            });
        }
        blocks.push(b);
    }
    blocks
}

/// Says which instances run in fewer scans than all, and how the tick counts.
fn tick_warning(cx: &mut Ctx, instances: &[ProgramInstance], gates: &HashMap<String, Wire>, tick: u64) {
    let slow: Vec<String> = instances
        .iter()
        .filter(|i| gates.contains_key(&i.task))
        .map(|i| match &i.single {
            Some(v) => format!("{} when `{v}` rises", i.name),
            None => format!("{} every {} scans", i.name, i.interval_ns.unwrap_or(0) / tick.max(1)),
        })
        .collect();
    if !slow.is_empty() {
        cx.warnings.push(format!(
            "{} program instances at a tick of {} ms (the intervals' greatest common divisor); {}: a task runs at the scans its period divides, counted from 0 as OpenPLC's runtime counts (Beremiz's runtime counts from 1)",
            instances.len(),
            tick as f64 / 1e6,
            slow.join(", ")
        ));
    }
}

/// The top level being built.
#[derive(Default)]
struct Top {
    inputs: Vec<ProgramInput>,
    outputs: Vec<PortOut>,
    blocks: Vec<Block>,
    connectors: Vec<Connector>,
    /// Each top-level port name, by what it stands for (an address, or `instance.variable`).
    names: HashMap<String, String>,
}

impl Top {
    /// A top-level name for `var` of `instance`: its own where no other port has it, else
    /// `instance_var`.
    fn port_name(&mut self, instance: &str, var: &str) -> String {
        let key = format!("{instance}.{var}");
        let name = if self.names.values().any(|k| k.eq_ignore_ascii_case(var)) || self.taken(var) {
            format!("{instance}_{var}")
        } else {
            var.to_string()
        };
        self.names.insert(name.clone(), key);
        name
    }

    fn taken(&self, name: &str) -> bool {
        self.names.keys().any(|n| n.eq_ignore_ascii_case(name))
    }

    /// The top-level input an instance's input port reads: one per address (two programs
    /// reading one sensor read one input), else one per instance variable.
    fn input(&mut self, instance: &str, mut input: ProgramInput) -> Wire {
        if let Some(a) = &input.address {
            let a = a.trim().to_ascii_uppercase();
            if let Some(p) = self
                .inputs
                .iter()
                .find(|p| p.address.as_deref().map(|x| x.trim().to_ascii_uppercase()) == Some(a.clone()))
            {
                return Wire::Ref(p.name.clone());
            }
        }
        input.name = self.port_name(instance, &input.name);
        let w = Wire::Ref(input.name.clone());
        self.inputs.push(input);
        w
    }
}

/// Each global the instances share, routed through them in their order.
fn route_globals(
    top: &mut Top,
    (instances, programs): (&[ProgramInstance], &HashMap<String, InstancePorts>),
    (globals, triggers): (&HashMap<String, Var>, &[(String, String)]),
    (gates, tasks): (&HashMap<String, Wire>, &mut [fbd_model::model::Task]),
    blocks: &mut [Block],
) {
    // The globals in the order the instances first name them.
    let mut order: Vec<String> = Vec::new();
    for i in instances {
        for (name, _, global) in &programs[&i.program.to_ascii_uppercase()].ins {
            if *global && !order.iter().any(|g| g.eq_ignore_ascii_case(name)) {
                order.push(name.clone());
            }
        }
    }
    // And each SINGLE task's variable, which no program may name.
    for (var, _) in triggers {
        if !order.iter().any(|g| g.eq_ignore_ascii_case(var)) {
            order.push(var.clone());
        }
    }
    for g in order {
        let Some(var) = globals.get(&g.to_ascii_uppercase()) else { continue };
        let Some(ty) = var.ty else { continue };
        let address = var.address.as_deref().map(|a| a.trim().to_ascii_uppercase());
        // Which instances read it (an input port) and write it (a `__out` port), by index.
        let port_of = |i: &ProgramInstance, written: bool| -> Option<String> {
            let ports = &programs[&i.program.to_ascii_uppercase()];
            if written {
                ports
                    .outs
                    .iter()
                    .find(|(_, _, w)| w.as_deref().is_some_and(|w| w.eq_ignore_ascii_case(&g)))
                    .map(|o| o.0.clone())
            } else {
                ports.ins.iter().find(|(n, _, gl)| *gl && n.eq_ignore_ascii_case(&g)).map(|o| o.0.clone())
            }
        };
        let writers: Vec<usize> = (0..instances.len()).filter(|&k| port_of(&instances[k], true).is_some()).collect();
        // What each write leaves: the instance's output, or under a task's EN a SEL that keeps
        // the value before it while the task does not run.
        let after = |k: usize| -> (String, bool) {
            let i = &instances[k];
            match gates.get(&i.task) {
                Some(_) => (format!("{g}__after_{}", i.name), true),
                None => (format!("{}.{}", i.name, port_of(i, true).unwrap_or_default()), false),
            }
        };
        let final_ref = writers.last().map(|&k| {
            let (r, sel) = after(k);
            if sel { format!("{r}.out") } else { r }
        });
        let is_input_address = address.as_deref().is_some_and(|a| a.starts_with("%I"));
        // Located memory no program writes, or an event task's variable no program writes, is
        // set from outside (a SCADA, an HMI).
        let triggered: Vec<&String> =
            triggers.iter().filter(|(v, _)| v.eq_ignore_ascii_case(&g)).map(|(_, id)| id).collect();
        let memory_set_outside = (address.is_some() || !triggered.is_empty()) && writers.is_empty();
        let mut cur = if is_input_address || memory_set_outside {
            top.input(
                "",
                ProgramInput {
                    address: var.address.clone(),
                    name: g.clone(),
                    ty: TypeName(ty),
                    kind: if ty == Type::Bool { fbd_model::model::InputKind::Switch } else { Default::default() },
                    default: var.init.map(fbd_model::model::Const),
                    options: Vec::new(),
                    description: var.doc.clone(),
                },
            )
        } else if let Some(f) = &final_ref {
            Wire::Feedback { from: f.clone(), init: var.init.map(Box::new) }
        } else {
            Wire::constant(var.init.unwrap_or_else(|| super::reads::zero(Some(ty))))
        };
        for task in triggered {
            if let Some(t) = tasks.iter_mut().find(|t| t.name == *task) {
                t.single = Some(cur.clone());
            }
        }
        for (k, i) in instances.iter().enumerate() {
            if let Some(port) = port_of(i, false) {
                blocks[k].inputs.0.push((port, cur.clone()));
            }
            if let Some(port) = port_of(i, true) {
                let written = Wire::Ref(format!("{}.{port}", i.name));
                cur = match gates.get(&i.task) {
                    Some(gate) => {
                        let (id, _) = after(k);
                        let mut sel = simple_block_at(
                            &id,
                            "SEL",
                            vec![("g".into(), gate.clone()), ("in0".into(), cur.clone()), ("in1".into(), written)],
                            None,
                        );
                        sel.data_type = Some(TypeName(ty));
                        top.blocks.push(sel);
                        Wire::Ref(format!("{id}.out"))
                    }
                    None => written,
                };
            }
        }
        // A located %Q or %M global the programs write is an output at its address; any other
        // answers by its name as a connector (`--watch`, the debugger, test tables).
        if address.is_some() && !writers.is_empty() && !is_input_address {
            let name = top.port_name("", &g);
            top.outputs.push(PortOut {
                address: var.address.clone(),
                name,
                ty: TypeName(ty),
                from: cur,
                kind: None,
                description: var.doc.clone(),
            });
        } else if !top.taken(&g) {
            top.connectors.push(Connector { name: g.clone(), from: cur });
        }
    }
}
