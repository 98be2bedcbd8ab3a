//! The Modbus server answers as the specification says: a request answered with an exception
//! changes nothing, quantity 0 is exception 3, a function code with the top bit gets a valid
//! exception, unit 0 is answered, an address past 65535 is exception 2; TIME and STRING inputs
//! are written and read through their registers; a map file's overlapping or out-of-range items
//! are refused with their number. Traffic only to 127.0.0.1.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use fbd_engine::realtime::RealtimeRunner;
use fbd_engine::runtime::requests::SetInputs;
use fbd_engine::{Runtime, Value};
use fbd_serve::{Limits, ModbusMap, ModbusServer};

const PROGRAM: &str = r#"{
  "fbd": 3, "name": "kinds",
  "inputs": [ { "name": "n", "type": "INT" }, { "name": "t", "type": "TIME" }, { "name": "s", "type": "STRING" } ],
  "outputs": [ { "name": "n2", "type": "INT", "from": "a.out" }, { "name": "len", "type": "INT", "from": "l.out" } ],
  "blocks": [ { "id": "a", "type": "ADD", "inputs": { "in1": "n", "in2": 1 } }, { "id": "l", "type": "LEN", "inputs": { "in": "s" } } ]
}"#;

fn served() -> (RealtimeRunner, ModbusServer) {
    let plan = fbd_engine::compile(PROGRAM).expect("compiles");
    let runner = RealtimeRunner::start(Runtime::with_seed(plan, 0), None);
    let map = ModbusMap::of(&runner.image().plan);
    let l = TcpListener::bind("127.0.0.1:0").expect("binds");
    let server = ModbusServer::start(l, runner.handle(), map, true, Limits::default()).expect("starts");
    (runner, server)
}

/// One request (unit and PDU) and its reply's unit and PDU.
fn ask(s: &mut TcpStream, unit: u8, pdu: &[u8]) -> Vec<u8> {
    let mut req = vec![0, 7, 0, 0];
    req.extend_from_slice(&((pdu.len() + 1) as u16).to_be_bytes());
    req.push(unit);
    req.extend_from_slice(pdu);
    s.write_all(&req).expect("request");
    let mut head = [0u8; 6];
    s.read_exact(&mut head).expect("a reply within the timeout");
    assert_eq!(&head[..2], &[0, 7], "the transaction id comes back");
    let n = u16::from_be_bytes([head[4], head[5]]) as usize;
    let mut rest = vec![0u8; n];
    s.read_exact(&mut rest).expect("the reply's body");
    rest
}

