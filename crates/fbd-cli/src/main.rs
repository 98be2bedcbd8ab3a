//! `fbd`: the command-line client of the FBD engine.
//!
//! Programs: `check`, `run`, `replay`, `fmt`; tests: `test`, `test-from-recording`; drawings:
//! `svg`, `dot`, `layout`; PLCopen: `import`, `export`; on the network: `serve`; terminal:
//! `tui`; reference: `blocks`, `schema`; measurement: `bench`; the 2048 commands `play`,
//! `latency`, `autoplay` (docs/cli.md says each). Errors print as `file:line:col: message (block,
//! pin)` and make the exit code non-zero.

// mimalloc, counted: see mem.rs.
#[global_allocator]
static ALLOC: mem::Counting = mem::Counting;

mod autoplay;
mod bench;
mod bench_all;
mod bench_c;
mod draw;
mod game;
mod guard;
mod mem;
mod out;
mod peers;
mod plcopen;
mod record;
mod run;
mod serve;
mod source;
mod stimulus;
mod tables;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use fbd_engine::{CompileOptions, compile_project, library};

/// Function Block Diagram soft-PLC: check, run, draw (DOT, SVG), lay out and benchmark diagrams,
/// and play 2048 through the FBD program (play, latency, autoplay).
#[derive(Parser)]
#[command(name = "fbd", version, about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run test tables (`*.test.json`): every test of every file under PATHS (default `.`),
    /// in parallel; exit status 1 when a test fails or a file does not load.
    Test {
        /// Table files, or directories searched for `*.test.json`.
        paths: Vec<PathBuf>,
        /// Also write a JUnit XML report here (for CI systems).
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Print the results as JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Also print what the tests covered: per program and macro, the share of goals met
        /// (each BOOL output TRUE and FALSE, SEL's g both ways, every MUX input) and those missed.
        #[arg(long)]
        coverage: bool,
        /// Write each table file's coverage drawing into this directory: the body it tests,
        /// every block with a goal not met outlined in red (its title says which).
        #[arg(long, value_name = "DIR")]
        coverage_svg: Option<PathBuf>,
    },
    /// Run a program on the real-time task and serve it on the network: Modbus TCP (reads from
    /// the published scan, writes between scans) and a browser HMI, until Ctrl-C or SIGTERM.
    Serve(serve::ServeArgs),
    /// Turn a recording into a test table: a row per stretch between two stimuli, each row
    /// expecting every output as the replay shows it (then correct the one that was wrong).
    TestFromRecording {
        /// The recording (`fbd run --record`, the HMI's File → Record).
        recording: PathBuf,
        /// The table file to write (`*.test.json`; an existing file is not replaced).
        #[arg(short, long)]
        output: PathBuf,
        /// The recorded program, when it is not where the recording says.
        #[arg(long)]
        program: Option<PathBuf>,
    },
    /// Validate a diagram and print a summary (blocks, macros, instances, signals, plan length).
    Check {
        /// The diagram (JSON), or a PLCopen XML file (`.xml`).
        file: PathBuf,
        /// Also print the compiled plan, one instruction per line.
        #[arg(long)]
        plan: bool,
        /// Also print every signal path with its type and kind.
        #[arg(long)]
        signals: bool,
    },
    /// Run a diagram headless for a number of scans and trace watched signals.
    Run(run::RunArgs),
    /// Print a Graphviz DOT drawing of the program or of one macro.
    Dot {
        /// The diagram (JSON), or a PLCopen XML file (`.xml`).
        file: PathBuf,
        /// Draw this macro's body instead of the program.
        #[arg(long = "macro")]
        macro_name: Option<String>,
    },
    /// Draw the program or one macro as SVG (laid out by fbd-layout), to stdout or a file.
    Svg {
        /// The diagram (JSON), or a PLCopen XML file (`.xml`).
        file: PathBuf,
        /// Draw this macro's body instead of the program.
        #[arg(long = "macro")]
        macro_name: Option<String>,
        /// Write to this file instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Run this many scans first and print the values beside the pins (online view).
        #[arg(long)]
        after: Option<u64>,
        /// Runtime seed for RANDOM blocks (with --after).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Set a program input (it keeps the value) or write a signal (once) before a scan:
        /// PATH=VALUE or PATH=VALUE@SCAN (SCAN defaults to 0), as `fbd run --set`. Repeatable.
        #[arg(long = "set", value_name = "PATH=VALUE[@SCAN]")]
        sets: Vec<String>,
        /// With --macro and --after: the instance whose values to show (default: the first).
        #[arg(long)]
        instance: Option<String>,
        /// Lay the body out afresh instead of keeping the blocks' stored positions.
        #[arg(long)]
        auto: bool,
        /// Draw long nets (crossing more than 12 other wires, or longer than 120 grid steps)
        /// as a connector at the source and a continuation at each target, named after the
        /// source, instead of a wire across the page.
        #[arg(long)]
        connectors: bool,
        /// Draw one page of a body drawn on pages: its number (from 1) or its name. Nets to and
        /// from other pages are drawn as connectors named after their source.
        #[arg(long, conflicts_with = "whole")]
        page: Option<String>,
        /// Draw a body drawn on pages as one drawing, not page by page (the default draws its
        /// pages one under another, as the window shows them).
        #[arg(long)]
        whole: bool,
        /// With `-o NAME.png`: print on A4 sheets (landscape or portrait, whichever takes fewer)
        /// with the text 8 pt high, the drawing cut between blocks where it does not fit one
        /// sheet; writes NAME-1.png, NAME-2.png...
        #[arg(long, requires = "output")]
        sheets: bool,
    },
    /// Lay out every body (the program and each macro) and report crossings, bends and wire
    /// length; with --write, store the positions as the blocks' `pos` (and write the files in
    /// canonical form, as `fbd fmt` does).
    Layout {
        /// The diagram (JSON), or a PLCopen XML file (`.xml`; not with --write).
        file: PathBuf,
        /// Write the positions into the diagram and the library files it includes.
        #[arg(long)]
        write: bool,
        /// Report the figures with long nets drawn as connector pairs (as `fbd svg --connectors`
        /// and the window's online view draw them), and how many nets became connectors.
        #[arg(long)]
        connectors: bool,
    },
    /// Rewrite diagram files in the canonical form the editor saves (two-space indentation,
    /// a block per line); with --check, only list the files that are not in it.
    Fmt {
        /// Diagram files (JSON); includes are not followed.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Change nothing; fail if a file is not in canonical form.
        #[arg(long)]
        check: bool,
    },
    /// Import a PLCopen TC6 XML project (CODESYS, OpenPLC Editor, Beremiz `plc.xml`) as a diagram.
    Import {
        /// The PLCopen XML file.
        file: PathBuf,
        /// Write the diagram here (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Export a diagram (with its libraries) as PLCopen TC6 XML v2.01.
    Export {
        /// The diagram (JSON), or a PLCopen XML file (`.xml`).
        file: PathBuf,
        /// Write the XML here (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Play 2048 through an FBD program in the terminal (arrows/WASD, Enter start, R reset, X/Y/Z/E
    /// players, Space stops, Q quits); any other program as a panel of its inputs and outputs.
    Tui {
        /// A diagram (default: the embedded diagrams/2048.json); one without the 2048 interface
        /// gets the panel.
        file: Option<PathBuf>,
        /// An embedded wiring instead of a file: upd1, original, smart-spawn.
        #[arg(long, conflicts_with = "file")]
        wiring: Option<String>,
        /// Runtime seed (RANDOM blocks and the players).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Record the session for `fbd replay`.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// Re-execute a recording (`--record` of run, play, autoplay or tui, or File > Record in
    /// the window) and, with --check, verify its state hashes; a difference names the state
    /// check where the state first differs and the scans since the last check that matched.
    Replay {
        /// The recording (JSON).
        file: PathBuf,
        /// Compare the state hashes the recording holds.
        #[arg(long)]
        check: bool,
        /// The recorded program, where it is now (default: where the recording says, from the
        /// recording's directory, then where it was when recorded).
        #[arg(long, value_name = "FILE")]
        program: Option<PathBuf>,
    },
    /// Measure scan time (median, p99) and ns per block.
    Bench(bench::BenchArgs),
    /// Play 2048 through an FBD program: new game (or --board), then --moves, judged by the reference.
    Play(game::PlayArgs),
    /// Scans per command over many random games (the design's latency table), and spawn statistics.
    Latency(game::LatencyArgs),
    /// Automated players through the FBD program (or --native): scores, tiles reached, moves/s.
    Autoplay(autoplay::AutoplayArgs),
    /// List the block library (or print it as Markdown, as in docs/blocks.md).
    Blocks {
        /// Print the full reference as Markdown.
        #[arg(long)]
        markdown: bool,
    },
    /// Print the JSON Schema of the diagram format (with --tests: of the test table format).
    Schema {
        /// The schema of test tables (`*.test.json`) instead.
        #[arg(long)]
        tests: bool,
    },
}

fn tui(file: Option<&std::path::Path>, wiring: Option<&str>, seed: u64, record: Option<&std::path::Path>) -> ExitCode {
    if let Some(Err(e)) = record.map(record::check_destination) {
        out::error(&e);
        return ExitCode::FAILURE;
    }
    let (project, warnings) = match source::project_quiet(file, wiring) {
        Ok(p) => p,
        Err(e) => {
            out::error(&e);
            return ExitCode::FAILURE;
        }
    };
    if let Some(Err(e)) = record.map(|r| guard::not_an_input(r, "--record", &guard::project_inputs(&project))) {
        out::error(&e);
        return ExitCode::FAILURE;
    }
    // Said on the status line while the game runs and printed once the terminal is back, on
    // every way out: printed before, the switch to the game's screen hid them at once.
    // The file as given: an imported XML file's project is named `.json`.
    let name = file.map_or_else(|| project.files[0].path.display().to_string(), |f| f.display().to_string());
    let code = tui_project(project, &name, &warnings, file.is_some() || wiring.is_some(), seed, record);
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    code
}

/// The status line's word on an import's warnings (empty when there are none).
fn warnings_notice(n: usize) -> Option<String> {
    match n {
        0 => None,
        1 => Some("1 import warning, printed when you quit".into()),
        n => Some(format!("{n} import warnings, printed when you quit")),
    }
}

fn tui_project(
    project: fbd_engine::load::Project,
    name: &str,
    warnings: &[String],
    chosen: bool,
    seed: u64,
    record: Option<&std::path::Path>,
) -> ExitCode {
    let plan = match compile_project(&project, &CompileOptions::default()) {
        Ok(p) => p,
        Err(e) => {
            out::error(&e.to_string());
            return ExitCode::FAILURE;
        }
    };
    // The same best-score records as the window: per program, by content hash.
    let mut best = fbd2048_game::best::Best::new(fbd2048_game::best::BestStore::default_location());
    let default = !chosen;
    let program_name = project.root().name.clone().unwrap_or_default();
    let (_, warning) = best.attach(project.files.iter().map(|f| f.text.as_str()), &program_name, default);
    if let Some(w) = warning {
        out::error(&w);
    }
    let notice = warnings_notice(warnings.len());
    // A program without the 2048 interface gets the panel of its inputs and outputs.
    let ran = if fbd2048_game::front::GameIo::find(&plan).is_some() {
        fbd_tui::run(plan, name, seed, record.is_some(), &mut best, notice.as_deref())
    } else {
        let description = project.root().description.as_deref();
        fbd_tui::panel::run_panel(plan, name, description, seed, record.is_some(), notice.as_deref())
    };
    match ran {
        Ok(mut rt) => match record {
            Some(path) => match record::finish(&mut rt, &project, path) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    out::error(&e);
                    ExitCode::FAILURE
                }
            },
            None => ExitCode::SUCCESS,
        },
        Err(e) => {
            out::error(&e.to_string());
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    out::quiet_on_broken_pipe();
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Check { file, plan, signals } => check(&file, plan, signals),
        Cmd::Run(args) => run::run(args),
        Cmd::Dot { file, macro_name } => dot(&file, macro_name.as_deref()),
        Cmd::Svg { file, macro_name, output, after, seed, sets, instance, auto, connectors, page, whole, sheets } => {
            let online = after.map(|n| draw::Online { scans: n, seed, sets, instance });
            draw::svg(
                &file,
                macro_name.as_deref(),
                output.as_deref(),
                online,
                draw::How { auto, connectors, page, whole, sheets },
            )
        }
        Cmd::Layout { file, write, connectors } => draw::layout_cmd(&file, write, connectors),
        Cmd::Serve(args) => serve::serve_cmd(args),
        Cmd::TestFromRecording { recording, output, program } => {
            tables::from_recording_cmd(&recording, &output, program.as_deref())
        }
        Cmd::Test { paths, junit, json, coverage, coverage_svg } => {
            tables::test_cmd(&paths, junit.as_deref(), json, coverage, coverage_svg.as_deref())
        }
        Cmd::Fmt { files, check } => draw::fmt_cmd(&files, check),
        Cmd::Replay { file, check, program } => record::replay_cmd(&file, check, program.as_deref()),
        Cmd::Tui { file, wiring, seed, record } => tui(file.as_deref(), wiring.as_deref(), seed, record.as_deref()),
        Cmd::Import { file, output } => plcopen::import_cmd(&file, output.as_deref()),
        Cmd::Export { file, output } => plcopen::export_cmd(&file, output.as_deref()),
        Cmd::Bench(args) => bench::bench(args),
        Cmd::Play(args) => game::play(args),
        Cmd::Autoplay(args) => autoplay::autoplay(args),
        Cmd::Latency(args) => game::latency(args),
        Cmd::Blocks { markdown } => {
            if markdown {
                out::print(&library::markdown())
            } else {
                let lines: String =
                    library::LIBRARY.iter().map(|d| format!("{:<12} {}\n", d.name, d.summary)).collect();
                out::print(&lines)
            }
        }
        Cmd::Schema { tests: false } => out::print(&fbd_engine::model::json_schema()),
        Cmd::Schema { tests: true } => out::print(&fbd_test::json_schema()),
    }
}

/// Prints the diagnostics and their count; the exit code of a rejected diagram.
pub(crate) fn rejected(file: &std::path::Path, e: &fbd_engine::Diagnostics) -> ExitCode {
    eprintln!("{e}");
    let n = e.0.len();
    eprintln!("{}: {n} error{} found", file.display(), if n == 1 { "" } else { "s" });
    ExitCode::FAILURE
}

fn check(file: &std::path::Path, show_plan: bool, show_signals: bool) -> ExitCode {
    let mem_base = mem::reset_peak();
    let t0 = std::time::Instant::now();
    let project = match crate::source::load_file_lean(file) {
        Ok(p) => p,
        Err(e) => return rejected(file, &e),
    };
    let load_time = t0.elapsed();
    let plan = match fbd_engine::compile_lean(project, &CompileOptions::default()) {
        Ok(p) => p,
        Err(e) => return rejected(file, &e),
    };
    let dt = t0.elapsed();
    let peak = mem::peak_above(mem_base);
    let s = &plan.stats;
    use std::fmt::Write as _;
    let mut o = String::new();
    // A diagram without a name is named after its file: said once.
    if plan.name == file.display().to_string() {
        let _ = writeln!(o, "{}: ok", file.display());
    } else {
        let _ = writeln!(o, "{}: ok ({})", file.display(), plan.name);
    }
    let _ = writeln!(o, "  files       {}", s.files);
    let _ = writeln!(o, "  macros      {} defined, {} instances", s.macros, s.instances);
    let _ = writeln!(o, "  blocks      {} (after expansion)", s.blocks);
    let _ = writeln!(o, "  signals     {}", s.signals);
    let _ = writeln!(o, "  plan        {} instructions in {} data-flow levels", s.instructions, s.levels);
    let _ = write!(o, "  slots       {} BOOL, {} integer, {} REAL", s.slots[0], s.slots[1], s.slots[2]);
    let _ = if s.slots[3] > 0 { writeln!(o, ", {} STRING", s.slots[3]) } else { writeln!(o) };
    let _ = writeln!(o, "  interface   {} inputs, {} outputs", plan.inputs.len(), plan.outputs.len());
    let _ = writeln!(o, "  cycle       {} ms", plan.cycle_us as f64 / 1000.0);
    let ph = &s.phases;
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let _ = writeln!(
        o,
        "  time        {:.2} ms: load {:.2}, expand {:.2}, types {:.2}, order {:.2}, emit {:.2}",
        ms(dt),
        ms(load_time),
        ms(ph.expand),
        ms(ph.types),
        ms(ph.order),
        ms(ph.emit)
    );
    if let Some(bytes) = peak {
        let _ = writeln!(
            o,
            "  memory      {:.1} MB at the peak of loading and compiling ({:.0} bytes per block)",
            bytes as f64 / 1e6,
            bytes as f64 / s.blocks.max(1) as f64
        );
    }
    if show_plan {
        let _ = write!(o, "{}", plan.listing());
    }
    if show_signals {
        for sig in &plan.signals {
            let driver = plan.driver(sig).map(|d| format!(" <- {d}")).unwrap_or_default();
            let _ = writeln!(o, "{:<48} {:<4} {:?}{driver}", sig.path, sig.slot.ty, sig.kind);
        }
    }
    out::print(&o)
}

fn dot(file: &std::path::Path, macro_name: Option<&str>) -> ExitCode {
    let project = match crate::source::load_file(file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    match fbd_engine::dot::to_dot(&project, macro_name) {
        Ok(s) => out::print(&s),
        Err(e) => {
            crate::out::error(&e.to_string());
            ExitCode::FAILURE
        }
    }
}
