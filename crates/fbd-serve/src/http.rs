//! An HTTP request head, read whole within a deadline.
//!
//! The deadline is for the whole head, not for each byte: a client dripping one byte every few
//! seconds is closed when the head is not complete in time, however often it sends.

use std::io::Read;
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The biggest request head taken.
pub(crate) const MAX_HEAD: usize = 8192;

/// A request's first line and headers.
pub(crate) struct Head {
    pub(crate) method: String,
    /// The path, without its query.
    pub(crate) path: String,
    /// What follows `?`, or "".
    pub(crate) query: String,
    headers: Vec<(String, String)>,
    /// Bytes read after the head (a WebSocket client's first frames).
    pub(crate) rest: Vec<u8>,
}

impl Head {
    /// The value of header `name` (any case), the first if repeated.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Why no head was read.
pub(crate) enum HeadError {
    /// The client closed or the network failed.
    Io(std::io::Error),
    /// Not complete within the deadline.
    Late(Duration),
    /// Longer than [`MAX_HEAD`].
    TooLarge,
    /// Not an HTTP request head.
    Malformed,
}

/// Reads a request head from `stream`, complete within `deadline` of the call.
pub(crate) fn read_head(stream: &mut TcpStream, deadline: Duration) -> Result<Head, HeadError> {
    let until = Instant::now() + deadline;
    let mut buf: Vec<u8> = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    let end = loop {
        if let Some(k) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break k + 4;
        }
        if buf.len() > MAX_HEAD {
            return Err(HeadError::TooLarge);
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(HeadError::Late(deadline));
        }
        stream.set_read_timeout(Some(left)).map_err(HeadError::Io)?;
        match stream.read(&mut chunk) {
            Ok(0) => {
                return Err(HeadError::Io(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "closed by the client",
                )));
            }
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return Err(HeadError::Late(deadline));
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(HeadError::Io(e)),
        }
    };
    if end > MAX_HEAD {
        return Err(HeadError::TooLarge);
    }
    let text = std::str::from_utf8(&buf[..end]).map_err(|_| HeadError::Malformed)?;
    let mut lines = text.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let (Some(method), Some(target)) = (first.next(), first.next()) else { return Err(HeadError::Malformed) };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let headers = lines
        .filter(|l| !l.is_empty())
        .map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_string(), v.trim().to_string())))
        .collect::<Option<Vec<_>>>()
        .ok_or(HeadError::Malformed)?;
    Ok(Head {
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        headers,
        rest: buf[end..].to_vec(),
    })
}
