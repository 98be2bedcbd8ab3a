//! The expanded, typed netlist as a public value: every primitive block by path with its type
//! variable and every input naming its driver. It is what the compiler turns into a
//! [`ScanPlan`](fbd_plan::ScanPlan), exposed so that a simpler evaluator (the reference
//! interpreter in `crates/fbd-reference`) can run the same program by other means and the two
//! can be compared. Constants are given as written: an INT literal on a REAL pin is still an INT
//! here, and converting it is the evaluator's job.

use crate::CompileOptions;
use crate::expand::{self, Src};
use crate::typecheck;
use fbd_model::diag::Diagnostics;
use fbd_model::library::{BlockDef, PinTy};
use fbd_model::load::Project;
use fbd_model::types::{Type, Value};

/// What drives an input pin or an output port.
#[derive(Clone, Debug, PartialEq)]
pub enum Driver {
    /// A constant, as written (not converted to the pin's type).
    Const(Value),
    /// A program input, by index into [`Netlist::inputs`].
    Input(usize),
    /// Output `pin` (index into [`NetBlock::outputs`]) of block `block` (index into
    /// [`Netlist::blocks`]).
    Out {
        /// The block.
        block: usize,
        /// Its output.
        pin: usize,
    },
    /// The previous scan's value of `src` (a feedback wire); `init` before the first scan.
    Feedback {
        /// What is delayed.
        src: Box<Driver>,
        /// The value before the first scan, as written (`None`: zero of the type).
        init: Option<Value>,
    },
}

/// One input pin of a block.
#[derive(Clone, Debug)]
pub struct NetPin {
    /// Pin name (`in1`, `pt`, ...).
    pub name: String,
    /// The pin's type (the block's type variable resolved).
    pub ty: Type,
    /// Its driver.
    pub driver: Driver,
    /// A negated input: the block reads the inverse of the driver's value (BOOL only).
    pub negated: bool,
}

/// One output pin of a block.
#[derive(Clone, Debug)]
pub struct NetOut {
    /// Pin name (`out`, `q`, `prev`, `q3`, ...).
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// A negated output: readers get the inverse of what the block computes (BOOL only; the
    /// block's own state is the value before the negation).
    pub negated: bool,
}

/// One primitive block.
#[derive(Clone, Debug)]
pub struct NetBlock {
    /// Hierarchical path (`cell_1_1/mem`).
    pub path: String,
    /// The library definition (kind, pins, documentation).
    pub def: &'static BlockDef,
    /// The resolved type variable of a generic block.
    pub ty: Option<Type>,
    /// Inputs in library order, variadic ones last.
    pub inputs: Vec<NetPin>,
    /// Outputs, fixed then variadic.
    pub outputs: Vec<NetOut>,
    /// `params.init`, as written.
    pub init: Option<Value>,
    /// `params.seed`.
    pub seed: Option<u64>,
    /// The ENs the block is under (each enclosing instance's, outermost first, then its own):
    /// it is called only while every one is TRUE, else its outputs and state keep their
    /// values (but see [`NetBlock::own_gate`]).
    pub gates: Vec<Driver>,
    /// Whether the last of `gates` is the block's own EN (an IEC function,
    /// [`BlockDef::is_iec_function`], whose own EN alone is FALSE returns its type's initial
    /// value, as matiec's functions do).
    pub own_gate: bool,
}

/// A program input.
#[derive(Clone, Debug)]
pub struct NetInput {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Its value before anything is written.
    pub default: Value,
}

/// A program output.
#[derive(Clone, Debug)]
pub struct NetOutput {
    /// Its name.
    pub name: String,
    /// Its declared type.
    pub ty: Type,
    /// What drives it.
    pub driver: Driver,
}

/// A whole program after macro expansion and type inference.
#[derive(Clone, Debug)]
pub struct Netlist {
    /// Primitive blocks in expansion order (not an execution order).
    pub blocks: Vec<NetBlock>,
    /// Program inputs.
    pub inputs: Vec<NetInput>,
    /// Program outputs.
    pub outputs: Vec<NetOutput>,
    /// The scan cycle in microseconds, as the compiler sets it.
    pub cycle_us: u64,
}

/// Expands and type-checks `project` (the compiler's first two stages) and returns the netlist.
/// Loops without a feedback point are not checked here; [`crate::compile_project`] rejects them.
pub fn netlist(project: &Project, opts: &CompileOptions) -> Result<Netlist, Diagnostics> {
    let mut lean = project.to_lean();
    let net =
        expand::expand(&mut lean, opts.max_blocks, &Default::default(), &Default::default()).map_err(Diagnostics)?;
    let project = &lean;
    let t = typecheck::infer_types(project, &net).map_err(Diagnostics)?;
    let root = project.root();
    let blocks = net
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| NetBlock {
            path: b.path.to_string(),
            def: b.def,
            ty: t[i],
            inputs: b
                .inputs
                .iter()
                .enumerate()
                .map(|(k, p)| NetPin {
                    name: b.input_name(k).into_owned(),
                    ty: match p.ty {
                        PinTy::Fixed(ty) => ty,
                        PinTy::T => t[i].unwrap_or(Type::Bool),
                    },
                    driver: driver(&p.src),
                    negated: p.negate,
                })
                .collect(),
            outputs: (0..b.n_outputs())
                .map(|k| NetOut {
                    name: b.output_name(k).into_owned(),
                    ty: typecheck::out_type(&net, &t, i, k).unwrap_or(Type::Bool),
                    negated: net.out_negated(i, k),
                })
                .collect(),
            init: b.params().init.as_deref().map(|c| c.0),
            seed: b.params().seed,
            gates: net.gates.get(&(i as u32)).map_or_else(Vec::new, |g| g.iter().map(driver).collect()),
            own_gate: net.own_gate.contains(&(i as u32)),
        })
        .collect();
    let inputs = root
        .inputs
        .iter()
        .map(|p| NetInput {
            name: p.name.clone(),
            ty: p.ty.0,
            default: p.default.and_then(|c| p.ty.0.fit(c.0).ok()).unwrap_or(p.ty.0.zero()),
        })
        .collect();
    let outputs = net
        .outputs
        .iter()
        .zip(&root.outputs)
        .map(|(a, p)| NetOutput { name: p.name.clone(), ty: p.ty.0, driver: driver(&a.src) })
        .collect();
    Ok(Netlist { blocks, inputs, outputs, cycle_us: crate::cycle_us(root.cycle_ms) })
}

fn driver(s: &Src) -> Driver {
    match s {
        Src::Const(v) => Driver::Const(v.value()),
        Src::Input(i) => Driver::Input(*i),
        Src::Out { block, pin } => Driver::Out { block: *block, pin: *pin },
        Src::Feedback { src, init } => Driver::Feedback { src: Box::new(driver(src)), init: init.as_deref().copied() },
    }
}
