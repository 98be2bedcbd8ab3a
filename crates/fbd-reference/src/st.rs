//! A second reading of Structured Text, independent of the compiler's: the syntax tree
//! (`fbd_st`, the shared parser) walked statement by statement as matiec's C runs it, on
//! variables held in a map (no lowering to blocks, no SSA, no SEL merges, no feedback wires),
//! and a generator of random ST programs in the diagram format. `tests/st.rs` runs both on
//! random inputs and compares every variable after every scan.
//!
//! What it reads: BOOL, INT and DINT variables and inputs, arrays of them (each element a
//! variable; an index past the bounds reads 0 and writes nothing), enumerations' (their values by
//! name or `TYPE#name`, compared, assigned, CASE labels); every operator (integer operations
//! in 32 bits, as C computes `int`; a value stored or passed to a function truncated to its
//! type), ABS, MIN, MAX, LIMIT, SEL, INT_TO_DINT, DINT_TO_INT; IF/ELSIF/ELSE, CASE with lists and ranges,
//! RETURN; instances of CTU (INT, counting while CV < PV as matiec's library does) and R_TRIG
//! called with formal arguments and `Q =>` outputs, their outputs read before or after the call,
//! their inputs members they keep (`c0.PV := 5`, a call that does not give one).

use std::collections::HashMap;

use fbd_engine::Value;
use fbd_engine::model::Document;
use fbd_st::ast::{Arg, BinOp, CaseLabel, Expr, Stmt, UnOp};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A value as the interpreter holds it.
#[derive(Copy, Clone, Debug, PartialEq)]
enum V {
    B(bool),
    I(i64),
}

impl V {
    fn int(self) -> i64 {
        match self {
            V::I(i) => i,
            V::B(b) => i64::from(b),
        }
    }
    fn bool(self) -> bool {
        match self {
            V::B(b) => b,
            V::I(i) => i != 0,
        }
    }
}

fn wrap16(v: i64) -> i64 {
    v as i16 as i64
}

fn wrap32(v: i64) -> i64 {
    v as i32 as i64
}

/// An instance: CTU or R_TRIG, its outputs and memory.
struct Instance {
    ty: String,
    q: bool,
    cv: i64,
    /// The last CLK (R_TRIG) or CU (CTU's edge).
    mem: bool,
    /// Its inputs as it keeps them (IEC: an input is a member; a call that does not give one,
    /// or a statement `c0.PV := 5`, leaves or sets what it holds).
    inputs: HashMap<String, V>,
}

/// The interpreter's state between scans.
pub struct StRef {
    body: Vec<Stmt>,
    /// Variables and inputs by upper-case name: (is INT/DINT width in bits, 0 for BOOL; value).
    vars: HashMap<String, (u32, V)>,
    instances: HashMap<String, Instance>,
    /// A loop ran 100,000 times: the program is judged no further.
    pub endless: bool,
    /// The program's user data types (enumerations' values are names).
    types: Vec<fbd_engine::model::DataType>,
    /// The arrays by upper-case name: their elements are among `vars`.
    arrays: HashMap<String, fbd_engine::model::ArrayType>,
}

/// How a statement list ended.
#[derive(PartialEq)]
enum Flow {
    Next,
    Exit,
    Return,
}

/// Iterations of one loop past which the interpreter gives up (the engine's watchdog stops a
/// loop that never ends; generated loops end well before).
const MAX_ITERATIONS: u32 = 100_000;

