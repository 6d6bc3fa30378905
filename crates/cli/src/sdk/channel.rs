//! The control channel to the Agent SDK (contract §30): stdout, which the
//! message stream and the control lines share one whole line at a time, and
//! AgentHub's own requests to the SDK (`can_use_tool`, `hook_callback`,
//! `mcp_message`), each waiting for the response the reader hands back.
//!
//! A request never waits forever: when stdin ends, every request still
//! waiting fails ([`ControlError::Closed`]); a request whose caller gave up
//! (a cancelled turn) is withdrawn with `control_cancel_request`.

use super::wire;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::oneshot;

/// Why a request to the SDK has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    /// The SDK answered with an error.
    #[error("the Agent SDK answered with an error: {0}")]
    Refused(String),
    /// stdin ended: the SDK can no longer answer.
    #[error("the Agent SDK closed its input, so it can no longer answer")]
    Closed,
}

/// stdout for whole lines: each `write` is written entirely under one lock,
/// so lines from the stream and the control channel never interleave.
#[derive(Clone)]
pub struct LineOut(Arc<Mutex<std::io::Stdout>>);

impl LineOut {
    /// The process's stdout.
    pub fn stdout() -> LineOut {
        LineOut(Arc::new(Mutex::new(std::io::stdout())))
    }
}

impl Write for LineOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        out.write_all(buf)?;
        out.flush()?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .flush()
    }
}

type Waiting = oneshot::Sender<Result<Value, ControlError>>;

/// Our side of the control protocol.
pub struct Channel {
    out: Mutex<LineOut>,
    waiting: Mutex<Option<HashMap<String, Waiting>>>,
    next_id: AtomicU64,
}

impl Channel {
    /// A channel writing to `out`.
    pub fn new(out: LineOut) -> Arc<Channel> {
        Arc::new(Channel {
            out: Mutex::new(out),
            waiting: Mutex::new(Some(HashMap::new())),
            next_id: AtomicU64::new(1),
        })
    }

    /// Writes one line; a reader that went away loses it.
    pub fn send(&self, line: &Value) {
        let text = format!("{line}\n");
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = out.write_all(text.as_bytes());
    }

    /// Answers the SDK's request `id`.
    pub fn respond(&self, id: &str, outcome: Result<Value, String>) {
        self.send(&wire::control_response(id, outcome));
    }

    /// Sends `request` to the SDK and waits for its answer.
    pub async fn request(&self, request: Value) -> Result<Value, ControlError> {
        let id = format!("agenthub_{}", self.next_id.fetch_add(1, Ordering::Relaxed));
        let (answer, answered) = oneshot::channel();
        match self
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            Some(waiting) => waiting.insert(id.clone(), answer),
            None => return Err(ControlError::Closed),
        };
        let mut withdraw = Withdraw {
            channel: self,
            id: Some(id.clone()),
        };
        self.send(&wire::control_request(&id, request));
        let outcome = answered.await.unwrap_or(Err(ControlError::Closed));
        withdraw.id = None;
        outcome
    }

    /// Hands the SDK's response to the request waiting for it; a response
    /// nobody waits for (withdrawn, or never sent) is dropped.
    pub fn answer(&self, id: &str, outcome: Result<Value, String>) {
        let waiting = self
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
            .and_then(|waiting| waiting.remove(id));
        if let Some(waiting) = waiting {
            let _ = waiting.send(outcome.map_err(ControlError::Refused));
        }
    }

    /// stdin ended: every waiting request fails, and so does every later one.
    pub fn close(&self) {
        let waiting = self
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        for (_, waiting) in waiting.into_iter().flatten() {
            let _ = waiting.send(Err(ControlError::Closed));
        }
    }
}

/// Withdraws a request whose caller stopped waiting (its future dropped).
struct Withdraw<'a> {
    channel: &'a Channel,
    id: Option<String>,
}

impl Drop for Withdraw<'_> {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        let was_waiting = self
            .channel
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
            .and_then(|waiting| waiting.remove(&id))
            .is_some();
        if was_waiting {
            self.channel
                .send(&json!({"type": "control_cancel_request", "request_id": id}));
        }
    }
}
