//! fbd-engine: the soft-PLC core of fbd2048.
//!
//! A diagram (JSON, see `docs/diagram-format.md`) is [loaded](load) with its includes,
//! [compiled](mod@compile) into a flat [`ScanPlan`] (macro expansion, name resolution, type
//! checking, data-flow order), and executed one scan at a time by a [`Runtime`], which also
//! offers the debugger API (step, run-until, write, force, watch, snapshot, online change).
//! Nothing here depends on a GUI.

pub mod cgen;
mod checks;
pub mod compile;
pub mod diag;
pub mod dot;
pub mod exec;
mod expand;
pub mod fnv;
pub mod iec;
pub mod instr;
pub mod library;
pub mod limits;
pub mod load;
pub mod locate;
pub mod model;
pub mod netlist;
pub mod plan;
pub mod realtime;
pub mod ring;
pub mod runtime;
pub mod stgen;
pub mod string;
pub mod synth;
pub mod types;
mod write;

pub use compile::{CompileOptions, compile, compile_file, compile_project, compile_project_owned, compile_str};
pub use diag::{Diagnostic, Diagnostics};
pub use load::{FsProvider, MemProvider, SourceProvider};
pub use plan::{ScanPlan, SignalKind, Slot};
pub use runtime::{Condition, Recording, Runtime, ScanImage, StopReason};
pub use types::{Bank, IecString, Type, Value};
