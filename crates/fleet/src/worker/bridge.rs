//! The channel bridge between a session and its Restate handler. A Restate
//! context borrows the handler's invocation and cannot live in the
//! `'static` agent, so the session runs on its own task and sends each step
//! and each ask over a channel; the handler takes them one at a time and
//! performs them on the context (`ctx.run`, an awakeable). A step's work
//! still runs on the session's task, where its borrows live: the handler's
//! `ctx.run` closure asks the session to run it and waits for the output,
//! and a replayed `ctx.run` never asks.
//!
//! It must never run two steps at once or let a step start inside another:
//! a step requested while one is in flight (a subagent's model request
//! inside its Task call's step) runs directly, as part of the outer step.

use agenthub::crates::settings::DEFAULT_APPROVAL_TIMEOUT;
use agenthub::{
    Approval, Approver, Decision, PreparedCall, StepError, StepFuture, StepJournal, StepKind,
};
use futures::future::BoxFuture;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// What the session asks of its handler.
pub(crate) enum Request {
    /// Run or replay one step.
    Step {
        kind: StepKind,
        name: String,
        answers: mpsc::UnboundedSender<StepAnswer>,
    },
    /// Wait for `agenthub approve` (or the timeout) on one ask.
    Ask {
        call_id: String,
        tool: String,
        input: Value,
        reason: String,
        timeout: Duration,
        answer: oneshot::Sender<Approval>,
    },
}

/// What the session's setup tells the handler once it knows it.
#[derive(Default)]
pub(crate) struct Learned {
    /// `approvalTimeout` from the task's settings.
    pub(crate) approval_timeout: Mutex<Option<Duration>>,
    /// The clone a git workspace lives in, checkpointed after each round.
    pub(crate) git_workspace: Mutex<Option<PathBuf>>,
}

/// The handler's answers about one step.
pub(crate) enum StepAnswer {
    /// The step was not recorded: run its work and send its output here.
    Execute(oneshot::Sender<Result<Value, StepError>>),
    /// The step's recorded output (just recorded, or replayed).
    Recorded(Result<Value, StepError>),
}

/// The session's end of the bridge: its journal and its approver.
#[derive(Clone)]
pub(crate) struct Bridge {
    requests: mpsc::UnboundedSender<Request>,
    in_step: Arc<AtomicBool>,
    /// Shared with the handler.
    pub(crate) learned: Arc<Learned>,
}

impl Bridge {
    /// A bridge and the handler's receiving end.
    pub(crate) fn new() -> (Bridge, mpsc::UnboundedReceiver<Request>) {
        let (requests, receiver) = mpsc::unbounded_channel();
        let bridge = Bridge {
            requests,
            in_step: Arc::new(AtomicBool::new(false)),
            learned: Arc::default(),
        };
        (bridge, receiver)
    }

    async fn remote(
        &self,
        kind: StepKind,
        name: &str,
        work: StepFuture<'_>,
    ) -> Result<Value, StepError> {
        let stopped = || StepError {
            step: name.to_owned(),
            reason: "the worker's handler stopped".to_owned(),
        };
        let (answers, mut received) = mpsc::unbounded_channel();
        let request = Request::Step {
            kind,
            name: name.to_owned(),
            answers,
        };
        self.requests.send(request).map_err(|_| stopped())?;
        let mut work = Some(work);
        while let Some(answer) = received.recv().await {
            match answer {
                StepAnswer::Execute(output) => {
                    if let Some(work) = work.take() {
                        let _ = output.send(work.await);
                    }
                }
                StepAnswer::Recorded(recorded) => return recorded,
            }
        }
        Err(stopped())
    }
}

/// Clears the in-step flag when the outer step ends, however it ends.
struct InStep(Arc<AtomicBool>);

impl Drop for InStep {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

impl StepJournal for Bridge {
    fn step<'a>(&'a self, kind: StepKind, name: &'a str, work: StepFuture<'a>) -> StepFuture<'a> {
        Box::pin(async move {
            if self.in_step.swap(true, Ordering::SeqCst) {
                return work.await;
            }
            let _outer = InStep(self.in_step.clone());
            self.remote(kind, name, work).await
        })
    }
}

impl Approver for Bridge {
    fn approve<'a>(
        &'a self,
        call: &'a PreparedCall,
        decision: &'a Decision,
    ) -> BoxFuture<'a, Approval> {
        Box::pin(async move {
            if self.in_step.load(Ordering::SeqCst) {
                return Approval::Deny {
                    reason: "an ask inside a subagent cannot wait for approval on a fleet worker"
                        .to_owned(),
                };
            }
            let (answer, answered) = oneshot::channel();
            let request = Request::Ask {
                call_id: call.id().to_owned(),
                tool: call.name().to_owned(),
                input: call.input().clone(),
                reason: decision.reason.clone(),
                timeout: self
                    .learned
                    .approval_timeout
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .unwrap_or(DEFAULT_APPROVAL_TIMEOUT),
                answer,
            };
            if self.requests.send(request).is_err() {
                return Approval::Deny {
                    reason: "the worker's handler stopped".to_owned(),
                };
            }
            answered.await.unwrap_or(Approval::Deny {
                reason: "the worker's handler stopped".to_owned(),
            })
        })
    }
}