impl StRef {
    /// The interpreter of the program `doc`, every variable at its init.
    pub fn new(doc: &Document) -> Result<StRef, String> {
        let body = fbd_st::parse(&doc.st.join("\n")).map_err(|e| format!("{e:?}"))?;
        let width = |t: fbd_engine::Type| match t {
            fbd_engine::Type::Bool => 0,
            fbd_engine::Type::Int => 16,
            _ => 32,
        };
        let mut vars = HashMap::new();
        let types = fbd_engine::model::DataTypes(&doc.types);
        let mut arrays = HashMap::new();
        for v in &doc.variables {
            // An array: each element a variable of its own, by its name (`BUF[3]`).
            if let Some(a) = v.data_type.as_deref().and_then(|t| types.array(t)) {
                let elem = types.element(&a.of).map_or(fbd_engine::Type::DInt, |(t, _)| t);
                for k in 0..a.len() {
                    let val = match v.init_elements.get(k as usize).map(|c| c.0) {
                        Some(Value::Bool(b)) => V::B(b),
                        Some(x) => V::I(x.as_i64().unwrap_or(0)),
                        None if elem == fbd_engine::Type::Bool => V::B(false),
                        None => V::I(0),
                    };
                    vars.insert(a.element_name(&v.name, k).to_ascii_uppercase(), (width(elem), val));
                }
                arrays.insert(v.name.to_ascii_uppercase(), a);
                continue;
            }
            // An enumeration's variable holds its value's position, its init named by the
            // variable or by its type (the first value by default).
            if let Some(t) = v.data_type.as_deref().and_then(|t| types.get(t)) {
                let init = v.init_name.as_ref().or(t.init.as_ref());
                let at = init.map_or(Some(0), |n| t.value_index(n)).ok_or(format!("`{}`: bad init", v.name))?;
                vars.insert(v.name.to_ascii_uppercase(), (32, V::I(at as i64)));
                continue;
            }
            let val = match v.init.map(|c| c.0) {
                Some(Value::Bool(b)) => V::B(b),
                Some(x) => V::I(x.as_i64().unwrap_or(0)),
                None if v.ty.0 == fbd_engine::Type::Bool => V::B(false),
                None => V::I(0),
            };
            vars.insert(v.name.to_ascii_uppercase(), (width(v.ty.0), val));
        }
        for i in &doc.inputs {
            let val = if i.ty.0 == fbd_engine::Type::Bool { V::B(false) } else { V::I(0) };
            vars.insert(i.name.to_ascii_uppercase(), (width(i.ty.0), val));
        }
        let instances = doc
            .blocks
            .iter()
            .map(|b| {
                (
                    b.id.to_ascii_uppercase(),
                    Instance { ty: b.ty.clone(), q: false, cv: 0, mem: false, inputs: HashMap::new() },
                )
            })
            .collect();
        Ok(StRef { body, vars, instances, endless: false, types: doc.types.clone(), arrays })
    }

    /// Sets input `name`.
    pub fn set_input(&mut self, name: &str, v: Value) {
        let val = match v {
            Value::Bool(b) => V::B(b),
            v => V::I(v.as_i64().unwrap_or(0)),
        };
        if let Some(slot) = self.vars.get_mut(&name.to_ascii_uppercase()) {
            slot.1 = val;
        }
    }

    /// A variable's value (BOOL or an integer).
    pub fn var(&self, name: &str) -> Option<Value> {
        self.vars.get(&name.to_ascii_uppercase()).map(|(w, v)| match (w, v) {
            (0, v) => Value::Bool(v.bool()),
            (_, v) => Value::Int(v.int()),
        })
    }

    /// One scan: the body's statements in order.
    pub fn step(&mut self) {
        let body = std::mem::take(&mut self.body);
        let _ = self.run(&body);
        self.body = body;
    }

    fn run(&mut self, list: &[Stmt]) -> Flow {
        for s in list {
            match self.statement(s) {
                Flow::Next => {}
                stop => return stop,
            }
        }
        Flow::Next
    }

    /// One iteration's statements: whether the loop goes on, or the flow that ends it.
    fn iteration(&mut self, body: &[Stmt]) -> Result<(), Flow> {
        match self.run(body) {
            Flow::Next => Ok(()),
            Flow::Exit => Err(Flow::Next),
            Flow::Return => Err(Flow::Return),
        }
    }

    /// FOR as matiec's C runs it: the variable set to its first value; each time, the test
    /// `i < to` (no BY) or `i + by <= to` (by > 0) / `i + by >= to`, in C's `int`; every
    /// iteration but the first adds the step first.
    fn for_loop(&mut self, f: &fbd_st::ast::ForLoop) -> Flow {
        let v = self.eval(&f.from);
        self.store(&f.var.parts[0], v);
        let read = |me: &Self| me.vars.get(&f.var.parts[0].to_ascii_uppercase()).map_or(0, |(_, v)| v.int());
        let mut stepped = false;
        for _ in 0..MAX_ITERATIONS {
            let i = read(self);
            let to = self.eval(&f.to).int();
            let go = match &f.by {
                None => i < to,
                Some(by) => {
                    let step = self.eval(by).int();
                    if step > 0 { wrap32(i + step) <= to } else { wrap32(i + step) >= to }
                }
            };
            if !go {
                return Flow::Next;
            }
            if stepped {
                let step = f.by.as_ref().map_or(1, |by| self.eval(by).int());
                self.store(&f.var.parts[0], V::I(wrap32(i + step)));
            }
            stepped = true;
            if let Err(flow) = self.iteration(&f.body) {
                return flow;
            }
        }
        self.endless = true;
        Flow::Next
    }

