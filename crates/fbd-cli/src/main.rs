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
        /// Run this many scans first and print the values beside the pins (online view).
        #[arg(long)]
        after: Option<u64>,
        /// Runtime seed for RANDOM blocks (with --after).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Set a program input (or write a signal) before the first scan: PATH=VALUE. Repeatable.
        #[arg(long = "set", value_name = "PATH=VALUE")]
        sets: Vec<String>,
        /// With --macro and --after: the instance whose values to show (default: the first).
        #[arg(long)]
        instance: Option<String>,
        /// Lay the body out afresh instead of keeping the blocks' stored positions.
        #[arg(long)]
        auto: bool,
    },
    /// Lay out every body (the program and each macro) and report crossings, bends and wire
    /// length; with --write, store the positions as the blocks' `pos` (the rest of each file's
    /// text is kept as written).
    Layout {
        /// The diagram (JSON).
        file: PathBuf,
        /// Write the positions into the diagram and the library files it includes.
        #[arg(long)]
        write: bool,
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
        Cmd::Svg { file, macro_name, output, after, seed, sets, instance, auto } => {
            let online = after.map(|n| Online { scans: n, seed, sets, instance });
            svg(&file, macro_name.as_deref(), output.as_deref(), online, auto)
        }
        Cmd::Layout { file, write } => layout_cmd(&file, write),
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

/// `fbd svg --after N`: the values of a run after N scans.
struct Online {
    scans: u64,
    seed: u64,
    sets: Vec<String>,
    instance: Option<String>,
}

/// Values read from a runtime by signal path: `prefix` + `block.pin` for block outputs, and the
/// body's input ports (program inputs, or the instance's macro pins).
struct RunValues {
    rt: fbd_engine::Runtime,
    prefix: String,
    instance: Option<String>,
    ids: Vec<String>,
    outs: Vec<Vec<String>>,
    inputs: Vec<String>,
}

impl fbd_layout::svg::Values for RunValues {
    fn output(&self, node: usize, pin: usize) -> Option<String> {
        let path = format!("{}{}.{}", self.prefix, self.ids[node], self.outs[node][pin]);
        self.rt.read(&path).ok().map(|v| v.to_string())
    }
    fn input_port(&self, k: usize) -> Option<String> {
        let path = match &self.instance {
            Some(i) => format!("{i}.{}", self.inputs[k]),
            None => self.inputs[k].clone(),
        };
        self.rt.read(&path).ok().map(|v| v.to_string())
    }
}

fn online_values(
    project: &fbd_engine::load::Project,
    body: &fbd_layout::Body,
    macro_name: Option<&str>,
    o: Online,
) -> Result<RunValues, String> {
    let plan = fbd_engine::compile_project(project, &CompileOptions::default()).map_err(|e| e.to_string())?;
    let instance = match (macro_name, o.instance) {
        (None, _) => None,
        (Some(_), Some(i)) => Some(i),
        (Some(m), None) => Some(
            plan.instances
                .iter()
                .find(|i| i.macro_name == m)
                .map(|i| i.path.clone())
                .ok_or_else(|| format!("the program has no instance of macro `{m}`; give --instance"))?,
        ),
    };
    if let (Some(i), Some(m)) = (&instance, macro_name)
        && !plan.instances.iter().any(|x| &x.path == i && x.macro_name == m)
    {
        return Err(format!("`{i}` is not an instance of macro `{m}`"));
    }
    let mut rt = fbd_engine::Runtime::with_seed(plan, o.seed);
    for s in &o.sets {
        let (path, value) = s.split_once('=').ok_or_else(|| format!("--set: expected PATH=VALUE, got `{s}`"))?;
        let sig = rt.plan().signal(path.trim()).ok_or_else(|| format!("--set: no signal `{path}`"))?;
        let v = fbd_engine::Value::parse(value, sig.slot.ty).map_err(|e| format!("--set {path}: {e}"))?;
        if rt.plan().input(path.trim()).is_some() {
            rt.set_input(path.trim(), v).map_err(|e| e.to_string())?;
        } else {
            rt.write(path.trim(), v).map_err(|e| e.to_string())?;
        }
    }
    rt.step_n(o.scans);
    Ok(RunValues {
        rt,
        prefix: instance.as_ref().map(|i| format!("{i}/")).unwrap_or_default(),
        instance,
        ids: body.nodes.iter().map(|n| n.id.clone()).collect(),
        outs: body.nodes.iter().map(|n| n.outputs.clone()).collect(),
        inputs: body.inputs.clone(),
    })
}

fn svg(
    file: &std::path::Path,
    macro_name: Option<&str>,
    output: Option<&std::path::Path>,
    online: Option<Online>,
    auto: bool,
) -> ExitCode {
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
    let l = if auto {
        fbd_layout::layout(&body)
    } else {
        fbd_layout::layout_kept(&body, &fbd_layout::from_model::positions(&project, macro_name))
    };
    let title = match macro_name {
        Some(m) => format!("{m} ({})", file.display()),
        None => project.root().name.clone().unwrap_or_else(|| file.display().to_string()),
    };
    let text = match online {
        None => fbd_layout::svg::svg(&body, &l, &title, &fbd_layout::svg::NoValues),
        Some(o) => {
            let scans = o.scans;
            match online_values(&project, &body, macro_name, o) {
                Ok(v) => {
                    let title = match &v.instance {
                        Some(i) => format!("{title}, instance {i}, after {scans} scans"),
                        None => format!("{title}, after {scans} scans"),
                    };
                    fbd_layout::svg::svg(&body, &l, &title, &v)
                }
                Err(e) => {
                    out::error(&e);
                    return ExitCode::FAILURE;
                }
            }
        }
    };
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

fn layout_cmd(file: &std::path::Path, write: bool) -> ExitCode {
    let project = match load::load(&FsProvider, file) {
        Ok(p) => p,
        Err(e) => return rejected(file, &e),
    };
    let mut names: Vec<Option<&str>> = vec![None];
    let mut macros: Vec<&str> = project.macros.keys().map(String::as_str).collect();
    macros.sort_unstable();
    names.extend(macros.into_iter().map(Some));
    let mut report = String::new();
    for name in names {
        let Ok(b) = fbd_layout::from_model::body(&project, name) else { continue };
        if b.nodes.is_empty() {
            continue;
        }
        let l = fbd_layout::layout(&b);
        report.push_str(&format!(
            "{:<24} {:>5} blocks {:>6} crossings {:>5} bends  wire length {:.0}\n",
            name.unwrap_or("(program)"),
            b.nodes.len(),
            l.stats.crossings,
            l.stats.bends,
            l.stats.length
        ));
    }
    if write {
        for (path, text) in fbd_layout::from_model::with_positions(&project) {
            if let Err(e) = std::fs::write(&path, text) {
                out::error(&format!("{}: cannot write: {e}", path.display()));
                return ExitCode::FAILURE;
            }
            report.push_str(&format!("wrote positions into {}\n", path.display()));
        }
    }
    out::print(&report)
}
