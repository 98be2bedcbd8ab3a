//! The edit operations: each is one undoable step, checked before it is made (an edit that
//! cannot be made changes nothing and says why).

use fbd_model::Type;
use fbd_model::library::{self, Generic, PinTy};
use fbd_model::load::valid_ident;
use fbd_model::model::{Block, Params, Pins, TypeName, Wire};
use fbd_model::types::Value;

use crate::workspace::{BodyId, EditError, Workspace, err, wire_ref};

/// What a pin accepts or carries, as far as it is known without compiling.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PinType {
    /// Always this type.
    Fixed(Type),
    /// A generic block's type variable, with its constraint (fixed by `data_type` if set).
    Generic(Generic),
}

impl PinType {
    fn admits(self, other: PinType) -> bool {
        match (self, other) {
            // A narrower integer on a fixed-type pin is IEC's implicit widening: the compile
            // says which way round is refused.
            (PinType::Fixed(a), PinType::Fixed(b)) => a == b || a.widens_to(b) || b.widens_to(a),
            (PinType::Fixed(t), PinType::Generic(g)) | (PinType::Generic(g), PinType::Fixed(t)) => g.admits(t),
            // Two constraints meet where a type satisfies both (a number and an integer: LINT;
            // a number and BOOL-or-bits: none).
            (PinType::Generic(a), PinType::Generic(b)) => Type::ALL.iter().any(|&t| a.admits(t) && b.admits(t)),
        }
    }
}

impl std::fmt::Display for PinType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PinType::Fixed(t) => f.write_str(t.name()),
            PinType::Generic(Generic::Num) => f.write_str("a number"),
            PinType::Generic(Generic::Magnitude) => f.write_str("a number or a TIME"),
            PinType::Generic(Generic::Int) => f.write_str("an integer type"),
            PinType::Generic(Generic::Real) => f.write_str("REAL or LREAL"),
            PinType::Generic(Generic::Bits) => f.write_str("a bit string"),
            PinType::Generic(Generic::Logic) => f.write_str("BOOL or a bit string"),
            PinType::Generic(_) => f.write_str("any type"),
        }
    }
}

/// The pins of a block type as the editor offers them: (name, type) of inputs and outputs.
/// Variadic inputs are offered up to `connected + 1` (one spare to connect a new one).
#[derive(Clone, Debug, Default)]
pub struct PinList {
    /// Input pins.
    pub inputs: Vec<(String, PinType)>,
    /// Output pins.
    pub outputs: Vec<(String, PinType)>,
}

impl Workspace {
    /// The pins of `block` in `body` (its type's, plus the variadic ones it uses and one
    /// spare). A generic block's pins have the type its `data_type` or the last good compile
    /// ([`Workspace::learn_types`]) gave them.
    pub fn pins(&self, body: &BodyId, block: &Block) -> Option<PinList> {
        if let Some(def) = library::lookup(&block.ty) {
            let learned = block.data_type.map(|t| t.0).or_else(|| {
                def.outputs.iter().filter(|p| p.ty == PinTy::T).find_map(|p| self.learned_type(body, &block.id, p.name))
            });
            let pt = |t: PinTy| match (t, learned) {
                (PinTy::Fixed(t), _) => PinType::Fixed(t),
                (PinTy::T, Some(t)) => PinType::Fixed(t),
                (PinTy::T, None) => PinType::Generic(def.generic),
            };
            let mut inputs: Vec<(String, PinType)> =
                def.inputs.iter().map(|p| (p.name.to_string(), pt(p.ty))).collect();
            if let Some(v) = def.var_inputs {
                inputs.extend(
                    v.editable(block.inputs.0.iter().map(|(p, _)| p.as_str())).into_iter().map(|p| (p, pt(v.ty))),
                );
            }
            let mut outputs: Vec<(String, PinType)> =
                def.outputs.iter().map(|p| (p.name.to_string(), pt(p.ty))).collect();
            if let Some(v) = def.var_outputs {
                for k in 0..block.params.n.unwrap_or(0) as usize {
                    outputs.push((format!("{}{}", v.prefix, v.first + k), pt(v.ty)));
                }
            }
            Some(PinList { inputs, outputs })
        } else {
            let m = self.macro_def(&block.ty)?;
            Some(PinList {
                inputs: m.inputs.iter().map(|p| (p.name.clone(), PinType::Fixed(p.ty.0))).collect(),
                outputs: m.outputs.iter().map(|p| (p.name.clone(), PinType::Fixed(p.ty.0))).collect(),
            })
        }
    }

