//! The cancellation of a session's running turn, for front ends that take
//! prompts and an interrupt over one connection (ACP's `session/cancel`, the
//! Agent SDK's `interrupt`): the interrupt cancels the turn running now, and
//! a question pending with the client is withdrawn with it.

use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// The cancellation of the turn running now.
#[derive(Clone, Default)]
pub struct CurrentTurn(Arc<Mutex<CancellationToken>>);

impl CurrentTurn {
    /// A fresh token for the next turn.
    pub fn begin(&self) -> CancellationToken {
        let token = CancellationToken::new();
        if let Ok(mut current) = self.0.lock() {
            *current = token.clone();
        }
        token
    }

    /// The token of the turn running now (a stale turn's when none runs).
    pub fn token(&self) -> CancellationToken {
        self.0
            .lock()
            .map(|current| current.clone())
            .unwrap_or_default()
    }

    /// Cancels the turn running now (a stale turn's token when none runs).
    pub fn cancel(&self) {
        if let Ok(current) = self.0.lock() {
            current.cancel();
        }
    }
}
