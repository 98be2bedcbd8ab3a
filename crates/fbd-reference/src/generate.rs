//! Random well-typed diagrams for the differential test and the fuzzer: every library block,
//! every type, constants of every type on every pin (INT literals on REAL pins and `-0`
//! included), program inputs, feedback wires, negated BOOL pins, DELAY and MEMORY.prev read
//! from anywhere, and macros with pass-through ports, defaults and nesting. Each block's type is chosen first, so
//! a diagram is well typed by construction; generic blocks get a `data_type` only when no
//! grounded source already fixes their type, so type inference is exercised too.

use fbd_model::library::{BlockDef, Generic, Kind, LIBRARY, PinTy};
use fbd_model::{Type, Value};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How big the generated diagrams are.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Blocks of the program body (macro bodies are smaller).
    pub max_blocks: usize,
    /// Macro definitions to generate (0..=this).
    pub max_macros: usize,
    /// Only blocks that IEC 61131-3 has by the same name and meaning (and the conversions), so
    /// another IEC toolchain runs the export as the standard defines it, not this tool's
    /// stand-ins: for the comparison with Beremiz and matiec (`tools/plcopen/generated-check.sh`).
    pub iec_only: bool,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions { max_blocks: 24, max_macros: 3, iec_only: false }
    }
}

/// A signal a pin may read in a body.
#[derive(Clone, Debug)]
struct Sig {
    /// The wire text (`"b3.out"`, `"x"`).
    wire: String,
    ty: Type,
    /// Its type is fixed without inference (an input, a port, a fixed-type output, a generic
    /// output of an earlier block): reading it fixes a generic block's type.
    grounded: bool,
}

/// A generated macro's interface.
#[derive(Clone, Debug)]
struct MacroSig {
    name: String,
    inputs: Vec<(String, Type, bool)>,
    outputs: Vec<(String, Type)>,
    /// A DELAY in its body, or in an instance's: it cannot be under an EN.
    has_delay: bool,
}

/// One planned block: its type and the types of its pins.
struct Planned {
    id: String,
    def: Option<&'static BlockDef>,
    mac: Option<usize>,
    t: Option<Type>,
    n_var_in: usize,
    n_var_out: usize,
}

impl Planned {
    fn pin_ty(&self, ty: PinTy) -> Type {
        match ty {
            PinTy::Fixed(t) => t,
            PinTy::T => self.t.expect("generic block has a type"),
        }
    }
}

/// Any type; the 64-bit ones as often as all the others together (the 2048 program and most
/// diagrams use them), BOOL as often.
/// Whether a value of `ty` that may be a constant passed through a macro port fixes a generic
/// block's type: a constant is typed by the pin it reaches, LINT, LREAL or BOOL by default, so
/// only those (the engine's known limit: a DWORD port's constant is a constant).
fn loose_ok(ty: Type) -> bool {
    matches!(ty, Type::Bool | Type::LInt | Type::LReal)
}

fn pick_type<R: Rng>(rng: &mut R, iec_only: bool) -> Type {
    match rng.random_range(0..6) {
        0 | 1 => Type::Bool,
        2 => Type::LInt,
        3 => Type::LReal,
        _ => pick_num(rng, iec_only),
    }
}

/// A type other than BOOL, every one of them (for an IEC toolchain, those matiec has: no
/// LTIME).
fn pick_num<R: Rng>(rng: &mut R, iec_only: bool) -> Type {
    let nums: Vec<Type> =
        Type::ALL.into_iter().filter(|t| *t != Type::Bool && !(iec_only && *t == Type::LTime)).collect();
    nums[rng.random_range(0..nums.len())]
}

/// A duration as a diagram writes it: mostly whole milliseconds, sometimes finer, negative
/// sometimes.
fn duration<R: Rng>(rng: &mut R, lo_ms: i64, hi_ms: i64) -> String {
    let fine = if rng.random_bool(0.2) { rng.random_range(0..1000i64) * 1000 } else { 0 };
    format!("\"{}\"", Value::Time(rng.random_range(lo_ms..=hi_ms) * 1_000_000 + fine))
}

