//! The browser HMI: the runtime serves one page (plain HTML, CSS and JS from the binary, no
//! build step, no CDN) and a WebSocket at `/ws` that pushes the program's state whenever a scan
//! changes it, and takes presses (the 2048 commands, queued through the lockout as the window's
//! keys) and input values, refused unless writes are allowed. A thread per client; the scan
//! task never waits for one.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

use fbd_engine::realtime::TaskHandle;
use fbd_engine::runtime::requests::SetInput;
use fbd_engine::{ScanImage, Value};
use fbd2048_game::Command;
use fbd2048_game::front::{GameIo, View};
use serde_json::{Value as Json, json};

/// The page.
const PAGE: &str = include_str!("../web/index.html");

/// A running web server.
pub struct WebServer {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    clients: Arc<std::sync::Mutex<Vec<String>>>,
}

impl Drop for WebServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(self.addr);
    }
}

impl WebServer {
    /// Serves the page and its WebSocket on `listener` for the program `task` runs; presses go to
    /// `commands` (the Modbus server's queue: one lockout, one queue).
    pub fn start(
        listener: TcpListener,
        task: TaskHandle,
        commands: Sender<Command>,
        allow_write: bool,
        max_clients: usize,
    ) -> std::io::Result<WebServer> {
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let stop_accept = Arc::clone(&stop);
        let open = Arc::new(AtomicUsize::new(0));
        let clients: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
        let clients_accept = Arc::clone(&clients);
        std::thread::Builder::new().name("web-accept".into()).spawn(move || {
            for stream in listener.incoming() {
                if stop_accept.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                if open.fetch_add(1, Ordering::SeqCst) >= max_clients {
                    open.fetch_sub(1, Ordering::SeqCst);
                    continue;
                }
                let peer = stream.peer_addr().map_or("?".into(), |a| a.to_string());
                let (task, commands, open, stop) =
                    (task.clone(), commands.clone(), Arc::clone(&open), Arc::clone(&stop_accept));
                let clients = Arc::clone(&clients_accept);
                let _ = std::thread::Builder::new().name("web-client".into()).spawn(move || {
                    let _ = serve(stream, &task, &commands, allow_write, &stop, (&clients, &peer));
                    open.fetch_sub(1, Ordering::SeqCst);
                });
            }
        })?;
        Ok(WebServer { addr, stop, clients })
    }

