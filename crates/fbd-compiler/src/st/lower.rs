//! An ST body's statements as blocks, in the order they run: each variable's value is a wire
//! that each assignment replaces (`env`); an IF or a CASE lowers each branch from the values
//! before it, under the branch's condition, and merges what the branches wrote with a SEL per
//! variable (the last branch innermost, as an ELSIF chain tests in order).
//!
//! - A variable's value before its first write in the scan is what the previous scan left (a
//!   `temp` one's, a FUNCTION's: its init): a
//!   feedback wire of its last value (through a MOVE `NAME__var`, or straight from the block
//!   that computed it), its init before the first scan; a variable never written is its init.
//! - `inst.Q` read before `inst`'s call is the previous scan's output (IEC keeps a function
//!   block's outputs between calls); after it, this scan's.
//! - A block made in a branch runs with the branch's condition as its EN unless it can neither
//!   fault nor keep state (a gate, a comparison, SEL, MOVE, MIN/MAX/LIMIT).
//! - An expression takes its type from its operands, else from where it goes (an untyped
//!   literal in `x := 1 + 2` computes in `x`'s type).
//!
//! Each block made is named by the place of what it computes (`L3C10_add`: line 3, column
//! 10), so a value in the debugger leads back to the text.

use std::collections::{HashMap, HashSet};

use fbd_model::model::{Connector, LeanBlock, Wire};
use fbd_model::{Type, Value, library};
use fbd_st::Pos;
use fbd_st::ast::{Arg, Call, CaseLabel, Expr, Path, Stmt, UnOp};

use super::{Body, Found, Name, fb_inputs, fb_outputs, pin_type};

mod arrays;
mod calls;
mod enums;
mod expr;
mod loops;
use crate::ladder::gate;
pub(crate) use calls::SharedCall;
pub(crate) use loops::BodyLoop;
use loops::LoopKind;

/// Blocks that neither fault nor keep state: computed in a branch without its EN.
const PURE: &[&str] =
    &["AND", "OR", "XOR", "NOT", "EQ", "NE", "LT", "LE", "GT", "GE", "SEL", "MOVE", "MIN", "MAX", "LIMIT"];

struct Lowerer<'b, 'a> {
    body: &'b mut Body<'a>,
    /// Upper-case name → what it is.
    names: HashMap<String, Name>,
    /// Each variable's value at this point of the text.
    env: Vec<Wire>,
    /// Each variable's value at the start of the scan.
    start: Vec<Wire>,
    /// Which instances have been called (textually before this point).
    called: Vec<bool>,
    /// The condition under which the statements being lowered run (none: always).
    en: Option<Wire>,
    made: Vec<LeanBlock>,
    taken: HashSet<String>,
    found: Found,
    /// Each instance input a statement writes (block, pin) → the variable that keeps it.
    members: HashMap<(usize, String), usize>,
    /// The loops made so far, by the indices of their blocks in `made`.
    loops: Vec<BodyLoop>,
    /// How many loops the statements being lowered are in.
    depth: usize,
    /// The body's arrays, whose elements are among its variables.
    arrays: Vec<arrays::ArrayVar>,
    /// Per instance, the block of its latest call on the path being lowered (its own block
    /// until it is called again), and of its latest call in the text.
    current: Vec<calls::Blk>,
    last_call: Vec<calls::Blk>,
    /// The calls of an instance after its first (`calls.rs`).
    again: calls::Again,
    /// The instances called more than once in the text (upper-case names).
    called_again: HashSet<String>,
}

