//! Arrays in ST: each element of an array variable is a variable of its own (`a[2]`,
//! `grid[0,1]`: what the debugger watches, what a loop carries), so a constant index is a plain
//! read or write. An index computed at run time reads through a MUX of the elements (one
//! instruction: the element at the offset) and writes through a SEL per element (the one whose
//! offset it is takes the value). An index outside its bounds gives the element type's zero
//! and a fault at the index's place (matiec's C reads and writes past the array unchecked).

use fbd_model::model::{ArrayType, DataTypes, Variable, Wire};
use fbd_model::{Type, Value};
use fbd_st::Pos;
use fbd_st::ast::{Expr, Path, UnOp};

use super::Lowerer;
use crate::st::{Body, Found, Name};

/// An array variable of the body: its shape and where its elements are among the variables.
#[derive(Clone, Debug)]
pub(in crate::st) struct ArrayVar {
    pub(in crate::st) name: String,
    pub(in crate::st) shape: ArrayType,
    /// The index of element 0 in the body's variables (the others follow).
    pub(in crate::st) first: usize,
}

/// Where an element is: known when compiled, or computed each scan (its offset, a DINT).
enum Index {
    Known(usize),
    Computed(Wire),
}

/// Replaces each array variable of the body by its elements (`a[0]`, `a[1]`..), appended to
/// its variables; the arrays, for the names.
pub(in crate::st) fn expand(body: &mut Body, found: &mut Found) -> Vec<ArrayVar> {
    let types = DataTypes(body.types);
    let mut arrays = Vec::new();
    let mut kept = Vec::new();
    let mut elements = Vec::new();
    for v in std::mem::take(body.variables) {
        let Some(shape) = v.data_type.as_deref().and_then(|t| types.array(t)) else {
            kept.push(v);
            continue;
        };
        if v.input {
            found.push((
                Pos { line: 1, col: 1 },
                format!("array `{}` takes an input: an array is the body's own variable", v.name),
            ));
        }
        let elem_enum = types.element(&shape.of).and_then(|(_, e)| e);
        let zero = elem_enum
            .and_then(|t| t.init.as_ref().and_then(|i| t.value_index(i)))
            .map(|i| fbd_model::model::Const(Value::Int(i as i64)));
        let first = elements.len();
        for k in 0..shape.len() {
            let mut e = Variable::new(shape.element_name(&v.name, k), v.ty.0);
            e.data_type = elem_enum.map(|t| t.name.clone());
            e.init = v.init_elements.get(k as usize).copied().or(zero);
            e.temp = v.temp;
            elements.push(e);
        }
        arrays.push(ArrayVar { name: v.name, shape, first });
    }
    let base = kept.len();
    kept.extend(elements);
    *body.variables = kept;
    for a in &mut arrays {
        a.first += base;
    }
    arrays
}

impl Lowerer<'_, '_> {
    /// The array a path's first part names, if it names one.
    pub(super) fn array_of(&self, p: &Path) -> Option<usize> {
        match self.names.get(&p.parts[0].to_ascii_uppercase()) {
            Some(Name::Array(a)) => Some(*a),
            _ => None,
        }
    }

    /// `a[i, j]` read: the element's value and type.
    pub(super) fn read_element(&mut self, a: usize, p: &Path) -> (Wire, Option<Type>) {
        let arr = self.arrays[a].clone();
        let ty = self.var_ty(arr.first);
        // After an error the zero, untyped: no second error for its use.
        let zero = (Wire::constant(ty.zero()), None);
        let Some(index) = self.element_index(&arr, p, false) else { return zero };
        match index {
            Index::Known(k) => (self.env[arr.first + k].clone(), Some(ty)),
            Index::Computed(offset) => {
                // A MUX of the elements: one past its inputs gives the zero and a fault. (Several
                // dimensions: each index was checked on its own.)
                let mut inputs = vec![("k".to_string(), offset)];
                inputs
                    .extend((0..arr.shape.len() as usize).map(|k| (format!("in{k}"), self.env[arr.first + k].clone())));
                (self.make(p.pos, "MUX", inputs, Some(ty), "out"), Some(ty))
            }
        }
    }