/// The image after the next whole scan (a written input is in its slot from the next scan on);
/// bounded at 10 s.
fn next_image(runner: &RealtimeRunner) -> std::sync::Arc<fbd_engine::ScanImage> {
    let h = runner.handle();
    let from = h.image().scan;
    let start = std::time::Instant::now();
    loop {
        let img = h.image();
        if img.scan > from + 1 {
            return img;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the task scans");
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn connect(server: &ModbusServer) -> TcpStream {
    let s = TcpStream::connect(server.addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    s
}

/// FC 16 writing `regs` from holding register `at`.
fn write_regs(at: u16, regs: &[u16]) -> Vec<u8> {
    let mut pdu = vec![16];
    pdu.extend_from_slice(&at.to_be_bytes());
    pdu.extend_from_slice(&(regs.len() as u16).to_be_bytes());
    pdu.push((regs.len() * 2) as u8);
    for r in regs {
        pdu.extend_from_slice(&r.to_be_bytes());
    }
    pdu
}

fn text_regs(t: &str) -> Vec<u16> {
    let mut b = t.as_bytes().to_vec();
    b.resize(126, 0);
    b.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect()
}

#[test]
fn time_and_string_inputs_are_written_and_read_through_their_registers() {
    let (runner, server) = served();
    let mut s = connect(&server);
    // The map: n at 0, t at 1..=4 (nanoseconds), s at 5..=67.
    let ns: u64 = 1_500_000_000;
    let mut regs = vec![41u16];
    regs.extend((0..4).rev().map(|k| (ns >> (16 * k)) as u16));
    regs.extend(text_regs("pump #2"));
    let reply = ask(&mut s, 1, &write_regs(0, &regs));
    assert_eq!(reply[1], 16, "written, no exception: {reply:?}");
    let img = next_image(&runner);
    let read = |name: &str| img.read_signal(img.plan.signal_id(name).expect("signal"));
    assert_eq!(read("n"), Value::Int(41));
    assert_eq!(read("t"), Value::Time(1_500_000_000));
    assert_eq!(read("s"), Value::Str(fbd_engine::IecString::new(b"pump #2")));
    // Read back: the STRING's registers hold its text.
    let reply = ask(&mut s, 1, &[3, 0, 5, 0, 4]);
    assert_eq!(&reply[1..3], &[3, 8]);
    assert_eq!(&reply[3..11], b"pump #2\0");
}

#[test]
fn exceptions_as_the_specification_says() {
    let (_runner, server) = served();
    let mut s = connect(&server);
    // Quantity 0: ILLEGAL DATA VALUE, for reads and writes.
    assert_eq!(ask(&mut s, 1, &[3, 0, 0, 0, 0]), vec![1, 0x83, 3]);
    assert_eq!(ask(&mut s, 1, &[1, 0, 0, 0, 0]), vec![1, 0x81, 3]);
    // A function code with the top bit: ILLEGAL FUNCTION, the code as sent.
    assert_eq!(ask(&mut s, 1, &[0x81, 0, 0, 0, 1]), vec![1, 0x81, 1]);
    assert_eq!(ask(&mut s, 1, &[0xFF]), vec![1, 0xFF, 1]);
    // Unit 0 is answered, not treated as a silent broadcast.
    let reply = ask(&mut s, 0, &[3, 0, 0, 0, 1]);
    assert_eq!(&reply[..3], &[0, 3, 2], "unit 0 answered with one register: {reply:?}");
    // Past address 65535: ILLEGAL DATA ADDRESS (it wrapped to 0).
    assert_eq!(ask(&mut s, 1, &[3, 0xFF, 0xFF, 0, 2]), vec![1, 0x83, 2]);
}

#[test]
fn a_write_answered_with_an_exception_changes_nothing() {
    let (runner, server) = served();
    let mut s = connect(&server);
    assert_eq!(ask(&mut s, 1, &write_regs(0, &[5]))[1], 16);
    // n, then half of t: the request is refused (ILLEGAL DATA VALUE), and n keeps 5.
    assert_eq!(ask(&mut s, 1, &write_regs(0, &[9, 0, 0])), vec![1, 0x90, 3]);
    let img = next_image(&runner);
    assert_eq!(img.read_signal(img.plan.signal_id("n").expect("n")), Value::Int(5));
    // The batch request itself: one refused write, none applied.
    let h = runner.handle();
    let bad = SetInputs(vec![
        fbd_engine::runtime::requests::SetInput { name: "n".into(), value: Value::Int(7) },
        fbd_engine::runtime::requests::SetInput { name: "nothing".into(), value: Value::Int(1) },
    ]);
    assert_eq!(h.call(bad).map_err(|(at, _)| at), Err(1));
    let img = next_image(&runner);
    assert_eq!(img.read_signal(img.plan.signal_id("n").expect("n")), Value::Int(5));
}

#[test]
fn a_map_file_with_overlapping_or_out_of_range_items_is_refused() {
    let plan = fbd_engine::compile(PROGRAM).expect("compiles");
    let e = ModbusMap::from_file(
        &plan,
        r#"{ "items": [
            { "name": "n", "table": "holding", "address": 10 },
            { "name": "t", "table": "holding", "address": 8 },
            { "name": "s", "table": "holding", "address": 65500 },
            { "name": "n2", "table": "input", "address": 10 }
        ] }"#,
    )
    .expect_err("refused");
    assert!(e.contains("item 1 (`t`, holding register 8..11) overlaps item 0 (`n`, 10..10)"), "{e}");
    assert!(e.contains("item 2 (`s`): 63 words from address 65500 run past 65535"), "{e}");
    assert!(!e.contains("item 3"), "another table is no overlap: {e}");
}

/// A coil or holding register the map lists but that is no input (an output placed there by a
/// map file, or a located %QX the program writes) exists and cannot be written: ILLEGAL FUNCTION,
/// not ILLEGAL DATA ADDRESS (which says there is nothing there).
#[test]
fn a_write_to_a_mapped_read_only_item_is_illegal_function() {
    let plan = fbd_engine::compile(PROGRAM).expect("compiles");
    let runner = RealtimeRunner::start(Runtime::with_seed(plan, 0), None);
    let map = ModbusMap::from_file(
        &runner.image().plan,
        r#"{ "items": [ { "name": "n2", "table": "holding", "address": 0 }, { "name": "len", "table": "holding", "address": 1 } ] }"#,
    )
    .expect("a map");
    let l = TcpListener::bind("127.0.0.1:0").expect("binds");
    let server = ModbusServer::start(l, runner.handle(), map, true, Limits::default()).expect("starts");
    let mut s = connect(&server);
    assert_eq!(ask(&mut s, 1, &[6, 0, 0, 0, 5]), vec![1, 0x86, 1], "mapped, read-only");
    assert_eq!(ask(&mut s, 1, &[6, 0, 9, 0, 5]), vec![1, 0x86, 2], "not mapped");
}
