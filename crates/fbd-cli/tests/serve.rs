//! `fbd serve` end to end with a Modbus client nobody here wrote (PyPI `pymodbus`, installed by
//! the README's test command): a game of 2048 through the coils, every move judged by the
//! reference; an unmapped address answered with ILLEGAL DATA ADDRESS; writes refused with
//! ILLEGAL FUNCTION unless `--allow-write`. Traffic only to 127.0.0.1, bounded in moves and time.

#[allow(dead_code)] // each test file uses what it needs
mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::root;

/// `fbd serve` on a free loopback port; the child and its port.
fn serve(extra: &[&str]) -> (Child, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fbd"))
        .current_dir(root())
        .args(["serve", "--modbus", "127.0.0.1:0", "--seed", "3", "--for-seconds", "120"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("fbd serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the listening line");
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    (child, port)
}

fn play(port: u16, moves: u32) -> Vec<serde_json::Value> {
    let out = Command::new("python3")
        .arg(root().join("tools/modbus/play2048.py"))
        .args(["127.0.0.1", &port.to_string(), &moves.to_string()])
        .output()
        .expect("python3 runs (the Modbus test needs `pip install pymodbus`)");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "the client failed (is pymodbus installed?):\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

fn board(v: &serde_json::Value) -> ref2048::Board {
    let cells: Vec<u32> = v.as_array().expect("16 cells").iter().map(|c| c.as_u64().expect("a tile") as u32).collect();
    ref2048::from_values(&cells.try_into().expect("16")).expect("a board of powers of two")
}

#[test]
fn a_modbus_client_plays_2048_judged_by_the_reference() {
    let (mut child, port) = serve(&["--allow-write"]);
    let lines = play(port, 40);
    let _ = child.kill();
    let _ = child.wait();
    let dirs = [ref2048::Dir::Up, ref2048::Dir::Right, ref2048::Dir::Down, ref2048::Dir::Left];
    let mut moves = 0;
    for l in &lines {
        if l.get("dir").is_none() {
            continue;
        }
        let dir = dirs[l["dir"].as_u64().expect("dir") as usize];
        let gain = l["gain"].as_i64().expect("gain");
        fbd2048_game::check_command(
            board(&l["before"]),
            dir,
            board(&l["after"]),
            gain,
            l["over"].as_bool().expect("over"),
        )
        .unwrap_or_else(|m| panic!("move {moves}: {m:?}"));
        moves += 1;
    }
    assert!(moves >= 10, "{moves} moves judged:\n{lines:?}");
    let last = lines.last().expect("a last line");
    assert_eq!(last["bad_address_exception"], 2, "ILLEGAL DATA ADDRESS for an unmapped register");
}

#[test]
fn writes_are_refused_without_allow_write() {
    let (mut child, port) = serve(&[]);
    let lines = play(port, 1);
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(lines[0]["write_exception"], 1, "ILLEGAL FUNCTION: {lines:?}");
    assert!(lines[0]["board"].as_array().expect("cells").iter().all(|c| c == 0), "nothing started: {lines:?}");
}

/// An OpenPLC project's located variables answer where OpenPLC serves them: `%IX0.0` discrete
/// input 0, `%QX0.1` coil 1; a port without an address is not served.
#[test]
fn located_variables_are_served_at_openplc_s_addresses() {
    let out = Command::new(env!("CARGO_BIN_EXE_fbd"))
        .current_dir(root())
        .args(["serve", "crates/fbd-plcopen/tests/data/lights.xml", "--print-map"])
        .output()
        .expect("runs");
    let map = String::from_utf8_lossy(&out.stdout);
    for want in [
        "discrete input          0      1  read    b1 (BOOL)",
        "coil                    1      1  read    green (BOOL)",
    ] {
        assert!(map.contains(want), "{want} in\n{map}");
    }
    assert!(!map.contains("count"), "no address, not served:\n{map}");
}
