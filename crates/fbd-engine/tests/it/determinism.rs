//! The same seed and inputs give the same trace, bit for bit; another seed gives another one.

use crate::harness::{b, i, plan};
use fbd_engine::Runtime;

const NOISY: &str = r#"{"fbd": 1, "cycle_ms": 5,
  "inputs": [{"name": "go", "type": "BOOL"}, {"name": "k", "type": "INT"}],
  "blocks": [
    {"id": "r1", "type": "RANDOM", "inputs": {"lo": 1, "hi": 16}},
    {"id": "r2", "type": "RANDOM", "inputs": {"en": "go"}, "params": {"seed": 5}},
    {"id": "saw", "type": "SAW", "inputs": {"period": 37, "lo": 1.0, "hi": 2.0}},
    {"id": "now", "type": "NOW"},
    {"id": "q", "type": "DIV", "inputs": {"in1": "now.s", "in2": "saw.out"}},
    {"id": "f", "type": "FRAC", "inputs": {"in": "q.out"}},
    {"id": "t", "type": "TON", "inputs": {"in": "go", "pt": 40}},
    {"id": "rare", "type": "LT", "inputs": {"in1": "r2.x", "in2": 0.05}},
    {"id": "c", "type": "CTU", "inputs": {"cu": "t.q", "r": "rare.out", "pv": 3}},
    {"id": "acc", "type": "ADD", "inputs": {"in1": {"from": "acc.out", "feedback": true}, "in2": "r1.n", "in3": "k"}}
  ]}"#;

/// A hash of every slot after every scan.
fn trace(seed: u64) -> Vec<u64> {
    let mut rt = Runtime::with_seed(plan(NOISY), seed);
    let mut out = Vec::new();
    for s in 0..3000u64 {
        rt.set_input("go", b(s % 97 < 50)).expect("input");
        rt.set_input("k", i((s % 13) as i64)).expect("input");
        rt.step();
        let st = rt.state();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |x: u64| h = (h ^ x).wrapping_mul(0x0000_0100_0000_01b3);
        st.bools.iter().for_each(|v| mix(*v as u64));
        st.ints.iter().for_each(|v| mix(*v as u64));
        st.reals.iter().for_each(|v| mix(v.to_bits()));
        out.push(h);
    }
    out
}

#[test]
fn same_seed_same_trace_bit_for_bit() {
    assert_eq!(trace(42), trace(42));
}

#[test]
fn another_seed_another_trace() {
    let (a, b) = (trace(42), trace(43));
    let differing = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    assert!(differing > 2900, "only {differing} of 3000 scans differ");
}

#[test]
fn compiling_twice_gives_the_same_plan() {
    let (a, b) = (plan(NOISY), plan(NOISY));
    assert_eq!(a.listing(), b.listing());
    assert_eq!(a.fingerprint, b.fingerprint);
}
