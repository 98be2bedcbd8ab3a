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
//! C computes it; each iteration but the first adds the step first. So `FOR i := 1 TO 1` runs
//! no iteration (docs/st.md). Lowered as the test on the first value and, if it held, a REPEAT
//! of the statements, the test and the step: no per-iteration "first time" flag.

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
    /// A block before the loop whose BOOL output must be TRUE for the loop to run at all (a
    /// FOR's first test): else the whole loop is skipped.
    pub guard: Option<usize>,
}

impl BodyLoop {
    /// The same loop with every block index moved by `by`.
    pub(crate) fn shifted(mut self, by: usize) -> BodyLoop {
        self.head = self.head.start + by..self.head.end + by;
        self.body = self.body.start + by..self.body.end + by;
        self.test += by;
        self.phis.iter_mut().for_each(|p| *p += by);
        self.guard = self.guard.map(|g| g + by);
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
        self.returned() + 1 + d
    }

    /// A FOR: matiec's first test on the first value, then, only if it held, the loop (shaped
    /// as a REPEAT: the statements, the test, the step; skipped as a whole otherwise), the
    /// values merged as an IF merges them.
    pub(super) fn for_loop(&mut self, f: &ForLoop) {
        let Some(v) = self.for_variable(f) else { return };
        let ty = self.var_ty(v);
        let (w, t) = self.expr(&f.from, Some(ty));
        self.check_store(&f.from, t, ty, &format!("`{}`", f.var.text()));
        self.env[v] = w;
        let first = self.for_test(f);
        // The loop is skipped as a whole when the first test fails: its blocks need no EN of
        // it (an EN would cost a skip per block and iteration).
        let id = self.fresh(&format!("L{}C{}_for_first", f.pos.line, f.pos.col));
        self.made.push(gate(id.clone(), "MOVE", vec![("in", first.clone())], Some(Type::Bool)));
        let guard = self.made.len() - 1;
        let first = Wire::Ref(format!("{id}.out"));
        let before = self.env.clone();
        self.lower_loop(LoopKind::For(f), &f.body, f.pos);
        if let Some(l) = self.loops.last_mut() {
            l.guard = Some(guard);
        }
        for (k, was) in before.into_iter().enumerate() {
            if self.env[k] != was {
                let inputs =
                    vec![("g".into(), first.clone()), ("in0".into(), was), ("in1".into(), self.env[k].clone())];
                self.env[k] = self.make(f.pos, "SEL", inputs, Some(self.var_ty(k)), "out");
            }
        }
    }