/// Lowers a body's statements into it: its problems, and the loops among the blocks added.
pub(super) fn lower(body: &mut Body, statements: &[Stmt]) -> (Found, Vec<BodyLoop>, Vec<SharedCall>) {
    let mut found = Found::new();
    let arrays = arrays::expand(body, &mut found);
    // An instance's input written by a statement (`t1.IN := x`) is a member the instance
    // keeps: a variable of the body (`t1__in`) that its calls read when they do not give it.
    let mut members: HashMap<(usize, String), usize> = HashMap::new();
    // So is an input that one call of an instance gives and another does not (calls in two
    // branches): the call that does not give it leaves what the other gave.
    let mut targets = member_targets(statements);
    targets.extend(inputs_given_by_some_calls(statements, body));
    for (inst, pin) in targets {
        let Some(b) = body.blocks.iter().position(|x| x.id.eq_ignore_ascii_case(&inst)) else { continue };
        let ty = body.blocks[b].ty.to_string();
        let Some((pin, t)) = fb_inputs(&ty, body.macros).into_iter().find(|(p, _)| p.eq_ignore_ascii_case(&pin)) else {
            continue;
        };
        if members.contains_key(&(b, pin.clone())) {
            continue;
        }
        let t = t.unwrap_or_else(|| body.blocks[b].data_type().map_or(Type::Int, |d| d.0));
        members.insert((b, pin.clone()), body.variables.len());
        body.variables.push(fbd_model::model::Variable::new(format!("{}__{pin}", body.blocks[b].id), t));
    }
    let mut names = HashMap::new();
    for (k, v) in body.variables.iter().enumerate() {
        names.insert(v.name.to_ascii_uppercase(), Name::Var(k));
    }
    for (k, a) in arrays.iter().enumerate() {
        names.insert(a.name.to_ascii_uppercase(), Name::Array(k));
    }
    for (n, t) in &body.inputs {
        names.entry(n.to_ascii_uppercase()).or_insert(Name::Input(*t));
    }
    for (k, b) in body.blocks.iter().enumerate() {
        if !b.inputs.is_empty() {
            found.push((
                Pos { line: 1, col: 1 },
                format!("block `{}` has inputs wired: an ST body's blocks are its function block instances, whose inputs its calls give", b.id),
            ));
        }
        names.insert(b.id.to_ascii_uppercase(), Name::Instance(k));
    }
    let mut start: Vec<Wire> = body
        .variables
        .iter()
        .map(|v| {
            if v.input {
                Wire::Ref(v.name.clone())
            } else if v.temp {
                Wire::constant(v.init.map_or_else(|| v.ty.0.zero(), |c| c.0))
            } else {
                Wire::Feedback { from: format!("{}.out", hold_id(&v.name)), init: v.init.map(|c| Box::new(c.0)) }
            }
        })
        .collect();
    // The RETURN flag, then each loop depth's EXIT flag: none set at the start of the scan.
    let flags = 1 + loops::loop_depth(statements);
    start.extend((0..flags).map(|_| Wire::constant(Value::Bool(false))));
    let mut taken: HashSet<String> = body.blocks.iter().map(|b| b.id.to_string()).collect();
    taken.extend(body.variables.iter().map(|v| v.name.clone()));
    taken.extend(body.inputs.iter().map(|(n, _)| n.clone()));
    let ninst = body.blocks.len();
    let mut l = Lowerer {
        body,
        names,
        env: start.clone(),
        start,
        called: vec![false; ninst],
        en: None,
        made: Vec::new(),
        taken,
        found,
        members,
        loops: Vec::new(),
        depth: 0,
        arrays,
        current: (0..ninst).map(calls::Blk::Body).collect(),
        called_again: called_again(statements),
        last_call: (0..ninst).map(calls::Blk::Body).collect(),
        again: Vec::new(),
    };
    l.statements(statements);
    let mut loops = Vec::new();
    let mut shared = Vec::new();
    if l.found.is_empty() {
        let first = l.body.blocks.len();
        l.finish();
        shared = l.shared_calls(first);
        loops = l.loops.into_iter().map(|b| b.shifted(first)).collect();
    }
    (l.found, loops, shared)
}

impl Lowerer<'_, '_> {
    fn error(&mut self, pos: Pos, msg: impl Into<String>) {
        self.found.push((pos, msg.into()));
    }

    /// A fresh block id from `base`.
    fn fresh(&mut self, base: &str) -> String {
        // An array element's name in an id (`L3C1_buf[2]`): `L3C1_buf_2_`.
        let base: String = base.chars().map(|c| if matches!(c, '[' | ']' | ',') { '_' } else { c }).collect();
        let base = base.as_str();
        if self.taken.insert(base.to_string()) {
            return base.to_string();
        }
        (2..).map(|k| format!("{base}_{k}")).find(|id| self.taken.insert(id.clone())).unwrap_or_default()
    }

    /// Adds a block of type `ty` made for what is at `pos`; its output `out`'s wire. In a
    /// branch it runs under the branch's condition unless it is [`PURE`].
    fn make(
        &mut self,
        pos: Pos,
        ty: &str,
        mut inputs: Vec<(String, Wire)>,
        data_type: Option<Type>,
        out: &str,
    ) -> Wire {
        let id = self.fresh(&format!("L{}C{}_{}", pos.line, pos.col, ty.to_ascii_lowercase()));
        if let Some(en) = self.en.clone()
            && !PURE.contains(&ty)
        {
            inputs.push((library::ENABLE.to_string(), en));
        }
        let pins: Vec<(&str, Wire)> = inputs.iter().map(|(p, w)| (p.as_str(), w.clone())).collect();
        self.made.push(gate(id.clone(), ty, pins, data_type));
        Wire::Ref(format!("{id}.{out}"))
    }