    fn statement(&mut self, s: &Stmt) -> Flow {
        match s {
            Stmt::Assign { target, value, .. } => {
                let v = self.eval(value);
                match (self.instances.get_mut(&target.parts[0].to_ascii_uppercase()), target.parts.get(1)) {
                    (Some(inst), Some(pin)) => {
                        inst.inputs.insert(pin.to_ascii_uppercase(), v);
                    }
                    _ if !target.subscripts.is_empty() => {
                        // Past the bounds nothing is written (the engine faults).
                        if let Some(key) = self.element_key(target) {
                            self.store(&key, v);
                        }
                    }
                    _ => self.store(&target.parts[0], v),
                }
            }
            Stmt::Call(call) => {
                let key = call.name.to_ascii_uppercase();
                let mut args: HashMap<String, V> = HashMap::new();
                let mut outs = Vec::new();
                for a in &call.args {
                    match a {
                        Arg::In { name: Some(n), value, .. } => {
                            let v = self.eval(value);
                            args.insert(n.to_ascii_uppercase(), v);
                        }
                        Arg::Out { name, target, .. } => {
                            outs.push((name.to_ascii_uppercase(), target.parts[0].clone()))
                        }
                        Arg::In { name: None, .. } => {}
                    }
                }
                let Some(inst) = self.instances.get_mut(&key) else { return Flow::Next };
                inst.inputs.extend(args);
                let kept = inst.inputs.clone();
                let arg = |n: &str| kept.get(n).copied();
                match inst.ty.as_str() {
                    "R_TRIG" => {
                        let clk = arg("CLK").is_some_and(V::bool);
                        inst.q = clk && !inst.mem;
                        inst.mem = clk;
                    }
                    _ => {
                        // CTU (INT), as matiec's library writes it: R first; a rising CU
                        // counts while CV < PV.
                        let cu = arg("CU").is_some_and(V::bool);
                        let rising = cu && !inst.mem;
                        inst.mem = cu;
                        let pv = wrap16(arg("PV").map_or(0, V::int));
                        if arg("R").is_some_and(V::bool) {
                            inst.cv = 0;
                        } else if rising && inst.cv < pv {
                            inst.cv += 1;
                        }
                        inst.q = inst.cv >= pv;
                    }
                }
                let q = inst.q;
                for (_, target) in outs {
                    self.store(&target, V::B(q));
                }
            }
            Stmt::If { arms, otherwise, .. } => {
                for (c, body) in arms {
                    if self.eval(c).bool() {
                        return self.run(body);
                    }
                }
                return self.run(otherwise);
            }
            Stmt::Case { selector, arms, otherwise, .. } => {
                let s = self.eval(selector).int();
                for arm in arms {
                    let hit = arm.labels.iter().any(|l| match l {
                        CaseLabel::Value(e) => self.eval(e).int() == s,
                        CaseLabel::Range(a, b) => (self.eval(a).int()..=self.eval(b).int()).contains(&s),
                    });
                    if hit {
                        return self.run(&arm.body);
                    }
                }
                return self.run(otherwise);
            }
            Stmt::Return(_) => return Flow::Return,
            Stmt::Exit(_) => return Flow::Exit,
            Stmt::For(f) => return self.for_loop(f),
            Stmt::While { cond, body, .. } => {
                for _ in 0..MAX_ITERATIONS {
                    if !self.eval(cond).bool() {
                        return Flow::Next;
                    }
                    if let Err(flow) = self.iteration(body) {
                        return flow;
                    }
                }
                self.endless = true;
            }
            Stmt::Repeat { body, until, .. } => {
                for _ in 0..MAX_ITERATIONS {
                    if let Err(flow) = self.iteration(body) {
                        return flow;
                    }
                    if self.eval(until).bool() {
                        return Flow::Next;
                    }
                }
                self.endless = true;
            }
        }
        Flow::Next
    }

    /// The variable of the array element `p` names (`BUF[3]`), or `None` past its bounds.
    fn element_key(&self, p: &fbd_st::ast::Path) -> Option<String> {
        let a = self.arrays.get(&p.parts[0].to_ascii_uppercase())?;
        let indices: Vec<i64> = p.subscripts.iter().map(|e| wrap32(self.eval(e).int())).collect();
        let k = a.position(&indices)?;
        Some(a.element_name(&p.parts[0], k).to_ascii_uppercase())
    }

    /// Stores `v` into variable `name`, truncated to its type.
    fn store(&mut self, name: &str, v: V) {
        if let Some((w, slot)) = self.vars.get_mut(&name.to_ascii_uppercase()) {
            *slot = match *w {
                0 => V::B(v.bool()),
                16 => V::I(wrap16(v.int())),
                _ => V::I(wrap32(v.int())),
            };
        }
    }

