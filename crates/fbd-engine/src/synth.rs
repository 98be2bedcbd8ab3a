//! Synthetic diagrams for benchmarks: `n` blocks of common kinds (AND, OR, NOT, EQ, GT, ADD,
//! SUB, SEL, MEMORY, MOVE) wired at random to earlier blocks, so the plan is a deep DAG with
//! interleaved kinds: the shape that makes a naive interpreter loop mispredict.

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