    /// The statements of a list; those after a RETURN or an EXIT that may have run, under
    /// the condition that none did (after one that did, none).
    fn statements(&mut self, list: &[Stmt]) {
        for (k, s) in list.iter().enumerate() {
            self.statement(s);
            let rest = &list[k + 1..];
            let (returned, exited) = (returns(s), self.depth > 0 && exits(s));
            if rest.is_empty() || !(returned || exited) {
                continue;
            }
            match self.stopped(returned, exited) {
                None => continue,
                Some(Wire::Const(l)) if l.value() == Value::Bool(true) => return,
                Some(on) => {
                    let pos = rest[0].pos();
                    let go_on = self.make(pos, "NOT", vec![("in".into(), on)], Some(Type::Bool), "out");
                    let here = Expr::Lit { value: Value::Bool(true), ty: None, pos };
                    self.branches(&[(&here, rest)], &[], Some(vec![go_on]));
                    return;
                }
            }
        }
    }

    /// The index in `env` of the flag a RETURN sets (after the variables).
    fn returned(&self) -> usize {
        self.body.variables.len()
    }

    /// The type of `env[v]`: a variable's, or the RETURN flag's BOOL.
    fn var_ty(&self, v: usize) -> Type {
        self.body.variables.get(v).map_or(Type::Bool, |var| var.ty.0)
    }

    fn statement(&mut self, s: &Stmt) {
        match s {
            Stmt::Assign { target, value, pos } => self.assign(target, value, *pos),
            Stmt::Call(call) => self.call_statement(call),
            Stmt::If { arms, otherwise, .. } => {
                let arms: Vec<(&Expr, &[Stmt])> = arms.iter().map(|(c, b)| (c, b.as_slice())).collect();
                self.branches(&arms, otherwise, None);
            }
            Stmt::Case { selector, arms, otherwise, pos } => self.case(selector, arms, otherwise, *pos),
            Stmt::For(f) => self.for_loop(f),
            Stmt::While { cond, body, pos } => self.lower_loop(LoopKind::While(cond), body, *pos),
            Stmt::Repeat { body, until, pos } => self.lower_loop(LoopKind::Repeat(until), body, *pos),
            Stmt::Exit(pos) if self.depth == 0 => {
                self.error(*pos, "EXIT is outside a loop: it ends a FOR, WHILE or REPEAT")
            }
            Stmt::Exit(_) => {
                let exit = self.exit_flag(self.depth - 1);
                self.env[exit] = Wire::constant(Value::Bool(true));
            }
            Stmt::Return(_) => {
                let ret = self.returned();
                self.env[ret] = Wire::constant(Value::Bool(true));
            }
        }
    }

    /// `target := value`.
    fn assign(&mut self, target: &Path, value: &Expr, pos: Pos) {
        if let Some(a) = self.array_of(target) {
            return self.assign_array(a, target, value);
        }
        // The value is read even when the target is wrong: its errors are reported too.
        let v = self.target_var(target);
        let ty = v.map(|v| self.body.variables[v].ty.0);
        let (w, t) = self.expr(value, ty);
        let _ = pos;
        if let (Some(v), Some(to)) = (v, ty) {
            let what = format!("`{}`", target.text());
            match self.body.variables[v].data_type.clone() {
                Some(e) => {
                    self.check_enum_store(value, Some(&e), &what);
                }
                None if self.check_enum_store(value, None, &what) => {}
                None => self.check_store(value, t, to, &what),
            }
            self.env[v] = w;
        }
    }

    /// The variable a statement writes, or an error at its place.
    fn target_var(&mut self, target: &Path) -> Option<usize> {
        if self.array_of(target).is_some() {
            self.error(
                target.pos,
                format!("`{}`: an array's element is written by an assignment (`{0} := ..`) here", target.parts[0]),
            );
            return None;
        }
        if target.indexed {
            self.error(target.pos, format!("`{}` is no array", target.parts[0]));
            return None;
        }
        match (self.names.get(&target.parts[0].to_ascii_uppercase()).cloned(), target.parts.len()) {
            (Some(Name::Var(v)), 1) => Some(v),
            (Some(Name::Input(_)), _) => {
                self.error(target.pos, format!("`{}` is an input of the body: it cannot be written here (declare a variable that takes it, `input: true`)", target.text()));
                None
            }
            (Some(Name::Instance(b)), 2) if self.member(b, &target.parts[1]).is_some() => {
                self.member(b, &target.parts[1])
            }
            (Some(Name::Instance(_)), _) => {
                self.error(
                    target.pos,
                    format!(
                        "`{}`: only an instance's inputs are written (`{}.IN := ..`), or given in its call",
                        target.text(),
                        target.parts[0]
                    ),
                );
                None
            }
            (Some(Name::Var(_) | Name::Array(_)), _) => {
                self.error(target.pos, format!("`{}`: structures are not compiled yet", target.text()));
                None
            }
            (None, _) => {
                let msg = self.unknown(&target.parts[0]);
                self.error(target.pos, msg);
                None
            }
        }
    }

