//! The outbound request bodies of both providers, for one history that has
//! every kind of message, as committed insta snapshots.

use agenthub_model::anthropic::request::{messages_request, Limits};
use agenthub_model::openai::request::chat_request;
use agenthub_model::ModelRequest;
use agenthub_model::RequestPurpose;
use agenthub_protocol::{Message, ToolCall, ToolSpec};
use serde_json::json;

fn history() -> Vec<Message> {
    vec![
        Message::system("You are AgentHub."),
        Message::system("Project context."),
        Message::user("Echo hi, then read notes.txt"),
        Message::system("UserPromptSubmit context."),
        Message::Assistant {
            content: Some("Doing both.".into()),
            tool_calls: vec![
                ToolCall::new("call_1", "Echo", r#"{"text":"hi"}"#),
                ToolCall::new("call_2", "Read", r#"{"file_path":"notes.txt"}"#),
                ToolCall::new("call_3", "Read", "{not json"),
            ],
        },
        Message::tool("call_1", "hi"),
        Message::tool_error("call_2", "Error [permission_denied]: outside the workspace"),
        Message::tool_error("call_3", "Error [invalid_arguments]: not JSON"),
        Message::system("PostToolUse context."),
        Message::assistant_text("Done: hi."),
        Message::user("Thanks"),
    ]
}

fn tools() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "Echo".into(),
            description: "Echoes text.".into(),
            parameters: json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        },
        ToolSpec {
            name: "Read".into(),
            description: "Reads a file.".into(),
            parameters: json!({"type": "object", "properties": {"file_path": {"type": "string"}}, "required": ["file_path"]}),
        },
    ]
}

#[test]
fn openai_body_keeps_the_history_as_is_and_wraps_tools_as_functions() {
    let (messages, tools) = (history(), tools());
    let request = ModelRequest {
        messages: &messages,
        tools: &tools,
        purpose: RequestPurpose::Turn,
    };
    insta::assert_json_snapshot!(chat_request("gpt-test", 1024, request));
}

#[test]
fn openai_body_without_tools_has_no_tools_key() {
    let messages = vec![Message::user("hi")];
    let request = ModelRequest {
        messages: &messages,
        tools: &[],
        purpose: RequestPurpose::Turn,
    };
    insta::assert_json_snapshot!(chat_request("gpt-test", 1024, request));
}

#[test]
fn anthropic_body_hoists_system_and_groups_tool_results() {
    let (messages, tools) = (history(), tools());
    let request = ModelRequest {
        messages: &messages,
        tools: &tools,
        purpose: RequestPurpose::Turn,
    };
    insta::assert_json_snapshot!(messages_request(
        "claude-test",
        Limits { max_tokens: 1024 },
        request
    ));
}
