//! The browser HMI: the runtime serves one page (plain HTML, CSS and JS from the binary, no
//! build step, no CDN) and a WebSocket at `/ws` that pushes the program's state whenever a scan
//! changes it, and takes presses (the 2048 commands, queued through the lockout as the window's
//! keys) and input values. Who may open the socket and who may write through it is
//! [`WebAccess`]'s (`access.rs`); a request head must be complete within
//! [`Limits::request`], a reply taken within [`Limits::write`]; a thread per client, and the scan
//! task never waits for one.

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use fbd_engine::realtime::TaskHandle;
use fbd_engine::runtime::requests::SetInput;
use fbd_engine::{ScanImage, Value};
use fbd2048_game::Command;
use fbd2048_game::front::{GameIo, View};
use serde_json::{Value as Json, json};
use tungstenite::protocol::{Role, WebSocketConfig};

use crate::Limits;
use crate::access::{WebAccess, query_value, refusal, token_matches};
use crate::conn::{Admitted, Registry};
use crate::http::{Head, HeadError, read_head};

/// The page.
const PAGE: &str = include_str!("../web/index.html");

/// How often a page's socket is pinged: a page open in a browser answers, so it never looks
/// idle to the connection limit.
const PING_EVERY: Duration = Duration::from_secs(1);

/// A running web server.
pub struct WebServer {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    clients: Arc<Registry>,
    access: WebAccess,
}

impl Drop for WebServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.clients.close_all();
        let _ = TcpStream::connect(self.addr);
    }
}

/// What every client thread of one server shares.
struct Shared {
    task: TaskHandle,
    commands: Sender<Command>,
    access: WebAccess,
    limits: Limits,
    stop: Arc<AtomicBool>,
    loopback: bool,
}

impl WebServer {
    /// Serves the page and its WebSocket on `listener` for the program `task` runs; presses go to
    /// `commands` (the Modbus server's queue: one lockout, one queue); who may read and write
    /// is `access`'s.
    pub fn start(
        listener: TcpListener,
        task: TaskHandle,
        commands: Sender<Command>,
        access: WebAccess,
        limits: Limits,
    ) -> std::io::Result<WebServer> {
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let clients = Arc::new(Registry::default());
        let shared = Arc::new(Shared {
            task,
            commands,
            access: access.clone(),
            limits,
            stop: Arc::clone(&stop),
            loopback: addr.ip().is_loopback(),
        });
        let registry = Arc::clone(&clients);
        std::thread::Builder::new().name("web-accept".into()).spawn(move || {
            for stream in listener.incoming() {
                if shared.stop.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let Some((admitted, peer)) = registry.admit_logged(&stream, limits, "web") else { continue };
                let shared = Arc::clone(&shared);
                let _ = std::thread::Builder::new().name("web-client".into()).spawn(move || {
                    if let Err(why) = serve(stream, &shared, &admitted, &peer) {
                        eprintln!("web: {peer} closed ({why})");
                    }
                });
            }
        })?;
        Ok(WebServer { addr, stop, clients, access })
    }

    /// The clients connected now (pages and their live-value sockets).
    pub fn clients(&self) -> Vec<String> {
        self.clients.peers()
    }

    /// The page's address to give the operator: with the session's write token when writes
    /// are allowed (the page hands it to its socket; only who holds this address can write).
    pub fn url(&self) -> String {
        if self.access.allow_write {
            format!("http://{}/#token={}", self.addr, self.access.token)
        } else {
            format!("http://{}/", self.addr)
        }
    }
}

