//! fbd-model: the language of fbd2048, the first stage of the pipeline.
//!
//! IEC 61131-3 [types] and values (with [`IecString`], the fixed-size STRING), the diagram
//! document [model] and its JSON [loading](load) with includes, the block [library] (every
//! block kind's pins and types), [diagnostics](diag) that name a file and a place, and the
//! [limits] a program must keep, and text as [XML](xml) carries it. The compiler (`fbd-compiler`) turns a loaded
//! [`Project`](load::Project) into a scan plan (`fbd-plan`).

pub mod diag;
pub mod fnv;
pub mod iec;
pub mod library;
pub mod limits;
pub mod load;
pub mod locate;
pub mod located;
pub mod model;
pub mod string;
pub mod types;
mod write;
pub mod xml;

pub use diag::{Diagnostic, Diagnostics};
pub use load::{FsProvider, MemProvider, SourceProvider};
pub use types::{Bank, IecString, Type, Value};
