//! Creating a macro from a selection: the selected blocks become the body of a new definition
//! and are replaced by one instance of it; every wire that crosses the boundary becomes a port.

use std::collections::HashSet;

use fbd_model::Type;
use fbd_model::library;
use fbd_model::load::valid_ident;
use fbd_model::model::{Block, Connector, MacroDef, Params, Pins, PortIn, PortOut, TypeName, Wire};

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
        let blocks = self.check_extract(body, ids, name)?;
        let sel = Selection { body, inside: ids.iter().map(String::as_str).collect() };
        let (mut body_blocks, in_ports) = self.take_inputs(&sel, &blocks)?;
        let stem = name.to_lowercase();
        let taken: Vec<&str> = blocks.iter().filter(|b| !sel.holds(&b.id)).map(|b| b.id.as_str()).collect();
        let inst = (1..).map(|k| format!("{stem}{k}")).find(|c| !taken.contains(&c.as_str())).expect("a free id");

        let (mut outside, out_ports) = self.rewire_readers(&sel, &blocks, &inst)?;
        let pos = shift_to_origin(&mut body_blocks);
        let instance = Block {
            id: inst.clone(),
            ty: name.to_string(),
            inputs: Pins(in_ports.iter().map(|(_, w, p)| (p.name.clone(), w.clone())).collect()),
            negated: Default::default(),
            params: Params::default(),
            data_type: None,
            pos,
            order: None,
            comment: None,
        };
        let def = MacroDef {
            name: name.to_string(),
            description: None,
            inputs: in_ports.into_iter().map(|(_, _, p)| p).collect(),
            outputs: out_ports,
            blocks: body_blocks,
            variables: Vec::new(),
            ladder: Vec::new(),
            st: Vec::new(),
            connectors: Vec::new(),
            pages: Vec::new(),
        };
        let n = ids.len();
        let inside = sel.inside;
        self.edit(format!("make macro `{name}` of {n} blocks"), |w| {
            let file = w.file_of(body);
            w.doc_mut(file).macros.push(def);
            let b = w.body_mut(body)?;
            outside.blocks.push(instance);
            *b.blocks = outside.blocks;
            *b.outputs = outside.outputs;
            *b.connectors = outside.connectors;
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

    /// Refuses an empty selection, a taken or invalid macro name and an id not in `body`;
    /// returns `body`'s blocks.
    fn check_extract(&self, body: &BodyId, ids: &[String], name: &str) -> Result<Vec<Block>, EditError> {
        if ids.is_empty() {
            return err("select the blocks to put into the new macro");
        }
        if !valid_ident(name) || library::lookup(name).is_some() || self.macro_def(name).is_some() {
            return err(format!("`{name}` cannot name a new macro: it is taken or not a valid name"));
        }
        let blocks = self.blocks(body).ok_or_else(|| EditError(format!("no {body}")))?.to_vec();
        for id in ids {
            if !blocks.iter().any(|b| b.id == *id) {
                return err(format!("no block `{id}` in {body}"));
            }
        }
        Ok(blocks)
    }

    /// The selected blocks as the new body: each wire from outside reads an input port instead,
    /// one port per distinct outside source. Returns the body and the ports, each with the source
    /// it stands for and the wire the instance's pin keeps (a feedback stays one).
    fn take_inputs(&self, sel: &Selection, blocks: &[Block]) -> Result<(Vec<Block>, Vec<InPort>), EditError> {
        let mut in_ports: Vec<InPort> = Vec::new();
        let mut body_blocks: Vec<Block> = Vec::new();
        for b in blocks.iter().filter(|b| sel.holds(&b.id)) {
            let mut nb = b.clone();
            for (_, w) in nb.inputs.0.iter_mut() {
                let Some(r) = self.wire_source(sel.body, w).map(str::to_string) else { continue };
                if sel.holds_source(&r) {
                    // A continuation of a connector whose source moves inside: the wire itself.
                    if matches!(w, Wire::Connector(_))
                        && let Some(direct) = self.wire_through(sel.body, w)
                    {
                        *w = direct.clone();
                    }
                    continue;
                }
                let port = match in_ports.iter().find(|(src, _, _)| *src == r) {
                    Some((_, _, p)) => p.name.clone(),
                    None => {
                        let ty = known_type(self.source_type(sel.body, &r)?, &r)?;
                        let pname = unique(r.replace('.', "_"), in_ports.iter().map(|p| p.2.name.as_str()));
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
            body_blocks.push(nb);
        }
        Ok((body_blocks, in_ports))
    }

    /// What stays outside, with every reader (block pin, body output, connector) of a selected
    /// output rewired to instance `inst`; and the output ports that makes.
    fn rewire_readers(
        &self,
        sel: &Selection,
        blocks: &[Block],
        inst: &str,
    ) -> Result<(Outside, Vec<PortOut>), EditError> {
        let mut outs = OutPorts { sel, inst, ports: Vec::new() };
        let mut blocks: Vec<Block> = blocks.iter().filter(|b| !sel.holds(&b.id)).cloned().collect();
        for b in blocks.iter_mut() {
            for (_, w) in b.inputs.0.iter_mut() {
                outs.redirect(self, w)?;
            }
        }
        let mut outputs: Vec<PortOut> = match sel.body {
            BodyId::Program => self.root().outputs.clone(),
            BodyId::Macro(m) => self.macro_def(m).map(|d| d.outputs.clone()).unwrap_or_default(),
        };
        for p in outputs.iter_mut() {
            outs.redirect(self, &mut p.from)?;
        }
        let mut connectors: Vec<Connector> = self.connectors(sel.body).to_vec();
        for c in connectors.iter_mut() {
            outs.redirect(self, &mut c.from)?;
        }
        Ok((Outside { blocks, outputs, connectors }, outs.ports))
    }
}

/// What stays in the body after the extraction, rewired to the instance.
struct Outside {
    blocks: Vec<Block>,
    outputs: Vec<PortOut>,
    connectors: Vec<Connector>,
}

/// An input port of the new macro: the outside source it stands for, the wire the instance's pin
/// keeps, the port.
type InPort = (String, Wire, PortIn);

/// The blocks being moved into the new macro.
struct Selection<'a> {
    body: &'a BodyId,
    inside: HashSet<&'a str>,
}

impl Selection<'_> {
    fn holds(&self, id: &str) -> bool {
        self.inside.contains(id)
    }

    /// Whether `block.pin` is a pin of a selected block.
    fn holds_source(&self, reference: &str) -> bool {
        reference.split_once('.').is_some_and(|(b, _)| self.holds(b))
    }
}

/// The new macro's output ports, one per selected output read outside, gathered while the
/// readers are rewired.
struct OutPorts<'a> {
    sel: &'a Selection<'a>,
    inst: &'a str,
    ports: Vec<PortOut>,
}

impl OutPorts<'_> {
    /// A wire from a selected block reads the instance's output port instead (made at its first
    /// reader).
    fn redirect(&mut self, ws: &Workspace, w: &mut Wire) -> Result<(), EditError> {
        let Some(r) = wire_ref(w).map(str::to_string) else { return Ok(()) };
        if !self.sel.holds_source(&r) {
            return Ok(());
        }
        let port = match self.ports.iter().find(|p| p.from == Wire::Ref(r.clone())) {
            Some(p) => p.name.clone(),
            None => {
                let ty = known_type(ws.source_type(self.sel.body, &r)?, &r)?;
                let name = unique(r.replace('.', "_"), self.ports.iter().map(|p| p.name.as_str()));
                self.ports.push(PortOut {
                    address: None,
                    name: name.clone(),
                    ty: TypeName(ty),
                    from: Wire::Ref(r),
                    kind: None,
                    description: None,
                });
                name
            }
        };
        set_ref(w, format!("{}.{port}", self.inst));
        Ok(())
    }
}

fn known_type(t: PinType, what: &str) -> Result<Type, EditError> {
    match t {
        PinType::Fixed(t) => Ok(t),
        PinType::Generic(_) => err(format!(
            "the type of `{what}` is not known yet (a generic block the program has not compiled with); compile or set its data type first"
        )),
    }
}

/// Moves the new body's drawing so that it starts near the origin; returns where it started
/// (the instance goes there), or None when no block of it is placed.
fn shift_to_origin(blocks: &mut [Block]) -> Option<[f64; 2]> {
    let min_x = blocks.iter().filter_map(|b| b.pos.map(|p| p[0])).fold(f64::INFINITY, f64::min);
    let min_y = blocks.iter().filter_map(|b| b.pos.map(|p| p[1])).fold(f64::INFINITY, f64::min);
    if !(min_x.is_finite() && min_y.is_finite()) {
        return None;
    }
    for b in blocks.iter_mut() {
        if let Some(p) = b.pos.as_mut() {
            *p = [p[0] - min_x + 160.0, p[1] - min_y + 40.0];
        }
    }
    Some([min_x, min_y])
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
