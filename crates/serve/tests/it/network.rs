//! Network by domain in an editor (contract §32): a sandboxed command's
//! connection to a host on neither list asks the editor
//! (`session/request_permission`, tool `Network`, input `{"host"}`); "allow
//! always" grants that host for the session, so the second connection is
//! not asked about. Needs bubblewrap and curl; the server is on loopback.

use crate::support::{Place, Wire};
use serde_json::{json, Value};
use std::io::{Read, Write};

/// A loopback HTTP server on the host answering every request with `body`.
fn http_server(body: &'static str) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let response = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes());
        }
    });
    port
}

fn bash(id: &str, command: &str) -> Value {
    json!({"id": id, "name": "Bash", "arguments": {"command": command}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unlisted_host_asks_the_editor_and_allow_always_grants_it_for_the_session() {
    let place = Place::new();
    let port = http_server("from the host");
    let settings = place.base.join("settings.json");
    let network = json!({"sandbox": {"network": {"allowedDomains": ["localhost"]}},
        "permissions": {"allow": ["Bash"]}});
    std::fs::write(&settings, network.to_string()).unwrap();
    let fetch = format!("curl -sS http://127.0.0.1:{port}/");
    let mut flags = place.scripted(json!([
        {"content": "", "tool_calls": [bash("call_1", &fetch)]},
        {"content": "", "tool_calls": [bash("call_2", &fetch)]},
        {"content": "done"}
    ]));
    flags.options.settings_files = vec![settings];
    let mut wire = Wire::start(flags);
    let created = wire
        .send(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "session/new",
                "params": {"cwd": place.ws(), "mcpServers": []}})
            .to_string(),
        )
        .await;
    let session = created["result"]["sessionId"].as_str().unwrap().to_owned();
    wire.write(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
            "params": {"sessionId": session, "prompt": [{"type": "text", "text": "fetch"}]}})
        .to_string(),
    )
    .await;
    let mut asked = Vec::new();
    let mut results = Vec::new();
    loop {
        let message = wire.read().await;
        if message["method"] == "session/request_permission" {
            let call = &message["params"]["toolCall"];
            let options: Vec<Value> = message["params"]["options"]
                .as_array()
                .unwrap()
                .iter()
                .map(|option| option["name"].clone())
                .collect();
            asked.push((call["rawInput"].clone(), options));
            wire.write(
                &json!({"jsonrpc": "2.0", "id": message["id"],
                    "result": {"outcome": {"outcome": "selected", "optionId": "allow_always"}}})
                .to_string(),
            )
            .await;
        }
        let update = &message["params"]["update"];
        if update["sessionUpdate"] == "tool_call_update" && update["status"] == "completed" {
            results.push(update["content"][0]["content"]["text"].clone());
        }
        if message["id"] == 2 {
            break;
        }
    }
    assert_eq!(
        (asked, results),
        (
            vec![(
                json!({"host": format!("127.0.0.1:{port}")}),
                vec![
                    json!("Allow once"),
                    json!(format!(
                        "Always allow Network(127.0.0.1:{port}) in this session"
                    )),
                    json!("Reject"),
                ]
            )],
            vec![
                json!("[exit code: 0]\nfrom the host"),
                json!("[exit code: 0]\nfrom the host"),
            ]
        )
    );
    assert!(wire.finish().await.is_ok());
}