    /// The variable that keeps input `pin` of instance `b`, if a statement writes it.
    pub(super) fn member(&self, b: usize, pin: &str) -> Option<usize> {
        self.members.iter().find(|((x, p), _)| *x == b && p.eq_ignore_ascii_case(pin)).map(|(_, v)| *v)
    }

    /// A value of type `from` (`None`: of untyped literals) stored into, or passed as, a `to`
    /// (`what` says where): an error at the value's place unless IEC widens it there (INT into
    /// DINT, REAL into LREAL) or it is a literal `to` holds.
    fn check_store(&mut self, value: &Expr, from: Option<Type>, to: Type, what: &str) {
        let literal = match value {
            Expr::Lit { value, ty: None, .. } => Some(*value),
            Expr::Unary(UnOp::Neg, inner, _) => match &**inner {
                Expr::Lit { value: Value::Int(i), ty: None, .. } => Some(Value::Int(-i)),
                Expr::Lit { value: Value::Real(r), ty: None, .. } => Some(Value::Real(-r)),
                _ => None,
            },
            _ => None,
        };
        let msg = match (from, literal) {
            (_, Some(v)) => match v.coerce(to).map(|c| to.admit(c)) {
                Some(Ok(_)) => return,
                Some(Err(why)) => format!("{what} is a {}: {why}", to.name()),
                None => format!("{what} is a {}: `{v}` is no {} literal", to.name(), to.name()),
            },
            (Some(t), None) if !t.widens_to(to) => {
                let hint = if library::lookup(&format!("{}_TO_{}", t.name(), to.name())).is_some() {
                    format!(" (convert it: `{}_TO_{}(..)`)", t.name(), to.name())
                } else {
                    String::new()
                };
                format!("{what} is a {}; this value is a {}{hint}", to.name(), t.name())
            }
            _ => return,
        };
        self.error(value.pos(), msg);
    }

    /// "unknown name `x`", with the closest name of the body when one is close.
    fn unknown(&self, name: &str) -> String {
        let up = name.to_ascii_uppercase();
        let best = self
            .body
            .variables
            .iter()
            .map(|v| v.name.clone())
            .chain(self.body.inputs.iter().map(|(n, _)| n.clone()))
            .chain(self.body.blocks.iter().map(|b| b.id.to_string()))
            .map(|n| (edit_distance(&up, &n.to_ascii_uppercase()), n))
            .filter(|(d, n)| *d <= 2.max(n.len() / 3))
            .min();
        match best {
            Some((_, n)) => format!("unknown name `{name}` (did you mean `{n}`?)"),
            None => format!("unknown name `{name}`: not a variable, an input or an instance of the body"),
        }
    }

    /// An IF's (or a CASE's) branches: each condition with its statements, then the ELSE.
    /// `conds` already lowered are given in `ready` (a CASE's label tests).
    fn branches(&mut self, arms: &[(&Expr, &[Stmt])], otherwise: &[Stmt], ready: Option<Vec<Wire>>) {
        let before = self.env.clone();
        let outer = self.en.clone();
        let called_before = self.called.clone();
        let current_before = self.current.clone();
        let mut currents = Vec::new();
        let mut remaining = outer.clone();
        let mut taken: Vec<(Wire, Vec<Wire>)> = Vec::new();
        let mut called_any = called_before.clone();
        for (k, (cond, stmts)) in arms.iter().enumerate() {
            self.current = current_before.clone();
            // A condition is computed only when the ones before it were FALSE: their branches
            // did not run, nor the calls in them (an instance's output it reads is the
            // previous scan's).
            self.en = remaining.clone();
            self.called = called_before.clone();
            let c = match &ready {
                Some(conds) => conds[k].clone(),
                None => {
                    let c = self.condition(cond);
                    self.pinned(c, cond.pos())
                }
            };
            let here = self.and(cond.pos(), remaining.clone(), c.clone());
            self.en = Some(here);
            self.statements(stmts);
            for (a, b) in called_any.iter_mut().zip(&self.called) {
                *a |= *b;
            }
            currents.push(std::mem::replace(&mut self.current, current_before.clone()));
            taken.push((c.clone(), std::mem::replace(&mut self.env, before.clone())));
            let not_c = self.make(cond.pos(), "NOT", vec![("in".into(), c)], Some(Type::Bool), "out");
            remaining = Some(self.and(cond.pos(), remaining, not_c));
        }
        self.en = remaining;
        self.env = before;
        self.called = called_before;
        self.current = current_before;
        self.statements(otherwise);
        for (a, b) in called_any.iter_mut().zip(&self.called) {
            *a |= *b;
        }
        self.called = called_any;
        // After the IF, a read of an instance comes after each of its calls in the branches.
        self.latest_calls(&currents);
        self.en = outer;
        let pos = arms.first().map(|(c, _)| c.pos()).unwrap_or_default();
        for (c, env) in taken.into_iter().rev() {
            for (v, written) in env.into_iter().enumerate() {
                if written != self.env[v] {
                    let ty = self.var_ty(v);
                    let inputs =
                        vec![("g".into(), c.clone()), ("in0".into(), self.env[v].clone()), ("in1".into(), written)];
                    self.env[v] = self.make(pos, "SEL", inputs, Some(ty), "out");
                }
            }
        }
    }