    fn eval(&self, e: &Expr) -> V {
        match e {
            Expr::Lit { value, .. } => match value {
                Value::Bool(b) => V::B(*b),
                v => V::I(v.as_i64().unwrap_or(0)),
            },
            Expr::Name(p) if !p.subscripts.is_empty() => {
                // Past the bounds: the zero (the engine faults).
                let key = self.element_key(p);
                key.and_then(|k| self.vars.get(&k)).map_or(V::I(0), |(w, v)| if *w == 0 { V::B(v.bool()) } else { *v })
            }
            Expr::Name(p) => {
                let first = p.parts[0].to_ascii_uppercase();
                if let (Some(inst), Some(pin)) = (self.instances.get(&first), p.parts.get(1)) {
                    return match pin.to_ascii_uppercase().as_str() {
                        "CV" => V::I(inst.cv),
                        "Q" => V::B(inst.q),
                        other => inst.inputs.get(other).copied().unwrap_or(V::I(0)),
                    };
                }
                if let Some((_, v)) = self.vars.get(&first) {
                    return *v;
                }
                match fbd_engine::model::DataTypes(&self.types).enum_value(&p.parts[0]) {
                    Some(fbd_engine::model::EnumName::Value(_, i)) => V::I(i as i64),
                    _ => V::I(0),
                }
            }
            Expr::Unary(UnOp::Neg, x, _) => V::I(wrap32(-self.eval(x).int())),
            Expr::Unary(UnOp::Not, x, _) => V::B(!self.eval(x).bool()),
            Expr::Binary(op, a, b, _) => {
                let (x, y) = (self.eval(a), self.eval(b));
                let (i, j) = (x.int(), y.int());
                match op {
                    BinOp::Or => V::B(x.bool() || y.bool()),
                    BinOp::Xor => V::B(x.bool() != y.bool()),
                    BinOp::And => V::B(x.bool() && y.bool()),
                    BinOp::Eq => V::B(x == y),
                    BinOp::Ne => V::B(x != y),
                    BinOp::Lt => V::B(i < j),
                    BinOp::Gt => V::B(i > j),
                    BinOp::Le => V::B(i <= j),
                    BinOp::Ge => V::B(i >= j),
                    BinOp::Add => V::I(wrap32(i + j)),
                    BinOp::Sub => V::I(wrap32(i - j)),
                    BinOp::Mul => V::I(wrap32(i.wrapping_mul(j))),
                    BinOp::Div => V::I(if j == 0 { 0 } else { wrap32(i / j) }),
                    BinOp::Mod => V::I(if j == 0 { 0 } else { wrap32(i % j) }),
                    BinOp::Pow => V::I(0),
                }
            }
            Expr::Call(call) => {
                // INT functions: each argument passed as an INT.
                let args: Vec<V> = call
                    .args
                    .iter()
                    .filter_map(|a| match a {
                        Arg::In { value, .. } => Some(self.eval(value)),
                        Arg::Out { .. } => None,
                    })
                    .collect();
                let n = |k: usize| wrap16(args.get(k).map_or(0, |v| v.int()));
                match call.name.to_ascii_uppercase().as_str() {
                    "ABS" => V::I(wrap16(n(0).abs())),
                    "MIN" => V::I(n(0).min(n(1))),
                    "MAX" => V::I(n(0).max(n(1))),
                    "LIMIT" => V::I(n(1).max(n(0)).min(n(2))),
                    "SEL" => V::I(if args[0].bool() { n(2) } else { n(1) }),
                    "INT_TO_DINT" => V::I(n(0)),
                    // Its argument is a DINT (an element of `grid`): the low 16 bits.
                    "DINT_TO_INT" => V::I(wrap16(args.first().map_or(0, |v| v.int()))),
                    _ => V::I(0),
                }
            }
        }
    }
}

