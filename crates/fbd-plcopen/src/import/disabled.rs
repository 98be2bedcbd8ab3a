//! What a block reads from a call of a user FUNCTION whose EN is FALSE: the function is not
//! run and its result is its type's initial value (matiec's function returns the result
//! variable it has just declared), its other outputs keep what they had (they are never
//! written back). Imported as a macro instance, the call would hold its result too: its
//! readers read it through a SEL of the EN. (A standard function's readers need nothing: the
//! compiler gives its pins their initial values while its own EN is FALSE.)

use std::collections::{BTreeMap, HashMap};

use fbd_model::model::{Block, Wire};
use fbd_model::{Type, library};
use roxmltree::Node;

use super::ctx::child;
use super::lookup::simple_block_at;
use super::reads::Read;
use super::vars::RESULT;

/// The result types of the file's user functions, by name (those with an elementary one).
fn result_types(root: Node) -> HashMap<String, Type> {
    root.descendants()
        .filter(|n| n.tag_name().name() == "pou" && n.attribute("pouType") == Some("function"))
        .filter_map(|p| {
            let rt = child(p, "interface").and_then(|i| child(i, "returnType"))?;
            let t = rt.children().find(|c| c.is_element())?;
            Some((p.attribute("name")?.to_string(), crate::literal::elementary(t.tag_name().name())?))
        })
        .collect()
}

/// Every read of the result of a user function's call with an EN goes through a SEL that
/// gives the result's initial value while EN is FALSE (added to `blocks`, at its call's place
/// in `block_at`, reading EN as the call does: its `reads`); `carried` are the connectors the
/// body's continuations read.
pub(super) fn results_of_disabled_calls(
    root: Node,
    blocks: &mut Vec<Block>,
    (reads, block_at): (&mut Vec<Read>, &mut HashMap<String, usize>),
    carried: &mut BTreeMap<String, String>,
) {
    let results = result_types(root);
    let calls: Vec<(String, Wire, Type)> = blocks
        .iter()
        .filter_map(|b| {
            let en = b.inputs.0.iter().find(|(p, _)| p == library::ENABLE)?.1.clone();
            Some((b.id.clone(), en, *results.get(&b.ty)?))
        })
        .collect();
    for (id, en, ty) in calls {
        let result = format!("{id}.{RESULT}");
        let sel = format!("{id}__result");
        let through = format!("{sel}.out");
        for b in blocks.iter_mut() {
            for (_, w) in b.inputs.0.iter_mut() {
                match w {
                    Wire::Ref(r) if *r == result => *r = through.clone(),
                    Wire::Feedback { from, .. } if *from == result => *from = through.clone(),
                    _ => {}
                }
            }
        }
        for r in carried.values_mut().filter(|r| **r == result) {
            *r = through.clone();
        }
        let pos = blocks.iter().find(|b| b.id == id).and_then(|b| b.pos).map(|[x, y]| [x + 80.0, y]);
        let inputs = vec![
            ("g".into(), en),
            ("in0".into(), Wire::constant(ty.zero())),
            ("in1".into(), Wire::Ref(result.clone())),
        ];
        blocks.push(simple_block_at(&sel, "SEL", inputs, pos));
        let en_reads: Vec<Read> = reads
            .iter()
            .filter(|r| r.block == id && r.pin == library::ENABLE)
            .map(|r| Read::new(&sel, "g", &r.var, r.at))
            .collect();
        reads.extend(en_reads);
        if let Some(at) = block_at.get(&id).copied() {
            block_at.insert(sel, at);
        }
    }
}
