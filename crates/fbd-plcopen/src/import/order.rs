//! What runs before what in an imported body, where the file gives an execution order.

use std::collections::{HashMap, HashSet};

use fbd_engine::library;
use fbd_engine::model::{Block, Wire};

/// A function block's output read by a block that runs before it (explicit execution order)
/// becomes a feedback wire: in IEC the function block's outputs are still those of its last
/// call, last scan's value (it was read as this scan's: another value, or a loop refused as
/// having no feedback point). Outputs that carry last scan's value already (MEMORY.prev, a
/// DELAY) stay as they are.
pub(super) fn last_scan_reads(blocks: &mut [Block], exec: &HashMap<String, i64>, pou_names: &HashSet<String>) {
    let stateful: HashMap<String, String> = blocks
        .iter()
        .filter(|b| pou_names.contains(&b.ty) || library::lookup(&b.ty).is_some_and(|d| d.stateful))
        .map(|b| (b.id.clone(), b.ty.clone()))
        .collect();
    for b in blocks.iter_mut() {
        let mine = exec.get(&b.id).copied().unwrap_or(0);
        for (_, w) in b.inputs.0.iter_mut() {
            let Wire::Ref(r) = w else { continue };
            let Some((src, pin)) = r.split_once('.') else { continue };
            let Some(ty) = stateful.get(src) else { continue };
            let delayed = library::lookup(ty).is_some_and(|d| d.outputs.iter().any(|p| p.name == pin && p.delayed));
            if !delayed && mine != 0 && mine < exec.get(src).copied().unwrap_or(0) {
                *w = Wire::Feedback { from: r.clone(), init: None };
            }
        }
    }
}
