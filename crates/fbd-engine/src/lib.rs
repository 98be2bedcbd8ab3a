//! fbd-engine: the soft-PLC core of fbd2048, one crate that gathers the pipeline's stages
//! under the paths front ends and tests use.
//!
//! A diagram (JSON, see `docs/diagram-format.md`) is [loaded](load) with its includes
//! (`fbd-model`), [compiled](mod@compile) into a flat [`ScanPlan`] (`fbd-compiler`: macro
//! expansion, name resolution, type checking, data-flow order; the plan and its instruction set
//! are `fbd-plan`), and executed one scan at a time by a [`Runtime`] (`fbd-vm`), which also
//! offers the debugger API (step, run-until, write, force, watch, snapshot, online change).
//! Pacing is `fbd-realtime`, code generators `fbd-codegen`. Nothing here depends on a GUI.

pub use fbd_codegen::{cgen, dot, stgen, synth};
pub use fbd_compiler as compile;
pub use fbd_compiler::netlist;
pub use fbd_model::{diag, fnv, iec, library, limits, load, locate, located, model, string, types, xml};
pub use fbd_plan as plan;
pub use fbd_plan::instr;
pub use fbd_realtime as realtime;
pub use fbd_vm::{exec, ring, runtime};

pub use fbd_compiler::{
    CompileOptions, compile, compile_file, compile_lean, compile_project, compile_project_owned, compile_str,
};
pub use fbd_model::{Bank, Diagnostic, Diagnostics, FsProvider, IecString, MemProvider, SourceProvider, Type, Value};
pub use fbd_plan::{ScanPlan, SignalKind, Slot};
pub use fbd_vm::{Condition, Recording, Runtime, ScanImage, StopReason};
