//! MCP servers through the real binary (contract §14): npm's
//! `@modelcontextprotocol/server-everything` (installed by `.ci/run` with
//! `npm ci --prefix tests/npm`) called with `echo` and `get-sum` by the
//! scripted model, seen by a PreToolUse hook matching `mcp__everything__.*`
//! and allowed by a server rule; an MCP tool asks by default; a server that
//! fails to start is reported on stderr and the run goes on; an untrusted
//! `.mcp.json` starts nothing; `agenthub mcp add | remove | list`.

use crate::support::history;

use assert_cmd::Command;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The npm server's launcher; the test fails (never skips) when it is missing.
fn everything_server() -> PathBuf {
    let launcher = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/npm/node_modules/.bin/mcp-server-everything");
    assert!(
        launcher.exists(),
        "{} is missing: run the tests with `scripts/test`, which installs it \
         (or `npm ci --prefix tests/npm` from the repository root)",
        launcher.display()
    );
    launcher
}

/// `<tmp>/ws` (the workspace) and `<tmp>/home` (HOME and XDG folders).
struct Setup {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::TempDir::new().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for folder in ["ws", "home"] {
            std::fs::create_dir_all(base.join(folder)).unwrap();
        }
        Setup { _dir: dir, base }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.base.join(rel)
    }

    fn write(&self, rel: &str, value: &Value) {
        std::fs::write(self.path(rel), value.to_string()).unwrap();
    }

    fn agenthub(&self) -> Command {
        let mut command = Command::cargo_bin("agenthub").unwrap();
        command
            .env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("home/.config"))
            .env("XDG_STATE_HOME", self.path("home/.local/state"))
            .current_dir(self.path("ws"));
        command
    }

    /// `agenthub run --script` with one round of `calls`, the MCP servers of
    /// `mcp.json`, and `extra` flags.
    fn run(&self, calls: Value, extra: &[&str]) -> Command {
        let script =
            json!({"turns": [{"content": "calling", "tool_calls": calls}, {"content": "done"}]});
        self.write("script.json", &script);
        let mut command = self.agenthub();
        command
            .args(["run", "--script"])
            .arg(self.path("script.json"))
            .arg("--transcript")
            .arg(self.path("t.jsonl"))
            .arg("--mcp-config")
            .arg(self.path("mcp.json"))
            .args(extra)
            // --mcp-config takes every argument up to the next flag (§29).
            .args(["--", "go"]);
        command
    }

    /// The tool results of the transcript, in order.
    fn tool_results(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.path("t.jsonl")).unwrap();
        text.lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .map(history::as_history)
            .filter(|record| record["type"] == "message" && record["message"]["role"] == "tool")
            .map(|record| {
                record["message"]["content"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect()
    }
}

fn everything_config(setup: &Setup) {
    setup.write(
        "mcp.json",
        &json!({"mcpServers": {"everything": {"command": everything_server(), "args": ["stdio"]}}}),
    );
}

#[test]
fn the_everything_servers_echo_and_get_sum_run_through_hooks_and_permission() {
    let setup = Setup::new();
    everything_config(&setup);
    let log = setup.path("hook.log");
    setup.write(
        "settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "mcp__everything__.*", "hooks": [
            {"type": "command", "command": format!("grep -o '\"tool_name\":\"[^\"]*\"' >> {}", log.display())}]}]}}),
    );
    let calls = json!([
        {"id": "c1", "name": "mcp__everything__echo", "arguments": {"message": "hello"}},
        {"id": "c2", "name": "mcp__everything__get-sum", "arguments": {"a": 2, "b": 3}},
        {"id": "c3", "name": "mcp__everything__get-sum", "arguments": {"a": "two", "b": 3}}
    ]);
    let settings = setup.path("settings.json");
    setup
        .run(
            calls,
            &[
                "--allow",
                "mcp__everything",
                "--settings",
                settings.to_str().unwrap(),
            ],
        )
        .assert()
        .success();
    assert_eq!(
        (setup.tool_results(), std::fs::read_to_string(&log).unwrap()),
        (
            vec![
                "Echo: hello".to_owned(),
                "The sum of 2 and 3 is 5.".to_owned(),
                "Error [invalid_arguments]: the tool was not run: the arguments of mcp__everything__get-sum do not match its schema: at /a: \"two\" is not of type \"number\"".to_owned(),
            ],
            "\"tool_name\":\"mcp__everything__echo\"\n\"tool_name\":\"mcp__everything__get-sum\"\n".to_owned()
        )
    );
}

#[test]
fn an_mcp_tool_asks_by_default_and_a_headless_run_denies_it() {
    let setup = Setup::new();
    everything_config(&setup);
    let calls =
        json!([{"id": "c1", "name": "mcp__everything__echo", "arguments": {"message": "hi"}}]);
    setup.run(calls, &[]).assert().success();
    let results = setup.tool_results();
    assert!(
        results[0].starts_with("Error [permission_denied]"),
        "{results:?}"
    );
}