/// A constant of type `ty` as JSON text; REAL pins often get INT literals.
fn constant<R: Rng>(rng: &mut R, ty: Type) -> String {
    // A narrow integer: its extremes or small numbers, always within its range.
    if let Some((lo, hi)) = ty.int_range().filter(|_| ty != Type::LInt && !ty.is_time()) {
        return match rng.random_range(0..8) {
            0 => hi.to_string(),
            1 => lo.to_string(),
            _ => rng.random_range(-5i64..=12).clamp(lo, hi).to_string(),
        };
    }
    if ty.is_time() {
        return duration(rng, -3000, 3000);
    }
    if ty == Type::String {
        return string_constant(rng);
    }
    if ty.is_u64() {
        return match rng.random_range(0..8) {
            0 => u64::MAX.to_string(),
            1 => (1u64 << 63).to_string(),
            _ => rng.random_range(0u64..=12).to_string(),
        };
    }
    if ty == Type::Real {
        return match rng.random_range(0..10) {
            0 => "-0.0".into(),
            1 => "3.0e38".into(),
            2 => "0.1".into(),
            3..=5 => rng.random_range(-6i64..=9).to_string(),
            _ => format!("{:?}", rng.random_range(-40i64..=40) as f64 / 4.0),
        };
    }
    match ty {
        Type::Bool => rng.random_bool(0.5).to_string(),
        Type::LInt => match rng.random_range(0..10) {
            0 => i64::MAX.to_string(),
            1 => i64::MIN.to_string(),
            2 => "-0".into(),
            _ => rng.random_range(-5i64..=12).to_string(),
        },
        _ => match rng.random_range(0..12) {
            0 => "-0".into(),
            1 => "-0.0".into(),
            2 => "1e308".into(),
            3 => "0.1".into(),
            4..=6 => rng.random_range(-6i64..=9).to_string(),
            _ => format!("{:?}", rng.random_range(-40i64..=40) as f64 / 4.0),
        },
    }
}

/// A STRING constant as JSON text: texts the conversions read in their several ways (numbers,
/// bases, TRUE, a dot, a letter among digits), the empty string, and long ones that reach the
/// capacity when joined.
fn string_constant<R: Rng>(rng: &mut R) -> String {
    const TEXTS: [&str; 14] =
        ["", "a", "abc", "aab", "ab", "12", "-7", "2.5", "-0.25e2", "16#fF", "2#101", "TRUE", "1a2", "it$'s $$5"];
    let text = match rng.random_range(0..8) {
        0 => "xyz".repeat(rng.random_range(10..=30)),
        _ => TEXTS[rng.random_range(0..TEXTS.len())].to_string(),
    };
    format!("\"'{text}'\"")
}

/// The IEC blocks ([`BlockDef::is_iec_standard`]): what a standard toolchain computes as the
/// standard says. DIV and MOD by a constant divisor of their own ([`constant_for`]: an integer
/// division by zero traps in matiec's C, gives 0 and a fault here); not TRUNC (a REAL beyond
/// the result's range is undefined in matiec's C cast) nor MULTIME and DIVTIME (a product of
/// nanoseconds beyond a C `int`, likewise).
fn is_iec(def: &BlockDef) -> bool {
    def.is_iec_standard() && !matches!(def.kind, Kind::Trunc | Kind::MulTime | Kind::DivTime)
}

