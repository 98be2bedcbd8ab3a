//! Editing a ladder network: a new rung, a contact in series or in parallel, a coil, a
//! variable or modifier changed, an element deleted; each one undoable step (`Workspace::edit`),
//! each variable a coil writes declared (BOOL) where the body has none of that name, the file's
//! format version raised to 5 where it gains its first network.

use fbd_model::Type;
use fbd_model::model::ladder::RAIL;
use fbd_model::model::{LdElement, LdKind, LdModifier, TypeName, Variable, Wire};

use crate::workspace::{BodyId, EditError, Workspace, err};

/// Where a new contact goes, beside an element of the network.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// In series after it: what read its power reads the new contact's.
    After,
    /// In series before it: it is powered through the new contact.
    Before,
    /// In parallel with it: powered as it is, its readers read the OR of both.
    Parallel,
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

impl Workspace {
    /// The ladder network of `body` (empty for an FBD body).
    pub fn ladder(&self, body: &BodyId) -> &[LdElement] {
        match body {
            BodyId::Program => &self.root().ladder,
            BodyId::Macro(m) => self.macro_def(m).map_or(&[], |d| &d.ladder),
        }
    }

    /// The variables of `body`.
    pub fn variables(&self, body: &BodyId) -> &[Variable] {
        match body {
            BodyId::Program => &self.root().variables,
            BodyId::Macro(m) => self.macro_def(m).map_or(&[], |d| &d.variables),
        }
    }

    /// A ladder edit named `label`: `f` changes the body's network and variables; the file's
    /// version is raised to what it then needs.
    fn ladder_edit<T>(
        &mut self,
        label: String,
        body: &BodyId,
        f: impl FnOnce(&mut Vec<LdElement>, &mut Vec<Variable>, &[String], &mut Drawn) -> Result<T, EditError>,
    ) -> Result<T, EditError> {
        let body = body.clone();
        self.edit(label, move |w| {
            let file = w.file_of(&body);
            let b = w.body_mut(&body)?;
            let placed = drawn_at_stored_positions(b.ladder, b.blocks);
            let mut drawn = Drawn { placed, blocks: b.blocks };
            let r = f(b.ladder, b.variables, &b.inputs, &mut drawn)?;
            let doc = w.doc_mut(file);
            doc.fbd = doc.fbd.max(doc.version_needed());
            Ok(r)
        })
    }

    /// A new rung at the end of the network: a contact on `contact` from the rail into a coil
    /// writing `coil`; returns the coil's id.
    pub fn add_rung(&mut self, body: &BodyId, contact: &str, coil: &str) -> Result<String, EditError> {
        self.ladder_edit(format!("add a rung: `{contact}` into `{coil}`"), body, |ladder, vars, inputs, drawn| {
            need_readable(contact, vars, inputs)?;
            declare(coil, vars, inputs)?;
            let c = fresh(ladder, "contact");
            let k = fresh_after(ladder, "coil", &c);
            ladder.push(LdElement::contact(&c, contact, LdModifier::Plain, &[RAIL]));
            ladder.push(LdElement::coil(&k, coil, LdModifier::Plain, &[&c]));
            let n = ladder.len();
            drawn.rung(ladder, n - 2, n - 1);
            Ok(k)
        })
    }

    /// A contact on `var` beside element `at`, `place`d in series or in parallel; its id.
    pub fn add_contact(&mut self, body: &BodyId, at: &str, place: Place, var: &str) -> Result<String, EditError> {
        let what = match place {
            Place::After => "after",
            Place::Before => "before",
            Place::Parallel => "in parallel with",
        };
        self.ladder_edit(format!("add contact `{var}` {what} `{at}`"), body, |ladder, vars, inputs, drawn| {
            need_readable(var, vars, inputs)?;
            let k = index(ladder, at)?;
            let id = fresh(ladder, "contact");
            let mine = Wire::Ref(at.to_string());
            let new = Wire::Ref(id.clone());
            match place {
                Place::After => {
                    if ladder[k].kind == LdKind::Store {
                        return err(format!("`{at}` is a store, which passes no power"));
                    }
                    for e in ladder.iter_mut() {
                        e.from.iter_mut().filter(|w| **w == mine).for_each(|w| *w = new.clone());
                    }
                    ladder.insert(k + 1, LdElement::contact(&id, var, LdModifier::Plain, &[at]));
                    let p = ladder[k].pos;
                    drawn.after(ladder, k + 1, p);
                }
                Place::Before => {
                    let from = std::mem::replace(&mut ladder[k].from, vec![new]);
                    let mut c = LdElement::contact(&id, var, LdModifier::Plain, &[]);
                    c.from = if from.is_empty() { vec![Wire::Ref(RAIL.into())] } else { from };
                    ladder.insert(k, c);
                    let p = ladder[k + 1].pos;
                    drawn.before(ladder, k, p);
                }
                Place::Parallel => {
                    if ladder[k].kind != LdKind::Contact {
                        return err(format!("`{at}` is no contact: a contact goes in parallel with a contact"));
                    }
                    let mut c = LdElement::contact(&id, var, LdModifier::Plain, &[]);
                    c.from = ladder[k].from.clone();
                    for e in ladder.iter_mut() {
                        if e.from.contains(&mine) {
                            e.from.push(new.clone());
                        }
                    }
                    ladder.insert(k + 1, c);
                    let p = ladder[k].pos;
                    drawn.under(ladder, k + 1, p, None);
                }
            }
            Ok(id)
        })
    }

