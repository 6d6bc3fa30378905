//! What an editor is shown of a call (contract §31): a Write's and an
//! Edit's change as an ACP diff — in the `tool_call` and in the permission
//! question — kept when the call completes, beside the files it touches.

use crate::support::{Place, Wire};
use serde_json::{json, Value};

/// Opens a session in `place`'s workspace; its id.
async fn session(wire: &mut Wire, place: &Place) -> String {
    let created = wire
        .send(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "session/new",
                "params": {"cwd": place.ws(), "mcpServers": []}})
            .to_string(),
        )
        .await;
    created["result"]["sessionId"].as_str().unwrap().to_owned()
}

/// Sends a prompt; each agent message until the permission question (whose
/// `allow_once` is chosen), then each until the prompt's answer: the updates
/// and questions' params, in order.
async fn prompt_allowing_once(wire: &mut Wire, session: &str, id: u64) -> Vec<Value> {
    wire.write(
        &json!({"jsonrpc": "2.0", "id": id, "method": "session/prompt",
            "params": {"sessionId": session, "prompt": [{"type": "text", "text": "go"}]}})
        .to_string(),
    )
    .await;
    let mut seen = Vec::new();
    loop {
        let message = wire.read().await;
        if message["id"] == id {
            assert_eq!(message["result"], json!({"stopReason": "end_turn"}));
            return seen;
        }
        if message["method"] == "session/request_permission" {
            let answer = json!({"jsonrpc": "2.0", "id": message["id"],
                "result": {"outcome": {"outcome": "selected", "optionId": "allow_once"}}});
            wire.write(&answer.to_string()).await;
            seen.push(json!({"asked": message["params"]["toolCall"]}));
        } else {
            seen.push(message["params"]["update"].clone());
        }
    }
}

fn text(text: &str) -> Value {
    json!({"type": "content", "content": {"type": "text", "text": text}})
}

#[tokio::test]
async fn a_write_and_an_edit_show_their_diff_when_announced_asked_and_done() {
    let place = Place::new();
    let ws = place.ws();
    std::fs::write(ws.join("old.txt"), "one\ntwo\n").unwrap();
    let call = |id: &str, name: &str, arguments: Value| json!({"content": null, "tool_calls": [{"id": id, "name": name, "arguments": arguments}]});
    let mut wire = Wire::start(place.scripted(json!([
        call("call_1", "Write", json!({"file_path": "new.txt", "content": "fresh\n"})),
        {"content": "written"},
        call("call_2", "Edit", json!({"file_path": "old.txt", "old_string": "two", "new_string": "2"})),
        {"content": "edited"},
    ])));
    let session = session(&mut wire, &place).await;
    let written = prompt_allowing_once(&mut wire, &session, 2).await;
    let edited = prompt_allowing_once(&mut wire, &session, 3).await;
    let new_diff =
        json!({"type": "diff", "path": ws.join("new.txt"), "oldText": null, "newText": "fresh\n"});
    let new_at = json!([{"path": ws.join("new.txt")}]);
    let old_diff = json!({"type": "diff", "path": ws.join("old.txt"), "oldText": "one\ntwo\n", "newText": "one\n2\n"});
    let old_at = json!([{"path": ws.join("old.txt")}]);
    let write_input = json!({"file_path": "new.txt", "content": "fresh\n"});
    let edit_input = json!({"file_path": "old.txt", "old_string": "two", "new_string": "2"});
    let asks = "needs approval (default): Write asks by default";
    assert_eq!(
        (written, edited),
        (
            vec![
                json!({"sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "Write: new.txt",
                    "kind": "edit", "status": "pending", "content": [new_diff], "locations": new_at,
                    "rawInput": write_input}),
                json!({"asked": {"toolCallId": "call_1", "title": "Write: new.txt", "kind": "edit",
                    "status": "pending", "content": [new_diff, text(asks)], "locations": new_at,
                    "rawInput": write_input}}),
                json!({"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "in_progress"}),
                json!({"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed",
                    "content": [new_diff, text(&format!("Wrote 6 bytes to {}", ws.join("new.txt").display()))]}),
                json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "written"}}),
            ],
            vec![
                json!({"sessionUpdate": "tool_call", "toolCallId": "call_2", "title": "Edit: old.txt",
                    "kind": "edit", "status": "pending", "content": [old_diff], "locations": old_at,
                    "rawInput": edit_input}),
                json!({"asked": {"toolCallId": "call_2", "title": "Edit: old.txt", "kind": "edit",
                    "status": "pending", "content": [old_diff, text(&asks.replace("Write", "Edit"))],
                    "locations": old_at, "rawInput": edit_input}}),
                json!({"sessionUpdate": "tool_call_update", "toolCallId": "call_2", "status": "in_progress"}),
                json!({"sessionUpdate": "tool_call_update", "toolCallId": "call_2", "status": "completed",
                    "content": [old_diff, text(&format!("Replaced 1 occurrence in {}", ws.join("old.txt").display()))]}),
                json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "edited"}}),
            ],
        )
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("old.txt")).unwrap(),
        "one\n2\n"
    );
    assert!(wire.finish().await.is_ok());
}
