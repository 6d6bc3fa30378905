//! Where durability enters the loop (contract §18): a model request and a tool
//! handler each become a step of the agent's [`StepJournal`] when it has one,
//! and stay plain calls when it has none (the local path pays nothing: no
//! serialisation, no allocation beyond the call itself).
//!
//! A tool call is two steps: `began` (empty, recorded before the handler
//! starts) and the handler's output. On a replay, a `began` whose work did
//! not run in this process was recorded by an earlier attempt; if the
//! handler's step was not recorded too, that attempt died while the handler
//! ran, so its side effects are unknown and it is never run again: the call
//! gets the `interrupted` failure. This module must never decide anything
//! else about a call: hooks, permission and the result's shape stay in the
//! pipeline.

use crate::Agent;
use agenthub_model::{AssistantReply, ModelError, ModelEvents, ModelRequest};
use agenthub_protocol::{StepError, StepJournal, StepKind};
use agenthub_tools::{ToolError, ToolOutput};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio_util::sync::CancellationToken;

/// The text of a call whose worker stopped while its handler ran.
pub const INTERRUPTED: &str = "interrupted: the worker running this call stopped";

/// One model request, journaled when the agent has a journal.
pub(crate) async fn model_step(
    agent: &Agent,
    request: ModelRequest<'_>,
    events: &dyn ModelEvents,
    cancel: &CancellationToken,
) -> Result<AssistantReply, ModelError> {
    let Some(journal) = &agent.journal else {
        return agent.model.complete(request, events, cancel).await;
    };
    let ran_here = AtomicBool::new(false);
    let work = async {
        ran_here.store(true, Ordering::SeqCst);
        agent.model.complete(request, events, cancel).await
    };
    let recorded = recorded_step(
        journal.as_ref(),
        StepKind::ModelRequest,
        "model request",
        work,
    )
    .await;
    if !ran_here.load(Ordering::SeqCst) {
        agent.model.reply_replayed();
    }
    recorded.unwrap_or_else(|error| Err(ModelError::Protocol(error.to_string())))
}

/// A tool handler's output as a journal records it.
#[derive(Serialize, Deserialize)]
enum Handled {
    Output {
        text: String,
        structured: Option<Value>,
    },
    Failed {
        message: String,
    },
}

/// One tool handler run for call `call_id`, journaled when the agent has a
/// journal (see the module doc for `interrupted`).
pub(crate) async fn tool_step<F>(
    agent: &Agent,
    call_id: &str,
    handler: F,
) -> Result<ToolOutput, ToolError>
where
    F: Future<Output = Result<ToolOutput, ToolError>> + Send,
{
    let Some(journal) = &agent.journal else {
        return handler.await;
    };
    let began_here = AtomicBool::new(false);
    let began_name = format!("tool call {call_id} began");
    let began = async {
        began_here.store(true, Ordering::SeqCst);
    };
    if let Err(error) =
        recorded_step(journal.as_ref(), StepKind::ToolBegan, &began_name, began).await
    {
        return Err(ToolError::new(error.to_string()));
    }
    let resumed = !began_here.load(Ordering::SeqCst);
    let name = format!("tool call {call_id}");
    let work = async move {
        let handled = if resumed {
            Err(ToolError::new(INTERRUPTED))
        } else {
            handler.await
        };
        match handled {
            Ok(output) => Handled::Output {
                text: output.text,
                structured: output.structured,
            },
            Err(error) => Handled::Failed {
                message: error.message,
            },
        }
    };
    match recorded_step(journal.as_ref(), StepKind::ToolHandler, &name, work).await {
        Ok(Handled::Output { text, structured }) => Ok(ToolOutput {
            text,
            structured,
            whole: None,
        }),
        Ok(Handled::Failed { message }) => Err(ToolError::new(message)),
        Err(error) => Err(ToolError::new(error.to_string())),
    }
}

/// Runs `work` as the journal's step `name`, its output as JSON both ways.
async fn recorded_step<T, F>(
    journal: &dyn StepJournal,
    kind: StepKind,
    name: &str,
    work: F,
) -> Result<T, StepError>
where
    T: Serialize + DeserializeOwned,
    F: Future<Output = T> + Send,
{
    let failure = |reason: String| StepError {
        step: name.to_owned(),
        reason,
    };
    let work = Box::pin(async move {
        serde_json::to_value(work.await).map_err(|error| failure(error.to_string()))
    });
    let value = journal.step(kind, name, work).await?;
    serde_json::from_value(value)
        .map_err(|error| failure(format!("the recorded output cannot be read: {error}")))
}
