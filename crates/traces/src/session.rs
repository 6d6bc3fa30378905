//! One session's trace, built from the events the loop tells its observers
//! (contract §25): a `session` span; under it a `chat <model>` span per model
//! request (with the GenAI conventions' provider, conversation id, response
//! model and finish reasons, contract §31), an `execute_tool <name>` span per tool call with its permission
//! decision and who made it, a `hook <event>` span per hook run (under the
//! tool span for a tool's hooks), and an `invoke_agent <type>` span per
//! subagent under its Task call, holding the subagent's own spans; a
//! `network <host:port>` span per decision of the sandbox's network proxy.
//!
//! Only names, ids, counts and decisions are exported — never a prompt, a
//! message, a tool's input or output, or a reason text that may quote them.
//! This observer never fails an event: tracing must not change a run.

use super::exporter::SpanExporter;
use super::network_span::network_span;
use super::span::{now_ns, OpenSpan, SpanContext, SpanKind};
use super::tool_span::{ToolSpan, STOPPED_BY_HOOK};
use agenthub_core::{AgentEvent, Observer, ObserverError, SubagentInfo};
use agenthub_protocol::{HookEvent, HookOutcomeKind, HookRecord, Message, StopReason, ToolCall};
use std::collections::HashMap;
use std::sync::Mutex;

/// What a span of a tool call needs to know about the tools: which run shell
/// commands (and so run in the sandbox), and the input field that asks to
/// leave it.
#[derive(Debug, Clone, Default)]
pub struct SandboxFacts {
    /// The sandbox mode shell commands run under (`workspace-write`, …).
    pub mode: String,
    /// Tools that run a shell command, each with its "run unsandboxed" field.
    pub shell_tools: HashMap<String, Option<&'static str>>,
}

/// The trace of one session, told every event of its agent.
pub struct SessionTracer {
    exporter: SpanExporter,
    model: Option<String>,
    /// `gen_ai.provider.name`: `openai`, `anthropic`, … ([`UNKNOWN_PROVIDER`]
    /// unless told).
    provider: String,
    sandbox: SandboxFacts,
    state: Mutex<State>,
}

/// Which agent an event belongs to: the session's own (`None`) or a subagent.
type AgentKey = Option<String>;

struct State {
    session: Option<OpenSpan>,
    session_context: SpanContext,
    /// The session id (`gen_ai.conversation.id`), once known.
    conversation: Option<String>,
    /// Per agent: the span its requests, calls and hooks go under, and its
    /// model request in flight.
    agents: HashMap<AgentKey, AgentSpans>,
    /// Tool calls in flight, by agent and call id.
    tools: HashMap<(AgentKey, String), ToolSpan>,
}

struct AgentSpans {
    parent: SpanContext,
    /// The subagent's own span (`None` for the session's agent).
    invoke: Option<OpenSpan>,
    chat: Option<OpenSpan>,
}

impl SessionTracer {
    /// A tracer whose `session` span starts now, under `parent` (a batch's
    /// span) or as a new trace.
    pub fn new(
        exporter: SpanExporter,
        model: Option<String>,
        sandbox: SandboxFacts,
        parent: Option<SpanContext>,
    ) -> Self {
        let session = OpenSpan::start("session", parent, now_ns());
        let state = State {
            session_context: session.context(),
            session: Some(session),
            conversation: None,
            agents: HashMap::new(),
            tools: HashMap::new(),
        };
        SessionTracer {
            exporter,
            model,
            provider: UNKNOWN_PROVIDER.to_owned(),
            sandbox,
            state: Mutex::new(state),
        }
    }

    /// The provider its chat spans name (`gen_ai.provider.name`: the
    /// GenAI conventions' `openai`, `anthropic`, …).
    pub fn provider(mut self, name: impl Into<String>) -> Self {
        self.provider = name.into();
        self
    }

