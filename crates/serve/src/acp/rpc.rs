//! JSON-RPC 2.0 as ACP carries it: one message a line on stdio. Reading a
//! line gives a request, a notification or a response to one of ours —
//! or a [`Rejection`], the JSON-RPC error to send back (never a panic).
//! Writing goes through one [`Peer`]: responses, notifications, and our own
//! requests (`session/request_permission`) whose answers come back by id.
//!
//! It knows nothing of ACP's methods; `dispatch.rs` does.

use serde::Serialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

/// The line is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON is not a JSON-RPC 2.0 message.
pub const INVALID_REQUEST: i64 = -32600;
/// No such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// The method's parameters do not fit it.
pub const INVALID_PARAMS: i64 = -32602;
/// The method failed on our side.
pub const INTERNAL_ERROR: i64 = -32603;

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }
}

/// One message read from the client.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A call that wants an answer with the same id.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A call without an id: nothing is answered.
    Notification { method: String, params: Value },
    /// The answer to one of our requests.
    Response {
        id: Value,
        outcome: Result<Value, RpcError>,
    },
}

/// A line that is no JSON-RPC message: the error to answer, with the id it
/// carried (`null` when none could be read).
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    pub id: Value,
    pub error: RpcError,
}

/// Reads one line as a JSON-RPC 2.0 message.
pub fn parse(line: &str) -> Result<Incoming, Rejection> {
    let value: Value = serde_json::from_str(line).map_err(|error| Rejection {
        id: Value::Null,
        error: RpcError::new(PARSE_ERROR, format!("the message is not JSON: {error}")),
    })?;
    let Value::Object(mut object) = value else {
        return Err(invalid(Value::Null, "a JSON-RPC message is a JSON object"));
    };
    let id = object.remove("id");
    let shown_id = id.clone().unwrap_or(Value::Null);
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return Err(invalid(shown_id, "\"jsonrpc\" must be \"2.0\""));
    }
    if let Some(id) = &id {
        if !(id.is_string() || id.is_number() || id.is_null()) {
            return Err(invalid(Value::Null, "\"id\" must be a string or a number"));
        }
    }
    match (object.remove("method"), id) {
        (Some(Value::String(method)), id) => {
            let params = object.remove("params").unwrap_or(Value::Null);
            if !(params.is_object() || params.is_array() || params.is_null()) {
                return Err(invalid(
                    shown_id,
                    "\"params\" must be an object or an array",
                ));
            }
            Ok(match id {
                Some(id) => Incoming::Request { id, method, params },
                None => Incoming::Notification { method, params },
            })
        }
        (Some(_), _) => Err(invalid(shown_id, "\"method\" must be a string")),
        (None, Some(id)) => response(id, object),
        (None, None) => Err(invalid(
            Value::Null,
            "a message needs a \"method\" (a call) or an \"id\" (an answer)",
        )),
    }
}

fn response(id: Value, mut object: serde_json::Map<String, Value>) -> Result<Incoming, Rejection> {
    let outcome = match (object.remove("result"), object.remove("error")) {
        (Some(result), None) => Ok(result),
        (None, Some(error)) => Err(RpcError {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("(no message)")
                .to_owned(),
            data: error.get("data").cloned(),
        }),
        _ => {
            return Err(invalid(
                id,
                "an answer has exactly one of \"result\" and \"error\"",
            ))
        }
    };
    Ok(Incoming::Response { id, outcome })
}

fn invalid(id: Value, message: &str) -> Rejection {
    Rejection {
        id,
        error: RpcError::new(INVALID_REQUEST, message),
    }
}

/// Our answers to requests we sent, waiting by id.
type Waiting = Arc<Mutex<HashMap<u64, oneshot::Sender<Result<Value, RpcError>>>>>;

/// The writing side of the connection: every line goes through one channel
/// to one writer, so messages never interleave.
#[derive(Clone)]
pub struct Peer {
    out: mpsc::UnboundedSender<String>,
    waiting: Waiting,
    next_id: Arc<AtomicU64>,
}

impl Peer {
    /// A peer whose lines arrive on the returned receiver, one message each.
    pub fn new() -> (Peer, mpsc::UnboundedReceiver<String>) {
        let (out, lines) = mpsc::unbounded_channel();
        let peer = Peer {
            out,
            waiting: Arc::default(),
            next_id: Arc::new(AtomicU64::new(0)),
        };
        (peer, lines)
    }

    /// Answers the request `id`.
    pub fn respond(&self, id: Value, outcome: Result<Value, RpcError>) {
        let message = match outcome {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
        };
        self.send(&message);
    }

    /// Sends a notification.
    pub fn notify(&self, method: &str, params: impl Serialize) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its answer; an error when the
    /// connection closed first.
    pub async fn request(&self, method: &str, params: impl Serialize) -> Result<Value, RpcError> {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let (answer, answered) = oneshot::channel();
        if let Ok(mut waiting) = self.waiting.lock() {
            waiting.insert(id, answer);
        }
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        answered.await.unwrap_or_else(|_| {
            Err(RpcError::new(
                INTERNAL_ERROR,
                "the connection closed before the client answered",
            ))
        })
    }

    /// Hands the client's answer to the request waiting for it; an answer
    /// to nothing we asked is dropped.
    pub fn answered(&self, id: &Value, outcome: Result<Value, RpcError>) {
        let Some(id) = id.as_u64() else { return };
        let waiter = self
            .waiting
            .lock()
            .ok()
            .and_then(|mut waiting| waiting.remove(&id));
        if let Some(waiter) = waiter {
            let _ = waiter.send(outcome);
        }
    }

    fn send(&self, message: &Value) {
        // A closed channel means the writer stopped: the client went away.
        let _ = self.out.send(message.to_string());
    }
}