/// A random ST program (seed `seed`) in the diagram format: BOOL inputs `i0`..`i2`, INT
/// inputs `a0`, `a1`; variables of BOOL, INT and DINT; a CTU and an R_TRIG; 3 to 10
/// statements nested two deep.
pub fn program(seed: u64) -> String {
    let mut g = Gen { rng: ChaCha8Rng::seed_from_u64(seed), called: Vec::new(), loops: 0 };
    let n = g.rng.random_range(3..=10);
    // The counter's preset is a member a statement sets (`c0.PV := 5`), read back as `c0.PV`.
    let pv = g.pick(&["3", "5", "7"]);
    let mut lines: Vec<String> = vec![format!("c0.PV := {pv};")];
    lines.extend((0..n).map(|_| g.statement("", 0)));
    let st: Vec<String> = lines.join("\n").lines().map(|l| format!("{l:?}")).collect();
    format!(
        r#"{{"fbd": 7, "name": "st{seed}",
  "inputs": [{{"name": "i0", "type": "BOOL"}}, {{"name": "i1", "type": "BOOL"}}, {{"name": "i2", "type": "BOOL"}},
             {{"name": "a0", "type": "INT"}}, {{"name": "a1", "type": "INT"}}],
  "types": [{{"name": "Mode", "enum": ["idle", "run", "hold", "done"]}}, {{"name": "Lamp", "enum": ["off", "hold"], "init": "hold"}}],
  "variables": [{{"name": "s0", "type": "Mode"}}, {{"name": "s1", "type": "Lamp"}}, {{"name": "q0", "type": "BOOL"}},
                {{"name": "arr", "type": "ARRAY[0..4] OF INT", "init": [1, 2, 3]}}, {{"name": "grid", "type": "ARRAY[1..2, 0..2] OF DINT"}},
                {{"name": "flags", "type": "ARRAY[-1..1] OF BOOL", "init": [true]}}, {{"name": "q1", "type": "BOOL", "init": true}}, {{"name": "b0", "type": "BOOL"}},
                {{"name": "n0", "type": "INT"}}, {{"name": "n1", "type": "INT", "init": 7}}, {{"name": "m0", "type": "INT"}},
                {{"name": "d0", "type": "DINT"}}, {{"name": "k0", "type": "INT"}}, {{"name": "k1", "type": "INT"}}],
  "blocks": [{{"id": "c0", "type": "CTU", "data_type": "INT"}}, {{"id": "e0", "type": "R_TRIG"}}],
  "st": [
    {}
  ]}}"#,
        st.join(",\n    ")
    )
}

struct Gen {
    rng: ChaCha8Rng,
    called: Vec<&'static str>,
    /// How many loops the statement being made is in (its counter is `k{loops}`).
    loops: u32,
}

impl Gen {
    /// An index of a dimension `lo..hi`: a constant in it, a loop counter, or an expression
    /// (sometimes past the bounds: the engine's fault gives the zero the reference gives).
    fn index(&mut self, d: u32, lo: i64, hi: i64) -> String {
        match self.rng.random_range(0..6) {
            0 | 1 => self.rng.random_range(lo..=hi).to_string(),
            2 if self.loops > 0 => format!("k{}", self.loops - 1),
            2 => format!("LIMIT({lo}, a0, {hi})"),
            3 if d < 3 => format!("LIMIT({lo}, {}, {hi})", self.int_expr(d + 1)),
            4 if d < 3 => format!("({}) MOD {}", self.int_expr(d + 1), hi - lo + 2),
            _ => format!("LIMIT({lo}, n0, {hi})"),
        }
    }

