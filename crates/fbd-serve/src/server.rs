//! The Modbus TCP server: a thread accepting connections (at most [`Limits::connections`] at
//! once), a thread per connection reading one frame at a time (a frame longer than Modbus
//! allows, or one that does not parse, closes the connection; a silent client is dropped after
//! [`Limits::idle`]), and a pump that sends queued 2048 commands when the lockout allows. Reads
//! answer from the published scan image; writes, refused unless allowed, go to the task as one
//! batch of requests, applied together between two scans.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use fbd_engine::realtime::TaskHandle;
use fbd_engine::runtime::requests::{SetInput, SetInputs};
use fbd_engine::{Type, Value};
use fbd2048_game::Command;
use fbd2048_game::front::{Front, GameIo, View};
use rmodbus::consts::ModbusFunction;
use rmodbus::server::{ModbusFrame, Read as MbRead, Write as MbWrite};
use rmodbus::{ErrorKind, ModbusProto};

use crate::conn::{Admitted, Registry};
use crate::map::{Item, ModbusMap, Table};

/// What one client may take.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// Connections served at once; one more closes the idlest (see `shed_after`) or is refused.
    pub connections: usize,
    /// A client silent this long between two requests is dropped.
    pub idle: Duration,
    /// A request (a Modbus frame from its first byte, an HTTP request head) must be complete
    /// this long after it began: a client dripping bytes is dropped however often it sends.
    pub request: Duration,
    /// A reply must be taken within this: a client that does not read is dropped instead of
    /// holding its thread and an ever-growing queue.
    pub write: Duration,
    /// When the server is full, a client idle this long gives way to a new one.
    pub shed_after: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: 16,
            idle: Duration::from_secs(60),
            request: Duration::from_secs(10),
            write: Duration::from_secs(5),
            shed_after: Duration::from_secs(3),
        }
    }
}

/// A running Modbus server.
pub struct ModbusServer {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    clients: Arc<Registry>,
    commands: Sender<Command>,
}

impl ModbusServer {
    /// Listens on `listener` for the program `runner` runs, by `map`; writes only if
    /// `allow_write`. Returns at once; the server runs on its own threads until dropped.
    pub fn start(
        listener: TcpListener,
        runner: TaskHandle,
        map: ModbusMap,
        allow_write: bool,
        limits: Limits,
    ) -> std::io::Result<ModbusServer> {
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let map = Arc::new(map);
        let commands = command_pump(runner.clone(), Arc::clone(&stop));
        let commands_kept = commands.clone();
        let clients = Arc::new(Registry::default());
        let registry = Arc::clone(&clients);
        let stop_accept = Arc::clone(&stop);
        std::thread::Builder::new().name("modbus-accept".into()).spawn(move || {
            for stream in listener.incoming() {
                if stop_accept.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let Some((admitted, peer)) = registry.admit_logged(&stream, limits, "modbus") else { continue };
                eprintln!("modbus: {peer} connected");
                let (runner, map, commands) = (runner.clone(), Arc::clone(&map), commands.clone());
                let _ = std::thread::Builder::new().name("modbus-client".into()).spawn(move || {
                    let why = serve_client(stream, &runner, &map, &commands, (allow_write, limits), &admitted);
                    drop(admitted);
                    eprintln!("modbus: {peer} closed ({why})");
                });
            }
        })?;
        Ok(ModbusServer { addr, stop, clients, commands: commands_kept })
    }

    /// The queue its coils press the 2048 commands into (for another front end to share).
    pub fn commands(&self) -> Sender<Command> {
        self.commands.clone()
    }

    /// The clients connected now (their addresses).
    pub fn clients(&self) -> Vec<String> {
        self.clients.peers()
    }
}

impl Drop for ModbusServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.clients.close_all();
        // Wake the accepting thread so it sees the stop.
        let _ = TcpStream::connect(self.addr);
    }
}

/// The 2048 command queue of a network front end: a command sent goes out as the selector's
/// pulse when the lockout allows, as the window's keys do, until `stop`.
pub fn command_pump(runner: TaskHandle, stop: Arc<AtomicBool>) -> Sender<Command> {
    let (commands, queued) = channel::<Command>();
    pump(runner, queued, stop);
    commands
}

