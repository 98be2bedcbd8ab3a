//! The `fbd` subcommands, a module each: its arguments (`Args`) and `run`, which returns the
//! exit status, or the error `main` prints.

use std::process::ExitCode;

use clap::Subcommand;

use crate::error::Error;

mod autoplay;
mod bench;
mod blocks;
mod check;
mod dot;
mod export;
mod fmt;
mod import;
mod latency;
mod layout;
mod play;
mod replay;
mod run;
mod schema;
mod serve;
mod svg;
mod test;
mod test_from_recording;
mod tui;

/// Every subcommand.
#[derive(Subcommand)]
pub(crate) enum Cmd {
    /// Run test tables (`*.test.json`): every test of every file under PATHS (default `.`),
    /// in parallel; exit status 1 when a test fails or a file does not load.
    Test(test::Args),
    /// Run a program on the real-time task and serve it on the network: Modbus TCP (reads from
    /// the published scan, writes between scans) and a browser HMI, until Ctrl-C or SIGTERM.
    Serve(serve::Args),
    /// Turn a recording into a test table: a row per stretch between two stimuli, each row
    /// expecting every output as the replay shows it (then correct the one that was wrong).
    TestFromRecording(test_from_recording::Args),
    /// Validate a diagram and print a summary (blocks, macros, instances, signals, plan length).
    Check(check::Args),
    /// Run a diagram headless for a number of scans and trace watched signals.
    Run(run::Args),
    /// Print a Graphviz DOT drawing of the program or of one macro.
    Dot(dot::Args),
    /// Draw the program or one macro as SVG (laid out by fbd-layout), to stdout or a file.
    Svg(svg::Args),
    /// Lay out every body (the program and each macro) and report crossings, bends and wire
    /// length; with --write, store the positions as the blocks' `pos` (and write the files in
    /// canonical form, as `fbd fmt` does).
    Layout(layout::Args),
    /// Rewrite diagram files in the canonical form the editor saves (two-space indentation,
    /// a block per line); with --check, only list the files that are not in it.
    Fmt(fmt::Args),
    /// Import a PLCopen TC6 XML project (CODESYS, OpenPLC Editor, Beremiz `plc.xml`) as a diagram.
    Import(import::Args),
    /// Export a diagram (with its libraries) as PLCopen TC6 XML v2.01.
    Export(export::Args),
    /// Play 2048 through an FBD program in the terminal (arrows/WASD, Enter start, R reset, X/Y/Z/E
    /// players, Space stops, Q quits); any other program as a panel of its inputs and outputs.
    Tui(tui::Args),
    /// Re-execute a recording (`--record` of run, play, autoplay or tui, or File > Record in
    /// the window) and, with --check, verify its state hashes; a difference names the state
    /// check where the state first differs and the scans since the last check that matched.
    Replay(replay::Args),
    /// Measure scan time (median, p99) and ns per block.
    Bench(bench::Args),
    /// Play 2048 through an FBD program: new game (or --board), then --moves, judged by the reference.
    Play(play::Args),
    /// Scans per command over many random games (the design's latency table), and spawn statistics.
    Latency(latency::Args),
    /// Automated players through the FBD program (or --native): scores, tiles reached, moves/s.
    Autoplay(autoplay::Args),
    /// List the block library (or print it as Markdown, as in docs/blocks.md).
    Blocks(blocks::Args),
    /// Print the JSON Schema of the diagram format (with --tests: of the test table format).
    Schema(schema::Args),
}

impl Cmd {
    /// Runs the command.
    pub(crate) fn run(self) -> Result<ExitCode, Error> {
        match self {
            Cmd::Test(a) => test::run(a),
            Cmd::Serve(a) => serve::run(a),
            Cmd::TestFromRecording(a) => test_from_recording::run(a),
            Cmd::Check(a) => check::run(a),
            Cmd::Run(a) => run::run(a),
            Cmd::Dot(a) => dot::run(a),
            Cmd::Svg(a) => svg::run(a),
            Cmd::Layout(a) => layout::run(a),
            Cmd::Fmt(a) => fmt::run(a),
            Cmd::Import(a) => import::run(a),
            Cmd::Export(a) => export::run(a),
            Cmd::Tui(a) => tui::run(a),
            Cmd::Replay(a) => replay::run(a),
            Cmd::Bench(a) => bench::run(a),
            Cmd::Play(a) => play::run(a),
            Cmd::Latency(a) => latency::run(a),
            Cmd::Autoplay(a) => autoplay::run(a),
            Cmd::Blocks(a) => blocks::run(a),
            Cmd::Schema(a) => schema::run(a),
        }
    }
}
