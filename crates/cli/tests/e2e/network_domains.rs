//! Network by domain (contract §32) through the real binary: with
//! `sandbox.network` an object, a scripted model's `curl` in Bash reaches a
//! loopback server of the host through AgentHub's proxy by a name on
//! `allowedDomains` (`localhost`), over HTTP, SOCKS5 and HTTPS (CONNECT to a
//! local TLS server); a raw connect to the server's address fails; a denied
//! name and an unlisted one (headless) are refused with the host and the
//! setting named; each decision is a `Network` permission record.
//! Needs bubblewrap, curl and openssl; no internet.

use crate::support;
use crate::support::chat_place;

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use support::*;

/// A loopback HTTP server on the host answering every request with `body`.
fn http_server(body: &'static str) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut request = [0u8; 4096];
                let _ = stream.read(&mut request);
                let response = format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(response.as_bytes());
            });
        }
    });
    port
}

/// A settings file outside the workspace (a `--settings` file is trusted).
fn settings(case: &Case, network: Value) -> PathBuf {
    let path = case.workspace().join("../settings.json");
    std::fs::write(&path, json!({"sandbox": {"network": network}}).to_string()).unwrap();
    path
}

fn run_with(case: &Case, settings: &Path) -> assert_cmd::Command {
    let mut command = case.run();
    command
        .arg("--settings")
        .arg(settings)
        .env("XDG_CONFIG_HOME", case.workspace().join("../config"))
        .env("XDG_STATE_HOME", case.workspace().join("../state"));
    command
}

fn bash(id: &str, command: &str) -> Value {
    call(id, "Bash", json!({ "command": command }))
}

fn script_calls(case: &Case, calls: Vec<Value>) {
    case.script(json!([
        {"content": "fetching", "tool_calls": calls},
        {"content": "done"}
    ]));
}

fn result_of(case: &Case, id: &str) -> String {
    case.messages()
        .iter()
        .find(|record| record["message"]["tool_call_id"] == id)
        .and_then(|record| record["message"]["content"].as_str())
        .unwrap_or_else(|| panic!("no result for {id}"))
        .to_owned()
}

/// The transcript's `Network` permission records, without the session id.
fn network_records(case: &Case) -> Vec<Value> {
    case.records()
        .into_iter()
        .filter(|record| record["type"] == "permission" && record["tool"] == "Network")
        .map(|mut record| {
            record.as_object_mut().unwrap().remove("sessionId");
            record
        })
        .collect()
}

#[test]
fn an_allowed_name_passes_the_proxy_while_a_raw_connect_to_its_address_fails() {
    let case = Case::new();
    let port = http_server("package tarball");
    let settings = settings(&case, json!({"allowedDomains": ["localhost"]}));
    script_calls(
        &case,
        vec![
            bash(
                "call_1",
                &format!("curl -sS http://localhost:{port}/pkg.tgz"),
            ),
            bash(
                "call_2",
                &format!(
                    "python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}))\" \
                     2>/dev/null || echo no way out"
                ),
            ),
            bash(
                "call_3",
                &format!("curl -sS -x \"$ALL_PROXY\" http://localhost:{port}/pkg.tgz"),
            ),
            bash("call_4", "env | grep -ci '^no_proxy=' || true"),
        ],
    );
    run_with(&case, &settings).assert().success();
    assert_eq!(
        [
            result_of(&case, "call_1"),
            result_of(&case, "call_2"),
            result_of(&case, "call_3"),
            result_of(&case, "call_4"),
        ],
        [
            "[exit code: 0]\npackage tarball".to_owned(),
            "[exit code: 0]\nno way out".to_owned(),
            "[exit code: 0]\npackage tarball".to_owned(),
            "[exit code: 0]\n0".to_owned(),
        ]
    );
    let allowed = |id: &str| {
        json!({
            "type": "permission", "tool": "Network", "tool_use_id": id,
            "host": format!("localhost:{port}"), "effect": "allow", "source": "rule",
            "rule": "localhost (sandbox.network.allowedDomains)",
            "reason": format!(
                "localhost:{port} is allowed by `localhost` on sandbox.network.allowedDomains"
            ),
        })
    };
    assert_eq!(
        network_records(&case),
        vec![allowed("network-1"), allowed("network-2")]
    );
}