fn pump(runner: TaskHandle, queued: Receiver<Command>, stop: Arc<AtomicBool>) {
    let _ = std::thread::Builder::new().name("command-pump".into()).spawn(move || {
        let mut front = Front::default();
        let io = GameIo::find(&runner.image().plan);
        while !stop.load(Ordering::Relaxed) {
            while let Ok(c) = queued.try_recv() {
                front.send(c);
            }
            let img = runner.image();
            let view = View::read(io.as_ref(), &img);
            front.pump(&runner, &view, view.best);
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

/// One client's frames until it goes; why it went.
fn serve_client(
    mut stream: TcpStream,
    runner: &TaskHandle,
    map: &ModbusMap,
    commands: &Sender<Command>,
    (allow_write, limits): (bool, Limits),
    admitted: &Admitted,
) -> String {
    let _ = stream.set_write_timeout(Some(limits.write));
    let _ = stream.set_nodelay(true);
    let mut response: Vec<u8> = Vec::with_capacity(260);
    loop {
        let mut buf = [0u8; 260];
        let len = match read_frame(&mut stream, &mut buf, limits) {
            Ok(len) => len,
            Err(why) if admitted.shed() => return format!("to make room for another client ({why})"),
            Err(why) => return why,
        };
        // A whole frame came: the client is active (before the reply, which the client may
        // read before this thread goes on).
        admitted.touch();
        let unit = buf[6];
        // No function code has the top bit (that marks an exception reply): answered ILLEGAL
        // FUNCTION with the code as it came, not handed to the parser (which adds 0x80 to it).
        if buf[7] >= 0x80 {
            let reply = [buf[0], buf[1], 0, 0, 0, 3, unit, buf[7], 1];
            if let Err(e) = stream.write_all(&reply) {
                return e.to_string();
            }
            continue;
        }
        // Unit 0 is answered as any other, as OpenPLC's server answers every unit (a TCP
        // server has one unit; silence would leave the client waiting for its timeout).
        let mut frame =
            ModbusFrame::new(unit, &buf[..6 + len], ModbusProto::TcpUdp, &mut response).with_broadcast_units(&[]);
        if frame.parse().is_err() {
            return "a frame that does not parse".into();
        }
        if frame.processing_required {
            let result = if frame.readonly {
                read(&mut frame, runner, map)
            } else {
                write(&mut frame, runner, map, (commands, allow_write))
            };
            let done =
                if frame.readonly { frame.process_external_read(result) } else { frame.process_external_write(result) };
            if done.is_err() {
                return "a frame the server cannot answer".into();
            }
        }
        if frame.response_required {
            if frame.finalize_response().is_err() {
                return "a response that does not fit".into();
            }
            if let Err(e) = stream.write_all(&response) {
                return match e.kind() {
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                        format!("it did not read its replies within {} s", limits.write.as_secs_f64())
                    }
                    _ => e.to_string(),
                };
            }
        }
    }
}

/// One frame into `buf`: the MBAP header (transaction, protocol, length of unit and PDU), then
/// that many bytes; its length after the header. A client may wait up to `limits.idle` before a
/// frame, and must send the whole frame within `limits.request` of its first byte.
fn read_frame(stream: &mut TcpStream, buf: &mut [u8; 260], limits: Limits) -> Result<usize, String> {
    let _ = stream.set_read_timeout(Some(limits.idle));
    if let Err(e) = stream.read_exact(&mut buf[..1]) {
        return Err(match e.kind() {
            // Between two frames: the client hung up.
            std::io::ErrorKind::UnexpectedEof => "by the client".into(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                format!("silent for {} s", limits.idle.as_secs())
            }
            _ => e.to_string(),
        });
    }
    let until = Instant::now() + limits.request;
    let late = || format!("a frame not complete within {} s of its first byte", limits.request.as_secs_f64());
    read_until(stream, &mut buf[1..6], until).map_err(|e| e.unwrap_or_else(late))?;
    let len = u16::from_be_bytes([buf[4], buf[5]]) as usize;
    if !(2..=254).contains(&len) {
        return Err(format!("a frame of {len} bytes (Modbus allows at most 254)"));
    }
    read_until(stream, &mut buf[6..6 + len], until).map_err(|e| e.unwrap_or_else(late))?;
    Ok(len)
}

/// Fills `buf` from `stream` before `until`; `Err(None)` if time ran out, else the error.
fn read_until(stream: &mut TcpStream, buf: &mut [u8], until: Instant) -> Result<(), Option<String>> {
    let mut got = 0;
    while got < buf.len() {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(None);
        }
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut buf[got..]) {
            Ok(0) => return Err(Some("closed by the client within a frame".into())),
            Ok(n) => got += n,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return Err(None);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Some(e.to_string())),
        }
    }
    Ok(())
}