    /// A coil writing `var` powered from element `at` (a second coil on a rung, or a coil after
    /// a contact left open); its id.
    pub fn add_coil(&mut self, body: &BodyId, at: &str, var: &str) -> Result<String, EditError> {
        self.ladder_edit(format!("add coil `{var}` after `{at}`"), body, |ladder, vars, inputs, drawn| {
            declare(var, vars, inputs)?;
            let k = index(ladder, at)?;
            let id = fresh(ladder, "coil");
            ladder.insert(k + 1, LdElement::coil(&id, var, LdModifier::Plain, &[at]));
            // Under the coils of the rung (a parallel coil), else right of the element.
            let p = ladder[k].pos;
            match coil_x(ladder) {
                Some(x) if ladder[k].kind == LdKind::Coil => drawn.under(ladder, k + 1, p, Some(x)),
                _ => drawn.after(ladder, k + 1, p),
            }
            Ok(id)
        })
    }

    /// A block of type `ty` in the rung after element `at`, as a ladder editor puts a timer or a
    /// counter in a rung: its first BOOL input (a timer's IN, a counter's CU) powered from `at`,
    /// and what read `at` reads its first BOOL output (Q) instead; a block without a BOOL input
    /// (ADD, MOVE) is called while `at` is powered (its EN) and passes the power on (its ENO).
    /// Its id.
    pub fn add_block_in_rung(&mut self, body: &BodyId, at: &str, ty: &str) -> Result<String, EditError> {
        let def = fbd_model::library::lookup(ty)
            .ok_or_else(|| EditError(format!("`{ty}` is no library block (a block in a rung is a library block)")))?;
        let is_bool = |p: &fbd_model::library::PinDef| matches!(p.ty, fbd_model::library::PinTy::Fixed(Type::Bool));
        let (pin_in, pin_out) = match (def.inputs.iter().find(|p| is_bool(p)), def.outputs.iter().find(|p| is_bool(p)))
        {
            (Some(i), Some(o)) => (i.name.to_string(), o.name.to_string()),
            _ => (fbd_model::library::ENABLE.to_string(), "ENO".to_string()),
        };
        let stem: String = ty.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        let body2 = body.clone();
        let at = at.to_string();
        self.edit(format!("add {ty} in the rung after `{at}`"), move |w| {
            let taken: Vec<String> =
                w.blocks(&body2).map(|bs| bs.iter().map(|b| b.id.clone()).collect()).unwrap_or_default();
            let ladder_ids: Vec<String> = w.ladder(&body2).iter().map(|e| e.id.clone()).collect();
            let id = (1..)
                .map(|k| format!("{stem}{k}"))
                .find(|id| !taken.contains(id) && !ladder_ids.contains(id))
                .unwrap_or_default();
            let file = w.file_of(&body2);
            let b = w.body_mut(&body2)?;
            if !b.ladder.iter().any(|e| e.id == at) {
                return err(format!("no element `{at}` in this network"));
            }
            let mine = Wire::Ref(at.clone());
            let out = Wire::Ref(format!("{id}.{pin_out}"));
            for e in b.ladder.iter_mut() {
                e.from.iter_mut().filter(|w| **w == mine).for_each(|w| *w = out.clone());
            }
            for blk in b.blocks.iter_mut() {
                blk.inputs.0.iter_mut().filter(|(_, w)| *w == mine).for_each(|(_, w)| *w = out.clone());
            }
            // Its other inputs that must be wired and have one type (a timer's PT, a counter's
            // PV) start at that type's zero, so the rung compiles at once; the user sets them.
            let mut inputs = vec![(pin_in.clone(), mine)];
            for p in def.inputs.iter().filter(|p| p.name != pin_in && p.default.is_none()) {
                if let fbd_model::library::PinTy::Fixed(t) = p.ty {
                    inputs.push((p.name.to_string(), Wire::constant(t.zero())));
                }
            }
            // Drawn at the file's positions: right of the element, the rest of its row two steps
            // right (a block is wider than a contact).
            let mut pos = None;
            if drawn_at_stored_positions(b.ladder, b.blocks)
                && let Some(p) = b.ladder.iter().find(|e| e.id == at).and_then(|e| e.pos)
            {
                let q = [p[0] + STEP_X, p[1]];
                shift_right(b.ladder, b.blocks, q, "");
                shift_right(b.ladder, b.blocks, [q[0] + STEP_X, q[1]], "");
                pos = Some([q[0], q[1] - STEP_Y / 4.0]);
            }
            b.blocks.push(fbd_model::model::Block {
                id: id.clone(),
                ty: ty.to_string(),
                inputs: fbd_model::model::Pins(inputs),
                negated: Default::default(),
                params: Default::default(),
                data_type: None,
                pos,
                order: None,
                comment: None,
            });
            let doc = w.doc_mut(file);
            doc.fbd = doc.fbd.max(doc.version_needed());
            Ok(id)
        })
    }

