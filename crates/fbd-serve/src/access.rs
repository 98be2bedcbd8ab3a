//! Who may read and who may write through the browser HMI.
//!
//! A web page of any site can open a WebSocket to `127.0.0.1`: the browser sends the page's
//! `Origin` with the handshake and leaves the check to the server. So a socket is accepted only
//! from a page this server served (its `Origin` is `http://` + the `Host` it was reached by)
//! or an origin the operator listed; a client that is no browser sends no `Origin` and may read.
//! On a loopback listener the `Host` itself must be a loopback name, so a foreign site whose name
//! was made to resolve to 127.0.0.1 (DNS rebinding: then its `Origin` and `Host` agree) is
//! refused too. Writes need more: the session's token, which `fbd serve` prints in the page's
//! address (`#token=…`, as Jupyter gives its own) and the page sends with its socket; a page of
//! another site cannot learn it.

/// The browser HMI's rules.
#[derive(Clone, Debug)]
pub struct WebAccess {
    /// Writes (presses, input values) are taken at all; without this every write is refused.
    pub allow_write: bool,
    /// The secret a socket must present (`/ws?token=…`) for its writes to be taken.
    pub token: String,
    /// Origins besides the server's own whose pages may open the socket
    /// (`http://scada.local:1880`), as the operator gave them.
    pub allowed_origins: Vec<String>,
}

impl WebAccess {
    /// Writes allowed or not, a fresh random token, no other origin.
    pub fn new(allow_write: bool) -> WebAccess {
        WebAccess { allow_write, token: new_token(), allowed_origins: Vec::new() }
    }
}

/// 128 bits from the operating system's generator (through the thread's CSPRNG), in hex.
pub fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Whether `token` is the session's, compared in time independent of where they differ.
pub(crate) fn token_matches(given: &str, token: &str) -> bool {
    let (a, b) = (given.as_bytes(), token.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Why a request reaching the server as `host` from a page of `origin` is refused, if it is;
/// `loopback`: the server listens on a loopback address.
pub(crate) fn refusal(host: Option<&str>, origin: Option<&str>, loopback: bool, access: &WebAccess) -> Option<String> {
    let Some(host) = host.map(str::trim).filter(|h| !h.is_empty()) else {
        return Some("a request without a Host header".into());
    };
    if loopback && !is_loopback_name(host) {
        return Some(format!(
            "Host `{host}` is not a loopback name, and this server listens only on loopback (a page reaching it by another name is refused)"
        ));
    }
    let origin = origin.map(str::trim)?;
    let same = ["http://", "https://"].iter().any(|s| origin.eq_ignore_ascii_case(&format!("{s}{host}")));
    let listed = access.allowed_origins.iter().any(|o| o.trim_end_matches('/').eq_ignore_ascii_case(origin));
    if same || listed {
        None
    } else {
        Some(format!(
            "a page of origin `{origin}` is not this server's (http://{host}): give `--allow-origin {origin}` to let it in"
        ))
    }
}

/// `localhost`, `127.x.y.z` or `[::1]`, with or without a port.
fn is_loopback_name(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(n, _)| n),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
        || name.to_ascii_lowercase().ends_with(".localhost")
}

/// The value of `key` in a query string (`a=1&token=x`), undecoded (a token is hex).
pub(crate) fn query_value<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query.split('&').find_map(|kv| kv.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(origins: &[&str]) -> WebAccess {
        WebAccess {
            allow_write: true,
            token: "t".into(),
            allowed_origins: origins.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn the_served_page_and_clients_without_origin_are_let_in() {
        let a = access(&[]);
        assert_eq!(refusal(Some("127.0.0.1:8080"), Some("http://127.0.0.1:8080"), true, &a), None);
        assert_eq!(refusal(Some("localhost:8080"), Some("http://localhost:8080"), true, &a), None);
        assert_eq!(refusal(Some("[::1]:8080"), Some("http://[::1]:8080"), true, &a), None);
        assert_eq!(refusal(Some("127.0.0.1:8080"), None, true, &a), None);
    }

    #[test]
    fn foreign_pages_and_foreign_host_names_are_refused() {
        let a = access(&[]);
        let r = refusal(Some("127.0.0.1:8080"), Some("http://127.0.0.1:15090"), true, &a).unwrap();
        assert!(r.contains("--allow-origin http://127.0.0.1:15090"), "{r}");
        assert!(refusal(Some("127.0.0.1:8080"), Some("null"), true, &a).is_some());
        // DNS rebinding: origin and host agree, but the host is no loopback name.
        let r = refusal(Some("evil.example:8080"), Some("http://evil.example:8080"), true, &a).unwrap();
        assert!(r.contains("not a loopback name"), "{r}");
        // On a LAN address, the page's own origin is whatever name reached it.
        assert_eq!(refusal(Some("plc.lan:8080"), Some("http://plc.lan:8080"), false, &a), None);
        assert!(refusal(Some("plc.lan:8080"), Some("http://other.lan"), false, &a).is_some());
        assert!(refusal(None, None, true, &a).is_some());
    }

    #[test]
    fn a_listed_origin_is_let_in() {
        let a = access(&["http://scada.local:1880/"]);
        assert_eq!(refusal(Some("127.0.0.1:8080"), Some("http://scada.local:1880"), true, &a), None);
    }

    #[test]
    fn tokens_are_fresh_and_compared_whole() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(token_matches(&a, &a));
        assert!(!token_matches(&a[..31], &a));
        assert!(!token_matches(&b, &a));
        assert_eq!(query_value("x=1&token=abc", "token"), Some("abc"));
        assert_eq!(query_value("tokens=abc", "token"), None);
    }
}
