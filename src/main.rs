//! fbd2048: opens the HMI with the 2048 program embedded in the binary (works from any
//! directory), or another diagram with `--diagram PATH`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use fbd_hmi::source::Origin;
use fbd2048_game::Wiring;

/// 2048 built out of function blocks, on a soft-PLC with a scan-cycle debugger.
#[derive(Parser)]
#[command(name = "fbd2048", version, about)]
struct Cli {
    /// Open this diagram (JSON, or PLCopen XML: `.xml`) instead of the embedded 2048 program.
    #[arg(long)]
    diagram: Option<PathBuf>,
    /// Which embedded 2048 wiring: upd1 (default), original, smart-spawn.
    #[arg(long, conflicts_with = "diagram")]
    wiring: Option<String>,
    /// Runtime seed for RANDOM blocks.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Start paused (step from the debugger).
    #[arg(long)]
    paused: bool,
    /// Open the debugger panel.
    #[arg(long)]
    debugger: bool,
    /// Play back a recording (`fbd ... --record`, File > Record) with its timeline.
    #[arg(long, value_name = "REC", conflicts_with_all = ["diagram", "wiring"])]
    replay: Option<PathBuf>,
}

// mimalloc: compiling a large diagram is allocation-bound (many small strings and vectors);
// glibc's malloc and free took a third of it (100k blocks: ~350 -> ~210 ms).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let origin = match (&cli.diagram, &cli.wiring) {
        (Some(p), _) => Origin::File(p.clone()),
        (None, Some(w)) => match Wiring::parse(w) {
            Some(w) => Origin::Embedded(w),
            None => {
                eprintln!("error: unknown wiring `{w}`; use upd1, original or smart-spawn");
                return ExitCode::FAILURE;
            }
        },
        (None, None) => Origin::Embedded(Wiring::Upd1),
    };
    let opts = fbd_hmi::Options {
        origin,
        seed: cli.seed,
        start_paused: cli.paused,
        show_debugger: cli.debugger || cli.paused,
        replay: cli.replay,
        ..fbd_hmi::Options::default()
    };
    match fbd_hmi::run(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot open the window: {e}");
            eprintln!("(a display is needed; under a headless machine use `xvfb-run -a cargo run --release`)");
            ExitCode::FAILURE
        }
    }
}