    /// The type of what `reference` (`block.pin` or an input port's name) carries in `body`.
    pub fn source_type(&self, body: &BodyId, reference: &str) -> Result<PinType, EditError> {
        if let Some((b, pin)) = reference.split_once('.') {
            let block = self.block(body, b).ok_or_else(|| EditError(format!("no block `{b}` in {body}")))?;
            let pins = self.pins(body, block).ok_or_else(|| EditError(format!("unknown block type `{}`", block.ty)))?;
            return pins
                .outputs
                .iter()
                .find(|(n, _)| n == pin)
                .map(|(_, t)| *t)
                .ok_or_else(|| EditError(format!("`{b}` ({}) has no output `{pin}`", block.ty)));
        }
        let port = match body {
            BodyId::Program => self.root().inputs.iter().find(|p| p.name == reference).map(|p| p.ty.0),
            BodyId::Macro(m) => {
                self.macro_def(m).and_then(|d| d.inputs.iter().find(|p| p.name == reference)).map(|p| p.ty.0)
            }
        };
        port.map(PinType::Fixed).ok_or_else(|| EditError(format!("no input `{reference}` in {body}")))
    }

    /// Adds a block of type `ty` (a library block or a macro of the project) at `pos`;
    /// returns its id (the type in lower case and the first free number).
    pub fn add_block(&mut self, body: &BodyId, ty: &str, pos: [f64; 2]) -> Result<String, EditError> {
        if library::lookup(ty).is_none() && self.macro_def(ty).is_none() {
            return err(format!("`{ty}` is neither a library block nor a macro of this project"));
        }
        if let BodyId::Macro(m) = body
            && self.uses(ty, m)
        {
            return err(format!("macro `{ty}` uses `{m}`: an instance of it inside `{m}` would contain itself"));
        }
        let stem: String = ty.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        let taken = |id: &str| self.blocks(body).is_some_and(|bs| bs.iter().any(|b| b.id == id));
        let id = (1..).map(|k| format!("{stem}{k}")).find(|id| !taken(id)).expect("a free id");
        let block = Block {
            id: id.clone(),
            ty: ty.to_string(),
            inputs: Pins::default(),
            negated: Default::default(),
            params: Params::default(),
            data_type: None,
            pos: Some(pos),
            order: None,
            comment: None,
        };
        self.edit(format!("add {ty} `{id}`"), |w| {
            w.body_mut(body)?.blocks.push(block);
            Ok(id.clone())
        })
    }

    /// Whether macro `user` (or a macro it instantiates, transitively) is `target`.
    pub(crate) fn uses(&self, user: &str, target: &str) -> bool {
        let mut stack = vec![user.to_string()];
        let mut seen = std::collections::HashSet::new();
        while let Some(m) = stack.pop() {
            if m == target {
                return true;
            }
            if !seen.insert(m.clone()) {
                continue;
            }
            if let Some(d) = self.macro_def(&m) {
                stack.extend(d.blocks.iter().map(|b| b.ty.clone()));
            }
        }
        false
    }