    /// Element `id` reads or writes `var` now.
    pub fn set_element_var(&mut self, body: &BodyId, id: &str, var: &str) -> Result<(), EditError> {
        self.ladder_edit(format!("`{id}` on `{var}`"), body, |ladder, vars, inputs, _| {
            let k = index(ladder, id)?;
            match ladder[k].kind {
                LdKind::Contact => need_readable(var, vars, inputs)?,
                _ => declare(var, vars, inputs)?,
            }
            ladder[k].var = var.to_string();
            Ok(())
        })
    }

    /// Element `id`'s modifier (a contact: plain, negated, rising, falling; a coil any).
    pub fn set_modifier(&mut self, body: &BodyId, id: &str, m: LdModifier) -> Result<(), EditError> {
        self.ladder_edit(format!("`{id}` {}", m.name()), body, |ladder, _, _, _| {
            let k = index(ladder, id)?;
            let fits = match ladder[k].kind {
                LdKind::Contact => !matches!(m, LdModifier::Set | LdModifier::Reset),
                LdKind::Coil => true,
                LdKind::Store => matches!(m, LdModifier::Plain | LdModifier::Negated),
            };
            if !fits {
                return err(format!("`{id}` cannot be {}", m.name()));
            }
            ladder[k].modifier = m;
            Ok(())
        })
    }

    /// Deletes element `id`: where it was the only source of what follows, that reads its
    /// sources instead (a contact in series is bridged); where it was one branch of several,
    /// the branch goes (the others stay as they were).
    pub fn delete_element(&mut self, body: &BodyId, id: &str) -> Result<(), EditError> {
        self.ladder_edit(format!("delete `{id}`"), body, |ladder, _, _, _| {
            let k = index(ladder, id)?;
            let gone = ladder.remove(k);
            let mine = Wire::Ref(id.to_string());
            for e in ladder.iter_mut() {
                let Some(j) = e.from.iter().position(|w| *w == mine) else { continue };
                e.from.remove(j);
                // One branch of several: the branch goes. The only source: bridged.
                if e.from.is_empty() {
                    e.from = gone.from.clone();
                }
            }
            Ok(())
        })
    }
}

/// Whether the network is drawn at the file's positions: every element and block has one.
fn drawn_at_stored_positions(ladder: &[LdElement], blocks: &[fbd_model::model::Block]) -> bool {
    !ladder.is_empty() && ladder.iter().all(|e| e.pos.is_some()) && blocks.iter().all(|b| b.pos.is_some())
}

/// Grid steps of a network drawn at the file's positions: an element's width with its wires,
/// a row.
const STEP_X: f64 = 60.0;
const STEP_Y: f64 = 40.0;

/// A network's drawing as an edit keeps it: where the file's positions are kept (an imported
/// OpenPLC program), each new element gets a position beside what it is wired to and what stood
/// there moves right or down; otherwise the network is laid out anew and nothing is stored.
pub(crate) struct Drawn<'b> {
    placed: bool,
    blocks: &'b mut Vec<fbd_model::model::Block>,
}

