//! How a hook fails.

use thiserror::Error;

/// A hook that could not complete (`Execution`) or returned something its event
/// does not allow (`Contract`). Either way the hook's result is not applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HookError {
    #[error("{0}")]
    Execution(String),
    #[error("{0}")]
    Contract(String),
}

impl HookError {
    pub fn execution(message: impl Into<String>) -> Self {
        HookError::Execution(message.into())
    }

    pub fn contract(message: impl Into<String>) -> Self {
        HookError::Contract(message.into())
    }
}
