//! Editors and other agents drive AgentHub (contract §23), each through a
//! real client written by others, pinned in tests/npm: the official ACP
//! TypeScript SDK drives `agenthub acp` (asks answered in the "editor",
//! allow always, cancel, load), the official MCP TypeScript SDK's client
//! calls `agenthub mcp serve` (Read, a Bash call nobody can approve,
//! agenthub_run). The clients are the small scripts in `e2e/clients/`; each
//! prints one JSON object that the tests compare whole. The wire itself
//! (malformed JSON-RPC, `session/set_mode`) is agenthub-serve's own test.

use crate::support::home::Home;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// tests/npm's node_modules; the test fails (never skips) when the SDKs are
/// missing.
fn npm_modules() -> PathBuf {
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/npm/node_modules");
    for package in ["@agentclientprotocol/sdk", "@modelcontextprotocol/sdk"] {
        assert!(
            modules.join(package).exists(),
            "{package} is missing from {}: run the tests with `scripts/test`, which installs it \
             (or `npm ci --prefix tests/npm` from the repository root)",
            modules.display()
        );
    }
    modules
}

/// Runs the client script `name` against the agenthub binary with `args`;
/// its JSON output.
pub(crate) fn client(home: &Home, name: &str, args: &[&str]) -> Value {
    let modules = npm_modules();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/clients");
    // Node resolves bare imports from the script's folders upwards: the
    // script is copied next to tests/npm's node_modules' parent.
    let place = home.base.join("client");
    std::fs::create_dir_all(&place).unwrap();
    std::os::unix::fs::symlink(&modules, place.join("node_modules")).ok();
    std::fs::copy(script.join(name), place.join(name)).unwrap();
    let output = Command::new("node")
        .arg(place.join(name))
        .arg(assert_cmd::cargo::cargo_bin("agenthub"))
        .arg(home.ws())
        .arg("--")
        .args(args)
        .env("HOME", home.base.join("home"))
        .env("XDG_CONFIG_HOME", home.base.join("home/.config"))
        .env("XDG_STATE_HOME", home.base.join("home/.local/state"))
        .current_dir(home.ws())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{name} failed: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "{name} printed no JSON: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn bash(id: &str, arguments: Value) -> Value {
    json!({"content": null, "tool_calls": [{"id": id, "name": "Bash", "arguments": arguments}]})
}

fn tool_call(id: &str, title: &str) -> Value {
    json!({"u": "tool_call", "id": id, "title": title, "kind": "execute", "status": "pending"})
}

fn update(id: &str, status: &str, text: Option<&str>) -> Value {
    json!({"u": "tool_call_update", "id": id, "status": status, "text": text})
}

const REJECTED: &str =
    "Error [permission_denied]: the tool was not run: permission denied: denied by the user";
const HELLO: &str = "[exit code: 0]\nhello";
const CANCELLED: &str =
    "Error [cancelled]: the tool was not run (or was interrupted): the run was cancelled";

/// The ACP session of the e2e test: three asking Bash calls and a slow one.
fn acp_home() -> (Home, PathBuf) {
    let home = Home::new();
    let script = home.base.join("script.json");
    let turns = json!({"turns": [
        bash("call_1", json!({"command": "printf hello"})),
        bash("call_2", json!({"command": "printf hello"})),
        // The same command (the grant covers it), not the same input (no
        // loop guard note).
        bash("call_3", json!({"command": "printf hello", "description": "once more"})),
        {"content": "done: {{last_tool_result}}"},
        bash("call_4", json!({"command": "sleep 30"})),
        {"content": "never reached"}
    ]});
    std::fs::write(&script, turns.to_string()).unwrap();
    // The workspace's own allow rule is not trusted: it must not allow Bash.
    home.write(
        "ws/.agenthub/settings.json",
        r#"{"permissions": {"allow": ["Bash"]}}"#,
    );
    (home, script)
}