    /// A loop statement: its head and body lowered once, between its loop variables. A WHILE
    /// tests in its head and runs its statements in its body; a REPEAT (and a FOR, after its
    /// first test) runs its statements in its head and tests after them, its body empty (a
    /// FOR's: the step).
    pub(super) fn lower_loop(&mut self, kind: LoopKind, body: &[Stmt], pos: Pos) {
        let (ret, exit) = (self.returned(), self.exit_flag(self.depth));
        let falsity = Wire::constant(Value::Bool(false));
        let mut carried = Vec::new();
        self.written(body, &mut carried);
        let may_return = body.iter().any(returns);
        let may_exit = body.iter().any(exits);
        let tests_first = matches!(kind, LoopKind::While(_));
        // A REPEAT's (a FOR's) test comes after its statements: an iteration starts with both
        // flags FALSE, so they need no loop variable.
        if tests_first {
            if may_return {
                carried.push(ret);
            }
            if may_exit {
                carried.push(exit);
            }
        }
        let counter = match kind {
            LoopKind::For(f) => self.variable_of(&f.var),
            _ => None,
        };
        carried.extend(counter);
        carried.sort_unstable();
        carried.dedup();
        self.env[exit] = falsity.clone();
        let outer = self.en.clone();
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
        if !tests_first {
            self.en = outer.clone();
            self.statements(body);
        }
        // The test, computed while no EXIT or RETURN stopped the loop.
        let stop = self.stopped(may_return, may_exit);
        let go_on = stop.map(|s| self.make(pos, "NOT", vec![("in".into(), s)], Some(Type::Bool), "out"));
        let en = self.and_opt(pos, outer.clone(), go_on);
        self.en = en.clone();
        let c = match kind {
            LoopKind::While(cond) => self.condition(cond),
            LoopKind::For(f) => self.for_test(f),
            LoopKind::Repeat(until) => {
                let c = self.condition(until);
                self.make(until.pos(), "NOT", vec![("in".into(), c)], Some(Type::Bool), "out")
            }
        };
        let test_wire = self.and(pos, en, c);
        // What a REPEAT or a FOR leaves when it ends: the values its statements ended with.
        let ends = if tests_first { Vec::new() } else { self.iteration_ends(&phis, counter, pos) };
        let test = self.test_block(test_wire, first, &phis, pos, kind.word());
        let body_start = self.made.len();
        self.en = outer.clone();
        if tests_first {
            self.statements(body);
            self.iteration_ends(&phis, None, pos);
        } else if let (LoopKind::For(f), Some(v)) = (kind, counter) {
            let next = self.for_step(f, v);
            if let Some(j) = phis.iter().position(|(x, _)| *x == v) {
                self.feed_back(&phis, j, next, pos);
            }
        }
        let end = self.made.len();
        self.loops.push(BodyLoop {
            head: first..body_start,
            body: body_start..end,
            test,
            phis: phis.iter().map(|&(_, k)| k).collect(),
            guard: None,
        });
        if tests_first {
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
        // The flag is this loop's: what follows sees it unset.
        self.env[exit] = falsity;
    }

    /// The block whose output is the loop's test, named by the loop's place (`L4C1_while`: the
    /// watchdog names it): the block that computed it when this loop made it for the test
    /// alone, else a MOVE of it.
    fn test_block(&mut self, test: Wire, first: usize, phis: &[(usize, usize)], pos: Pos, word: &str) -> usize {
        let id = self.fresh(&format!("L{}C{}_{}", pos.line, pos.col, word));
        let own = match &test {
            Wire::Ref(r) => r.strip_suffix(".out").and_then(|b| {
                let k = first + self.made[first..].iter().position(|x| &*x.id == b)?;
                (!phis.iter().any(|&(_, p)| p == k)).then_some(k)
            }),
            _ => None,
        };
        match own {
            Some(k) => {
                self.made[k].id = id.into_boxed_str();
                k
            }
            None => {
                self.made.push(gate(id, "MOVE", vec![("in", test)], Some(Type::Bool)));
                self.made.len() - 1
            }
        }
    }

    /// Each loop variable's value at the iteration's end wired as its feedback (but `except`'s,
    /// a FOR's counter, whose next value is its step): (variable, that value).
    fn iteration_ends(&mut self, phis: &[(usize, usize)], except: Option<usize>, pos: Pos) -> Vec<(usize, Wire)> {
        (0..phis.len())
            .filter(|&j| Some(phis[j].0) != except)
            .map(|j| {
                let next = self.env[phis[j].0].clone();
                (phis[j].0, self.feed_back(phis, j, next, pos))
            })
            .collect()
    }

    /// `next` wired as the feedback of loop variable `phis[j]`, from a block's output: a MOVE
    /// is made for a constant or an input, and for another loop variable of the loop (`m := n`
    /// as the iteration's last write of `m`: the copies back run one after the other, so `m`
    /// must not read `n` after `n`'s copy). The wire wired.
    fn feed_back(&mut self, phis: &[(usize, usize)], j: usize, mut next: Wire, pos: Pos) -> Wire {
        let (v, k) = phis[j];
        let another = matches!(&next, Wire::Ref(r)
            if phis.iter().enumerate().any(|(o, &(_, p))| o != j && *r == format!("{}.out", self.made[p].id)));
        if another || !matches!(&next, Wire::Ref(r) if r.contains('.')) {
            let id = self.fresh(&format!("L{}C{}_{}_next", pos.line, pos.col, self.slot_name(v)));
            self.made.push(gate(id.clone(), "MOVE", vec![("in", next)], Some(self.var_ty(v))));
            next = Wire::Ref(format!("{id}.out"));
        }
        if let Wire::Ref(from) = next.clone() {
            let mut pins = self.made[k].inputs.0.to_vec();
            pins.push(("in1".into(), Wire::Feedback { from, init: None }));
            self.made[k].inputs.0 = pins.into_boxed_slice();
        }
        next
    }

    /// A condition (an IF's, a WHILE's, an UNTIL's): a BOOL, else an error at its place.
    pub(super) fn condition(&mut self, cond: &Expr) -> Wire {
        let (c, t) = self.expr(cond, Some(Type::Bool));
        if let Some(t) = t.filter(|&t| t != Type::Bool) {
            let an = if t.name().starts_with(['A', 'E', 'I', 'O']) { "an" } else { "a" };
            self.error(cond.pos(), format!("a condition is a BOOL, this is {an} {}", t.name()));
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

    /// A FOR's step: `i + step` (`i + 1` without a BY), stored as `i`'s type.
    fn for_step(&mut self, f: &ForLoop, v: usize) -> Wire {
        let one = Expr::Lit { value: Value::Int(1), ty: None, pos: f.pos };
        let by = f.by.clone().unwrap_or(one);
        let sum = Expr::Binary(BinOp::Add, Box::new(Expr::Name(f.var.clone())), Box::new(by), f.pos);
        let ty = self.var_ty(v);
        let (next, t) = self.expr(&sum, Some(ty));
        self.check_store(&sum, t, ty, &format!("`{}`", f.var.text()));
        next
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
            None => "exited".into(),
        }
    }

    /// The `env` indices of the variables statements of `list` write (nested ones too).
    fn written(&self, list: &[Stmt], out: &mut Vec<usize>) {
        for s in list {
            match s {
                Stmt::Assign { target, .. } => match self.array_of(target) {
                    Some(a) => out.extend(self.element_variables(a, target)),
                    None => out.extend(self.variable_of(target)),
                },
                Stmt::Call(call) => {
                    for a in &call.args {
                        if let fbd_st::ast::Arg::Out { target, .. } = a {
                            out.extend(self.variable_of(target));
                        }
                    }
                }
                Stmt::For(f) => out.extend(self.variable_of(&f.var)),
                _ => {}
            }
            s.bodies().into_iter().for_each(|b| self.written(b, out));
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
        .map(|s| usize::from(s.is_loop()) + s.bodies().into_iter().map(loop_depth).max().unwrap_or(0))
        .max()
        .unwrap_or(0)
}
