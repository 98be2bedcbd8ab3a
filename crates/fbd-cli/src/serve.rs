//! `fbd serve`: a program on the real-time task, served on the network by Modbus TCP.

use std::io::Write as _;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::ExitCode;

use fbd_engine::realtime::RealtimeRunner;
use fbd_engine::{CompileOptions, Runtime};
use fbd_serve::{Limits, ModbusMap, ModbusServer, WebServer};

use crate::out;

pub(crate) struct ServeArgs {
    pub(crate) file: Option<PathBuf>,
    pub(crate) wiring: Option<String>,
    pub(crate) modbus: String,
    pub(crate) http: String,
    pub(crate) listen: Option<String>,
    pub(crate) cycle: Option<f64>,
    pub(crate) record: Option<PathBuf>,
    pub(crate) allow_write: bool,
    pub(crate) print_map: bool,
    pub(crate) map: Option<PathBuf>,
    pub(crate) seed: u64,
    pub(crate) for_seconds: Option<f64>,
}

pub(crate) fn serve_cmd(a: ServeArgs) -> ExitCode {
    match serve(a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            out::error(&e);
            ExitCode::FAILURE
        }
    }
}

fn serve(a: ServeArgs) -> Result<(), String> {
    let project = crate::source::project(a.file.as_deref(), a.wiring.as_deref())?;
    let project_for_id = crate::source::project(a.file.as_deref(), a.wiring.as_deref())?;
    let plan = fbd_engine::compile_project_owned(project, &CompileOptions::default()).map_err(|e| e.to_string())?;
    let map = match &a.map {
        None => ModbusMap::of(&plan),
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: cannot read: {e}", f.display()))?;
            ModbusMap::from_file(&plan, &text)
                .map_err(|e| e.lines().map(|l| format!("{}: {l}", f.display())).collect::<Vec<_>>().join("\n"))?
        }
    };
    if a.print_map {
        out::print(&map.text(&plan));
        return Ok(());
    }
    // `--listen ADDR` moves both servers to ADDR, their ports kept.
    let on = |addr: &str| match &a.listen {
        Some(host) => format!("{host}:{}", addr.rsplit(':').next().unwrap_or("0")),
        None => addr.to_string(),
    };
    let modbus_addr = on(&a.modbus);
    let listener = TcpListener::bind(&modbus_addr).map_err(|e| {
        format!(
            "cannot listen on {} for Modbus: {e} (port 502 needs privileges: give --modbus 127.0.0.1:5020)",
            a.modbus
        )
    })?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    if !addr.ip().is_loopback() {
        eprintln!("warning: Modbus on {addr} is open to the network, and Modbus has no authentication");
    }
    let program = fbd_engine::runtime::ProgramId::of(&project_for_id);
    let mut rt = Runtime::with_seed(plan, a.seed);
    if a.record.is_some() {
        rt.start_recording(1000);
    }
    let runner = RealtimeRunner::start(rt, None);
    if let Some(ms) = a.cycle.filter(|c| c.is_finite() && *c > 0.0) {
        runner.set_period(std::time::Duration::from_secs_f64(ms / 1000.0));
    }
    let server = ModbusServer::start(listener, runner.handle(), map, a.allow_write, Limits::default())
        .map_err(|e| e.to_string())?;
    println!(
        "modbus: listening on {} ({}; `fbd serve --print-map` lists the addresses)",
        server.addr,
        if a.allow_write { "writes allowed" } else { "writes refused" }
    );
    let web = if a.http == "off" {
        None
    } else {
        let l = TcpListener::bind(&a.http)
            .map_err(|e| format!("cannot listen on {} for HTTP: {e} (give --http ADDR:PORT, or off)", a.http))?;
        let web = WebServer::start(l, runner.handle(), server.commands(), a.allow_write, Limits::default().connections)
            .map_err(|e| e.to_string())?;
        if !web.addr.ip().is_loopback() {
            eprintln!("warning: the browser HMI on {} is open to the network, without authentication", web.addr);
        }
        println!("http: the browser HMI on http://{}/", web.addr);
        Some(web)
    };
    let _ = std::io::stdout().flush();
    // Until Ctrl-C or SIGTERM (or --for-seconds): then the servers close and a recording is
    // saved.
    let (ended, end) = std::sync::mpsc::channel::<()>();
    ctrlc::set_handler(move || {
        let _ = ended.send(());
    })
    .map_err(|e| format!("cannot catch Ctrl-C: {e}"))?;
    match a.for_seconds {
        Some(s) => {
            let _ = end.recv_timeout(std::time::Duration::from_secs_f64(s.max(0.0)));
        }
        None => {
            let _ = end.recv();
        }
    }
    eprintln!("stopping");
    drop(web);
    drop(server);
    if let Some(path) = &a.record {
        let rec = runner.call(fbd_engine::runtime::requests::StopRecording(program)).ok_or("the recording was lost")?;
        fbd_engine::load::write_with(path, |w| rec.write_json(w))
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        eprintln!("{}: {} scans recorded", path.display(), rec.scans);
    }
    Ok(())
}
