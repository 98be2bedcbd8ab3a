//! Writes a synthetic benchmark diagram of N blocks to stdout, of shape `chain` (default),
//! `wide` or `modchain`: `cargo run -p fbd-engine --example synth -- 10000 wide > /tmp/s.json`

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    match std::env::args().nth(2).as_deref() {
        Some("wide") => print!("{}", fbd_engine::synth::wide(n, 1)),
        Some("modchain") => print!("{}", fbd_engine::synth::mod_chain(n)),
        _ => print!("{}", fbd_engine::synth::diagram(n, 1)),
    }
}
