//! The Modbus TCP server: a thread accepting connections (at most [`Limits::connections`] at
//! once), a thread per connection reading one frame at a time (a frame longer than Modbus
//! allows, or one that does not parse, closes the connection; a silent client is dropped after
//! [`Limits::idle`]), and a pump that sends queued 2048 commands when the lockout allows. Reads
//! answer from the published scan image; writes, refused unless allowed, go to the task as one
//! batch of requests, applied together between two scans.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use fbd_engine::realtime::TaskHandle;
use fbd_engine::runtime::requests::SetInput;
use fbd_engine::{Type, Value};
use fbd2048_game::Command;
use fbd2048_game::front::{Front, GameIo, View};
use rmodbus::consts::ModbusFunction;
use rmodbus::server::{ModbusFrame, Read as MbRead, Write as MbWrite};
use rmodbus::{ErrorKind, ModbusProto};

use crate::map::{Item, ModbusMap, Table};

/// What one client may take.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// Connections served at once; more are closed at once.
    pub connections: usize,
    /// A client silent this long is dropped.
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { connections: 16, idle: Duration::from_secs(60) }
    }
}

/// A running Modbus server.
pub struct ModbusServer {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    clients: Arc<std::sync::Mutex<Vec<String>>>,
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
        let open = Arc::new(AtomicUsize::new(0));
        let clients: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
        let clients_accept = Arc::clone(&clients);
        let stop_accept = Arc::clone(&stop);
        std::thread::Builder::new().name("modbus-accept".into()).spawn(move || {
            for stream in listener.incoming() {
                if stop_accept.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let peer = stream.peer_addr().map_or("?".into(), |a| a.to_string());
                if open.fetch_add(1, Ordering::SeqCst) >= limits.connections {
                    open.fetch_sub(1, Ordering::SeqCst);
                    eprintln!("modbus: {peer} refused: {} connections already", limits.connections);
                    continue;
                }
                eprintln!("modbus: {peer} connected");
                clients_accept.lock().unwrap_or_else(|e| e.into_inner()).push(peer.clone());
                let (runner, map, commands, open) =
                    (runner.clone(), Arc::clone(&map), commands.clone(), Arc::clone(&open));
                let clients = Arc::clone(&clients_accept);
                let _ = std::thread::Builder::new().name("modbus-client".into()).spawn(move || {
                    let why = serve_client(stream, &runner, &map, &commands, (allow_write, limits));
                    open.fetch_sub(1, Ordering::SeqCst);
                    clients.lock().unwrap_or_else(|e| e.into_inner()).retain(|c| *c != peer);
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
        self.clients.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Drop for ModbusServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
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
) -> String {
    let _ = stream.set_read_timeout(Some(limits.idle));
    let _ = stream.set_nodelay(true);
    let mut response: Vec<u8> = Vec::with_capacity(260);
    loop {
        // MBAP header: transaction, protocol, length (unit and PDU), then that many bytes.
        let mut buf = [0u8; 260];
        if let Err(e) = stream.read_exact(&mut buf[..6]) {
            return match e.kind() {
                // Between two frames: the client hung up.
                std::io::ErrorKind::UnexpectedEof => "by the client".into(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                    format!("silent for {} s", limits.idle.as_secs())
                }
                _ => e.to_string(),
            };
        }
        let len = u16::from_be_bytes([buf[4], buf[5]]) as usize;
        if !(2..=254).contains(&len) {
            return format!("a frame of {len} bytes (Modbus allows at most 254)");
        }
        if let Err(e) = stream.read_exact(&mut buf[6..6 + len]) {
            return e.to_string();
        }
        let unit = buf[6];
        let mut frame = ModbusFrame::new(unit, &buf[..6 + len], ModbusProto::TcpUdp, &mut response);
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
                return e.to_string();
            }
        }
    }
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
        MbRead::Bits(b) => {
            for k in 0..b.count {
                let (e, _) = map.find(table, b.address.wrapping_add(k)).ok_or(ErrorKind::IllegalDataAddress)?;
                if map.read_bit(e, &img) {
                    b.buf[usize::from(k / 8)] |= 1 << (k % 8);
                }
            }
        }
        MbRead::Words(w) => {
            for k in 0..w.count {
                let (e, word) = map.find(table, w.address.wrapping_add(k)).ok_or(ErrorKind::IllegalDataAddress)?;
                let v = map.read_word(e, word, &img).to_be_bytes();
                w.buf[usize::from(k) * 2..usize::from(k) * 2 + 2].copy_from_slice(&v);
            }
        }
    }
    Ok(())
}

/// A write: every item it names checked first (writes refused, unless allowed or the map allows
/// the item, are ILLEGAL FUNCTION; an unmapped address ILLEGAL DATA ADDRESS; a value split from
/// its other registers ILLEGAL DATA VALUE), then sent as one batch.
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
        MbWrite::Bits(b) => {
            for k in 0..b.count {
                let (e, _) = map.find(Table::Coil, b.address.wrapping_add(k)).ok_or(ErrorKind::IllegalDataAddress)?;
                permitted(e)?;
                let on = b.data[usize::from(k / 8)] & (1 << (k % 8)) != 0;
                match &e.item {
                    Item::Command(c) if on => pressed.push(*c),
                    Item::Command(_) => {}
                    Item::Signal { input: Some(name), .. } => {
                        sets.push(SetInput { name: name.clone(), value: Value::Bool(on) })
                    }
                    _ => return Err(ErrorKind::IllegalDataAddress),
                }
            }
        }
        MbWrite::Words(w) => {
            let regs: Vec<u16> = w.data.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
            let mut k = 0u16;
            while k < w.count {
                let (e, word) =
                    map.find(Table::Holding, w.address.wrapping_add(k)).ok_or(ErrorKind::IllegalDataAddress)?;
                let Item::Signal { ty, words, input: Some(name), .. } = &e.item else {
                    return Err(ErrorKind::IllegalDataAddress);
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
    if !sets.is_empty() {
        for r in runner.call(sets) {
            r.map_err(|_| ErrorKind::IllegalDataValue)?;
        }
    }
    for c in pressed {
        let _ = commands.send(c);
    }
    Ok(())
}