    /// `a[i, j] := w`: the element written (each element, when the index is computed: the one
    /// at the offset takes `w`).
    pub(super) fn write_element(&mut self, a: usize, p: &Path, w: Wire) {
        let arr = self.arrays[a].clone();
        let Some(index) = self.element_index(&arr, p, true) else { return };
        match index {
            Index::Known(k) => self.env[arr.first + k] = w,
            Index::Computed(offset) => {
                let ty = self.var_ty(arr.first);
                for k in 0..arr.shape.len() as usize {
                    let at = Wire::constant(Value::Int(k as i64).coerce(Type::DInt).unwrap_or(Value::Int(k as i64)));
                    let hit = self.make(
                        p.pos,
                        "EQ",
                        vec![("in1".into(), offset.clone()), ("in2".into(), at)],
                        Some(Type::DInt),
                        "out",
                    );
                    let old = self.env[arr.first + k].clone();
                    let inputs = vec![("g".into(), hit), ("in0".into(), old), ("in1".into(), w.clone())];
                    self.env[arr.first + k] = self.make(p.pos, "SEL", inputs, Some(ty), "out");
                }
            }
        }
    }

    /// `a[i] := value` (or `a := b`, an array of the same shape and type: every element).
    pub(super) fn assign_array(&mut self, a: usize, target: &Path, value: &Expr) {
        let arr = self.arrays[a].clone();
        let what = format!("`{}`", element_text(target));
        if target.subscripts.is_empty() && target.parts.len() == 1 {
            let from = match value {
                Expr::Name(p) if p.subscripts.is_empty() && p.parts.len() == 1 => self.array_of(p),
                _ => None,
            };
            let Some(b) = from.filter(|&b| {
                let o = &self.arrays[b];
                o.shape.dims == arr.shape.dims && o.shape.of.eq_ignore_ascii_case(&arr.shape.of)
            }) else {
                return self.error(value.pos(), format!("{what} is an array ({}): it takes an array of the same type, or write one element, `{}[i] := ..`", arr.shape, arr.name));
            };
            let src = self.arrays[b].first;
            for k in 0..arr.shape.len() as usize {
                self.env[arr.first + k] = self.env[src + k].clone();
            }
            return;
        }
        let ty = self.var_ty(arr.first);
        let (w, t) = self.expr(value, Some(ty));
        match self.body.variables[arr.first].data_type.clone() {
            Some(e) => {
                self.check_enum_store(value, Some(&e), &what);
            }
            None if self.check_enum_store(value, None, &what) => {}
            None => self.check_store(value, t, ty, &what),
        }
        self.write_element(a, target, w);
    }

    /// The variables a statement writing `p` (an array or one of its elements) writes.
    pub(super) fn element_variables(&self, a: usize, p: &Path) -> Vec<usize> {
        let arr = &self.arrays[a];
        let known: Option<Vec<i64>> = p.subscripts.iter().map(constant_index).collect();
        match known.and_then(|i| arr.shape.position(&i)) {
            Some(k) if !p.subscripts.is_empty() => vec![arr.first + k as usize],
            _ => (arr.first..arr.first + arr.shape.len() as usize).collect(),
        }
    }

