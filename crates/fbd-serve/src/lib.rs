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
