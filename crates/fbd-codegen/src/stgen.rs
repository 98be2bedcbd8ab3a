//! A plan as straight-line IEC 61131-3 Structured Text: the same work for another PLC's VM
//! (the IronPLC comparison, `fbd bench --all --ironplc`). One variable per slot (`b12` BOOL,
//! `i34` LINT, initialised from the plan, so a constant is an initialised variable), one
//! statement per instruction in the plan's order, and the end-of-scan copies (feedback wires,
//! DELAY, MEMORY.prev) as two-phase assignments, as the executor makes them. The operators are
//! the plain ones a hand-written program would use: what the executor checks at run time
//! (overflow, MOD by zero) is not checked here, so a comparison is fair on data where no fault
//! occurs, as in the synthetic shapes. Plain logic, comparison, ADD/SUB/MOD, selection and
//! memory are supported (what the synthetic benchmark diagrams use); others are refused by name.

use std::fmt::Write;

use fbd_model::types::Type;
use fbd_plan::ScanPlan;
use fbd_plan::instr::{CmpOp, Instr, truth_table};

fn cmp(m: u8) -> &'static str {
    match CmpOp::from_mask(m) {
        Some(CmpOp::Eq) => "=",
        Some(CmpOp::Ne) => "<>",
        Some(CmpOp::Gt) => ">",
        Some(CmpOp::Ge) => ">=",
        Some(CmpOp::Lt) => "<",
        Some(CmpOp::Le) => "<=",
        None => "?",
    }
}

/// The statement of a gate writing `o` from `a`, `b`, `c`: the plain operator for the tables the
/// compiler emits for AND, OR, XOR, NOT, MOVE and SEL/MEMORY, else the table's disjunctive form.
fn gate(t: u8, a: &str, b: &str, c: &str, o: &str) -> String {
    type Table = fn(bool, bool, bool) -> bool;
    let binary: [(Table, &str); 3] = [(|a, b, _| a & b, "AND"), (|a, b, _| a | b, "OR"), (|a, b, _| a ^ b, "XOR")];
    if let Some((_, op)) = binary.iter().find(|(f, _)| truth_table(*f) == t) {
        return format!("{o} := {a} {op} {b};");
    }
    if t == truth_table(|a, _, _| !a) {
        return format!("{o} := NOT {a};");
    }
    if t == truth_table(|a, _, _| a) {
        return format!("{o} := {a};");
    }
    if t == truth_table(|a, b, c| if a { c } else { b }) {
        return if b == o {
            format!("IF {a} THEN {o} := {c}; END_IF;")
        } else {
            format!("IF {a} THEN {o} := {c}; ELSE {o} := {b}; END_IF;")
        };
    }
    // Bit k of the table is the value for a = k & 1, b = k & 2, c = k & 4.
    let terms: Vec<String> = (0..8)
        .filter(|k| t >> k & 1 == 1)
        .map(|k: u8| {
            let lit = |bit: u8, v: &str| if k & bit != 0 { v.to_string() } else { format!("NOT {v}") };
            format!("({} AND {} AND {})", lit(1, a), lit(2, b), lit(4, c))
        })
        .collect();
    format!("{o} := {};", if terms.is_empty() { "FALSE".into() } else { terms.join(" OR ") })
}

/// The statement of one instruction, or the instruction's name if it has none here.
fn statement(ins: &Instr) -> Result<String, String> {
    let b = |i: u32| format!("b{i}");
    let n = |i: u32| format!("i{i}");
    Ok(match *ins {
        Instr::Gate { t, a, b: x, c, o } => gate(t, &b(a), &b(x), &b(c), &b(o)),
        Instr::CmpI { m, a, b: x, o } => format!("{} := {} {} {};", b(o), n(a), cmp(m), n(x)),
        Instr::AddSubI { sub, a, b: x, o } => format!("{} := {} {} {};", n(o), n(a), if sub { "-" } else { "+" }, n(x)),
        Instr::ModI { a, b: x, o } => format!("{} := {} MOD {};", n(o), n(a), n(x)),
        Instr::SelI { a, b: x, o, .. } if a == x => format!("{} := {};", n(o), n(a)),
        Instr::SelI { g, a, b: x, o } if a == o => format!("IF {} THEN {} := {}; END_IF;", b(g), n(o), n(x)),
        Instr::SelI { g, a, b: x, o } => {
            format!("IF {} THEN {} := {}; ELSE {} := {}; END_IF;", b(g), n(o), n(x), n(o), n(a))
        }
        ref other => return Err(other.name()),
    })
}

