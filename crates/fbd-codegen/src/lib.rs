//! fbd-codegen: programs written out, outside the engine's core.
//!
//! [C](cgen) and IEC [Structured Text](stgen) from a scan plan (compiled by gcc and by matiec to
//! check the engine against them), Graphviz [DOT](dot) from a diagram, and the [synthetic](synth)
//! benchmark diagrams (chains, wide levels, MOD chains of any size).

pub mod cgen;
pub mod dot;
pub mod stgen;
pub mod synth;
