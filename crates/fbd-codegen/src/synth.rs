//! Synthetic diagrams for benchmarks, two shapes:
//! - [`diagram`] ("chain"): `n` blocks of common kinds (AND, OR, NOT, EQ, GT, ADD, SUB, SEL,
//!   MEMORY, MOVE) wired at random to earlier blocks, so the plan is a deep DAG with interleaved
//!   kinds: the shape that makes a naive interpreter loop mispredict.
//! - [`wide`]: many short independent nets of eight blocks, each closed by a memory with a
//!   feedback wire (like the 2048 program's cells): wide data flow, so dispatch and memory
//!   locality are measured rather than latency chains.
//! - [`mod_chain`]: `x := (x + 7 - 3) MOD 1021` repeated, as ADD, SUB and MOD blocks in one
//!   chain closed by a feedback wire: the program `tools/peers/interpreter-vs-ironplc.sh` runs
//!   as Structured Text on IronPLC's VM.

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write;

/// A diagram of `n` primitive blocks (JSON text), reproducible from `seed`.
pub fn diagram(n: usize, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bools: Vec<String> = vec!["b_in".into()];
    let mut ints: Vec<String> = vec!["i_in".into()];
    let mut s = String::with_capacity(n * 96);
    s.push_str("{\"fbd\":1,\"name\":\"synthetic\",\"inputs\":[{\"name\":\"b_in\",\"type\":\"BOOL\"},{\"name\":\"i_in\",\"type\":\"INT\"}],\"blocks\":[\n");
    // Pick among the last `window` producers, as real programs wire mostly locally.
    let window = 64usize;
    let pick = |rng: &mut ChaCha8Rng, v: &Vec<String>| -> String {
        let lo = v.len().saturating_sub(window);
        v[rng.random_range(lo..v.len())].clone()
    };
    for i in 0..n {
        if i > 0 {
            s.push_str(",\n");
        }
        let id = format!("b{i}");
        match rng.next_u32() % 10 {
            0 => {
                let (a, b) = (pick(&mut rng, &bools), pick(&mut rng, &bools));
                let _ =
                    write!(s, "{{\"id\":\"{id}\",\"type\":\"AND\",\"inputs\":{{\"in1\":\"{a}\",\"in2\":\"{b}\"}}}}");
                bools.push(format!("{id}.out"));
            }
            1 => {
                let (a, b) = (pick(&mut rng, &bools), pick(&mut rng, &bools));
                let _ = write!(s, "{{\"id\":\"{id}\",\"type\":\"OR\",\"inputs\":{{\"in1\":\"{a}\",\"in2\":\"{b}\"}}}}");
                bools.push(format!("{id}.out"));
            }
            2 => {
                let a = pick(&mut rng, &bools);
                let _ = write!(s, "{{\"id\":\"{id}\",\"type\":\"NOT\",\"inputs\":{{\"in\":\"{a}\"}}}}");
                bools.push(format!("{id}.out"));
            }
            3 => {
                let a = pick(&mut rng, &ints);
                let k = rng.random_range(0..8);
                let _ = write!(s, "{{\"id\":\"{id}\",\"type\":\"EQ\",\"inputs\":{{\"in1\":\"{a}\",\"in2\":{k}}}}}");
                bools.push(format!("{id}.out"));
            }
            4 => {
                let (a, b) = (pick(&mut rng, &ints), pick(&mut rng, &ints));
                let _ = write!(s, "{{\"id\":\"{id}\",\"type\":\"GT\",\"inputs\":{{\"in1\":\"{a}\",\"in2\":\"{b}\"}}}}");
                bools.push(format!("{id}.out"));
            }
            5 => {
                let a = pick(&mut rng, &ints);
                let _ = write!(s, "{{\"id\":\"{id}\",\"type\":\"ADD\",\"inputs\":{{\"in1\":\"{a}\",\"in2\":1}}}}");
                ints.push(format!("{id}.out"));
            }
            6 => {
                let (a, b) = (pick(&mut rng, &ints), pick(&mut rng, &ints));
                let _ =
                    write!(s, "{{\"id\":\"{id}\",\"type\":\"SUB\",\"inputs\":{{\"in1\":\"{a}\",\"in2\":\"{b}\"}}}}");
                ints.push(format!("{id}.out"));
            }
            7 => {
                let (g, a, b) = (pick(&mut rng, &bools), pick(&mut rng, &ints), pick(&mut rng, &ints));
                let _ = write!(
                    s,
                    "{{\"id\":\"{id}\",\"type\":\"SEL\",\"inputs\":{{\"g\":\"{g}\",\"in0\":\"{a}\",\"in1\":\"{b}\"}}}}"
                );
                ints.push(format!("{id}.out"));
            }
            8 => {
                let (x, en) = (pick(&mut rng, &ints), pick(&mut rng, &bools));
                let _ =
                    write!(s, "{{\"id\":\"{id}\",\"type\":\"MEMORY\",\"inputs\":{{\"in\":\"{x}\",\"en\":\"{en}\"}}}}");
                ints.push(format!("{id}.q"));
            }
            _ => {
                let a = pick(&mut rng, &ints);
                let _ = write!(s, "{{\"id\":\"{id}\",\"type\":\"MOVE\",\"inputs\":{{\"in\":\"{a}\"}}}}");
                ints.push(format!("{id}.out"));
            }
        }
    }
    s.push_str("\n]}\n");
    s
}

