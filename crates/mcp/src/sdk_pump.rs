//! The wire of an `sdk` server: the same rmcp client as for stdio and HTTP
//! writes newline-delimited JSON-RPC into one end of an in-memory pipe, and
//! this pump carries each message through the [`SdkMcpBridge`] to the
//! application, writing back the answer of each request. So the handshake,
//! `tools/list`, `tools/call`, cancellation and timeouts are the client's,
//! unchanged, whatever carries the bytes.
//!
//! It must never write back an answer to a notification or a response (the
//! application acknowledges those with an empty result the client must not
//! see), and never leave a request unanswered: a bridge error, or an answer
//! that is no JSON-RPC response, becomes a JSON-RPC error for that id.
//! Every message it writes is the SDK's own type (`JsonRpcResponse`,
//! `JsonRpcError`), serialised; none is written by hand.
//! Requests are carried concurrently (a slow tool call does not hold up a
//! `notifications/cancelled`); the pump and its calls end when the
//! connection is dropped.

use crate::line_cap::MAX_MESSAGE_BYTES;
use crate::{SdkBridgeError, SdkMcpBridge};
use rmcp::model::{ErrorData, JsonRpcError, JsonRpcResponse, RequestId};
use serde_json::Value;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::mpsc;
use tokio::task::{JoinHandle, JoinSet};

/// How many bytes the pipe holds in each direction before a writer waits.
const PIPE_BYTES: usize = 64 * 1024;

/// The client's ends of the pipe, for rmcp's `(reader, writer)` transport.
pub(crate) type ClientEnds = (ReadHalf<DuplexStream>, WriteHalf<DuplexStream>);

/// The running pump; dropping it stops the pump and the calls it carries.
pub(crate) struct Pump {
    tasks: [JoinHandle<()>; 2],
}

impl Drop for Pump {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// A pipe whose far end carries every message for `server` through `bridge`.
pub(crate) fn connect(server: &str, bridge: Arc<dyn SdkMcpBridge>) -> (ClientEnds, Pump) {
    let (client, pump) = tokio::io::duplex(PIPE_BYTES);
    let (from_client, to_client) = tokio::io::split(pump);
    let (answers, queued) = mpsc::unbounded_channel();
    let carrier = Carrier {
        server: server.to_owned(),
        bridge,
        answers,
    };
    let tasks = [
        tokio::spawn(carrier.read(from_client)),
        tokio::spawn(write(to_client, queued)),
    ];
    (tokio::io::split(client), Pump { tasks })
}

/// What carries one server's messages to the application.
#[derive(Clone)]
struct Carrier {
    server: String,
    bridge: Arc<dyn SdkMcpBridge>,
    answers: mpsc::UnboundedSender<Vec<u8>>,
}

impl Carrier {
    /// Reads the client's messages until it closes its end, carrying each
    /// in a task of its own; those still under way end with it.
    async fn read(self, from_client: ReadHalf<DuplexStream>) {
        let mut lines = BufReader::new(from_client).lines();
        let mut in_flight = JoinSet::new();
        loop {
            tokio::select! {
                line = lines.next_line() => match line {
                    Ok(Some(line)) => {
                        in_flight.spawn(self.clone().carry(line));
                    }
                    Ok(None) | Err(_) => return,
                },
                Some(_) = in_flight.join_next(), if !in_flight.is_empty() => {}
            }
        }
    }

    /// Sends one message through the bridge; a request's answer is queued
    /// for the client, anything else's is dropped.
    async fn carry(self, line: String) {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            return;
        };
        let request = request_id(&message);
        let answer = self.bridge.send(&self.server, message).await;
        let Some(id) = request else {
            return;
        };
        let _ = self.answers.send(answer_line(id, answer));
    }
}

/// The id of a request (a message with an `id` and a `method`); `None` for
/// a notification or a response.
fn request_id(message: &Value) -> Option<RequestId> {
    let object = message.as_object()?;
    object.get("method")?;
    serde_json::from_value(object.get("id")?.clone()).ok()
}