#[test]
fn a_denied_name_and_an_unlisted_one_headless_are_refused_naming_the_host_and_the_setting() {
    let case = Case::new();
    let port = http_server("never served");
    let settings = settings(
        &case,
        json!({"allowedDomains": ["*.localhost"], "deniedDomains": ["evil.localhost"]}),
    );
    script_calls(
        &case,
        vec![
            bash("call_1", &format!("curl -s http://evil.localhost:{port}/")),
            bash("call_2", &format!("curl -s http://127.0.0.1:{port}/")),
        ],
    );
    run_with(&case, &settings).assert().success();
    let unlisted = format!(
        "127.0.0.1:{port} is not on sandbox.network.allowedDomains and nobody can be asked here; \
         add it to sandbox.network.allowedDomains to allow it"
    );
    let denied = format!(
        "evil.localhost:{port} is refused: `evil.localhost` is on sandbox.network.deniedDomains"
    );
    assert_eq!(
        [result_of(&case, "call_1"), result_of(&case, "call_2")],
        [
            format!("[exit code: 0]\nagenthub: {denied}"),
            format!("[exit code: 0]\nagenthub: {unlisted}")
        ]
    );
    assert_eq!(
        network_records(&case),
        vec![
            json!({
                "type": "permission", "tool": "Network", "tool_use_id": "network-1",
                "host": format!("evil.localhost:{port}"), "effect": "deny", "source": "rule",
                "rule": "evil.localhost (sandbox.network.deniedDomains)", "reason": denied,
            }),
            json!({
                "type": "permission", "tool": "Network", "tool_use_id": "network-2",
                "host": format!("127.0.0.1:{port}"), "effect": "deny", "source": "approval",
                "reason": unlisted,
            }),
        ]
    );
}

/// `openssl s_server` for `localhost` with a fresh self-signed certificate
/// written to `dir/cert.pem`; killed when the guard drops.
struct TlsServer(Child, u16);

