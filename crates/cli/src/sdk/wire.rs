//! The lines of the Agent SDKs' stdin protocol (contract §30), as the SDKs
//! write them: user messages, control requests, control responses to our
//! own requests, and cancellations of those. Pure parsing and the shapes of
//! the lines we answer with; nothing here reads or writes a stream.
//!
//! A line that is not one of these is a [`BadLine`] naming what is wrong;
//! the reader reports it and goes on, it never ends the session.

use serde_json::{json, Map, Value};

/// One line from the SDK.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A user message: the text of a turn, and blocks left out of it.
    User(UserMessage),
    /// A request for AgentHub to answer (`initialize`, `interrupt`, …).
    Request {
        /// The SDK's id, echoed in our response.
        id: String,
        /// The `subtype` and its fields.
        request: Map<String, Value>,
    },
    /// The SDK's answer to one of our requests.
    Response {
        /// Our request's id.
        id: String,
        /// `success`'s `response`, or `error`'s text.
        outcome: Result<Value, String>,
    },
    /// The SDK withdrew a request it sent (`control_cancel_request`).
    Cancel {
        /// The withdrawn request's id.
        id: String,
    },
    /// A line AgentHub has no use for (`keep_alive`).
    Ignored,
}

/// A user message's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserMessage {
    /// The text blocks (or the string) joined by blank lines.
    pub text: String,
    /// The types of the content blocks that are not text, left out.
    pub left_out: Vec<String>,
}

/// Why a line was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadLine {
    /// Not JSON at all.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// JSON, but not an object with a known `type`.
    #[error("{0}")]
    Shape(String),
}

/// Reads one line from the SDK.
pub fn parse(line: &str) -> Result<Incoming, BadLine> {
    let value: Value =
        serde_json::from_str(line).map_err(|error| BadLine::NotJson(error.to_string()))?;
    let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "user" => user(&value).map(Incoming::User),
        "control_request" => request(&value),
        "control_response" => response(&value),
        "control_cancel_request" => Ok(Incoming::Cancel {
            id: text_field(&value, "request_id")?,
        }),
        "keep_alive" | "update_environment_variables" => Ok(Incoming::Ignored),
        "" => Err(shape("a line needs a string `type`")),
        other => Err(shape(&format!(
            "`type: {other}` is not a line of the Agent SDK's protocol (user, control_request, control_response, control_cancel_request)"
        ))),
    }
}

fn user(value: &Value) -> Result<UserMessage, BadLine> {
    let content = value
        .pointer("/message/content")
        .ok_or_else(|| shape("a user message needs `message.content`"))?;
    match content {
        Value::String(text) => Ok(UserMessage {
            text: text.clone(),
            left_out: Vec::new(),
        }),
        Value::Array(blocks) => Ok(joined(blocks)),
        _ => Err(shape(
            "`message.content` must be a string or an array of content blocks",
        )),
    }
}

fn joined(blocks: &[Value]) -> UserMessage {
    let mut texts = Vec::new();
    let mut left_out = Vec::new();
    for block in blocks {
        let kind = block.get("type").and_then(Value::as_str).unwrap_or("?");
        match (kind, block.get("text").and_then(Value::as_str)) {
            ("text", Some(text)) => texts.push(text.to_owned()),
            _ => left_out.push(kind.to_owned()),
        }
    }
    UserMessage {
        text: texts.join("\n\n"),
        left_out,
    }
}

fn request(value: &Value) -> Result<Incoming, BadLine> {
    let id = text_field(value, "request_id")?;
    let request = value
        .get("request")
        .and_then(Value::as_object)
        .filter(|request| request.get("subtype").is_some_and(Value::is_string))
        .ok_or_else(|| shape("a control_request needs `request` with a string `subtype`"))?;
    Ok(Incoming::Request {
        id,
        request: request.clone(),
    })
}

