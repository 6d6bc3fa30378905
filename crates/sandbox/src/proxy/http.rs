//! The proxy's HTTP side: `CONNECT host:port` (a tunnel, what HTTPS and
//! most package managers use) and a plain request with an absolute URI
//! (`GET http://host/path`), forwarded in origin form with
//! `Connection: close`, so one connection reaches one judged host.
//! A refusal is `403 Forbidden` whose body says why.

use super::{connect, relay, NetworkProxy};
use crate::Destination;
use std::io;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The longest request head read.
const MOST_HEAD: usize = 64 * 1024;

/// A request head: its first line's parts, its header lines, and what the
/// client sent after it.
struct Head {
    method: String,
    target: String,
    version: String,
    headers: Vec<String>,
    rest: Vec<u8>,
}

pub(super) async fn serve(proxy: &NetworkProxy, mut client: TcpStream) -> io::Result<()> {
    let head = tokio::time::timeout(super::HANDSHAKE_TIMEOUT, read_head(&mut client)).await;
    let head = match head {
        Ok(Ok(Ok(head))) => head,
        Ok(Ok(Err(why))) => return respond(&mut client, "400 Bad Request", why).await,
        Ok(Err(error)) => return Err(error),
        Err(_) => return respond(&mut client, "408 Request Timeout", "agenthub: no request").await,
    };
    let tunnel = head.method.eq_ignore_ascii_case("CONNECT");
    let destination = match destination_of(&head, tunnel) {
        Ok(destination) => destination,
        Err(why) => return respond(&mut client, "400 Bad Request", &why).await,
    };
    let decision = proxy.decide(destination).await;
    if !decision.allowed {
        let reason = format!("agenthub: {}", decision.reason());
        return respond(&mut client, "403 Forbidden", &reason).await;
    }
    let mut upstream = match connect(&decision.destination).await {
        Ok(upstream) => upstream,
        Err(error) => {
            let why = format!("agenthub: cannot reach {}: {error}", decision.destination);
            return respond(&mut client, "502 Bad Gateway", &why).await;
        }
    };
    if tunnel {
        client
            .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
            .await?;
    } else {
        upstream.write_all(&origin_form(&head)).await?;
    }
    upstream.write_all(&head.rest).await?;
    relay(&mut client, &mut upstream).await
}

/// Reads up to the blank line ending the head; `Err` inside for a head the
/// proxy cannot read (the client is told why).
async fn read_head(client: &mut TcpStream) -> io::Result<Result<Head, &'static str>> {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    let end = loop {
        if let Some(at) = bytes.windows(4).position(|four| four == b"\r\n\r\n") {
            break at;
        }
        if bytes.len() > MOST_HEAD {
            return Ok(Err("agenthub: the request head is too long"));
        }
        let read = client.read(&mut chunk).await?;
        if read == 0 {
            return Ok(Err("agenthub: the request ended before its head did"));
        }
        bytes.extend_from_slice(&chunk[..read]);
    };
    let rest = bytes.split_off(end + 4);
    let Ok(text) = String::from_utf8(bytes) else {
        return Ok(Err("agenthub: the request head is not text"));
    };
    let mut lines = text.split("\r\n").filter(|line| !line.is_empty());
    let first = lines.next().unwrap_or_default();
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Ok(Err(
            "agenthub: the request line is not `METHOD TARGET VERSION`",
        ));
    };
    Ok(Ok(Head {
        method: method.to_owned(),
        target: target.to_owned(),
        version: version.to_owned(),
        headers: lines.map(str::to_owned).collect(),
        rest,
    }))
}

