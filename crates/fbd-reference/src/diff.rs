//! The differential check: one diagram, the engine and the reference, the same inputs, and
//! every value and fault compared after every scan.

use std::collections::HashMap;

use fbd_engine::load::{MemProvider, load_text};
use fbd_engine::{CompileOptions, Runtime, SignalKind, Type, Value, compile_project};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Reference;

/// What a passing check covered.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Covered {
    /// Primitive blocks after expansion.
    pub blocks: usize,
    /// Values compared (block outputs and program outputs, over all scans).
    pub values: u64,
    /// Faults seen (the same in both).
    pub faults: u64,
}

/// A random value of `ty` for a program input: small numbers mostly, extremes, NaN and
/// infinities sometimes; for a STRING, texts the conversions read in their several ways.
fn input_value(rng: &mut ChaCha8Rng, ty: Type) -> Value {
    if ty.is_time() {
        return Value::Time(match rng.random_range(0..12) {
            0 => i64::MAX,
            1 => i64::MIN,
            2 => rng.random_range(-2000i64..=2000) * 1000,
            _ => rng.random_range(-8i64..=40) * 5_000_000,
        });
    }
    if ty.is_u64() {
        return Value::ULInt(match rng.random_range(0..12) {
            0 => u64::MAX,
            1 => 1 << 63,
            _ => rng.random_range(0..=16),
        });
    }
    if let Some((lo, hi)) = ty.int_range() {
        return Value::Int(match rng.random_range(0..12) {
            0 => hi,
            1 => lo,
            _ => rng.random_range(-8..=16).clamp(lo, hi),
        });
    }
    match ty {
        Type::Bool => Value::Bool(rng.random_bool(0.5)),
        Type::String => {
            const TEXTS: [&str; 9] = ["", "ab", "7", "-12", "3.75", "16#1f", "true", "x.y", "a,b'c$"];
            let t = match rng.random_range(0..10) {
                0 => "0123456789".repeat(rng.random_range(5..=13)),
                _ => TEXTS[rng.random_range(0..TEXTS.len())].to_string(),
            };
            Value::Str(fbd_engine::IecString::new(t.as_bytes()))
        }
        _ => {
            let r = match rng.random_range(0..14) {
                0 => f64::NAN,
                1 => f64::INFINITY,
                2 => f64::NEG_INFINITY,
                3 => -0.0,
                4 if ty == Type::Real => 3e38,
                4 => 1e300,
                _ => rng.random_range(-64i64..=64) as f64 / 8.0,
            };
            Value::Real(r)
        }
    }
}

/// Runs `text` for `scans` scans in the engine and in the reference with runtime seed `seed`
/// and random inputs from `seed`; `Err` names the first difference (scan, signal, both values)
/// or the diagram's compile error.
pub fn check(text: &str, seed: u64, scans: u64) -> Result<Covered, String> {
    let project = load_text(&MemProvider::new(), "gen.json".as_ref(), text.to_string()).map_err(|e| e.to_string())?;
    let opts = CompileOptions::default();
    let plan = compile_project(&project, &opts).map_err(|e| e.to_string())?;
    let net = fbd_engine::netlist::netlist(&project, &opts).map_err(|e| e.to_string())?;
    let mut reference = Reference::new(net, seed);
    let net = reference.netlist().clone();
    let mut rt = Runtime::with_seed(plan, seed);
    // Every block output the engine names, mapped to the reference's (block, pin).
    let mut index: HashMap<String, (usize, usize)> = HashMap::new();
    for (bi, b) in net.blocks.iter().enumerate() {
        for (k, o) in b.outputs.iter().enumerate() {
            index.insert(format!("{}.{}", b.path, o.name), (bi, k));
        }
    }
    let signals: Vec<(usize, usize, usize)> = rt
        .plan()
        .signals
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == SignalKind::BlockOutput)
        .map(|(id, s)| {
            let (b, p) =
                index.get(s.path).copied().ok_or_else(|| format!("the reference has no signal `{}`", s.path))?;
            Ok((id, b, p))
        })
        .collect::<Result<_, String>>()?;
    if signals.len() != index.len() {
        return Err(format!("the engine names {} block outputs, the reference {}", signals.len(), index.len()));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut covered = Covered { blocks: net.blocks.len(), ..Covered::default() };
    let cycle = rt.plan().cycle_us;
    for scan in 0..scans {
        for (i, p) in net.inputs.iter().enumerate() {
            if rng.random_bool(0.5) {
                let v = input_value(&mut rng, p.ty);
                rt.set_input(&p.name, v).map_err(|e| e.to_string())?;
                reference.set_input(i, v);
            }
        }
        rt.step();
        reference.step(scan * cycle);
        for &(id, b, p) in &signals {
            let (e, r) = (rt.read_signal(id), reference.own_out(b, p));
            if !e.same_bits(r) {
                return Err(format!(
                    "scan {scan}: `{}` is {e:?} in the engine, {r:?} in the reference",
                    rt.plan().signals.at(id).path
                ));
            }
        }
        for (k, o) in net.outputs.iter().enumerate() {
            let (e, r) = (rt.outputs()[k], reference.output(k));
            if !e.same_bits(r) {
                return Err(format!(
                    "scan {scan}: program output `{}` is {e:?} in the engine, {r:?} in the reference",
                    o.name
                ));
            }
        }
        covered.values += (signals.len() + net.outputs.len()) as u64;
    }
    // Faults: the same blocks, kinds and scans (the order within a scan is the plan's).
    let log = rt.faults();
    if log.total != reference.faults.len() as u64 {
        return Err(format!(
            "{} faults in the engine, {} in the reference: {:?}",
            log.total,
            reference.faults.len(),
            reference.faults.iter().take(5).collect::<Vec<_>>()
        ));
    }
    if log.total <= 1024 {
        let mut e: Vec<(u64, String, String)> = log
            .recent()
            .iter()
            .map(|f| (f.scan, rt.plan().instr_block(f.instr as usize).path.to_string(), format!("{:?}", f.kind)))
            .collect();
        let mut r: Vec<(u64, String, String)> =
            reference.faults.iter().map(|(s, p, k)| (*s, p.clone(), format!("{k:?}"))).collect();
        e.sort();
        r.sort();
        if e != r {
            let first = e.iter().zip(&r).find(|(a, b)| a != b);
            return Err(format!("the faults differ; first difference (engine, reference): {first:?}"));
        }
    }
    covered.faults = log.total;
    Ok(covered)
}
