//! `agent` hooks (contract §21): a read-only subagent — Read, Grep and Glob, in
//! the workspace — is given the hook's `prompt` (with `$ARGUMENTS` replaced
//! by the input JSON, or the JSON appended), may look around, and answers as
//! a `prompt` hook does: `{"ok": true}` or `{"ok": false, "reason": "..."}`.
//!
//! It must never write, run a command or start a subagent: its registry
//! holds only the three reading tools. The scripted model answers it with
//! the script's next `"subagents"` entry, as it does for a Task subagent.

use super::prompt::{question, verdict};
use super::runner::{RawRun, RunEnd};
use super::services::HookServices;
use agenthub_model::RequestPurpose;
use agenthub_model::{ChatModel, ModelRequest, NoModelEvents};
use agenthub_protocol::{ErrorCode, Message, ToolCall};
use agenthub_tools::builtin::{Glob, Grep, Read};
use agenthub_tools::{truncate_output, ToolContext, ToolRegistry, Workspace, OUTPUT_CAP_CHARS};
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// Model requests an agent hook may make before it must have answered.
const MAX_TURNS: usize = 10;

const INSTRUCTIONS: &str = "You check one event of a coding agent for a hook. You may read the workspace with Read, Grep and Glob. When you know, answer with one JSON object and nothing else: {\"ok\": true} to let it proceed, or {\"ok\": false, \"reason\": \"...\"} to block it, the reason saying what to do instead.";

/// What the agent works with.
pub(crate) struct AgentRequest<'a> {
    pub prompt: &'a str,
    pub payload: &'a Value,
    pub workspace: &'a Path,
    pub timeout: Duration,
    pub cancel: &'a CancellationToken,
}

/// Runs the agent on `request` to its verdict.
pub(crate) async fn ask(services: &HookServices, request: AgentRequest<'_>) -> RawRun {
    let started = Instant::now();
    let end = |end: RunEnd, stderr: String| RawRun {
        end,
        stdout: String::new(),
        stderr,
        elapsed: started.elapsed(),
    };
    let Some(model) = &services.model else {
        return end(
            RunEnd::Refused("no model is configured to answer agent hooks".to_owned()),
            String::new(),
        );
    };
    let model = model.subagent_model().unwrap_or_else(|| model.clone());
    let tools = match read_only_tools() {
        Ok(tools) => tools,
        Err(problem) => return end(RunEnd::Refused(problem), String::new()),
    };
    let question = question(request.prompt, request.payload);
    let work = converse(model.as_ref(), &tools, question, &request);
    match tokio::time::timeout(request.timeout, work).await {
        Err(_) => end(RunEnd::TimedOut(request.timeout), String::new()),
        Ok(Err(problem)) => end(RunEnd::Refused(problem), String::new()),
        Ok(Ok(answer)) => match verdict(&answer) {
            Ok(None) => end(RunEnd::Exited(0), String::new()),
            Ok(Some(reason)) => end(RunEnd::Exited(2), reason),
            Err(problem) => end(RunEnd::Refused(problem), String::new()),
        },
    }
}

/// Read, Grep and Glob: nothing that writes or runs.
fn read_only_tools() -> Result<ToolRegistry, String> {
    let mut tools = ToolRegistry::new();
    let failed = |error: agenthub_tools::SchemaError| format!("the agent's tools: {error}");
    tools.register(Read).map_err(failed)?;
    tools.register(Grep).map_err(failed)?;
    tools.register(Glob).map_err(failed)?;
    Ok(tools)
}

/// The agent's turns: its tool calls answered, until a reply without calls.
async fn converse(
    model: &dyn ChatModel,
    tools: &ToolRegistry,
    question: String,
    request: &AgentRequest<'_>,
) -> Result<String, String> {
    let specs = tools.specs();
    let mut history = vec![
        Message::system(INSTRUCTIONS.to_owned()),
        Message::user(question),
    ];
    for _ in 0..MAX_TURNS {
        let asked = ModelRequest {
            messages: &history,
            tools: &specs,
            purpose: RequestPurpose::Turn,
        };
        let reply = model
            .complete(asked, &NoModelEvents, request.cancel)
            .await
            .map_err(|error| format!("the model could not answer: {error}"))?;
        let calls = reply.tool_calls.clone();
        let text = reply.content.clone().unwrap_or_default();
        history.push(reply.into_message());
        if calls.is_empty() {
            return Ok(text);
        }
        for call in &calls {
            let (content, is_error) = run_call(tools, call, request).await;
            history.push(Message::tool_result(call.id.clone(), content, is_error));
        }
    }
    Err(format!(
        "the agent hook gave no answer within {MAX_TURNS} model requests"
    ))
}

/// One read-only call's result text, as the model of a run would see it.
/// The call's result text, and whether the call failed or was not run.
async fn run_call(
    tools: &ToolRegistry,
    call: &ToolCall,
    request: &AgentRequest<'_>,
) -> (String, bool) {
    let prepared = match tools.prepare(call) {
        Ok(prepared) => prepared,
        Err(rejection) => return (rejection.result_text(), true),
    };
    let context = ToolContext {
        workspace: Workspace::new(request.workspace.to_path_buf()),
        cancel: request.cancel.clone(),
    };
    match prepared
        .definition()
        .invoke(prepared.input().clone(), context)
        .await
    {
        Ok(output) => (truncate_output(output.text, OUTPUT_CAP_CHARS), false),
        Err(error) => (ErrorCode::ToolError.result_text(&error.message), true),
    }
}