    /// The session's id, when it is known before the session starts (a
    /// resumed session is told no `session` event); else the `session`
    /// event's is taken.
    pub fn conversation(mut self, session_id: impl Into<String>) -> Self {
        let id = session_id.into();
        if let Ok(state) = self.state.get_mut() {
            if let Some(session) = state.session.as_mut() {
                session.set("gen_ai.conversation.id", id.as_str());
            }
            state.conversation = Some(id);
        }
        self
    }

    fn take(&self, state: &mut State, agent: &AgentKey, event: &AgentEvent<'_>) {
        let now = now_ns();
        match *event {
            AgentEvent::Session(record) => {
                if let Some(session) = state.session.as_mut() {
                    session.set("gen_ai.conversation.id", record.session_id.as_str());
                    session.set("agenthub.version", record.version.as_str());
                }
                state.conversation = Some(record.session_id.clone());
            }
            AgentEvent::ModelRequest(turn) => {
                let parent = state.agent(agent).parent;
                let model = self.model_name();
                let mut chat = OpenSpan::start(format!("chat {model}"), Some(parent), now)
                    .kind(SpanKind::Client);
                chat.set("gen_ai.operation.name", "chat");
                chat.set("gen_ai.provider.name", self.provider.as_str());
                chat.set("gen_ai.request.model", model);
                if let Some(id) = &state.conversation {
                    chat.set("gen_ai.conversation.id", id.as_str());
                }
                chat.set("agenthub.turn", i64::from(turn));
                state.agent(agent).chat = Some(chat);
            }
            AgentEvent::StopReason(reason) => {
                if let Some(chat) = state.agent(agent).chat.as_mut() {
                    // The providers' replies are read for their text, calls,
                    // usage and stop reason: the model answering is the one asked.
                    chat.set("gen_ai.response.model", self.model_name());
                    let reason = finish_reason(&self.provider, reason).to_owned();
                    chat.set("gen_ai.response.finish_reasons", vec![reason]);
                }
            }
            AgentEvent::Usage(record) => {
                if let Some(chat) = state.agent(agent).chat.as_mut() {
                    let usage = &record.usage;
                    chat.set("gen_ai.usage.input_tokens", count(usage.input_tokens));
                    chat.set("gen_ai.usage.output_tokens", count(usage.output_tokens));
                    if usage.cache_read_tokens > 0 {
                        chat.set(
                            "gen_ai.usage.cache_read.input_tokens",
                            count(usage.cache_read_tokens),
                        );
                    }
                }
            }
            AgentEvent::Message(Message::Assistant { .. }) => {
                if let Some(chat) = state.agent(agent).chat.take() {
                    self.exporter.export(chat.finish(now));
                }
            }
            AgentEvent::Message(Message::Tool { tool_call_id, .. }) => {
                // Every result is told as the call's end first (the round tells
                // those it makes itself); this only closes a span left open.
                if let Some(tool) = state.tools.remove(&(agent.clone(), tool_call_id.clone())) {
                    self.exporter.export(tool.finish(now));
                }
            }
            AgentEvent::ToolCallStarted(call) => {
                let parent = state.agent(agent).parent;
                let span = self.tool_span(call, parent, now);
                state.tools.insert(
                    (agent.clone(), call.id.clone()),
                    ToolSpan {
                        span,
                        policy: None,
                        approval: None,
                        permission_hooks: Vec::new(),
                        stopping_hook: None,
                        stopped_by_hook: false,
                    },
                );
            }
            AgentEvent::Permission(record) if record.host.is_some() => {
                let parent = state.agent(agent).parent;
                self.exporter.export(network_span(record, parent, now));
            }
            AgentEvent::Permission(record) => {
                let key = (agent.clone(), record.tool_use_id.clone());
                if let Some(tool) = state.tools.get_mut(&key) {
                    if tool.policy.is_none() {
                        tool.policy = Some(record.clone());
                    } else {
                        tool.approval = Some(record.clone());
                    }
                }
            }
            AgentEvent::Hook(record) => self.hook(state, agent, record, now),
            AgentEvent::ToolCallEnded(call, _, error) => {
                if let Some(mut tool) = state.tools.remove(&(agent.clone(), call.id.clone())) {
                    if let Some(code) = error {
                        tool.stopped_by_hook = STOPPED_BY_HOOK.contains(&code);
                        tool.span.set("error.type", code.as_str());
                        tool.span.fail();
                    }
                    self.exporter.export(tool.finish(now));
                }
            }
            AgentEvent::SubagentStarted(info) => self.subagent_started(state, info, now),
            AgentEvent::Subagent(info, inner) => {
                let key = Some(info.agent_id.clone());
                if let AgentEvent::Outcome(outcome) = inner {
                    self.end_agent(state, &key, Some(outcome.status.as_str()), now);
                } else {
                    self.take(state, &key, inner);
                }
            }
            AgentEvent::Outcome(outcome) => {
                self.close_chat(state, agent, now);
                if let Some(session) = state.session.as_mut() {
                    session.set("agenthub.outcome", outcome.status.as_str());
                    session.set("agenthub.turns", i64::from(outcome.turns));
                }
            }
            _ => {}
        }
    }

