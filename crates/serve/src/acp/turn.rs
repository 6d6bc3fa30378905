//! The cancellation of a session's running turn: `session/cancel` cancels
//! it, and a question pending in the editor is withdrawn with it.

use agenthub::CancellationToken;
use std::sync::{Arc, Mutex};

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
