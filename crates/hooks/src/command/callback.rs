//! `callback` hooks: the application that started AgentHub answers the
//! event itself (the Agent SDK's `hook_callback` control request). The
//! channel to it is the application's: it is injected as a
//! [`HookCallbackCaller`]; without one, the hook counts as "could not run".
//!
//! The callback gets exactly what a command hook reads on stdin and its
//! answer is read as a command hook's stdout after exit 0, so every event's
//! output contract applies unchanged. It never interprets the answer itself.

use super::runner::{RawRun, RunEnd};
use super::services::HookServices;
use futures::future::BoxFuture;
use serde_json::Value;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// Runs the application's hook callbacks.
pub trait HookCallbackCaller: Send + Sync {
    /// Runs the application's callback `id` on the event's input; Ok is the hook's output JSON.
    fn call<'a>(
        &'a self,
        id: &'a str,
        input: &'a Value,
        tool_use_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Value, HookCallbackError>>;
}

/// Why a hook callback gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HookCallbackError {
    /// The application answered with an error: its message.
    #[error("{0}")]
    Failed(String),
    /// The channel to the application is gone (it closed its end).
    #[error("the application is no longer answering hook callbacks")]
    ChannelClosed,
}

/// One run of a callback hook.
pub(crate) struct CallbackRequest<'a> {
    /// The application's id for the callback.
    pub id: &'a str,
    /// The event's stdin JSON.
    pub input: &'a Value,
    /// The id of the call the event is about, on tool events.
    pub tool_use_id: Option<&'a str>,
    /// How long the application may take to answer.
    pub timeout: Duration,
    /// The run's cancellation: the hook stops waiting for the answer.
    pub cancel: &'a CancellationToken,
}

/// Runs one callback hook.
pub(crate) async fn call(services: &HookServices, request: CallbackRequest<'_>) -> RawRun {
    let CallbackRequest {
        id,
        input,
        tool_use_id,
        timeout,
        cancel,
    } = request;
    let started = Instant::now();
    let ended = |end: RunEnd, stdout: String| RawRun {
        end,
        stdout,
        stderr: String::new(),
        elapsed: started.elapsed(),
    };
    let Some(caller) = &services.callbacks else {
        return ended(
            RunEnd::Refused(format!(
                "no application answers hook callbacks (callback {id:?})"
            )),
            String::new(),
        );
    };
    let answered = tokio::select! {
        biased;
        () = cancel.cancelled() => return ended(RunEnd::Cancelled, String::new()),
        answered = tokio::time::timeout(timeout, caller.call(id, input, tool_use_id)) => answered,
    };
    match answered {
        Err(_) => ended(RunEnd::TimedOut(timeout), String::new()),
        Ok(Err(error)) => ended(
            RunEnd::Refused(format!("hook callback {id:?} failed: {error}")),
            String::new(),
        ),
        Ok(Ok(answer @ Value::Object(_))) => ended(RunEnd::Exited(0), answer.to_string()),
        Ok(Ok(other)) => ended(
            RunEnd::Refused(format!(
                "hook callback {id:?} answered {other}, not a JSON object (an answer with no opinion is {{}})"
            )),
            String::new(),
        ),
    }
}