    /// A value of `Mode`: a name (`hold` is also `Lamp`'s: written `Mode#hold`), or `s0`.
    fn mode(&mut self) -> &'static str {
        self.pick(&["idle", "run", "Mode#hold", "done", "Mode#idle", "s0"])
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.rng.random_range(0..from.len())]
    }

    /// An INT expression; never one of literals only (matiec types those by their use and
    /// refuses some: the two readings have no judge there).
    fn int_expr(&mut self, d: u32) -> String {
        self.int_expr_lit(d, false)
    }

    /// An INT expression, a bare literal allowed when `lit`.
    fn int_expr_lit(&mut self, d: u32, lit: bool) -> String {
        let k = self.rng.random_range(0..if d < 3 { 11 } else { 3 });
        match k {
            1 if lit => self.pick(&["0", "1", "3", "100", "1000", "-7", "32767"]).to_string(),
            0 | 1 => self.pick(&["a0", "a1", "n0", "n1", "m0", "k0"]).to_string(),
            2 if self.rng.random_bool(0.25) => format!("arr[{}]", self.index(d, 0, 4)),
            2 if self.rng.random_bool(0.1) => {
                format!("DINT_TO_INT(grid[{}, {}])", self.index(d, 1, 2), self.index(d, 0, 2))
            }
            2 if self.rng.random_bool(0.2) => "c0.PV".to_string(),
            2 => "c0.CV".to_string(),
            3..=5 => {
                let op = self.pick(&["+", "-", "*"]);
                let (a, b) = (self.int_expr(d + 1), self.int_expr_lit(d + 1, true));
                // Parenthesised inside another operation: `32767 * (3 * c0.CV)` written bare
                // would group its literals (`(32767 * 3) * c0.CV`).
                let (a, b) = if self.rng.random_bool(0.5) { (a, b) } else { (b, a) };
                if d > 0 { format!("({a} {op} {b})") } else { format!("{a} {op} {b}") }
            }
            6 => format!("({})", self.int_expr(d + 1)),
            7 => {
                let op = self.pick(&["/", "MOD"]);
                let by = self.pick(&["2", "3", "7", "-4"]);
                format!("({}) {op} {by}", self.int_expr(d + 1))
            }
            8 => {
                let f = self.pick(&["MIN", "MAX"]);
                format!("{f}({}, {})", self.int_expr(d + 1), self.int_expr_lit(d + 1, true))
            }
            9 => format!("LIMIT(-100, {}, {})", self.int_expr(d + 1), self.pick(&["10", "3000"])),
            _ => match self.rng.random_range(0..3) {
                0 => format!("ABS({})", self.int_expr(d + 1)),
                1 => format!(
                    "SEL({}, {}, {})",
                    self.bool_expr(d + 1),
                    self.int_expr(d + 1),
                    self.int_expr_lit(d + 1, true)
                ),
                _ => format!("-{}", self.pick(&["a0", "n0", "m0"])),
            },
        }
    }

    fn bool_expr(&mut self, d: u32) -> String {
        let k = self.rng.random_range(0..if d < 3 { 7 } else { 2 });
        match k {
            0 => self.pick(&["i0", "i1", "i2", "q0", "q1", "b0"]).to_string(),
            1 if self.rng.random_bool(0.3) => format!("flags[{}]", self.index(d, -1, 1)),
            1 => self.pick(&["c0.Q", "e0.Q", "TRUE", "FALSE"]).to_string(),
            2 | 3 => {
                let op = self.pick(&["=", "<>", "<", ">", "<=", ">="]);
                format!("{} {op} {}", self.int_expr(d + 1), self.int_expr(d + 1))
            }
            4 if self.rng.random_bool(0.3) => {
                let op = self.pick(&["=", "<>"]);
                match self.rng.random_range(0..3) {
                    0 => format!("s0 {op} {}", self.mode()),
                    1 => format!("{} {op} s0", self.mode()),
                    _ => format!("s1 {op} {}", self.pick(&["off", "Lamp#hold"])),
                }
            }
            4 | 5 => {
                let op = self.pick(&["AND", "OR", "XOR", "&"]);
                format!("{} {op} {}", self.bool_expr(d + 1), self.bool_expr(d + 1))
            }
            _ => format!("NOT ({})", self.bool_expr(d + 1)),
        }
    }

    /// A branch's statements, its calls counted from `before` (what was called before the IF
    /// or CASE); what it called added to `called`.
    fn arm(&mut self, ind: &str, depth: u32, before: &[&'static str], called: &mut Vec<&'static str>) -> Vec<String> {
        self.called = before.to_vec();
        let out = self.block(ind, depth);
        for c in &self.called {
            if !called.contains(c) {
                called.push(c);
            }
        }
        out
    }

    fn block(&mut self, ind: &str, depth: u32) -> Vec<String> {
        let n = self.rng.random_range(1..=3);
        (0..n).map(|_| self.statement(ind, depth)).collect()
    }

    fn statement(&mut self, ind: &str, depth: u32) -> String {
        let inner = format!("{ind}  ");
        if self.rng.random_range(0..25) == 0 {
            return format!("{ind}IF {} THEN RETURN; END_IF;", self.bool_expr(1));
        }
        if self.loops > 0 && self.rng.random_range(0..10) == 0 {
            return format!("{ind}IF {} THEN EXIT; END_IF;", self.bool_expr(1));
        }
        if self.loops < 2 && depth < 3 && self.rng.random_range(0..6) == 0 {
            return self.loop_statement(ind, depth);
        }
        match self.rng.random_range(0..if depth < 2 { 9 } else { 5 }) {
            0 | 1 => {
                let v = self.pick(&["n0", "n1", "m0"]);
                format!("{ind}{v} := {};", self.int_expr(0))
            }
            2 if self.rng.random_bool(0.2) => format!("{ind}c0.CU := {};", self.bool_expr(0)),
            2 => {
                let v = self.pick(&["q0", "q1", "b0"]);
                format!("{ind}{v} := {};", self.bool_expr(0))
            }
            3 if self.rng.random_bool(0.3) => match self.rng.random_range(0..4) {
                0 | 1 => format!("{ind}arr[{}] := {};", self.index(0, 0, 4), self.int_expr(0)),
                2 => format!("{ind}flags[{}] := {};", self.index(0, -1, 1), self.bool_expr(0)),
                _ => format!(
                    "{ind}grid[{}, {}] := grid[1, 2] + INT_TO_DINT({});",
                    self.index(0, 1, 2),
                    self.index(0, 0, 2),
                    self.int_expr(0)
                ),
            },
            3 if self.rng.random_bool(0.4) => match self.rng.random_range(0..3) {
                0 | 1 => format!("{ind}s0 := {};", self.mode()),
                _ => format!("{ind}s1 := {};", self.pick(&["off", "Lamp#hold", "s1"])),
            },
            3 => format!("{ind}d0 := INT_TO_DINT({}) * 70000 + d0 / 2;", self.int_expr(0)),
            4 if self.loops > 0 => format!("{ind}m0 := {};", self.int_expr(0)),
            4 => {
                // An instance called already is called again now and then (its state shared).
                let again = self.rng.random_bool(0.3);
                let free: Vec<&'static str> =
                    ["c0", "e0"].into_iter().filter(|c| again || !self.called.contains(c)).collect();
                let Some(&c) = free.first() else { return format!("{ind}m0 := {};", self.int_expr(0)) };
                self.called.push(c);
                let q = if self.rng.random_bool(0.3) {
                    format!(", Q => {}", self.pick(&["q0", "b0"]))
                } else {
                    String::new()
                };
                if c == "c0" {
                    // PV given, or kept from `c0.PV := ..`; CU given, or kept from `c0.CU := ..`.
                    let pv = if self.rng.random_bool(0.5) {
                        format!(", PV := {}", self.pick(&["3", "5"]))
                    } else {
                        String::new()
                    };
                    let cu = if self.rng.random_bool(0.7) {
                        format!("CU := {}, ", self.bool_expr(1))
                    } else {
                        String::new()
                    };
                    format!("{ind}c0({cu}R := {}{pv}{q});", self.bool_expr(2))
                } else {
                    format!("{ind}e0(CLK := {}{q});", self.bool_expr(1))
                }
            }
            5 | 6 => {
                // Branches exclude each other: an instance may be called in each.
                let (before, mut called) = (self.called.clone(), self.called.clone());
                let mut out = vec![format!("{ind}IF {} THEN", self.bool_expr(0))];
                out.extend(self.arm(&inner, depth + 1, &before, &mut called));
                for _ in 0..self.rng.random_range(0..=2) {
                    out.push(format!("{ind}ELSIF {} THEN", self.bool_expr(0)));
                    out.extend(self.arm(&inner, depth + 1, &before, &mut called));
                }
                if self.rng.random_bool(0.6) {
                    out.push(format!("{ind}ELSE"));
                    out.extend(self.arm(&inner, depth + 1, &before, &mut called));
                }
                out.push(format!("{ind}END_IF;"));
                self.called = called;
                out.join("\n")
            }
            _ if self.rng.random_bool(0.25) => {
                // A CASE on the enumeration: its values as labels.
                let (before, mut called) = (self.called.clone(), self.called.clone());
                let mut out = vec![format!("{ind}CASE s0 OF")];
                let mut labels = vec!["idle", "run", "Mode#hold", "done"];
                for _ in 0..self.rng.random_range(1..=3) {
                    let k = self.rng.random_range(0..labels.len());
                    let mut label = labels.remove(k).to_string();
                    if !labels.is_empty() && self.rng.random_bool(0.3) {
                        label = format!("{label}, {}", labels.remove(0));
                    }
                    out.push(format!("{inner}{label}:"));
                    out.extend(self.arm(&format!("{inner}  "), depth + 1, &before, &mut called));
                    if labels.is_empty() {
                        break;
                    }
                }
                if self.rng.random_bool(0.5) {
                    out.push(format!("{ind}ELSE"));
                    out.extend(self.arm(&inner, depth + 1, &before, &mut called));
                }
                out.push(format!("{ind}END_CASE;"));
                self.called = called;
                out.join("\n")
            }
            _ => {
                let sel = self.pick(&["a0", "a1", "n0", "m0", "c0.CV"]);
                let (before, mut called) = (self.called.clone(), self.called.clone());
                let mut out = vec![format!("{ind}CASE {sel} OF")];
                for _ in 0..self.rng.random_range(1..=4) {
                    let lo = self.rng.random_range(-5..20);
                    let label = if self.rng.random_bool(0.3) {
                        format!("{lo}..{}", lo + self.rng.random_range(0..10))
                    } else {
                        format!("{lo}, {}", self.pick(&["-32768", "32767", "100"]))
                    };
                    out.push(format!("{inner}{label}:"));
                    out.extend(self.arm(&format!("{inner}  "), depth + 1, &before, &mut called));
                }
                if self.rng.random_bool(0.5) {
                    out.push(format!("{ind}ELSE"));
                    out.extend(self.arm(&inner, depth + 1, &before, &mut called));
                }
                out.push(format!("{ind}END_CASE;"));
                self.called = called;
                out.join("\n")
            }
        }
    }
}