/// The plan as one `PROGRAM main`.
pub fn emit(plan: &ScanPlan) -> Result<String, String> {
    if !plan.init_real.is_empty() || !plan.rng_keys.is_empty() {
        return Err("REAL slots and RANDOM blocks have no Structured Text form here".into());
    }
    let mut body = String::with_capacity(plan.code.len() * 32);
    let mut unsupported: Vec<String> = Vec::new();
    let copy = |s: &mut String, ty: Type, to: u32, from: u32| {
        let v = if ty == Type::Bool { 'b' } else { 'i' };
        let _ = writeln!(s, "  {v}{to} := {v}{from};");
    };
    for m in &plan.commits {
        copy(&mut body, m.ty, m.to, m.stage);
    }
    for ins in &plan.code {
        match statement(ins) {
            Ok(s) => {
                body.push_str("  ");
                body.push_str(&s);
                body.push('\n');
            }
            Err(name) if !unsupported.contains(&name) => unsupported.push(name),
            Err(_) => {}
        }
    }
    if !unsupported.is_empty() {
        return Err(format!("no Structured Text form for {}", unsupported.join(", ")));
    }
    for m in &plan.commits {
        copy(&mut body, m.ty, m.stage, m.from);
    }
    let mut st = String::with_capacity(body.len() + 24 * (plan.init_bool.len() + plan.init_int.len()) + 64);
    st.push_str("PROGRAM main\n  VAR\n");
    for (i, v) in plan.init_bool.iter().enumerate() {
        let _ = writeln!(st, "    b{i} : BOOL{};", if *v { " := TRUE" } else { "" });
    }
    for (i, v) in plan.init_int.iter().enumerate() {
        let init = if *v != 0 { format!(" := {v}") } else { String::new() };
        let _ = writeln!(st, "    i{i} : LINT{init};");
    }
    st.push_str("  END_VAR\n");
    st.push_str(&body);
    st.push_str("END_PROGRAM\n");
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_is_declared_and_every_instruction_is_a_statement() {
        for text in [crate::synth::diagram(300, 2), crate::synth::wide(200, 2), crate::synth::mod_chain(30)] {
            let plan = fbd_compiler::compile(&text).expect("compiles");
            let st = emit(&plan).expect("supported");
            let decls = st.lines().filter(|l| l.contains(" : BOOL") || l.contains(" : LINT")).count();
            assert_eq!(decls, plan.init_bool.len() + plan.init_int.len());
            let statements = st.lines().filter(|l| l.trim_end().ends_with(';') && !l.contains(" : ")).count();
            assert_eq!(statements, plan.code.len() + 2 * plan.commits.len());
            assert!(st.starts_with("PROGRAM main\n") && st.ends_with("END_PROGRAM\n"));
        }
    }

    #[test]
    fn gates_read_as_their_operators() {
        let t = |f: fn(bool, bool, bool) -> bool| truth_table(f);
        assert_eq!(gate(t(|a, b, _| a & b), "b1", "b2", "b3", "b0"), "b0 := b1 AND b2;");
        assert_eq!(gate(t(|a, _, _| !a), "b1", "b2", "b3", "b0"), "b0 := NOT b1;");
        assert_eq!(gate(t(|a, b, c| if a { c } else { b }), "b1", "b0", "b3", "b0"), "IF b1 THEN b0 := b3; END_IF;");
        // Any other table: one term per true row (here: exactly a and not b, c ignored).
        let g = gate(t(|a, b, _| a & !b), "x", "y", "z", "o");
        assert_eq!(g, "o := (x AND NOT y AND NOT z) OR (x AND NOT y AND z);");
        assert_eq!(gate(0, "x", "y", "z", "o"), "o := FALSE;");
    }

    #[test]
    fn instructions_without_a_form_are_named() {
        let text = r#"{"fbd":1,"inputs":[{"name":"x","type":"INT"}],
            "blocks":[{"id":"m","type":"MUL","inputs":{"in1":"x","in2":3}}]}"#;
        let e = emit(&fbd_compiler::compile(text).expect("compiles")).expect_err("MUL");
        assert!(e.starts_with("no Structured Text form for Mul"), "{e}");
        let random = r#"{"fbd":1,"blocks":[{"id":"r","type":"RANDOM","inputs":{"hi":5}}]}"#;
        let e = emit(&fbd_compiler::compile(random).expect("compiles")).expect_err("RANDOM");
        assert!(e.contains("RANDOM"), "{e}");
    }
}