    fn model_name(&self) -> &str {
        self.model.as_deref().unwrap_or("unknown")
    }

    fn tool_span(&self, call: &ToolCall, parent: SpanContext, now: u64) -> OpenSpan {
        let name = call.name();
        let mut span = OpenSpan::start(format!("execute_tool {name}"), Some(parent), now);
        span.set("gen_ai.operation.name", "execute_tool");
        span.set("gen_ai.tool.name", name);
        span.set("gen_ai.tool.call.id", call.id.as_str());
        span.set("agenthub.sandbox", self.sandbox_of(call));
        if let Some(server) = agenthub_protocol::mcp_server_of(name) {
            span.set("agenthub.mcp.server", server);
        }
        span
    }

    /// The sandbox a call's command runs in: the mode for a shell tool,
    /// `unsandboxed` when the call asks to leave it, `none` for other tools.
    fn sandbox_of(&self, call: &ToolCall) -> String {
        let Some(flag) = self.sandbox.shell_tools.get(call.name()) else {
            return "none".to_owned();
        };
        let leaves = flag.is_some_and(|field| {
            serde_json::from_str::<serde_json::Value>(&call.function.arguments)
                .ok()
                .and_then(|input| input.get(field).and_then(serde_json::Value::as_bool))
                .unwrap_or(false)
        });
        if leaves {
            "unsandboxed".to_owned()
        } else {
            self.sandbox.mode.clone()
        }
    }

    fn hook(&self, state: &mut State, agent: &AgentKey, record: &HookRecord, now: u64) {
        let tool = record
            .tool_use_id
            .as_ref()
            .and_then(|id| state.tools.get_mut(&(agent.clone(), id.clone())));
        let parent = match tool {
            Some(tool) => {
                if record.event == HookEvent::PermissionRequest {
                    tool.permission_hooks.push(record.clone());
                }
                if record.event == HookEvent::PreToolUse && record.outcome != HookOutcomeKind::Ok {
                    tool.stopping_hook = Some(record.clone());
                }
                tool.span.context()
            }
            None => state.agent(agent).parent,
        };
        let elapsed_ns = (record.elapsed_ms * 1_000_000.0) as u64;
        let start = now.saturating_sub(elapsed_ns);
        let mut span = OpenSpan::start(format!("hook {}", record.event), Some(parent), start);
        span.set("agenthub.hook.event", record.event.as_str());
        span.set("agenthub.hook.command", record.hook.as_str());
        span.set("agenthub.hook.outcome", hook_outcome(record.outcome));
        if let Some(code) = record.exit_code {
            span.set("agenthub.hook.exit_code", i64::from(code));
        }
        if let Some(decision) = &record.decision {
            span.set("agenthub.hook.decision", decision.as_str());
        }
        if let Some(source) = &record.source {
            span.set("agenthub.hook.source", source.as_str());
        }
        if matches!(
            record.outcome,
            HookOutcomeKind::ExecutionError | HookOutcomeKind::ContractError
        ) {
            span.fail();
        }
        self.exporter.export(span.finish(now));
    }

