//! Connectors as the author edits them: a net made a connector pair (its readers become
//! continuations) and back, a connector renamed, and every use of one found.

use fbd_model::load::valid_ident;
use fbd_model::model::{Connector, Wire};

use crate::workspace::{BodyId, BodyMut, EditError, Workspace, err, wire_ref};

/// Where a continuation of a connector is read: an input pin of a block, an output port of the
/// body, or another connector's `from`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConnectorUse {
    /// Input `pin` of block `block`.
    Pin {
        /// The block's id.
        block: String,
        /// Its input.
        pin: String,
    },
    /// An output port of the body.
    Output(String),
    /// The `from` of another connector.
    Connector(String),
}

impl Workspace {
    /// Makes the net of `source` (`block.pin` or an input name) in `body` a connector pair
    /// named `name`: the connector carries `source`, and every reader of it becomes a
    /// continuation (a feedback wire stays a wire: the delay is drawn on it). Returns how many
    /// readers it took over.
    pub fn make_connector(&mut self, body: &BodyId, source: &str, name: &str) -> Result<usize, EditError> {
        self.check_connector_name(body, name)?;
        self.source_type(body, source)?;
        if let Some(c) = self.connectors(body).iter().find(|c| wire_ref(&c.from) == Some(source)) {
            return err(format!("`{source}` already has connector `{}`", c.name));
        }
        self.edit(format!("connector `{name}` for `{source}`"), |w| {
            let b = w.body_mut(body)?;
            let mut n = 0;
            let mut take = |wire: &mut Wire| {
                if matches!(wire, Wire::Ref(r) if r == source) {
                    *wire = Wire::Connector(name.to_string());
                    n += 1;
                }
            };
            for x in b.blocks.iter_mut() {
                x.inputs.0.iter_mut().for_each(|(_, wire)| take(wire));
            }
            b.outputs.iter_mut().for_each(|p| take(&mut p.from));
            b.connectors.push(Connector { name: name.to_string(), from: Wire::Ref(source.to_string()) });
            Ok(n)
        })
    }

    /// Draws connector `name` of `body` as a wire again: its continuations read its `from`
    /// directly and the connector goes.
    pub fn remove_connector(&mut self, body: &BodyId, name: &str) -> Result<(), EditError> {
        let Some(c) = self.connectors(body).iter().find(|c| c.name == name).cloned() else {
            return err(format!("no connector `{name}` in {body}"));
        };
        self.edit(format!("wire instead of connector `{name}`"), |w| {
            let b = w.body_mut(body)?;
            let put = |wire: &mut Wire| {
                if matches!(wire, Wire::Connector(n) if n == name) {
                    *wire = c.from.clone();
                }
            };
            for x in b.blocks.iter_mut() {
                x.inputs.0.iter_mut().for_each(|(_, wire)| put(wire));
            }
            b.outputs.iter_mut().for_each(|p| put(&mut p.from));
            b.connectors.iter_mut().for_each(|c| put(&mut c.from));
            b.connectors.retain(|c| c.name != name);
            Ok(())
        })
    }

    /// Renames connector `old` of `body` and each of its continuations.
    pub fn rename_connector(&mut self, body: &BodyId, old: &str, new: &str) -> Result<(), EditError> {
        if !self.connectors(body).iter().any(|c| c.name == old) {
            return err(format!("no connector `{old}` in {body}"));
        }
        if old == new {
            return Ok(());
        }
        self.check_connector_name(body, new)?;
        self.edit(format!("rename connector `{old}` to `{new}`"), |w| {
            let b = w.body_mut(body)?;
            let rename = |wire: &mut Wire| {
                if let Wire::Connector(n) = wire
                    && n == old
                {
                    *n = new.to_string();
                }
            };
            for x in b.blocks.iter_mut() {
                x.inputs.0.iter_mut().for_each(|(_, wire)| rename(wire));
            }
            b.outputs.iter_mut().for_each(|p| rename(&mut p.from));
            for c in b.connectors.iter_mut() {
                rename(&mut c.from);
                if c.name == old {
                    c.name = new.to_string();
                }
            }
            Ok(())
        })
    }

    /// Every continuation of connector `name` in `body`, in file order.
    pub fn connector_uses(&self, body: &BodyId, name: &str) -> Vec<ConnectorUse> {
        let reads = |w: &Wire| matches!(w, Wire::Connector(n) if n == name);
        let mut uses = Vec::new();
        for b in self.blocks(body).unwrap_or_default() {
            for (pin, w) in &b.inputs.0 {
                if reads(w) {
                    uses.push(ConnectorUse::Pin { block: b.id.clone(), pin: pin.clone() });
                }
            }
        }
        let outputs = match body {
            BodyId::Program => self.root().outputs.as_slice(),
            BodyId::Macro(m) => self.macro_def(m).map_or(&[][..], |d| d.outputs.as_slice()),
        };
        uses.extend(outputs.iter().filter(|p| reads(&p.from)).map(|p| ConnectorUse::Output(p.name.clone())));
        uses.extend(
            self.connectors(body).iter().filter(|c| reads(&c.from)).map(|c| ConnectorUse::Connector(c.name.clone())),
        );
        uses
    }

    fn check_connector_name(&self, body: &BodyId, name: &str) -> Result<(), EditError> {
        if !valid_ident(name) {
            return err(format!("`{name}` is not a valid connector name: {}", fbd_model::load::IDENT_HELP));
        }
        if self.connectors(body).iter().any(|c| c.name == name) {
            return err(format!("there is already a connector `{name}` in {body}"));
        }
        Ok(())
    }
}

/// Removes connectors `names` of a body and their continuations (the readers are left
/// unconnected, as when the block that drove them goes), and so on for connectors that read
/// a removed one.
pub(crate) fn remove_connectors(b: &mut BodyMut<'_>, names: &[String]) {
    let mut gone: Vec<String> = names.to_vec();
    while !gone.is_empty() {
        let reads_gone = |w: &Wire| matches!(w, Wire::Connector(n) if gone.contains(n));
        b.connectors.retain(|c| !gone.contains(&c.name));
        for x in b.blocks.iter_mut() {
            x.inputs.0.retain(|(_, w)| !reads_gone(w));
        }
        let next: Vec<String> = b.connectors.iter().filter(|c| reads_gone(&c.from)).map(|c| c.name.clone()).collect();
        gone = next;
    }
}
