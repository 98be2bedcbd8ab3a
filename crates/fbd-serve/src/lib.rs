//! The soft-PLC on the network: a Modbus TCP server (as OpenPLC's runtime serves its
//! variables) over the real-time task. Reads answer from the task's published scan image; writes
//! go through the task's request queue and land together between two scans; the scan task never
//! waits on the network.
//!
//! Files: `map.rs` (which register or bit is which signal: the 2048 program's map, or one
//! generated from a program's ports), `server.rs` (the TCP server: connections, limits, frames,
//! and the command pump), `web.rs` (the browser HMI: a page and its WebSocket), `access.rs` (who may open the socket and
//! who may write: origins and the write token), `conn.rs` (the connection limit, shedding the
//! idlest), `http.rs` (a request head read within its deadline).
//!
//! What is where: the soft-PLC on the network: `ModbusMap` (the 2048 program's map, or one
//! generated from a program's ports; values wider than 16 bits over several registers, most
//! significant first) and `ModbusServer` (std TCP: an accepting thread with a connection limit, a
//! thread per client with an idle timeout and the frame length checked, reads answered from the
//! published scan image, writes as one batch of requests between two scans, refused unless allowed;
//! the 2048 commands queued and pulsed when the lockout allows, by the game front's queue:
//! `command_pump`); frames by rmodbus; `WebServer` (the browser HMI: one page from the binary,
//! `web/index.html`, and a WebSocket pushing the state when a scan changes it and taking presses
//! and values); `WebAccess` (`access.rs`: the socket opened only by the server's own page or an
//! allowed origin, a loopback `Host` on a loopback listener; writes only with `--allow-write` and
//! the session's token); `conn.rs` (the connection limit, shedding the idlest client); deadlines
//! per request and per reply (`Limits`)

mod access;
mod conn;
mod http;
mod map;
mod server;
mod web;

pub use access::{WebAccess, new_token};
pub use map::{Entry, Item, ModbusMap, Table};
pub use server::{Limits, ModbusServer, command_pump};
pub use web::WebServer;
