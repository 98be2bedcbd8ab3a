//! Copy and paste of blocks, as text: what the system clipboard carries between bodies,
//! programs and windows (and what a text editor shows: the blocks in the diagram format).
//!
//! Pasted blocks get ids of their own (`ton1` becomes the first free `tonN`); wires between
//! the copied blocks follow them to the copies; a wire from a block that was not copied stays
//! connected when that source exists where the blocks are pasted (a copy of a block beside its
//! original is wired alike), and is dropped otherwise.

use std::collections::HashMap;

use fbd_model::load::valid_ident;
use fbd_model::model::{Block, Wire};
use serde::{Deserialize, Serialize};

use crate::workspace::{BodyId, EditError, Workspace, err};

/// What the clipboard text holds: a marked list of blocks in the diagram format.
#[derive(Serialize, Deserialize)]
struct Clip {
    /// Marks the text as blocks copied by this editor (format version 1).
    fbd_blocks: u32,
    blocks: Vec<Block>,
}

impl Workspace {
    /// The blocks `ids` of `body` as clipboard text.
    pub fn copy_blocks(&self, body: &BodyId, ids: &[String]) -> Result<String, EditError> {
        if ids.is_empty() {
            return err("nothing is selected to copy");
        }
        let mut blocks = Vec::with_capacity(ids.len());
        for id in ids {
            let b = self.block(body, id).ok_or_else(|| EditError(format!("no block `{id}` in {body}")))?;
            blocks.push(b.clone());
        }
        serde_json::to_string_pretty(&Clip { fbd_blocks: 1, blocks }).map_err(|e| EditError(e.to_string()))
    }

    /// Pastes clipboard `text` into `body`, each block moved by `offset`: one undo step.
    /// Returns the new blocks' ids. Text that is not copied blocks is refused with the reason.
    pub fn paste_blocks(&mut self, body: &BodyId, text: &str, offset: [f64; 2]) -> Result<Vec<String>, EditError> {
        let clip: Clip = serde_json::from_str(text).map_err(|e| {
            EditError(if text.contains("\"fbd_blocks\"") {
                format!("the clipboard's blocks cannot be read: {e}")
            } else {
                "the clipboard holds no copied blocks (copy blocks in the editor first)".to_string()
            })
        })?;
        if clip.fbd_blocks != 1 {
            return err(format!(
                "the clipboard's blocks are in format {}; this editor reads format 1",
                clip.fbd_blocks
            ));
        }
        if clip.blocks.is_empty() {
            return err("the clipboard holds no blocks");
        }
        let existing: Vec<String> =
            self.blocks(body).map(|bs| bs.iter().map(|b| b.id.clone()).collect()).unwrap_or_default();
        let mut taken: Vec<String> = existing.clone();
        let mut renamed: HashMap<String, String> = HashMap::new();
        for b in &clip.blocks {
            if !valid_ident(&b.id) {
                return err(format!("`{}` is not a block id", b.id));
            }
            if fbd_model::library::lookup(&b.ty).is_none() && self.macro_def(&b.ty).is_none() {
                return err(format!(
                    "`{}` is of type `{}`, which is neither a library block nor a macro of this project",
                    b.id, b.ty
                ));
            }
            if let BodyId::Macro(m) = body
                && self.uses(&b.ty, m)
            {
                return err(format!(
                    "macro `{}` uses `{m}`: an instance of it inside `{m}` would contain itself",
                    b.ty
                ));
            }
            let id = fresh_id(&b.id, &taken);
            taken.push(id.clone());
            renamed.insert(b.id.clone(), id);
        }
        // A wire from outside the copy stays only where its source exists here.
        let resolves = |w: &Workspace, r: &str| -> bool {
            match r.split_once('.') {
                Some((blk, pin)) => w
                    .block(body, blk)
                    .and_then(|x| w.pins(body, x))
                    .is_some_and(|p| p.outputs.iter().any(|(n, _)| n == pin)),
                None => w.source_type(body, r).is_ok(),
            }
        };
        let mut blocks = clip.blocks;
        for b in &mut blocks {
            b.id = renamed[&b.id].clone();
            b.pos = b.pos.map(|[x, y]| [x + offset[0], y + offset[1]]);
            let mut kept = Vec::with_capacity(b.inputs.0.len());
            for (pin, wire) in std::mem::take(&mut b.inputs.0) {
                let rewire = |r: &str| -> Option<String> {
                    match r.split_once('.') {
                        Some((blk, p)) if renamed.contains_key(blk) => Some(format!("{}.{p}", renamed[blk])),
                        _ => resolves(self, r).then(|| r.to_string()),
                    }
                };
                let wire = match wire {
                    Wire::Const(v) => Some(Wire::Const(v)),
                    Wire::Ref(r) => rewire(&r).map(Wire::Ref),
                    Wire::Feedback { from, init } => rewire(&from).map(|from| Wire::Feedback { from, init }),
                    // A continuation keeps reading where the body has the connector.
                    Wire::Connector(n) => {
                        self.connectors(body).iter().any(|c| c.name == n).then_some(Wire::Connector(n))
                    }
                };
                if let Some(w) = wire {
                    kept.push((pin, w));
                }
            }
            b.inputs.0 = kept;
        }
        let ids: Vec<String> = blocks.iter().map(|b| b.id.clone()).collect();
        let label = if ids.len() == 1 { format!("paste `{}`", ids[0]) } else { format!("paste {} blocks", ids.len()) };
        self.edit(label, |w| {
            w.body_mut(body)?.blocks.extend(blocks);
            Ok(ids.clone())
        })
    }
}

/// The top-left corner of the copied blocks in clipboard `text` (the smallest x and y of their
/// positions), to paste them where the pointer is; `None` if the text is not copied blocks or
/// none has a position.
pub fn copied_origin(text: &str) -> Option<[f64; 2]> {
    let clip: Clip = serde_json::from_str(text).ok()?;
    let ps: Vec<[f64; 2]> = clip.blocks.iter().filter_map(|b| b.pos).collect();
    if ps.is_empty() {
        return None;
    }
    Some([ps.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min), ps.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min)])
}

/// `id` if it is free, else the first free id of its stem (`ton1` → `ton2`, `latch` →
/// `latch2`).
fn fresh_id(id: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == id) {
        return id.to_string();
    }
    let stem = id.trim_end_matches(|c: char| c.is_ascii_digit());
    (2..).map(|k| format!("{stem}{k}")).find(|c| !taken.iter().any(|t| t == c)).expect("a free id")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copied_id_becomes_the_first_free_one_of_its_stem() {
        let taken: Vec<String> = ["ton1", "ton2", "latch"].iter().map(|s| s.to_string()).collect();
        assert_eq!(fresh_id("ton1", &taken), "ton3");
        assert_eq!(fresh_id("latch", &taken), "latch2");
        assert_eq!(fresh_id("new", &taken), "new");
    }
}
