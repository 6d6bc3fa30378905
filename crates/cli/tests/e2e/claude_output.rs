//! `--output-format json` and `stream-json` as Claude Code's (contract §29):
//! the result message with AgentHub's keys beside it, the message stream
//! written as the run goes (a subagent's lines under its Task call, a denied
//! call in `permission_denials`, no system prompt, the transcript file
//! unchanged), `--include-partial-messages` and `--verbose`. `claude_sdk.rs`
//! has both read by the official Claude Agent SDK.

use crate::support::home::Home;
use serde_json::{json, Value};

/// A parent that delegates to a general-purpose subagent (which calls
/// Echo), then makes a Bash call the `--deny` rule refuses, then answers.
pub(crate) fn delegating_script() -> Value {
    json!({
        "turns": [
            {"content": "delegating", "tool_calls": [{"id": "t1", "name": "Task", "arguments": {
                "description": "say hi", "prompt": "echo hi", "subagent_type": "general-purpose"}}]},
            {"tool_calls": [{"id": "c2", "name": "Bash", "arguments": {"command": "rm -rf x"}}]},
            {"content": "done"}
        ],
        "subagents": [{"turns": [
            {"tool_calls": [{"id": "e1", "name": "Echo", "arguments": {"text": "hi"}}]},
            {"content": "child done"}
        ]}]
    })
}

pub(crate) const DENY: [&str; 2] = ["--deny", "Bash(rm:*)"];

/// `agenthub run --script S FLAGS go` in `home`; the exit code and stdout.
pub(crate) fn run(home: &Home, script: &Value, flags: &[&str]) -> (Option<i32>, String) {
    let path = home.ws().join("../script.json");
    std::fs::write(&path, script.to_string()).unwrap();
    let output = home
        .agenthub()
        .args(["run", "--script"])
        .arg(&path)
        .args(flags)
        .arg("go")
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

pub(crate) fn parsed_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is one JSON object"))
        .collect()
}

/// `lines` with what differs from run to run checked and replaced: each
/// line's `uuid` (removed), the session id (the init line's, on every
/// line: `S`), message ids (`msg_…`: `MSG`), checkpoint ids, the result's
/// durations (numbers: removed) and transcript path (the session's).
fn normalized(home: &Home, lines: Vec<Value>) -> Vec<Value> {
    let session = lines[0]["session_id"].as_str().unwrap().to_owned();
    lines
        .into_iter()
        .map(|mut line| {
            let fields = line.as_object_mut().unwrap();
            assert!(fields.remove("uuid").is_some() || fields["type"] == "result");
            assert_eq!(
                fields.insert("session_id".into(), json!("S")),
                Some(json!(session))
            );
            for pointer in ["/message/id", "/event/message/id"] {
                if let Some(id) = line_id(fields, pointer) {
                    assert!(id.as_str().unwrap().starts_with("msg_"), "{id}");
                    *id = json!("MSG");
                }
            }
            if fields.get("subtype") == Some(&json!("agenthub_checkpoint")) {
                assert_eq!(fields["id"].as_str().map(str::len), Some(40));
                fields.insert("id".into(), json!("CHECKPOINT"));
            }
            if fields["type"] == "result" {
                for key in ["duration_ms", "duration_api_ms"] {
                    assert!(fields.remove(key).unwrap().is_u64(), "{key} is a number");
                }
                let transcript = home.transcript(&session).display().to_string();
                assert_eq!(fields.remove("transcript_path"), Some(json!(transcript)));
            }
            line
        })
        .collect()
}

fn line_id<'a>(
    fields: &'a mut serde_json::Map<String, Value>,
    pointer: &str,
) -> Option<&'a mut Value> {
    let (key, rest) = pointer[1..].split_once('/')?;
    fields.get_mut(key)?.pointer_mut(&format!("/{rest}"))
}

