//! The `Session` virtual object, keyed by task id (contract §18): `run` (the
//! exclusive handler: one session at a time per task) and the shared
//! handlers `status`, `approve` and `cancel`, which read the state `run`
//! writes while it runs.
//!
//! `run` spawns the session on its own task and serves its bridge requests
//! one at a time on the Restate context (see `bridge`). It must never let
//! the session outlive the handler: a suspended or aborted invocation drops
//! the handler, and with it the session task.

use super::bridge::{Bridge, Learned, Request, StepAnswer};
use super::status::{PendingAsk, SessionStatus, STATUS};
use super::{checkpoint, session};
use crate::run_task::TaskRunOptions;
use crate::task::TaskSpec;
use agenthub::{Approval, CancellationToken, StepKind};
use restate_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::PoisonError;
use std::time::Duration;
use tokio::sync::mpsc;

/// The state key of the running invocation's id, for `cancel`.
const INVOCATION: &str = "invocation";

/// What `approve` is given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApproveRequest {
    /// The waiting call's id.
    pub call_id: String,
    /// `allow` or `deny`.
    pub decision: Decision,
}

/// An answer to an ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The call runs.
    Allow,
    /// The call is refused.
    Deny,
}

/// The Restate service: one virtual object per task.
pub struct SessionObject {
    pub(crate) options: TaskRunOptions,
    /// `AGENTHUB_FLEET_SECRET` as the worker was started with it: every
    /// request must then carry its signature ([`crate::verify`]).
    pub(crate) secret: Option<std::sync::Arc<str>>,
}

impl SessionObject {
    /// `Ok` when no secret is set or the request carries its signature of
    /// (`handler`, the object's key, `body`); else a 401 naming the variable.
    fn authorised(
        &self,
        headers: &restate_sdk::context::HeaderMap,
        handler: &str,
        key: &str,
        body: &[u8],
    ) -> Result<(), TerminalError> {
        let Some(secret) = &self.secret else {
            return Ok(());
        };
        let given = headers.get(crate::SIGNATURE_HEADER).map(String::as_str);
        if crate::verify(secret, handler, key, body, given) {
            return Ok(());
        }
        Err(TerminalError::new_with_code(
            401,
            format!(
                "{handler} of task {key:?} is refused: it does not carry the {} signature of {} (the worker requires it)",
                crate::SIGNATURE_HEADER,
                crate::FLEET_SECRET_VARIABLE
            ),
        ))
    }
}

/// What is signed of a request's JSON body.
fn signed_body(value: &impl serde::Serialize) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

#[restate_sdk::object(
    name = "Session",
    invocation_retry_policy(initial_interval = "100ms", max_interval = "1s", factor = 2.0)
)]
impl SessionObject {
    /// Runs the task's session to its result line (replayed after a crash).
    #[handler]
    async fn run(
        &self,
        ctx: ObjectContext<'_>,
        task: Json<TaskSpec>,
    ) -> HandlerResult<Json<Value>> {
        if let Some(Json(SessionStatus::Done { result })) =
            ctx.get::<Json<SessionStatus>>(STATUS).await?
        {
            return Ok(Json(result));
        }
        let task = task.into_inner();
        self.authorised(ctx.headers(), "run", ctx.key(), &signed_body(&task))?;
        if task.id != ctx.key() {
            let message = format!(
                "the task's id {:?} is not the object's key {:?}",
                task.id,
                ctx.key()
            );
            return Err(TerminalError::new_with_code(400, message).into());
        }
        let session_id = ctx
            .run(|| async { Ok(Json(uuid::Uuid::new_v4().to_string())) })
            .name("session id")
            .await?
            .into_inner();
        ctx.set(INVOCATION, ctx.invocation_id().to_owned());
        ctx.set(STATUS, Json(SessionStatus::Running));
        let (bridge, requests) = Bridge::new();
        let learned = bridge.learned.clone();
        let cancel = CancellationToken::new();
        // A caller's `traceparent` makes this session part of its trace (contract §25).
        let parent = ctx
            .headers()
            .get("traceparent")
            .and_then(|value| agenthub::tracing_export::parse_traceparent(value));
        let running = tokio::spawn(agenthub::tracing_export::under_parent(
            parent,
            session::run_durably(
                task.clone(),
                self.options.clone(),
                bridge,
                session_id,
                cancel.clone(),
            ),
        ));
        let _abort = AbortOnDrop(running.abort_handle());
        serve(&ctx, requests, &learned, &task.id, &cancel).await?;
        let line = running.await.map_err(|error| {
            TerminalError::new(format!("the session's task ended abnormally: {error}"))
        })?;
        ctx.set(
            STATUS,
            Json(SessionStatus::Done {
                result: line.clone(),
            }),
        );
        ctx.clear(INVOCATION);
        Ok(Json(line))
    }

    /// The session's state: running, waiting for approval, or done.
    #[handler]
    async fn status(&self, ctx: SharedObjectContext<'_>) -> HandlerResult<Json<SessionStatus>> {
        self.authorised(ctx.headers(), "status", ctx.key(), &[])?;
        match ctx.get::<Json<SessionStatus>>(STATUS).await? {
            Some(status) => Ok(status),
            None => Err(TerminalError::new_with_code(
                404,
                format!("no session for task {:?}", ctx.key()),
            )
            .into()),
        }
    }