    /// Deletes blocks and the wires from them (the inputs they drove become unconnected; an
    /// output port they fed keeps its reference and shows as an error until rewired).
    pub fn remove_blocks(&mut self, body: &BodyId, ids: &[String]) -> Result<(), EditError> {
        for id in ids {
            if self.block(body, id).is_none() {
                return err(format!("no block `{id}` in {body}"));
            }
        }
        let label =
            if ids.len() == 1 { format!("delete `{}`", ids[0]) } else { format!("delete {} blocks", ids.len()) };
        self.edit(label, |w| {
            let mut b = w.body_mut(body)?;
            b.blocks.retain(|x| !ids.contains(&x.id));
            for page in b.pages.iter_mut() {
                page.blocks.retain(|id| !ids.contains(id));
            }
            let reads_removed = |wire: &Wire| {
                wire_ref(wire).and_then(|r| r.split_once('.')).is_some_and(|(src, _)| ids.iter().any(|i| i == src))
            };
            for x in b.blocks.iter_mut() {
                x.inputs.0.retain(|(_, wire)| !reads_removed(wire));
            }
            // A connector of a removed block's output goes with its continuations.
            let gone: Vec<String> =
                b.connectors.iter().filter(|c| reads_removed(&c.from)).map(|c| c.name.clone()).collect();
            crate::connectors::remove_connectors(&mut b, &gone);
            // A task no longer runs a deleted block.
            if *body == BodyId::Program {
                for t in w.files_root_mut().tasks.iter_mut() {
                    t.programs.retain(|id| !ids.contains(id));
                }
            }
            Ok(())
        })
    }

    /// Moves blocks (one undo step for all of them: a drag of a selection).
    pub fn move_blocks(&mut self, body: &BodyId, moves: &[(String, [f64; 2])]) -> Result<(), EditError> {
        self.edit("move", |w| {
            let b = w.body_mut(body)?;
            for (id, p) in moves {
                let x = b
                    .blocks
                    .iter_mut()
                    .find(|x| x.id == *id)
                    .ok_or_else(|| EditError(format!("no block `{id}` in {body}")))?;
                x.pos = Some(*p);
            }
            Ok(())
        })
    }

    /// Connects `from` (`block.pin` or an input port) to input `pin` of block `to`. Refused
    /// with the reason when the types cannot match or the input already has a driver.
    pub fn connect(&mut self, body: &BodyId, from: &str, to: &str, pin: &str) -> Result<(), EditError> {
        let target = self.block(body, to).ok_or_else(|| EditError(format!("no block `{to}` in {body}")))?;
        let pins = self.pins(body, target).ok_or_else(|| EditError(format!("unknown block type `{}`", target.ty)))?;
        let Some(&(_, want)) = pins.inputs.iter().find(|(n, _)| n == pin) else {
            return err(format!("`{to}` ({}) has no input `{pin}`", target.ty));
        };
        if let Some((_, w)) = target.inputs.0.iter().find(|(n, _)| n == pin) {
            let by = match w {
                Wire::Const(v) => format!("the constant {v}"),
                Wire::Connector(n) => format!("connector `{n}`"),
                other => format!("`{}`", wire_ref(other).unwrap_or_default()),
            };
            return err(format!(
                "`{to}.{pin}` already has a driver ({by}); an input takes one: remove that wire first"
            ));
        }
        let have = self.source_type(body, from)?;
        if !want.admits(have) {
            return err(format!("`{from}` carries {have}, `{to}.{pin}` takes {want}"));
        }
        if target.negated.has(pin) && !have.admits(PinType::Fixed(Type::Bool)) {
            return err(format!("`{from}` carries {have}, `{to}.{pin}` is negated: it takes BOOL"));
        }
        if from.split_once('.').is_some_and(|(b, _)| b == to) {
            // A block reading its own output is a loop with no feedback point.
            return self.set_input(body, to, pin, Wire::Feedback { from: from.to_string(), init: None });
        }
        self.edit(format!("connect {from} -> {to}.{pin}"), |w| {
            let b = w.body_mut(body)?;
            let x = b.blocks.iter_mut().find(|x| x.id == to).expect("checked above");
            x.inputs.0.push((pin.to_string(), Wire::Ref(from.to_string())));
            Ok(())
        })
    }

