//! The peers side by side inside `fbd bench --all`, in one run: each pair runs their build and
//! ours back to back, and the ratio of each pair is kept, so a figure is a median and a range of
//! ratios measured under the same conditions, never two numbers from different days.
//!
//! - `--nneonneo-moves PATH`: a program running the workload on nneonneo/2048-ai's
//!   `execute_move` (what it must print: `tools/peers/README.md`) against
//!   `ref2048::workload`, the same 2^20 boards, four moves each, 30 times; the checksums must
//!   agree.
//! - `--ironplc DIR`: IronPLC's `ironplcc` and `ironplcvm` running `x := (x + 7 - 3) MOD 1021` 1,000 times per
//!   scan as Structured Text, against the same program as FBD (`fbd bench --shape modchain`),
//!   and the chain and wide shapes as their plans in Structured Text (`fbd_engine::stgen`).
//!
//! Nothing of theirs is built or committed here, nor any recipe that builds it (the
//! workplace's rule for other people's code): whoever measures builds the peers from their
//! public sources and passes the programs.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Which peer builds to run, and how many pairs.
pub struct Peers {
    /// The nneonneo move harness binary.
    pub nneonneo_moves: Option<PathBuf>,
    /// The directory holding `ironplcc` and `ironplcvm`.
    pub ironplc: Option<PathBuf>,
    /// Pairs per peer.
    pub pairs: usize,
}

/// One comparison: per pair, our figure and theirs (same unit), and what their ratio means.
pub struct Comparison {
    /// Short name (`nneonneo_moves`, `ironplc`).
    pub name: &'static str,
    /// What was run.
    pub what: String,
    /// The unit of `pairs`.
    pub unit: &'static str,
    /// (ours, theirs) per pair.
    pub pairs: Vec<(f64, f64)>,
    /// How the ratio reads.
    pub ratio_is: &'static str,
    /// The ratio of one pair.
    ratio: fn(f64, f64) -> f64,
}

impl Comparison {
    /// Every pair's ratio.
    pub fn ratios(&self) -> Vec<f64> {
        self.pairs.iter().map(|&(o, t)| (self.ratio)(o, t)).collect()
    }

    /// Median, lowest, highest ratio.
    pub fn summary(&self) -> (f64, f64, f64) {
        let mut r = self.ratios();
        r.sort_by(f64::total_cmp);
        (r[r.len() / 2], r[0], r[r.len() - 1])
    }

    /// The comparison as JSON.
    pub fn json(&self) -> serde_json::Value {
        let (med, lo, hi) = self.summary();
        serde_json::json!({
            "what": self.what, "unit": self.unit, "ratio_is": self.ratio_is,
            "pairs": self.pairs.iter().map(|(o, t)| serde_json::json!({"ours": o, "theirs": t})).collect::<Vec<_>>(),
            "ratio_median": med, "ratio_min": lo, "ratio_max": hi,
        })
    }

    /// One line for the table.
    pub fn line(&self) -> String {
        let (med, lo, hi) = self.summary();
        let n = self.pairs.len() as f64;
        let ours = self.pairs.iter().map(|p| p.0).sum::<f64>() / n;
        let theirs = self.pairs.iter().map(|p| p.1).sum::<f64>() / n;
        format!(
            "{}: ours {ours:.3} {u}, theirs {theirs:.3} {u} (means of {} pairs); {}: median {med:.2} ({lo:.2}-{hi:.2})",
            self.what,
            self.pairs.len(),
            self.ratio_is,
            u = self.unit
        )
    }
}

/// Runs every peer that was given; the first failure ends the run with a message that says
/// which build failed and how to get it.
pub fn run(p: &Peers) -> Result<Vec<Comparison>, String> {
    let mut out = Vec::new();
    if let Some(bin) = &p.nneonneo_moves {
        out.push(nneonneo_moves(bin, p.pairs)?);
    }
    if let Some(dir) = &p.ironplc {
        out.extend(ironplc(dir, p.pairs)?);
    }
    Ok(out)
}