/// Generates a body: blocks wired from `avail` (inputs or ports), `instances` of earlier
/// macros, constants, earlier outputs, feedback wires and delayed outputs from anywhere.
/// Returns the block objects as JSON and every block output as a signal.
fn body<R: Rng>(
    rng: &mut R,
    avail: &[Sig],
    n_blocks: usize,
    macros: &[MacroSig],
    iec_only: bool,
) -> (Vec<String>, Vec<Sig>) {
    let defs: Vec<&'static BlockDef> = LIBRARY.iter().filter(|d| !iec_only || is_iec(d)).collect();
    let plan: Vec<Planned> = (0..n_blocks).map(|k| plan_block(rng, k, macros, &defs, iec_only)).collect();
    let mut blocks = Vec::new();
    let mut sigs = Vec::new();
    for j in 0..plan.len() {
        let sources = sources_for(&plan, macros, avail, j);
        blocks.push(block_object(rng, &plan, macros, j, &sources, iec_only));
        for (name, ty, _) in outputs_of(&plan, macros, j) {
            sigs.push(Sig { wire: format!("{}.{name}", plan[j].id), ty, grounded: true });
        }
    }
    (blocks, sigs)
}

/// Block `k` planned: an instance of an earlier macro, an IEC conversion `A_TO_B` (one block
/// in ten), or a library block, with its type and the counts of its variadic pins.
fn plan_block<R: Rng>(
    rng: &mut R,
    k: usize,
    macros: &[MacroSig],
    defs: &[&'static BlockDef],
    iec_only: bool,
) -> Planned {
    if !macros.is_empty() && rng.random_bool(0.2) {
        let m = rng.random_range(0..macros.len());
        return Planned { id: format!("b{k}"), def: None, mac: Some(m), t: None, n_var_in: 0, n_var_out: 0 };
    }
    // Now and then a BCD conversion (not for matiec: a number of more than 16 digits is
    // undefined in its C).
    let bcd: Vec<&'static BlockDef> =
        if iec_only { Vec::new() } else { fbd_model::library::all().filter(|d| d.kind == Kind::Bcd).collect() };
    let def = if !bcd.is_empty() && rng.random_bool(0.03) {
        bcd[rng.random_range(0..bcd.len())]
    } else if rng.random_bool(0.1) {
        let (a, b) = (pick_type(rng, iec_only), pick_type(rng, iec_only));
        // One in three to or from a STRING, whose texts each type reads and writes its way.
        let (a, b) = match rng.random_range(0..6) {
            0 => (a, Type::String),
            1 => (Type::String, b),
            _ => (a, b),
        };
        // matiec's INT_TO_TIME never overflows (its TIME has 64-bit seconds): only the
        // sources whose every value fits a TIME's nanoseconds.
        let big = matches!(a, Type::LInt | Type::Real | Type::LReal | Type::String);
        let a = if iec_only && b.is_time() && big { Type::DInt } else { a };
        fbd_model::library::lookup(&format!("{a}_TO_{b}")).unwrap_or(defs[0])
    } else {
        defs[rng.random_range(0..defs.len())]
    };
    let t = type_of(rng, def, iec_only);
    // matiec adds two TIMEs at a time (ADD__TIME__TIME__TIME).
    let two = iec_only && def.kind == Kind::Add && t.is_some_and(|t| t.is_time());
    let n_var_in = def.var_inputs.map(|v| v.min + if two { 0 } else { rng.random_range(0..3) }).unwrap_or(0);
    let n_var_out = def.var_outputs.map(|_| rng.random_range(1..5)).unwrap_or(0);
    Planned { id: format!("b{k}"), def: Some(def), mac: None, t, n_var_in, n_var_out }
}

/// The type a generic block is given (`None`: not generic).
fn type_of<R: Rng>(rng: &mut R, def: &BlockDef, iec_only: bool) -> Option<Type> {
    let pick_admitted = |rng: &mut R, g: Generic| loop {
        let t = pick_num(rng, iec_only);
        if g.admits(t) {
            break t;
        }
    };
    match def.generic {
        Generic::No => None,
        Generic::Num | Generic::Magnitude | Generic::Ordered => Some(match rng.random_range(0..4) {
            0 => Type::LInt,
            1 => Type::LReal,
            _ => pick_admitted(rng, def.generic),
        }),
        // matiec has no comparison of BOOLs (EQ__BOOL__BOOL does not link).
        Generic::Any
            if iec_only && matches!(def.kind, Kind::Eq | Kind::Ne | Kind::Gt | Kind::Ge | Kind::Lt | Kind::Le) =>
        {
            Some(loop {
                let t = pick_type(rng, iec_only);
                if t != Type::Bool {
                    break t;
                }
            })
        }
        Generic::Any => Some(pick_type(rng, iec_only)),
        // matiec has counters of INT, DINT, LINT and UDINT only (CTU, CTU_DINT...).
        Generic::Real => Some(if rng.random_bool(0.5) { Type::Real } else { Type::LReal }),
        Generic::Bits => Some([Type::Byte, Type::Word, Type::DWord][rng.random_range(0..3)]),
        Generic::Integer => Some(pick_admitted(rng, Generic::Integer)),
        Generic::Logic if rng.random_bool(0.6) => Some(Type::Bool),
        Generic::Logic => Some([Type::Byte, Type::Word, Type::DWord][rng.random_range(0..3)]),
        Generic::Int if iec_only => Some([Type::Int, Type::DInt, Type::LInt, Type::UDInt][rng.random_range(0..4)]),
        Generic::Int => Some(pick_admitted(rng, Generic::Int)),
    }
}

/// Every output of planned block `j`, with whether it is delayed.
fn outputs_of(plan: &[Planned], macros: &[MacroSig], j: usize) -> Vec<(String, Type, bool)> {
    let p = &plan[j];
    match (p.def, p.mac) {
        (Some(def), _) => {
            let mut v: Vec<(String, Type, bool)> =
                def.outputs.iter().map(|o| (o.name.to_string(), p.pin_ty(o.ty), o.delayed)).collect();
            if let Some(vo) = def.var_outputs {
                v.extend((0..p.n_var_out).map(|k| (format!("{}{}", vo.prefix, vo.first + k), Type::Bool, false)));
            }
            v
        }
        (None, Some(m)) => macros[m].outputs.iter().map(|(n, t)| (n.clone(), *t, false)).collect(),
        _ => unreachable!(),
    }
}

/// What the pins of block `j` may read: this scan's signals (the body's own and earlier
/// blocks' outputs), delayed outputs of any block from `j` on, and any block output for a
/// feedback wire.
struct Sources {
    same_scan: Vec<Sig>,
    delayed: Vec<Sig>,
    any_out: Vec<Sig>,
}

fn sources_for(plan: &[Planned], macros: &[MacroSig], avail: &[Sig], j: usize) -> Sources {
    let mut same_scan: Vec<Sig> = avail.to_vec();
    for (jj, p) in plan.iter().enumerate().take(j) {
        for (name, ty, _) in outputs_of(plan, macros, jj) {
            // A macro's output may pass a constant through, which is typed only loosely
            // (a constant, whatever port it passes): it fixes nothing but the 64-bit types.
            let grounded = p.mac.is_none() || loose_ok(ty);
            same_scan.push(Sig { wire: format!("{}.{name}", p.id), ty, grounded });
        }
    }
    let mut delayed: Vec<Sig> = Vec::new();
    let mut any_out: Vec<Sig> = Vec::new();
    for (jj, p) in plan.iter().enumerate() {
        for (name, ty, is_delayed) in outputs_of(plan, macros, jj) {
            let fixed_type = p.def.is_some_and(|d| {
                d.generic == Generic::No || d.outputs.iter().any(|o| o.name == name && o.ty != PinTy::T)
            }) || p.mac.is_some();
            let s = Sig {
                wire: format!("{}.{name}", p.id),
                ty,
                grounded: (jj < j || fixed_type) && (p.mac.is_none() || loose_ok(ty)),
            };
            if is_delayed && jj >= j {
                delayed.push(s.clone());
            }
            // A macro output may pass a constant through, and a feedback wire needs a signal.
            if p.mac.is_none() {
                any_out.push(s);
            }
        }
    }
    Sources { same_scan, delayed, any_out }
}

/// The pins of planned block `p` that get a wire or a constant (name, type, is a T pin): an
/// input with a default is left open three times in ten.
fn pins_of<R: Rng>(rng: &mut R, p: &Planned, macros: &[MacroSig]) -> Vec<(String, Type, bool)> {
    let mut pins: Vec<(String, Type, bool)> = Vec::new();
    match (p.def, p.mac) {
        (Some(def), _) => {
            for i in def.inputs {
                if i.default.is_some() && rng.random_bool(0.3) {
                    continue;
                }
                pins.push((i.name.to_string(), p.pin_ty(i.ty), i.ty == PinTy::T));
            }
            if let Some(v) = def.var_inputs {
                for k in 0..p.n_var_in {
                    pins.push((format!("{}{}", v.prefix, v.first + k), p.pin_ty(v.ty), v.ty == PinTy::T));
                }
            }
        }
        (None, Some(m)) => {
            for (name, ty, has_default) in &macros[m].inputs {
                if *has_default && rng.random_bool(0.3) {
                    continue;
                }
                pins.push((name.clone(), *ty, false));
            }
        }
        _ => unreachable!(),
    }
    pins
}

/// Planned block `j` as a JSON object: its pins wired, its type when it needs one (or one
/// time in five), its parameters and negated pins.
fn block_object<R: Rng>(
    rng: &mut R,
    plan: &[Planned],
    macros: &[MacroSig],
    j: usize,
    sources: &Sources,
    iec_only: bool,
) -> String {
    let p = &plan[j];
    let pins = pins_of(rng, p, macros);
    let mut wires = Vec::new();
    let mut grounded_t = false;
    for (name, ty, is_t) in &pins {
        let (text, grounded) = pin_wire(rng, p.def.map(|d| d.kind), (name, *ty), sources, iec_only);
        grounded_t |= *is_t && grounded;
        wires.push(format!("\"{name}\": {text}"));
    }
    // EN on some blocks: not on a DELAY, which cannot honour one, nor around one; for matiec
    // not on NOT, whose call with formal parameters (`NOT(EN := ...)`) its parser reads as the
    // operator.
    let can_gate = p.def.map_or_else(
        || !macros[p.mac.unwrap_or(0)].has_delay,
        |d| d.kind != Kind::Delay && !(iec_only && d.kind == Kind::Not),
    );
    if can_gate && rng.random_bool(0.1) {
        let (text, _) = pin_wire(rng, None, ("EN", Type::Bool), sources, iec_only);
        wires.push(format!("\"EN\": {text}"));
    }
    let mut obj = format!(
        "{{\"id\": \"{}\", \"type\": \"{}\", \"inputs\": {{{}}}",
        p.id,
        p.def.map(|d| d.name.to_string()).unwrap_or_else(|| macros[p.mac.unwrap_or(0)].name.clone()),
        wires.join(", ")
    );
    if let Some(def) = p.def {
        if let Some(t) = p.t
            && (!grounded_t || rng.random_bool(0.2))
        {
            obj.push_str(&format!(", \"data_type\": \"{}\"", t.name()));
        }
        obj.push_str(&params_of(rng, p, def, iec_only));
        // Negated BOOL inputs, wired or left at their default.
        let bool_pins = def
            .inputs
            .iter()
            .filter(|i| i.default.is_some() || pins.iter().any(|(n, _, _)| n == i.name))
            .map(|i| (i.name.to_string(), p.pin_ty(i.ty)))
            .chain(
                pins.iter().filter(|(n, _, _)| def.inputs.iter().all(|i| i.name != n)).map(|(n, t, _)| (n.clone(), *t)),
            )
            .filter(|(_, t)| *t == Type::Bool);
        // And negated BOOL outputs (not the delayed ones, which cannot be).
        let bool_outs = outputs_of(plan, macros, j).into_iter().filter(|(_, t, delayed)| *t == Type::Bool && !delayed);
        let negated: Vec<String> = bool_pins
            .chain(bool_outs.map(|(n, t, _)| (n, t)))
            .filter(|_| rng.random_bool(0.15))
            .map(|(n, _)| format!("\"{n}\""))
            .collect();
        if !negated.is_empty() {
            obj.push_str(&format!(", \"negated\": [{}]", negated.join(", ")));
        }
    }
    if let Some(m) = p.mac {
        // A macro instance's BOOL ports, negated as a library block's pins are.
        let ins = pins.iter().filter(|(_, t, _)| *t == Type::Bool).map(|(n, _, _)| n.clone());
        let outs = macros[m].outputs.iter().filter(|(_, t)| *t == Type::Bool).map(|(n, _)| n.clone());
        let negated: Vec<String> =
            ins.chain(outs).filter(|_| rng.random_bool(0.15)).map(|n| format!("\"{n}\"")).collect();
        if !negated.is_empty() {
            obj.push_str(&format!(", \"negated\": [{}]", negated.join(", ")));
        }
    }
    obj.push('}');
    obj
}

/// What pin `name` of type `ty` of a block of `kind` reads, as JSON: a signal of `sources`
/// (this scan's, a delayed output, a feedback wire) or a constant; and whether the signal's
/// type is grounded.
fn pin_wire<R: Rng>(
    rng: &mut R,
    kind: Option<Kind>,
    (name, ty): (&str, Type),
    sources: &Sources,
    iec_only: bool,
) -> (String, bool) {
    let string_n = string_position(kind, name);
    let choice = if iec_only && constant_only(kind, name) { 0 } else { rng.random_range(0..10) };
    let pick = |v: &[Sig], rng: &mut R| -> Option<Sig> {
        let c: Vec<&Sig> = v.iter().filter(|s| s.ty == ty).collect();
        (!c.is_empty()).then(|| c[rng.random_range(0..c.len())].clone())
    };
    let wire = match choice {
        0..=2 => None,
        3..=6 => pick(&sources.same_scan, rng),
        7 => pick(&sources.delayed, rng),
        _ => pick(&sources.any_out, rng).map(|s| {
            let init = if rng.random_bool(0.5) { format!(", \"init\": {}", constant(rng, ty)) } else { String::new() };
            Sig {
                wire: format!("{{\"from\": \"{}\", \"feedback\": true{init}}}", s.wire),
                ty: s.ty,
                grounded: s.grounded,
            }
        }),
    };
    match wire {
        Some(s) => {
            let text = if s.wire.starts_with('{') { s.wire } else { format!("\"{}\"", s.wire) };
            (text, s.grounded)
        }
        None => {
            let text = constant_for(rng, kind, (name, ty), iec_only, string_n);
            (text, false)
        }
    }
}

/// Whether pin `name` of a block of `kind` is a string position or length: one past 127 is
/// undefined in matiec's C (its length is a signed byte).
fn string_position(kind: Option<Kind>, name: &str) -> bool {
    matches!(kind, Some(Kind::Left | Kind::Right | Kind::Mid | Kind::Insert | Kind::Delete | Kind::Replace))
        && matches!(name, "l" | "p")
}

/// Whether pin `name` of a block of `kind` takes a constant of [`constant_for`] in the IEC set:
/// a signal could give it a value matiec's C leaves undefined (a shift count of 32 or more or
/// below 0, a string position past 127, a divisor of 0 or -1).
fn constant_only(kind: Option<Kind>, name: &str) -> bool {
    let shift_n = matches!(kind, Some(Kind::Shl | Kind::Shr | Kind::Rol | Kind::Ror)) && name == "n";
    let divisor = matches!(kind, Some(Kind::Div | Kind::Mod)) && name == "in2";
    shift_n || divisor || string_position(kind, name)
}

/// A constant for pin `name` of type `ty` of a block of `kind`: the values that exercise the
/// block (indices just out of range, presets and periods around 0, counts around a word's
/// width) and, for the IEC set, none that matiec's C leaves undefined.
fn constant_for<R: Rng>(
    rng: &mut R,
    kind: Option<Kind>,
    (name, ty): (&str, Type),
    iec_only: bool,
    string_n: bool,
) -> String {
    match (kind, name) {
        (Some(Kind::Mux), "k") => rng.random_range(-1i64..=4).to_string(),
        (Some(Kind::Ton | Kind::Tof | Kind::Tp), "pt") => duration(rng, -20, 60),
        (Some(Kind::Saw), "period") => rng.random_range(-5i64..=80).to_string(),
        (Some(Kind::Random), "lo" | "hi") => rng.random_range(-3i64..=6).to_string(),
        (Some(Kind::Shl | Kind::Shr | Kind::Rol | Kind::Ror), "n") if iec_only => {
            rng.random_range(0i64..=31).to_string()
        }
        (Some(Kind::Shl | Kind::Shr | Kind::Rol | Kind::Ror), "n") => rng.random_range(-3i64..=40).to_string(),
        // A divisor that is never 0 (a trap in matiec's C) nor -1 (MIN / -1 overflows).
        (Some(Kind::Div | Kind::Mod), "in2") if iec_only => [2, 3, 5, 7, 10, 100][rng.random_range(0..6)].to_string(),
        // DELETE's and REPLACE's position 0 is undefined in matiec's C.
        (Some(Kind::Delete | Kind::Replace), "p") if iec_only => rng.random_range(1i64..=12).to_string(),
        (Some(_), "l" | "p") if string_n => rng.random_range(-1i64..=12).to_string(),
        _ => constant(rng, ty),
    }
}

/// The `params` of a planned library block, as `, "params": {...}` (or nothing).
fn params_of<R: Rng>(rng: &mut R, p: &Planned, def: &BlockDef, iec_only: bool) -> String {
    let mut params = Vec::new();
    // Beremiz's generator drops a function block instance's initial values (an SR set at the
    // start is not in its ST); MEMORY and DELAY are not in the IEC set.
    let init_kept = !iec_only || !matches!(def.kind, Kind::Sr | Kind::Rs);
    if def.params.contains(&"init") && init_kept && rng.random_bool(0.5) {
        params.push(format!("\"init\": {}", constant(rng, p.t.unwrap_or(Type::Bool))));
    }
    if def.params.contains(&"seed") && rng.random_bool(0.5) {
        params.push(format!("\"seed\": {}", rng.random_range(0u64..1000)));
    }
    if def.var_outputs.is_some() {
        params.push(format!("\"n\": {}", p.n_var_out));
    }
    if params.is_empty() { String::new() } else { format!(", \"params\": {{{}}}", params.join(", ")) }
}

/// A random well-typed diagram (JSON text) from `seed`.
pub fn diagram(seed: u64, opts: &GenOptions) -> String {
    diagram_from(&mut ChaCha8Rng::seed_from_u64(seed), seed, opts)
}

/// A well-typed diagram whose every choice is drawn from `rng` (the fuzzer drives it with its
/// input bytes through [`ByteRng`]); `seed` only names it.
pub fn diagram_from<R: Rng>(rng: &mut R, seed: u64, opts: &GenOptions) -> String {
    // Macros, each may instance the ones before it.
    let mut macros: Vec<MacroSig> = Vec::new();
    let mut macro_json = Vec::new();
    for m in 0..rng.random_range(0..=opts.max_macros) {
        let name = format!("M{m}");
        let n_in = rng.random_range(0..=3);
        let inputs: Vec<(String, Type, bool)> =
            (0..n_in).map(|k| (format!("p{k}"), pick_type(rng, opts.iec_only), rng.random_bool(0.3))).collect();
        // An instance may bind a constant to a port: see `loose_ok`.
        let ports: Vec<Sig> =
            inputs.iter().map(|(n, t, _)| Sig { wire: n.clone(), ty: *t, grounded: loose_ok(*t) }).collect();
        let n_body = rng.random_range(0..=5);
        let (blocks, sigs) = body(rng, &ports, n_body, &macros, opts.iec_only);
        let mut outputs = Vec::new();
        let mut out_json = Vec::new();
        for k in 0..rng.random_range(1..=3) {
            let ty = pick_type(rng, opts.iec_only);
            let cands: Vec<&Sig> = sigs.iter().chain(ports.iter()).filter(|s| s.ty == ty).collect();
            // Pass-through ports (an input bound straight to an output) are deliberately common.
            let from = if !cands.is_empty() && rng.random_bool(0.8) {
                format!("\"{}\"", cands[rng.random_range(0..cands.len())].wire)
            } else {
                constant(rng, ty)
            };
            out_json.push(format!("{{\"name\": \"o{k}\", \"type\": \"{}\", \"from\": {from}}}", ty.name()));
            outputs.push((format!("o{k}"), ty));
        }
        let in_json: Vec<String> = inputs
            .iter()
            .map(|(n, t, d)| {
                let def = if *d { format!(", \"default\": {}", constant(rng, *t)) } else { String::new() };
                format!("{{\"name\": \"{n}\", \"type\": \"{}\"{def}}}", t.name())
            })
            .collect();
        macro_json.push(format!(
            "{{\"name\": \"{name}\", \"inputs\": [{}], \"outputs\": [{}], \"blocks\": [{}]}}",
            in_json.join(", "),
            out_json.join(", "),
            blocks.join(",\n  ")
        ));
        let has_delay = blocks.iter().any(|b| {
            b.contains("\"type\": \"DELAY\"")
                || macros.iter().any(|m| m.has_delay && b.contains(&format!("\"type\": \"{}\"", m.name)))
        });
        macros.push(MacroSig { name, inputs, outputs, has_delay });
    }
    // The program's inputs and body.
    let n_in = rng.random_range(0..=4);
    let inputs: Vec<(String, Type)> = (0..n_in).map(|k| (format!("x{k}"), pick_type(rng, opts.iec_only))).collect();
    let avail: Vec<Sig> = inputs.iter().map(|(n, t)| Sig { wire: n.clone(), ty: *t, grounded: true }).collect();
    let n_blocks = rng.random_range(1..=opts.max_blocks.max(1));
    let (blocks, sigs) = body(rng, &avail, n_blocks, &macros, opts.iec_only);
    let mut outs = Vec::new();
    for (k, s) in sigs.iter().enumerate().filter(|_| rng.random_bool(0.3)) {
        outs.push(format!("{{\"name\": \"y{k}\", \"type\": \"{}\", \"from\": \"{}\"}}", s.ty.name(), s.wire));
    }
    outs.push(format!("{{\"name\": \"yc\", \"type\": \"REAL\", \"from\": {}}}", rng.random_range(-3i64..=3)));
    let in_json: Vec<String> =
        inputs.iter().map(|(n, t)| format!("{{\"name\": \"{n}\", \"type\": \"{}\"}}", t.name())).collect();
    format!(
        "{{\"fbd\": 3, \"name\": \"gen-{seed}\", \"cycle_ms\": {},\n \"inputs\": [{}],\n \"outputs\": [{}],\n \"macros\": [{}],\n \"blocks\": [\n  {}\n ]}}\n",
        [1, 5, 10, 7][rng.random_range(0..4)],
        in_json.join(", "),
        outs.join(", "),
        macro_json.join(",\n "),
        blocks.join(",\n  ")
    )
}

/// Random numbers read from a byte string (zeros once it is used up): lets a coverage-guided
/// fuzzer steer each choice of [`diagram_from`] with its input.
pub struct ByteRng<'a> {
    bytes: &'a [u8],
}

impl<'a> ByteRng<'a> {
    /// Draws from `bytes`.
    pub fn new(bytes: &'a [u8]) -> ByteRng<'a> {
        ByteRng { bytes }
    }
}

impl rand::TryRng for ByteRng<'_> {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        let n = dst.len().min(self.bytes.len());
        dst[..n].copy_from_slice(&self.bytes[..n]);
        dst[n..].fill(0);
        self.bytes = &self.bytes[n..];
        Ok(())
    }
}
