//! A second reading of ladder networks, independent of the compiler's: the rungs interpreted
//! statement by statement as Beremiz's generated ST runs them, on variables held in a map (no
//! lowering, no data flow, no feedback wires), and a generator of random ladder programs in
//! the diagram format. The differential test (`tests/ladder.rs`) runs both on random inputs and
//! compares every variable after every scan.
//!
//! What it reads: contacts of every modifier on inputs, variables and block outputs; coils of
//! every modifier; stores; series, parallel and through-coil power; blocks CTU (INT) and ADD
//! (INT) with EN and ENO in the rungs. A block is called at the first statement that needs it
//! (its inputs read then), the others after the last statement; a read of a block's output is
//! whatever the block holds at that moment (before its call in the scan: the last scan's).

use std::collections::HashMap;

use fbd_engine::Value;
use fbd_engine::model::{Document, LdElement, LdKind, LdModifier, Wire};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A block of the network as the interpreter holds it.
struct Call {
    ty: String,
    inputs: Vec<(String, Wire)>,
    /// Outputs by pin (ENO included).
    out: HashMap<String, Value>,
    /// CTU: the last CU.
    prev_cu: bool,
}

/// The interpreter's state between scans.
pub struct LadderRef {
    doc: Document,
    /// Variables and inputs by name.
    vars: HashMap<String, Value>,
    blocks: Vec<Call>,
    by_id: HashMap<String, usize>,
    /// Each edge's memory, by (statement or block, element).
    edges: HashMap<(usize, String), bool>,
}

/// INT arithmetic as a 16-bit PLC does it.
fn wrap16(v: i64) -> i64 {
    v as i16 as i64
}

impl LadderRef {
    /// The interpreter of the program `doc` (its top-level network), every variable at its init.
    pub fn new(doc: Document) -> LadderRef {
        let mut vars = HashMap::new();
        for v in &doc.variables {
            vars.insert(v.name.clone(), v.init.map_or_else(|| v.ty.0.zero(), |c| c.0));
        }
        for i in &doc.inputs {
            vars.insert(i.name.clone(), i.ty.0.zero());
        }
        let blocks = doc
            .blocks
            .iter()
            .map(|b| {
                let mut out = HashMap::new();
                for (p, v) in [
                    ("q", Value::Bool(false)),
                    ("cv", Value::Int(0)),
                    ("out", Value::Int(0)),
                    ("ENO", Value::Bool(false)),
                ] {
                    out.insert(p.to_string(), v);
                }
                Call { ty: b.ty.clone(), inputs: b.inputs.0.clone(), out, prev_cu: false }
            })
            .collect();
        let by_id = doc.blocks.iter().enumerate().map(|(k, b)| (b.id.clone(), k)).collect();
        LadderRef { doc, vars, blocks, by_id, edges: HashMap::new() }
    }

    /// Sets input `name`.
    pub fn set_input(&mut self, name: &str, v: Value) {
        self.vars.insert(name.to_string(), v);
    }

    /// The value of variable (or input) `name`.
    pub fn var(&self, name: &str) -> Option<Value> {
        self.vars.get(name).copied()
    }

    /// One scan: every statement in order, then the blocks no statement called.
    pub fn step(&mut self) {
        let mut called = vec![false; self.blocks.len()];
        let ladder = self.doc.ladder.clone();
        for (k, e) in ladder.iter().enumerate() {
            if !e.writes() || e.from.is_empty() {
                continue;
            }
            self.statement(k, e, &mut called);
        }
        for b in 0..self.blocks.len() {
            self.call(b, &mut called);
        }
    }

    fn statement(&mut self, k: usize, e: &LdElement, called: &mut [bool]) {
        let power = self.power(&e.from, k, called);
        let now = self.vars.get(&e.var).copied().unwrap_or(Value::Bool(false));
        let b = |v: Value| v == Value::Bool(true);
        let value = match (e.kind, e.modifier) {
            (LdKind::Store, LdModifier::Negated) => Value::Bool(!b(power)),
            (LdKind::Store, _) => {
                // Straight from a block with EN: written only while its ENO is TRUE.
                if let [Wire::Ref(r)] = &e.from[..]
                    && let Some((blk, pin)) = r.split_once('.')
                    && pin != "ENO"
                    && let Some(&i) = self.by_id.get(blk)
                    && self.blocks[i].inputs.iter().any(|(p, _)| p == "EN")
                    && !b(self.blocks[i].out["ENO"])
                {
                    return;
                }
                power
            }
            (_, LdModifier::Plain) => power,
            (_, LdModifier::Negated) => Value::Bool(!b(power)),
            (_, LdModifier::Set) => Value::Bool(b(now) || b(power)),
            (_, LdModifier::Reset) => Value::Bool(b(now) && !b(power)),
            (_, LdModifier::Rising) => Value::Bool(self.edge(k, &e.id, b(power), true)),
            (_, LdModifier::Falling) => Value::Bool(self.edge(k, &e.id, b(power), false)),
        };
        self.vars.insert(e.var.clone(), value);
    }

