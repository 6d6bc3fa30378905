//! Chat messages in the OpenAI chat-completions shape (contract §6).

use serde::{Deserialize, Serialize};

/// One message of the history. The variants are the four chat roles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum Message {
    /// Instructions and context that come from AgentHub or a hook rather than
    /// from the person: the system prompt, context added by SessionStart and
    /// UserPromptSubmit hooks, hook feedback.
    System {
        /// The text the model is given.
        content: String,
    },
    /// The person's prompt.
    User {
        /// The prompt text, as typed or passed on the command line.
        content: String,
    },
    /// One reply of the model: text, tool calls, or both.
    Assistant {
        /// The reply's text; `None` when the model only called tools.
        #[serde(default)]
        content: Option<String>,
        /// The tools the model asks to run, each answered by a [`Message::Tool`]
        /// before the next request (see [`check_pairing`](crate::check_pairing)).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call, sent back to the model.
    Tool {
        /// The [`ToolCall::id`] this message answers.
        tool_call_id: String,
        /// What the tool returned, or `Error [code]: …` when it failed or was
        /// not run (see [`ErrorCode`](crate::ErrorCode)).
        content: String,
        /// Whether the call failed or was not run: told to providers that
        /// have the flag (Anthropic's `is_error`) and kept in transcripts as
        /// the `tool_result`'s `is_error`. Never read from the text; not part
        /// of the chat-completions shape, so never serialized with it.
        #[serde(skip)]
        is_error: bool,
    },
}

impl Message {
    /// A [`Message::System`] with this text.
    pub fn system(content: impl Into<String>) -> Self {
        Message::System {
            content: content.into(),
        }
    }

    /// A [`Message::User`] with this prompt.
    pub fn user(content: impl Into<String>) -> Self {
        Message::User {
            content: content.into(),
        }
    }

    /// A [`Message::Assistant`] reply that is only text, without tool calls
    /// (a final answer).
    pub fn assistant_text(content: impl Into<String>) -> Self {
        Message::Assistant {
            content: Some(content.into()),
            tool_calls: Vec::new(),
        }
    }

    /// A [`Message::Tool`] answering the call `tool_call_id` with what the
    /// tool returned.
    pub fn tool(tool_call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Message::tool_result(tool_call_id, content, false)
    }

    /// A [`Message::Tool`] saying the call `tool_call_id` failed or was not
    /// run (`content` is its `Error [code]: …` text).
    pub fn tool_error(tool_call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Message::tool_result(tool_call_id, content, true)
    }

    /// A [`Message::Tool`] answering `tool_call_id`, failed or not.
    pub fn tool_result(
        tool_call_id: impl Into<String>,
        content: impl Into<String>,
        is_error: bool,
    ) -> Self {
        Message::Tool {
            tool_call_id: tool_call_id.into(),
            content: content.into(),
            is_error,
        }
    }

    /// The tool calls of an assistant message; empty for every other role.
    pub fn tool_calls(&self) -> &[ToolCall] {
        match self {
            Message::Assistant { tool_calls, .. } => tool_calls,
            _ => &[],
        }
    }

    /// The text content, if the message has any.
    pub fn text(&self) -> Option<&str> {
        match self {
            Message::System { content }
            | Message::User { content }
            | Message::Tool { content, .. } => Some(content),
            Message::Assistant { content, .. } => content.as_deref(),
        }
    }
}

/// A tool call proposed by the model. `arguments` is the raw JSON text the model
/// produced, kept verbatim so that malformed arguments can be reported precisely.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id for this call; the [`Message::Tool`] that answers it
    /// carries the same id, and hooks and the transcript name the call by it
    /// (`tool_use_id`).
    pub id: String,
    /// The wire's `type` field: always `"function"` in the OpenAI shape; kept
    /// so that a history round-trips unchanged.
    #[serde(rename = "type", default = "function_kind")]
    pub kind: String,
    /// Which tool, and with which arguments.
    pub function: FunctionCall,
    /// Whether the provider sent the call in its tool-call fields or the
    /// model wrote it as text (`--tool-protocol auto`). Never sent to a
    /// provider; the transcript marks a text call `parsed_from_text`.
    #[serde(skip)]
    pub origin: CallOrigin,
}

/// Where a [`ToolCall`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CallOrigin {
    /// The provider's own tool-call fields (or the scripted model, or a
    /// ReAct `Action:`).
    #[default]
    Structured,
    /// A call the model wrote in its reply's text, taken as a call.
    Text,
}

fn function_kind() -> String {
    "function".to_owned()
}

impl ToolCall {
    /// A `function` call with this id, tool name and raw JSON argument text.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        ToolCall {
            id: id.into(),
            kind: function_kind(),
            function: FunctionCall {
                name: name.into(),
                arguments: arguments.into(),
            },
            origin: CallOrigin::Structured,
        }
    }

    /// The same call, marked as coming from `origin`.
    pub fn from_origin(self, origin: CallOrigin) -> Self {
        ToolCall { origin, ..self }
    }

    /// The name of the tool the model asks for (which may not exist).
    pub fn name(&self) -> &str {
        &self.function.name
    }
}

/// The tool and arguments of a [`ToolCall`], as the model wrote them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionCall {
    /// The tool's name, unchecked: an unknown name is answered with
    /// `Error [unknown_tool]`.
    pub name: String,
    /// The arguments as raw JSON text, verbatim, so that text that is not JSON
    /// or does not fit the tool's schema can be reported precisely.
    pub arguments: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn assistant_message_with_tool_calls_serializes_in_openai_shape() {
        let message = Message::Assistant {
            content: None,
            tool_calls: vec![ToolCall::new("call_1", "Echo", r#"{"text":"hi"}"#)],
        };
        assert_eq!(
            serde_json::to_value(&message).unwrap(),
            json!({"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "Echo", "arguments": "{\"text\":\"hi\"}"}}]})
        );
    }

    #[test]
    fn a_call_written_as_text_goes_to_the_provider_as_any_call() {
        let call = ToolCall::new("call_1", "Echo", "{}").from_origin(CallOrigin::Text);
        assert_eq!(
            serde_json::to_value(&call).unwrap(),
            json!({"id": "call_1", "type": "function",
                   "function": {"name": "Echo", "arguments": "{}"}})
        );
    }

    #[test]
    fn tool_message_round_trips() {
        let message = Message::tool("call_1", "ok");
        let text = serde_json::to_string(&message).unwrap();
        assert_eq!(serde_json::from_str::<Message>(&text).unwrap(), message);
    }
}
