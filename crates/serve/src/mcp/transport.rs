//! `mcp serve`'s stdio framing — one JSON-RPC message per line — read and
//! written here rather than by the SDK's line transport, so that a malformed
//! line gets the answer JSON-RPC 2.0 and the MCP specification give it
//! (contract §31). The SDK ignores a line that is not JSON and answers other
//! malformed ones without their id; here a line that is not JSON is error
//! `-32700` with `id: null`, and JSON that is not a message the server can
//! take (a request without a method, …) is `-32600` with its id. A
//! well-formed message is handed to the SDK as it would have read it.
//!
//! It must never write part of a line: every message is written whole, and
//! flushed, under one lock.

use rmcp::model::{ClientJsonRpcMessage, ErrorCode};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The longest line read, as the SDK's own transport reads them (16 MiB).
pub(crate) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// What one line of the client's input is.
#[derive(Debug)]
pub(crate) enum Line {
    /// A message for the server.
    Message(Box<ClientJsonRpcMessage>),
    /// Nothing to answer: a blank line, or a notification the server does
    /// not know (notifications are never answered).
    Ignored,
    /// A malformed line, and the error response it gets.
    Rejected(Value),
}

/// Reads one line (without its newline).
pub(crate) fn read_line(bytes: &[u8]) -> Line {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Line::Ignored;
    }
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(error) => {
            return Line::Rejected(error_response(
                Value::Null,
                ErrorCode::PARSE_ERROR,
                &format!("Parse error: the line is not JSON ({error})"),
            ))
        }
    };
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned();
    match serde_json::from_value::<ClientJsonRpcMessage>(value.clone()) {
        Ok(message) => Line::Message(Box::new(message)),
        Err(_) if id.is_none() && value.get("method").is_some() => Line::Ignored,
        Err(error) => Line::Rejected(error_response(
            id.unwrap_or(Value::Null),
            ErrorCode::INVALID_REQUEST,
            &format!("Invalid request: {}", why_invalid(&value, &error)),
        )),
    }
}

/// What is wrong with a JSON value that is not a client message.
fn why_invalid(value: &Value, error: &serde_json::Error) -> String {
    let Some(object) = value.as_object() else {
        return "a JSON-RPC message is a JSON object".to_owned();
    };
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return "\"jsonrpc\" must be \"2.0\"".to_owned();
    }
    let answer = object.contains_key("result") || object.contains_key("error");
    match object.get("method") {
        None if !answer => "the message has no \"method\"".to_owned(),
        Some(method) if !method.is_string() => "\"method\" must be a string".to_owned(),
        _ => error.to_string(),
    }
}

/// A JSON-RPC error response (JSON-RPC 2.0 §5: `id` is null when the
/// request's id could not be read).
fn error_response(id: Value, code: ErrorCode, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code.0, "message": message}})
}

/// The server's side of one stdio connection.
pub(crate) struct LineTransport<R, W> {
    input: BufReader<R>,
    /// The line being read (kept across a cancelled read).
    line: Vec<u8>,
    /// Dropping the rest of a line over [`MAX_LINE_BYTES`].
    discarding: bool,
    output: Arc<Mutex<Option<W>>>,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub(crate) fn new(input: R, output: W) -> Self {
        LineTransport {
            input: BufReader::new(input),
            line: Vec::new(),
            discarding: false,
            output: Arc::new(Mutex::new(Some(output))),
        }
    }

    /// The next whole line; `Ok(None)` at the end of the input. A line over
    /// the limit is answered and skipped.
    async fn next_line(&mut self) -> std::io::Result<Option<Vec<u8>>> {
        loop {
            let room = (MAX_LINE_BYTES + 1).saturating_sub(self.line.len()) as u64;
            let read = (&mut self.input)
                .take(room)
                .read_until(b'\n', &mut self.line)
                .await?;
            let ended = self.line.last() == Some(&b'\n');
            if read == 0 && !ended {
                return Ok(None);
            }
            if self.discarding {
                self.discarding = !ended;
                self.line.clear();
                continue;
            }
            if ended {
                self.line.pop();
                return Ok(Some(std::mem::take(&mut self.line)));
            }
            if self.line.len() > MAX_LINE_BYTES {
                self.line.clear();
                self.discarding = true;
                let message =
                    format!("Invalid request: a message is at most {MAX_LINE_BYTES} bytes");
                let reply = error_response(Value::Null, ErrorCode::INVALID_REQUEST, &message);
                self.answer(reply);
            }
        }
    }

    /// Writes `reply` in a task of its own, so that a cancelled read never
    /// leaves half a line written.
    fn answer(&self, reply: Value) {
        let output = self.output.clone();
        tokio::spawn(async move { write_line(&output, reply.to_string()).await });
    }
}

/// Writes `text` and a newline, whole, and flushes.
async fn write_line<W: AsyncWrite + Unpin>(
    output: &Mutex<Option<W>>,
    text: String,
) -> std::io::Result<()> {
    let mut output = output.lock().await;
    let Some(writer) = output.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the MCP connection is closed",
        ));
    };
    let mut line = text.into_bytes();
    line.push(b'\n');
    writer.write_all(&line).await?;
    writer.flush().await
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let output = self.output.clone();
        let text = serde_json::to_string(&item).map_err(std::io::Error::other);
        async move { write_line(&output, text?).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let line = self.next_line().await.ok()??;
            match read_line(&line) {
                Line::Message(message) => return Some(*message),
                Line::Ignored => {}
                Line::Rejected(reply) => self.answer(reply),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let writer = self.output.lock().await.take();
        if let Some(mut writer) = writer {
            writer.shutdown().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rejected(line: &str) -> Value {
        match read_line(line.as_bytes()) {
            Line::Rejected(reply) => reply,
            other => panic!("{line} was read as {other:?}"),
        }
    }

    #[test]
    fn a_line_that_is_not_json_is_a_parse_error_with_a_null_id() {
        assert_eq!(
            rejected("not json"),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
                "message": "Parse error: the line is not JSON (expected ident at line 1 column 2)"}})
        );
    }

    #[test]
    fn a_request_without_a_method_is_an_invalid_request_with_its_id() {
        assert_eq!(
            rejected(r#"{"jsonrpc": "2.0", "id": 7, "params": {}}"#),
            json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32600,
                "message": "Invalid request: the message has no \"method\""}})
        );
        assert_eq!(
            rejected(r#"{"jsonrpc": "2.0", "id": "a"}"#)["id"],
            json!("a")
        );
    }

    #[test]
    fn json_that_is_not_an_object_is_an_invalid_request_with_a_null_id() {
        assert_eq!(
            rejected("[1, 2]"),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
                "message": "Invalid request: a JSON-RPC message is a JSON object"}})
        );
    }

    #[test]
    fn a_blank_line_and_an_unknown_notification_are_not_answered() {
        for line in [
            "",
            "  ",
            r#"{"jsonrpc": "2.0", "method": "notifications/what", "params": 3}"#,
        ] {
            assert!(
                matches!(read_line(line.as_bytes()), Line::Ignored),
                "{line}"
            );
        }
    }

    #[test]
    fn a_well_formed_request_is_a_message() {
        let line = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#;
        assert!(matches!(read_line(line.as_bytes()), Line::Message(_)));
    }
}
