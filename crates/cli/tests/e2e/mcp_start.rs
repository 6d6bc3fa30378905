//! How MCP servers start (contract §29): in parallel with each other and with
//! the rest of start-up, the first request offering the tools of those that
//! came up; `--strict-mcp-config` starts only the `--mcp-config` servers
//! in `run`, `chat`, `mcp serve` and `batch`; `--mcp-config` takes inline JSON; a
//! batch's tasks share a user-level server.
//! The servers are `servers/slow_mcp.py`, which write what they see to an
//! events file: the tests wait for events, never for time.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn server_script() -> String {
    format!(
        "{}/tests/e2e/servers/slow_mcp.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A stdio entry for the fake server `name` with `env` added.
fn entry(name: &str, env: Value) -> Value {
    json!({"command": "python3", "args": [server_script(), name], "env": env})
}

/// `<tmp>/ws` (the workspace) and `<tmp>/home` (HOME and XDG folders).
struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new() -> Case {
        let case = Case {
            dir: tempfile::tempdir().unwrap(),
        };
        for folder in ["ws", "home/.config/agenthub"] {
            std::fs::create_dir_all(case.path(folder)).unwrap();
        }
        case
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn path_text(&self, rel: &str) -> String {
        self.path(rel).display().to_string()
    }

    fn write(&self, rel: &str, value: &Value) {
        std::fs::write(self.path(rel), value.to_string()).unwrap();
    }

    /// The user settings' `mcpServers`.
    fn user_servers(&self, servers: Value) {
        self.write(
            "home/.config/agenthub/settings.json",
            &json!({ "mcpServers": servers }),
        );
    }

    /// A script calling `tool`, then answering with its result.
    fn calling(&self, tool: &str) -> PathBuf {
        self.write(
            "script.json",
            &json!({"turns": [
                {"content": "calling", "tool_calls": [{"id": "c1", "name": tool, "arguments": {}}]},
                {"content": "{{last_tool_result}}"}
            ]}),
        );
        self.path("script.json")
    }

    fn agenthub(&self) -> Command {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("agenthub"));
        command
            .env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("home/.config"))
            .env("XDG_STATE_HOME", self.path("home/.local/state"))
            .env("MCP_TIMEOUT", "60000")
            .current_dir(self.path("ws"))
            .stdin(Stdio::null());
        command
    }

    /// The lines of the events file `rel` (none when it was never written).
    fn events(&self, rel: &str) -> Vec<String> {
        std::fs::read_to_string(self.path(rel))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

fn stdout_of(output: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).trim().to_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn two_servers_are_both_asked_to_initialize_before_either_answers() {
    let case = Case::new();
    let events = case.path_text("events");
    // Each holds its answer until both were asked: one after the other, neither would start.
    let wait = json!({"MCP_EVENTS": events, "MCP_WAIT_FOR": "2"});
    case.write(
        "mcp.json",
        &json!({"mcpServers": {"a": entry("a", wait.clone()), "b": entry("b", wait)}}),
    );
    let output = case
        .agenthub()
        .args(["run", "--allow", "mcp__b", "--script"])
        .arg(case.calling("mcp__b__ping"))
        .arg("--mcp-config")
        .arg(case.path("mcp.json"))
        .args(["--", "go"])
        .output()
        .unwrap();
    let mut first_two = case.events("events")[..2].to_vec();
    first_two.sort();
    assert_eq!(
        (output.status.code(), stdout_of(&output).0, first_two),
        (
            Some(0),
            "pong from b".to_owned(),
            vec!["a initialize".to_owned(), "b initialize".to_owned()]
        )
    );
}

#[test]
fn start_up_goes_on_while_a_server_starts_and_the_first_request_offers_its_tools() {
    let case = Case::new();
    let release = case.path("release");
    case.user_servers(json!({"slow": entry("slow", json!({"MCP_WAIT_FOR_FILE": release}))}));
    case.write("odd.json", &json!({"zzzUnknown": 1}));
    let mut child = case
        .agenthub()
        .args(["run", "--allow", "mcp__slow", "--settings"])
        .arg(case.path("odd.json"))
        .arg("--script")
        .arg(case.calling("mcp__slow__ping"))
        .args(["--", "go"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The settings warning is start-up's: it shows while the server is still
    // held (before, the run waited for its servers first and never got here).
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    std::fs::write(&release, "").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        (line.trim_end(), output.status.code(), stdout_of(&output).0),
        (
            format!(
                "agenthub: warning: {}: unknown key \"zzzUnknown\" ignored",
                case.path("odd.json").display()
            )
            .as_str(),
            Some(0),
            "pong from slow".to_owned()
        )
    );
}

#[test]
fn strict_mcp_config_starts_only_the_servers_of_mcp_config() {
    let case = Case::new();
    let events = case.path_text("events");
    case.user_servers(json!({"user": entry("user", json!({"MCP_EVENTS": events}))}));
    case.write(
        "mcp.json",
        &json!({"mcpServers": {"given": entry("given", json!({"MCP_EVENTS": events}))}}),
    );
    let output = case
        .agenthub()
        .args([
            "run",
            "--allow",
            "mcp__given",
            "--strict-mcp-config",
            "--script",
        ])
        .arg(case.calling("mcp__given__ping"))
        .arg("--mcp-config")
        .arg(case.path("mcp.json"))
        .args(["--", "go"])
        .output()
        .unwrap();
    let (stdout, stderr) = stdout_of(&output);
    assert_eq!(
        (
            output.status.code(),
            stdout,
            case.events("events"),
            stderr.contains("user")
        ),
        (
            Some(0),
            "pong from given".to_owned(),
            vec!["given initialize".to_owned(), "given answered".to_owned()],
            false
        )
    );
}

#[test]
fn strict_mcp_config_starts_no_server_of_a_trusted_projects_mcp_json() {
    let case = Case::new();
    let events = case.path_text("events");
    let project =
        json!({"mcpServers": {"project": entry("project", json!({"MCP_EVENTS": events}))}});
    case.write("ws/.mcp.json", &project);
    let run = |strict: &[&str]| {
        case.agenthub()
            .args(["run", "--trust-project", "--script"])
            .arg(case.calling("mcp__project__ping"))
            .args(strict)
            .args(["--", "go"])
            .output()
            .unwrap()
            .status
            .code()
    };
    let strict = (run(&["--strict-mcp-config"]), case.events("events"));
    let trusted = (run(&[]), case.events("events"));
    assert_eq!(
        (strict, trusted),
        (
            (Some(0), Vec::new()),
            (
                Some(0),
                vec![
                    "project initialize".to_owned(),
                    "project answered".to_owned()
                ]
            )
        )
    );
}

#[test]
fn without_strict_mcp_config_the_user_server_starts_too() {
    let case = Case::new();
    let events = case.path_text("events");
    case.user_servers(json!({"user": entry("user", json!({"MCP_EVENTS": events}))}));
    let output = case
        .agenthub()
        .args(["run", "--allow", "mcp__user", "--script"])
        .arg(case.calling("mcp__user__ping"))
        .args(["--", "go"])
        .output()
        .unwrap();
    assert_eq!(
        (
            output.status.code(),
            stdout_of(&output).0,
            case.events("events")
        ),
        (
            Some(0),
            "pong from user".to_owned(),
            vec!["user initialize".to_owned(), "user answered".to_owned()]
        )
    );
}

/// `agenthub mcp serve ARGS` until it answers `initialize`: it starts its
/// own servers before it serves, so by then they have been asked.
fn serve_initialized(case: &Case, args: &[&str]) {
    let mut child = case
        .agenthub()
        .args(["mcp", "serve", "--script"])
        .arg(case.calling("Read"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let request = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "e2e", "version": "1"}}});
    writeln!(child.stdin.as_mut().unwrap(), "{request}").unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    drop(child.stdin.take());
    child.wait().unwrap();
    assert_eq!(serde_json::from_str::<Value>(&line).unwrap()["id"], 0);
}

