//! Expressions as blocks: operators, literals, names read where they stand, calls of library
//! functions and of the project's FUNCTIONs; and how matiec's C computes them: a narrow
//! integer operation inside another (or a comparison) promoted to a 32-bit `int` and truncated
//! only when stored or passed, a REAL operation with a `double` literal in double precision
//! (`Ctx`: where a value goes).

use fbd_model::model::Wire;
use fbd_model::{Type, Value, library};
use fbd_st::Pos;
use fbd_st::ast::{Arg, BinOp, Call, Expr, Path, UnOp};

use super::Lowerer;
use crate::st::{Name, fb_outputs, pin_type};

impl Lowerer<'_, '_> {
    /// An expression's wire and type (`None`: an untyped literal's, taken from its use);
    /// `want` is the type its use asks for.
    pub(super) fn expr(&mut self, e: &Expr, want: Option<Type>) -> (Wire, Option<Type>) {
        match e {
            Expr::Lit { value, ty, .. } => {
                let value = match ty.or(want) {
                    Some(t) => value.coerce(t).unwrap_or(*value),
                    None => *value,
                };
                (Wire::constant(value), *ty)
            }
            Expr::Name(p) => self.read(p),
            Expr::Unary(UnOp::Neg, inner, pos) => {
                let (w, t, _) = self.negate(inner, *pos, want, Ctx::Value);
                (w, t)
            }
            Expr::Unary(UnOp::Not, inner, pos) => {
                let (w, t) = self.expr(inner, want);
                let t = t.or(want);
                (self.make(*pos, "NOT", vec![("in".into(), w)], t, "out"), t)
            }
            Expr::Binary(op, a, b, pos) => {
                let (w, t, _) = self.binary(*op, a, b, *pos, want, Ctx::Value);
                (w, t)
            }
            Expr::Call(call) => self.function(call, want),
        }
    }

    /// An operand of an operator: as C computes it in matiec's code, a narrow integer
    /// (SINT, INT, USINT, UINT) operation promoted to a 32-bit int and not truncated until it
    /// is stored or passed (`(a * 1000) / 4` of an INT `a` does not wrap at `a * 1000`). The
    /// wire, the expression's IEC type, and whether the wire is that promoted DINT.
    fn operand(&mut self, e: &Expr, want: Option<Type>) -> (Wire, Option<Type>, bool) {
        match e {
            Expr::Binary(op, a, b, pos) => self.binary(*op, a, b, *pos, want, Ctx::Operand),
            Expr::Unary(UnOp::Neg, inner, pos) => self.negate(inner, *pos, want, Ctx::Operand),
            e => {
                let (w, t) = self.expr(e, want);
                (w, t, false)
            }
        }
    }

    /// `w` of IEC type `t` as a DINT operand in an operation of narrow type `n` (a constant as
    /// it is; a narrow integer converted; an expression of untyped literals, `MAX(1, 2)`, of
    /// the operation's type `n` first, as the other operand gives it).
    fn widen(&mut self, w: Wire, t: Option<Type>, promoted: bool, pos: Pos, n: Type) -> Wire {
        match (&w, t) {
            (Wire::Const(l), _) => Wire::constant(l.value().coerce(Type::DInt).unwrap_or(l.value())),
            _ if promoted => w,
            (_, Some(t)) if narrow(t) => {
                self.make(pos, &format!("{}_TO_DINT", t.name()), vec![("in".into(), w)], None, "out")
            }
            (_, None) => {
                let typed = self.make(pos, "MOVE", vec![("in".into(), w)], Some(n), "out");
                self.make(pos, &format!("{}_TO_DINT", n.name()), vec![("in".into(), typed)], None, "out")
            }
            _ => w,
        }
    }

    /// A REAL operand `w` (of expression `e`) as a double: a literal as written, a REAL
    /// converted exactly.
    fn widen_real(&mut self, w: Wire, e: &Expr, promoted: bool, pos: Pos) -> Wire {
        if let Some(v) = double_literal(e) {
            return Wire::constant(Value::Real(v));
        }
        match (e, &w) {
            (Expr::Lit { value, .. }, _) => Wire::constant(*value),
            (_, Wire::Const(l)) => Wire::constant(l.value()),
            _ if promoted => w,
            _ => self.make(pos, "REAL_TO_LREAL", vec![("in".into(), w)], None, "out"),
        }
    }