    /// Feeds output port `port` of `body` from `from` (`block.pin` or an input port).
    pub fn connect_output(&mut self, body: &BodyId, port: &str, from: &str) -> Result<(), EditError> {
        let want = match body {
            BodyId::Program => self.root().outputs.iter().find(|p| p.name == port).map(|p| p.ty.0),
            BodyId::Macro(m) => {
                self.macro_def(m).and_then(|d| d.outputs.iter().find(|p| p.name == port)).map(|p| p.ty.0)
            }
        }
        .ok_or_else(|| EditError(format!("{body} has no output `{port}`")))?;
        let have = self.source_type(body, from)?;
        if !PinType::Fixed(want).admits(have) {
            return err(format!("`{from}` carries {have}, output `{port}` is {}", want.name()));
        }
        self.edit(format!("connect {from} -> output {port}"), |w| {
            let b = w.body_mut(body)?;
            let p = b.outputs.iter_mut().find(|p| p.name == port).expect("checked above");
            p.from = Wire::Ref(from.to_string());
            Ok(())
        })
    }

    /// Sets what drives input `pin` of `block`: a constant, a reference or a feedback wire.
    /// Replaces an existing driver (the inline editor of a pin).
    pub fn set_input(&mut self, body: &BodyId, block: &str, pin: &str, wire: Wire) -> Result<(), EditError> {
        let target = self.block(body, block).ok_or_else(|| EditError(format!("no block `{block}` in {body}")))?;
        let pins = self.pins(body, target).ok_or_else(|| EditError(format!("unknown block type `{}`", target.ty)))?;
        let Some(&(_, want)) = pins.inputs.iter().find(|(n, _)| n == pin) else {
            return err(format!("`{block}` ({}) has no input `{pin}`", target.ty));
        };
        let have = match &wire {
            Wire::Const(v) => {
                // An INT literal is accepted by a REAL pin, as in the file format.
                let t = v.ty();
                if t == Type::LInt
                    && want.admits(PinType::Fixed(Type::LReal))
                    && !want.admits(PinType::Fixed(Type::LInt))
                {
                    PinType::Fixed(Type::LReal)
                } else {
                    PinType::Fixed(t)
                }
            }
            other => self.source_type(body, self.wire_source(body, other).unwrap_or_default())?,
        };
        if !want.admits(have) {
            let hint = if want.admits(PinType::Fixed(Type::Time)) && matches!(wire, Wire::Const(_)) {
                " (a duration is written T#100ms)"
            } else {
                ""
            };
            return err(format!("`{block}.{pin}` takes {want}, not {have}{hint}"));
        }
        if target.negated.has(pin) && !have.admits(PinType::Fixed(Type::Bool)) {
            return err(format!("`{block}.{pin}` is negated: it takes BOOL, not {have}"));
        }
        self.edit(format!("set {block}.{pin}"), |w| {
            let b = w.body_mut(body)?;
            let x = b.blocks.iter_mut().find(|x| x.id == block).expect("checked above");
            match x.inputs.0.iter_mut().find(|(n, _)| n == pin) {
                Some((_, old)) => *old = wire.clone(),
                None => x.inputs.0.push((pin.to_string(), wire.clone())),
            }
            Ok(())
        })
    }

    /// Removes the wire or constant on input `pin` of `block`. A variadic pin exists only while
    /// connected, so its negation goes with it.
    pub fn disconnect(&mut self, body: &BodyId, block: &str, pin: &str) -> Result<(), EditError> {
        self.edit(format!("disconnect {block}.{pin}"), |w| {
            let x = w.block_mut(body, block)?;
            let n = x.inputs.0.len();
            x.inputs.0.retain(|(p, _)| p != pin);
            if x.inputs.0.len() == n {
                return err(format!("`{block}.{pin}` is not connected"));
            }
            if library::lookup(&x.ty).is_some_and(|d| d.inputs.iter().all(|q| q.name != pin)) {
                x.negated.retain(|q| q != pin);
            }
            Ok(())
        })
    }

