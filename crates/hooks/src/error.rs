//! How a hook fails.

use thiserror::Error;

/// A hook that could not complete (`Execution`) or returned something its event
/// does not allow (`Contract`). Either way the hook's result is not applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HookError {
    /// The hook could not complete (an error, a crash, a timeout): reported
    /// as `hook_execution_error`.
    #[error("{0}")]
    Execution(String),
    /// The hook answered something its event does not allow (an illegal
    /// field, a bad rewrite, a blank force_continue): reported as
    /// `hook_contract_error`.
    #[error("{0}")]
    Contract(String),
}

impl HookError {
    /// The hook could not complete; `message` says why.
    pub fn execution(message: impl Into<String>) -> Self {
        HookError::Execution(message.into())
    }

    /// The hook broke its event's contract; `message` says how.
    pub fn contract(message: impl Into<String>) -> Self {
        HookError::Contract(message.into())
    }
}
