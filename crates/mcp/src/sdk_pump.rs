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
//! Requests are carried concurrently (a slow tool call does not hold up a
//! `notifications/cancelled`); the pump and its calls end when the
//! connection is dropped.

use crate::line_cap::MAX_MESSAGE_BYTES;
use crate::SdkMcpBridge;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::mpsc;
use tokio::task::{JoinHandle, JoinSet};

/// How many bytes the pipe holds in each direction before a writer waits.
const PIPE_BYTES: usize = 64 * 1024;

/// JSON-RPC's "internal error": what a request the bridge could not carry is answered with.
const INTERNAL_ERROR: i64 = -32603;

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
        let answer = match answer {
            Ok(answer) => response_for(id, answer),
            Err(error) => error_response(id, &error.to_string()),
        };
        let _ = self.answers.send(line_of(answer));
    }
}

/// The id of a request (a message with an `id` and a `method`); `None` for
/// a notification or a response.
fn request_id(message: &Value) -> Option<Value> {
    let object = message.as_object()?;
    object.get("method")?;
    object.get("id").cloned()
}

/// The application's answer as the response to request `id`: its `result`
/// or `error` kept, its id made the request's; anything else an error.
fn response_for(id: Value, answer: Value) -> Value {
    match answer {
        Value::Object(mut object)
            if object.contains_key("result") || object.contains_key("error") =>
        {
            object.insert("jsonrpc".to_owned(), json!("2.0"));
            object.insert("id".to_owned(), id);
            Value::Object(object)
        }
        other => {
            let mut shown = other.to_string();
            if shown.len() > 200 {
                let cut = (0..=200).rev().find(|at| shown.is_char_boundary(*at));
                shown.truncate(cut.unwrap_or(0));
                shown.push('…');
            }
            error_response(
                id,
                &format!("the application's answer is not a JSON-RPC response: {shown}"),
            )
        }
    }
}

fn error_response(id: Value, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": INTERNAL_ERROR, "message": message}})
}

/// The response as one line for the client; one too long for the client to
/// read is replaced by an error naming its size, so the call ends at once.
fn line_of(response: Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(&response).unwrap_or_default();
    if bytes.len() > MAX_MESSAGE_BYTES {
        let message = format!(
            "the application answered with a message of {} bytes, more than the {MAX_MESSAGE_BYTES} bytes AgentHub reads",
            bytes.len()
        );
        let id = response.get("id").cloned().unwrap_or(Value::Null);
        bytes = serde_json::to_vec(&error_response(id, &message)).unwrap_or_default();
    }
    bytes.push(b'\n');
    bytes
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

    #[test]
    fn only_a_message_with_an_id_and_a_method_is_a_request() {
        assert_eq!(
            [
                json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}),
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                json!({"jsonrpc": "2.0", "id": 4, "result": {}}),
                json!([1, 2]),
            ]
            .iter()
            .map(request_id)
            .collect::<Vec<_>>(),
            [Some(json!(3)), None, None, None]
        );
    }

    #[test]
    fn an_answer_keeps_its_result_and_takes_the_requests_id() {
        assert_eq!(
            response_for(json!(7), json!({"id": 1, "result": {"tools": []}})),
            json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": []}})
        );
    }

    #[test]
    fn an_answer_that_is_no_response_becomes_an_error_for_the_request() {
        assert_eq!(
            response_for(json!(7), json!("hello")),
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": INTERNAL_ERROR,
                "message": "the application's answer is not a JSON-RPC response: \"hello\""}})
        );
    }
}
