//! Loops: WHILE, REPEAT and FOR as a region of blocks the executor runs again and again, and
//! EXIT. A loop is lowered once, as one iteration:
//!
//! - each value the loop changes (a variable it writes, and its EXIT, RETURN and FOR flags)
//!   gets a *loop variable*: a SEL block whose `in0` is the value before the loop and whose
//!   `in1` is a feedback wire from the value at the iteration's end. The emission copies `in0`
//!   into it when the loop starts and `in1` when an iteration ends; nothing runs at its place.
//! - the *head* computes the test (the loop goes on while it is TRUE) into a MOVE named by the
//!   loop's place (`L4C1_while`): the block a watchdog fault names. The *body* follows.
//!
//! After a WHILE or a FOR the variables hold what the test last saw (the loop variables);
//! after a REPEAT, what its last iteration left. Statements after an EXIT run under the
//! condition that it did not run, as after a RETURN; the test then stops the loop.
//!
//! FOR is matiec's: the control variable is set to its first value; the test is
//! `i < end` (no BY), or `i + step <= end` (step > 0) / `i + step >= end` (else), computed as
//! C computes it; each iteration but the first adds the step first. So the first iteration
//! already needs `i + step <= end` (`FOR i := 1 TO 1` runs no iteration with a BY; docs/st.md).

use fbd_model::model::Wire;
use fbd_model::{Type, Value};
use fbd_st::Pos;
use fbd_st::ast::{BinOp, Expr, ForLoop, Path, Stmt};

use super::{Lowerer, Name, exits, returns};
use crate::ladder::gate;

/// A loop the lowering made, by its blocks' indices in the body's blocks once the lowering
/// added its blocks to them.
#[derive(Clone, Debug)]
pub(crate) struct BodyLoop {
    /// The loop variables and the blocks that compute the test.
    pub head: std::ops::Range<usize>,
    /// The blocks of one iteration after the test.
    pub body: std::ops::Range<usize>,
    /// The MOVE whose BOOL output is TRUE while the loop goes on.
    pub test: usize,
    /// The loop variables (SEL blocks: `in0` the value before the loop, `in1` its feedback
    /// from the value at an iteration's end).
    pub phis: Vec<usize>,
}

impl BodyLoop {
    /// The same loop with every block index moved by `by`.
    pub(crate) fn shifted(mut self, by: usize) -> BodyLoop {
        self.head = self.head.start + by..self.head.end + by;
        self.body = self.body.start + by..self.body.end + by;
        self.test += by;
        self.phis.iter_mut().for_each(|p| *p += by);
        self
    }
}

/// Which loop.
#[derive(Copy, Clone)]
pub(super) enum LoopKind<'s> {
    While(&'s Expr),
    Repeat(&'s Expr),
    For(&'s ForLoop),
}

impl LoopKind<'_> {
    fn word(self) -> &'static str {
        match self {
            LoopKind::While(_) => "while",
            LoopKind::Repeat(_) => "repeat",
            LoopKind::For(_) => "for",
        }
    }
}

impl Lowerer<'_, '_> {
    /// The index in `env` of the EXIT flag of the loop at nesting depth `d` (0: outermost).
    pub(super) fn exit_flag(&self, d: usize) -> usize {
        self.returned() + 1 + 2 * d
    }

    /// The index in `env` of the FOR loop's "add the step first" flag at depth `d`.
    fn step_flag(&self, d: usize) -> usize {
        self.returned() + 2 + 2 * d
    }

