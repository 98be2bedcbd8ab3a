//! Helpers: a one-block program whose pins are program inputs and outputs.

use fbd_engine::{Runtime, Value, compile};

pub fn b(v: bool) -> Value {
    Value::Bool(v)
}
pub fn i(v: i64) -> Value {
    Value::Int(v)
}
pub fn r(v: f64) -> Value {
    Value::Real(v)
}

/// A program with one block `x` of type `ty`: each `(pin, type)` of `ins` is a program input of
/// the same name wired to the pin, each output pin is a program output of the same name.
pub struct Harness {
    pub rt: Runtime,
    ins: Vec<String>,
    outs: Vec<String>,
    scan: usize,
}

impl Harness {
    pub fn new(ty: &str, ins: &[(&str, &str)], outs: &[(&str, &str)], extra: &str) -> Harness {
        let inputs: Vec<String> = ins.iter().map(|(n, t)| format!(r#"{{"name": "{n}", "type": "{t}"}}"#)).collect();
        let wires: Vec<String> = ins.iter().map(|(n, _)| format!(r#""{n}": "{n}""#)).collect();
        let outputs: Vec<String> =
            outs.iter().map(|(n, t)| format!(r#"{{"name": "{n}", "type": "{t}", "from": "x.{n}"}}"#)).collect();
        let text = format!(
            r#"{{"fbd": 1, "cycle_ms": 10, "inputs": [{}], "outputs": [{}],
                "blocks": [{{"id": "x", "type": "{ty}", "inputs": {{{}}}{extra}}}]}}"#,
            inputs.join(","),
            outputs.join(","),
            wires.join(",")
        );
        let plan = compile(&text).unwrap_or_else(|e| panic!("harness for {ty} does not compile:\n{e}\n{text}"));
        Harness {
            rt: Runtime::new(plan),
            ins: ins.iter().map(|(n, _)| n.to_string()).collect(),
            outs: outs.iter().map(|(n, _)| n.to_string()).collect(),
            scan: 0,
        }
    }

    /// Sets the inputs, runs one scan, and returns the outputs.
    pub fn scan(&mut self, ins: &[Value]) -> Vec<Value> {
        for (n, v) in self.ins.iter().zip(ins) {
            self.rt.set_input(n, *v).unwrap_or_else(|e| panic!("{e}"));
        }
        self.rt.step();
        self.scan += 1;
        self.outs.iter().map(|n| self.rt.output(n).expect("output")).collect()
    }

    /// One scan per row: `(inputs, expected outputs)`; reports the failing row.
    pub fn expect(&mut self, rows: &[(&[Value], &[Value])]) {
        for (k, (ins, want)) in rows.iter().enumerate() {
            let scan = self.scan;
            let got = self.scan(ins);
            let same = got.len() == want.len() && got.iter().zip(want.iter()).all(|(a, b)| a.same_bits(*b));
            assert!(
                same,
                "row {k} (scan {scan}, t = {} ms): inputs {ins:?}: expected {want:?}, got {got:?}",
                scan * 10
            );
        }
    }

    /// Faults recorded so far.
    pub fn faults(&self) -> u64 {
        self.rt.faults().total
    }
}

/// Compiles a diagram or panics with its errors.
pub fn plan(text: &str) -> fbd_engine::ScanPlan {
    compile(text).unwrap_or_else(|e| panic!("does not compile:\n{e}"))
}