    /// `a AND b` where `a` may be absent (TRUE).
    fn and(&mut self, pos: Pos, a: Option<Wire>, b: Wire) -> Wire {
        match a {
            None => b,
            Some(a) => self.make(pos, "AND", vec![("in1".into(), a), ("in2".into(), b)], Some(Type::Bool), "out"),
        }
    }

    fn case(&mut self, selector: &Expr, arms: &[fbd_st::ast::CaseArm], otherwise: &[Stmt], pos: Pos) {
        let (s, st) = self.expr(selector, None);
        let mut conds = Vec::new();
        for arm in arms {
            let mut tests = Vec::new();
            for label in &arm.labels {
                let t = match label {
                    CaseLabel::Value(e) => {
                        self.check_enum_binary(fbd_st::ast::BinOp::Eq, selector, e, e.pos());
                        let (v, _) = self.expr(e, st);
                        self.make(e.pos(), "EQ", vec![("in1".into(), s.clone()), ("in2".into(), v)], st, "out")
                    }
                    CaseLabel::Range(lo, hi) => {
                        self.check_enum_binary(fbd_st::ast::BinOp::Ge, selector, lo, lo.pos());
                        let (a, _) = self.expr(lo, st);
                        let (b, _) = self.expr(hi, st);
                        let ge =
                            self.make(lo.pos(), "GE", vec![("in1".into(), s.clone()), ("in2".into(), a)], st, "out");
                        let le =
                            self.make(hi.pos(), "LE", vec![("in1".into(), s.clone()), ("in2".into(), b)], st, "out");
                        self.make(
                            lo.pos(),
                            "AND",
                            vec![("in1".into(), ge), ("in2".into(), le)],
                            Some(Type::Bool),
                            "out",
                        )
                    }
                };
                tests.push(t);
            }
            let c = if tests.len() == 1 {
                tests.pop().unwrap_or_else(|| Wire::constant(Value::Bool(false)))
            } else {
                let inputs = tests.into_iter().enumerate().map(|(k, t)| (format!("in{}", k + 1), t)).collect();
                self.make(pos, "OR", inputs, Some(Type::Bool), "out")
            };
            conds.push(c);
        }
        let arm_refs: Vec<(&Expr, &[Stmt])> = arms.iter().map(|a| (selector, a.body.as_slice())).collect();
        self.branches(&arm_refs, otherwise, Some(conds));
    }

