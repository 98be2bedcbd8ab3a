//! Property tests: random mutations of valid diagrams never panic the loader or the compiler,
//! and whatever compiles also runs without panicking.

use fbd_engine::{CompileOptions, MemProvider, Runtime, compile_str};
use proptest::prelude::*;

const LIB: &str = include_str!("../../../../examples/lib/timing.json");
const PROGRAM: &str = include_str!("../../../../examples/blinker.json");

/// Compiles `program` (which includes `lib/timing.json`) and, if it compiles, runs a few scans.
fn exercise(program: &str, lib: &str) {
    let p = MemProvider::new().with("lib/timing.json", lib);
    if let Ok(plan) =
        compile_str(&p, "blinker.json", program, &CompileOptions { max_blocks: 10_000, ..Default::default() })
    {
        let mut rt = Runtime::new(plan);
        rt.step_n(20);
    }
}

/// Text-level edits: delete, duplicate or replace a span, insert a token.
fn mutate_text(text: &str, ops: &[(u8, usize, usize, u8)]) -> String {
    const TOKENS: &[&str] =
        &["{", "}", "[", "]", ",", ":", "\"", "null", "-1", "1e999", "\"x.q\"", "\"in\"", "true", "\\u0000"];
    let mut s: Vec<char> = text.chars().collect();
    for &(op, at, len, tok) in ops {
        if s.is_empty() {
            break;
        }
        let at = at % s.len();
        let end = (at + len % 16).min(s.len());
        match op % 4 {
            0 => {
                s.drain(at..end);
            }
            1 => {
                let dup: Vec<char> = s[at..end].to_vec();
                s.splice(at..at, dup);
            }
            2 => {
                let t: Vec<char> = TOKENS[tok as usize % TOKENS.len()].chars().collect();
                s.splice(at..end, t);
            }
            _ => {
                let t: Vec<char> = TOKENS[tok as usize % TOKENS.len()].chars().collect();
                s.splice(at..at, t);
            }
        }
    }
    s.into_iter().collect()
}

/// Structure-level edits on the parsed JSON: swap references, retype, drop keys, rewire.
fn mutate_json(text: &str, ops: &[(u8, usize, u8)]) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("examples are JSON");
    let refs = ["latch.q1", "fast.q", "slow.cycles", "done.out", "start", "nope.q", "fast", "slow_en.out", "x"];
    let types = ["AND", "OR", "TON", "Blinker", "MEMORY", "DELAY", "SEL", "ADD", "Bogus", "SELECTOR", "MUX"];
    for &(op, idx, pick) in ops {
        let Some(blocks) = v.get_mut("blocks").and_then(|b| b.as_array_mut()) else { break };
        if blocks.is_empty() {
            break;
        }
        let n = blocks.len();
        let blk = &mut blocks[idx % n];
        match op % 7 {
            0 => blk["type"] = types[pick as usize % types.len()].into(),
            1 => {
                if let Some(ins) = blk.get_mut("inputs").and_then(|i| i.as_object_mut()) {
                    let keys: Vec<String> = ins.keys().cloned().collect();
                    if !keys.is_empty() {
                        let k = &keys[pick as usize % keys.len()];
                        ins[k] = refs[pick as usize % refs.len()].into();
                    }
                }
            }
            2 => {
                if let Some(o) = blk.as_object_mut() {
                    o.remove("inputs");
                }
            }
            3 => blk["id"] = refs[pick as usize % refs.len()].split('.').next().unwrap_or("a").into(),
            4 => {
                if let Some(ins) = blk.get_mut("inputs").and_then(|i| i.as_object_mut()) {
                    ins.insert(format!("in{}", pick % 5), serde_json::json!({"from": refs[pick as usize % refs.len()], "feedback": pick % 2 == 0, "init": pick}));
                }
            }
            5 => blk["params"] = serde_json::json!({"init": pick, "n": pick % 3}),
            _ => {
                let copy = blk.clone();
                blocks.push(copy);
            }
        }
    }
    v.to_string()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn text_mutations_never_panic(ops in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<usize>(), any::<u8>()), 1..6)) {
        exercise(&mutate_text(PROGRAM, &ops), LIB);
        exercise(PROGRAM, &mutate_text(LIB, &ops));
    }

    #[test]
    fn structural_mutations_never_panic(ops in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..8)) {
        exercise(&mutate_json(PROGRAM, &ops), LIB);
    }

    #[test]
    fn synthetic_diagrams_always_compile_and_run(n in 1usize..400, seed in any::<u64>()) {
        let plan = fbd_engine::compile(&fbd_engine::synth::diagram(n, seed)).expect("synthetic diagrams are valid");
        prop_assert_eq!(plan.stats.blocks, n);
        let mut rt = Runtime::new(plan);
        rt.step_n(3);
    }
}
