//! A prepared call: a tool call whose tool was found and whose input passed the
//! schema. Only prepared calls reach hooks, permission and handlers.

use crate::{InputMismatch, ToolDefinition};
use serde_json::Value;
use std::sync::Arc;
use thiserror::Error;

/// A tool call ready to go through hooks, permission and its handler: the
/// tool exists and the input passed its schema ([`crate::ToolRegistry::prepare`]
/// is the way to get one).
///
/// The input is behind an `Arc` and never handed out mutably: once a call is
/// prepared (or a rewrite accepted), permission, approval and handler all see
/// that one value.
#[derive(Debug, Clone)]
pub struct PreparedCall {
    id: String,
    name: String,
    definition: Arc<ToolDefinition>,
    input: Arc<Value>,
}

/// Why a hook's rewrite of a prepared call was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RewriteRejection {
    /// The rewrite answers a different call: a result for it would pair with
    /// the wrong request in the history.
    #[error("updated_input changed the tool call id from {original} to {rewritten}")]
    CallId {
        /// The id of the call the hook was asked about.
        original: String,
        /// The id the rewrite carries.
        rewritten: String,
    },
    /// The rewrite names another tool: a hook may change a call's input,
    /// never which tool runs.
    #[error("updated_input changed the tool name from {original} to {rewritten}")]
    ToolName {
        /// The tool the model called.
        original: String,
        /// The tool the rewrite names.
        rewritten: String,
    },
    /// Same name, different registered tool (another `Arc<ToolDefinition>`).
    #[error("updated_input carries a different definition of tool {name}; the identity of a tool cannot change")]
    Definition {
        /// The tool's name.
        name: String,
    },
    /// The rewritten input fails the tool's schema.
    #[error("updated_input does not match the schema of {name}: {mismatch}")]
    Schema {
        /// The tool whose schema refused the input.
        name: String,
        /// Every failing JSON path and what was expected there.
        mismatch: InputMismatch,
    },
}

impl PreparedCall {
    pub(crate) fn new(id: String, definition: Arc<ToolDefinition>, input: Value) -> Self {
        PreparedCall {
            id,
            name: definition.name().to_owned(),
            definition,
            input: Arc::new(input),
        }
    }

    /// The model's id for the call, which its tool result must carry.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The name of the tool the call runs.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The registered tool: its schema, effect, capabilities and handler.
    pub fn definition(&self) -> &Arc<ToolDefinition> {
        &self.definition
    }

    /// The validated input, exactly what the permission check and the handler receive.
    pub fn input(&self) -> &Value {
        &self.input
    }

    /// The same call with another input: what a PreToolUse hook returns as its
    /// `updated_input`. The id, name and definition are kept.
    pub fn with_input(&self, input: Value) -> PreparedCall {
        PreparedCall {
            input: Arc::new(input),
            ..self.clone()
        }
    }

    /// A call with any parts, for callers that rebuild a call from scratch (and
    /// for tests of the identity check). Nothing is validated here.
    pub fn from_parts(
        id: impl Into<String>,
        name: impl Into<String>,
        definition: Arc<ToolDefinition>,
        input: Value,
    ) -> PreparedCall {
        PreparedCall {
            id: id.into(),
            name: name.into(),
            definition,
            input: Arc::new(input),
        }
    }

    /// Accepts `rewritten` in place of `self` only if it keeps the call id, the
    /// tool name and the very same definition (pointer identity), and its input
    /// passes the schema again.
    pub fn accept_rewrite(
        &self,
        rewritten: PreparedCall,
    ) -> Result<PreparedCall, RewriteRejection> {
        if rewritten.id != self.id {
            return Err(RewriteRejection::CallId {
                original: self.id.clone(),
                rewritten: rewritten.id,
            });
        }
        if rewritten.name != self.name {
            return Err(RewriteRejection::ToolName {
                original: self.name.clone(),
                rewritten: rewritten.name,
            });
        }
        if !Arc::ptr_eq(&rewritten.definition, &self.definition) {
            return Err(RewriteRejection::Definition {
                name: self.name.clone(),
            });
        }
        self.definition
            .validate(&rewritten.input)
            .map_err(|mismatch| RewriteRejection::Schema {
                name: self.name.clone(),
                mismatch,
            })?;
        Ok(rewritten)
    }
}
