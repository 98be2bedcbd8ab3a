//! Test tables for FBD programs, as CODESYS Test Manager's test tables and TcUnit's assertions
//! do for PLC code: a table names a program (or one macro of it, instantiated alone with its
//! ports as the table's columns) and a seed; each test is rows of steps that set inputs, pulse
//! them or force signals, run for a number of scans or a time, and state what must hold. A run
//! is deterministic to the bit, so a failing row fails the same way every time, at the same
//! scan.
//!
//! Files: `table.rs` (the format), `load.rs` (a table file read and its program compiled),
//! `run.rs` (a table run on a runtime, with the failures and a short trace of each),
//! `coverage.rs` (what the tests made each block's outputs do), `record.rs` (a recording
//! turned into a table), `report.rs` (the text and
//! JUnit XML reports), `find.rs` (test files under a directory).
//!
//! What is where: test tables (`*.test.json`, `schema/test.schema.json`): the format (`table.rs`:
//! rows that set, pulse, force, run scans or a time, and expect values, ranges, edges, `becomes`
//! within N scans), a table loaded with its program compiled (`load.rs`; a macro tested alone as a
//! program of one instance `uut`), the runner on the deterministic runtime (`run.rs`: each test
//! from a cold start, every expectation checked at every scan it covers, the first failing row with
//! its place, scan, both values and a trace), reports (`report.rs`: text and JUnit XML), files
//! under a directory (`find.rs`); `fbd test` is its front end

mod coverage;
mod find;
mod load;
mod record;
mod report;
mod run;
mod table;

pub use coverage::{Coverage, Scope, coverage_svg};
pub use find::test_files;
pub use load::{Loaded, load};
pub use record::table_from_recording;
pub use report::{junit, text};
pub use run::{Failure, FileRun, Outcome, TestResult, recording_of, run_file, run_table};
pub use table::{Check, Expect, Step, TableFile, TestCase, json_schema};
