//! The lines of `--output-format stream-json` as values (contract §29), in
//! Claude Code's shapes: the `init` line, `assistant` and `user` messages,
//! AgentHub's records as `system` lines, and the Anthropic streaming events of
//! `--include-partial-messages`. Pure functions: [`crate::stream_json`]
//! stamps each line with its session, parent call and `uuid`, and writes it.

use agenthub::crates::protocol::claude_line::{ContentBlock, WireUsage};
use agenthub::{Agent, Assembly, ServerState, Usage};
use serde_json::{json, Value};

/// The Claude Code release whose stream and Agent SDK protocol (§29, §30)
/// AgentHub speaks, as the `init` line's `claude_code_version`: the SDKs
/// read it to know what the executable they started understands (and warn
/// when it is missing). AgentHub's own version is `agenthub_version`.
pub const CLAUDE_CODE_PROTOCOL: &str = "2.1.326";

/// Whose conversation a line belongs to: `None` the session's, else the id
/// of the Task call whose subagent speaks.
pub type Parent = Option<String>;

/// What the `init` line tells: the session as the run starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Init {
    pub session_id: String,
    /// The workspace.
    pub cwd: String,
    pub model: String,
    /// The names of the tools the model is offered.
    pub tools: Vec<String>,
    /// Each MCP server with Claude Code's status (`connected`, `failed`).
    pub mcp_servers: Vec<(String, &'static str)>,
    /// The permission mode, as Claude Code spells it (`acceptEdits`).
    pub permission_mode: String,
    /// The custom commands a prompt may name (without the `/`).
    pub slash_commands: Vec<String>,
}

impl Init {
    /// What the assembly says before the session opens (its id and tools
    /// are the opened agent's).
    pub fn before_open(assembly: &Assembly, model: &str) -> Init {
        Init {
            session_id: String::new(),
            cwd: assembly.workspace().root().display().to_string(),
            model: model.to_owned(),
            tools: Vec::new(),
            mcp_servers: assembly
                .mcp_servers()
                .statuses()
                .iter()
                .map(|server| {
                    let status = match server.state {
                        ServerState::Running => "connected",
                        ServerState::Failed(_) => "failed",
                    };
                    (server.name.clone(), status)
                })
                .collect(),
            permission_mode: assembly.policy().mode().as_str().to_owned(),
            slash_commands: assembly
                .commands()
                .iter()
                .map(|command| command.name.clone())
                .collect(),
        }
    }

    /// With the opened session's id and the tools its model is offered.
    pub fn opened(self, agent: &Agent) -> Init {
        Init {
            session_id: agent.session_id().to_owned(),
            tools: agent
                .tools()
                .specs()
                .into_iter()
                .map(|spec| spec.name)
                .collect(),
            ..self
        }
    }

    /// `{"type":"system","subtype":"init",…}`.
    pub fn line(&self) -> Value {
        let servers: Vec<Value> = self
            .mcp_servers
            .iter()
            .map(|(name, status)| json!({"name": name, "status": status}))
            .collect();
        json!({
            "type": "system",
            "subtype": "init",
            "session_id": self.session_id,
            "cwd": self.cwd,
            "model": self.model,
            "tools": self.tools,
            "mcp_servers": servers,
            "permissionMode": self.permission_mode,
            "slash_commands": self.slash_commands,
            "output_style": "default",
            "agenthub_version": env!("CARGO_PKG_VERSION"),
            "claude_code_version": CLAUDE_CODE_PROTOCOL,
            "uuid": uuid::Uuid::new_v4().to_string(),
        })
    }
}

/// An `assistant` line: one reply, as an Anthropic Messages message.
pub fn assistant_line(
    id: &str,
    model: &str,
    content: &[ContentBlock],
    stop_reason: &str,
    usage: &Usage,
) -> Value {
    json!({
        "type": "assistant",
        "message": {
            "id": id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": null,
            "usage": WireUsage::from(*usage),
        },
    })
}

/// A `user` line: tool results, or a subagent's prompt.
pub fn user_line(content: &[ContentBlock]) -> Value {
    json!({
        "type": "user",
        "message": {"role": "user", "content": content},
    })
}

/// One of AgentHub's own records as `{"type":"system","subtype":…}`, its
/// fields beside.
pub fn record_line<R: serde::Serialize>(subtype: &str, record: &R) -> Value {
    let mut line = json!({"type": "system", "subtype": subtype});
    if let (Value::Object(fields), Ok(Value::Object(record))) =
        (&mut line, serde_json::to_value(record))
    {
        for (key, value) in record {
            fields.entry(key).or_insert(value);
        }
    }
    line
}

/// The streaming events that open a reply whose text starts streaming:
/// `message_start`, then `content_block_start` of a text block.
pub fn partial_start(id: &str, model: &str) -> [Value; 2] {
    [
        json!({"type": "message_start", "message": {
            "id": id, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": WireUsage::default(),
        }}),
        json!({"type": "content_block_start", "index": 0,
               "content_block": {"type": "text", "text": ""}}),
    ]
}

/// A `content_block_delta` of streamed text.
pub fn text_delta(text: &str) -> Value {
    json!({"type": "content_block_delta", "index": 0,
           "delta": {"type": "text_delta", "text": text}})
}

/// The streaming events that close a streamed reply: `content_block_stop`,
/// `message_delta` (its stop reason and output tokens), `message_stop`.
pub fn partial_end(stop_reason: &str, usage: &Usage) -> [Value; 3] {
    [
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta",
               "delta": {"stop_reason": stop_reason, "stop_sequence": null},
               "usage": {"output_tokens": usage.output_tokens}}),
        json!({"type": "message_stop"}),
    ]
}