/// One connection: the page, or the WebSocket; why it ended, if not by the client.
fn serve(mut stream: TcpStream, shared: &Shared, admitted: &Admitted, peer: &str) -> Result<(), String> {
    let limits = shared.limits;
    stream.set_write_timeout(Some(limits.write)).map_err(|e| e.to_string())?;
    let head = match read_head(&mut stream, limits.request) {
        Ok(h) => h,
        Err(HeadError::Io(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(()),
        Err(HeadError::Io(e)) => return Err(e.to_string()),
        Err(HeadError::Late(d)) => {
            let _ = respond(&stream, "408 Request Timeout", "text/plain", "request head not complete in time");
            return Err(format!("its request head was not complete within {} s", d.as_secs_f64()));
        }
        Err(HeadError::TooLarge) => {
            let _ = respond(&stream, "431 Request Header Fields Too Large", "text/plain", "request head too large");
            return Err("a request head over 8 KB".into());
        }
        Err(HeadError::Malformed) => {
            let _ = respond(&stream, "400 Bad Request", "text/plain", "not an HTTP request");
            return Err("not an HTTP request".into());
        }
    };
    admitted.touch();
    if let Some(why) = refusal(head.header("Host"), head.header("Origin"), shared.loopback, &shared.access) {
        let _ = respond(&stream, "403 Forbidden", "text/plain", &why);
        return Err(format!("refused: {why}"));
    }
    let r = match (head.method.as_str(), head.path.as_str()) {
        ("GET", "/ws") => return websocket(stream, head, shared, admitted, peer),
        ("GET", "/" | "/index.html") => respond(&stream, "200 OK", "text/html; charset=utf-8", PAGE),
        ("GET", _) => {
            respond(&stream, "404 Not Found", "text/plain", "not found: the page is / and its live values /ws")
        }
        _ => respond(&stream, "405 Method Not Allowed", "text/plain", "only GET"),
    };
    r.map_err(|e| e.to_string())
}

fn respond(mut stream: &TcpStream, status: &str, ty: &str, body: &str) -> std::io::Result<()> {
    let text = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ty}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(text.as_bytes())
}

/// The WebSocket: the handshake answered, then the state pushed when it changes (checked every
/// 20 ms), presses and values taken if this socket may write.
fn websocket(
    mut stream: TcpStream,
    head: Head,
    shared: &Shared,
    admitted: &Admitted,
    peer: &str,
) -> Result<(), String> {
    let upgrade = head.header("Upgrade").is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
    let Some(key) = head.header("Sec-WebSocket-Key").filter(|_| upgrade) else {
        let _ = respond(&stream, "400 Bad Request", "text/plain", "/ws is a WebSocket");
        return Err("a request for /ws that is no WebSocket handshake".into());
    };
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let answer = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    stream.write_all(answer.as_bytes()).map_err(|e| e.to_string())?;
    // Messages from the page are a press or a value: a few bytes. What the server sends waits
    // in its buffer at most `Limits::write` (the socket's write timeout), then the client goes.
    let config = WebSocketConfig::default()
        .max_message_size(Some(4096))
        .max_frame_size(Some(4096))
        .write_buffer_size(0)
        .max_write_buffer_size(1 << 20);
    let mut ws = tungstenite::WebSocket::from_partially_read(stream, head.rest.clone(), Role::Server, Some(config));
    ws.get_mut().set_read_timeout(Some(Duration::from_millis(20))).map_err(|e| e.to_string())?;
    let write = socket_write(&head, &shared.access);
    eprintln!("web: {peer} connected ({})", if write.is_ok() { "may write" } else { "reads" });
    let hello = match &write {
        Ok(()) => json!({ "access": { "write": true } }),
        Err(why) => json!({ "access": { "write": false, "why": why } }),
    };
    let fail = |e: tungstenite::Error| e.to_string();
    ws.send(tungstenite::Message::text(hello.to_string())).map_err(fail)?;
    let io = GameIo::find(&shared.task.image().plan);
    let mut last = Json::Null;
    let mut pinged = Instant::now();
    while !shared.stop.load(Ordering::Relaxed) {
        if admitted.shed() {
            return Err("closed to make room for another client".into());
        }
        let state = state(io.as_ref(), &shared.task.image());
        if state != last {
            ws.send(tungstenite::Message::text(state.to_string())).map_err(fail)?;
            last = state;
        }
        if pinged.elapsed() >= PING_EVERY {
            ws.send(tungstenite::Message::Ping(Vec::new().into())).map_err(fail)?;
            pinged = Instant::now();
        }
        match ws.read() {
            Ok(tungstenite::Message::Text(t)) => {
                admitted.touch();
                if let Some(reply) = take(&t, shared, &write) {
                    ws.send(tungstenite::Message::text(reply.to_string())).map_err(fail)?;
                }
            }
            Ok(tungstenite::Message::Close(_)) => return Ok(()),
            Ok(_) => admitted.touch(),
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(tungstenite::Error::ConnectionClosed) => return Ok(()),
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

/// Whether a socket opened with `head` may write, else why not.
fn socket_write(head: &Head, access: &WebAccess) -> Result<(), String> {
    if !access.allow_write {
        return Err("writes are refused: this PLC was started without --allow-write".into());
    }
    match query_value(&head.query, "token") {
        Some(t) if token_matches(t, &access.token) => Ok(()),
        Some(_) => Err("writes are refused: this page's token is not the session's (open the address `fbd serve` printed)".into()),
        None => Err("writes are refused: this page has no write token (open the address `fbd serve` printed, with its #token=…)".into()),
    }
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
            json!({ "game": { "cells": v.values, "score": v.score, "best": v.best, "busy": v.busy, "game_over": v.game_over, "win": v.win }, "halted": img.halt_message() })
        }
        None => {
            let plan = &img.plan;
            let port = |p: &fbd_engine::plan::PortInfo, input: bool| {
                let v = plan.signal_id(&p.name).map_or(Json::Null, |id| short(img.read_signal(id)));
                let lamp = match fbd_engine::model::LampColour::of(&p.name) {
                    fbd_engine::model::LampColour::Green => "green",
                    fbd_engine::model::LampColour::Amber => "amber",
                    fbd_engine::model::LampColour::Red => "red",
                };
                json!({ "name": p.name, "type": p.ty.name(), "input": input, "value": v, "lamp": lamp })
            };
            let ports: Vec<Json> =
                plan.inputs.iter().map(|p| port(p, true)).chain(plan.outputs.iter().map(|p| port(p, false))).collect();
            json!({ "program": plan.name, "scan": img.scan, "ports": ports, "halted": img.halt_message() })
        }
    }
}

/// A message from the page: `{"press": "up"}` or `{"set": name, "value": v}`; the reply, if
/// it was refused (`write`: whether this socket may write, else why not).
fn take(text: &str, shared: &Shared, write: &Result<(), String>) -> Option<Json> {
    if let Err(why) = write {
        return Some(json!({ "error": why }));
    }
    let (task, commands) = (&shared.task, &shared.commands);
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
    let value = match input_value(&task.image().plan, name, v) {
        Ok(v) => v,
        Err(e) => return Some(json!({ "error": e })),
    };
    match task.call(SetInput { name: name.to_string(), value }) {
        Ok(()) => None,
        Err(e) => Some(json!({ "error": e.to_string() })),
    }
}

/// A value from the page for input `name`, read as the command line reads one for its type
/// (`T#1s` for a TIME, `16#FF`, a REAL beyond its range refused); text for a STRING input is
/// taken as the characters typed unless written as a literal (`'a$'b'`).
fn input_value(plan: &fbd_engine::ScanPlan, name: &str, v: &Json) -> Result<Value, String> {
    let ty = plan
        .inputs
        .iter()
        .find(|p| p.name == name)
        .or_else(|| plan.inputs.iter().find(|p| p.name.eq_ignore_ascii_case(name)))
        .map(|p| p.ty)
        .ok_or_else(|| format!("`{name}` is no input of this program"))?;
    let text = match v {
        Json::Bool(b) => return Ok(Value::Bool(*b)),
        Json::Number(n) => n.to_string(),
        Json::String(t) if ty == fbd_engine::Type::String && !t.starts_with('\'') => {
            if t.len() > fbd_engine::string::STRING_CAPACITY || !t.is_ascii() {
                return Err(format!("`{name}`: a STRING holds at most 126 single-byte characters"));
            }
            return Ok(Value::Str(fbd_engine::IecString::new(t.as_bytes())));
        }
        Json::String(t) => t.clone(),
        _ => return Err("a value is a boolean, a number or text".into()),
    };
    Value::parse(text.trim(), ty).map_err(|e| format!("`{name}`: {e}"))
}