impl Gen {
    /// A WHILE, REPEAT or FOR that ends: counted by its own variable `k0`/`k1`, which no
    /// other statement writes, to a few iterations (an EXIT or a RETURN may end it sooner).
    fn loop_statement(&mut self, ind: &str, depth: u32) -> String {
        let k = format!("k{}", self.loops);
        let inner = format!("{ind}  ");
        self.loops += 1;
        let body = |g: &mut Gen| g.block(&inner, depth + 1);
        let out = match self.rng.random_range(0..3) {
            0 => {
                let lim = self.pick(&["3", "5", "a0 MOD 4"]);
                let mut out =
                    vec![format!("{ind}{k} := 0;"), format!("{ind}WHILE {k} < {lim} AND ({}) DO", self.bool_expr(1))];
                out.extend(body(self));
                out.push(format!("{inner}{k} := {k} + 1;"));
                out.push(format!("{ind}END_WHILE;"));
                out
            }
            1 => {
                let lim = self.pick(&["2", "4", "a1 MOD 3"]);
                let mut out = vec![format!("{ind}{k} := 0;"), format!("{ind}REPEAT")];
                out.extend(body(self));
                out.push(format!("{inner}{k} := {k} + 1;"));
                out.push(format!("{ind}UNTIL {k} >= {lim} OR ({}) END_REPEAT;", self.bool_expr(1)));
                out
            }
            _ => {
                let by = self.pick(&["", "1", "2", "3", "-1", "-2"]);
                let (from, to) = if by.starts_with('-') {
                    (self.pick(&["5", "10", "a0 MOD 8"]), self.pick(&["0", "-3", "n1 MOD 4"]))
                } else {
                    (self.pick(&["0", "1", "-2", "a0 MOD 5"]), self.pick(&["3", "5", "10", "a1 MOD 8", "n1 MOD 6"]))
                };
                let by = if by.is_empty() { String::new() } else { format!(" BY {by}") };
                let mut out = vec![format!("{ind}FOR {k} := {from} TO {to}{by} DO")];
                out.extend(body(self));
                out.push(format!("{ind}END_FOR;"));
                out
            }
        };
        self.loops -= 1;
        out.join("\n")
    }
}