    /// `inst(args);`: the instance's inputs wired, its `=>` outputs stored.
    fn call_statement(&mut self, call: &Call) {
        let b = match self.names.get(&call.name.to_ascii_uppercase()).cloned() {
            Some(Name::Instance(b)) => b,
            Some(_) => {
                return self
                    .error(call.pos, format!("`{}` is not a function block instance: it cannot be called", call.name));
            }
            None if library::lookup(&call.name.to_ascii_uppercase()).is_some() => {
                // A function called for nothing: its value is dropped.
                let _ = self.expr(&Expr::Call(call.clone()), None);
                return;
            }
            None => {
                let msg = self.unknown(&call.name);
                return self.error(call.pos, msg);
            }
        };
        if self.depth > 0 {
            return self.error(
                call.pos,
                format!("`{}` is called inside a loop: an instance is called once per scan so far (call it before or after the loop)", call.name),
            );
        }
        let ty = self.body.blocks[b].ty.to_string();
        // Called before on this path, or (a library block) in another branch of this IF or
        // CASE: a call of its own, sharing the instance's state (`calls.rs`).
        let again = self.called[b] || library::lookup(&ty).is_some() && !self.body.blocks[b].inputs.is_empty();
        let pins = fb_inputs(&ty, self.body.macros);
        let mut inputs: Vec<(String, Wire)> = Vec::new();
        let mut outs = Vec::new();
        for (k, a) in call.args.iter().enumerate() {
            match a {
                Arg::In { name, value, pos } => {
                    let pin = match name {
                        Some(n) => pins.iter().find(|(p, _)| p.eq_ignore_ascii_case(n)).cloned(),
                        None => pins.get(k).cloned(),
                    };
                    let Some((pin, pty)) = pin else {
                        let what = name.clone().map_or(format!("argument {}", k + 1), |n| format!("`{n}`"));
                        self.error(
                            *pos,
                            format!(
                                "{what} is no input of {ty} (inputs: {})",
                                pins.iter().map(|(p, _)| p.to_ascii_uppercase()).collect::<Vec<_>>().join(", ")
                            ),
                        );
                        continue;
                    };
                    let (w, t) = self.expr(value, pty);
                    let what = format!("{ty}'s input {}", pin.to_ascii_uppercase());
                    let wrong = self.check_enum_store(value, None, &what);
                    if let Some(to) = pty.filter(|_| !wrong) {
                        self.check_store(value, t, to, &what);
                    }
                    inputs.push((pin, w));
                }
                Arg::Out { name, negated, target, pos } => outs.push((name.clone(), *negated, target.clone(), *pos)),
            }
        }
        // The members written by statements: a call that gives one sets it, one that does not
        // reads what it holds.
        let kept: Vec<(String, usize)> =
            self.members.iter().filter(|((x, _), _)| *x == b).map(|((_, p), v)| (p.clone(), *v)).collect();
        for (pin, v) in kept {
            match inputs.iter().find(|(p, _)| p.eq_ignore_ascii_case(&pin)) {
                Some((_, w)) => self.env[v] = w.clone(),
                None => inputs.push((pin, self.env[v].clone())),
            }
        }
        if let Some(en) = self.en.clone() {
            inputs.push((library::ENABLE.to_string(), en));
        }
        if again {
            if !self.call_again(b, inputs, call.pos) {
                return;
            }
        } else {
            // A function block of the project called in another branch of this IF or CASE
            // already (branches exclude each other: one call runs a scan): one block, each
            // input the one of the branch that runs.
            if !self.body.blocks[b].inputs.is_empty() {
                inputs = self.merge_calls(b, inputs, call.pos);
            }
            self.body.blocks[b].inputs.0 = inputs.into_iter().map(|(p, w)| (p.into_boxed_str(), w)).collect();
        }
        self.called[b] = true;
        let outputs = fb_outputs(&ty, self.body.macros);
        for (name, negated, target, pos) in outs {
            let Some((pin, _)) = outputs.iter().find(|(p, _)| p.eq_ignore_ascii_case(&name)).cloned() else {
                self.error(pos, format!("`{name}` is no output of {ty}"));
                continue;
            };
            let Some(v) = self.target_var(&target) else { continue };
            let mut w = Wire::Ref(format!("{}.{pin}", self.call_id(b)));
            if negated {
                w = self.make(pos, "NOT", vec![("in".into(), w)], Some(Type::Bool), "out");
            }
            self.env[v] = w;
        }
    }

    /// The inputs of instance `b` called again in a branch that excludes the branch of its
    /// call so far: each pin the SEL of this call's EN between what the calls so far gave and
    /// what this one gives, the EN the OR of both.
    fn merge_calls(&mut self, b: usize, now: Vec<(String, Wire)>, pos: Pos) -> Vec<(String, Wire)> {
        let before: Vec<(String, Wire)> =
            self.body.blocks[b].inputs.0.iter().map(|(p, w)| (p.to_string(), w.clone())).collect();
        let find = |list: &[(String, Wire)], pin: &str| {
            list.iter().find(|(p, _)| p.eq_ignore_ascii_case(pin)).map(|(_, w)| w.clone())
        };
        let en_now = find(&now, library::ENABLE).unwrap_or_else(|| Wire::constant(Value::Bool(true)));
        let en_before = find(&before, library::ENABLE).unwrap_or_else(|| Wire::constant(Value::Bool(true)));
        let ty = self.body.blocks[b].ty.to_string();
        let pins = fb_inputs(&ty, self.body.macros);
        let data = self.body.blocks[b].data_type().map_or(Type::Int, |d| d.0);
        let mut merged = Vec::new();
        for (pin, w) in now.into_iter().filter(|(p, _)| p != library::ENABLE) {
            let w = match find(&before, &pin) {
                Some(old) if old != w => {
                    let t =
                        pins.iter().find(|(p, _)| p.eq_ignore_ascii_case(&pin)).and_then(|(_, t)| *t).unwrap_or(data);
                    let inputs = vec![("g".into(), en_now.clone()), ("in0".into(), old), ("in1".into(), w)];
                    self.make(pos, "SEL", inputs, Some(t), "out")
                }
                _ => w,
            };
            merged.push((pin, w));
        }
        // A pin the calls so far gave and this one does not (it has no member: it is given by
        // every call but this one's position list was shorter) keeps theirs.
        for (pin, w) in before.into_iter().filter(|(p, _)| p != library::ENABLE) {
            if !merged.iter().any(|(p, _)| p.eq_ignore_ascii_case(&pin)) {
                merged.push((pin, w));
            }
        }
        let en = self.make(pos, "OR", vec![("in1".into(), en_before), ("in2".into(), en_now)], Some(Type::Bool), "out");
        merged.push((library::ENABLE.to_string(), en));
        merged
    }

