//! AgentHub's `-p --output-format json` and `stream-json` read by a real
//! consumer written for Claude Code's: the official Claude Agent SDK's own
//! message parser (`claude_agent_sdk._internal.message_parser.parse_message`,
//! pinned in tests/python/requirements.txt, installed by scripts/test), whose
//! typed messages tests/python/sdk_parse.py summarizes.

use crate::claude_output::{delegating_script, parsed_lines, run, zero_usage, DENY};
use crate::support::home::Home;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

/// What the official Claude Agent SDK's own parser makes of `output`, one
/// summary per line (tests/python/sdk_parse.py); fails when the SDK is not
/// installed (scripts/test installs it) or cannot parse a line.
fn sdk_parsed(output: &str) -> Vec<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let site = root.join("tests/python/site");
    assert!(
        site.join("claude_agent_sdk").is_dir(),
        "the Claude Agent SDK is not installed in {}: run scripts/test (it installs tests/python/requirements.txt)",
        site.display()
    );
    let mut child = std::process::Command::new("python3")
        .arg(root.join("tests/python/sdk_parse.py"))
        .env("PYTHONPATH", &site)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(output.as_bytes()).unwrap();
    drop(stdin);
    let done = child.wait_with_output().unwrap();
    assert!(
        done.status.success(),
        "the SDK did not parse the output: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    parsed_lines(&String::from_utf8(done.stdout).unwrap())
}

fn sdk_usage() -> Value {
    json!({"input_tokens": 0, "output_tokens": 0, "cache_read_input_tokens": 0,
           "cache_creation_input_tokens": 0})
}

#[test]
fn the_claude_agent_sdk_parses_every_stream_json_line_into_its_typed_messages() {
    let home = Home::new();
    let flags = [
        "--output-format",
        "stream-json",
        "--include-partial-messages",
        DENY[0],
        DENY[1],
    ];
    let (code, stdout) = run(&home, &delegating_script(), &flags);
    let parsed = sdk_parsed(&stdout);
    let sdk_assistant = |parent: Value, blocks: Value, stop: &str| {
        json!({"AssistantMessage": blocks, "model": "scripted", "parent_tool_use_id": parent,
               "stop_reason": stop, "usage": sdk_usage()})
    };
    let streamed = |text: &str, parent: Value, stop: &str| {
        let mut lines = stream_events();
        lines.push(sdk_assistant(parent, json!([{"TextBlock": text}]), stop));
        lines
    };
    let permission = json!({"SystemMessage": "agenthub_permission", "session": true});
    let denied = "Error [permission_denied]: the tool was not run: permission denied: `rm -rf x` matches deny rule Bash(rm:*) (command line)";
    let mut expected = vec![json!({"SystemMessage": "init", "session": true})];
    // The first reply's text streams; its Task call comes with the whole reply.
    expected.extend(stream_events());
    expected.extend([
        sdk_assistant(
            Value::Null,
            json!([{"TextBlock": "delegating"},
                   {"ToolUseBlock": ["t1", "Task", {"description": "say hi", "prompt": "echo hi",
                                                    "subagent_type": "general-purpose"}]}]),
            "tool_use",
        ),
        permission.clone(),
        json!({"UserMessage": [{"TextBlock": "echo hi"}], "parent_tool_use_id": "t1"}),
        sdk_assistant(
            json!("t1"),
            json!([{"ToolUseBlock": ["e1", "Echo", {"text": "hi"}]}]),
            "tool_use",
        ),
        permission.clone(),
        json!({"UserMessage": [{"ToolResultBlock": ["e1", "hi", false]}],
               "parent_tool_use_id": "t1"}),
    ]);
    expected.extend(streamed("child done", json!("t1"), "end_turn"));
    expected.extend([
        json!({"UserMessage": [{"ToolResultBlock": ["t1", "child done", false]}],
               "parent_tool_use_id": null}),
        sdk_assistant(
            Value::Null,
            json!([{"ToolUseBlock": ["c2", "Bash", {"command": "rm -rf x"}]}]),
            "tool_use",
        ),
        json!({"SystemMessage": "agenthub_checkpoint", "session": true}),
        permission,
        json!({"UserMessage": [{"ToolResultBlock": ["c2", denied, true]}],
               "parent_tool_use_id": null}),
    ]);
    expected.extend(streamed("done", Value::Null, "end_turn"));
    expected.push(sdk_result(json!("done"), denied_call()));
    assert_eq!((code, parsed), (Some(0), expected));
}

/// The SDK's view of one streamed reply's events, start to stop.
fn stream_events() -> Vec<Value> {
    [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    .iter()
    .map(|event| json!({"StreamEvent": event}))
    .collect()
}

fn denied_call() -> Value {
    json!([{"tool_name": "Bash", "tool_use_id": "c2", "tool_input": {"command": "rm -rf x"},
            "reason": "`rm -rf x` matches deny rule Bash(rm:*) (command line)"}])
}

fn sdk_result(result: Value, denials: Value) -> Value {
    json!({"ResultMessage": "success", "is_error": false, "num_turns": 3, "result": result,
           "usage": zero_usage(), "total_cost_usd": null, "permission_denials": denials,
           "structured_output": null, "durations": ["int", "int"]})
}

#[test]
fn the_claude_agent_sdk_parses_the_json_output_as_its_result_message() {
    let home = Home::new();
    let mut flags = vec!["--output-format", "json"];
    flags.extend(DENY);
    let (code, stdout) = run(&home, &delegating_script(), &flags);
    assert_eq!(
        (code, sdk_parsed(&stdout)),
        (Some(0), vec![sdk_result(json!("done"), denied_call())])
    );
}

#[test]
fn the_claude_agent_sdk_reads_structured_output_and_an_error_subtype() {
    let home = Home::new();
    let schema = r#"{"type": "object", "properties": {"count": {"type": "integer"}}}"#;
    let answer = json!({"turns": [{"content": "{\"count\": 2}"}]});
    let (_, stdout) = run(
        &home,
        &answer,
        &["--output-format", "json", "--json-schema", schema],
    );
    let looping = json!({"turns": [
        {"tool_calls": [{"id": "c1", "name": "Echo", "arguments": {"text": "hi"}}]}
    ]});
    let (_, cut) = run(
        &home,
        &looping,
        &["--output-format", "json", "--max-turns", "1"],
    );
    let parsed = sdk_parsed(&format!("{stdout}{cut}"));
    let pick = |summary: &Value| {
        (
            summary["ResultMessage"].clone(),
            summary["is_error"].clone(),
            summary["structured_output"].clone(),
        )
    };
    assert_eq!(
        parsed.iter().map(pick).collect::<Vec<_>>(),
        vec![
            (json!("success"), json!(false), json!({"count": 2})),
            (json!("error_max_turns"), json!(true), Value::Null),
        ]
    );
}
