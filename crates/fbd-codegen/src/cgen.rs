//! A plan as straight-line C: the native lower bound of a benchmark. Each instruction becomes
//! one C statement over the same slot arrays (overflow checked like the executor, faults
//! counted), in the plan's order, so `cc -O2` of the output computes exactly what the executor
//! computes, without dispatch. `fbd bench --native-c` compiles and times it; a test compares
//! its state with the executor's after the same scans. Only the instructions of plain logic,
//! comparison, integer arithmetic, selection and memory are supported (what the synthetic
//! benchmark diagrams use); others are refused by name.

use std::fmt::Write;

use fbd_model::types::Type;
use fbd_plan::ScanPlan;
use fbd_plan::instr::{CmpOp, Instr, truth_table};

/// How many statements go into one C function (gcc is slow on huge functions).
const PER_FUNCTION: usize = 2000;

/// The C operator of a [`CmpOp::mask`].
fn cmp(m: u8) -> &'static str {
    CmpOp::from_mask(m)
        .map(|op| match op {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
        })
        .unwrap_or("?")
}

/// The C expression of a gate over `a`, `b`, `c`: the plain operator for the tables the
/// compiler emits for AND, OR, XOR, NOT, MOVE and SEL/MEMORY (so the C compiler sees what a
/// hand-written program would say), else the table lookup itself.
fn gate(t: u8, a: &str, b: &str, c: &str) -> String {
    type Table = fn(bool, bool, bool) -> bool;
    type Expr = fn(&str, &str, &str) -> String;
    let known: [(Table, Expr); 6] = [
        (|a, b, _| a & b, |a, b, _| format!("{a}&{b}")),
        (|a, b, _| a | b, |a, b, _| format!("{a}|{b}")),
        (|a, b, _| a ^ b, |a, b, _| format!("{a}^{b}")),
        (|a, _, _| !a, |a, _, _| format!("!{a}")),
        (|a, _, _| a, |a, _, _| a.to_string()),
        (|a, b, c| if a { c } else { b }, |a, b, c| format!("{a}?{c}:{b}")),
    ];
    match known.iter().find(|(f, _)| truth_table(*f) == t) {
        Some((_, e)) => e(a, b, c),
        None => format!("({t}>>({a}|{b}<<1|{c}<<2))&1"),
    }
}

/// The C statement of one instruction, or the instruction's name if it has none here.
fn statement(ins: &Instr) -> Result<String, String> {
    Ok(match *ins {
        Instr::Gate { t, a, b, c, o } => {
            format!("B[{o}]={};", gate(t, &format!("B[{a}]"), &format!("B[{b}]"), &format!("B[{c}]")))
        }
        Instr::CmpI { m, a, b, o } => format!("B[{o}]=N[{a}]{}N[{b}];", cmp(m)),
        Instr::AddSubI { sub, a, b, o } => {
            let f = if sub { "sub" } else { "add" };
            format!("if(__builtin_{f}_overflow(N[{a}],N[{b}],&N[{o}]))F++;")
        }
        Instr::ModI { a, b, o } => {
            format!("if(N[{b}]==0){{N[{o}]=0;F++;}}else if(N[{b}]==-1)N[{o}]=0;else N[{o}]=N[{a}]%N[{b}];")
        }
        Instr::SelI { a, b, o, .. } if a == b => format!("N[{o}]=N[{a}];"),
        Instr::SelI { g, a, b, o } if a == o => format!("if(B[{g}])N[{o}]=N[{b}];"),
        Instr::SelI { g, a, b, o } => format!("N[{o}]=B[{g}]?N[{b}]:N[{a}];"),
        ref other => return Err(other.name()),
    })
}

/// The plan as a C program: `prog SCANS` runs the scans, then prints the time per scan in ns
/// and [`state_checksum`] of the state.
pub fn emit(plan: &ScanPlan) -> Result<String, String> {
    if !plan.init_real.is_empty() || !plan.rng_keys.is_empty() {
        return Err("REAL slots and RANDOM blocks have no C form here".into());
    }
    let mut c = String::with_capacity(plan.code.len() * 40 + 4096);
    c.push_str("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <time.h>\n");
    let _ = writeln!(
        c,
        "static unsigned char B[{}];\nstatic int64_t N[{}];\nstatic uint64_t F;",
        plan.init_bool.len().max(1),
        plan.init_int.len().max(1)
    );
    let mut unsupported: Vec<String> = Vec::new();
    let parts = plan.code.chunks(PER_FUNCTION).count();
    for (k, chunk) in plan.code.chunks(PER_FUNCTION).enumerate() {
        let _ = writeln!(c, "static void part{k}(void){{");
        for ins in chunk {
            match statement(ins) {
                Ok(s) => {
                    c.push_str(&s);
                    c.push('\n');
                }
                Err(name) if !unsupported.contains(&name) => unsupported.push(name),
                Err(_) => {}
            }
        }
        c.push_str("}\n");
    }
    if !unsupported.is_empty() {
        return Err(format!("no C form for {}", unsupported.join(", ")));
    }
    let copy = |c: &mut String, ty: Type, to: u32, from: u32| {
        let arr = if ty == Type::Bool { 'B' } else { 'N' };
        let _ = writeln!(c, "{arr}[{to}]={arr}[{from}];");
    };
    c.push_str("static void scan(void){\n");
    for m in &plan.commits {
        copy(&mut c, m.ty, m.to, m.stage);
    }
    for k in 0..parts {
        let _ = writeln!(c, "part{k}();");
    }
    for m in &plan.commits {
        copy(&mut c, m.ty, m.stage, m.from);
    }
    c.push_str("}\nstatic void init(void){\n");
    for (i, v) in plan.init_bool.iter().enumerate() {
        if *v {
            let _ = writeln!(c, "B[{i}]=1;");
        }
    }
    for (i, v) in plan.init_int.iter().enumerate() {
        if *v != 0 {
            let _ = writeln!(c, "N[{i}]={v}LL;");
        }
    }
    c.push_str(
        r#"}
int main(int argc,char**argv){
long scans=argc>1?atol(argv[1]):1000;
init();
struct timespec t0,t1;clock_gettime(CLOCK_MONOTONIC,&t0);
for(long s=0;s<scans;s++)scan();
clock_gettime(CLOCK_MONOTONIC,&t1);
double ns=(t1.tv_sec-t0.tv_sec)*1e9+(t1.tv_nsec-t0.tv_nsec);
uint64_t h=0xcbf29ce484222325ULL;
for(unsigned long i=0;i<sizeof N/sizeof N[0];i++){h^=(uint64_t)N[i];h*=0x100000001b3ULL;}
for(unsigned long i=0;i<sizeof B/sizeof B[0];i++){h^=B[i];h*=0x100000001b3ULL;}
printf("%.3f %016llx %llu\n",ns/scans,(unsigned long long)h,(unsigned long long)F);
return 0;}
"#,
    );
    Ok(c)
}

/// The checksum the C program prints: FNV-1a style over the INT slots, then the BOOL slots
/// (an executor's state's `ints` and `bools`).
pub fn state_checksum(ints: &[i64], bools: &[bool]) -> u64 {
    let mut h = fbd_model::fnv::Fnv64::new();
    // (The C arrays have at least one element each.)
    let ints = if ints.is_empty() { vec![0] } else { ints.iter().map(|&i| i as u64).collect() };
    let bools = if bools.is_empty() { vec![0] } else { bools.iter().map(|&b| b as u64).collect() };
    for v in ints.into_iter().chain(bools) {
        h.write_word(v);
    }
    h.finish()
}