#[test]
fn an_editor_answers_asks_allows_always_cancels_and_loads_through_the_acp_sdk() {
    let (home, script) = acp_home();
    let printed = client(
        &home,
        "acp_client.mjs",
        &["--script", script.to_str().unwrap()],
    );
    let session_id = printed["sessionId"].as_str().unwrap().to_owned();
    let warning = printed["opening"][0]["text"].as_str().unwrap_or_default();
    assert!(
        warning.starts_with(&format!(
            "[Warning] the configuration in {} is not trusted; set aside until you trust it:",
            home.ws().display()
        )),
        "the editor is told what was set aside: {warning}"
    );
    let options = json!(["allow_once", "allow_always", "reject_once"]);
    assert_eq!(
        json!({
            "initialize": printed["initialize"],
            "modes": printed["modes"],
            "asking": printed["asking"],
            "cancelled": printed["cancelled"],
            "exits": printed["exits"],
        }),
        json!({
            "initialize": {"protocolVersion": 1, "loadSession": true},
            "modes": {"current": "default", "available":
                ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"]},
            "asking": {
                "stopReason": "end_turn",
                "asks": [
                    {"id": "call_1", "title": "Bash: printf hello", "options": options},
                    {"id": "call_2", "title": "Bash: printf hello", "options": options},
                ],
                "updates": [
                    tool_call("call_1", "Bash: printf hello"),
                    update("call_1", "failed", Some(REJECTED)),
                    tool_call("call_2", "Bash: printf hello"),
                    update("call_2", "in_progress", None),
                    update("call_2", "completed", Some(HELLO)),
                    tool_call("call_3", "Bash: printf hello"),
                    update("call_3", "in_progress", None),
                    update("call_3", "completed", Some(HELLO)),
                    {"u": "agent_message_chunk", "text": "done: [exit code: 0]\nhello"},
                ],
            },
            "cancelled": {
                "stopReason": "cancelled",
                "asks": [{"id": "call_4", "title": "Bash: sleep 30", "options": options}],
                "updates": [
                    tool_call("call_4", "Bash: sleep 30"),
                    update("call_4", "in_progress", None),
                    update("call_4", "failed", Some(CANCELLED)),
                ],
            },
            "exits": [0, 0],
        })
    );
    let mut replayed = printed["load"]["replayed"].as_array().unwrap().clone();
    let last = replayed.pop().unwrap_or_default();
    assert_eq!(
        last["text"], printed["opening"][0]["text"],
        "load warns too"
    );
    assert_eq!(
        Value::Array(replayed),
        json!([
            {"u": "user_message_chunk", "text": "run echo three times"},
            tool_call("call_1", "Bash: printf hello"),
            update("call_1", "failed", Some(REJECTED)),
            tool_call("call_2", "Bash: printf hello"),
            update("call_2", "completed", Some(HELLO)),
            tool_call("call_3", "Bash: printf hello"),
            update("call_3", "completed", Some(HELLO)),
            {"u": "agent_message_chunk", "text": "done: [exit code: 0]\nhello"},
            {"u": "user_message_chunk", "text": "sleep"},
            tool_call("call_4", "Bash: sleep 30"),
            update("call_4", "failed", Some(CANCELLED)),
        ])
    );
    let permissions: Vec<Value> = home
        .records(&session_id)
        .into_iter()
        .filter(|record| record["type"] == "permission" && record["effect"] != "ask")
        .map(|record| json!([record["tool_use_id"], record["effect"], record["source"]]))
        .collect();
    assert_eq!(
        permissions,
        vec![
            json!(["call_1", "deny", "approval"]),
            json!(["call_2", "allow", "approval"]),
            json!(["call_3", "allow", "approval"]),
            json!(["call_4", "allow", "approval"]),
        ],
        "the transcript audits every decision, the session grant's included"
    );
}

/// `agenthub acp` with stdin and stdout as pipes, for wire-level checks.
struct Wire {
    child: std::process::Child,
    lines: BufReader<std::process::ChildStdout>,
}

impl Wire {
    fn with_args(home: &Home, args: &[&str]) -> Wire {
        let mut child = home
            .process(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap());
        Wire { child, lines }
    }

    /// Sends a request; the notifications before its answer, and the answer.
    fn call(&mut self, id: u64, method: &str, params: Value) -> (Vec<Value>, Value) {
        let stdin = self.child.stdin.as_mut().unwrap();
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{request}").unwrap();
        let mut before = Vec::new();
        loop {
            let mut line = String::new();
            self.lines.read_line(&mut line).unwrap();
            let message: Value =
                serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line:?}"));
            if message["id"] == id {
                return (before, message);
            }
            before.push(message);
        }
    }

    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.child.stdin.take());
        self.child.wait().unwrap()
    }
}

