//! A program's tasks as blocks: what the compiler and the PLCopen export run and write.
//!
//! Each task gets a flag `NAME__runs` (its `out` TRUE in the scans it runs) and its blocks an
//! EN read from it: a cyclic task of period P (its interval over the cycle) counts the scans
//! modulo P (`NAME__next`, `NAME__tick`: a DINT from P-1, so the flag is TRUE in scan 0, P,
//! 2P...), an event task detects its BOOL's rising edge (`NAME__trig`, an R_TRIG); a task of
//! period 1 runs every scan and its blocks get no EN. matiec runs tasks on one tick the same
//! way (its `common_ticktime__`); the tick counts from 0 as OpenPLC's runtime counts.

use super::{Block, DocumentOf, MigrateBlock, Pins, TypeName, Wire};
use crate::library::ENABLE;
use crate::locate::Seg;
use crate::types::{Type, Value};

/// What is wrong with a task, and where in the document.
pub type TaskError = (Vec<Seg>, String);

/// The suffix of a task's flag block: `NAME__runs.out` is TRUE in the scans the task runs.
pub const RUNS: &str = "__runs";

/// Adds each task's flag blocks to the program's blocks and an EN read from the flag to each
/// block it runs; the document's `cycle_ms` (default 5) is the tick. Every task is checked
/// first and every problem returned, with nothing changed.
pub fn lower<B: MigrateBlock + From<Block>>(doc: &mut DocumentOf<B>) -> Result<(), Vec<TaskError>> {
    if doc.tasks.is_empty() {
        return Ok(());
    }
    let cycle = doc.cycle_ms.unwrap_or(5.0);
    let plan = plan(doc, cycle)?;
    for (task, how, blocks) in plan {
        let flag = Wire::Ref(format!("{task}{RUNS}.out"));
        let every_scan = how == How::Every(1);
        doc.blocks.extend(flag_blocks(&task, how).into_iter().map(B::from));
        if !every_scan {
            for k in blocks {
                doc.blocks[k].add_input(ENABLE, flag.clone());
            }
        }
    }
    Ok(())
}

/// How a task runs.
#[derive(Clone, Debug, PartialEq)]
enum How {
    /// Every `n`th scan, from scan 0.
    Every(u64),
    /// Where this BOOL rises.
    Rises(Wire),
}

/// A task checked: its name, how it runs and the indices of its blocks.
type Planned = (String, How, Vec<usize>);

/// Each task checked.
fn plan<B: MigrateBlock>(doc: &DocumentOf<B>, cycle: f64) -> Result<Vec<Planned>, Vec<TaskError>> {
    let mut errors = Vec::new();
    let mut out = Vec::new();
    let mut owner: Vec<Option<&str>> = vec![None; doc.blocks.len()];
    for (k, t) in doc.tasks.iter().enumerate() {
        let at = |rest: &[Seg]| [vec![Seg::from("tasks"), Seg::from(k)], rest.to_vec()].concat();
        let mut err = |rest: &[Seg], m: String| errors.push((at(rest), format!("task `{}`: {m}", t.name)));
        if !is_identifier(&t.name) {
            err(&[Seg::from("name")], "a task's name is an identifier (letters, digits, `_`)".into());
            continue;
        }
        if doc.tasks[..k].iter().any(|o| o.name.eq_ignore_ascii_case(&t.name)) {
            err(&[Seg::from("name")], "another task has this name".into());
        }
        let taken: Vec<String> =
            flag_ids(&t.name).into_iter().filter(|id| doc.blocks.iter().any(|b| b.id() == id)).collect();
        if !taken.is_empty() {
            err(&[Seg::from("name")], format!("its flag blocks' ids are taken: {}", taken.join(", ")));
        }
        let how = match (t.interval_ms, &t.single) {
            (Some(ms), None) => {
                let period = (ms / cycle).round();
                let whole = ms.is_finite() && ms > 0.0 && period >= 1.0;
                if !whole || (period * cycle - ms).abs() > 1e-9 * ms.max(1.0) {
                    err(
                        &[Seg::from("interval_ms")],
                        format!(
                            "interval {ms} ms is no whole multiple of the program's cycle ({cycle} ms): the tasks run on one tick, the cycle"
                        ),
                    );
                    continue;
                }
                How::Every(period as u64)
            }
            (None, Some(w)) => How::Rises(w.clone()),
            _ => {
                err(&[], "a task has an `interval_ms` (cyclic) or a `single` (an event), one of the two".into());
                continue;
            }
        };
        let mut blocks = Vec::new();
        for (j, id) in t.programs.iter().enumerate() {
            let place = [Seg::from("programs"), Seg::from(j)];
            let Some(b) = doc.blocks.iter().position(|b| b.id() == id) else {
                err(&place, format!("runs `{id}`, which is no block of the program's top level"));
                continue;
            };
            if let Some(other) = owner[b] {
                err(&place, format!("block `{id}` is task `{other}`'s already; a block runs in one task"));
                continue;
            }
            if doc.blocks[b].has_input(ENABLE) {
                err(&place, format!("block `{id}` has an EN of its own; its task enables it"));
                continue;
            }
            owner[b] = Some(&t.name);
            blocks.push(b);
        }
        out.push((t.name.clone(), how, blocks));
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The ids a task's flag blocks take.
fn flag_ids(task: &str) -> [String; 4] {
    ["__next", "__tick", "__trig", RUNS].map(|s| format!("{task}{s}"))
}

/// A block of the lowering: `ty` with these inputs, of `data_type`.
fn block(id: String, ty: &str, inputs: Vec<(&str, Wire)>, data_type: Option<Type>) -> Block {
    Block {
        id,
        ty: ty.into(),
        inputs: Pins(inputs.into_iter().map(|(p, w)| (p.to_string(), w)).collect()),
        negated: Default::default(),
        params: Default::default(),
        data_type: data_type.map(TypeName),
        pos: None,
        order: None,
        comment: None,
    }
}

/// The blocks that compute task `task`'s flag, `NAME__runs` last.
fn flag_blocks(task: &str, how: How) -> Vec<Block> {
    let [next, tick, trig, runs] = flag_ids(task);
    let dint = Some(Type::DInt);
    match how {
        How::Every(1) => vec![block(runs, "MOVE", vec![("in", Wire::constant(Value::Bool(true)))], Some(Type::Bool))],
        How::Every(p) => {
            let last = Wire::Feedback { from: format!("{tick}.out"), init: Some(Box::new(Value::Int(p as i64 - 1))) };
            vec![
                block(next.clone(), "ADD", vec![("in1", last), ("in2", Wire::constant(Value::Int(1)))], dint),
                block(
                    tick.clone(),
                    "MOD",
                    vec![("in1", Wire::Ref(format!("{next}.out"))), ("in2", Wire::constant(Value::Int(p as i64)))],
                    dint,
                ),
                block(
                    runs,
                    "EQ",
                    vec![("in1", Wire::Ref(format!("{tick}.out"))), ("in2", Wire::constant(Value::Int(0)))],
                    dint,
                ),
            ]
        }
        How::Rises(w) => vec![
            block(trig.clone(), "R_TRIG", vec![("clk", w)], None),
            block(runs, "MOVE", vec![("in", Wire::Ref(format!("{trig}.q")))], Some(Type::Bool)),
        ],
    }
}
