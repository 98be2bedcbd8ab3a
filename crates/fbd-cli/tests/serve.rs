//! `fbd serve` end to end with a Modbus client nobody here wrote (PyPI `pymodbus`, installed by
//! the README's test command): a game of 2048 through the coils, every move judged by the
//! reference; an unmapped address answered with ILLEGAL DATA ADDRESS; writes refused with
//! ILLEGAL FUNCTION unless `--allow-write`. Traffic only to 127.0.0.1, bounded in moves and time.

#[allow(dead_code)] // each test file uses what it needs
mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::root;

/// A running `fbd serve` and the loopback ports it said it listens on.
struct Served {
    child: Child,
    modbus: u16,
    http: Option<u16>,
    /// The page's address as printed (with `#token=…` when writes are allowed).
    url: Option<String>,
}

/// `fbd serve ARGS` with Modbus on a free loopback port, and the browser HMI on another one when
/// `web` (else `--http off`); returns once it has printed where it listens.
fn serve(args: &[&str], web: bool, stderr: Stdio) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fbd"))
        .current_dir(root())
        .args(["serve", "--modbus", "127.0.0.1:0", "--http", if web { "127.0.0.1:0" } else { "off" }])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("fbd serve starts");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut port_on_next_line = |says: &str| -> (u16, String) {
        let mut line = String::new();
        out.read_line(&mut line).expect("the listening line");
        assert!(line.starts_with(says), "{says:?} expected: {line:?}");
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        (port, line.trim_end().rsplit(' ').next().unwrap_or("").to_string())
    };
    let modbus = port_on_next_line("modbus: listening on").0;
    let (http, url) = match web.then(|| port_on_next_line("http: the browser HMI on")) {
        Some((p, u)) => (Some(p), Some(u)),
        None => (None, None),
    };
    Served { child, modbus, http, url }
}

impl Served {
    fn http(&self) -> u16 {
        self.http.expect("served with the browser HMI")
    }

    /// The write token in the printed address, if there is one.
    fn token(&self) -> Option<String> {
        self.url.as_deref()?.split_once("#token=").map(|(_, t)| t.to_string())
    }

