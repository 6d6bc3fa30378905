//! Reading transcripts back (contract §12, §21): Claude Code's lines rebuild the
//! history, a subagent's sidechain lines stay out of it, and a transcript
//! written before contract §21 (`message` records) still resumes.

use agenthub_core::read_session;
use agenthub_protocol::{Message, ToolCall};

fn read(lines: &[&str]) -> Vec<Message> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    read_session(&path).unwrap().history
}

const SESSION: &str = r#"{"type":"session","session_id":"s","workspace":"/w","model":null,"created":"2026-12-01T00:00:00Z","version":"0.1.0"}"#;

#[test]
fn claude_code_lines_rebuild_the_history_without_the_sidechain() {
    let history = read(&[
        SESSION,
        r#"{"type":"system","subtype":"system_prompt","content":"be brief","uuid":"1","parentUuid":null,"sessionId":"s","timestamp":"t","cwd":"/w","version":"0.1.0","isSidechain":false}"#,
        r#"{"type":"user","message":{"role":"user","content":"list"},"uuid":"2","parentUuid":"1","sessionId":"s","timestamp":"t","cwd":"/w","version":"0.1.0","isSidechain":false}"#,
        r#"{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"looking"},{"type":"tool_use","id":"c1","name":"Glob","input":{"pattern":"*"}}],"usage":{"input_tokens":3,"output_tokens":1,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}},"uuid":"3","parentUuid":"2","sessionId":"s","timestamp":"t","cwd":"/w","version":"0.1.0","isSidechain":false}"#,
        r#"{"type":"user","message":{"role":"user","content":"child prompt"},"uuid":"9","parentUuid":null,"sessionId":"s","timestamp":"t","cwd":"/w","version":"0.1.0","isSidechain":true,"agentId":"agent-1"}"#,
        r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"a.txt","is_error":false}]},"uuid":"4","parentUuid":"3","sessionId":"s","timestamp":"t","cwd":"/w","version":"0.1.0","isSidechain":false}"#,
    ]);
    assert_eq!(
        history,
        vec![
            Message::system("be brief"),
            Message::user("list"),
            Message::Assistant {
                content: Some("looking".into()),
                tool_calls: vec![ToolCall::new("c1", "Glob", r#"{"pattern":"*"}"#)]
            },
            Message::tool("c1", "a.txt"),
        ]
    );
}

#[test]
fn a_transcript_written_before_claude_codes_shape_still_resumes() {
    let history = read(&[
        SESSION,
        r#"{"type":"message","message":{"role":"user","content":"hi"}}"#,
        r#"{"type":"message","agent_id":"agent-1","message":{"role":"user","content":"child"}}"#,
        r#"{"type":"message","message":{"role":"assistant","content":"hello"}}"#,
        r#"{"type":"usage","turn":1,"usage":{"input_tokens":3,"output_tokens":1,"cache_read_tokens":0}}"#,
        r#"{"type":"outcome","status":"completed","result":"hello","error":null,"turns":1}"#,
    ]);
    assert_eq!(
        history,
        vec![Message::user("hi"), Message::assistant_text("hello")]
    );
}