    /// An R_TRIG (`rising`) or F_TRIG of its own for element `id` in statement `k`.
    fn edge(&mut self, k: usize, id: &str, clk: bool, rising: bool) -> bool {
        let m = self.edges.entry((k, id.to_string())).or_insert(false);
        let q = if rising { clk && !*m } else { !clk && !*m };
        *m = if rising { clk } else { !clk };
        q
    }

    /// The OR of sources `from` (a store's value when it has one), read in statement `k`.
    fn power(&mut self, from: &[Wire], k: usize, called: &mut [bool]) -> Value {
        if let [w] = from {
            return self.read(w, k, called);
        }
        let mut any = false;
        for w in from {
            any |= self.read(w, k, called) == Value::Bool(true);
        }
        Value::Bool(any)
    }

    /// What wire `w` gives now, in statement (or block call) `k`.
    fn read(&mut self, w: &Wire, k: usize, called: &mut [bool]) -> Value {
        match w {
            Wire::Const(c) => c.value(),
            Wire::Ref(r) if r == "rail" => Value::Bool(true),
            Wire::Ref(r) => {
                if let Some(e) = self.doc.ladder.iter().find(|e| e.id == *r).cloned() {
                    return Value::Bool(self.element(&e, k, called));
                }
                if let Some((blk, pin)) = r.split_once('.') {
                    let i = self.by_id[blk];
                    // Pulled: a statement's source block is called before the statement.
                    self.call(i, called);
                    return self.blocks[i].out[pin];
                }
                self.vars[r.as_str()]
            }
            Wire::Feedback { .. } | Wire::Connector(_) => Value::Bool(false),
        }
    }

    /// The power out of element `e` (a contact, or through a coil), read in statement `k`.
    fn element(&mut self, e: &LdElement, k: usize, called: &mut [bool]) -> bool {
        match e.kind {
            LdKind::Contact => {
                let input = self.power(&e.from, k, called) == Value::Bool(true);
                // A contact reads its BOOL without calling the block it names.
                let v = match e.var.split_once('.') {
                    Some((blk, pin)) => self.blocks[self.by_id[blk]].out[pin],
                    None => self.vars[e.var.as_str()],
                } == Value::Bool(true);
                let term = match e.modifier {
                    LdModifier::Negated => !v,
                    LdModifier::Rising => self.edge(k, &e.id, v, true),
                    LdModifier::Falling => self.edge(k, &e.id, v, false),
                    _ => v,
                };
                input && term
            }
            _ => {
                let mut all = true;
                for w in &e.from {
                    all &= self.read(w, k, called) == Value::Bool(true);
                }
                all
            }
        }
    }

    /// Calls block `i` if it has not been called in this scan.
    fn call(&mut self, i: usize, called: &mut [bool]) {
        if std::mem::replace(&mut called[i], true) {
            return;
        }
        // Its inputs read now, in a context of their own (the block's place in `edges`).
        let place = usize::MAX - i;
        let inputs = self.blocks[i].inputs.clone();
        let mut ins: HashMap<String, Value> = HashMap::new();
        for (p, w) in &inputs {
            let v = self.read(w, place, called);
            ins.insert(p.clone(), v);
        }
        let en = ins.get("EN").is_none_or(|v| *v == Value::Bool(true));
        let c = &mut self.blocks[i];
        c.out.insert("ENO".into(), Value::Bool(en));
        if !en {
            return;
        }
        let int = |p: &str| ins.get(p).and_then(|v| v.as_i64()).unwrap_or(0);
        match c.ty.as_str() {
            "CTU" => {
                let cu = ins.get("cu") == Some(&Value::Bool(true));
                let mut cv = c.out["cv"].as_i64().unwrap_or(0);
                if ins.get("r") == Some(&Value::Bool(true)) {
                    cv = 0;
                } else if cu && !c.prev_cu && cv < int("pv") {
                    cv += 1;
                }
                c.prev_cu = cu;
                c.out.insert("cv".into(), Value::Int(cv));
                c.out.insert("q".into(), Value::Bool(cv >= int("pv")));
            }
            "ADD" => {
                c.out.insert("out".into(), Value::Int(wrap16(int("in1") + int("in2"))));
            }
            other => panic!("the ladder reference reads CTU and ADD, not {other}"),
        }
    }
}