fn assistant(parent: Value, content: Value, stop_reason: &str) -> Value {
    json!({"type": "assistant", "session_id": "S", "parent_tool_use_id": parent,
           "message": {"id": "MSG", "type": "message", "role": "assistant", "model": "scripted",
                       "content": content, "stop_reason": stop_reason, "stop_sequence": null,
                       "usage": {"input_tokens": 0, "output_tokens": 0,
                                 "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}}})
}

fn user(parent: Value, content: Value) -> Value {
    json!({"type": "user", "session_id": "S", "parent_tool_use_id": parent,
           "message": {"role": "user", "content": content}})
}

fn tool_result(id: &str, content: &str, is_error: bool) -> Value {
    json!([{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error}])
}

/// The permission line of a call allowed by default: Echo is read-only;
/// Task is never called so (§33), it hands work to a subagent.
fn allowed(parent: Value, tool: &str, id: &str) -> Value {
    let reason = match tool {
        "Task" => "Task hands work to a subagent whose every call is decided on its own; \
                   allowed by default"
            .to_owned(),
        _ => format!("{tool} is read-only and allowed by default"),
    };
    json!({"type": "system", "subtype": "agenthub_permission", "session_id": "S",
           "parent_tool_use_id": parent, "tool": tool, "tool_use_id": id, "effect": "allow",
           "source": "default", "reason": reason})
}

pub(crate) fn zero_usage() -> Value {
    json!({"input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0,
           "cache_creation_tokens": 0, "cache_read_input_tokens": 0,
           "cache_creation_input_tokens": 0})
}

#[test]
fn stream_json_is_claude_codes_message_stream_with_a_subagent_under_its_task_call() {
    let home = Home::new();
    let mut flags = vec!["--output-format", "stream-json"];
    flags.extend(DENY);
    let (code, stdout) = run(&home, &delegating_script(), &flags);
    let lines = normalized(&home, parsed_lines(&stdout));
    let denied = "`rm -rf x` matches deny rule Bash(rm:*) (command line)";
    let workspace = home.ws().display().to_string();
    let expected = vec![
        json!({"type": "system", "subtype": "init", "session_id": "S", "cwd": workspace,
               "model": "scripted",
               "tools": ["Read", "Write", "Edit", "Bash", "Glob", "Grep", "TodoWrite", "WebFetch", "Echo", "Task"],
               "mcp_servers": [], "permissionMode": "default", "slash_commands": [],
               "output_style": "default", "agenthub_version": env!("CARGO_PKG_VERSION"),
               "claude_code_version": "2.1.326"}),
        assistant(
            Value::Null,
            json!([{"type": "text", "text": "delegating"},
                   {"type": "tool_use", "id": "t1", "name": "Task", "input": {
                       "description": "say hi", "prompt": "echo hi",
                       "subagent_type": "general-purpose"}}]),
            "tool_use",
        ),
        allowed(Value::Null, "Task", "t1"),
        user(json!("t1"), json!([{"type": "text", "text": "echo hi"}])),
        assistant(
            json!("t1"),
            json!([{"type": "tool_use", "id": "e1", "name": "Echo", "input": {"text": "hi"}}]),
            "tool_use",
        ),
        allowed(json!("t1"), "Echo", "e1"),
        user(json!("t1"), tool_result("e1", "hi", false)),
        assistant(
            json!("t1"),
            json!([{"type": "text", "text": "child done"}]),
            "end_turn",
        ),
        user(Value::Null, tool_result("t1", "child done", false)),
        assistant(
            Value::Null,
            json!([{"type": "tool_use", "id": "c2", "name": "Bash",
                    "input": {"command": "rm -rf x"}}]),
            "tool_use",
        ),
        json!({"type": "system", "subtype": "agenthub_checkpoint", "session_id": "S",
               "parent_tool_use_id": null, "id": "CHECKPOINT", "prompt_index": 1}),
        json!({"type": "system", "subtype": "agenthub_permission", "session_id": "S",
               "parent_tool_use_id": null, "tool": "Bash", "tool_use_id": "c2",
               "effect": "deny", "source": "rule", "rule": "Bash(rm:*) (command line)",
               "reason": denied}),
        user(
            Value::Null,
            tool_result(
                "c2",
                &format!(
                    "Error [permission_denied]: the tool was not run: permission denied: {denied}"
                ),
                true,
            ),
        ),
        assistant(
            Value::Null,
            json!([{"type": "text", "text": "done"}]),
            "end_turn",
        ),
        json!({"type": "result", "subtype": "success", "is_error": false,
               "status": "completed", "result": "done", "error": null, "turns": 3,
               "num_turns": 3, "session_id": "S", "usage": zero_usage(),
               "total_cost_usd": null,
               "permission_denials": [{"tool_name": "Bash", "tool_use_id": "c2",
                                       "tool_input": {"command": "rm -rf x"},
                                       "reason": denied}]}),
    ];
    assert_eq!((code, lines), (Some(0), expected));
}

#[test]
fn stream_json_never_prints_the_system_prompt_and_the_transcript_keeps_its_shape() {
    let home = Home::new();
    let (code, stdout) = run(
        &home,
        &delegating_script(),
        &["--output-format", "stream-json", DENY[0], DENY[1]],
    );
    let session = parsed_lines(&stdout)[0]["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let records = home.records(&session);
    let prompts: Vec<String> = records
        .iter()
        .filter(|record| record["subtype"] == "system_prompt")
        .map(|record| record["content"].as_str().unwrap().to_owned())
        .collect();
    let types: Vec<&str> = records
        .iter()
        .map(|record| record["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        (
            code,
            prompts.len(),
            prompts
                .iter()
                .any(|prompt| stdout.contains(prompt.as_str())),
            types.first().copied(),
            types.last().copied()
        ),
        (Some(0), 2, false, Some("session"), Some("outcome"))
    );
}

#[test]
fn include_partial_messages_adds_anthropic_stream_events_before_the_reply() {
    let home = Home::new();
    let script = json!({"turns": [{"content": "hi there"}]});
    let flags = [
        "--output-format",
        "stream-json",
        "--include-partial-messages",
    ];
    let (code, stdout) = run(&home, &script, &flags);
    let lines = normalized(&home, parsed_lines(&stdout));
    let event = |event: Value| {
        json!({"type": "stream_event", "session_id": "S", "parent_tool_use_id": null,
               "event": event})
    };
    assert_eq!(
        (code, lines[1..lines.len() - 1].to_vec()),
        (
            Some(0),
            vec![
                event(json!({"type": "message_start", "message": {
                    "id": "MSG", "type": "message", "role": "assistant", "model": "scripted",
                    "content": [], "stop_reason": null, "stop_sequence": null,
                    "usage": {"input_tokens": 0, "output_tokens": 0,
                              "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}}})),
                event(json!({"type": "content_block_start", "index": 0,
                             "content_block": {"type": "text", "text": ""}})),
                event(json!({"type": "content_block_delta", "index": 0,
                             "delta": {"type": "text_delta", "text": "hi there"}})),
                event(json!({"type": "content_block_stop", "index": 0})),
                event(json!({"type": "message_delta",
                             "delta": {"stop_reason": "end_turn", "stop_sequence": null},
                             "usage": {"output_tokens": 0}})),
                event(json!({"type": "message_stop"})),
                assistant(
                    Value::Null,
                    json!([{"type": "text", "text": "hi there"}]),
                    "end_turn"
                ),
            ]
        )
    );
}

#[test]
fn verbose_is_accepted_and_changes_nothing() {
    let home = Home::new();
    let script = json!({"turns": [{"content": "hi"}]});
    let kinds = |flags: &[&str]| {
        let (code, stdout) = run(&home, &script, flags);
        let lines = normalized(&home, parsed_lines(&stdout));
        let shapes: Vec<Value> = lines
            .iter()
            .map(|line| json!([line["type"], line["subtype"]]))
            .collect();
        (code, shapes)
    };
    assert_eq!(
        kinds(&["--output-format", "stream-json", "--verbose"]),
        kinds(&["--output-format", "stream-json"])
    );
}

#[test]
fn json_reports_max_turns_as_an_error_subtype() {
    let home = Home::new();
    let script = json!({"turns": [
        {"tool_calls": [{"id": "c1", "name": "Echo", "arguments": {"text": "hi"}}]},
        {"content": "never reached"}
    ]});
    let (code, stdout) = run(
        &home,
        &script,
        &["--output-format", "json", "--max-turns", "1"],
    );
    let printed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (
            code,
            printed["type"].clone(),
            printed["subtype"].clone(),
            printed["is_error"].clone(),
            printed["status"].clone()
        ),
        (
            Some(1),
            json!("result"),
            json!("error_max_turns"),
            json!(true),
            json!("max_turns")
        )
    );
}