    /// A promoted DINT `w` stored or passed as its IEC type `t`: truncated, as C's assignment.
    fn truncate(&mut self, w: Wire, t: Type, pos: Pos) -> Wire {
        self.make(pos, &format!("DINT_TO_{}", t.name()), vec![("in".into(), w)], None, "out")
    }

    fn negate(&mut self, inner: &Expr, pos: Pos, want: Option<Type>, ctx: Ctx) -> (Wire, Option<Type>, bool) {
        if let Expr::Lit { value, ty, .. } = inner {
            let neg = match *value {
                Value::Int(i) => Some(Value::Int(-i)),
                Value::Real(r) => Some(Value::Real(-r)),
                Value::Time(t) => Some(Value::Time(-t)),
                _ => None,
            };
            if let Some(v) = neg {
                let (w, t) = self.expr(&Expr::Lit { value: v, ty: *ty, pos }, want);
                return (w, t, false);
            }
        }
        let (w, t, promoted) = self.operand(inner, want);
        let t = t.or(want);
        if let Some(n) = t.filter(|&n| narrow(n) && (promoted || ctx == Ctx::Operand)) {
            let x = self.widen(w, t, promoted, pos, n);
            let r = self.make(pos, "NEG", vec![("in".into(), x)], Some(Type::DInt), "out");
            return if ctx == Ctx::Operand { (r, t, true) } else { (self.truncate(r, n, pos), t, false) };
        }
        (self.make(pos, "NEG", vec![("in".into(), w)], t, "out"), t, false)
    }

