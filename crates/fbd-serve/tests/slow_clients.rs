//! Clients that would hold a server: a Modbus client dripping a frame byte by byte, one that
//! never reads its replies, an HTTP client dripping its request head, and as many idle clients as
//! the server takes. Each is dropped or gives way, and a new client is served. The limits are
//! shortened here (a few hundred ms) so the tests end quickly; traffic only to 127.0.0.1, bounded
//! in bytes and time.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use fbd_engine::Runtime;
use fbd_engine::realtime::RealtimeRunner;
use fbd_serve::{Limits, ModbusMap, ModbusServer, WebAccess, WebServer};

const PROGRAM: &str = r#"{
  "fbd": 3, "name": "pass",
  "inputs": [ { "name": "x", "type": "INT" } ],
  "outputs": [ { "name": "y", "type": "INT", "from": "m.out" } ],
  "blocks": [ { "id": "m", "type": "ADD", "inputs": { "in1": "x", "in2": 1 } } ]
}"#;

fn limits() -> Limits {
    Limits {
        connections: 4,
        idle: Duration::from_secs(60),
        request: Duration::from_millis(300),
        write: Duration::from_millis(300),
        shed_after: Duration::from_millis(200),
    }
}

fn runner() -> RealtimeRunner {
    let plan = fbd_engine::compile(PROGRAM).expect("compiles");
    RealtimeRunner::start(Runtime::with_seed(plan, 0), None)
}

fn modbus(runner: &RealtimeRunner) -> ModbusServer {
    let l = TcpListener::bind("127.0.0.1:0").expect("binds");
    let map = ModbusMap::of(&runner.image().plan);
    ModbusServer::start(l, runner.handle(), map, false, limits()).expect("starts")
}

/// FC 4, two input registers from 0 (`y` and the scan count's first word).
const READ: [u8; 12] = [0, 1, 0, 0, 0, 6, 1, 4, 0, 0, 0, 2];

/// Whether `s` was closed by the server within 10 s (a read sees the end or a reset; not a
/// read that timed out).
fn closed_by_server(s: &mut TcpStream) -> bool {
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    let mut b = [0u8; 512];
    loop {
        match s.read(&mut b) {
            Ok(0) => return true,
            Err(e) => return !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut),
            Ok(_) => {}
        }
    }
}

/// A served read request answered on a fresh connection.
fn answered(addr: std::net::SocketAddr) -> bool {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    s.write_all(&READ).expect("request");
    let mut reply = [0u8; 13];
    s.read_exact(&mut reply).is_ok() && reply[7] == 4
}

#[test]
fn a_modbus_client_dripping_a_frame_is_dropped_at_the_request_deadline() {
    let runner = runner();
    let server = modbus(&runner);
    let mut s = TcpStream::connect(server.addr).expect("connects");
    let mut dripper = s.try_clone().expect("clone");
    // One byte every 250 ms: the frame's 12 bytes would take 3 s; the deadline is 300 ms.
    let drip = std::thread::spawn(move || {
        let mut sent = 0;
        for b in READ {
            if dripper.write_all(&[b]).is_err() {
                break;
            }
            sent += 1;
            std::thread::sleep(Duration::from_millis(250));
        }
        sent
    });
    assert!(closed_by_server(&mut s), "the dripping client was dropped");
    let sent = drip.join().expect("drip");
    assert!(sent < READ.len(), "dropped before its frame was complete ({sent} bytes sent)");
    assert!(answered(server.addr), "another client is served");
}

#[test]
fn a_modbus_client_that_never_reads_its_replies_is_dropped() {
    let runner = runner();
    let server = modbus(&runner);
    let mut s = TcpStream::connect(server.addr).expect("connects");
    s.set_write_timeout(Some(Duration::from_secs(10))).expect("timeout");
    // Requests without reading a reply, up to 60 MB of them: the replies fill both sockets'
    // buffers (several MB on loopback), the server's write times out, and it closes; then this
    // side's writes fail.
    let burst: Vec<u8> = READ.iter().copied().cycle().take(READ.len() * 1000).collect();
    let mut failed = false;
    for _ in 0..5000 {
        if s.write_all(&burst).is_err() {
            failed = true;
            break;
        }
    }
    assert!(failed, "the server closed the connection of a client that does not read");
    assert!(answered(server.addr), "another client is served");
}

#[test]
fn silent_modbus_clients_give_way_to_a_new_one() {
    let runner = runner();
    let server = modbus(&runner);
    let mut idle: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(server.addr).expect("connects")).collect();
    // The four are the limit, and none has sent anything: the oldest gives way at once.
    assert!(answered(server.addr), "a new client is served while four silent ones were connected");
    assert!(closed_by_server(&mut idle[0]), "the oldest silent one (the first) was closed to make room");
}

#[test]
fn busy_modbus_clients_are_not_cut_for_a_newcomer() {
    let runner = runner();
    let l = TcpListener::bind("127.0.0.1:0").expect("binds");
    let map = ModbusMap::of(&runner.image().plan);
    let patient = Limits { shed_after: Duration::from_secs(3600), ..limits() };
    let server = ModbusServer::start(l, runner.handle(), map, false, patient).expect("starts");
    // Four clients, each answered once (active).
    let _held: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut s = TcpStream::connect(server.addr).expect("connects");
            s.write_all(&READ).expect("request");
            let mut reply = [0u8; 13];
            s.read_exact(&mut reply).expect("answered");
            s
        })
        .collect();
    // Every client was active within the hour: the newcomer is refused (closed at once).
    let mut s = TcpStream::connect(server.addr).expect("connects");
    assert!(closed_by_server(&mut s), "refused while every client is recent");
}

fn web(runner: &RealtimeRunner) -> WebServer {
    let l = TcpListener::bind("127.0.0.1:0").expect("binds");
    let commands = fbd_serve::command_pump(runner.handle(), Default::default());
    WebServer::start(l, runner.handle(), commands, WebAccess::new(false), limits()).expect("starts")
}

/// The page, asked on a fresh connection; the status line.
fn page(addr: std::net::SocketAddr) -> String {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    s.write_all(format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes()).expect("request");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text.lines().next().unwrap_or("").to_string()
}

#[test]
fn http_clients_dripping_their_heads_neither_hold_nor_lock_out_the_page() {
    let runner = runner();
    let server = web(&runner);
    let addr = server.addr;
    // As many drippers as the server takes, one header byte every 100 ms.
    let drippers: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(move || {
                let mut s = TcpStream::connect(addr).expect("connects");
                let head = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: {}\r\n\r\n", "a".repeat(100));
                for b in head.bytes() {
                    if s.write_all(&[b]).is_err() {
                        return true;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                false
            })
        })
        .collect();
    std::thread::sleep(limits().shed_after * 2);
    assert_eq!(page(addr), "HTTP/1.1 200 OK", "the page is served beside four drippers");
    for d in drippers {
        assert!(d.join().expect("dripper"), "each dripper was closed before its head was complete");
    }
}
