//! `fbd check`: a diagram validated and compiled, with a summary (blocks, macros, instances,
//! signals, plan length, time and memory), the plan and the signals on request.

use std::path::PathBuf;
use std::process::ExitCode;

use fbd_engine::CompileOptions;

use crate::error::Error;
use crate::out;

/// Arguments of `fbd check`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The diagram (JSON), or a PLCopen XML file (`.xml`).
    file: PathBuf,
    /// Also print the compiled plan, one instruction per line.
    #[arg(long)]
    plan: bool,
    /// Also print every signal path with its type and kind.
    #[arg(long)]
    signals: bool,
}

/// Runs `fbd check`.
pub(crate) fn run(Args { file, plan: show_plan, signals: show_signals }: Args) -> Result<ExitCode, Error> {
    let file = file.as_path();
    let mem_base = crate::mem::reset_peak();
    let t0 = std::time::Instant::now();
    let project = crate::source::load_file_lean(file).map_err(|e| Error::Rejected(file.to_path_buf(), e))?;
    let load_time = t0.elapsed();
    let plan = fbd_engine::compile_lean(project, &CompileOptions::default())
        .map_err(|e| Error::Rejected(file.to_path_buf(), e))?;
    let dt = t0.elapsed();
    let peak = crate::mem::peak_above(mem_base);
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
