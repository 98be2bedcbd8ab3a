//! fbd-vm: the virtual PLC, the last stage of the pipeline.
//!
//! The [executor](exec) runs a scan plan's instructions over typed slot arrays, one scan at a
//! time, without allocating; the [runtime] around it is the debugger API a front end drives
//! (step, run until a condition, write, force, watch, snapshot, reverse stepping through the
//! history, recordings and their replay, online change). The caller owns the clock: a scan
//! happens when [`Runtime::step`](runtime::Runtime::step) is called; pacing at a cycle is
//! `fbd-realtime`'s job.

pub mod exec;
pub mod ring;
pub mod runtime;

pub use runtime::requests::{self, Request};
pub use runtime::{Condition, Recording, Runtime, ScanImage, StopReason};
