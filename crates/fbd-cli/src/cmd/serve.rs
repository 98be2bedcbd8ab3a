//! `fbd serve`: a program on the real-time task, served on the network by Modbus TCP.

use std::io::Write as _;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::error::Error;

use fbd_engine::limits::{MAX_CYCLE_MS, MIN_CYCLE_MS};
use fbd_engine::realtime::RealtimeRunner;
use fbd_engine::{CompileOptions, Runtime};
use fbd_serve::{Limits, ModbusMap, ModbusServer, WebAccess, WebServer};

use crate::out;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// A diagram or PLCopen project (default: the embedded diagrams/2048.json).
    pub(crate) file: Option<PathBuf>,
    /// An embedded wiring instead of a file: upd1, original, smart-spawn.
    #[arg(long, conflicts_with = "file")]
    pub(crate) wiring: Option<String>,
    /// Where the Modbus TCP server listens (port 0: any free port, printed).
    #[arg(long, default_value = "127.0.0.1:502", value_name = "ADDR:PORT")]
    pub(crate) modbus: String,
    /// Where the browser HMI is served (its page at /, live values at /ws); `off`: none.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
    pub(crate) http: String,
    /// Listen on this address instead of 127.0.0.1 (both servers; Modbus and the page have
    /// no authentication: said when it is not a loopback address).
    #[arg(long, value_name = "ADDR")]
    pub(crate) listen: Option<String>,
    /// The scan cycle in milliseconds, 0.05 to 60000 (default: the program's): the pacing and
    /// the simulated clock alike, as if the program said it.
    #[arg(long, value_name = "MS")]
    pub(crate) cycle: Option<f64>,
    /// Record the session for `fbd replay` (saved when it ends: Ctrl-C, SIGTERM or
    /// --for-seconds).
    #[arg(long, value_name = "FILE")]
    pub(crate) record: Option<PathBuf>,
    /// Accept writes: coils and holding registers (refused with ILLEGAL FUNCTION
    /// otherwise), and the browser HMI's buttons and fields from a page opened with the write
    /// token (printed in the page's address).
    #[arg(long)]
    pub(crate) allow_write: bool,
    /// The browser HMI's write token (default: a fresh random one each start, printed).
    #[arg(long, env = "FBD_SERVE_TOKEN", value_name = "TOKEN", hide_env_values = true)]
    pub(crate) token: Option<String>,
    /// A web origin besides the server's own whose pages may open the live-value socket
    /// (`http://scada.local:1880`); repeatable. Pages of any other site are refused.
    #[arg(long, value_name = "ORIGIN")]
    pub(crate) allow_origin: Vec<String>,
    /// Print the Modbus map and exit.
    #[arg(long)]
    pub(crate) print_map: bool,
    /// The Modbus map from this file instead (`{"items": [{"name", "table", "address",
    /// "words"?, "scale"?, "write"?}]}`; docs/network.md).
    #[arg(long, value_name = "FILE")]
    pub(crate) map: Option<PathBuf>,
    /// Runtime seed (RANDOM blocks).
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Stop after this many seconds (default: run until interrupted).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) for_seconds: Option<f64>,
}

/// Runs `fbd serve`.
pub(crate) fn run(a: Args) -> Result<ExitCode, Error> {
    serve(a)?;
    Ok(ExitCode::SUCCESS)
}

fn serve(a: Args) -> Result<(), String> {
    let access = web_access(&a)?;
    let mut project = crate::source::project(a.file.as_deref(), a.wiring.as_deref())?;
    let project_for_id = crate::source::project(a.file.as_deref(), a.wiring.as_deref())?;
    if let Some(ms) = a.cycle {
        if !(MIN_CYCLE_MS..=MAX_CYCLE_MS).contains(&ms) {
            return Err(format!("--cycle {ms}: a scan cycle is {MIN_CYCLE_MS} to {MAX_CYCLE_MS} ms"));
        }
        // The program's cycle, so the simulated clock (timers, TIME) advances by it.
        project.files[0].doc.cycle_ms = Some(ms);
    }
    // The recording is written when the server stops: refused now if it would be one of the
    // program's files or cannot be written (not after an hour of serving).
    if let Some(path) = &a.record {
        crate::guard::not_an_input(path, "--record", &crate::guard::project_inputs(&project_for_id))?;
        crate::record::check_destination(path)?;
    }
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
        out::print(&map.text(&plan)).map_err(|e| e.to_string())?;
        return Ok(());
    }
    // Until Ctrl-C or SIGTERM (or --for-seconds): then the servers close and a recording is
    // saved. Caught before anything is served: a client told where to connect can end it.
    let (ended, end) = std::sync::mpsc::channel::<()>();
    ctrlc::set_handler(move || {
        let _ = ended.send(());
    })
    .map_err(|e| format!("cannot catch Ctrl-C: {e}"))?;
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
        let web = WebServer::start(l, runner.handle(), server.commands(), access, Limits::default())
            .map_err(|e| e.to_string())?;
        if !web.addr.ip().is_loopback() {
            eprintln!(
                "warning: the browser HMI on {} can be read by anyone on the network (writes need the token)",
                web.addr
            );
        }
        println!("http: the browser HMI on {}", web.url());
        Some(web)
    };
    let _ = std::io::stdout().flush();
    // Until Ctrl-C, SIGTERM or --for; a task the watchdog stopped is said once, as it stops
    // (the server goes on serving what it last published: a PLC in STOP).
    let deadline = a.for_seconds.map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s.max(0.0)));
    let mut said = false;
    loop {
        let wait = std::time::Duration::from_millis(100);
        let wait = deadline.map_or(wait, |d| wait.min(d.saturating_duration_since(std::time::Instant::now())));
        match end.recv_timeout(wait) {
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            _ => break,
        }
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            break;
        }
        if let (false, Some(why)) = (said, runner.image().halt_message()) {
            eprintln!("error: the task stopped at {why}; serving its last values (restart `fbd serve` to run again)");
            said = true;
        }
    }
    eprintln!("stopping");
    drop(web);
    drop(server);
    if let Some(path) = &a.record {
        let mut rec =
            runner.call(fbd_engine::runtime::requests::StopRecording(program)).ok_or("the recording was lost")?;
        // Its program named from the recording's place, as `fbd run --record` names it.
        rec.place_files_for(path);
        fbd_engine::load::write_with(path, |w| rec.write_json(w))
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        eprintln!("{}: {} scans recorded", path.display(), rec.scans);
    }
    Ok(())
}

/// Who may write through the browser HMI: the token given (at least 16 characters, from the
/// URL-safe alphabet, since it travels in the page's address) or a fresh one; the origins
/// allowed besides the server's own.
fn web_access(a: &Args) -> Result<WebAccess, String> {
    let mut access = WebAccess::new(a.allow_write);
    if let Some(t) = &a.token {
        if t.len() < 16 || !t.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b)) {
            return Err(
                "--token (or FBD_SERVE_TOKEN): at least 16 characters of A-Z a-z 0-9 - _ . ~ (it travels in the page's address)"
                    .into(),
            );
        }
        access.token = t.clone();
    }
    for o in &a.allow_origin {
        let ok = (o.starts_with("http://") || o.starts_with("https://")) && !o.trim_end_matches('/').ends_with("//");
        if !ok {
            return Err(format!("--allow-origin {o}: an origin is a scheme and a host, http://HOST[:PORT]"));
        }
        access.allowed_origins.push(o.trim_end_matches('/').to_string());
    }
    Ok(access)
}