impl Drawn<'_> {
    /// Element `k` right of `at` (its source), the rest of that row one step right.
    fn after(&mut self, ladder: &mut [LdElement], k: usize, at: Option<[f64; 2]>) {
        let Some(p) = at.filter(|_| self.placed) else { return };
        let q = [p[0] + STEP_X, p[1]];
        let id = ladder[k].id.clone();
        shift_right(ladder, self.blocks, q, &id);
        ladder[k].pos = Some(q);
    }
    /// Element `k` in the place of the element at `at`, which moves right with its row.
    fn before(&mut self, ladder: &mut [LdElement], k: usize, at: Option<[f64; 2]>) {
        let Some(p) = at.filter(|_| self.placed) else { return };
        let id = ladder[k].id.clone();
        shift_right(ladder, self.blocks, p, &id);
        ladder[k].pos = Some(p);
    }
    /// Element `k` on a new row under the element at `at` (x `x`).
    fn under(&mut self, ladder: &mut [LdElement], k: usize, at: Option<[f64; 2]>, x: Option<f64>) {
        let Some(p) = at.filter(|_| self.placed) else { return };
        open_row(ladder, self.blocks, p[1]);
        ladder[k].pos = Some([x.unwrap_or(p[0]), p[1] + STEP_Y]);
    }
    /// A new rung's contact `c` and coil `k` under the network.
    fn rung(&mut self, ladder: &mut [LdElement], c: usize, k: usize) {
        if !self.placed {
            return;
        }
        let old = ladder.iter().enumerate().filter(|(j, _)| *j != c && *j != k).filter_map(|(_, e)| e.pos);
        let (left, bottom) = old.fold((f64::MAX, f64::MIN), |(l, b), p| (l.min(p[0]), b.max(p[1])));
        let right = coil_x(ladder).unwrap_or(left + 5.0 * STEP_X);
        let y = bottom + 1.5 * STEP_Y;
        ladder[c].pos = Some([left, y]);
        ladder[k].pos = Some([right, y]);
    }
}

/// Where the network's coils stand (the rightmost), if it has any placed.
fn coil_x(ladder: &[LdElement]) -> Option<f64> {
    ladder.iter().filter(|e| e.kind == LdKind::Coil).filter_map(|e| e.pos).map(|p| p[0]).reduce(f64::max)
}

/// Moves every element and block at or right of `p` on its row one step right (but `except`).
fn shift_right(ladder: &mut [LdElement], blocks: &mut [fbd_model::model::Block], p: [f64; 2], except: &str) {
    let on_row = |q: [f64; 2]| (q[1] - p[1]).abs() < STEP_Y / 2.0 && q[0] >= p[0] - 1.0;
    for e in ladder.iter_mut().filter(|e| e.id != except) {
        if let Some(q) = e.pos.as_mut().filter(|q| on_row(**q)) {
            q[0] += STEP_X;
        }
    }
    for b in blocks.iter_mut() {
        if let Some(q) = b.pos.as_mut().filter(|q| (q[1] - p[1]).abs() < STEP_Y && q[0] >= p[0] - 1.0) {
            q[0] += STEP_X;
        }
    }
}

/// Moves every element and block below row `y` one row down.
fn open_row(ladder: &mut [LdElement], blocks: &mut [fbd_model::model::Block], y: f64) {
    for q in ladder.iter_mut().filter_map(|e| e.pos.as_mut()).chain(blocks.iter_mut().filter_map(|b| b.pos.as_mut())) {
        if q[1] > y + STEP_Y / 2.0 {
            q[1] += STEP_Y;
        }
    }
}

fn index(ladder: &[LdElement], id: &str) -> Result<usize, EditError> {
    ladder.iter().position(|e| e.id == id).ok_or_else(|| EditError(format!("no element `{id}` in this network")))
}

/// An id `prefix1`, `prefix2`... no element has.
fn fresh(ladder: &[LdElement], prefix: &str) -> String {
    (1..).map(|k| format!("{prefix}{k}")).find(|id| ladder.iter().all(|e| e.id != *id)).unwrap_or_default()
}

/// [`fresh`], also different from `other` (an id made in the same edit).
fn fresh_after(ladder: &[LdElement], prefix: &str, other: &str) -> String {
    (1..)
        .map(|k| format!("{prefix}{k}"))
        .find(|id| id != other && ladder.iter().all(|e| e.id != *id))
        .unwrap_or_default()
}

/// `var` must be something a contact reads: a variable, an input or `block.pin`.
fn need_readable(var: &str, vars: &[Variable], inputs: &[String]) -> Result<(), EditError> {
    if var.contains('.') || vars.iter().any(|v| v.name == var) || inputs.iter().any(|i| i == var) {
        return Ok(());
    }
    err(format!("`{var}` is no input or variable of this body: declare it, or write it with a coil first"))
}

/// Declares `var` a BOOL variable unless the body has it; an input is refused (a coil writes
/// variables).
fn declare(var: &str, vars: &mut Vec<Variable>, inputs: &[String]) -> Result<(), EditError> {
    if inputs.iter().any(|i| i == var) {
        return err(format!("`{var}` is an input: a coil writes a variable"));
    }
    if !is_name(var) {
        return err(format!("`{var}` is no variable name (letters, digits, `_`)"));
    }
    if !vars.iter().any(|v| v.name == var) {
        vars.push(Variable {
            name: var.to_string(),
            ty: TypeName(Type::Bool),
            data_type: None,
            init_name: None,
            init_elements: Vec::new(),
            init: None,
            input: false,
            temp: false,
            description: None,
        });
    }
    Ok(())
}