    /// A loop statement: its head and body lowered once, between its loop variables.
    pub(super) fn lower_loop(&mut self, kind: LoopKind, body: &[Stmt], pos: Pos) {
        let d = self.depth;
        let (ret, exit, step) = (self.returned(), self.exit_flag(d), self.step_flag(d));
        let falsity = Wire::constant(Value::Bool(false));
        let mut carried = Vec::new();
        self.written(body, &mut carried);
        let may_return = body.iter().any(returns);
        let may_exit = body.iter().any(exits);
        let repeat = matches!(kind, LoopKind::Repeat(_));
        // A REPEAT's test comes after its statements: an iteration starts with both flags
        // FALSE, so they need no loop variable.
        if !repeat {
            if may_return {
                carried.push(ret);
            }
            if may_exit {
                carried.push(exit);
            }
        }
        if let LoopKind::For(f) = kind {
            let Some(v) = self.for_variable(f) else { return };
            let (w, t) = self.expr(&f.from, Some(self.var_ty(v)));
            self.check_store(&f.from, t, self.var_ty(v), &format!("`{}`", f.var.text()));
            self.env[v] = w;
            self.env[step] = falsity.clone();
            carried.push(v);
            carried.push(step);
        }
        carried.sort_unstable();
        carried.dedup();
        self.env[exit] = falsity.clone();
        let outer = self.en.clone();
        let mut ends = Vec::new();
        let first = self.made.len();
        let mut phis = Vec::with_capacity(carried.len());
        for &v in &carried {
            let id = self.fresh(&format!("L{}C{}_{}", pos.line, pos.col, self.slot_name(v)));
            let init = self.env[v].clone();
            self.made.push(gate(id.clone(), "SEL", vec![("g", falsity.clone()), ("in0", init)], Some(self.var_ty(v))));
            phis.push((v, self.made.len() - 1));
            self.env[v] = Wire::Ref(format!("{id}.out"));
        }
        self.depth += 1;
        // The head: the test, computed while no EXIT or RETURN stopped the loop.
        let stop = self.stopped(!repeat && may_return, !repeat && may_exit);
        let go_on = stop.map(|s| self.make(pos, "NOT", vec![("in".into(), s)], Some(Type::Bool), "out"));
        let head_en = self.and_opt(pos, outer.clone(), go_on);
        self.en = head_en.clone();
        let test = match kind {
            LoopKind::While(cond) => {
                let c = self.condition(cond);
                self.and(pos, head_en, c)
            }
            LoopKind::For(f) => {
                let c = self.for_test(f);
                self.and(pos, head_en, c)
            }
            LoopKind::Repeat(until) => {
                self.en = outer.clone();
                self.statements(body);
                // Before the test: what the loop leaves when it ends is these values.
                ends = self.iteration_ends(&phis, pos);
                let stop = self.stopped(may_return, may_exit);
                let go_on = stop.map(|s| self.make(pos, "NOT", vec![("in".into(), s)], Some(Type::Bool), "out"));
                let en = self.and_opt(pos, outer.clone(), go_on);
                self.en = en.clone();
                let c = self.condition(until);
                let again = self.make(until.pos(), "NOT", vec![("in".into(), c)], Some(Type::Bool), "out");
                self.and(pos, en, again)
            }
        };
        let test_id = self.fresh(&format!("L{}C{}_{}", pos.line, pos.col, kind.word()));
        self.made.push(gate(test_id, "MOVE", vec![("in", test)], Some(Type::Bool)));
        let test = self.made.len() - 1;
        let body_start = self.made.len();
        self.en = outer.clone();
        if let LoopKind::For(f) = kind {
            self.for_step(f, step);
            self.statements(body);
        } else if !repeat {
            self.statements(body);
        }
        if !repeat {
            ends = self.iteration_ends(&phis, pos);
        }
        let end = self.made.len();
        self.loops.push(BodyLoop {
            head: first..body_start,
            body: body_start..end,
            test,
            phis: phis.iter().map(|&(_, k)| k).collect(),
        });
        if !repeat {
            for &(v, k) in &phis {
                self.env[v] = Wire::Ref(format!("{}.out", self.made[k].id));
            }
        } else {
            for (v, next) in ends {
                self.env[v] = next;
            }
        }
        self.depth -= 1;
        self.en = outer;
        // The flags are this loop's: what follows sees none set.
        self.env[exit] = falsity.clone();
        self.env[step] = falsity;
    }

