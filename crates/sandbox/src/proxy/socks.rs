//! The proxy's SOCKS5 side (RFC 1928), no authentication, `CONNECT` only:
//! a destination sent as a name (`socks5h://`, ATYP 3) is judged as that
//! name; one sent as an address (ATYP 1 or 4) only as that address. A
//! refusal is reply 0x02 ("connection not allowed by ruleset").

use super::{connect, relay, NetworkProxy};
use crate::Destination;
use std::io;
use std::net::{Ipv4Addr, Ipv6Addr};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The first byte of every SOCKS5 message.
pub(super) const VERSION: u8 = 0x05;

const NO_AUTHENTICATION: u8 = 0x00;
const NO_ACCEPTABLE_METHOD: u8 = 0xff;
const CONNECT: u8 = 0x01;
const SUCCEEDED: u8 = 0x00;
const NOT_ALLOWED: u8 = 0x02;
const HOST_UNREACHABLE: u8 = 0x04;
const COMMAND_NOT_SUPPORTED: u8 = 0x07;
const ADDRESS_NOT_SUPPORTED: u8 = 0x08;

pub(super) async fn serve(proxy: &NetworkProxy, mut client: TcpStream) -> io::Result<()> {
    let asked = tokio::time::timeout(super::HANDSHAKE_TIMEOUT, handshake(&mut client)).await;
    let Ok(asked) = asked else {
        return Ok(());
    };
    let Some(destination) = asked? else {
        return Ok(());
    };
    let decision = proxy.decide(destination).await;
    if !decision.allowed {
        return reply(&mut client, NOT_ALLOWED).await;
    }
    let mut upstream = match connect(&decision.destination).await {
        Ok(upstream) => upstream,
        Err(_) => return reply(&mut client, HOST_UNREACHABLE).await,
    };
    reply(&mut client, SUCCEEDED).await?;
    relay(&mut client, &mut upstream).await
}

/// The greeting and the request: where the client asks to go, or `None`
/// once it was told why not.
async fn handshake(client: &mut TcpStream) -> io::Result<Option<Destination>> {
    let mut greeting = [0u8; 2];
    client.read_exact(&mut greeting).await?;
    let mut methods = vec![0u8; usize::from(greeting[1])];
    client.read_exact(&mut methods).await?;
    if !methods.contains(&NO_AUTHENTICATION) {
        client.write_all(&[VERSION, NO_ACCEPTABLE_METHOD]).await?;
        return Ok(None);
    }
    client.write_all(&[VERSION, NO_AUTHENTICATION]).await?;
    let mut request = [0u8; 4];
    client.read_exact(&mut request).await?;
    if request[1] != CONNECT {
        reply(client, COMMAND_NOT_SUPPORTED).await?;
        return Ok(None);
    }
    match read_destination(client, request[3]).await? {
        Some(destination) => Ok(Some(destination)),
        None => reply(client, ADDRESS_NOT_SUPPORTED).await.map(|()| None),
    }
}

/// The destination after ATYP `kind`; `None` for a kind or name this proxy
/// cannot read.
async fn read_destination(client: &mut TcpStream, kind: u8) -> io::Result<Option<Destination>> {
    let host = match kind {
        0x01 => {
            let mut octets = [0u8; 4];
            client.read_exact(&mut octets).await?;
            Ipv4Addr::from(octets).to_string()
        }
        0x04 => {
            let mut octets = [0u8; 16];
            client.read_exact(&mut octets).await?;
            Ipv6Addr::from(octets).to_string()
        }
        0x03 => {
            let length = client.read_u8().await?;
            let mut name = vec![0u8; usize::from(length)];
            client.read_exact(&mut name).await?;
            match String::from_utf8(name) {
                Ok(name) => name,
                Err(_) => return Ok(None),
            }
        }
        _ => return Ok(None),
    };
    let port = client.read_u16().await?;
    Ok(Destination::new(&host, port).ok())
}

/// A reply with an unspecified bound address (what clients ignore).
async fn reply(client: &mut TcpStream, code: u8) -> io::Result<()> {
    client
        .write_all(&[VERSION, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0])
        .await?;
    client.flush().await
}
