//! Creating a macro from a selection: the selected blocks become the body of a new definition
//! and are replaced by one instance of it; every wire that crosses the boundary becomes a port.

use std::collections::HashSet;

use fbd_engine::library;
use fbd_engine::load::valid_ident;
use fbd_engine::model::{Block, Connector, MacroDef, Params, Pins, PortIn, PortOut, TypeName, Wire};

use crate::ops::PinType;
use crate::workspace::{BodyId, EditError, Workspace, err, wire_ref};

impl Workspace {
    /// Moves blocks `ids` of `body` into a new macro `name` (defined in the file that holds
    /// `body`) and puts one instance of it in their place; returns the instance's id.
    ///
    /// Inputs: each distinct source outside the selection that a selected block reads becomes an
    /// input port (named after it: `set_empty.out` → `set_empty_out`, a body input keeps its
    /// name); a feedback mark on such a wire moves to the instance's pin. Outputs: each selected
    /// block output read outside the selection becomes an output port (`choice4.out` →
    /// `choice4_out`) and the readers are rewired to the instance. Types come from the pins or
    /// from the last good compile; a source whose type is not known yet is refused.
    pub fn extract_macro(&mut self, body: &BodyId, ids: &[String], name: &str) -> Result<String, EditError> {
        if ids.is_empty() {
            return err("select the blocks to put into the new macro");
        }
        if !valid_ident(name) || library::lookup(name).is_some() || self.macro_def(name).is_some() {
            return err(format!("`{name}` cannot name a new macro: it is taken or not a valid name"));
        }
        let blocks = self.blocks(body).ok_or_else(|| EditError(format!("no {body}")))?.to_vec();
        let inside: HashSet<&str> = ids.iter().map(String::as_str).collect();
        for id in ids {
            if !blocks.iter().any(|b| b.id == *id) {
                return err(format!("no block `{id}` in {body}"));
            }
        }
        let is_inside = |r: &str| r.split_once('.').is_some_and(|(b, _)| inside.contains(b));
        let known = |t: PinType, what: &str| match t {
            PinType::Fixed(t) => Ok(t),
            PinType::Generic(_) => err(format!(
                "the type of `{what}` is not known yet (a generic block the program has not compiled with); compile or set its data type first"
            )),
        };

        // Input ports: one per distinct outside source.
        let mut in_ports: Vec<(String, Wire, PortIn)> = Vec::new();
        let mut new_blocks: Vec<Block> = Vec::new();
        for b in blocks.iter().filter(|b| inside.contains(b.id.as_str())) {
            let mut nb = b.clone();
            for (_, w) in nb.inputs.0.iter_mut() {
                let Some(r) = self.wire_source(body, w).map(str::to_string) else { continue };
                if is_inside(&r) {
                    // A continuation of a connector whose source moves inside: the wire itself.
                    if matches!(w, Wire::Connector(_))
                        && let Some(direct) = self.wire_through(body, w)
                    {
                        *w = direct.clone();
                    }
                    continue;
                }
                let port = match in_ports.iter().find(|(src, _, _)| *src == r) {
                    Some((_, _, p)) => p.name.clone(),
                    None => {
                        let ty = known(self.source_type(body, &r)?, &r)?;
                        let pname = unique(r.replace('.', "_"), in_ports.iter().map(|p| p.2.name.as_str()));
                        // The instance pin carries the wire as it was (a feedback stays one).
                        in_ports.push((
                            r.clone(),
                            w.clone(),
                            PortIn { name: pname.clone(), ty: TypeName(ty), default: None, description: None },
                        ));
                        pname
                    }
                };
                *w = Wire::Ref(port);
            }
            new_blocks.push(nb);
        }
        // Output ports: selected outputs read outside.
        let mut out_ports: Vec<PortOut> = Vec::new();
        let mut note_out = |ws: &Workspace, r: &str| -> Result<String, EditError> {
            if let Some(p) = out_ports.iter().find(|p| p.from == Wire::Ref(r.to_string())) {
                return Ok(p.name.clone());
            }
            let ty = known(ws.source_type(body, r)?, r)?;
            let pname = unique(r.replace('.', "_"), out_ports.iter().map(|p| p.name.as_str()));
            out_ports.push(PortOut {
                address: None,
                name: pname.clone(),
                ty: TypeName(ty),
                from: Wire::Ref(r.to_string()),
                kind: None,
                description: None,
            });
            Ok(pname)
        };
        let stem = name.to_lowercase();
        let taken: Vec<&str> =
            blocks.iter().filter(|b| !inside.contains(b.id.as_str())).map(|b| b.id.as_str()).collect();
        let inst = (1..).map(|k| format!("{stem}{k}")).find(|c| !taken.contains(&c.as_str())).expect("a free id");
        let mut rewired: Vec<Block> = Vec::new();
        for b in blocks.iter().filter(|b| !inside.contains(b.id.as_str())) {
            let mut nb = b.clone();
            for (_, w) in nb.inputs.0.iter_mut() {
                if let Some(r) = wire_ref(w).map(str::to_string)
                    && is_inside(&r)
                {
                    let port = note_out(self, &r)?;
                    set_ref(w, format!("{inst}.{port}"));
                }
            }
            rewired.push(nb);
        }
        let body_outputs: Vec<PortOut> = match body {
            BodyId::Program => self.root().outputs.clone(),
            BodyId::Macro(m) => self.macro_def(m).map(|d| d.outputs.clone()).unwrap_or_default(),
        };
        let mut new_body_outputs = body_outputs.clone();
        for p in new_body_outputs.iter_mut() {
            if let Some(r) = wire_ref(&p.from).map(str::to_string)
                && is_inside(&r)
            {
                let port = note_out(self, &r)?;
                set_ref(&mut p.from, format!("{inst}.{port}"));
            }
        }
        let mut new_connectors: Vec<Connector> = self.connectors(body).to_vec();
        for c in new_connectors.iter_mut() {
            if let Some(r) = wire_ref(&c.from).map(str::to_string)
                && is_inside(&r)
            {
                let port = note_out(self, &r)?;
                set_ref(&mut c.from, format!("{inst}.{port}"));
            }
        }
        // The new body keeps its drawing: shifted so that it starts near the origin.
        let min_x = new_blocks.iter().filter_map(|b| b.pos.map(|p| p[0])).fold(f64::INFINITY, f64::min);
        let min_y = new_blocks.iter().filter_map(|b| b.pos.map(|p| p[1])).fold(f64::INFINITY, f64::min);
        if min_x.is_finite() && min_y.is_finite() {
            for b in new_blocks.iter_mut() {
                if let Some(p) = b.pos.as_mut() {
                    *p = [p[0] - min_x + 160.0, p[1] - min_y + 40.0];
                }
            }
        }
        let instance = Block {
            id: inst.clone(),
            ty: name.to_string(),
            inputs: Pins(in_ports.iter().map(|(_, w, p)| (p.name.clone(), w.clone())).collect()),
            negated: Default::default(),
            params: Params::default(),
            data_type: None,
            pos: (min_x.is_finite() && min_y.is_finite()).then_some([min_x, min_y]),
            order: None,
            comment: None,
        };
        let def = MacroDef {
            name: name.to_string(),
            description: None,
            inputs: in_ports.into_iter().map(|(_, _, p)| p).collect(),
            outputs: out_ports,
            blocks: new_blocks,
            connectors: Vec::new(),
            pages: Vec::new(),
        };
        let n = ids.len();
        self.edit(format!("make macro `{name}` of {n} blocks"), |w| {
            let file = w.file_of(body);
            w.doc_mut(file).macros.push(def);
            let b = w.body_mut(body)?;
            rewired.push(instance);
            *b.blocks = rewired;
            *b.outputs = new_body_outputs;
            *b.connectors = new_connectors;
            // The instance is drawn on the page of the first block it takes in.
            let home = b.pages.iter().position(|p| p.blocks.iter().any(|id| inside.contains(id.as_str())));
            for page in b.pages.iter_mut() {
                page.blocks.retain(|id| !inside.contains(id.as_str()));
            }
            if let Some(k) = home {
                b.pages[k].blocks.push(inst.clone());
            }
            Ok(inst.clone())
        })
    }
}

fn set_ref(w: &mut Wire, to: String) {
    match w {
        Wire::Ref(r) => *r = to,
        Wire::Feedback { from, .. } => *from = to,
        Wire::Const(_) | Wire::Connector(_) => {}
    }
}

/// `want`, or `want_2`, `want_3`, ... if taken.
fn unique<'a>(want: String, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    if !taken.clone().any(|t| t == want) {
        return want;
    }
    (2..).map(|k| format!("{want}_{k}")).find(|c| !taken.clone().any(|t| t == c)).expect("a free name")
}