    /// Each loop variable's value at the iteration's end, from a block's output, wired as its
    /// feedback: (variable, that value). A MOVE is made for a constant or an input, and for
    /// another loop variable of this loop (`m := n` as the iteration's last write of `m`): the
    /// copies back run one after the other, so `m` must not read `n` after `n`'s copy.
    fn iteration_ends(&mut self, phis: &[(usize, usize)], pos: Pos) -> Vec<(usize, Wire)> {
        let mut ends = Vec::with_capacity(phis.len());
        let outs: Vec<String> = phis.iter().map(|&(_, k)| format!("{}.out", self.made[k].id)).collect();
        for (j, &(v, k)) in phis.iter().enumerate() {
            let mut next = self.env[v].clone();
            let another = matches!(&next, Wire::Ref(r) if outs.iter().enumerate().any(|(o, out)| o != j && out == r));
            if another || !matches!(&next, Wire::Ref(r) if r.contains('.')) {
                let id = self.fresh(&format!("L{}C{}_{}_next", pos.line, pos.col, self.slot_name(v)));
                self.made.push(gate(id.clone(), "MOVE", vec![("in", next)], Some(self.var_ty(v))));
                next = Wire::Ref(format!("{id}.out"));
            }
            let Wire::Ref(from) = next.clone() else { continue };
            let mut pins = self.made[k].inputs.0.to_vec();
            pins.push(("in1".into(), Wire::Feedback { from, init: None }));
            self.made[k].inputs.0 = pins.into_boxed_slice();
            ends.push((v, next));
        }
        ends
    }

    /// A WHILE's or an UNTIL's condition: a BOOL.
    fn condition(&mut self, cond: &Expr) -> Wire {
        let (c, t) = self.expr(cond, Some(Type::Bool));
        if t.is_some_and(|t| t != Type::Bool) {
            let name = t.map(Type::name).unwrap_or("?");
            self.error(cond.pos(), format!("a condition is a BOOL, this is a {name}"));
        }
        c
    }

    /// The variable a FOR counts with: an integer variable of the body.
    fn for_variable(&mut self, f: &ForLoop) -> Option<usize> {
        let v = self.target_var(&f.var)?;
        let t = self.var_ty(v);
        if !t.is_int() {
            self.error(
                f.var.pos,
                format!("a FOR counts with an integer variable; `{}` is a {}", f.var.text(), t.name()),
            );
            return None;
        }
        Some(v)
    }

    /// matiec's FOR test: `i < end` without a BY; with one, `i + step <= end` while the step
    /// is positive, else `i + step >= end` (a literal step picks one when compiled).
    fn for_test(&mut self, f: &ForLoop) -> Wire {
        let var = || Box::new(Expr::Name(f.var.clone()));
        let Some(step) = &f.by else {
            let lt = Expr::Binary(BinOp::Lt, var(), Box::new(f.to.clone()), f.pos);
            return self.condition(&lt);
        };
        let sum = || Box::new(Expr::Binary(BinOp::Add, var(), Box::new(step.clone()), step.pos()));
        let up = Expr::Binary(BinOp::Le, sum(), Box::new(f.to.clone()), f.to.pos());
        let down = Expr::Binary(BinOp::Ge, sum(), Box::new(f.to.clone()), f.to.pos());
        match literal_sign(step) {
            Some(true) => self.condition(&up),
            Some(false) => self.condition(&down),
            None => {
                let zero = Expr::Lit { value: Value::Int(0), ty: None, pos: step.pos() };
                let positive = Expr::Binary(BinOp::Gt, Box::new(step.clone()), Box::new(zero), step.pos());
                let g = self.condition(&positive);
                let (a, b) = (self.condition(&up), self.condition(&down));
                self.make(
                    f.pos,
                    "SEL",
                    vec![("g".into(), g), ("in0".into(), b), ("in1".into(), a)],
                    Some(Type::Bool),
                    "out",
                )
            }
        }
    }

    /// A FOR iteration's start: after the first, the step added (`i := i + step`).
    fn for_step(&mut self, f: &ForLoop, step_flag: usize) {
        let Some(Name::Var(v)) = self.names.get(&f.var.parts[0].to_ascii_uppercase()).cloned() else { return };
        let one = Expr::Lit { value: Value::Int(1), ty: None, pos: f.pos };
        let by = f.by.clone().unwrap_or(one);
        let sum = Expr::Binary(BinOp::Add, Box::new(Expr::Name(f.var.clone())), Box::new(by), f.pos);
        let ty = self.var_ty(v);
        let (next, t) = self.expr(&sum, Some(ty));
        self.check_store(&sum, t, ty, &format!("`{}`", f.var.text()));
        let g = self.env[step_flag].clone();
        let now = self.env[v].clone();
        self.env[v] =
            self.make(f.pos, "SEL", vec![("g".into(), g), ("in0".into(), now), ("in1".into(), next)], Some(ty), "out");
        self.env[step_flag] = Wire::constant(Value::Bool(true));
    }