    /// Where the element `p` names is, or `None` with an error at its place. `writing`: no MUX
    /// reads it, so each index is checked (a read of one dimension is checked by its MUX).
    fn element_index(&mut self, arr: &ArrayVar, p: &Path, writing: bool) -> Option<Index> {
        if p.parts.len() > 1 || p.index_after_member {
            self.error(p.pos, format!("`{}`: members of an array's elements are not compiled yet", p.parts.join(".")));
            return None;
        }
        if p.subscripts.is_empty() {
            self.error(
                p.pos,
                format!("`{}` is an array ({}): name one of its elements, `{}[i]`", arr.name, arr.shape, arr.name),
            );
            return None;
        }
        if p.subscripts.len() != arr.shape.dims.len() {
            self.error(
                p.pos,
                format!(
                    "`{}` has {} dimension(s) ({}): {} index(es) given",
                    arr.name,
                    arr.shape.dims.len(),
                    arr.shape,
                    p.subscripts.len()
                ),
            );
            return None;
        }
        let known: Option<Vec<i64>> = p.subscripts.iter().map(constant_index).collect();
        if let Some(indices) = known {
            return match arr.shape.position(&indices) {
                Some(k) => Some(Index::Known(k as usize)),
                None => {
                    self.error(p.pos, format!("`{}[{}]` is outside {}", arr.name, join(&indices), arr.shape));
                    None
                }
            };
        }
        // The offset, row-major, in DINT: each index less its lower bound, times the elements
        // of the dimensions after it. Each index is checked against its own bounds (a MUX of
        // TRUEs, which faults past them) where the offset alone would not tell.
        let check = writing || arr.shape.dims.len() > 1;
        let mut offset: Option<Wire> = None;
        let mut in_bounds = Vec::new();
        let mut stride: i64 = arr.shape.len() as i64;
        for (e, &(lo, hi)) in p.subscripts.iter().zip(&arr.shape.dims) {
            stride /= hi - lo + 1;
            let (w, t) = self.expr(e, None);
            if let Some(t) = t.filter(|t| !t.is_int()) {
                self.error(e.pos(), format!("an array index is an integer; this is a {}", t.name()));
                return None;
            }
            let w = self.as_dint(w, t, e.pos());
            let d = self.dint_op("SUB", w, lo, e.pos());
            if check {
                let mut inputs = vec![("k".to_string(), d.clone())];
                inputs.extend((0..(hi - lo + 1)).map(|k| (format!("in{k}"), Wire::constant(Value::Bool(true)))));
                in_bounds.push(self.make(e.pos(), "MUX", inputs, Some(Type::Bool), "out"));
            }
            let term = self.dint_op("MUL", d, stride, e.pos());
            offset = Some(match offset {
                None => term,
                Some(o) => {
                    self.make(e.pos(), "ADD", vec![("in1".into(), o), ("in2".into(), term)], Some(Type::DInt), "out")
                }
            });
        }
        let mut offset = offset.unwrap_or_else(|| Wire::constant(Value::Int(0)));
        // With several dimensions, an index past its own bounds could still give the offset
        // of another element: the offset is then -1, no element's.
        if in_bounds.len() > 1 {
            let inputs = in_bounds.into_iter().enumerate().map(|(k, w)| (format!("in{}", k + 1), w)).collect();
            let ok = self.make(p.pos, "AND", inputs, Some(Type::Bool), "out");
            let inputs = vec![("g".into(), ok), ("in0".into(), Wire::constant(Value::Int(-1))), ("in1".into(), offset)];
            offset = self.make(p.pos, "SEL", inputs, Some(Type::DInt), "out");
        }
        Some(Index::Computed(offset))
    }

    /// `w` (of type `t`) as a DINT.
    fn as_dint(&mut self, w: Wire, t: Option<Type>, pos: Pos) -> Wire {
        match (&w, t) {
            (Wire::Const(l), _) => Wire::constant(l.value().coerce(Type::DInt).unwrap_or(l.value())),
            (_, Some(Type::DInt)) | (_, None) => w,
            (_, Some(t)) => self.make(pos, &format!("{}_TO_DINT", t.name()), vec![("in".into(), w)], None, "out"),
        }
    }

    /// `w op k` in DINT (nothing made for `w - 0`, `w * 1`).
    fn dint_op(&mut self, op: &str, w: Wire, k: i64, pos: Pos) -> Wire {
        if (op == "SUB" && k == 0) || (op == "MUL" && k == 1) {
            return w;
        }
        let k = Wire::constant(Value::Int(k).coerce(Type::DInt).unwrap_or(Value::Int(k)));
        self.make(pos, op, vec![("in1".into(), w), ("in2".into(), k)], Some(Type::DInt), "out")
    }
}

/// An index written as a constant (`3`, `-1`, `INT#2`).
fn constant_index(e: &Expr) -> Option<i64> {
    match e {
        Expr::Lit { value: Value::Int(i), .. } => Some(*i),
        Expr::Unary(UnOp::Neg, inner, _) => constant_index(inner).map(|i| -i),
        _ => None,
    }
}

/// `g[0, 1]`, `buf[..]` (an index computed): an element as a message names it.
fn element_text(p: &Path) -> String {
    if p.subscripts.is_empty() {
        return p.text();
    }
    let idx: Vec<String> =
        p.subscripts.iter().map(|e| constant_index(e).map_or("..".into(), |i| i.to_string())).collect();
    format!("{}[{}]", p.parts[0], idx.join(", "))
}

fn join(indices: &[i64]) -> String {
    indices.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}