    /// Negates pin `pin` of `block` (IEC 61131-3's circle: an input reads the inverse of what
    /// drives it, an output gives its readers the inverse of what the block computes), or
    /// removes the negation. Refused, with the reason, on a pin that cannot be BOOL, on a
    /// delayed output and on a variadic input not yet connected.
    pub fn set_negated(&mut self, body: &BodyId, block: &str, pin: &str, negated: bool) -> Result<(), EditError> {
        let target = self.block(body, block).ok_or_else(|| EditError(format!("no block `{block}` in {body}")))?;
        // A library block's, or a macro instance's (its ports, declared with their types).
        let def = library::lookup(&target.ty);
        if target.negated.has(pin) == negated {
            return Ok(());
        }
        if negated {
            let pins =
                self.pins(body, target).ok_or_else(|| EditError(format!("unknown block type `{}`", target.ty)))?;
            if let Some(&(_, have)) = pins.outputs.iter().find(|(n, _)| n == pin) {
                if def.is_some_and(|d| d.outputs.iter().any(|q| q.name == pin && q.delayed)) {
                    return err(format!(
                        "`{block}.{pin}` carries the previous scan's value: it cannot be negated (negate the input it feeds)"
                    ));
                }
                if !have.admits(PinType::Fixed(Type::Bool)) {
                    return err(format!("`{block}.{pin}` carries {have}: only a BOOL output can be negated"));
                }
            } else {
                let Some(&(_, want)) = pins.inputs.iter().find(|(n, _)| n == pin) else {
                    return err(format!("`{block}` ({}) has no pin `{pin}`", target.ty));
                };
                if !want.admits(PinType::Fixed(Type::Bool)) {
                    return err(format!("`{block}.{pin}` takes {want}: only a BOOL input can be negated"));
                }
                if def.is_some_and(|d| d.inputs.iter().all(|q| q.name != pin)) && target.inputs.get(pin).is_none() {
                    return err(format!("connect `{block}.{pin}` first: a variadic input exists once it is connected"));
                }
            }
        }
        let what = if negated { "negate" } else { "remove the negation of" };
        self.edit(format!("{what} {block}.{pin}"), |w| {
            let x = w.block_mut(body, block)?;
            if negated {
                x.negated.push(pin.to_string());
            } else {
                x.negated.retain(|q| q != pin);
            }
            Ok(())
        })
    }

    /// Block `id` of `body`, mutable, or the error that names it.
    fn block_mut(&mut self, body: &BodyId, id: &str) -> Result<&mut Block, EditError> {
        self.body_mut(body)?
            .blocks
            .iter_mut()
            .find(|x| x.id == id)
            .ok_or_else(|| EditError(format!("no block `{id}` in {body}")))
    }

    /// Sets a block's parameters, its fixed type and its comment.
    pub fn set_block_options(
        &mut self,
        body: &BodyId,
        block: &str,
        params: Params,
        data_type: Option<Type>,
        comment: Option<String>,
    ) -> Result<(), EditError> {
        self.edit(format!("options of `{block}`"), |w| {
            let x = w.block_mut(body, block)?;
            x.params = params.clone();
            x.data_type = data_type.map(TypeName);
            x.comment = comment.clone().filter(|c| !c.trim().is_empty());
            Ok(())
        })
    }

