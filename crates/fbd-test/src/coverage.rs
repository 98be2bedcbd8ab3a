//! Coverage of a program by its tests: for every block, whether each output took every value
//! it can matter for — a BOOL output TRUE and FALSE (comparisons both ways, timers elapsed and
//! not, every gate open and shut), a SEL's `g` both ways, every input of a MUX selected —
//! gathered scan by scan over every test of a table file, and summed per macro (over all its
//! instances: a goal is met when any instance met it) and for the program's top level.

use std::collections::BTreeMap;

use fbd_engine::library::Kind;
use fbd_engine::{Runtime, ScanPlan, Type, Value};

/// One value one signal of one block must take.
#[derive(Clone, Debug)]
struct Goal {
    /// The block (index into the plan's blocks).
    block: usize,
    /// The signal watched.
    signal: u32,
    /// The value it must take.
    want: Value,
    met: bool,
}

/// What the tests of a table file covered of its program.
#[derive(Clone, Debug)]
pub struct Coverage {
    goals: Vec<Goal>,
}

/// Coverage of one scope (the program's top level, or a macro over its instances).
#[derive(Clone, Debug, PartialEq)]
pub struct Scope {
    /// `(program)` or the macro's name.
    pub name: String,
    /// Goals met.
    pub met: usize,
    /// Goals in all.
    pub total: usize,
    /// The goals not met: the block (its path in the scope) and the value not seen.
    pub missed: Vec<String>,
}

impl Scope {
    /// Met goals in percent (100 for a scope without goals).
    pub fn percent(&self) -> f64 {
        if self.total == 0 { 100.0 } else { 100.0 * self.met as f64 / self.total as f64 }
    }
}

impl Coverage {
    /// The goals of `plan`, none met yet.
    pub fn of(plan: &ScanPlan) -> Coverage {
        let mut goals = Vec::new();
        for (b, info) in plan.blocks.iter().enumerate() {
            let mut want = |signal: u32, values: &mut dyn Iterator<Item = Value>| {
                goals.extend(values.map(|want| Goal { block: b, signal, want, met: false }));
            };
            for &o in info.outputs {
                if plan.signals.at(o as usize).slot.ty == Type::Bool {
                    want(o, &mut [Value::Bool(false), Value::Bool(true)].into_iter());
                }
            }
            match info.kind {
                Kind::Sel if !info.inputs.is_empty() => {
                    want(info.inputs[0], &mut [Value::Bool(false), Value::Bool(true)].into_iter())
                }
                Kind::Mux if !info.inputs.is_empty() => {
                    let n = info.inputs.len() as i64 - 1;
                    want(info.inputs[0], &mut (0..n).map(Value::Int))
                }
                _ => {}
            }
        }
        Coverage { goals }
    }

    /// Notes what the last scan of `rt` showed.
    pub fn observe(&mut self, rt: &Runtime) {
        for g in self.goals.iter_mut().filter(|g| !g.met) {
            g.met = rt.read_signal(g.signal as usize) == g.want;
        }
    }

    /// Per scope, what was met: the program's top level first, then each macro by name.
    pub fn scopes(&self, plan: &ScanPlan) -> Vec<Scope> {
        // (scope, block path in it, signal's pin and the value) → met by any instance.
        let mut by: BTreeMap<(String, String), bool> = BTreeMap::new();
        for g in &self.goals {
            let path = plan.blocks.at(g.block).path;
            let (scope, local) = match path.rsplit_once('/') {
                None => ("(program)".to_string(), path.to_string()),
                Some((inst, local)) => {
                    let mac = plan.instances.iter().find(|i| i.path == inst).map_or(inst, |i| i.macro_name.as_str());
                    (mac.to_string(), local.to_string())
                }
            };
            let pin = plan.pin_name(g.signal);
            let key = (scope, format!("{local}.{pin} {}", g.want.short()));
            *by.entry(key).or_insert(false) |= g.met;
        }
        let mut scopes: BTreeMap<String, Scope> = BTreeMap::new();
        for ((scope, what), met) in by {
            let s = scopes.entry(scope.clone()).or_insert(Scope { name: scope, met: 0, total: 0, missed: Vec::new() });
            s.total += 1;
            if met {
                s.met += 1;
            } else {
                s.missed.push(what);
            }
        }
        let mut out: Vec<Scope> = scopes.into_values().collect();
        out.sort_by_key(|s| (s.name != "(program)", s.name.clone()));
        out
    }

    /// Every goal not met: the block's path and the value its pin did not take (`q TRUE`).
    pub fn missed(&self, plan: &ScanPlan) -> Vec<(String, String)> {
        self.goals
            .iter()
            .filter(|g| !g.met)
            .map(|g| {
                (plan.blocks.at(g.block).path.to_string(), format!("{} {}", plan.pin_name(g.signal), g.want.short()))
            })
            .collect()
    }
}

/// The body a table tests (the program's top level, or the macro tested alone) drawn at its
/// stored positions, every block with a goal not met marked, its title saying which.
pub fn coverage_svg(l: &crate::Loaded, c: &Coverage) -> Result<String, String> {
    let name = l.table.macro_name.as_deref();
    let body = fbd_layout::from_model::body(&l.project, name)?;
    let pos = fbd_layout::from_model::positions(&l.project, name);
    let layout = fbd_layout::layout_kept(&body, &pos);
    // A goal of `uut/x/y` (a macro tested alone) or `x/y` (a program) belongs to node `x`.
    let mut notes: Vec<Vec<String>> = vec![Vec::new(); body.nodes.len()];
    for (path, what) in c.missed(&l.plan) {
        let local = if name.is_some() { path.strip_prefix("uut/").unwrap_or(&path) } else { &path };
        let (node, inner) = local.split_once('/').map_or((local, None), |(n, rest)| (n, Some(rest)));
        if let Some(k) = body.nodes.iter().position(|n| n.id == node) {
            notes[k].push(match inner {
                Some(i) => format!("{i}.{what}"),
                None => what,
            });
        }
    }
    struct Marks(Vec<Vec<String>>);
    impl fbd_layout::svg::Values for Marks {
        fn output(&self, _: usize, _: usize) -> Option<String> {
            None
        }
        fn marked(&self, node: usize) -> Option<String> {
            let n = &self.0[node];
            (!n.is_empty()).then(|| format!("not covered: {}", n.join(", ")))
        }
    }
    let title = format!("coverage of {} by {}", name.unwrap_or("the program"), l.path.display());
    Ok(fbd_layout::svg::svg(&body, &layout, &title, &Marks(notes)))
}
