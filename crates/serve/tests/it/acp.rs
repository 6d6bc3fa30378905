//! ACP's methods on the wire (contract §23): malformed JSON-RPC gets
//! JSON-RPC errors and the agent goes on; `session/set_mode` switches to a
//! permission mode and refuses an unknown one.

use crate::support::{Place, Wire};
use serde_json::{json, Value};

#[tokio::test]
async fn malformed_json_rpc_gets_json_rpc_errors_and_the_agent_goes_on() {
    let place = Place::new();
    let mut wire = Wire::start(place.scripted(json!([])));
    let not_json = wire
        .send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"")
        .await;
    assert_eq!(not_json["id"], Value::Null);
    assert_eq!(not_json["error"]["code"], -32700);
    assert_eq!(
        wire.send(r#"{"id": 2, "method": "initialize"}"#).await,
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32600,
            "message": "\"jsonrpc\" must be \"2.0\""}})
    );
    assert_eq!(
        wire.send(r#"{"jsonrpc": "2.0", "id": 3, "method": "session/fly", "params": {}}"#)
            .await,
        json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601,
            "message": "AgentHub has no method \"session/fly\""}})
    );
    assert_eq!(
        wire.send(r#"{"jsonrpc": "2.0", "id": 4, "method": "session/new", "params": {"cwd": 7}}"#)
            .await,
        json!({"jsonrpc": "2.0", "id": 4, "error": {"code": -32602,
            "message": "invalid params for session/new: at cwd: invalid type: integer `7`, expected path string"}})
    );
    assert_eq!(
        wire.send(r#"{"jsonrpc": "2.0", "id": 5, "method": "session/prompt", "params": {"sessionId": "nope", "prompt": []}}"#)
            .await,
        json!({"jsonrpc": "2.0", "id": 5, "error": {"code": -32602, "message": "no session \"nope\""}})
    );
    let initialized = wire
        .send(
            r#"{"jsonrpc": "2.0", "id": 6, "method": "initialize", "params": {"protocolVersion": 1}}"#,
        )
        .await;
    assert_eq!(initialized["result"]["protocolVersion"], 1);
    assert!(wire.finish().await.is_ok());
}

#[tokio::test]
async fn set_mode_switches_to_a_permission_mode_and_refuses_an_unknown_one() {
    let place = Place::new();
    let mut wire = Wire::start(place.scripted(json!([])));
    let ws = place.ws();
    let created = wire
        .send(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "session/new",
                "params": {"cwd": ws, "mcpServers": []}})
            .to_string(),
        )
        .await;
    let session = created["result"]["sessionId"].as_str().unwrap().to_owned();
    let unknown = wire
        .send(
            &json!({"jsonrpc": "2.0", "id": 2, "method": "session/set_mode",
                "params": {"sessionId": session, "modeId": "yolo"}})
            .to_string(),
        )
        .await;
    assert_eq!(unknown["error"]["code"], -32602);
    wire.write(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "session/set_mode",
            "params": {"sessionId": session, "modeId": "acceptEdits"}})
        .to_string(),
    )
    .await;
    let lines = vec![wire.read().await, wire.read().await];
    assert_eq!(
        lines,
        vec![
            json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": session,
                "update": {"sessionUpdate": "current_mode_update", "currentModeId": "acceptEdits"}}}),
            json!({"jsonrpc": "2.0", "id": 3, "result": {}}),
        ]
    );
    assert!(wire.finish().await.is_ok());
}