    /// The live-value socket, opened as the page opens it (with the token it was given, if
    /// any).
    fn socket(
        &self,
        token: Option<&str>,
    ) -> tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>> {
        let query = token.map_or(String::new(), |t| format!("?token={t}"));
        let (ws, _) = tungstenite::connect(format!("ws://127.0.0.1:{}/ws{query}", self.http())).expect("the WebSocket");
        ws
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
    let served = serve(&["--seed", "3", "--for-seconds", "120", "--allow-write"], false, Stdio::null());
    let lines = play(served.modbus, 40);
    served.stop();
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
    let served = serve(&["--seed", "3", "--for-seconds", "120"], false, Stdio::null());
    let lines = play(served.modbus, 1);
    served.stop();
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

/// `fbd serve` of the 2048 game with the browser HMI, on free loopback ports.
fn serve_web(extra: &[&str]) -> Served {
    let args: Vec<&str> = ["--seed", "3", "--for-seconds", "60"].iter().chain(extra).copied().collect();
    serve(&args, true, Stdio::null())
}

/// The next state the browser HMI's WebSocket pushes.
fn next_message(ws: &mut tungstenite::WebSocket<impl std::io::Read + std::io::Write>) -> serde_json::Value {
    let m = ws.read().expect("a message");
    serde_json::from_str(m.to_text().expect("text")).expect("JSON")
}

/// The browser HMI's WebSocket as the page uses it: the page served, the board pushed, Start
/// pressed with the session's token, two tiles placed.
#[test]
fn the_browser_hmi_s_websocket_pushes_the_board_and_takes_presses() {
    use std::io::Read as _;
    let served = serve_web(&["--allow-write"]);
    let port = served.http();
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    std::io::Write::write_all(&mut s, format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").as_bytes())
        .expect("request");
    let mut page = String::new();
    s.read_to_string(&mut page).expect("the page");
    assert!(page.starts_with("HTTP/1.1 200 OK") && page.contains("new WebSocket"), "{}", &page[..page.len().min(200)]);
    let token = served.token().expect("the printed address holds the write token");
    assert_eq!(token.len(), 32, "128 random bits in hex: {token}");
    let mut ws = served.socket(Some(&token));
    assert_eq!(next_message(&mut ws)["access"]["write"], true);
    let first = next_message(&mut ws);
    assert_eq!(first["game"]["cells"].as_array().expect("16 cells").len(), 16);
    ws.send(tungstenite::Message::text(r#"{"press": "start"}"#)).expect("press");
    // Bounded: a state per change; start places two tiles within a few dozen scans.
    let mut tiles = 0;
    for _ in 0..200 {
        let s = next_message(&mut ws);
        tiles = s["game"]["cells"].as_array().expect("cells").iter().filter(|c| c.as_i64() != Some(0)).count();
        if tiles == 2 && s["game"]["busy"] == false {
            break;
        }
    }
    assert_eq!(tiles, 2, "start placed two tiles");
    served.stop();
}

/// The next reply to a press that is an error (states pushed meanwhile skipped).
fn refusal_of_a_press(ws: &mut tungstenite::WebSocket<impl std::io::Read + std::io::Write>) -> String {
    ws.send(tungstenite::Message::text(r#"{"press": "start"}"#)).expect("press");
    for _ in 0..50 {
        let m = next_message(ws);
        if let Some(e) = m["error"].as_str() {
            return e.to_string();
        }
    }
    panic!("no refusal of the press")
}

/// Without --allow-write a press on the browser HMI is refused, and the reply says how to allow it.
#[test]
fn the_browser_hmi_refuses_presses_without_allow_write() {
    let served = serve_web(&[]);
    assert_eq!(served.token(), None, "no token printed when nothing can be written: {:?}", served.url);
    let mut ws = served.socket(None);
    let hello = next_message(&mut ws);
    assert_eq!(hello["access"]["write"], false, "{hello}");
    assert!(refusal_of_a_press(&mut ws).contains("--allow-write"));
    served.stop();
}

/// With --allow-write, a socket without the session's token (or with another) reads but cannot
/// write; a token given by --token or FBD_SERVE_TOKEN is the one printed and taken.
#[test]
fn the_browser_hmi_takes_writes_only_with_the_session_s_token() {
    let served = serve_web(&["--allow-write"]);
    let mut ws = served.socket(None);
    assert_eq!(next_message(&mut ws)["access"]["write"], false);
    assert!(refusal_of_a_press(&mut ws).contains("no write token"));
    let mut ws = served.socket(Some("0123456789abcdef0123456789abcdef"));
    assert!(refusal_of_a_press(&mut ws).contains("not the session's"));
    served.stop();
    let served = serve_web(&["--allow-write", "--token", "operator-token-0042"]);
    assert_eq!(served.token().as_deref(), Some("operator-token-0042"));
    let mut ws = served.socket(Some("operator-token-0042"));
    assert_eq!(next_message(&mut ws)["access"]["write"], true);
    served.stop();
    let out = Command::new(env!("CARGO_BIN_EXE_fbd"))
        .args(["serve", "--modbus", "127.0.0.1:0", "--http", "127.0.0.1:0", "--allow-write", "--for-seconds", "0"])
        .env("FBD_SERVE_TOKEN", "short")
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 16 characters"));
}

/// The handshake a page of `origin` makes, reaching the server as `host`: the status line of
/// the answer.
fn handshake(port: u16, host: &str, origin: Option<&str>) -> String {
    use std::io::Read as _;
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    let req = format!(
        "GET /ws HTTP/1.1\r\nHost: {host}\r\n{origin}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    std::io::Write::write_all(&mut s, req.as_bytes()).expect("request");
    let mut head = Vec::new();
    let mut b = [0u8; 512];
    while !head.windows(2).any(|w| w == b"\r\n") {
        match s.read(&mut b) {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(&b[..n]),
        }
    }
    String::from_utf8_lossy(&head).lines().next().unwrap_or("").to_string()
}

/// A page of another origin, or one reaching the server by a name that is not loopback (DNS
/// rebinding), cannot open the socket at all; the server's own page, a client without Origin
/// and an origin the operator allowed can.
#[test]
fn pages_of_other_origins_cannot_open_the_socket() {
    let served = serve_web(&["--allow-write", "--allow-origin", "http://scada.local:1880"]);
    let port = served.http();
    let own = format!("127.0.0.1:{port}");
    assert!(handshake(port, &own, Some(&format!("http://{own}"))).contains("101"));
    assert!(handshake(port, &own, None).contains("101"));
    assert!(handshake(port, &own, Some("http://scada.local:1880")).contains("101"));
    let h = handshake(port, &own, Some("http://127.0.0.1:15090"));
    assert!(h.contains("403"), "{h}");
    assert!(handshake(port, &own, Some("null")).contains("403"));
    assert!(handshake(port, "evil.example:8080", Some("http://evil.example:8080")).contains("403"));
    served.stop();
}

/// The attack itself, in a real browser: a page served from another origin on 127.0.0.1 opens
/// the socket of `fbd serve --allow-write` and presses Start. The socket never opens, nothing
/// is read, and the server says whom it refused.
#[test]
fn a_foreign_page_in_headless_chromium_is_refused() {
    let served = serve(&["--seed", "3", "--for-seconds", "60", "--allow-write"], true, Stdio::piped());
    let out = Command::new("python3")
        .arg(root().join("tools/web/cross_origin_check.py"))
        .arg(served.http().to_string())
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "the check failed:\n{text}{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(text.trim()).expect("JSON");
    assert_eq!(r["opened"], false, "{r}");
    assert_eq!(r["messages"].as_array().map(Vec::len), Some(0), "{r}");
    let mut child = served.child;
    let _ = child.kill();
    let mut log = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut log).expect("log");
    let _ = child.wait();
    let foreign = r["foreign_origin"].as_str().expect("origin");
    assert!(log.contains(&format!("a page of origin `{foreign}` is not this server's")), "{log}");
}

/// The browser HMI in a real headless browser (Debian's chromium through chromium-driver, with
/// Selenium: `.ci/run` installs them): the page loads, Start places two tiles, the arrow keys
/// move them, and a screenshot is taken.
#[test]
fn the_browser_hmi_plays_in_a_headless_chromium() {
    let served = serve_web(&["--allow-write"]);
    let shot = std::env::temp_dir().join(format!("fbd-browser-{}.png", std::process::id()));
    let out = Command::new("python3")
        .arg(root().join("tools/web/browser_check.py"))
        .arg(served.url.clone().expect("the printed address, with its token"))
        .arg(&shot)
        .output()
        .expect("python3 runs");
    served.stop();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "the browser check failed (it needs `apt-get install chromium chromium-driver` and `pip install selenium`):\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_str(text.trim()).expect("JSON");
    assert_eq!(r["tiles_after_start"], 2, "{r}");
    assert_eq!(r["moved"], true, "the arrow keys moved the tiles: {r}");
    let png = std::fs::read(&shot).expect("the screenshot");
    let _ = std::fs::remove_file(&shot);
    assert_eq!(&png[..4], b"\x89PNG");
}

/// A map file in a fresh scratch directory; the directory (remove it) and the file.
fn map_file(test: &str, json: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("fbd-map-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let map = dir.join("map.json");
    std::fs::write(&map, json).expect("writes");
    (dir, map)
}

/// One Modbus TCP request as raw bytes, and its reply of `n` bytes.
fn modbus_ask(s: &mut std::net::TcpStream, req: &[u8], n: usize) -> Vec<u8> {
    use std::io::{Read as _, Write as _};
    s.write_all(req).expect("request");
    let mut r = vec![0u8; n];
    s.read_exact(&mut r).expect("reply");
    r
}

/// A map file: only its items served, where it says; an item it lets be written is written
/// although the server refuses writes.
#[test]
fn a_map_file_places_the_items_and_lets_one_be_written() {
    let (dir, map) = map_file(
        "served",
        r#"{"items": [
  {"name": "start", "table": "coil", "address": 10, "write": true},
  {"name": "running", "table": "discrete", "address": 3},
  {"name": "slow_cycles", "table": "input", "address": 100}]}"#,
    );
    let served = serve(
        &["examples/blinker.json", "--for-seconds", "30", "--map", map.to_str().expect("a UTF-8 path")],
        false,
        Stdio::null(),
    );
    let mut s = std::net::TcpStream::connect(("127.0.0.1", served.modbus)).expect("connects");
    // Coil 10 (start) set: the map allows it, the server refuses writes otherwise.
    let r = modbus_ask(&mut s, &[0, 1, 0, 0, 0, 6, 1, 5, 0, 10, 0xff, 0], 12);
    assert_eq!(r[7], 5, "the write answered, not refused: {r:?}");
    // Discrete input 3 (running) follows within a scan or two (5 ms each): polled, at most
    // 5 s however loaded the machine is.
    let mut running = false;
    for _ in 0..5000 {
        let r = modbus_ask(&mut s, &[0, 2, 0, 0, 0, 6, 1, 2, 0, 3, 0, 1], 10);
        if r[9] & 1 == 1 {
            running = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(running, "start latched running");
    // An address the map does not list: ILLEGAL DATA ADDRESS (function 4 + 0x80, code 2).
    let r = modbus_ask(&mut s, &[0, 3, 0, 0, 0, 6, 1, 4, 0, 0, 0, 1], 9);
    assert_eq!((r[7], r[8]), (0x84, 2));
    served.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A wrong map file is refused, naming the file and every faulty item.
#[test]
fn a_wrong_map_file_is_refused_with_every_item_s_fault() {
    let (dir, map) = map_file(
        "wrong",
        r#"{"items": [{"name": "nothing", "table": "coil", "address": 0}, {"name": "running", "table": "holding", "address": 0, "write": true}]}"#,
    );
    let out = Command::new(env!("CARGO_BIN_EXE_fbd"))
        .current_dir(root())
        .args(["serve", "examples/blinker.json", "--print-map", "--map"])
        .arg(&map)
        .output()
        .expect("runs");
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(e.contains(&format!("{}: item 0: the program has no signal `nothing`", map.display())), "{e}");
    assert!(e.contains("item 1 (`running`, BOOL): a BOOL goes in a coil or a discrete input"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A served session recorded (`--record`) is saved when SIGTERM ends it, and replays.
#[test]
fn a_served_session_ended_by_sigterm_is_recorded_and_replays() {
    let rec = std::env::temp_dir().join(format!("fbd-serve-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&rec);
    let Served { child, .. } =
        serve(&["--cycle", "10", "--record", rec.to_str().expect("a UTF-8 path")], false, Stdio::piped());
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill runs");
    assert!(killed.success());
    let out = child.wait_with_output().expect("ends");
    assert!(out.status.success(), "SIGTERM ends it cleanly: {}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("scans recorded"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // --cycle is the program's cycle: the simulated clock ran at 10 ms a scan, and the replay
    // runs at it.
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).expect("saved")).expect("JSON");
    assert_eq!(saved["cycle_us"], 10_000, "the recording's cycle");
    let o =
        Command::new(env!("CARGO_BIN_EXE_fbd")).current_dir(root()).arg("replay").arg(&rec).output().expect("replays");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_file(&rec);
}

/// A scan cycle outside 0.05..=60000 ms (0, NaN, inf, 1e9, 0.001) is refused, not ignored.
#[test]
fn a_cycle_out_of_range_is_refused() {
    for c in ["0", "NaN", "inf", "1e9", "0.001", "-5"] {
        let out = Command::new(env!("CARGO_BIN_EXE_fbd"))
            .args(["serve", "--modbus", "127.0.0.1:0", "--http", "off", "--for-seconds", "0", &format!("--cycle={c}")])
            .output()
            .expect("runs");
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && e.contains("a scan cycle is 0.05 to 60000 ms"), "--cycle {c}: {e}");
    }
}

/// The generic panel of the browser HMI, in headless chromium: a setpoint typed digit by digit
/// into an INT input while every scan changes the values shown keeps its digits and its focus,
/// and Enter sets it (the table was rebuilt on every update: typing 1234 kept 1).
#[test]
fn a_setpoint_is_typed_into_the_browser_panel_while_values_change() {
    let dir = std::env::temp_dir().join(format!("fbd-panel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let prog = dir.join("setpoint.json");
    std::fs::write(
        &prog,
        r#"{ "fbd": 3, "name": "setpoint",
  "inputs": [ { "name": "setpoint", "type": "INT" } ],
  "outputs": [ { "name": "echo", "type": "INT", "from": "e.out" }, { "name": "count", "type": "DINT", "from": "c.out" } ],
  "blocks": [ { "id": "e", "type": "ADD", "inputs": { "in1": "setpoint", "in2": 0 } },
              { "id": "c", "type": "ADD", "data_type": "DINT", "inputs": { "in1": { "from": "c.out", "feedback": true }, "in2": 1 } } ] }"#,
    )
    .expect("program");
    let served = serve(&[prog.to_str().expect("utf8"), "--for-seconds", "60", "--allow-write"], true, Stdio::null());
    let out = Command::new("python3")
        .arg(root().join("tools/web/panel_check.py"))
        .arg(served.url.clone().expect("the address"))
        .args(["setpoint", "echo", "1234"])
        .output()
        .expect("python3 runs");
    served.stop();
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "the panel check failed:\n{text}{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(text.trim()).expect("JSON");
    assert_eq!(r["typed"], "1234", "{r}");
    assert_eq!(r["kept_focus"], true, "{r}");
    assert_eq!(r["output"], "1234", "the program holds the setpoint: {r}");
    assert_eq!(r["title"], "setpoint", "the panel names the program: {r}");
}

/// `fbd serve` of a loop that never ends: the watchdog stops the task, the page's state says
/// where (its banner), the console says it once; the server goes on answering.
#[test]
fn a_served_loop_that_never_ends_stops_the_task_and_the_page_and_the_console_say_where() {
    use std::io::Read as _;
    let program = common::temp("endless.json", &common::endless_while(0));
    let mut served = serve(&[program.to_str().expect("utf-8"), "--for-seconds", "60"], true, Stdio::piped());
    let mut ws = served.socket(None);
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(std::time::Duration::from_secs(20))).expect("a timeout");
    }
    // The access, then the state: the task stopped in its first scan, before the page came.
    let halted = (0..5).find_map(|_| next_message(&mut ws)["halted"].as_str().map(str::to_string));
    let halted = halted.expect("the state says the task stopped");
    assert!(halted.starts_with("scan 0: the WHILE at ST 2:1 ran past the watchdog"), "{halted}");
    // The console's line (read until it comes: the server checks the task as it serves).
    let mut err = BufReader::new(served.child.stderr.take().expect("stderr"));
    let mut said = String::new();
    while !said.contains("error: the task stopped") {
        let mut line = String::new();
        if err.read_line(&mut line).expect("stderr") == 0 {
            break;
        }
        said.push_str(&line);
    }
    served.stop();
    let mut rest = String::new();
    err.read_to_string(&mut rest).expect("stderr");
    said.push_str(&rest);
    assert_eq!(said.matches("error: the task stopped at scan 0: the WHILE at ST 2:1").count(), 1, "{said}");
}
