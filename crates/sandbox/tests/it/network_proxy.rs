//! Network by domain (contract §32) at the sandbox's level: a command in a
//! sandbox with domain lists reaches a loopback server of the host only
//! through the proxy, by a name on `allowedDomains` (`localhost`), never by
//! its address, directly or through the proxy. Needs bubblewrap and curl.

use agenthub_sandbox::{
    sandboxed_command, DecidedBy, Destination, DomainLists, GateAnswer, GateFuture,
    NetworkDecision, NetworkGate, NetworkProxy, SandboxPolicy,
};
use std::ffi::OsStr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Refuses every unlisted host and remembers each decision.
#[derive(Default)]
struct Headless(Mutex<Vec<NetworkDecision>>);

impl NetworkGate for Headless {
    fn unlisted<'a>(&'a self, destination: &'a Destination) -> GateFuture<'a> {
        let reason = format!("{destination} is not on sandbox.network.allowedDomains");
        Box::pin(async move { GateAnswer::Refused { reason } })
    }

    fn decided(&self, decision: &NetworkDecision) -> Result<(), String> {
        self.0.lock().unwrap().push(decision.clone());
        Ok(())
    }
}

/// A loopback HTTP server answering every request with `body`.
async fn server(body: &'static str) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = vec![0u8; 4096];
                let _ = stream.read(&mut request).await;
                let response = format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
            });
        }
    });
    port
}

fn lists(allowed: &[&str], denied: &[&str]) -> DomainLists {
    DomainLists {
        allowed: allowed.iter().map(|entry| entry.parse().unwrap()).collect(),
        denied: denied.iter().map(|entry| entry.parse().unwrap()).collect(),
    }
}

async fn sh(policy: &SandboxPolicy, root: &Path, script: &str) -> (Option<i32>, String) {
    let mut sandboxed =
        sandboxed_command(policy, "sh", &[OsStr::new("-c"), OsStr::new(script)], root).unwrap();
    let output = sandboxed.command.output().await.unwrap();
    let status = sandboxed.mechanism.command_status(output.status);
    (
        status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn proxied(root: &Path, lists: DomainLists, gate: Arc<Headless>) -> SandboxPolicy {
    SandboxPolicy {
        proxy: Some(NetworkProxy::new(lists, gate)),
        ..SandboxPolicy::workspace_write([root.to_path_buf()])
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_name_is_reached_through_the_proxy_and_its_address_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let port = server("hello from the host").await;
    let gate = Arc::new(Headless::default());
    let policy = proxied(&root, lists(&["localhost"], &[]), gate.clone());
    let by_name = sh(
        &policy,
        &root,
        &format!("curl -sS http://localhost:{port}/"),
    )
    .await;
    let socks = sh(
        &policy,
        &root,
        &format!("curl -sS --proxy \"$ALL_PROXY\" http://localhost:{port}/"),
    )
    .await;
    let direct = sh(
        &policy,
        &root,
        &format!("curl -sS --noproxy '*' http://127.0.0.1:{port}/ || echo direct failed"),
    )
    .await;
    let by_address = sh(
        &policy,
        &root,
        &format!("curl -s -o /dev/null -w '%{{http_code}}' http://127.0.0.1:{port}/"),
    )
    .await;
    assert_eq!(
        (by_name, socks, direct, by_address),
        (
            (Some(0), "hello from the host".to_owned()),
            (Some(0), "hello from the host".to_owned()),
            (Some(0), "direct failed\n".to_owned()),
            (Some(0), "403".to_owned()),
        )
    );
    let decisions: Vec<(String, bool, DecidedBy)> = gate
        .0
        .lock()
        .unwrap()
        .iter()
        .map(|decision| {
            (
                decision.destination.to_string(),
                decision.allowed,
                decision.by.clone(),
            )
        })
        .collect();
    assert_eq!(
        decisions,
        vec![
            (
                format!("localhost:{port}"),
                true,
                DecidedBy::AllowedEntry("localhost".parse().unwrap())
            ),
            (
                format!("localhost:{port}"),
                true,
                DecidedBy::AllowedEntry("localhost".parse().unwrap())
            ),
            (
                format!("127.0.0.1:{port}"),
                false,
                DecidedBy::Gate(format!(
                    "127.0.0.1:{port} is not on sandbox.network.allowedDomains"
                ))
            ),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_name_is_refused_with_a_body_naming_it_and_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let port = server("never").await;
    let policy = proxied(
        &root,
        lists(&["*.localhost", "localhost"], &["localhost"]),
        Arc::new(Headless::default()),
    );
    let refused = sh(&policy, &root, &format!("curl -s http://localhost:{port}/")).await;
    assert_eq!(
        refused,
        (
            Some(0),
            format!(
                "agenthub: localhost:{port} is refused: `localhost` is on \
                 sandbox.network.deniedDomains\n"
            )
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_domain_lists_unix_sockets_stay_refused_and_no_proxy_exemption_is_passed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let policy = proxied(
        &root,
        lists(&["localhost"], &[]),
        Arc::new(Headless::default()),
    );
    let unix = sh(
        &policy,
        &root,
        "python3 -c 'import socket; socket.socket(socket.AF_UNIX)' 2>&1 | tail -1",
    )
    .await;
    let inet = sh(
        &policy,
        &root,
        "python3 -c 'import socket; socket.socket(socket.AF_INET6); print(\"made\")'",
    )
    .await;
    let variables = sh(
        &policy,
        &root,
        "env | grep -i '_proxy=' | sed 's/:[0-9]*$/:PORT/' | LC_ALL=C sort",
    )
    .await;
    assert_eq!(
        (unix, inet, variables),
        (
            (
                Some(0),
                "PermissionError: [Errno 1] Operation not permitted\n".to_owned()
            ),
            (Some(0), "made\n".to_owned()),
            (
                Some(0),
                "ALL_PROXY=socks5h://127.0.0.1:PORT\nHTTPS_PROXY=http://127.0.0.1:PORT\n\
                 HTTP_PROXY=http://127.0.0.1:PORT\nall_proxy=socks5h://127.0.0.1:PORT\n\
                 http_proxy=http://127.0.0.1:PORT\nhttps_proxy=http://127.0.0.1:PORT\n"
                    .to_owned()
            ),
        )
    );
}