    /// `w` as a wire a port or a connector may carry: a reference or a constant (a feedback
    /// wire through a MOVE of its own).
    fn as_signal(&mut self, w: Wire, name: &str, ty: Type) -> Wire {
        match w {
            Wire::Feedback { .. } => {
                let id = self.fresh(&format!("{name}__end"));
                self.made.push(gate(id.clone(), "MOVE", vec![("in", w)], Some(ty)));
                Wire::Ref(format!("{id}.out"))
            }
            w => w,
        }
    }

    /// The ports read at the end of the scan, each variable's connector, the blocks that hold
    /// the variables for the next scan, and the made blocks added to the body.
    fn finish(&mut self) {
        self.uncalled_and_unset_inputs();
        // A variable never written keeps its init: its start is a constant.
        let mut replace: HashMap<String, Wire> = HashMap::new();
        let mut retarget: HashMap<String, String> = HashMap::new();
        let mut holds = Vec::new();
        for v in 0..self.body.variables.len() {
            let var = self.body.variables[v].clone();
            if var.input {
                continue;
            }
            let from = format!("{}.out", hold_id(&var.name));
            if var.temp {
                continue;
            }
            if self.env[v] == self.start[v] {
                replace.insert(from, Wire::constant(var.init.map_or_else(|| var.ty.0.zero(), |c| c.0)));
            } else {
                match &self.env[v] {
                    Wire::Ref(r) if r.contains('.') => {
                        retarget.insert(from, r.clone());
                    }
                    w => holds.push((hold_id(&var.name), w.clone(), var.ty.0)),
                }
            }
        }
        for (id, w, ty) in holds {
            self.taken.insert(id.clone());
            self.made.push(gate(id, "MOVE", vec![("in", w)], Some(ty)));
        }
        let fix = |w: &mut Wire| {
            if let Wire::Feedback { from, .. } = w {
                if let Some(c) = replace.get(from) {
                    *w = c.clone();
                } else if let Some(r) = retarget.get(from) {
                    *from = r.clone();
                }
            }
        };
        self.env.iter_mut().for_each(fix);
        for b in self.made.iter_mut().chain(self.body.blocks.iter_mut()) {
            b.inputs.0.iter_mut().for_each(|(_, w)| fix(w));
        }
        for k in 0..self.body.outputs.len() {
            let Wire::Ref(r) = &self.body.outputs[k].from else { continue };
            if let Some(Name::Var(v)) = self.names.get(&r.to_ascii_uppercase()).cloned() {
                let (name, ty) = (self.body.outputs[k].name.clone(), self.body.outputs[k].ty.0);
                self.body.outputs[k].from = self.as_signal(self.env[v].clone(), &name, ty);
            }
        }
        let mut connectors = Vec::new();
        for v in 0..self.body.variables.len() {
            let var = self.body.variables[v].clone();
            if var.input {
                continue;
            }
            let from = self.as_signal(self.env[v].clone(), &var.name, var.ty.0);
            connectors.push(Connector { name: var.name.clone(), from });
        }
        self.body.blocks.append(&mut self.made);
        self.body.connectors.extend(connectors);
    }
}

impl Lowerer<'_, '_> {
    /// An instance no statement calls never runs (its EN FALSE: its outputs keep their
    /// initial values); an input a call does not give reads its type's initial value, as an
    /// IEC function block's input never written does.
    fn uncalled_and_unset_inputs(&mut self) {
        for b in 0..self.body.blocks.len() {
            if !self.called[b] {
                self.body.blocks[b].inputs.0 =
                    vec![(library::ENABLE.into(), Wire::constant(Value::Bool(false)))].into_boxed_slice();
            }
            unset_inputs(&mut self.body.blocks[b], self.body.macros);
        }
        // The calls again (in `made`): the same.
        for k in 0..self.again.len() {
            if let calls::Blk::Made(m) = self.again[k].0 {
                unset_inputs(&mut self.made[m], self.body.macros);
            }
        }
    }
}