fn response(value: &Value) -> Result<Incoming, BadLine> {
    let body = value
        .get("response")
        .ok_or_else(|| shape("a control_response needs `response`"))?;
    let id = text_field(body, "request_id")?;
    let outcome = match body.get("subtype").and_then(Value::as_str) {
        Some("success") => Ok(body.get("response").cloned().unwrap_or(json!({}))),
        Some("error") => Err(body
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("the SDK answered with an error and no message")
            .to_owned()),
        _ => {
            return Err(shape(
                "a control_response's `subtype` is `success` or `error`",
            ))
        }
    };
    Ok(Incoming::Response { id, outcome })
}

fn text_field(value: &Value, key: &str) -> Result<String, BadLine> {
    value
        .get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| shape(&format!("`{key}` must be a string")))
}

fn shape(text: &str) -> BadLine {
    BadLine::Shape(text.to_owned())
}

/// Our answer to the SDK's request `id`: `success` with `response`, or
/// `error` with its text.
pub fn control_response(id: &str, outcome: Result<Value, String>) -> Value {
    match outcome {
        Ok(response) => json!({"type": "control_response", "response": {
            "subtype": "success", "request_id": id, "response": response}}),
        Err(error) => json!({"type": "control_response", "response": {
            "subtype": "error", "request_id": id, "error": error}}),
    }
}

/// Our request `id` to the SDK.
pub fn control_request(id: &str, request: Value) -> Value {
    json!({"type": "control_request", "request_id": id, "request": request})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_content_is_the_turns_text() {
        let line = r#"{"type":"user","session_id":"","message":{"role":"user","content":"fix it"},"parent_tool_use_id":null}"#;
        assert_eq!(
            parse(line),
            Ok(Incoming::User(UserMessage {
                text: "fix it".to_owned(),
                left_out: Vec::new()
            }))
        );
    }

    #[test]
    fn text_blocks_are_joined_and_other_blocks_named() {
        let line = r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"one"},{"type":"image","source":{}},{"type":"text","text":"two"}]}}"#;
        assert_eq!(
            parse(line),
            Ok(Incoming::User(UserMessage {
                text: "one\n\ntwo".to_owned(),
                left_out: vec!["image".to_owned()]
            }))
        );
    }

    #[test]
    fn a_control_request_keeps_its_id_and_fields() {
        let line = r#"{"type":"control_request","request_id":"req_1","request":{"subtype":"set_permission_mode","mode":"acceptEdits"}}"#;
        let Ok(Incoming::Request { id, request }) = parse(line) else {
            panic!("not a request: {:?}", parse(line));
        };
        assert_eq!(
            (id.as_str(), Value::Object(request)),
            (
                "req_1",
                json!({"subtype": "set_permission_mode", "mode": "acceptEdits"})
            )
        );
    }

    #[test]
    fn a_control_response_is_its_success_or_its_error() {
        let success = r#"{"type":"control_response","response":{"subtype":"success","request_id":"a1","response":{"behavior":"allow"}}}"#;
        let error = r#"{"type":"control_response","response":{"subtype":"error","request_id":"a2","error":"no callback"}}"#;
        assert_eq!(
            (parse(success), parse(error)),
            (
                Ok(Incoming::Response {
                    id: "a1".to_owned(),
                    outcome: Ok(json!({"behavior": "allow"}))
                }),
                Ok(Incoming::Response {
                    id: "a2".to_owned(),
                    outcome: Err("no callback".to_owned())
                })
            )
        );
    }

    #[test]
    fn a_line_of_no_known_type_says_what_it_is() {
        assert_eq!(
            [parse("{oops"), parse(r#"{"type":"assistant"}"#), parse("[]")]
                .map(|result| result.map_err(|error| error.to_string()).err()),
            [
                Some("not JSON: key must be a string at line 1 column 2".to_owned()),
                Some("`type: assistant` is not a line of the Agent SDK's protocol (user, control_request, control_response, control_cancel_request)".to_owned()),
                Some("a line needs a string `type`".to_owned()),
            ]
        );
    }
}