#[test]
fn another_agent_calls_read_a_denied_bash_and_agenthub_run_through_the_mcp_sdk() {
    let home = Home::new();
    home.write("ws/notes.txt", "hello notes\n");
    let script = home.base.join("script.json");
    let turns = json!({"turns": [
        {"content": null, "tool_calls": [{"id": "call_1", "name": "Read", "arguments": {"file_path": "notes.txt"}}]},
        {"content": "The notes say: {{last_tool_result}}"}
    ]});
    std::fs::write(&script, turns.to_string()).unwrap();
    let mut printed = client(
        &home,
        "mcp_client.mjs",
        &["--script", script.to_str().unwrap()],
    );
    let structured = printed["run"]["structured"].take();
    assert_eq!(
        printed,
        json!({
            "server": "agenthub",
            "tools": ["Read", "Write", "Edit", "Bash", "Glob", "Grep", "TodoWrite", "WebFetch", "agenthub_run"],
            "read": {"isError": false, "text": "     1\thello notes\n", "structured": null},
            "bash": {"isError": true, "structured": null, "text":
                "Error [permission_denied]: the tool was not run: permission denied: approval required\n\
                 Bash needs approval and no one can answer here: re-run with --allow 'Bash(touch made-by-bash:*)'"},
            "run": {"isError": false, "text": "The notes say:      1\thello notes\n", "structured": null},
        })
    );
    assert!(
        !home.ws().join("made-by-bash").exists(),
        "the denied call never ran"
    );
    let id = structured["session_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(
        structured,
        json!({"status": "completed", "result": "The notes say:      1\thello notes\n",
            "session_id": id, "transcript_path": home.transcript(&id)})
    );
    assert_eq!(
        home.records(&id)[0]["type"],
        "session",
        "the session has its transcript"
    );
}

/// npm's MCP test server (pinned in tests/npm).
fn everything_server() -> PathBuf {
    npm_modules().join(".bin/mcp-server-everything")
}

#[test]
fn the_editors_mcp_servers_join_the_session_and_their_calls_pass_the_pipeline() {
    let home = Home::new();
    let script = home.base.join("script.json");
    let turns = json!({"turns": [
        {"content": null, "tool_calls": [{"id": "call_1", "name": "mcp__everything__echo",
            "arguments": {"message": "hi"}}]},
        {"content": "{{last_tool_result}}"}
    ]});
    std::fs::write(&script, turns.to_string()).unwrap();
    let mut wire = Wire::with_args(
        &home,
        &[
            "acp",
            "--script",
            script.to_str().unwrap(),
            "--allow",
            "mcp__everything__echo",
        ],
    );
    let server =
        json!({"name": "everything", "command": everything_server(), "args": [], "env": []});
    let (_, created) = wire.call(
        1,
        "session/new",
        json!({"cwd": home.ws(), "mcpServers": [server]}),
    );
    let session = created["result"]["sessionId"].as_str().unwrap().to_owned();
    let (updates, answer) = wire.call(
        2,
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": "echo hi"}]}),
    );
    let updates: Vec<Value> = updates
        .into_iter()
        .map(|message| message["params"]["update"].clone())
        .collect();
    assert_eq!(
        updates,
        vec![
            json!({"sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "mcp__everything__echo",
                "kind": "other", "status": "pending", "rawInput": {"message": "hi"}}),
            json!({"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "in_progress"}),
            json!({"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed",
                "content": [{"type": "content", "content": {"type": "text", "text": "Echo: hi"}}]}),
            json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Echo: hi"}}),
        ]
    );
    assert_eq!(answer["result"], json!({"stopReason": "end_turn"}));
    assert!(wire.finish().success());
}

#[test]
fn flags_that_mean_nothing_to_a_served_session_are_refused_by_acp_and_mcp_serve() {
    let home = Home::new();
    let refusal = |args: &[&str]| {
        let output = home.agenthub().args(args).output().unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stderr).unwrap().trim().to_owned(),
        )
    };
    assert_eq!(
        (
            refusal(&["acp", "--resume", "abc"]),
            refusal(&["mcp", "serve", "hello"])
        ),
        (
            (
                Some(2),
                "agenthub: agenthub acp does not take --resume: the editor sends prompts and loads sessions (session/load), and the protocol is its output".to_owned()
            ),
            (
                Some(2),
                "agenthub: agenthub mcp serve does not take a prompt: each agenthub_run call is a new session with its own prompt, and the protocol is its output".to_owned()
            )
        )
    );
}
