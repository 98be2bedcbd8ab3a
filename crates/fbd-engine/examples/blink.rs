//! Loads `examples/blinker.json`, presses start, and prints when the lamps change.
//!
//! `cargo run -p fbd-engine --example blink`

use fbd_engine::{CompileOptions, Runtime, Value, compile_file};

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/blinker.json");
    let plan = match compile_file(path, &CompileOptions::default()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut rt = Runtime::new(plan);
    rt.set_input("start", Value::Bool(true)).expect("input exists");
    rt.step();
    rt.set_input("start", Value::Bool(false)).expect("input exists");
    for _ in 0..1200 {
        rt.step();
        if rt.outputs_changed() {
            let t = rt.clock_us() / 1000;
            let o: Vec<String> =
                rt.plan().outputs.iter().zip(rt.outputs()).map(|(p, v)| format!("{}={v}", p.name)).collect();
            println!("{t:5} ms  {}", o.join("  "));
        }
    }
}
