//! The connections a server holds, and which one gives way when they are too many.
//!
//! Each server admits at most [`Limits::connections`](crate::Limits) clients. When one more
//! arrives, room is made by closing, first, the oldest client that has completed nothing yet
//! (no request, frame or answered ping since it connected: a client that connects and says
//! nothing, or drips a byte at a time, never gets past this), else the client idle longest if
//! its last complete request is [`Limits::shed_after`](crate::Limits) old; if every client is
//! active more recently, the newcomer is refused. A newcomer that then sends its request at
//! once is safe from the next newcomers; busy clients are never cut for one.

use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The connections of one server.
#[derive(Default)]
pub(crate) struct Registry {
    slots: Mutex<Vec<Slot>>,
    next: Mutex<u64>,
}

struct Slot {
    id: u64,
    peer: String,
    /// A handle to close it from another thread (shedding, the server's stop).
    stream: TcpStream,
    /// When it connected.
    admitted: Instant,
    /// When it last completed something, if it has.
    active: Option<Instant>,
}

/// A client's place in the registry: freed when dropped.
pub(crate) struct Admitted {
    registry: Arc<Registry>,
    id: u64,
}

impl Registry {
    fn slots(&self) -> MutexGuard<'_, Vec<Slot>> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admits `stream` from `peer` if there is room, making room by closing the idlest client
    /// when it has been idle at least `shed_after`; else why not. The second value names the
    /// client closed to make room.
    pub(crate) fn admit(
        self: &Arc<Self>,
        stream: &TcpStream,
        peer: &str,
        limit: usize,
        shed_after: Duration,
    ) -> Result<(Admitted, Option<String>), String> {
        let handle = stream.try_clone().map_err(|e| e.to_string())?;
        let mut slots = self.slots();
        let mut shed = None;
        if slots.len() >= limit.max(1) {
            let now = Instant::now();
            let silent = slots.iter().enumerate().filter(|(_, s)| s.active.is_none()).min_by_key(|(_, s)| s.admitted);
            let idlest = slots
                .iter()
                .enumerate()
                .filter_map(|(k, s)| Some((k, s.active?)))
                .min_by_key(|(_, at)| *at)
                .filter(|(_, at)| now.duration_since(*at) >= shed_after);
            let Some(k) = silent.map(|(k, _)| k).or(idlest.map(|(k, _)| k)) else {
                return Err(format!("{limit} clients already, each active in the last {} s", shed_after.as_secs_f64()));
            };
            let s = slots.swap_remove(k);
            let _ = s.stream.shutdown(Shutdown::Both);
            shed = Some(match s.active {
                None => {
                    format!("{} (nothing complete in {:.1} s)", s.peer, now.duration_since(s.admitted).as_secs_f64())
                }
                Some(at) => format!("{} (idle {:.1} s)", s.peer, now.duration_since(at).as_secs_f64()),
            });
        }
        let id = {
            let mut n = self.next.lock().unwrap_or_else(|e| e.into_inner());
            *n += 1;
            *n
        };
        slots.push(Slot { id, peer: peer.to_string(), stream: handle, admitted: Instant::now(), active: None });
        Ok((Admitted { registry: Arc::clone(self), id }, shed))
    }

    /// A client just accepted by `server` (`modbus`, `web`): admitted, or refused, each said on
    /// standard error with the client made room for; the client's address with its place.
    pub(crate) fn admit_logged(
        self: &Arc<Self>,
        stream: &TcpStream,
        limits: crate::Limits,
        server: &str,
    ) -> Option<(Admitted, String)> {
        let peer = stream.peer_addr().map_or("?".into(), |a| a.to_string());
        match self.admit(stream, &peer, limits.connections, limits.shed_after) {
            Ok((a, shed)) => {
                if let Some(s) = shed {
                    eprintln!("{server}: {s} closed to make room for {peer}");
                }
                Some((a, peer))
            }
            Err(why) => {
                eprintln!("{server}: {peer} refused: {why}");
                None
            }
        }
    }

    /// The clients' addresses.
    pub(crate) fn peers(&self) -> Vec<String> {
        self.slots().iter().map(|s| s.peer.clone()).collect()
    }

    /// Closes every client (the server stops).
    pub(crate) fn close_all(&self) {
        for s in self.slots().iter() {
            let _ = s.stream.shutdown(Shutdown::Both);
        }
    }
}

impl Admitted {
    /// The client completed something: it is active now.
    pub(crate) fn touch(&self) {
        if let Some(s) = self.registry.slots().iter_mut().find(|s| s.id == self.id) {
            s.active = Some(Instant::now());
        }
    }

    /// Whether it was closed to make room for another.
    pub(crate) fn shed(&self) -> bool {
        !self.registry.slots().iter().any(|s| s.id == self.id)
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.registry.slots().retain(|s| s.id != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn pair(l: &TcpListener) -> (TcpStream, TcpStream) {
        let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        (c, s)
    }

    #[test]
    fn silent_clients_give_way_first_then_the_idlest_and_active_ones_never() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let r = Arc::new(Registry::default());
        let (_c1, s1) = pair(&l);
        let (_c2, s2) = pair(&l);
        let (_c3, s3) = pair(&l);
        let (a1, _) = r.admit(&s1, "one", 2, Duration::ZERO).unwrap();
        let (a2, _) = r.admit(&s2, "two", 2, Duration::ZERO).unwrap();
        a1.touch();
        // `two` has completed nothing: it is closed for the third, though `one` is idle too.
        let (a3, shed) = r.admit(&s3, "three", 2, Duration::ZERO).unwrap();
        assert!(shed.unwrap().starts_with("two (nothing complete"));
        assert!(a2.shed() && !a1.shed());
        assert_eq!(r.peers(), vec!["one".to_string(), "three".to_string()]);
        // `three` is silent: it goes before `one`, however recent.
        let (_c4, s4) = pair(&l);
        let (a4, shed) = r.admit(&s4, "four", 2, Duration::from_secs(3600)).unwrap();
        assert!(shed.unwrap().starts_with("three") && a3.shed());
        // `one` and `four`, both active within the hour: the newcomer is refused.
        a4.touch();
        let (_c5, s5) = pair(&l);
        assert!(r.admit(&s5, "five", 2, Duration::from_secs(3600)).is_err());
        // With no grace, the idlest active one (`one`) gives way.
        let (_a5, shed) = r.admit(&s5, "five", 2, Duration::ZERO).unwrap();
        assert!(shed.unwrap().starts_with("one (idle"));
        drop(a1);
        assert_eq!(r.peers().len(), 2);
    }
}