    /// The pages connected now (their live-value sockets' addresses).
    pub fn clients(&self) -> Vec<String> {
        self.clients.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// One connection: the page, or the WebSocket.
fn serve(
    stream: TcpStream,
    task: &TaskHandle,
    commands: &Sender<Command>,
    allow_write: bool,
    stop: &AtomicBool,
    (clients, peer): (&std::sync::Mutex<Vec<String>>, &str),
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut head = [0u8; 16];
    let n = stream.peek(&mut head)?;
    if head[..n].starts_with(b"GET /ws") {
        eprintln!("web: {peer} connected");
        clients.lock().unwrap_or_else(|e| e.into_inner()).push(peer.to_string());
        let r = websocket(stream, task, commands, allow_write, stop);
        clients.lock().unwrap_or_else(|e| e.into_inner()).retain(|c| c != peer);
        eprintln!("web: {peer} closed");
        return r;
    }
    // A request head of at most 8 KB; anything but GET / is 404.
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut first = String::new();
    reader.read_line(&mut first)?;
    let mut size = first.len();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        size += line.len();
        if size > 8192 {
            return respond(&stream, "431 Request Header Fields Too Large", "text/plain", "request head too large");
        }
    }
    if first.starts_with("GET / ") || first.starts_with("GET /index.html ") {
        respond(&stream, "200 OK", "text/html; charset=utf-8", PAGE)
    } else {
        respond(&stream, "404 Not Found", "text/plain", "not found: the page is / and its live values /ws")
    }
}

fn respond(mut stream: &TcpStream, status: &str, ty: &str, body: &str) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {ty}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// The WebSocket: the state pushed when it changes (checked every 20 ms), presses and values
/// taken.
fn websocket(
    stream: TcpStream,
    task: &TaskHandle,
    commands: &Sender<Command>,
    allow_write: bool,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut ws = tungstenite::accept(stream).map_err(std::io::Error::other)?;
    ws.get_mut().set_read_timeout(Some(Duration::from_millis(20)))?;
    let io = GameIo::find(&task.image().plan);
    let mut last = Json::Null;
    while !stop.load(Ordering::Relaxed) {
        let state = state(io.as_ref(), &task.image());
        if state != last {
            ws.send(tungstenite::Message::text(state.to_string())).map_err(std::io::Error::other)?;
            last = state;
        }
        match ws.read() {
            Ok(tungstenite::Message::Text(t)) => {
                if let Some(reply) = take(&t, task, commands, allow_write) {
                    ws.send(tungstenite::Message::text(reply.to_string())).map_err(std::io::Error::other)?;
                }
            }
            Ok(tungstenite::Message::Close(_)) => return Ok(()),
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(e) => return Err(std::io::Error::other(e)),
        }
    }
    Ok(())
}

/// What the page shows: the 2048 program's board and lamps, or every port of another.
fn state(io: Option<&GameIo>, img: &ScanImage) -> Json {
    let short = |v: Value| -> Json {
        match v {
            Value::Bool(b) => json!(b),
            Value::Int(i) => json!(i),
            Value::ULInt(u) => json!(u),
            Value::Real(r) => json!(r),
            other => json!(other.to_string()),
        }
    };
    match io {
        Some(_) => {
            let v = View::read(io, img);
            json!({ "game": { "cells": v.values, "score": v.score, "best": v.best, "busy": v.busy, "game_over": v.game_over, "win": v.win } })
        }
        None => {
            let plan = &img.plan;
            let port = |p: &fbd_engine::plan::PortInfo, input: bool| {
                let v = plan.signal_id(&p.name).map_or(Json::Null, |id| short(img.read_signal(id)));
                json!({ "name": p.name, "type": p.ty.name(), "input": input, "value": v })
            };
            let ports: Vec<Json> =
                plan.inputs.iter().map(|p| port(p, true)).chain(plan.outputs.iter().map(|p| port(p, false))).collect();
            json!({ "ports": ports })
        }
    }
}

/// A message from the page: `{"press": "up"}` or `{"set": name, "value": v}`; the reply, if
/// it was refused.
fn take(text: &str, task: &TaskHandle, commands: &Sender<Command>, allow_write: bool) -> Option<Json> {
    if !allow_write {
        return Some(json!({ "error": "writes are refused: this PLC was started without --allow-write" }));
    }
    let m: Json = serde_json::from_str(text).ok()?;
    if let Some(p) = m.get("press").and_then(Json::as_str) {
        let c = match p {
            "up" => Command::Move(ref2048::Dir::Up),
            "right" => Command::Move(ref2048::Dir::Right),
            "down" => Command::Move(ref2048::Dir::Down),
            "left" => Command::Move(ref2048::Dir::Left),
            "start" => Command::Start,
            "reset" => Command::Reset,
            other => return Some(json!({ "error": format!("no command `{other}`") })),
        };
        let _ = commands.send(c);
        return None;
    }
    let (Some(name), Some(v)) = (m.get("set").and_then(Json::as_str), m.get("value")) else {
        return Some(json!({ "error": "a message is {\"press\": command} or {\"set\": input, \"value\": v}" }));
    };
    let value = match v {
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) if n.is_i64() => Value::Int(n.as_i64().unwrap_or(0)),
        Json::Number(n) => Value::Real(n.as_f64().unwrap_or(0.0)),
        _ => return Some(json!({ "error": "a value is a boolean or a number" })),
    };
    match task.call(SetInput { name: name.to_string(), value }) {
        Ok(()) => None,
        Err(e) => Some(json!({ "error": e.to_string() })),
    }
}