/// The application's answer as the SDK's response to request `id` (its
/// `result` or `error` kept, its id made the request's), one line for the
/// client; an answer that is neither, or too long for the client to read,
/// becomes an error naming what was wrong, so the call ends at once.
fn answer_line(id: RequestId, answer: Result<Value, SdkBridgeError>) -> Vec<u8> {
    let line = match answer {
        Ok(answer) => response_line(&id, answer),
        Err(error) => error_line(&id, error.to_string()),
    };
    let mut line = match line {
        line if line.len() > MAX_MESSAGE_BYTES => error_line(
            &id,
            format!(
                "the application answered with a message of {} bytes, more than the {MAX_MESSAGE_BYTES} bytes AgentHub reads",
                line.len()
            ),
        ),
        line => line,
    };
    line.push(b'\n');
    line
}

fn response_line(id: &RequestId, mut answer: Value) -> Vec<u8> {
    if let (Some(object), Ok(id)) = (answer.as_object_mut(), serde_json::to_value(id)) {
        object.insert("id".to_owned(), id);
        object
            .entry("jsonrpc")
            .or_insert_with(|| Value::String("2.0".to_owned()));
    }
    if let Ok(response) = serde_json::from_value::<JsonRpcResponse>(answer.clone()) {
        return serde_json::to_vec(&response).unwrap_or_default();
    }
    if let Ok(error) = serde_json::from_value::<JsonRpcError>(answer.clone()) {
        return serde_json::to_vec(&error).unwrap_or_default();
    }
    let mut shown = answer.to_string();
    if shown.len() > 200 {
        let cut = (0..=200).rev().find(|at| shown.is_char_boundary(*at));
        shown.truncate(cut.unwrap_or(0));
        shown.push('…');
    }
    error_line(
        id,
        format!("the application's answer is not a JSON-RPC response: {shown}"),
    )
}

fn error_line(id: &RequestId, message: String) -> Vec<u8> {
    let error = JsonRpcError::new(Some(id.clone()), ErrorData::internal_error(message, None));
    serde_json::to_vec(&error).unwrap_or_default()
}

/// Writes the queued answers to the client until every carrier is gone or
/// the client's end is closed.
async fn write(
    mut to_client: WriteHalf<DuplexStream>,
    mut queued: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(line) = queued.recv().await {
        if to_client.write_all(&line).await.is_err() || to_client.flush().await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answered(answer: Result<Value, SdkBridgeError>) -> Value {
        serde_json::from_slice(&answer_line(RequestId::Number(7), answer)).unwrap()
    }

    #[test]
    fn only_a_message_with_an_id_and_a_method_is_a_request() {
        assert_eq!(
            [
                json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
                json!({"jsonrpc": "2.0", "id": "a", "method": "ping"}),
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                json!({"jsonrpc": "2.0", "id": 4, "result": {}}),
                json!([1, 2]),
            ]
            .iter()
            .map(request_id)
            .collect::<Vec<_>>(),
            [
                Some(RequestId::Number(3)),
                Some(RequestId::String("a".into())),
                None,
                None,
                None
            ]
        );
    }

    #[test]
    fn an_answer_keeps_its_result_and_takes_the_requests_id_and_version() {
        assert_eq!(
            answered(Ok(
                json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}})
            )),
            json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": []}})
        );
    }

    #[test]
    fn an_error_answer_is_passed_on_whole() {
        assert_eq!(
            answered(Ok(json!({"jsonrpc": "2.0", "id": 7,
                "error": {"code": -32602, "message": "division by zero"}}))),
            json!({"jsonrpc": "2.0", "id": 7,
                "error": {"code": -32602, "message": "division by zero"}})
        );
    }

    #[test]
    fn an_answer_that_is_no_response_becomes_an_error_for_the_request() {
        assert_eq!(
            answered(Ok(json!("hello"))),
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32603,
                "message": "the application's answer is not a JSON-RPC response: \"hello\""}})
        );
    }

    #[test]
    fn a_bridge_error_becomes_an_error_for_the_request() {
        assert_eq!(
            answered(Err(SdkBridgeError::Closed)),
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32603,
                "message": "the channel to the application is closed"}})
        );
    }
}