    /// Renames a block; the wires and output ports that name it follow.
    pub fn rename_block(&mut self, body: &BodyId, old: &str, new: &str) -> Result<(), EditError> {
        if !valid_ident(new) {
            return err(format!("`{new}` is not a valid block id (letters, digits and _; no `/` or `.`)"));
        }
        if self.block(body, old).is_none() {
            return err(format!("no block `{old}` in {body}"));
        }
        // Its own name again (Rename pressed on an unchanged field): nothing to do, and no
        // undo step; it said "there is already a block" of the block itself.
        if old == new {
            return Ok(());
        }
        if self.block(body, new).is_some() {
            return err(format!("there is already a block `{new}` in {body}"));
        }
        self.edit(format!("rename `{old}` to `{new}`"), |w| {
            let b = w.body_mut(body)?;
            let follow = |r: &mut String| {
                if let Some((src, pin)) = r.split_once('.')
                    && src == old
                {
                    *r = format!("{new}.{pin}");
                }
            };
            for id in b.pages.iter_mut().flat_map(|p| p.blocks.iter_mut()).filter(|id| *id == old) {
                *id = new.to_string();
            }
            for x in b.blocks.iter_mut() {
                if x.id == old {
                    x.id = new.to_string();
                }
                for (_, wire) in x.inputs.0.iter_mut() {
                    rename_in_wire(wire, &follow);
                }
            }
            for p in b.outputs.iter_mut() {
                rename_in_wire(&mut p.from, &follow);
            }
            for c in b.connectors.iter_mut() {
                rename_in_wire(&mut c.from, &follow);
            }
            // The program's tasks name their blocks, and an event task reads a wire.
            if *body == BodyId::Program {
                for t in w.files_root_mut().tasks.iter_mut() {
                    for id in t.programs.iter_mut().filter(|id| *id == old) {
                        *id = new.to_string();
                    }
                    if let Some(wire) = t.single.as_mut() {
                        rename_in_wire(wire, &follow);
                    }
                }
            }
            Ok(())
        })
    }

    /// Sets what `body` is for (the program's or a macro's description; blank text removes it).
    pub fn set_description(&mut self, body: &BodyId, text: &str) -> Result<(), EditError> {
        let text = Some(text.trim().to_string()).filter(|t| !t.is_empty());
        self.edit(format!("description of {body}"), |w| {
            match body {
                BodyId::Program => w.files_root_mut().description = text.clone(),
                BodyId::Macro(m) => w.macro_mut(m)?.description = text.clone(),
            }
            Ok(())
        })
    }

    /// What `body` is for, as [`Workspace::set_description`] sets it.
    pub fn description(&self, body: &BodyId) -> Option<&str> {
        match body {
            BodyId::Program => self.root().description.as_deref(),
            BodyId::Macro(m) => self.macro_def(m)?.description.as_deref(),
        }
    }

    /// Sets the constant on `pin` of `block` (typed by the text, as in a file: `TRUE`, `4`,
    /// `2.5`; or an IEC literal: `16#FF`, `1_000`, `T#500ms` as 500).
    pub fn set_constant(&mut self, body: &BodyId, block: &str, pin: &str, text: &str) -> Result<(), EditError> {
        let t = text.trim();
        const WHAT: &str = "TRUE, FALSE, an integer (4), a real (2.5) or an IEC literal (16#FF, T#500ms)";
        // Only number-shaped text reaches the literal reader, whose messages are about range
        // (it said `abc` and an empty field were "out of the INT range").
        let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
        let integer = !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit());
        let numeric = integer || (t.contains(['.', 'e', 'E']) && t.parse::<f64>().is_ok());
        let v = match t.to_ascii_lowercase().as_str() {
            "" => return Err(EditError(format!("type a constant: {WHAT}"))),
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            // A timer preset typed as CODESYS has it (T#500ms) was "not a constant".
            _ if !numeric => match fbd_model::iec::parse(t) {
                Ok(v) => v,
                Err(_) => return Err(EditError(format!("`{t}` is not a constant: {WHAT}"))),
            },
            _ => fbd_model::model::number(t).map_err(EditError)?,
        };
        self.set_input(body, block, pin, Wire::constant(v))
    }
}

pub(crate) fn rename_in_wire(w: &mut Wire, follow: &impl Fn(&mut String)) {
    match w {
        Wire::Ref(r) => follow(r),
        Wire::Feedback { from, .. } => follow(from),
        Wire::Const(_) | Wire::Connector(_) => {}
    }
}