    /// Answers one waiting ask.
    #[handler]
    async fn approve(
        &self,
        ctx: SharedObjectContext<'_>,
        request: Json<ApproveRequest>,
    ) -> HandlerResult<()> {
        let request = request.into_inner();
        self.authorised(ctx.headers(), "approve", ctx.key(), &signed_body(&request))?;
        let pending = match ctx.get::<Json<SessionStatus>>(STATUS).await? {
            Some(Json(SessionStatus::WaitingForApproval { pending })) => pending,
            _ => Vec::new(),
        };
        let Some(ask) = pending.iter().find(|ask| ask.call_id == request.call_id) else {
            let message = format!(
                "task {:?} has no ask waiting for call {:?}",
                ctx.key(),
                request.call_id
            );
            return Err(TerminalError::new_with_code(404, message).into());
        };
        ctx.resolve_awakeable(&ask.awakeable, Json(request.decision));
        Ok(())
    }

    /// Cancels the running session: it ends as `cancelled` with its result line.
    #[handler]
    async fn cancel(&self, ctx: SharedObjectContext<'_>) -> HandlerResult<()> {
        self.authorised(ctx.headers(), "cancel", ctx.key(), &[])?;
        match ctx.get::<String>(INVOCATION).await? {
            Some(invocation) => {
                ctx.invocation_handle(invocation).cancel();
                Ok(())
            }
            None => Err(TerminalError::new_with_code(
                404,
                format!("no session of task {:?} is running", ctx.key()),
            )
            .into()),
        }
    }
}

/// Aborts the session's task when the handler is dropped (suspended, aborted).
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Serves the session's requests, one at a time, until it ends.
async fn serve(
    ctx: &ObjectContext<'_>,
    mut requests: mpsc::UnboundedReceiver<Request>,
    learned: &Learned,
    task_id: &str,
    cancel: &CancellationToken,
) -> Result<(), TerminalError> {
    let mut pending: Vec<PendingAsk> = Vec::new();
    let mut model_requests = 0_u32;
    while let Some(request) = requests.recv().await {
        match request {
            Request::Step {
                kind,
                name,
                answers,
            } => {
                // A tool round ended: checkpoint before the next request. A
                // failure here (a cancel above all) ends the step as its own would.
                let checkpointed = if kind == StepKind::ModelRequest && model_requests > 0 {
                    checkpoint_step(ctx, learned, task_id).await
                } else {
                    Ok(())
                };
                if kind == StepKind::ModelRequest {
                    model_requests += 1;
                }
                let recorded = match checkpointed {
                    Ok(()) => step(ctx, &name, answers.clone()).await,
                    Err(error) => Err(error),
                };
                let recorded = recorded.map_err(|error| {
                    if error.code() == 409 {
                        cancel.cancel();
                    }
                    agenthub::StepError {
                        step: name.clone(),
                        reason: error.to_string(),
                    }
                });
                let _ = answers.send(StepAnswer::Recorded(recorded));
            }
            Request::Ask {
                call_id,
                tool,
                input,
                reason,
                timeout,
                answer,
            } => {
                let (awakeable, decided) = ctx.awakeable::<Json<Decision>>();
                pending.push(PendingAsk {
                    call_id: call_id.clone(),
                    tool,
                    input,
                    reason,
                    awakeable,
                });
                ctx.set(
                    STATUS,
                    Json(SessionStatus::WaitingForApproval {
                        pending: pending.clone(),
                    }),
                );
                let approval = restate_sdk::select! {
                    decided = decided => match decided {
                        Ok(Json(Decision::Allow)) => Approval::AllowOnce { by: "agenthub approve".to_owned() },
                        Ok(Json(Decision::Deny)) => Approval::Deny { reason: "denied by agenthub approve".to_owned() },
                        Err(error) => Approval::Deny { reason: format!("the ask failed: {error}") },
                    },
                    _ = ctx.sleep(timeout) => Approval::Deny { reason: timed_out(timeout) },
                    on_cancel => {
                        cancel.cancel();
                        Approval::Deny { reason: "the session was cancelled".to_owned() }
                    }
                };
                pending.retain(|ask| ask.call_id != call_id);
                let status = if pending.is_empty() {
                    SessionStatus::Running
                } else {
                    SessionStatus::WaitingForApproval {
                        pending: pending.clone(),
                    }
                };
                ctx.set(STATUS, Json(status));
                let _ = answer.send(approval);
            }
        }
    }
    Ok(())
}

/// Runs or replays one step of the session on the context.
async fn step(
    ctx: &ObjectContext<'_>,
    name: &str,
    answers: mpsc::UnboundedSender<StepAnswer>,
) -> Result<Value, TerminalError> {
    let recorded = ctx
        .run(|| async move {
            let (output, produced) = tokio::sync::oneshot::channel();
            answers
                .send(StepAnswer::Execute(output))
                .map_err(|_| TerminalError::new("the session stopped before the step ran"))?;
            match produced.await {
                Ok(Ok(value)) => Ok(Json(value)),
                Ok(Err(error)) => Err(TerminalError::new(error.to_string()).into()),
                Err(_) => Err(TerminalError::new("the session stopped during the step").into()),
            }
        })
        .name(name.to_owned())
        .await?;
    Ok(recorded.into_inner())
}

/// Checkpoints a git workspace (a journaled step: done once per round). A
/// failed checkpoint is recorded and the session goes on.
async fn checkpoint_step(
    ctx: &ObjectContext<'_>,
    learned: &Learned,
    task_id: &str,
) -> Result<(), TerminalError> {
    let workspace = learned
        .git_workspace
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let Some(dir) = workspace else {
        return Ok(());
    };
    ctx.run(|| async move {
        let outcome = checkpoint::commit_and_push(&dir, task_id).await;
        Ok(Json(
            outcome.map_err(|error| format!("checkpoint failed: {error}")),
        ))
    })
    .name("checkpoint")
    .await
    .map(|_: Json<Result<String, String>>| ())
}

/// The deny reason of an ask nobody answered in time.
fn timed_out(timeout: Duration) -> String {
    format!(
        "no answer within approvalTimeout ({}s): denied",
        timeout.as_secs()
    )
}
