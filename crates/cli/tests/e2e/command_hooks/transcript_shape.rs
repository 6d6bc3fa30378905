//! The transcript as programs written for Claude Code read it (contract §21):
//! conversation lines in Claude Code's shape, chained by `parentUuid`, and a
//! Stop hook that takes the last assistant text out of `transcript_path` the
//! way public hooks (anthropics' ralph-wiggum) do, with grep and jq.

use super::support::*;
use serde_json::{json, Value};

/// ralph-wiggum's way: the last line with `"role":"assistant"`, its text
/// blocks joined; exit 5 when there is none (its loop would never start).
const LAST_ASSISTANT_TEXT: &str = r#"set -eu
transcript=$(jq -r '.transcript_path')
last=$(grep '"role":"assistant"' "$transcript" | tail -1) || exit 5
text=$(printf '%s' "$last" | jq -r '.message.content | map(select(.type == "text")) | map(.text) | join("\n")') || exit 5
printf '%s' "$text" > "$CLAUDE_PROJECT_DIR/last-text""#;

#[test]
fn a_ralph_wiggum_style_stop_hook_gets_the_last_assistant_text_with_jq() {
    let case = Case::new();
    let hook = case.hook("last-text.sh", LAST_ASSISTANT_TEXT);
    case.hooks(&[("Stop", None, command(&hook))]);
    case.echo_script("hello");
    let (report, code) = case.report();
    assert_eq!(
        (code, report["result"].clone(), case.read("last-text")),
        (0, json!("Result: hello"), "Result: hello".to_owned())
    );
}

/// `line` without the fields that differ on every run, after checking them.
fn stable(mut line: Value, session: &Value) -> Value {
    let fields = line.as_object_mut().unwrap();
    for field in ["uuid", "timestamp", "version"] {
        let value = fields.remove(field).unwrap_or_default();
        assert!(
            value.as_str().is_some_and(|text| !text.is_empty()),
            "{field}"
        );
    }
    assert_eq!(fields.remove("sessionId").as_ref(), Some(session));
    fields.remove("parentUuid");
    fields.remove("cwd");
    if let Some(message) = fields.get_mut("message").and_then(Value::as_object_mut) {
        message.remove("id");
    }
    line
}

#[test]
fn conversation_lines_have_claude_codes_shape_and_each_names_its_parent() {
    let case = Case::new();
    case.echo_script("hello");
    case.report();
    let records = case.records();
    let session = records[0]["session_id"].clone();
    let lines: Vec<Value> = records
        .iter()
        .filter(|line| ["user", "assistant", "system"].contains(&line["type"].as_str().unwrap()))
        .cloned()
        .collect();
    let parents: Vec<Value> = lines
        .iter()
        .map(|line| line["parentUuid"].clone())
        .collect();
    let mut expected_parents = vec![Value::Null];
    expected_parents.extend(
        lines[..lines.len() - 1]
            .iter()
            .map(|line| line["uuid"].clone()),
    );
    let usage = json!({"input_tokens": 0, "output_tokens": 0,
                       "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0});
    assert_eq!(
        (
            parents,
            lines[1..]
                .iter()
                .map(|line| stable(line.clone(), &session))
                .collect::<Vec<_>>(),
            lines.iter().all(|line| line["cwd"] == json!(case.path(""))
                || line["cwd"] == json!(case.path("").trim_end_matches('/'))),
        ),
        (
            expected_parents,
            vec![
                json!({"type": "user", "isSidechain": false,
                       "message": {"role": "user", "content": PROMPT}}),
                json!({"type": "assistant", "isSidechain": false,
                       "message": {"type": "message", "role": "assistant", "model": "scripted",
                         "content": [{"type": "text", "text": "working"},
                                     {"type": "tool_use", "id": "call_1", "name": "Echo",
                                      "input": {"text": "hello"}}],
                         "usage": usage}}),
                json!({"type": "user", "isSidechain": false,
                       "message": {"role": "user", "content": [{"type": "tool_result",
                         "tool_use_id": "call_1", "content": "hello", "is_error": false}]}}),
                json!({"type": "assistant", "isSidechain": false,
                       "message": {"type": "message", "role": "assistant", "model": "scripted",
                         "content": [{"type": "text", "text": "Result: hello"}],
                         "usage": usage}}),
            ],
            true
        )
    );
}