/// Runs `text` (an ST program) in the engine and in this interpreter for `scans` scans with
/// random inputs (seed `seed`) and compares every variable after every scan; the values
/// compared, or the first difference.
pub fn check(text: &str, seed: u64, scans: u64) -> Result<u64, String> {
    let plan = fbd_engine::compile(text).map_err(|e| format!("does not compile: {e}"))?;
    let doc = fbd_engine::load::parse_document(std::path::Path::new("st.json"), text).map_err(|e| e.to_string())?;
    // An array is compared element by element.
    let types = fbd_engine::model::DataTypes(&doc.types);
    let names: Vec<String> = doc
        .variables
        .iter()
        .flat_map(|v| match v.data_type.as_deref().and_then(|t| types.array(t)) {
            Some(a) => (0..a.len()).map(|k| a.element_name(&v.name, k)).collect(),
            None => vec![v.name.clone()],
        })
        .collect();
    let inputs: Vec<(String, fbd_engine::Type)> = doc.inputs.iter().map(|v| (v.name.clone(), v.ty.0)).collect();
    let mut rt = fbd_engine::Runtime::new(plan);
    let mut reference = StRef::new(&doc)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x57);
    const INTS: [i64; 8] = [0, 1, -1, 300, -20000, 32767, -32768, 7];
    let mut values = 0;
    for scan in 0..scans {
        for (i, ty) in &inputs {
            let v = if *ty == fbd_engine::Type::Bool {
                Value::Bool(rng.random_bool(0.5))
            } else {
                Value::Int(INTS[rng.random_range(0..INTS.len())])
            };
            rt.set_input(i, v).map_err(|e| e.to_string())?;
            reference.set_input(i, v);
        }
        rt.step();
        reference.step();
        if reference.endless {
            return Err(format!("scan {scan}: a loop of the reference never ended"));
        }
        if let Some(why) = rt.halt_message() {
            return Err(format!("the engine's task stopped: {why}"));
        }
        for name in &names {
            let ours = rt.read(name).map_err(|e| format!("{name}: {e}"))?;
            let theirs = reference.var(name).unwrap_or(Value::Bool(false));
            let same = match (ours.as_i64(), theirs.as_i64()) {
                (Some(a), Some(b)) => a == b,
                _ => ours == theirs,
            };
            if !same {
                return Err(format!("scan {scan}: `{name}` is {ours} in the engine, {theirs} in the reference"));
            }
            values += 1;
        }
    }
    Ok(values)
}