impl Drop for TlsServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn tls_server(dir: &Path) -> TlsServer {
    let made = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args([
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost",
        ])
        .arg("-keyout")
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(made.success());
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new("openssl")
        .args(["s_server", "-www", "-accept"])
        .arg(format!("127.0.0.1:{port}"))
        .arg("-cert")
        .arg(dir.join("cert.pem"))
        .arg("-key")
        .arg(dir.join("key.pem"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // It prints ACCEPT once it listens.
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&seen).contains("ACCEPT") {
        assert_eq!(stdout.read(&mut byte).unwrap(), 1, "s_server ended");
        seen.push(byte[0]);
    }
    TlsServer(child, port)
}

#[test]
fn https_to_an_allowed_name_goes_through_connect_to_a_local_tls_server() {
    let case = Case::new();
    let server = tls_server(case.workspace());
    let settings = settings(&case, json!({"allowedDomains": ["localhost"]}));
    script_calls(
        &case,
        vec![bash(
            "call_1",
            &format!(
                "curl -sS --cacert cert.pem -o /dev/null -w '%{{http_code}}' https://localhost:{}/",
                server.1
            ),
        )],
    );
    run_with(&case, &settings).assert().success();
    assert_eq!(
        (
            result_of(&case, "call_1"),
            network_records(&case)
                .iter()
                .map(|record| (record["host"].clone(), record["effect"].clone()))
                .collect::<Vec<_>>()
        ),
        (
            "[exit code: 0]\n200".to_owned(),
            vec![(json!(format!("localhost:{}", server.1)), json!("allow"))]
        )
    );
}

#[test]
fn permissions_explain_network_names_the_entry_that_decides_or_says_who_is_asked() {
    let case = Case::new();
    let settings = settings(
        &case,
        json!({"allowedDomains": ["*.example.com"], "deniedDomains": ["bad.example.com"]}),
    );
    let explain = |host: &str| {
        let output = agenthub()
            .args(["permissions", "explain", "Network", host, "--settings"])
            .arg(&settings)
            .arg("--workspace")
            .arg(case.workspace())
            .env("XDG_CONFIG_HOME", case.workspace().join("../config"))
            .env("XDG_STATE_HOME", case.workspace().join("../state"))
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(
        [
            explain("registry.example.com"),
            explain("bad.example.com"),
            explain("example.net:80")
        ],
        [
            "Network registry.example.com:443\ndecision: allow - `*.example.com` on \
             sandbox.network.allowedDomains matches registry.example.com:443\n",
            "Network bad.example.com:443\ndecision: deny - `bad.example.com` on \
             sandbox.network.deniedDomains matches bad.example.com:443\n",
            "Network example.net:80\ndecision: ask - example.net:80 is on neither \
             sandbox.network.allowedDomains nor deniedDomains: the interactive session and ACP \
             ask (\"allow example.net for this session?\"); headless it is refused (add it to \
             sandbox.network.allowedDomains)\n",
        ]
    );
}

#[test]
fn the_interactive_session_asks_about_an_unlisted_host_and_a_grants_it_for_the_session() {
    let port = http_server("from the host");
    let fetch = format!("curl -sS http://127.0.0.1:{port}/");
    let script = json!({"turns": [
        {"content": "Fetching.", "tool_calls": [bash("c1", &fetch)]},
        {"content": "Result: {{last_tool_result}}"},
        {"content": "Again.", "tool_calls": [bash("c2", &fetch)]},
        {"content": "Second result: {{last_tool_result}}"}
    ]});
    let place = chat_place::Place::new(&script.to_string());
    let settings = place.base.join("settings.json");
    let network = json!({"sandbox": {"network": {"allowedDomains": ["localhost"]}},
        "permissions": {"allow": ["Bash"]}});
    std::fs::write(&settings, network.to_string()).unwrap();
    let mut terminal = place.chat(&["--settings", settings.to_str().unwrap()], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("fetch it");
    terminal.wait_for("allow 127.0.0.1 for this session?");
    terminal.wait_for("[a]");
    terminal.send(b"a");
    terminal.wait_for("Result: [exit code: 0]");
    terminal.wait_for_prompt();
    terminal.type_line("again");
    terminal.wait_for("Second result: [exit code: 0]");
    terminal.wait_for_prompt();
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    let host = format!("127.0.0.1:{port}");
    let decisions: Vec<(Value, Value, Value)> = place.transcripts()[0]
        .iter()
        .filter(|record| record["type"] == "permission" && record["tool"] == "Network")
        .map(|record| {
            (
                record["host"].clone(),
                record["effect"].clone(),
                record["reason"].clone(),
            )
        })
        .collect();
    assert_eq!(
        decisions,
        vec![
            (
                json!(host),
                json!("allow"),
                json!(format!(
                    "{host} allowed by the user, for this session (Network({host}))"
                ))
            ),
            (
                json!(host),
                json!("allow"),
                json!(format!(
                    "{host} allowed by this session's grant Network({host})"
                ))
            ),
        ]
    );
}

#[test]
fn a_permission_request_hook_that_allows_everything_never_answers_for_an_unlisted_host() {
    let case = Case::new();
    let port = http_server("never served");
    let path = case.workspace().join("../settings.json");
    let allow = r#"echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'"#;
    std::fs::write(
        &path,
        json!({
            "sandbox": {"network": {"allowedDomains": ["localhost"]}},
            "hooks": {"PermissionRequest": [{"hooks": [{"type": "command", "command": allow}]}]}
        })
        .to_string(),
    )
    .unwrap();
    script_calls(
        &case,
        vec![bash("call_1", &format!("curl -s http://127.0.0.1:{port}/"))],
    );
    run_with(&case, &path).assert().success();
    let unlisted = format!(
        "127.0.0.1:{port} is not on sandbox.network.allowedDomains and nobody can be asked here; \
         add it to sandbox.network.allowedDomains to allow it"
    );
    assert_eq!(
        result_of(&case, "call_1"),
        format!("[exit code: 0]\nagenthub: {unlisted}")
    );
}
