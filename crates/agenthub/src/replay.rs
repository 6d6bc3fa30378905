//! Policy replay (contract §25, the `agenthub-replay` crate) under an
//! [`Assembly`]: the assembly is the configuration calls are decided again
//! under, preparing each call as `permissions explain` does.

pub use agenthub_replay::*;

use crate::explain::{prepare, ExplainError};
use crate::Assembly;
use agenthub_hooks::HookRegistry;
use agenthub_policy::PolicyEngine;
use agenthub_tools::{PreparedCall, Workspace};
use serde_json::Value;

impl Configuration for Assembly {
    fn workspace(&self) -> &Workspace {
        Assembly::workspace(self)
    }

    fn policy(&self) -> &PolicyEngine {
        Assembly::policy(self)
    }

    fn hooks(&self) -> HookRegistry {
        Assembly::hooks(self)
    }

    fn prepare(&self, id: &str, tool: &str, input: &Value) -> Result<PreparedCall, Unprepared> {
        prepare(self.tools(), id, tool, input).map_err(|error| match error {
            ExplainError::UnknownTool { .. } => Unprepared::UnknownTool,
            other => Unprepared::Refused(other.to_string()),
        })
    }
}