#[test]
fn mcp_serve_with_strict_mcp_config_starts_no_user_level_server() {
    let case = Case::new();
    let events = case.path_text("events");
    case.user_servers(json!({"user": entry("user", json!({"MCP_EVENTS": events}))}));
    serve_initialized(&case, &["--strict-mcp-config"]);
    let strict = case.events("events");
    serve_initialized(&case, &[]);
    assert_eq!(
        (strict, case.events("events")),
        (
            Vec::new(),
            vec!["user initialize".to_owned(), "user answered".to_owned()]
        )
    );
}

#[test]
fn inline_json_mcp_config_starts_its_servers() {
    let case = Case::new();
    let inline = json!({"mcpServers": {"inline": entry("inline", json!({}))}}).to_string();
    let output = case
        .agenthub()
        .args(["run", "--allow", "mcp__inline", "--script"])
        .arg(case.calling("mcp__inline__ping"))
        .args(["--mcp-config", &inline, "--", "go"])
        .output()
        .unwrap();
    assert_eq!(
        (output.status.code(), stdout_of(&output).0),
        (Some(0), "pong from inline".to_owned())
    );
}

#[test]
fn malformed_inline_mcp_config_is_a_usage_error_naming_it() {
    let case = Case::new();
    let output = case
        .agenthub()
        .args(["run", "--script"])
        .arg(case.calling("Read"))
        .args(["--mcp-config", r#"{"mcpServers": {"#, "--", "go"])
        .output()
        .unwrap();
    assert_eq!(
        (output.status.code(), stdout_of(&output)),
        (
            Some(2),
            (
                String::new(),
                "agenthub: --mcp-config {\"mcpServers\": {: the inline JSON is malformed: EOF while parsing an object at line 1 column 16\n".to_owned()
            )
        )
    );
}

/// A batch of `count` tasks in `ws`, each calling `mcp__slow__ping`.
fn batch_case(count: usize) -> Case {
    let case = Case::new();
    case.calling("mcp__slow__ping");
    let tasks: Vec<String> = (0..count)
        .map(|n| {
            json!({"id": format!("t{n}"), "prompt": "go", "workspace": {"path": "ws"},
                   "script": "script.json",
                   "settings": {"permissions": {"allow": ["mcp__slow"]}}})
            .to_string()
        })
        .collect();
    std::fs::write(case.path("tasks.jsonl"), tasks.join("\n")).unwrap();
    case
}

fn batch(case: &Case, extra: &[&str]) -> (Option<i32>, Vec<String>) {
    let output = case
        .agenthub()
        .current_dir(case.path(""))
        .args([
            "batch",
            "tasks.jsonl",
            "--parallel",
            "3",
            "--out",
            "results.jsonl",
        ])
        .args(extra)
        .output()
        .unwrap();
    let mut results: Vec<String> = std::fs::read_to_string(case.path("results.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["result"].to_string())
        .collect();
    results.sort();
    (output.status.code(), results)
}

#[test]
fn a_batchs_tasks_share_one_start_of_a_user_level_server() {
    let case = batch_case(6);
    let events = case.path_text("events");
    case.user_servers(json!({"slow": entry("slow", json!({"MCP_EVENTS": events}))}));
    assert_eq!(
        (batch(&case, &[]), case.events("events")),
        (
            (Some(0), vec!["\"pong from slow\"".to_owned(); 6]),
            vec!["slow initialize".to_owned(), "slow answered".to_owned()]
        )
    );
}

#[test]
fn a_batch_with_strict_mcp_config_starts_no_user_level_server() {
    let case = batch_case(2);
    let events = case.path_text("events");
    case.user_servers(json!({"slow": entry("slow", json!({"MCP_EVENTS": events}))}));
    case.write("script.json", &json!({"turns": [{"content": "done"}]}));
    assert_eq!(
        (
            batch(&case, &["--strict-mcp-config"]),
            case.events("events")
        ),
        (
            (Some(0), vec!["\"done\"".to_owned(); 2]),
            Vec::<String>::new()
        )
    );
}

#[test]
fn chat_with_strict_mcp_config_starts_no_user_level_server() {
    use crate::support::chat_place::{Place, TWO_ANSWERS};
    let place = Place::new(TWO_ANSWERS);
    let events = place.base.join("events");
    std::fs::create_dir_all(place.base.join("home/.config/agenthub")).unwrap();
    let user = json!({"mcpServers": {"user": entry("user", json!({"MCP_EVENTS": events}))}});
    std::fs::write(
        place.base.join("home/.config/agenthub/settings.json"),
        user.to_string(),
    )
    .unwrap();
    let chat = |args: &[&str]| {
        let mut terminal = place.chat(args, &[]);
        // The session is built, its servers started, before the prompt shows.
        terminal.wait_for_prompt();
        terminal.type_line("/exit");
        let code = terminal.wait_exit();
        let seen = std::fs::read_to_string(&events).unwrap_or_default();
        (code, seen.lines().map(str::to_owned).collect::<Vec<_>>())
    };
    let strict = chat(&["--strict-mcp-config"]);
    assert_eq!(
        (strict, chat(&[])),
        (
            (0, Vec::new()),
            (
                0,
                vec!["user initialize".to_owned(), "user answered".to_owned()]
            )
        )
    );
}