    /// Whether an EXIT or a RETURN has run, from the flags asked for (`None`: neither can).
    pub(super) fn stopped(&mut self, returned: bool, exited: bool) -> Option<Wire> {
        let mut flags = Vec::new();
        if returned {
            flags.push(self.env[self.returned()].clone());
        }
        if exited && self.depth > 0 {
            flags.push(self.env[self.exit_flag(self.depth - 1)].clone());
        }
        flags.retain(|w| !matches!(w, Wire::Const(l) if l.value() == Value::Bool(false)));
        match flags.len() {
            0 => None,
            1 => flags.pop(),
            _ => {
                let inputs = flags.into_iter().enumerate().map(|(k, w)| (format!("in{}", k + 1), w)).collect();
                Some(self.make(Pos::default(), "OR", inputs, Some(Type::Bool), "out"))
            }
        }
    }

    /// `a AND b` where either may be absent (TRUE).
    fn and_opt(&mut self, pos: Pos, a: Option<Wire>, b: Option<Wire>) -> Option<Wire> {
        match (a, b) {
            (a, None) => a,
            (a, Some(b)) => Some(self.and(pos, a, b)),
        }
    }

    /// A name for `env[v]` in a block id: the variable's, or the flag's.
    fn slot_name(&self, v: usize) -> String {
        match self.body.variables.get(v) {
            Some(var) => var.name.clone(),
            None if v == self.returned() => "returned".into(),
            None if (v - self.returned()) % 2 == 1 => "exited".into(),
            None => "stepped".into(),
        }
    }

    /// The `env` indices of the variables statements of `list` write (nested ones too).
    fn written(&self, list: &[Stmt], out: &mut Vec<usize>) {
        for s in list {
            match s {
                Stmt::Assign { target, .. } => out.extend(self.variable_of(target)),
                Stmt::Call(call) => {
                    for a in &call.args {
                        if let fbd_st::ast::Arg::Out { target, .. } = a {
                            out.extend(self.variable_of(target));
                        }
                    }
                }
                Stmt::If { arms, otherwise, .. } => {
                    arms.iter().for_each(|(_, b)| self.written(b, out));
                    self.written(otherwise, out);
                }
                Stmt::Case { arms, otherwise, .. } => {
                    arms.iter().for_each(|a| self.written(&a.body, out));
                    self.written(otherwise, out);
                }
                Stmt::For(f) => {
                    out.extend(self.variable_of(&f.var));
                    self.written(&f.body, out);
                }
                Stmt::While { body, .. } | Stmt::Repeat { body, .. } => self.written(body, out),
                Stmt::Exit(_) | Stmt::Return(_) => {}
            }
        }
    }

    /// The variable a path names when a statement writes it, without a word if none.
    fn variable_of(&self, target: &Path) -> Option<usize> {
        match (self.names.get(&target.parts[0].to_ascii_uppercase())?, target.parts.len()) {
            (Name::Var(v), 1) => Some(*v),
            (Name::Instance(b), 2) => self.member(*b, &target.parts[1]),
            _ => None,
        }
    }
}

/// The sign of a literal step (`2`, `-1`, `INT#3`): `Some(true)` when positive.
fn literal_sign(e: &Expr) -> Option<bool> {
    match e {
        Expr::Lit { value: Value::Int(i), .. } => Some(*i > 0),
        Expr::Unary(fbd_st::ast::UnOp::Neg, inner, _) => match &**inner {
            Expr::Lit { value: Value::Int(i), .. } => Some(-*i > 0),
            _ => None,
        },
        _ => None,
    }
}

/// How deep loops nest in `list` (0: none).
pub(super) fn loop_depth(list: &[Stmt]) -> usize {
    list.iter()
        .map(|s| match s {
            Stmt::If { arms, otherwise, .. } => {
                arms.iter().map(|(_, b)| loop_depth(b)).max().unwrap_or(0).max(loop_depth(otherwise))
            }
            Stmt::Case { arms, otherwise, .. } => {
                arms.iter().map(|a| loop_depth(&a.body)).max().unwrap_or(0).max(loop_depth(otherwise))
            }
            Stmt::For(f) => 1 + loop_depth(&f.body),
            Stmt::While { body, .. } | Stmt::Repeat { body, .. } => 1 + loop_depth(body),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}
