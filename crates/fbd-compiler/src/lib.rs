//! fbd-compiler: diagram → [`ScanPlan`], the middle stage of the pipeline.
//!
//! Stages: load (with includes; `fbd-model`) → ladder networks and variables lowered to blocks
//! (`ladder`: the statements Beremiz's generator writes for an LD body), Structured Text bodies
//! likewise (`st`) → check the bodies (`checks`) and the macro
//! hierarchy (`hierarchy`) → expand macros and resolve names (`expand`) → infer and check types
//! (`typecheck`) → order by data flow, rejecting loops without a feedback point (`order`) →
//! allocate typed slots and emit instructions, grouped by kind inside each data-flow level
//! (`emit`, with `select` choosing the instruction a block becomes). The [`netlist`] is the
//! expanded program before emission, for evaluators that do not run a plan.
//!
//! Files: this one (the pipeline and its entry points), one per stage.

mod checks;
mod emit;
mod expand;
mod hierarchy;
pub mod ladder;
pub mod netlist;
mod order;
mod select;
pub mod st;
pub(crate) mod typecheck;

pub(crate) use select::{Family, family};

use std::time::Instant;

use std::path::Path;

use crate::expand::{At, Net};
use fbd_model::diag::{Diagnostic, Diagnostics};
use fbd_model::load::{self, FsProvider, MemProvider, ProjectOf, SourceProvider};
use fbd_model::model::{LeanBlock, MacroDefOf};
use fbd_plan::{PhaseTimes, ScanPlan};

/// A project as the compiler reads it: its blocks are [`LeanBlock`]s ([`load::load_lean`]).
pub type Project = ProjectOf<LeanBlock>;
/// A macro as the compiler reads it.
pub(crate) type MacroDef = MacroDefOf<LeanBlock>;

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
        CompileOptions { max_blocks: fbd_model::limits::MAX_BLOCKS, group_by_kind: true }
    }
}

/// Loads and compiles the diagram at `path` from disk.
pub fn compile_file(path: impl AsRef<Path>, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    let project = load::load_lean(&FsProvider, path.as_ref())?;
    compile_lean(project, opts)
}

/// Compiles diagram text; `path` names it in errors and anchors relative includes, which are
/// read through `provider`.
pub fn compile_str(
    provider: &dyn SourceProvider,
    path: impl AsRef<Path>,
    text: &str,
    opts: &CompileOptions,
) -> Result<ScanPlan, Diagnostics> {
    let project = load::load_text_lean(provider, path.as_ref(), text.to_string())?;
    compile_lean(project, opts)
}

/// Compiles a self-contained diagram given as text (no includes).
pub fn compile(text: &str) -> Result<ScanPlan, Diagnostics> {
    compile_str(&MemProvider::new(), "<memory>", text, &CompileOptions::default())
}

/// Compiles a loaded project of `Block`s (the editor's), leaving it as it is: its blocks are
/// copied into the compiler's lean form.
pub fn compile_project(project: &load::Project, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    compile_lean(project.to_lean(), opts)
}

/// Compiles a loaded project of `Block`s it takes over, turning each file's blocks lean as it
/// goes.
pub fn compile_project_owned(project: load::Project, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    compile_lean(project.map_blocks(LeanBlock::from), opts)
}

/// Compiles a project loaded for the compiler ([`load::load_lean`]): the bodies (blocks of the
/// program and of every macro) are dropped as soon as they are expanded, so on a large program
/// the document, the expanded netlist and the plan are never in memory all at once. Errors
/// found after parsing still point into the files' texts, which are kept until emission.
pub fn compile_lean(mut project: Project, opts: &CompileOptions) -> Result<ScanPlan, Diagnostics> {
    let t0 = Instant::now();
    // Ladder networks and variables as the blocks that compute them (`ladder`).
    ladder::lower(&mut project).map_err(Diagnostics)?;
    // Structured Text bodies as the blocks that compute them (`st`).
    let (loops, calls) = st::lower(&mut project).map_err(Diagnostics)?;
    // The program's tasks as the blocks that run them (`fbd_model::model::tasks`).
    if let Err(errors) = fbd_model::model::tasks::lower(&mut project.files[0].doc) {
        return Err(Diagnostics(errors.into_iter().map(|(path, m)| project.diag(0, &path, m)).collect()));
    }
    let net = expand::expand(&mut project, opts.max_blocks, &loops, &calls)
        .map_err(|e| Diagnostics(e.into_iter().map(st::at_text_place).collect()))?;
    // From here on only the texts (error positions) and the program's ports are read.
    for f in &mut project.files {
        f.doc.blocks = Vec::new();
        for m in &mut f.doc.macros {
            m.blocks = Vec::new();
        }
    }
    // A problem found in a block the ST lowering made is said at its place in the text.
    compile_net(&mut project, net, t0, opts).map_err(|e| Diagnostics(e.0.into_iter().map(st::at_text_place).collect()))
}

/// Every stage after expansion. The texts are dropped before emission, which finds no error
/// in the user's program (only limits and internal errors, named by block): the plan, the
/// netlist and the texts are never in memory all at once.
fn compile_net(
    project: &mut Project,
    mut net: Net,
    t0: Instant,
    opts: &CompileOptions,
) -> Result<ScanPlan, Diagnostics> {
    let t1 = Instant::now();
    let types = match typecheck::infer_types(project, &net) {
        Ok(t) => t,
        Err(mut errors) => {
            // Loops without a feedback point do not depend on types: report both at once.
            if let Err(loops) = order::order_blocks(project, &net, &vec![None; net.blocks.len()], opts) {
                errors.extend(loops);
                errors.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
            }
            return Err(Diagnostics(errors));
        }
    };
    typecheck::coerce_constants(&mut net, &types);
    let t2 = Instant::now();
    let order::Ordered { order, levels, marks } =
        order::order_blocks(project, &net, &types, opts).map_err(Diagnostics)?;
    let t3 = Instant::now();
    // The blocks' lines, which the plan keeps, are all emission needs of the texts.
    let positions: Vec<_> = project.files.iter().map(|f| fbd_model::locate::block_positions(&f.text)).collect();
    for f in &mut project.files {
        f.text = String::new();
        f.positions = Default::default();
    }
    let mut plan = emit::emit(project, positions, &mut net, &types, order, levels, marks).map_err(Diagnostics::from)?;
    plan.stats.phases = PhaseTimes { expand: t1 - t0, types: t2 - t1, order: t3 - t2, emit: t3.elapsed() };
    Ok(plan)
}

/// The scan cycle in µs for a document's `cycle_ms` (default 5 ms).
pub(crate) fn cycle_us(cycle_ms: Option<f64>) -> u64 {
    let ms = cycle_ms.filter(|c| c.is_finite() && *c > 0.0).unwrap_or(5.0);
    ((ms * 1000.0).round() as u64).max(1)
}

pub(crate) fn diag_at(project: &Project, at: &At, msg: impl Into<String>) -> Diagnostic {
    project.diag(at.file, &at.path, msg)
}
