//! Debug → Serve on network: the running program served by Modbus TCP from the window, as
//! `fbd serve` does (the same server, over the same task), with who is connected.

use std::net::TcpListener;

use eframe::egui;
use fbd_serve::{Limits, ModbusMap, ModbusServer, WebAccess, WebServer};

use crate::link::FrameCtx;

/// The window's state and the server it started.
pub struct NetworkPanel {
    pub(crate) open: bool,
    addr: String,
    allow_write: bool,
    server: Option<ModbusServer>,
    /// The browser HMI's address, as typed ("" for none), and its server.
    http: String,
    web: Option<WebServer>,
    message: String,
}

impl Default for NetworkPanel {
    fn default() -> Self {
        NetworkPanel {
            open: false,
            addr: "127.0.0.1:5020".into(),
            allow_write: false,
            server: None,
            http: "127.0.0.1:8080".into(),
            web: None,
            message: String::new(),
        }
    }
}

impl NetworkPanel {
    /// Starts the Modbus server on `addr` for the program running now; what it said.
    pub(crate) fn serve_modbus(&mut self, addr: &str, allow_write: bool, cx: FrameCtx<'_>) -> Result<String, String> {
        let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let map = ModbusMap::of(&cx.img.plan);
        let server = ModbusServer::start(listener, cx.link.handle(), map, allow_write, Limits::default())
            .map_err(|e| e.to_string())?;
        let mut said =
            format!("Modbus on {} ({})", server.addr, if allow_write { "writes allowed" } else { "writes refused" });
        if !server.addr.ip().is_loopback() {
            said.push_str(" — open to the network, and Modbus has no authentication");
        }
        self.allow_write = allow_write;
        self.server = Some(server);
        Ok(said)
    }

    /// Starts the browser HMI on `addr` beside the Modbus server (sharing its command queue).
    pub(crate) fn serve_web(&mut self, addr: &str, cx: FrameCtx<'_>) -> Result<String, String> {
        let commands = self.server.as_ref().ok_or("start the Modbus server first")?.commands();
        let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let access = WebAccess::new(self.allow_write);
        let web = WebServer::start(listener, cx.link.handle(), commands, access, Limits::default())
            .map_err(|e| e.to_string())?;
        let said = format!("the browser HMI on {}", web.url());
        self.web = Some(web);
        Ok(said)
    }

    /// Where the browser HMI is served, if it is.
    pub fn web_addr(&self) -> Option<std::net::SocketAddr> {
        self.web.as_ref().map(|w| w.addr)
    }

    /// The browser HMI's address to open, with its write token when writes are allowed.
    pub fn web_url(&self) -> Option<String> {
        self.web.as_ref().map(WebServer::url)
    }

    /// Where the Modbus server listens and who is connected, if it runs.
    pub fn modbus_status(&self) -> Option<(std::net::SocketAddr, Vec<String>)> {
        self.server.as_ref().map(|s| (s.addr, s.clients()))
    }

    /// Stops the Modbus server and the browser HMI.
    pub fn stop(&mut self) {
        self.web = None;
        self.server = None;
    }
}

impl crate::window::Window for NetworkPanel {
    /// The Serve on network window, while open.
    fn show(&mut self, ctx: &egui::Context, cx: FrameCtx<'_>) -> Option<crate::ui_command::UiCommand> {
        if !self.open {
            return None;
        }
        let mut open = true;
        let mut start = false;
        let mut stop = false;
        let n = &mut *self;
        egui::Window::new("Serve on network").open(&mut open).collapsible(false).show(ctx, |ui| {
            match &n.server {
                None => {
                    ui.horizontal(|ui| {
                        let l = ui.label("Modbus TCP on");
                        ui.add(egui::TextEdit::singleline(&mut n.addr).desired_width(160.0)).labelled_by(l.id);
                    });
                    ui.horizontal(|ui| {
                        let l = ui.label("browser HMI on");
                        ui.add(egui::TextEdit::singleline(&mut n.http).hint_text("none").desired_width(160.0))
                            .labelled_by(l.id);
                    });
                    ui.checkbox(&mut n.allow_write, "allow writes (coils, holding registers, the page's buttons)");
                    start = ui.button("Start").clicked();
                }
                Some(s) => {
                    ui.label(format!("Modbus on {}", s.addr));
                    if let Some(w) = &n.web {
                        // The link holds the write token when writes are allowed: only who opens
                        // it from here (or is given it) can write from a page.
                        ui.hyperlink_to(format!("browser HMI on http://{}/", w.addr), w.url());
                        let pages = w.clients();
                        ui.label(format!("{} page(s) open", pages.len()));
                        for c in pages {
                            ui.label(format!("  {c}"));
                        }
                    }
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
            let (addr, allow, http) = (self.addr.clone(), self.allow_write, self.http.trim().to_string());
            self.message = match self.serve_modbus(&addr, allow, cx) {
                Ok(m) if http.is_empty() => m,
                Ok(m) => match self.serve_web(&http, cx) {
                    Ok(w) => format!("{m}; {w}"),
                    Err(e) => format!("{m}; {e}"),
                },
                Err(m) => m,
            };
        }
        if stop {
            self.stop();
            self.message = "stopped".into();
        }
        if !open {
            self.open = false;
        }
        if self.server.is_some() {
            // Who is connected changes without a frame asking.
            ctx.request_repaint_after(std::time::Duration::from_millis(500));
        }
        None
    }
}
