//! Writes a synthetic benchmark diagram of N blocks to stdout:
//! `cargo run -p fbd-engine --example synth -- 10000 > /tmp/s.json`

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    print!("{}", fbd_engine::synth::diagram(n, 1));
}
