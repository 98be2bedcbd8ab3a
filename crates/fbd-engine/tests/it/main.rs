//! Integration tests of the engine: one binary, one module per concern.

mod arrays;
mod blocks;
mod cgen;
mod connectors;
mod constants;
mod debugger;
mod determinism;
mod enable;
mod enums;
mod errors;
mod feedback;
mod harness;
mod history;
mod invariants;
mod ladder;
mod limits;
mod negation;
mod no_allocation;
mod props;
mod st;
mod tasks;
mod types;
