//! `fbd`: the command-line client of the FBD engine.
//!
//! `fbd check`, `fbd run`, `fbd dot`, `fbd bench`, `fbd blocks`, `fbd schema`. Errors print as
//! `file:line:col: message (block, pin)` and make the exit code non-zero.

mod autoplay;
mod bench;
mod game;
mod out;
mod run;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use fbd_engine::{CompileOptions, FsProvider, library, load};

/// Function Block Diagram soft-PLC: check, run, draw and benchmark diagrams.
#[derive(Parser)]
#[command(name = "fbd", version, about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Validate a diagram and print a summary (blocks, macros, instances, signals, plan length).
    Check {
        /// The diagram (JSON).
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
        /// The diagram (JSON).
        file: PathBuf,
        /// Draw this macro's body instead of the program.
        #[arg(long = "macro")]
        macro_name: Option<String>,
    },
    /// Draw the program or one macro as SVG (laid out by fbd-layout), to stdout or a file.
    Svg {
        /// The diagram (JSON).
        file: PathBuf,
        /// Draw this macro's body instead of the program.
        #[arg(long = "macro")]
        macro_name: Option<String>,
        /// Write to this file instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
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
    /// Print the JSON Schema of the diagram format.
    Schema,
}

fn main() -> ExitCode {
    out::quiet_on_broken_pipe();
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Check { file, plan, signals } => check(&file, plan, signals),
        Cmd::Run(args) => run::run(args),
        Cmd::Dot { file, macro_name } => dot(&file, macro_name.as_deref()),
        Cmd::Svg { file, macro_name, output } => svg(&file, macro_name.as_deref(), output.as_deref()),
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
        Cmd::Schema => out::print(&fbd_engine::model::json_schema()),
    }
}

/// Prints the diagnostics and their count; the exit code of a rejected diagram.
fn rejected(file: &std::path::Path, e: &fbd_engine::Diagnostics) -> ExitCode {
    eprintln!("{e}");
    let n = e.0.len();
    eprintln!("{}: {n} error{} found", file.display(), if n == 1 { "" } else { "s" });
    ExitCode::FAILURE
}

fn check(file: &std::path::Path, show_plan: bool, show_signals: bool) -> ExitCode {
    let t0 = std::time::Instant::now();
    let project = match load::load(&FsProvider, file) {
        Ok(p) => p,
        Err(e) => return rejected(file, &e),
    };
    let load_time = t0.elapsed();
    let plan = match fbd_engine::compile_project(&project, &CompileOptions::default()) {
        Ok(p) => p,
        Err(e) => return rejected(file, &e),
    };
    let dt = t0.elapsed();
    let s = &plan.stats;
    use std::fmt::Write as _;
    let mut o = String::new();
    let _ = writeln!(o, "{}: ok ({})", file.display(), plan.name);
    let _ = writeln!(o, "  files       {}", s.files);
    let _ = writeln!(o, "  macros      {} defined, {} instances", s.macros, s.instances);
    let _ = writeln!(o, "  blocks      {} (after expansion)", s.blocks);
    let _ = writeln!(o, "  signals     {}", s.signals);
    let _ = writeln!(o, "  plan        {} instructions in {} data-flow levels", s.instructions, s.levels);
    let _ = writeln!(o, "  slots       {} BOOL, {} INT, {} REAL", s.slots[0], s.slots[1], s.slots[2]);
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
    let project = match load::load(&FsProvider, file) {
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

fn svg(file: &std::path::Path, macro_name: Option<&str>, output: Option<&std::path::Path>) -> ExitCode {
    let project = match load::load(&FsProvider, file) {
        Ok(p) => p,
        Err(e) => return rejected(file, &e),
    };
    let body = match fbd_layout::from_model::body(&project, macro_name) {
        Ok(b) => b,
        Err(e) => {
            out::error(&e);
            return ExitCode::FAILURE;
        }
    };
    let l = fbd_layout::layout(&body);
    let title = match macro_name {
        Some(m) => format!("{m} ({})", file.display()),
        None => project.root().name.clone().unwrap_or_else(|| file.display().to_string()),
    };
    let text = fbd_layout::svg::svg(&body, &l, &title, &fbd_layout::svg::NoValues);
    match output {
        None => out::print(&text),
        Some(p) => match std::fs::write(p, text) {
            Ok(()) => {
                eprintln!(
                    "{}: {} blocks, {} crossings, {} bends, wire length {:.0}",
                    p.display(),
                    body.nodes.len(),
                    l.stats.crossings,
                    l.stats.bends,
                    l.stats.length
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                out::error(&format!("{}: cannot write: {e}", p.display()));
                ExitCode::FAILURE
            }
        },
    }
}