    fn binary(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        pos: Pos,
        want: Option<Type>,
        ctx: Ctx,
    ) -> (Wire, Option<Type>, bool) {
        self.check_enum_binary(op, a, b, pos);
        let compare = matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge);
        let arith = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod);
        let operand_want = if compare { None } else { want };
        let (x, tx, px) =
            if compare || arith { self.operand(a, operand_want) } else { self.with_flag(a, operand_want) };
        let (y, ty, py) = if compare || arith {
            self.operand(b, tx.or(operand_want))
        } else {
            self.with_flag(b, tx.or(operand_want))
        };
        // The left operand's literal takes the right's type.
        let x = match (tx, ty, a) {
            (None, Some(t), Expr::Lit { value, .. }) => Wire::constant(value.coerce(t).unwrap_or(*value)),
            _ => x,
        };
        let t = tx.or(ty).or(operand_want);
        // A REAL operation with a literal (a C double in matiec's code) or a double operand
        // computes in double and is rounded to REAL when stored.
        if (arith || compare) && t == Some(Type::Real) && (px || py || real_literal(a) || real_literal(b)) {
            let x = self.widen_real(x, a, px, pos);
            let y = self.widen_real(y, b, py, pos);
            let r = self.make(pos, op.function(), vec![("in1".into(), x), ("in2".into(), y)], Some(Type::LReal), "out");
            return match () {
                _ if compare => (r, Some(Type::Bool), false),
                _ if ctx == Ctx::Operand => (r, t, true),
                _ => (self.make(pos, "LREAL_TO_REAL", vec![("in".into(), r)], None, "out"), t, false),
            };
        }
        if let Some(n) = t.filter(|&n| narrow(n)) {
            let in_int = px || py || (arith && ctx == Ctx::Operand);
            if (arith || compare) && in_int {
                let x = self.widen(x, tx, px, pos, n);
                let y = self.widen(y, ty, py, pos, n);
                let r =
                    self.make(pos, op.function(), vec![("in1".into(), x), ("in2".into(), y)], Some(Type::DInt), "out");
                return match () {
                    _ if compare => (r, Some(Type::Bool), false),
                    _ if ctx == Ctx::Operand => (r, t, true),
                    _ => (self.truncate(r, n, pos), t, false),
                };
            }
        }
        let out_ty = if compare { Some(Type::Bool) } else { t };
        let w = self.make(pos, op.function(), vec![("in1".into(), x), ("in2".into(), y)], t, "out");
        (w, out_ty, false)
    }

    /// An expression in value context, as an operand's triple (never promoted).
    fn with_flag(&mut self, e: &Expr, want: Option<Type>) -> (Wire, Option<Type>, bool) {
        let (w, t) = self.expr(e, want);
        (w, t, false)
    }

    /// A function call in an expression: a library function or conversion, or a macro.
    fn function(&mut self, call: &Call, want: Option<Type>) -> (Wire, Option<Type>) {
        let up = call.name.to_ascii_uppercase();
        let Some(def) = library::lookup(&up) else {
            let found = self.body.macros.keys().find(|m| m.eq_ignore_ascii_case(&call.name)).cloned();
            match found {
                Some(m) => return self.macro_call(call, &m),
                None => self.error(call.pos, format!("unknown function `{}`", call.name)),
            }
            return (Wire::constant(Value::Bool(false)), None);
        };
        if def.stateful {
            self.error(
                call.pos,
                format!(
                    "{up} is a function block: declare an instance and call it (`inst({up_args})`)",
                    up_args = "..."
                ),
            );
            return (Wire::constant(Value::Bool(false)), None);
        }
        let generic = def.outputs.first().is_some_and(|o| matches!(o.ty, library::PinTy::T));
        let mut inputs: Vec<(String, Wire)> = Vec::new();
        let mut arg_ty: Option<Type> = None;
        let positional = call.args.iter().filter(|a| matches!(a, Arg::In { name: None, .. })).count();
        let mut k = 0;
        for a in &call.args {
            let Arg::In { name, value, pos } = a else {
                self.error(call.pos, format!("{up} is a function: its value is its result, not an `=>` output"));
                continue;
            };
            let pin = match name {
                Some(n) => n.to_ascii_lowercase(),
                None => {
                    let p = match (def.inputs.get(k), def.var_inputs) {
                        (Some(p), _) => p.name.to_string(),
                        (None, Some(v)) => format!("{}{}", v.prefix, v.first + k - def.inputs.len()),
                        (None, None) => {
                            self.error(
                                *pos,
                                format!("{up} takes {} arguments, this is argument {}", def.inputs.len(), k + 1),
                            );
                            k += 1;
                            continue;
                        }
                    };
                    k += 1;
                    p
                }
            };
            let fixed = def.inputs.iter().find(|p| p.name == pin).and_then(|p| pin_type(p.ty));
            let (w, t) = self.expr(value, fixed.or(arg_ty).or(if generic { want } else { None }));
            if let Some(to) = fixed {
                self.check_store(value, t, to, &format!("{up}'s input {}", pin.to_ascii_uppercase()));
            }
            if fixed.is_none() && pin != "g" && pin != "k" {
                arg_ty = arg_ty.or(t);
            }
            inputs.push((pin, w));
        }
        let _ = positional;
        // Every input without a default is given (`LIMIT(x)` is no call of LIMIT).
        let missing: Vec<String> = def
            .inputs
            .iter()
            .filter(|p| p.default.is_none() && !inputs.iter().any(|(q, _)| q.eq_ignore_ascii_case(p.name)))
            .map(|p| p.name.to_ascii_uppercase())
            .collect();
        if !missing.is_empty() {
            let all: Vec<String> = def.inputs.iter().map(|p| p.name.to_ascii_uppercase()).collect();
            self.error(call.pos, format!("{up}({}) is called without {}", all.join(", "), missing.join(", ")));
        }
        let t = arg_ty.or(if generic { want } else { None });
        let out = def.outputs.first().map_or("out", |o| o.name);
        let out_ty = def.outputs.first().and_then(|o| pin_type(o.ty)).or(t);
        let data_type = if def.generic == library::Generic::No { None } else { t };
        (self.make(call.pos, &up, inputs, data_type, out), out_ty)
    }

    /// A call of a FUNCTION of the project (a macro): an instance of it at this place, its
    /// inputs by name or in order, its value its result (the output `OUT`, else its first).
    fn macro_call(&mut self, call: &Call, m: &str) -> (Wire, Option<Type>) {
        let pins = self.body.macros.get(m).cloned().unwrap_or_default();
        let mut inputs: Vec<(String, Wire)> = Vec::new();
        for (k, a) in call.args.iter().enumerate() {
            let Arg::In { name, value, pos } = a else {
                self.error(
                    call.pos,
                    format!("`{m}` is called as a function: its value is its result, not an `=>` output"),
                );
                continue;
            };
            let pin = match name {
                Some(n) => pins.inputs.iter().find(|(p, _)| p.eq_ignore_ascii_case(n)).cloned(),
                None => pins.inputs.get(k).cloned(),
            };
            let Some((pin, t)) = pin else {
                let names: Vec<&str> = pins.inputs.iter().map(|(p, _)| p.as_str()).collect();
                self.error(
                    *pos,
                    format!(
                        "`{m}` has no input {} (inputs: {})",
                        name.clone().unwrap_or_else(|| format!("{}", k + 1)),
                        names.join(", ")
                    ),
                );
                continue;
            };
            let (w, got) = self.expr(value, Some(t));
            self.check_store(value, got, t, &format!("`{m}`'s input {pin}"));
            inputs.push((pin, w));
        }
        let Some((out, t)) = pins.outputs.iter().find(|(o, _)| o == "OUT").or(pins.outputs.first()).cloned() else {
            self.error(call.pos, format!("`{m}` has no output to be the call's value"));
            return (Wire::constant(Value::Bool(false)), None);
        };
        (self.make(call.pos, m, inputs, None, &out), Some(t))
    }

    /// A name read: a variable's value here, an input, an instance's output.
    fn read(&mut self, p: &Path) -> (Wire, Option<Type>) {
        let zero = (Wire::constant(Value::Bool(false)), None);
        if let Some(a) = self.array_of(p) {
            return self.read_element(a, p);
        }
        if p.indexed {
            self.error(p.pos, format!("`{}` is no array", p.parts[0]));
            return zero;
        }
        match (self.names.get(&p.parts[0].to_ascii_uppercase()).cloned(), p.parts.len()) {
            (Some(Name::Var(v)), 1) => (self.env[v].clone(), Some(self.body.variables[v].ty.0)),
            (Some(Name::Input(t)), 1) => {
                let name =
                    self.body.inputs.iter().find(|(n, _)| n.eq_ignore_ascii_case(&p.parts[0])).map(|(n, _)| n.clone());
                (Wire::Ref(name.unwrap_or_default()), Some(t))
            }
            (Some(Name::Instance(b)), 2) if self.member(b, &p.parts[1]).is_some() => {
                let v = self.member(b, &p.parts[1]).unwrap_or_default();
                (self.env[v].clone(), Some(self.body.variables[v].ty.0))
            }
            (Some(Name::Instance(b)), 2) => {
                let ty = self.body.blocks[b].ty.to_string();
                let outs = fb_outputs(&ty, self.body.macros);
                let Some((pin, t)) = outs.iter().find(|(o, _)| o.eq_ignore_ascii_case(&p.parts[1])).cloned() else {
                    self.error(
                        p.pos,
                        format!(
                            "`{}`: {ty} has no output `{}` (outputs: {})",
                            p.text(),
                            p.parts[1],
                            outs.iter().map(|(o, _)| o.to_ascii_uppercase()).collect::<Vec<_>>().join(", ")
                        ),
                    );
                    return zero;
                };
                // A generic counter's count is of its data type, IEC's CTU's INT by default.
                let t = t.or_else(|| Some(self.body.blocks[b].data_type().map_or(Type::Int, |t| t.0)));
                let from = format!("{}.{pin}", self.call_id(b));
                let delayed =
                    library::lookup(&ty).is_some_and(|d| d.outputs.iter().any(|o| o.name == pin && o.delayed));
                let w = if self.called[b] || delayed { Wire::Ref(from) } else { Wire::Feedback { from, init: None } };
                (w, t)
            }
            (Some(Name::Instance(_)), _) => {
                self.error(
                    p.pos,
                    format!(
                        "`{}` is a function block instance: read one of its outputs (`{}.Q`)",
                        p.text(),
                        p.parts[0]
                    ),
                );
                zero
            }
            (Some(_), _) => {
                self.error(p.pos, format!("`{}`: structures are not compiled yet", p.text()));
                zero
            }
            (None, _) => {
                if let Some(value) = self.enum_value(p) {
                    return value;
                }
                let msg = self.unknown(&p.parts[0]);
                self.error(p.pos, msg);
                zero
            }
        }
    }
}

/// Where an expression's value goes: stored or passed (truncated to its type), or into an
/// operator (computed as C computes it).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Ctx {
    Value,
    Operand,
}

/// Whether `e` is an untyped REAL literal (`0.5`, `-2.0`): a C double in matiec's code.
fn real_literal(e: &Expr) -> bool {
    double_literal(e).is_some()
}

/// The value of an untyped REAL literal, negated or not, as C reads it: a double.
fn double_literal(e: &Expr) -> Option<f64> {
    match e {
        Expr::Lit { value: Value::Real(r), ty: None, .. } => Some(*r),
        Expr::Unary(UnOp::Neg, inner, _) => double_literal(inner).map(|r| -r),
        _ => None,
    }
}

/// The integer types C promotes to `int` in an operation.
fn narrow(t: Type) -> bool {
    matches!(t, Type::SInt | Type::Int | Type::USInt | Type::UInt)
}
