//! fbd2048: launches the HMI. Until the HMI lands (issue "The HMI and the scan-cycle
//! debugger"), it checks the bundled example and says what to run instead.

fn main() {
    println!("fbd2048: the HMI is not built yet.");
    println!("Meanwhile, the engine and the `fbd` tool are here:");
    println!("  cargo run --release -p fbd-cli --bin fbd -- check examples/blinker.json");
    println!(
        "  cargo run --release -p fbd-cli --bin fbd -- run examples/blinker.json --scans 400 --set start=true@0 --set start=false@1"
    );
}
