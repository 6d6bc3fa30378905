//! The doors with nobody to answer: `run`, batch, `mcp serve` (single calls
//! and `agenthub_run`), a subagent, a command's inline shell.

use super::{case, prompt, script, GrantKind, Mismatches, HEADLESS_GRANTS, MODES, RULE_GRANTS};
use crate::support::home::Home;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// `agenthub run` of `script`; the session's transcript records.
fn run(home: &Home, script: &Value, prompt: &str) -> Vec<Value> {
    let report = home.run_json(script.clone(), &[], prompt);
    home.records(report["session_id"].as_str().unwrap())
}

#[test]
fn run_asks_for_every_protected_write_whatever_was_granted() {
    let mut mismatches = Mismatches::default();
    for mode in MODES {
        for grant in HEADLESS_GRANTS {
            let home = case(mode, grant);
            let records = run(&home, &script(), prompt(grant));
            mismatches.check("run", mode, grant, &home, &records);
        }
    }
    mismatches.assert_none();
}

#[test]
fn batch_asks_for_every_protected_write_whatever_was_granted() {
    let mut mismatches = Mismatches::default();
    for mode in MODES {
        for grant in RULE_GRANTS {
            let home = case(mode, grant);
            let script_path = home.base.join("script.json");
            std::fs::write(&script_path, script().to_string()).unwrap();
            let task = json!({"id": "t", "prompt": prompt(grant), "script": script_path,
                "workspace": {"path": home.ws()}});
            let tasks = home.base.join("tasks.jsonl");
            std::fs::write(&tasks, task.to_string()).unwrap();
            let out = home.base.join("results.jsonl");
            home.agenthub()
                .arg("batch")
                .arg(&tasks)
                .arg("--out")
                .arg(&out)
                .output()
                .unwrap();
            let line: Value =
                serde_json::from_str(std::fs::read_to_string(&out).unwrap().trim()).unwrap();
            let records = home.records(line["session_id"].as_str().unwrap());
            mismatches.check("batch", mode, grant, &home, &records);
        }
    }
    mismatches.assert_none();
}

#[test]
fn a_subagent_asks_for_every_protected_write_whatever_was_granted() {
    let mut mismatches = Mismatches::default();
    for mode in MODES {
        for grant in HEADLESS_GRANTS {
            let home = case(mode, grant);
            let parent = json!({
                "turns": [
                    {"tool_calls": [{"id": "t1", "name": "Task", "arguments": {
                        "description": "plant", "prompt": "plant", "subagent_type": "general-purpose"}}]},
                    {"content": "parent done"}
                ],
                "subagents": [script()],
            });
            let records = run(&home, &parent, prompt(grant));
            mismatches.check("subagent", mode, grant, &home, &records);
        }
    }
    mismatches.assert_none();
}

#[test]
fn a_commands_inline_shell_asks_for_a_protected_write_its_allowed_tools_cover() {
    let mut mismatches = Mismatches::default();
    for mode in MODES {
        let home = case(mode, GrantKind::AllowedTools);
        home.write(
            "home/.claude/commands/plant.md",
            "---\nallowed-tools: Bash(cp:*)\n---\nState: !`cp notes.txt .git/hooks/pre-commit`\n",
        );
        let records = run(&home, &json!({"turns": [{"content": "done"}]}), "/plant");
        let decisions: Vec<Value> = records
            .iter()
            .filter(|record| record["type"] == "permission")
            .map(|record| json!([record["effect"], record["source"]]))
            .collect();
        let wanted = match mode {
            "plan" | "dontAsk" => json!([["deny", "mode"]]),
            _ => json!([["ask", "protected-path"], ["deny", "approval"]]),
        };
        let planted = home.ws().join(".git/hooks/pre-commit").exists();
        if (Value::Array(decisions.clone()), planted) != (wanted, false) {
            mismatches.note(format!(
                "inline shell × {mode}: {decisions:?}, planted: {planted}"
            ));
        }
    }
    mismatches.assert_none();
}

/// `agenthub mcp serve` on stdio, spoken to line by line.
struct Served {
    child: std::process::Child,
    lines: BufReader<std::process::ChildStdout>,
}

impl Served {
    fn start(home: &Home, script: &std::path::Path) -> Served {
        let mut child = home
            .process(&["mcp", "serve", "--script"])
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap());
        let mut served = Served { child, lines };
        served.request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-06-18",
            "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}),
        );
        served.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        served
    }

    fn send(&mut self, message: Value) {
        writeln!(self.child.stdin.as_mut().unwrap(), "{message}").unwrap();
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.lines.read_line(&mut line).unwrap() > 0,
                "mcp serve ended"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    fn call(&mut self, id: u64, call: &Value) -> Value {
        let params = json!({"name": call["name"], "arguments": call["arguments"]});
        self.request(id, "tools/call", params)["result"].clone()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[test]
fn mcp_serve_refuses_every_protected_write_whatever_was_granted() {
    let mut mismatches = Mismatches::default();
    for mode in MODES {
        for grant in RULE_GRANTS {
            let home = case(mode, grant);
            let script_path = home.base.join("script.json");
            std::fs::write(&script_path, script().to_string()).unwrap();
            let mut served = Served::start(&home, &script_path);
            let single: Vec<Value> = super::protected_calls()
                .as_array()
                .unwrap()
                .iter()
                .zip(10..)
                .map(|(call, id)| served.call(id, call)["isError"].clone())
                .collect();
            if single != vec![json!(true); 5] {
                mismatches.note(format!(
                    "mcp serve single calls × {mode} × {grant:?}: {single:?}"
                ));
            }
            let ran = served.call(
                20,
                &json!({"name": "agenthub_run",
                "arguments": {"prompt": prompt(grant), "cwd": home.ws()}}),
            );
            drop(served);
            let session = ran["structuredContent"]["session_id"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let records = home.records(&session);
            mismatches.check("mcp serve agenthub_run", mode, grant, &home, &records);
        }
    }
    mismatches.assert_none();
}
