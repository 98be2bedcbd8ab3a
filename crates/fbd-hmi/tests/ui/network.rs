//! Debug → Serve on network: the running program served by Modbus TCP from the window, over
//! the same task, with who is connected (loopback only, one request).

use std::io::{Read, Write};

use egui_kittest::kittest::Queryable;
use fbd2048_game::Wiring;

use crate::*;

#[test]
fn the_window_serves_the_program_by_modbus_and_shows_its_clients() {
    let mut h = harness(Wiring::Upd1, false, "network");
    h.step();
    h.state_mut().set_board(board([2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 8, 0, 0, 0, 0, 16]));
    h.step();
    let said = h.state_mut().serve_modbus("127.0.0.1:0", false).expect("listens");
    assert!(said.contains("writes refused"), "{said}");
    let (addr, clients) = h.state().network().modbus_status().expect("running");
    assert!(clients.is_empty());
    // Read input registers 0..16 (the board), as any Modbus client would.
    let mut s = std::net::TcpStream::connect(addr).expect("connects");
    s.write_all(&[0, 1, 0, 0, 0, 6, 1, 4, 0, 0, 0, 16]).expect("request");
    let mut reply = [0u8; 9 + 32];
    s.read_exact(&mut reply).expect("reply");
    assert_eq!((reply[7], reply[8]), (4, 32), "function 4, 32 bytes");
    let cells: Vec<u16> = reply[9..].chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
    assert_eq!(cells, [2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 8, 0, 0, 0, 0, 16]);
    assert_eq!(h.state().network().modbus_status().expect("running").1.len(), 1, "one client connected");
    // The window (Debug > Serve on network...) says so.
    h.get_by_label("Debug").click();
    h.step();
    h.step();
    h.get_by_label("Serve on network...").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(h.query_by_label_contains("1 client(s) connected").is_some());
    // The browser HMI beside it: its page from the window's task.
    let said = h.state_mut().serve_web("127.0.0.1:0").expect("the page is served");
    assert!(said.contains("the browser HMI on http://127.0.0.1:"), "{said}");
    let web = h.state().network().web_addr().expect("serving");
    let mut s = std::net::TcpStream::connect(web).expect("connects");
    s.write_all(format!("GET / HTTP/1.1\r\nHost: {web}\r\n\r\n").as_bytes()).expect("request");
    let mut page = String::new();
    s.read_to_string(&mut page).expect("the page");
    assert!(page.starts_with("HTTP/1.1 200 OK") && page.contains("<title>fbd2048</title>"));
    // Writes refused here, so the address the window gives holds no token.
    assert_eq!(h.state().network().web_url(), Some(format!("http://{web}/")));
    h.state_mut().stop_modbus();
    assert!(h.state().network().modbus_status().is_none() && h.state().network().web_addr().is_none());
}