/// A read, answered from the published image; an address the map does not hold is
/// ILLEGAL DATA ADDRESS.
fn read<V: rmodbus::VectorTrait<u8>>(
    frame: &mut ModbusFrame<'_, V>,
    runner: &TaskHandle,
    map: &ModbusMap,
) -> Result<(), ErrorKind> {
    let table = match frame.func {
        ModbusFunction::GetCoils => Table::Coil,
        ModbusFunction::GetDiscretes => Table::Discrete,
        ModbusFunction::GetHoldings => Table::Holding,
        _ => Table::Input,
    };
    let img = runner.image();
    match frame.get_external_read()? {
        MbRead::Bits(b) if b.count == 0 => return Err(ErrorKind::IllegalDataValue),
        MbRead::Words(w) if w.count == 0 => return Err(ErrorKind::IllegalDataValue),
        MbRead::Bits(b) => {
            for k in 0..b.count {
                let (e, _) = map
                    .find(table, b.address.checked_add(k).ok_or(ErrorKind::IllegalDataAddress)?)
                    .ok_or(ErrorKind::IllegalDataAddress)?;
                if map.read_bit(e, &img) {
                    b.buf[usize::from(k / 8)] |= 1 << (k % 8);
                }
            }
        }
        MbRead::Words(w) => {
            for k in 0..w.count {
                let (e, word) = map
                    .find(table, w.address.checked_add(k).ok_or(ErrorKind::IllegalDataAddress)?)
                    .ok_or(ErrorKind::IllegalDataAddress)?;
                let v = map.read_word(e, word, &img).to_be_bytes();
                w.buf[usize::from(k) * 2..usize::from(k) * 2 + 2].copy_from_slice(&v);
            }
        }
    }
    Ok(())
}

/// A write: every item it names checked first (writes refused, unless allowed or the map allows
/// the item, and a write to a mapped item that is no input, are ILLEGAL FUNCTION; an unmapped
/// address ILLEGAL DATA ADDRESS; a value split from
/// its other registers, or one its input does not take, ILLEGAL DATA VALUE), then applied as
/// one batch, all or nothing.
fn write<V: rmodbus::VectorTrait<u8>>(
    frame: &mut ModbusFrame<'_, V>,
    runner: &TaskHandle,
    map: &ModbusMap,
    (commands, allow_write): (&Sender<Command>, bool),
) -> Result<(), ErrorKind> {
    let permitted =
        |e: &crate::map::Entry| if allow_write || e.write { Ok(()) } else { Err(ErrorKind::IllegalFunction) };
    let mut sets: Vec<SetInput> = Vec::new();
    let mut pressed: Vec<Command> = Vec::new();
    match frame.get_external_write()? {
        MbWrite::Bits(b) if b.count == 0 => return Err(ErrorKind::IllegalDataValue),
        MbWrite::Words(w) if w.count == 0 => return Err(ErrorKind::IllegalDataValue),
        MbWrite::Bits(b) => {
            for k in 0..b.count {
                let (e, _) = map
                    .find(Table::Coil, b.address.checked_add(k).ok_or(ErrorKind::IllegalDataAddress)?)
                    .ok_or(ErrorKind::IllegalDataAddress)?;
                permitted(e)?;
                let on = b.data[usize::from(k / 8)] & (1 << (k % 8)) != 0;
                match &e.item {
                    Item::Command(c) if on => pressed.push(*c),
                    Item::Command(_) => {}
                    Item::Signal { input: Some(name), .. } => {
                        sets.push(SetInput { name: name.clone(), value: Value::Bool(on) })
                    }
                    // Mapped, but no input: it exists and cannot be written.
                    _ => return Err(ErrorKind::IllegalFunction),
                }
            }
        }
        MbWrite::Words(w) => {
            let regs: Vec<u16> = w.data.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
            let mut k = 0u16;
            while k < w.count {
                let (e, word) = map
                    .find(Table::Holding, w.address.checked_add(k).ok_or(ErrorKind::IllegalDataAddress)?)
                    .ok_or(ErrorKind::IllegalDataAddress)?;
                let Item::Signal { ty, words, input: Some(name), .. } = &e.item else {
                    return Err(ErrorKind::IllegalFunction);
                };
                let n = (*words).max(1);
                if word != 0 || k + n > w.count {
                    return Err(ErrorKind::IllegalDataValue);
                }
                let mut v = ModbusMap::value_of(*ty, &regs[usize::from(k)..usize::from(k + n)]);
                if let (Some(scale), Value::Int(i)) = (e.scale, v) {
                    // A scaled register holds value × scale.
                    let x = i as f64 / scale;
                    v = if matches!(ty, Type::Real | Type::LReal) {
                        Value::Real(x)
                    } else {
                        Value::Int(x.round() as i64)
                    };
                }
                let v = if *ty == Type::Bool { Value::Bool(v != Value::Int(0)) } else { v };
                sets.push(SetInput { name: name.clone(), value: v });
                k += n;
            }
        }
    }
    // All or nothing: a request answered with an exception changes nothing.
    if !sets.is_empty() {
        runner.call(SetInputs(sets)).map_err(|_| ErrorKind::IllegalDataValue)?;
    }
    for c in pressed {
        let _ = commands.send(c);
    }
    Ok(())
}
