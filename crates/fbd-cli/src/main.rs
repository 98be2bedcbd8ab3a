//! `fbd`: the command-line client of the FBD engine.
//!
//! Each subcommand is a module of `cmd` (its `Args` and its `run`, which returns the exit status
//! or an `Error`); `main` prints a failed command's error once, as `file:line:col: message
//! (block, pin)` where it has a place, and exits with status 1. The modules beside `cmd` are
//! what several commands share: loading a program (`source`), stimuli, recordings, printing
//! (`out`), the guard that no output overwrites an input, the benchmark rows. docs/cli.md says
//! what each command does.
//!
//! What is where: the `fbd` tool: `check`, `test` (test tables, in parallel, `--junit`),
//! `test-from-recording`, `serve` (Modbus TCP), `run` (`--realtime`, `--record`), `replay`, `tui`,
//! `dot`, `svg`, `layout`, `fmt`, `import`, `export`, `bench` (and `bench --all`, with the peers'
//! builds pair by pair: `peers.rs`), `blocks`, `schema`, `play`, `latency`, `autoplay`; `guard.rs`
//! refuses an output that is one of the command's inputs; `stimulus.rs` reads `--set` and a
//! stimulus file line by line into a compact timeline (engine-only: the fuzz target `stimulus`
//! reads the same file)

// mimalloc, counted: see mem.rs.
#[global_allocator]
static ALLOC: mem::Counting = mem::Counting;

mod bench;
mod bench_all;
mod bench_c;
mod cmd;
mod error;
mod game;
mod guard;
mod mem;
mod out;
mod peers;
mod record;
mod source;
mod stimulus;

use std::process::ExitCode;

use clap::Parser;

/// Function Block Diagram soft-PLC: check, run, draw (DOT, SVG), lay out and benchmark diagrams,
/// and play 2048 through the FBD program (play, latency, autoplay).
#[derive(Parser)]
#[command(name = "fbd", version, about)]
struct Cli {
    #[command(subcommand)]
    cmd: cmd::Cmd,
}

fn main() -> ExitCode {
    out::quiet_on_broken_pipe();
    match Cli::parse().cmd.run() {
        Ok(code) => code,
        Err(e) => {
            e.print();
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every subcommand is a module of its own in `cmd/` (a command kept in main.rs or
    /// beside another one's code was how `check`, `dot`, `tui` and `fmt` lived).
    #[test]
    fn every_command_is_a_module_of_cmd() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cmd");
        let names: Vec<String> = super::Cli::command().get_subcommands().map(|c| c.get_name().to_string()).collect();
        assert!(names.len() >= 19, "{names:?}");
        for name in names {
            let file = dir.join(format!("{}.rs", name.replace('-', "_")));
            assert!(file.exists(), "`fbd {name}` has no module {}", file.display());
        }
        let main = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/main.rs"))
            .expect("main.rs");
        let code = main.split("#[cfg(test)]").next().unwrap_or("");
        assert_eq!(code.matches("ExitCode::FAILURE").count(), 1, "main prints a command's error once");
    }
}
