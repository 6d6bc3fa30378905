//! The stream-json writer without a process: each event's line in Claude
//! Code's shape, what is never printed, and a reader that went away.

use super::*;
use crate::stream_lines::Init;
use agenthub::crates::protocol::{PermissionRecord, UsageRecord};
use agenthub::{PermissionEffect, PermissionSource, SubagentInfo, ToolCall};
use serde_json::json;
use std::sync::Arc;

/// A writer whose bytes the test can read back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A reader that went away.
struct Gone;

impl Write for Gone {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }
}

fn init() -> Init {
    Init {
        session_id: "s1".into(),
        cwd: "/w".into(),
        model: "scripted".into(),
        tools: vec!["Read".into(), "Task".into()],
        mcp_servers: vec![("notes".into(), "connected")],
        permission_mode: "default".into(),
        slash_commands: vec!["greet".into()],
    }
}

/// The lines written after `events`, each without its random `uuid` (and
/// the `init` line left out).
fn lines_after(partial: bool, events: &[AgentEvent<'_>]) -> Vec<Value> {
    let out = Shared::default();
    let stream = StreamJson::new(out.clone(), "scripted", partial);
    stream.init(&init());
    for event in events {
        stream.on_event(event).unwrap();
    }
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    text.lines()
        .skip(1)
        .map(|line| without_uuid(serde_json::from_str(line).unwrap()))
        .collect()
}

fn without_uuid(mut line: Value) -> Value {
    line.as_object_mut().unwrap().remove("uuid");
    line
}

fn echo_call() -> Message {
    Message::Assistant {
        content: Some("Echoing.".into()),
        tool_calls: vec![ToolCall::new("c1", "Echo", r#"{"text":"hi"}"#)],
    }
}

#[test]
fn the_init_line_names_the_session_its_tools_servers_mode_and_commands() {
    let line = without_uuid(init().line());
    assert_eq!(
        line,
        json!({"type": "system", "subtype": "init", "session_id": "s1", "cwd": "/w",
               "model": "scripted", "tools": ["Read", "Task"],
               "mcp_servers": [{"name": "notes", "status": "connected"}],
               "permissionMode": "default", "slash_commands": ["greet"],
               "output_style": "default", "agenthub_version": env!("CARGO_PKG_VERSION"),
               "claude_code_version": "2.1.326"})
    );
}

#[test]
fn a_reply_and_its_tool_result_are_an_assistant_and_a_user_message() {
    let usage = UsageRecord {
        turn: 1,
        usage: Usage {
            input_tokens: 120,
            output_tokens: 7,
            cache_read_tokens: 100,
            cache_creation_tokens: 0,
        },
    };
    let reply = echo_call();
    let result = Message::tool("c1", "hi");
    let lines = lines_after(
        false,
        &[
            AgentEvent::Usage(&usage),
            AgentEvent::Message(&reply),
            AgentEvent::Message(&result),
        ],
    );
    let id = lines[0]["message"]["id"].clone();
    assert_eq!(
        lines,
        [
            json!({"type": "assistant", "session_id": "s1", "parent_tool_use_id": null,
                   "message": {"id": id, "type": "message", "role": "assistant",
                               "model": "scripted",
                               "content": [{"type": "text", "text": "Echoing."},
                                           {"type": "tool_use", "id": "c1", "name": "Echo",
                                            "input": {"text": "hi"}}],
                               "stop_reason": "tool_use", "stop_sequence": null,
                               "usage": {"input_tokens": 20, "output_tokens": 7,
                                         "cache_read_input_tokens": 100,
                                         "cache_creation_input_tokens": 0}}}),
            json!({"type": "user", "session_id": "s1", "parent_tool_use_id": null,
                   "message": {"role": "user", "content": [
                       {"type": "tool_result", "tool_use_id": "c1", "content": "hi",
                        "is_error": false}]}}),
        ]
    );
}

#[test]
fn the_system_prompt_and_the_sessions_prompt_are_never_printed() {
    let system = Message::system("You are AgentHub. SECRET INSTRUCTIONS");
    let prompt = Message::user("say hi");
    let lines = lines_after(
        false,
        &[AgentEvent::Message(&system), AgentEvent::Message(&prompt)],
    );
    assert_eq!(lines, Vec::<Value>::new());
}

#[test]
fn a_subagents_messages_carry_the_task_calls_id_as_parent() {
    let info = SubagentInfo {
        agent_id: "a1".into(),
        agent_type: "reviewer".into(),
        description: "review".into(),
        tool_use_id: "task_1".into(),
    };
    let preamble = Message::system("You are a reviewer.");
    let prompt = Message::user("review a.txt");
    let answer = Message::assistant_text("looks fine");
    let inner = [
        AgentEvent::Message(&preamble),
        AgentEvent::Message(&prompt),
        AgentEvent::Message(&answer),
    ];
    let events: Vec<AgentEvent<'_>> = inner
        .iter()
        .map(|event| AgentEvent::Subagent(&info, event))
        .collect();
    let lines = lines_after(false, &events);
    let parents: Vec<(Value, Value)> = lines
        .iter()
        .map(|line| (line["type"].clone(), line["parent_tool_use_id"].clone()))
        .collect();
    assert_eq!(
        (parents, lines[0]["message"]["content"].clone()),
        (
            vec![
                (json!("user"), json!("task_1")),
                (json!("assistant"), json!("task_1"))
            ],
            json!([{"type": "text", "text": "review a.txt"}])
        )
    );
}

#[test]
fn a_permission_decision_is_an_agenthub_permission_system_line() {
    let record = PermissionRecord {
        agent_id: None,
        tool: "Bash".into(),
        tool_use_id: "c1".into(),
        host: None,
        effect: PermissionEffect::Deny,
        source: PermissionSource::Rule,
        rule: Some("Bash(rm:*)".into()),
        reason: "denied by rule Bash(rm:*)".into(),
    };
    let lines = lines_after(false, &[AgentEvent::Permission(&record)]);
    assert_eq!(
        lines,
        [
            json!({"type": "system", "subtype": "agenthub_permission", "session_id": "s1",
                "parent_tool_use_id": null, "tool": "Bash", "tool_use_id": "c1",
                "effect": "deny", "source": "rule", "rule": "Bash(rm:*)",
                "reason": "denied by rule Bash(rm:*)"})
        ]
    );
}

#[test]
fn with_partial_messages_streamed_text_becomes_anthropic_stream_events() {
    let answer = Message::assistant_text("hi there");
    let lines = lines_after(
        true,
        &[
            AgentEvent::TextDelta("hi "),
            AgentEvent::TextDelta("there"),
            AgentEvent::Message(&answer),
        ],
    );
    let kinds: Vec<Value> = lines
        .iter()
        .map(|line| match line["type"].as_str() {
            Some("stream_event") => line["event"]["type"].clone(),
            _ => line["type"].clone(),
        })
        .collect();
    assert_eq!(
        (
            kinds,
            lines[2]["event"]["delta"].clone(),
            lines[0]["event"]["message"]["id"] == lines[7]["message"]["id"]
        ),
        (
            vec![
                json!("message_start"),
                json!("content_block_start"),
                json!("content_block_delta"),
                json!("content_block_delta"),
                json!("content_block_stop"),
                json!("message_delta"),
                json!("message_stop"),
                json!("assistant")
            ],
            json!({"type": "text_delta", "text": "hi "}),
            true
        )
    );
}

#[test]
fn without_partial_messages_no_text_delta_is_printed() {
    let lines = lines_after(false, &[AgentEvent::TextDelta("hi")]);
    assert_eq!(lines, Vec::<Value>::new());
}

#[test]
fn a_reader_that_went_away_never_fails_an_event() {
    let stream = StreamJson::new(Gone, "scripted", true);
    stream.init(&init());
    let reply = echo_call();
    let told = [AgentEvent::TextDelta("x"), AgentEvent::Message(&reply)]
        .iter()
        .map(|event| stream.on_event(event).is_ok())
        .collect::<Vec<_>>();
    assert_eq!(told, [true, true]);
}
