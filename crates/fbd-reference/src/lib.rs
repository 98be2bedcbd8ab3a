//! fbd-reference: test support for `fbd-engine`.
//!
//! - [`Reference`]: a deliberately simple interpreter of the expanded netlist (blocks evaluated
//!   by name in data-flow order, tagged values, no slot banks and no plan).
//! - [`generate::diagram`]: random well-typed diagrams covering every library block and type.
//! - [`diff::check`]: runs one diagram in the engine and in the reference for N scans with
//!   random inputs and compares every block output, every program output and every fault,
//!   bit for bit (NaN-aware).
//!
//! - [`ladder`]: a second reading of ladder networks, statement by statement on variables in
//!   a map (no lowering), with a generator of random ladder programs; `tests/ladder.rs`
//!   compares it with the engine.
//!
//! - [`st`]: a second reading of Structured Text, the syntax tree walked statement by statement
//!   on variables in a map (no lowering, no blocks), with a generator of random ST programs;
//!   `tests/st.rs` compares it with the engine.
//!
//! The differential test (`tests/differential.rs`) and the fuzz targets (`fuzz/`) use these.

pub mod diff;
pub mod eval;
pub mod generate;
pub mod ladder;
pub mod st;
mod strings;

pub use eval::Reference;