fn run_tool(bin: &Path, args: &[&str], how_to_build: &str) -> Result<String, String> {
    let o = Command::new(bin).args(args).output().map_err(|e| format!("{}: {e}; {how_to_build}", bin.display()))?;
    if !o.status.success() {
        return Err(format!(
            "{} {} failed ({}): {}",
            bin.display(),
            args.join(" "),
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    String::from_utf8(o.stdout).map_err(|_| format!("{}: output is not UTF-8", bin.display()))
}

/// `checksum HEX  moves N  T ns/move ...` → (checksum, ns per move).
fn parse_moves_line(line: &str) -> Option<(String, f64)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let sum = w.get(w.iter().position(|&x| x == "checksum")? + 1)?;
    let ns = w.get(w.iter().position(|&x| x == "ns/move")?.checked_sub(1)?)?;
    Some((sum.to_string(), ns.parse().ok()?))
}

fn nneonneo_moves(bin: &Path, pairs: usize) -> Result<Comparison, String> {
    const HOW: &str = "it must be a program running the moves workload on nneonneo/2048-ai's \
                       execute_move (tools/peers/README.md says what it prints)";
    if !bin.is_file() {
        return Err(format!("{}: no such file; {HOW}", bin.display()));
    }
    let boards = ref2048::workload::boards();
    let mut out = Vec::new();
    for _ in 0..pairs {
        let text = run_tool(bin, &[], HOW)?;
        let ours = ref2048::workload::run(&boards, 30);
        let (sum, theirs_ns) = parse_moves_line(text.trim())
            .ok_or_else(|| format!("{}: unexpected output `{}`; {HOW}", bin.display(), text.trim()))?;
        let our_sum = format!("{:016x}", ours.checksum);
        if sum != our_sum {
            return Err(format!(
                "{}: checksum {sum}, ours {our_sum}: the two did not make the same moves",
                bin.display()
            ));
        }
        out.push((ours.ns_per_move(), theirs_ns));
    }
    Ok(Comparison {
        name: "nneonneo_moves",
        what: "native moves vs nneonneo/2048-ai execute_move (2^20 boards x 4 moves x 30, same checksum)".into(),
        unit: "ns/move",
        pairs: out,
        ratio_is: "our time / theirs (below 1: ours faster)",
        ratio: |o, t| o / t,
    })
}

/// The IronPLC comparison's program: `stages` times `x := (x + 7 - 3) MOD 1021`.
fn modchain_st(stages: usize) -> String {
    let mut s = String::from("PROGRAM main\n  VAR x : DINT; END_VAR\n");
    for _ in 0..stages {
        s.push_str("  x := (x + 7 - 3) MOD 1021;\n");
    }
    s.push_str("END_PROGRAM\n");
    s
}

/// One program for IronPLC: its Structured Text and our synthetic shape that is the same work.
struct IronplcProgram {
    name: &'static str,
    what: String,
    st: String,
    shape: &'static str,
    blocks: usize,
}

/// The programs compared with IronPLC: the hand-written modchain (1,000 stages), and the chain
/// and wide shapes at 10,000 blocks as their plans translated to Structured Text
/// (`fbd_engine::stgen`). Not 100,000: IronPLC's compiler takes ~4 s for 10,000 statements and
/// ~33 s (1.2 GB) for 30,000 on this machine, growing faster than linearly.
fn ironplc_programs() -> Result<Vec<IronplcProgram>, String> {
    const STAGES: usize = 1000;
    const N: usize = 10_000;
    let mut out = vec![IronplcProgram {
        name: "ironplc",
        what: format!("x := (x + 7 - 3) MOD 1021, {STAGES}x per scan: FBD interpreter vs IronPLC bytecode VM"),
        st: modchain_st(STAGES),
        shape: "modchain",
        blocks: STAGES * 3,
    }];
    for (name, shape) in [("ironplc_chain", "chain"), ("ironplc_wide", "wide")] {
        let text = crate::bench::synthetic_text(shape, N);
        let plan = fbd_engine::compile(&text).map_err(|e| format!("synthetic {shape}: {e}"))?;
        out.push(IronplcProgram {
            name,
            what: format!("synthetic {shape}, {N} blocks (its plan as Structured Text for IronPLC)"),
            st: fbd_engine::stgen::emit(&plan)?,
            shape,
            blocks: N,
        });
    }
    Ok(out)
}

fn ironplc(dir: &Path, pairs: usize) -> Result<Vec<Comparison>, String> {
    const HOW: &str = "pass the directory of IronPLC's release build (its compiler/target/release), \
                       built from their public source (tools/peers/README.md)";
    for tool in ["ironplcc", "ironplcvm"] {
        if !dir.join(tool).is_file() {
            return Err(format!("{}: no {tool} here; {HOW}", dir.display()));
        }
    }
    let programs = ironplc_programs()?;
    // Removed with the programs when `scratch` drops, on every return path.
    let scratch = tempfile::Builder::new()
        .prefix("fbd-peers-")
        .tempdir()
        .map_err(|e| format!("cannot make a directory for IronPLC's programs: {e}"))?;
    let work = scratch.path();
    let result: Result<Vec<Vec<(f64, f64)>>, String> = (|| {
        let mut codes = Vec::new();
        for p in &programs {
            let st = work.join(format!("{}.st", p.name));
            let code = work.join(format!("{}.iplc", p.name));
            std::fs::write(&st, &p.st).map_err(|e| format!("{}: {e}", st.display()))?;
            run_tool(&dir.join("ironplcc"), &["compile", &st.to_string_lossy(), "-o", &code.to_string_lossy()], HOW)?;
            codes.push(code.to_string_lossy().into_owned());
        }
        let vm = dir.join("ironplcvm");
        let mut out = vec![Vec::new(); programs.len()];
        for _ in 0..pairs {
            for (k, p) in programs.iter().enumerate() {
                let text = run_tool(&vm, &["benchmark", &codes[k], "--cycles", "20000", "--warmup", "2000"], HOW)?;
                let v: serde_json::Value =
                    serde_json::from_str(&text).map_err(|e| format!("{}: benchmark output: {e}", vm.display()))?;
                let theirs_us = v["scan_us"]["mean"]
                    .as_f64()
                    .ok_or_else(|| format!("{}: no scan_us.mean in the benchmark output", vm.display()))?;
                let ours = crate::bench::synthetic_row(p.shape, p.blocks, false, None)?;
                out[k].push((ours.mean_ns / 1e3, theirs_us));
            }
        }
        Ok(out)
    })();
    Ok(programs
        .into_iter()
        .zip(result?)
        .map(|(p, pairs)| Comparison {
            name: p.name,
            what: p.what,
            unit: "µs/scan",
            pairs,
            ratio_is: "their time / ours",
            ratio: |o, t| t / o,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_harness_line_is_read() {
        let l = "checksum 9cd038de2fdb8f16  moves 125829120  2.463 ns/move  406.0 Mmoves/s  (process 0.314 s)";
        assert_eq!(parse_moves_line(l), Some(("9cd038de2fdb8f16".into(), 2.463)));
        assert_eq!(parse_moves_line("checksum"), None);
        assert_eq!(parse_moves_line("moves 3 x ns/move"), None);
    }

    #[test]
    fn ratios_are_summarised_per_pair() {
        let c = Comparison {
            name: "t",
            what: "t".into(),
            unit: "ns",
            pairs: vec![(1.0, 2.0), (3.0, 3.0), (1.0, 4.0)],
            ratio_is: "ours / theirs",
            ratio: |o, t| o / t,
        };
        assert_eq!(c.ratios(), vec![0.5, 1.0, 0.25]);
        assert_eq!(c.summary(), (0.5, 0.25, 1.0));
        assert_eq!(c.json()["ratio_median"], 0.5);
    }

    #[test]
    fn a_missing_build_says_how_to_get_it() {
        let p = Peers { nneonneo_moves: Some("/nonexistent/nneonneo_moves".into()), ironplc: None, pairs: 1 };
        let e = run(&p).err().expect("fails");
        assert!(e.contains("/nonexistent/nneonneo_moves") && e.contains("tools/peers/README.md"), "{e}");
    }

    #[test]
    fn the_st_program_has_one_line_per_stage() {
        let s = modchain_st(3);
        assert_eq!(s.matches("MOD 1021").count(), 3);
        assert!(s.starts_with("PROGRAM main") && s.ends_with("END_PROGRAM\n"));
    }
}
