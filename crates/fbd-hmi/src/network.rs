//! Debug → Serve on network: the running program served by Modbus TCP from the window, as
//! `fbd serve` does (the same server, over the same task), with who is connected.

use std::net::TcpListener;

use eframe::egui;
use fbd_serve::{Limits, ModbusMap, ModbusServer};

use crate::app::App;

/// The window's state and the server it started.
pub(crate) struct NetworkPanel {
    pub(crate) open: bool,
    addr: String,
    allow_write: bool,
    server: Option<ModbusServer>,
    message: String,
}

impl Default for NetworkPanel {
    fn default() -> Self {
        NetworkPanel {
            open: false,
            addr: "127.0.0.1:5020".into(),
            allow_write: false,
            server: None,
            message: String::new(),
        }
    }
}

impl App {
    /// Starts the Modbus server on `addr` for the program running now; what it said.
    pub fn serve_modbus(&mut self, addr: &str, allow_write: bool) -> Result<String, String> {
        let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let map = ModbusMap::of(&self.image().plan);
        let server = ModbusServer::start(listener, self.runner.handle(), map, allow_write, Limits::default())
            .map_err(|e| e.to_string())?;
        let mut said =
            format!("Modbus on {} ({})", server.addr, if allow_write { "writes allowed" } else { "writes refused" });
        if !server.addr.ip().is_loopback() {
            said.push_str(" — open to the network, and Modbus has no authentication");
        }
        self.network.server = Some(server);
        Ok(said)
    }

    /// Where the Modbus server listens and who is connected, if it runs.
    pub fn modbus_status(&self) -> Option<(std::net::SocketAddr, Vec<String>)> {
        self.network.server.as_ref().map(|s| (s.addr, s.clients()))
    }

    /// Opens the Serve on network window.
    pub fn open_network_window(&mut self) {
        self.network.open = true;
    }

    /// Stops the Modbus server.
    pub fn stop_modbus(&mut self) {
        self.network.server = None;
    }

    pub(crate) fn network_window(&mut self, ctx: &egui::Context) {
        if !self.network.open {
            return;
        }
        let mut open = true;
        let mut start = false;
        let mut stop = false;
        let n = &mut self.network;
        egui::Window::new("Serve on network").open(&mut open).collapsible(false).show(ctx, |ui| {
            match &n.server {
                None => {
                    ui.horizontal(|ui| {
                        let l = ui.label("Modbus TCP on");
                        ui.add(egui::TextEdit::singleline(&mut n.addr).desired_width(160.0)).labelled_by(l.id);
                    });
                    ui.checkbox(&mut n.allow_write, "allow writes (coils, holding registers)");
                    start = ui.button("Start").clicked();
                }
                Some(s) => {
                    ui.label(format!("listening on {}", s.addr));
                    let clients = s.clients();
                    ui.label(format!("{} client(s) connected", clients.len()));
                    for c in clients {
                        ui.label(format!("  {c}"));
                    }
                    stop = ui.button("Stop").clicked();
                }
            }
            if !n.message.is_empty() {
                ui.label(egui::RichText::new(&n.message).weak());
            }
        });
        if start {
            let (addr, allow) = (self.network.addr.clone(), self.network.allow_write);
            self.network.message = match self.serve_modbus(&addr, allow) {
                Ok(m) | Err(m) => m,
            };
        }
        if stop {
            self.stop_modbus();
            self.network.message = "stopped".into();
        }
        if !open {
            self.network.open = false;
        }
        if self.network.server.is_some() {
            // Who is connected changes without a frame asking.
            ctx.request_repaint_after(std::time::Duration::from_millis(500));
        }
    }
}