/// A random ladder program (seed `seed`): 3 inputs, 4 BOOL variables and one INT, 3 to 8
/// rungs of random series/parallel nests of contacts (every modifier, on inputs, variables and
/// block outputs) into one or two coils (every modifier) or a store, a CTU and an ADD with EN
/// in some rungs, their outputs read by contacts above and below their call.
pub fn program(seed: u64) -> String {
    let mut g = Gen { rng: ChaCha8Rng::seed_from_u64(seed), n: 0, ladder: Vec::new() };
    let rungs = g.rng.random_range(3..=8);
    let mut uses_blocks = false;
    let mut en = None;
    for _ in 0..rungs {
        // A nest: a chain of 1-3 contacts, sometimes with a parallel chain joining it.
        let a = g.chain();
        let head = if g.rng.random_bool(0.4) {
            let b = g.chain();
            let j = g.next("c");
            let var = g.bool_var();
            let m = g.contact_mod();
            g.ladder.push(LdElement::contact(&j, &var, m, &[&a, &b]));
            j
        } else {
            a
        };
        match g.rng.random_range(0..10) {
            // A store of the adder's sum, or the counter's value, into `n`.
            0 => {
                uses_blocks = true;
                let src = if g.rng.random_bool(0.5) { "add.out" } else { "ctu.cv" };
                let mut s = LdElement::coil(&g.next("s"), "n", LdModifier::Plain, &[src]);
                s.kind = LdKind::Store;
                g.ladder.push(s);
            }
            // A coil powered through the adder's ENO, its EN this rung's head.
            1 if en.is_none() => {
                uses_blocks = true;
                en = Some(head);
                let var = g.written_var();
                let m = g.coil_mod();
                let k = g.next("k");
                g.ladder.push(LdElement::coil(&k, &var, m, &["add.ENO"]));
            }
            _ => {
                let k1 = g.next("k");
                let var = g.written_var();
                let m = g.coil_mod();
                g.ladder.push(LdElement::coil(&k1, &var, m, &[&head]));
                if g.rng.random_bool(0.3) {
                    // A second coil after the first: power through a coil.
                    let var = g.written_var();
                    let m = g.coil_mod();
                    let k2 = g.next("k");
                    g.ladder.push(LdElement::coil(&k2, &var, m, &[&k1]));
                }
            }
        }
    }
    let ladder = g.ladder;
    let uses = |s: &str| {
        ladder
            .iter()
            .any(|e| e.var.starts_with(s) || e.from.iter().any(|w| matches!(w, Wire::Ref(r) if r.starts_with(s))))
    };
    let uses_blocks = uses_blocks || uses("ctu.") || uses("add.");
    // The counter counts the first contact's power; the adder adds one to `n` while its EN (a
    // rung's head, else an input) is TRUE.
    let first = ladder.iter().find(|e| e.kind == LdKind::Contact).map_or("rail".to_string(), |e| e.id.clone());
    let en = en.unwrap_or_else(|| "i1".to_string());
    let blocks = if uses_blocks {
        format!(
            r#"[{{"id": "ctu", "type": "CTU", "inputs": {{"cu": "{first}", "r": "i2", "pv": 3}}, "data_type": "INT"}},
               {{"id": "add", "type": "ADD", "inputs": {{"EN": "{en}", "in1": "n", "in2": 1}}, "data_type": "INT"}}]"#
        )
    } else {
        "[]".to_string()
    };
    let ladder_json = serde_json_text(&ladder);
    format!(
        r#"{{"fbd": 5, "name": "ladder{seed}",
  "inputs": [{{"name": "i0", "type": "BOOL"}}, {{"name": "i1", "type": "BOOL"}}, {{"name": "i2", "type": "BOOL"}}],
  "variables": [{{"name": "m0", "type": "BOOL"}}, {{"name": "m1", "type": "BOOL", "init": true}}, {{"name": "m2", "type": "BOOL"}},
                {{"name": "m3", "type": "BOOL"}}, {{"name": "n", "type": "INT"}}],
  "blocks": {blocks},
  "ladder": {ladder_json}}}"#
    )
}