#[test]
fn a_server_that_fails_to_start_is_reported_with_command_and_stderr_and_the_run_goes_on() {
    let setup = Setup::new();
    setup.write(
        "mcp.json",
        &json!({"mcpServers": {"broken": {"command": "sh", "args": ["-c", "echo missing token >&2; exit 4"]}}}),
    );
    let output = setup.run(json!([]), &[]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr.contains("agenthub: warning: MCP server broken (sh -c echo missing token >&2; exit 4) did not start: ")
            && stderr.contains("its stderr ends with:\nmissing token\n"),
        "{stderr}"
    );
}

#[test]
fn an_untrusted_mcp_json_starts_nothing_and_the_warning_names_its_servers() {
    let setup = Setup::new();
    let started = setup.path("started");
    setup.write(
        "ws/.mcp.json",
        &json!({"mcpServers": {"sneaky": {"command": "touch", "args": [started]}}}),
    );
    setup.write("mcp.json", &json!({"mcpServers": {}}));
    let output = setup.run(json!([]), &[]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "  - MCP server sneaky (touch {}), not started (.mcp.json)",
            started.display()
        )),
        "{stderr}"
    );
    assert!(!started.exists());
}

#[test]
fn mcp_add_and_remove_edit_the_user_settings() {
    let setup = Setup::new();
    setup
        .agenthub()
        .args([
            "mcp",
            "add",
            "files",
            "-e",
            "ROOT=/srv",
            "--",
            "npx",
            "-y",
            "srv",
        ])
        .assert()
        .success();
    setup
        .agenthub()
        .args([
            "mcp",
            "add",
            "--transport",
            "http",
            "web",
            "http://127.0.0.1:9/mcp",
            "-H",
            "Authorization: Bearer ${TOKEN}",
        ])
        .assert()
        .success();
    setup
        .agenthub()
        .args(["mcp", "remove", "files"])
        .assert()
        .success();
    let settings =
        std::fs::read_to_string(setup.path("home/.config/agenthub/settings.json")).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&settings).unwrap(),
        json!({"mcpServers": {"web": {"type": "http", "url": "http://127.0.0.1:9/mcp",
                                      "headers": {"Authorization": "Bearer ${TOKEN}"}}}})
    );
}

#[test]
fn mcp_add_with_project_scope_writes_the_workspaces_mcp_json() {
    let setup = Setup::new();
    setup
        .agenthub()
        .args(["mcp", "add", "--scope", "project", "t", "--", "srv"])
        .assert()
        .success();
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(setup.path("ws/.mcp.json")).unwrap())
            .unwrap();
    assert_eq!(
        written,
        json!({"mcpServers": {"t": {"command": "srv", "args": [], "env": {}}}})
    );
}

#[test]
fn mcp_remove_of_an_unknown_server_is_an_error() {
    let setup = Setup::new();
    setup
        .agenthub()
        .args(["mcp", "remove", "nope"])
        .assert()
        .code(2)
        .stderr("agenthub: no MCP server is named nope\n");
}

#[test]
fn mcp_list_shows_each_server_its_state_and_tools() {
    let setup = Setup::new();
    everything_config(&setup);
    let output = setup
        .agenthub()
        .args(["mcp", "list", "--mcp-config"])
        .arg(setup.path("mcp.json"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout.starts_with("everything: running, ")
            && stdout.contains("\n  mcp__everything__get-sum  Returns the sum of two numbers\n"),
        "{stdout}"
    );
}

#[test]
fn mcp_list_exits_1_when_a_server_did_not_start() {
    let setup = Setup::new();
    setup.write(
        "mcp.json",
        &json!({"mcpServers": {"broken": {"command": "sh", "args": ["-c", "exit 4"]}}}),
    );
    let output = setup
        .agenthub()
        .args(["mcp", "list", "--mcp-config"])
        .arg(setup.path("mcp.json"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        (output.status.code(), stdout.lines().next()),
        (
            Some(1),
            Some(
                format!(
                    "broken: failed (see the warning above) — sh -c exit 4 ({})",
                    setup.path("mcp.json").display()
                )
                .as_str()
            )
        )
    );
}

#[test]
fn an_mcp_tool_hook_calls_a_configured_servers_tool_with_fields_of_the_hook_input() {
    let setup = Setup::new();
    everything_config(&setup);
    setup.write(
        "hooks.json",
        &json!({"hooks": {"UserPromptSubmit": [{"hooks": [{
            "type": "mcp_tool",
            "server": "everything",
            "tool": "echo",
            "input": {"message": "the prompt was ${prompt}"}
        }]}]}}),
    );
    let settings = setup.path("hooks.json");
    setup
        .run(json!([]), &["--settings", settings.to_str().unwrap()])
        .assert()
        .success();
    let text = std::fs::read_to_string(setup.path("t.jsonl")).unwrap();
    let system_messages: Vec<String> = text
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .map(history::as_history)
        .filter(|record| record["type"] == "message" && record["message"]["role"] == "system")
        .filter_map(|record| record["message"]["content"].as_str().map(str::to_owned))
        .filter(|content| content.contains("Echo:"))
        .collect();
    assert_eq!(system_messages.len(), 1, "{text}");
    assert!(
        system_messages[0].contains("Echo: the prompt was go"),
        "{}",
        system_messages[0]
    );
}