/// Where the request goes: `CONNECT`'s `host:port`, or the absolute URI's
/// authority (port 80 when it names none).
fn destination_of(head: &Head, tunnel: bool) -> Result<Destination, String> {
    if tunnel {
        return head
            .target
            .parse()
            .map_err(|error| format!("agenthub: {error}"));
    }
    let Some(after) = head.target.strip_prefix("http://") else {
        return Err(format!(
            "agenthub: {:?} is not an http:// URI; this is a proxy (HTTPS goes through CONNECT)",
            head.target
        ));
    };
    let authority = after.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority.rsplit('@').next().unwrap_or_default();
    let has_port = match authority.rfind(']') {
        Some(at) => authority[at..].contains(':'),
        None => authority.contains(':'),
    };
    let destination = match has_port {
        true => authority.parse(),
        false => Destination::new(authority, 80),
    };
    destination.map_err(|error| format!("agenthub: {error}"))
}

/// The request as the server should see it: the path only, the `Host` of
/// the judged URI (never another the client wrote), no proxy headers, and
/// the connection closed after the response.
fn origin_form(head: &Head) -> Vec<u8> {
    let after = head.target.trim_start_matches("http://");
    let authority = after.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority.rsplit('@').next().unwrap_or_default();
    let path = match after.find(['/', '?']) {
        Some(at) if after.as_bytes()[at] == b'?' => format!("/{}", &after[at..]),
        Some(at) => after[at..].to_owned(),
        None => "/".to_owned(),
    };
    let path = path.split('#').next().unwrap_or("/");
    let mut text = format!(
        "{} {path} {}\r\nHost: {authority}\r\n",
        head.method, head.version
    );
    for header in &head.headers {
        let name = header.split(':').next().unwrap_or_default().trim();
        let dropped = [
            "host",
            "connection",
            "proxy-connection",
            "proxy-authorization",
            "keep-alive",
        ];
        if !dropped.iter().any(|drop| name.eq_ignore_ascii_case(drop)) {
            text.push_str(header);
            text.push_str("\r\n");
        }
    }
    text.push_str("Connection: close\r\n\r\n");
    text.into_bytes()
}

async fn respond(client: &mut TcpStream, status: &str, body: &str) -> io::Result<()> {
    let body = format!("{body}\n");
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    client.write_all(response.as_bytes()).await?;
    client.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(method: &str, target: &str, headers: &[&str]) -> Head {
        Head {
            method: method.to_owned(),
            target: target.to_owned(),
            version: "HTTP/1.1".to_owned(),
            headers: headers.iter().map(|line| (*line).to_owned()).collect(),
            rest: Vec::new(),
        }
    }

    #[test]
    fn a_connect_target_is_its_host_and_port() {
        let connect = head("CONNECT", "Registry.Example.com:443", &[]);
        assert_eq!(
            destination_of(&connect, true),
            Ok(Destination::new("registry.example.com", 443).unwrap())
        );
    }

    #[test]
    fn an_absolute_uri_without_a_port_goes_to_port_80() {
        let get = head("GET", "http://user@example.com/a?b", &[]);
        assert_eq!(
            destination_of(&get, false),
            Ok(Destination::new("example.com", 80).unwrap())
        );
        let v6 = head("GET", "http://[::1]:8080/", &[]);
        assert_eq!(
            destination_of(&v6, false),
            Ok(Destination::new("::1", 8080).unwrap())
        );
    }

    #[test]
    fn an_https_uri_without_connect_is_refused_with_why() {
        let get = head("GET", "https://example.com/", &[]);
        assert_eq!(
            destination_of(&get, false),
            Err(
                "agenthub: \"https://example.com/\" is not an http:// URI; this is a proxy \
                 (HTTPS goes through CONNECT)"
                    .to_owned()
            )
        );
    }

    #[test]
    fn a_forwarded_request_is_in_origin_form_for_the_judged_host_and_closes_the_connection() {
        let get = head(
            "GET",
            "http://example.com:8080/file?x=1",
            &[
                "Host: elsewhere.example.org",
                "Proxy-Connection: keep-alive",
                "Accept: */*",
            ],
        );
        assert_eq!(
            String::from_utf8(origin_form(&get)).unwrap(),
            "GET /file?x=1 HTTP/1.1\r\nHost: example.com:8080\r\nAccept: */*\r\n\
             Connection: close\r\n\r\n"
        );
    }
}
