//! Reading a transcript's conversation lines (Claude Code's shape, contract §21)
//! back as the history messages they stand for, the way resume reads them,
//! so tests can compare histories as whole chat messages.

#![allow(dead_code)] // each test binary uses its own subset of the helpers

use serde_json::{json, Value};

/// The transcript's records with each conversation line (Claude Code's
/// `user` / `assistant` / `system` shape, contract §21) read back as the history
/// message it stands for — `{"type": "message", "message": {chat message}}`,
/// with `agent_id` for a subagent's sidechain line — the way resume reads
/// it, a first prompt without its `<system-reminder>` block (contract §33:
/// tests of the block read the raw line, [`first_user_content`]); every
/// other record as it is.
pub fn history_records(records: &[Value]) -> Vec<Value> {
    records
        .iter()
        .map(|record| history_message(record).unwrap_or_else(|| record.clone()))
        .collect()
}

fn history_message(line: &Value) -> Option<Value> {
    let message = match line["type"].as_str()? {
        "user" => match &line["message"]["content"] {
            Value::String(text) => json!({"role": "user", "content": agenthub::typed_prompt(text)}),
            blocks => {
                let [result] = blocks.as_array()?.as_slice() else {
                    panic!("one tool result a line: {line}")
                };
                json!({"role": "tool", "tool_call_id": result["tool_use_id"],
                       "content": result["content"]})
            }
        },
        "assistant" => assistant_message(&line["message"]["content"]),
        "system" if line["subtype"] == "compact_summary" => {
            json!({"role": "user", "content": line["content"]})
        }
        "system" => json!({"role": "system", "content": line["content"]}),
        _ => return None,
    };
    let mut record = json!({"type": "message", "message": message});
    if let Some(agent) = line.get("agentId") {
        record["agent_id"] = agent.clone();
    }
    Some(record)
}

fn assistant_message(blocks: &Value) -> Value {
    let blocks = blocks.as_array().expect("assistant content is blocks");
    let text: Vec<&str> = blocks.iter().filter_map(|b| b["text"].as_str()).collect();
    let calls: Vec<Value> = blocks
        .iter()
        .filter(|block| block["type"] == "tool_use")
        .map(|block| {
            let raw = match &block["input"] {
                Value::String(raw) => raw.clone(),
                input => input.to_string(),
            };
            json!({"id": block["id"], "type": "function",
                   "function": {"name": block["name"], "arguments": raw}})
        })
        .collect();
    let content = (!text.is_empty()).then(|| text.concat());
    match calls.is_empty() {
        true => json!({"role": "assistant", "content": content}),
        false => json!({"role": "assistant", "content": content, "tool_calls": calls}),
    }
}

/// The content of the first `user` line of the session's own chain, as the
/// model was sent it: a new session's prompt with its `<system-reminder>`.
pub fn first_user_content(records: &[Value]) -> Option<String> {
    records
        .iter()
        .filter(|line| line["type"] == "user" && line.get("agentId").is_none())
        .find_map(|line| line["message"]["content"].as_str().map(str::to_owned))
}

/// One record as [`history_records`] reads it.
pub fn as_history(record: Value) -> Value {
    history_message(&record).unwrap_or(record)
}
