//! The JSON-RPC line layer of ACP: what a line is read as, the errors a
//! malformed one gets, and how answers to our own requests find their asker.

use agenthub_serve::acp::rpc::*;
use serde_json::{json, Value};

fn rejected(line: &str) -> Rejection {
    match parse(line) {
        Err(rejection) => rejection,
        Ok(message) => panic!("{line} was read as {message:?}"),
    }
}

#[test]
fn a_line_that_is_not_json_is_a_parse_error_with_a_null_id() {
    let rejection = rejected("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    assert_eq!(rejection.id, Value::Null);
    assert_eq!(rejection.error.code, PARSE_ERROR);
    assert!(rejection
        .error
        .message
        .starts_with("the message is not JSON: "));
}

#[test]
fn json_that_is_not_an_object_is_an_invalid_request() {
    assert_eq!(
        rejected("[1, 2]"),
        Rejection {
            id: Value::Null,
            error: RpcError::new(INVALID_REQUEST, "a JSON-RPC message is a JSON object"),
        }
    );
}

#[test]
fn a_message_without_jsonrpc_2_is_invalid_and_keeps_its_id() {
    assert_eq!(
        rejected(r#"{"id": 7, "method": "initialize"}"#),
        Rejection {
            id: json!(7),
            error: RpcError::new(INVALID_REQUEST, "\"jsonrpc\" must be \"2.0\""),
        }
    );
}

#[test]
fn a_method_that_is_not_a_string_is_invalid() {
    assert_eq!(
        rejected(r#"{"jsonrpc": "2.0", "id": "a", "method": 3}"#),
        Rejection {
            id: json!("a"),
            error: RpcError::new(INVALID_REQUEST, "\"method\" must be a string"),
        }
    );
}

#[test]
fn params_that_are_not_structured_are_invalid() {
    assert_eq!(
        rejected(r#"{"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": "x"}"#),
        Rejection {
            id: json!(2),
            error: RpcError::new(INVALID_REQUEST, "\"params\" must be an object or an array"),
        }
    );
}

#[test]
fn an_id_that_is_an_object_is_invalid() {
    assert_eq!(
        rejected(r#"{"jsonrpc": "2.0", "id": {}, "method": "initialize"}"#).error,
        RpcError::new(INVALID_REQUEST, "\"id\" must be a string or a number")
    );
}

#[test]
fn a_message_with_neither_method_nor_id_is_invalid() {
    assert_eq!(
        rejected(r#"{"jsonrpc": "2.0", "result": {}}"#).error.code,
        INVALID_REQUEST
    );
}

#[test]
fn a_call_with_an_id_is_a_request_and_without_one_a_notification() {
    assert_eq!(
        parse(
            r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}}"#
        ),
        Ok(Incoming::Request {
            id: json!(1),
            method: "initialize".to_owned(),
            params: json!({"protocolVersion": 1}),
        })
    );
    assert_eq!(
        parse(r#"{"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s"}}"#),
        Ok(Incoming::Notification {
            method: "session/cancel".to_owned(),
            params: json!({"sessionId": "s"}),
        })
    );
}

#[test]
fn an_answer_carries_its_result_or_its_error() {
    assert_eq!(
        parse(r#"{"jsonrpc": "2.0", "id": 0, "result": {"outcome": {"outcome": "cancelled"}}}"#),
        Ok(Incoming::Response {
            id: json!(0),
            outcome: Ok(json!({"outcome": {"outcome": "cancelled"}})),
        })
    );
    assert_eq!(
        parse(r#"{"jsonrpc": "2.0", "id": 0, "error": {"code": -32000, "message": "no"}}"#),
        Ok(Incoming::Response {
            id: json!(0),
            outcome: Err(RpcError::new(-32000, "no")),
        })
    );
}

#[test]
fn an_answer_with_both_result_and_error_is_invalid() {
    assert_eq!(
        rejected(
            r#"{"jsonrpc": "2.0", "id": 4, "result": 1, "error": {"code": 1, "message": "x"}}"#
        ),
        Rejection {
            id: json!(4),
            error: RpcError::new(
                INVALID_REQUEST,
                "an answer has exactly one of \"result\" and \"error\""
            ),
        }
    );
}

#[tokio::test]
async fn a_request_of_ours_is_answered_by_the_response_with_its_id() {
    let (peer, mut lines) = Peer::new();
    let asking = peer.clone();
    let asked = tokio::spawn(async move {
        asking
            .request("session/request_permission", json!({}))
            .await
    });
    let sent: Value =
        serde_json::from_str(&lines.recv().await.unwrap_or_default()).unwrap_or_default();
    assert_eq!(
        sent,
        json!({"jsonrpc": "2.0", "id": 0, "method": "session/request_permission", "params": {}})
    );
    peer.answered(&json!(0), Ok(json!({"outcome": {"outcome": "cancelled"}})));
    assert_eq!(
        asked.await.ok(),
        Some(Ok(json!({"outcome": {"outcome": "cancelled"}})))
    );
}

#[test]
fn an_error_answer_is_written_with_the_id_and_the_error_object() {
    let (peer, mut lines) = Peer::new();
    peer.respond(
        json!(3),
        Err(RpcError::new(METHOD_NOT_FOUND, "no such method")),
    );
    let written: Value =
        serde_json::from_str(&lines.try_recv().unwrap_or_default()).unwrap_or_default();
    assert_eq!(
        written,
        json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "no such method"}})
    );
}
