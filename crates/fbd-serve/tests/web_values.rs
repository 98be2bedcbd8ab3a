//! The browser HMI's socket takes a value for every input type as the command line reads it:
//! a TIME as `T#…`, a STRING as typed, a REAL within its range (1e39 refused, as `--set`
//! refuses it). Traffic only to 127.0.0.1.

use std::net::TcpListener;
use std::time::Duration;

use fbd_engine::realtime::RealtimeRunner;
use fbd_engine::{Runtime, Value};
use fbd_serve::{Limits, WebAccess, WebServer};
use serde_json::{Value as Json, json};

const PROGRAM: &str = r#"{
  "fbd": 3, "name": "kinds",
  "inputs": [ { "name": "t", "type": "TIME" }, { "name": "s", "type": "STRING" }, { "name": "x", "type": "REAL" } ],
  "outputs": [ { "name": "len", "type": "INT", "from": "l.out" } ],
  "blocks": [ { "id": "l", "type": "LEN", "inputs": { "in": "s" } } ]
}"#;

#[test]
fn the_socket_sets_time_string_and_real_inputs_as_the_command_line_reads_them() {
    let plan = fbd_engine::compile(PROGRAM).expect("compiles");
    let runner = RealtimeRunner::start(Runtime::with_seed(plan, 0), None);
    let l = TcpListener::bind("127.0.0.1:0").expect("binds");
    let commands = fbd_serve::command_pump(runner.handle(), Default::default());
    let access = WebAccess::new(true);
    let token = access.token.clone();
    let server = WebServer::start(l, runner.handle(), commands, access, Limits::default()).expect("starts");
    let (mut ws, _) = tungstenite::connect(format!("ws://{}/ws?token={token}", server.addr)).expect("socket");
    let mut reply_to = |m: Json| -> Option<String> {
        ws.send(tungstenite::Message::text(m.to_string())).expect("send");
        // States are pushed as they change; an error is the reply to a refused write. A write
        // taken has no reply: a marker write after it (refused) tells when it was handled.
        ws.send(tungstenite::Message::text(json!({"set": "nothing", "value": 0}).to_string())).expect("send");
        let mut first_error = None;
        for _ in 0..100 {
            let t = ws.read().expect("a message");
            let v: Json = serde_json::from_str(t.to_text().expect("text")).expect("JSON");
            if let Some(e) = v["error"].as_str() {
                if e.contains("`nothing`") {
                    return first_error;
                }
                first_error = Some(e.to_string());
            }
        }
        panic!("no answer")
    };
    assert_eq!(reply_to(json!({"set": "t", "value": "T#1s500ms"})), None);
    assert_eq!(reply_to(json!({"set": "s", "value": "pump #2"})), None);
    assert_eq!(reply_to(json!({"set": "x", "value": 2.5})), None);
    let e = reply_to(json!({"set": "x", "value": 1e39})).expect("refused");
    assert!(e.contains("`x`"), "{e}");
    let e = reply_to(json!({"set": "t", "value": "soon"})).expect("refused");
    assert!(e.contains("`t`"), "{e}");
    // Bounded: the values are in their slots from the next scan.
    let h = runner.handle();
    let start = std::time::Instant::now();
    let want = Value::Str(fbd_engine::IecString::new(b"pump #2"));
    loop {
        let img = h.image();
        let read = |n: &str| img.read_signal(img.plan.signal_id(n).expect("signal"));
        if read("s") == want {
            assert_eq!(read("t"), Value::Time(1_500_000_000));
            assert_eq!(read("x"), Value::Real(2.5));
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the writes landed");
        std::thread::sleep(Duration::from_millis(1));
    }
}