/// The inputs of instance `block` its call does not give, at their type's initial value.
fn unset_inputs(block: &mut LeanBlock, macros: &HashMap<String, super::Pins>) {
    let ty = block.ty.to_string();
    let given: Vec<String> = block.inputs.iter().map(|(p, _)| p.to_ascii_lowercase()).collect();
    let mut add = Vec::new();
    if let Some(d) = library::lookup(&ty) {
        // A generic counter is IEC's CTU: of INT.
        if d.generic != library::Generic::No && block.data_type().is_none() {
            block.set_data_type(Some(fbd_model::model::TypeName(Type::Int)));
        }
        let t_of = block.data_type().map_or(Type::Int, |t| t.0);
        for p in d.inputs.iter().filter(|p| p.default.is_none() && !given.contains(&p.name.to_ascii_lowercase())) {
            let t = pin_type(p.ty).unwrap_or(t_of);
            add.push((p.name.to_string(), Wire::constant(t.zero())));
        }
    } else {
        for (p, t) in fb_inputs(&ty, macros) {
            if let (false, Some(t)) = (given.contains(&p.to_ascii_lowercase()), t) {
                add.push((p, Wire::constant(t.zero())));
            }
        }
    }
    if !add.is_empty() {
        let mut pins: Vec<(Box<str>, Wire)> = block.inputs.0.to_vec();
        pins.extend(add.into_iter().map(|(p, w)| (p.into_boxed_str(), w)));
        block.inputs.0 = pins.into_boxed_slice();
    }
}

/// The instance members statements write (`t1.IN := ..`): instance and pin, as written.
fn member_targets(list: &[Stmt]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for s in list {
        if let Stmt::Assign { target, .. } = s
            && target.parts.len() == 2
            && !target.indexed
        {
            out.push((target.parts[0].clone(), target.parts[1].clone()));
        }
        s.bodies().into_iter().for_each(|b| out.extend(member_targets(b)));
    }
    out
}

/// The inputs of an instance called in more than one place that some of its calls give and
/// others do not: (instance, pin), as written.
fn inputs_given_by_some_calls(list: &[Stmt], body: &Body) -> Vec<(String, String)> {
    let mut calls: Vec<&Call> = Vec::new();
    calls_in(list, &mut calls);
    let mut by_instance: HashMap<String, Vec<&Call>> = HashMap::new();
    for c in calls {
        by_instance.entry(c.name.to_ascii_uppercase()).or_default().push(c);
    }
    let mut out = Vec::new();
    for (inst, calls) in by_instance.into_iter().filter(|(_, c)| c.len() > 1) {
        let Some(b) = body.blocks.iter().find(|x| x.id.eq_ignore_ascii_case(&inst)) else { continue };
        let pins = fb_inputs(&b.ty, body.macros);
        let given: Vec<Vec<String>> = calls
            .iter()
            .map(|c| {
                c.args
                    .iter()
                    .enumerate()
                    .filter_map(|(k, a)| match a {
                        Arg::In { name: Some(n), .. } => Some(n.to_ascii_uppercase()),
                        Arg::In { name: None, .. } => pins.get(k).map(|(p, _)| p.to_ascii_uppercase()),
                        Arg::Out { .. } => None,
                    })
                    .collect()
            })
            .collect();
        let mut some: Vec<&String> = given.iter().flatten().collect();
        some.sort();
        some.dedup();
        for pin in some.into_iter().filter(|p| !given.iter().all(|g| g.contains(p))) {
            out.push((b.id.to_string(), pin.clone()));
        }
    }
    out.sort();
    out
}

/// Every call statement in `list`, nested ones too, in order.
fn calls_in<'s>(list: &'s [Stmt], out: &mut Vec<&'s Call>) {
    for s in list {
        if let Stmt::Call(c) = s {
            out.push(c);
        }
        s.bodies().into_iter().for_each(|b| calls_in(b, out));
    }
}

/// The instances (upper-case names) the text calls in more than one place.
fn called_again(list: &[Stmt]) -> HashSet<String> {
    let mut calls = Vec::new();
    calls_in(list, &mut calls);
    let mut seen = HashSet::new();
    calls.into_iter().map(|c| c.name.to_ascii_uppercase()).filter(|n| !seen.insert(n.clone())).collect()
}

/// Whether statement `s` may run a RETURN.
fn returns(s: &Stmt) -> bool {
    matches!(s, Stmt::Return(_)) || s.bodies().into_iter().flatten().any(returns)
}

/// Whether statement `s` may run an EXIT of the loop it is in (not of a loop inside it).
fn exits(s: &Stmt) -> bool {
    matches!(s, Stmt::Exit(_)) || (!s.is_loop() && s.bodies().into_iter().flatten().any(exits))
}

/// The block that holds variable `name` for the next scan.
fn hold_id(name: &str) -> String {
    // An array element's (`buf[2]`): `buf_2___var`.
    let name: String = name.chars().map(|c| if matches!(c, '[' | ']' | ',') { '_' } else { c }).collect();
    format!("{name}__var")
}

/// Levenshtein distance, for did-you-mean.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(row[j + 1] + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