    fn subagent_started(&self, state: &mut State, info: &SubagentInfo, now: u64) {
        let parent = state
            .tools
            .get(&(None, info.tool_use_id.clone()))
            .map_or(state.session_context, |tool| tool.span.context());
        let mut invoke = OpenSpan::start(
            format!("invoke_agent {}", info.agent_type),
            Some(parent),
            now,
        );
        invoke.set("gen_ai.operation.name", "invoke_agent");
        invoke.set("gen_ai.agent.name", info.agent_type.as_str());
        invoke.set("gen_ai.agent.id", info.agent_id.as_str());
        state.agents.insert(
            Some(info.agent_id.clone()),
            AgentSpans {
                parent: invoke.context(),
                invoke: Some(invoke),
                chat: None,
            },
        );
    }

    fn close_chat(&self, state: &mut State, agent: &AgentKey, now: u64) {
        if let Some(mut chat) = state.agent(agent).chat.take() {
            // The request never answered: it failed, or the run was cancelled.
            chat.fail();
            self.exporter.export(chat.finish(now));
        }
    }

    fn end_agent(&self, state: &mut State, agent: &AgentKey, status: Option<&str>, now: u64) {
        self.close_chat(state, agent, now);
        let open: Vec<_> = state
            .tools
            .keys()
            .filter(|(owner, _)| owner == agent)
            .cloned()
            .collect();
        for key in open {
            if let Some(tool) = state.tools.remove(&key) {
                self.exporter.export(tool.finish(now));
            }
        }
        if let Some(mut invoke) = state.agents.remove(agent).and_then(|spans| spans.invoke) {
            if let Some(status) = status {
                invoke.set("agenthub.outcome", status);
            }
            self.exporter.export(invoke.finish(now));
        }
    }
}

impl State {
    fn agent(&mut self, agent: &AgentKey) -> &mut AgentSpans {
        let session = self.session_context;
        self.agents.entry(agent.clone()).or_insert(AgentSpans {
            parent: session,
            invoke: None,
            chat: None,
        })
    }
}

/// `gen_ai.provider.name` when nobody said which provider answers.
pub const UNKNOWN_PROVIDER: &str = "unknown";

/// How a reply ended, in the provider's own words: OpenAI's `finish_reason`
/// values for `openai`, else the Anthropic-style names transcripts use.
fn finish_reason(provider: &str, reason: StopReason) -> &'static str {
    match (provider, reason) {
        ("openai", StopReason::EndTurn | StopReason::StopSequence) => "stop",
        ("openai", StopReason::ToolUse) => "tool_calls",
        ("openai", StopReason::MaxTokens) => "length",
        ("openai", StopReason::Refusal) => "content_filter",
        (_, reason) => reason.as_str(),
    }
}

fn hook_outcome(outcome: HookOutcomeKind) -> &'static str {
    match outcome {
        HookOutcomeKind::Ok => "ok",
        HookOutcomeKind::Blocked => "blocked",
        HookOutcomeKind::ExecutionError => "hook_execution_error",
        HookOutcomeKind::ContractError => "hook_contract_error",
    }
}

fn count(tokens: u64) -> i64 {
    i64::try_from(tokens).unwrap_or(i64::MAX)
}

impl Observer for SessionTracer {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let Ok(mut state) = self.state.lock() {
            self.take(&mut state, &None, event);
        }
        Ok(())
    }
}

impl Drop for SessionTracer {
    /// The session ends with its agent: whatever is still open ends now.
    fn drop(&mut self) {
        let now = now_ns();
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        let agents: Vec<AgentKey> = state.agents.keys().cloned().collect();
        for agent in agents.iter().filter(|agent| agent.is_some()) {
            self.end_agent(&mut state, agent, None, now);
        }
        self.end_agent(&mut state, &None, None, now);
        if let Some(session) = state.session.take() {
            self.exporter.export(session.finish(now));
        }
    }
}