/// A diagram of `n` blocks (rounded up to a multiple of 8; JSON text) in independent nets of
/// eight: a comparison with the program input, an increment of the net's memory, a select, a
/// bound check, a subtraction, a second select, an AND, and the memory (fed back).
pub fn wide(n: usize, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = String::with_capacity(n * 110);
    s.push_str("{\"fbd\":1,\"name\":\"synthetic-wide\",\"inputs\":[{\"name\":\"b_in\",\"type\":\"BOOL\"},{\"name\":\"i_in\",\"type\":\"INT\"}],\"blocks\":[\n");
    for k in 0..n.div_ceil(8) {
        if k > 0 {
            s.push_str(",\n");
        }
        let (c, lim) = (rng.random_range(0..8), rng.random_range(50..200));
        let _ = write!(
            s,
            "{{\"id\":\"e{k}\",\"type\":\"EQ\",\"inputs\":{{\"in1\":\"i_in\",\"in2\":{c}}}}},\n\
             {{\"id\":\"a{k}\",\"type\":\"ADD\",\"inputs\":{{\"in1\":\"m{k}.prev\",\"in2\":1}}}},\n\
             {{\"id\":\"s{k}\",\"type\":\"SEL\",\"inputs\":{{\"g\":\"e{k}.out\",\"in0\":\"a{k}.out\",\"in1\":\"m{k}.prev\"}}}},\n\
             {{\"id\":\"g{k}\",\"type\":\"GT\",\"inputs\":{{\"in1\":\"s{k}.out\",\"in2\":{lim}}}}},\n\
             {{\"id\":\"d{k}\",\"type\":\"SUB\",\"inputs\":{{\"in1\":\"s{k}.out\",\"in2\":{lim}}}}},\n\
             {{\"id\":\"t{k}\",\"type\":\"SEL\",\"inputs\":{{\"g\":\"g{k}.out\",\"in0\":\"s{k}.out\",\"in1\":\"d{k}.out\"}}}},\n\
             {{\"id\":\"o{k}\",\"type\":\"AND\",\"inputs\":{{\"in1\":\"g{k}.out\",\"in2\":\"b_in\"}}}},\n\
             {{\"id\":\"m{k}\",\"type\":\"MEMORY\",\"inputs\":{{\"in\":\"t{k}.out\",\"en\":true}}}}"
        );
    }
    s.push_str("\n]}\n");
    s
}

/// `x := (x + 7 - 3) MOD 1021` repeated `n / 3` times (rounded up; JSON text): ADD, SUB and MOD
/// blocks in one chain, the first reading the last through a feedback wire (last scan's `x`),
/// like the same statement repeated in one Structured Text program.
pub fn mod_chain(n: usize) -> String {
    let stages = n.div_ceil(3).max(1);
    let mut s = String::with_capacity(stages * 240);
    s.push_str("{\"fbd\":1,\"name\":\"synthetic-modchain\",\"blocks\":[\n");
    for k in 0..stages {
        if k > 0 {
            s.push_str(",\n");
        }
        let x = if k == 0 {
            format!("{{\"from\":\"m{}.out\",\"feedback\":true,\"init\":0}}", stages - 1)
        } else {
            format!("\"m{}.out\"", k - 1)
        };
        let _ = write!(
            s,
            "{{\"id\":\"a{k}\",\"type\":\"ADD\",\"inputs\":{{\"in1\":{x},\"in2\":7}}}},\n\
             {{\"id\":\"s{k}\",\"type\":\"SUB\",\"inputs\":{{\"in1\":\"a{k}.out\",\"in2\":3}}}},\n\
             {{\"id\":\"m{k}\",\"type\":\"MOD\",\"inputs\":{{\"in1\":\"s{k}.out\",\"in2\":1021}}}}"
        );
    }
    s.push_str("\n]}\n");
    s
}
