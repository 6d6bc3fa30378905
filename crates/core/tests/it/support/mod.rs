//! Test support: scripted agents, a probe tool that records what its handler
//! saw, a policy that records what it was asked, and a model that records
//! every request it received.
#![allow(dead_code)]

use agenthub_core::{Agent, AgentEvent, Observer, ObserverError};
use agenthub_hooks::HookRegistry;
use agenthub_model::RequestPurpose;
use agenthub_model::{
    AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, ScriptedModel,
};
use agenthub_policy::{Decision, PermissionPolicy, PermissionRequest, PolicyError, Source};
use agenthub_protocol::{HookRecord, Message, PermissionEffect, PermissionSuggestion, ToolCall};
use agenthub_tools::{
    Tool, ToolContext, ToolEffect, ToolError, ToolOutput, ToolRegistry, Workspace,
};
use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// A shared, ordered log of what happened, for asserting orders across parts.
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    pub fn push(&self, entry: impl Into<String>) {
        self.0.lock().unwrap().push(entry.into());
    }

    pub fn entries(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProbeInput {
    pub text: String,
    #[serde(default)]
    pub fail: bool,
}

/// Records `handler:<input json>` in the log; fails when `fail` is true.
pub struct Probe(pub Log);

impl Tool for Probe {
    type Input = ProbeInput;

    fn name(&self) -> &str {
        "Probe"
    }

    fn description(&self) -> &str {
        "Records its input."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::SideEffects
    }

    async fn call(
        &self,
        input: ProbeInput,
        _context: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        self.0.push(format!(
            "handler:{}",
            json!({"text": input.text, "fail": input.fail})
        ));
        if input.fail {
            return Err(ToolError::new("probe failed on purpose"));
        }
        Ok(format!("probed {}", input.text).into())
    }
}

/// Allows everything; records `permission:<input json>:<suggestion>`.
pub struct RecordingPolicy(pub Log);

impl PermissionPolicy for RecordingPolicy {
    fn decide(&self, request: &PermissionRequest<'_>) -> Result<Decision, PolicyError> {
        let suggestion = request
            .suggestion
            .map_or("none".to_owned(), |s: &PermissionSuggestion| {
                format!("{}@{}", s.effect, s.hook)
            });
        self.0
            .push(format!("permission:{}:{suggestion}", request.call.input()));
        Ok(Decision::new(
            PermissionEffect::Allow,
            Source::Default,
            "test policy allows",
        ))
    }
}

/// A scripted model that also records every request's history.
pub struct RecordingModel {
    pub inner: ScriptedModel,
    pub requests: Mutex<Vec<Vec<Message>>>,
}

impl RecordingModel {
    pub fn requests(&self) -> Vec<Vec<Message>> {
        self.requests.lock().unwrap().clone()
    }
}

impl ChatModel for RecordingModel {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        if request.purpose == RequestPurpose::Turn {
            self.requests
                .lock()
                .unwrap()
                .push(request.messages.to_vec());
        }
        self.inner.complete(request, events, cancel)
    }

    fn reply_replayed(&self) {
        self.inner.reply_replayed();
    }
}

/// Keeps every hook record.
#[derive(Default)]
pub struct HookRecords(pub Mutex<Vec<HookRecord>>);

impl Observer for HookRecords {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let AgentEvent::Hook(record) = event {
            self.0.lock().unwrap().push((*record).clone());
        }
        Ok(())
    }
}

/// A turn whose tool calls are `(id, name, arguments)`.
pub fn calls(items: &[(&str, &str, Value)]) -> Value {
    json!({"tool_calls": items.iter().map(|(id, name, args)| json!({"id": id, "name": name, "arguments": args})).collect::<Vec<_>>()})
}

pub fn answer(text: &str) -> Value {
    json!({"content": text})
}

pub fn model(turns: Vec<Value>) -> Arc<RecordingModel> {
    let script = json!({"turns": turns}).to_string();
    Arc::new(RecordingModel {
        inner: ScriptedModel::from_json("test script", &script).unwrap(),
        requests: Mutex::new(Vec::new()),
    })
}

pub fn tools(log: &Log) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry.register(agenthub_tools::builtin::Echo).unwrap();
    registry.register(Probe(log.clone())).unwrap();
    registry
}

/// An agent with the probe tool, the recording policy and the given hooks.
pub fn agent(
    model: Arc<RecordingModel>,
    log: &Log,
    hooks: HookRegistry,
) -> agenthub_core::AgentBuilder {
    Agent::builder(model, tools(log))
        .hooks(hooks)
        .policy(Arc::new(RecordingPolicy(log.clone())))
        .workspace(Workspace::new(std::env::temp_dir()))
        .max_turns(5)
}

pub fn tool_call(id: &str, name: &str, arguments: Value) -> ToolCall {
    ToolCall::new(id, name, arguments.to_string())
}

pub fn assistant_calls(items: &[(&str, &str, Value)]) -> Message {
    Message::Assistant {
        content: None,
        tool_calls: items
            .iter()
            .map(|(id, name, args)| tool_call(id, name, args.clone()))
            .collect(),
    }
}

/// What the console observer writes (its stderr lines), kept for asserting.
#[derive(Clone, Default)]
pub struct Console(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Console {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Console {
    /// A console observer writing here.
    pub fn observer(&self) -> Arc<agenthub_core::ConsoleObserver<Console>> {
        Arc::new(agenthub_core::ConsoleObserver::new(self.clone()))
    }

    /// The `[Warning]` lines written so far, in order.
    pub fn warnings(&self) -> Vec<String> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .filter(|line| line.starts_with("[Warning]"))
            .map(str::to_owned)
            .collect()
    }
}