/// The generator's state: its random stream, the next element number, the network so far.
struct Gen {
    rng: ChaCha8Rng,
    n: usize,
    ladder: Vec<LdElement>,
}

impl Gen {
    fn next(&mut self, prefix: &str) -> String {
        self.n += 1;
        format!("{prefix}{}", self.n)
    }
    /// A BOOL a contact reads: an input, a variable, or a block's output (rarely).
    fn bool_var(&mut self) -> String {
        const BOOLS: [&str; 7] = ["i0", "i1", "i2", "m0", "m1", "m2", "m3"];
        match self.rng.random_range(0..12) {
            0 => "ctu.q".to_string(),
            1 => "add.ENO".to_string(),
            _ => BOOLS[self.rng.random_range(0..BOOLS.len())].to_string(),
        }
    }
    /// A variable a coil writes.
    fn written_var(&mut self) -> String {
        format!("m{}", self.rng.random_range(0..4))
    }
    fn contact_mod(&mut self) -> LdModifier {
        match self.rng.random_range(0..8) {
            0 | 1 => LdModifier::Negated,
            2 => LdModifier::Rising,
            3 => LdModifier::Falling,
            _ => LdModifier::Plain,
        }
    }
    fn coil_mod(&mut self) -> LdModifier {
        match self.rng.random_range(0..10) {
            0 => LdModifier::Negated,
            1 => LdModifier::Set,
            2 => LdModifier::Reset,
            3 => LdModifier::Rising,
            4 => LdModifier::Falling,
            _ => LdModifier::Plain,
        }
    }
    /// A chain of 1-3 contacts from the rail; its last contact.
    fn chain(&mut self) -> String {
        let mut from = "rail".to_string();
        for _ in 0..self.rng.random_range(1..=3) {
            let var = self.bool_var();
            let m = self.contact_mod();
            let id = self.next("c");
            self.ladder.push(LdElement::contact(&id, &var, m, &[&from]));
            from = id;
        }
        from
    }
}

fn serde_json_text(ladder: &[LdElement]) -> String {
    let items: Vec<String> = ladder
        .iter()
        .map(|e| {
            let from: Vec<String> = e
                .from
                .iter()
                .map(|w| match w {
                    Wire::Ref(r) => format!("\"{r}\""),
                    _ => "\"rail\"".to_string(),
                })
                .collect();
            let kind = match e.kind {
                LdKind::Contact => "contact",
                LdKind::Coil => "coil",
                LdKind::Store => "store",
            };
            format!(
                r#"{{"id": "{}", "kind": "{kind}", "var": "{}", "modifier": "{}", "from": [{}]}}"#,
                e.id,
                e.var,
                e.modifier.name(),
                from.join(", ")
            )
        })
        .collect();
    format!("[\n    {}\n  ]", items.join(",\n    "))
}

/// Runs `text` (a ladder program) in the engine and in this interpreter for `scans` scans with
/// random inputs (seed `seed`) and compares every variable after every scan; the values
/// compared, or the first difference.
pub fn check(text: &str, seed: u64, scans: u64) -> Result<u64, String> {
    let plan = fbd_engine::compile(text).map_err(|e| format!("does not compile: {e}"))?;
    let doc: Document = serde_json_from(text)?;
    let names: Vec<String> = doc.variables.iter().map(|v| v.name.clone()).collect();
    let inputs: Vec<String> = doc.inputs.iter().map(|v| v.name.clone()).collect();
    let mut rt = fbd_engine::Runtime::new(plan);
    let mut reference = LadderRef::new(doc);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x1add);
    let mut values = 0;
    for scan in 0..scans {
        for i in &inputs {
            let v = Value::Bool(rng.random_bool(0.5));
            rt.set_input(i, v).map_err(|e| e.to_string())?;
            reference.set_input(i, v);
        }
        rt.step();
        reference.step();
        for name in &names {
            let ours = rt.read(name).map_err(|e| format!("{name}: {e}"))?;
            let theirs = reference.var(name).unwrap_or(Value::Bool(false));
            let same = match (ours, theirs) {
                (Value::Int(a), Value::Int(b)) => a == b,
                (a, b) => a == b,
            };
            if !same {
                return Err(format!("scan {scan}: `{name}` is {ours} in the engine, {theirs} in the reference"));
            }
            values += 1;
        }
    }
    Ok(values)
}

fn serde_json_from(text: &str) -> Result<Document, String> {
    fbd_engine::load::parse_document(std::path::Path::new("ladder.json"), text).map_err(|e| e.to_string())
}
