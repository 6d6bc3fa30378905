//! `permissions explain` as a library call: what the policy of a real run
//! decides on one call, every participant's verdict, and which hooks would run
//! for it. Nothing is run — no hook, no tool, no model — so the explanation
//! says which hooks could still change the outcome instead of guessing theirs.
//!
//! The call is prepared by the same registry as in a run: an input the tool's
//! schema refuses never reaches permission there, so it is an error here.

use crate::stand_in::StandInTool;
use crate::Assembly;
use agenthub_hooks::{
    HookCommon, HookEntry, HookEvent, HookOrigin, PermissionRequestContext, PostToolUseContext,
    PreToolUseContext, ToolOutcome,
};
use agenthub_policy::{CallView, Explanation, PolicyError};
use agenthub_protocol::{PermissionEffect, ToolCall};
use agenthub_tools::{InputMismatch, PreparedCall, Rejection, ToolError, ToolRegistry};
use serde_json::Value;
use std::time::Duration;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

/// The policy's explanation and the hooks that would take part.
#[derive(Debug, Clone)]
pub struct CallExplanation {
    /// Every policy participant's verdict and the merged decision (no hook suggestion).
    pub policy: Explanation,
    /// The hooks a run would call for this call, in the order they would run.
    pub hooks: Vec<WouldRun>,
}

/// One hook a run would call for the explained call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WouldRun {
    /// The event it is registered for.
    pub event: HookEvent,
    /// Its name (the command, for a command hook).
    pub name: String,
    /// Where it was registered.
    pub origin: HookOrigin,
}

/// Why a call cannot be explained.
#[derive(Debug, Error)]
pub enum ExplainError {
    /// No tool of that name exists (and it is not an MCP tool name).
    #[error("no tool is named {tool:?}; available tools: {}, mcp__<server>__<tool>", available.join(", "))]
    UnknownTool {
        /// The name asked about.
        tool: String,
        /// The tools that do exist.
        available: Vec<String>,
    },
    /// The input would be refused before permission (`invalid_arguments`).
    #[error("the input does not match the schema of {tool} (a run would refuse it as invalid_arguments before permission): {problem}")]
    InvalidInput {
        /// The tool.
        tool: String,
        /// What the schema check said.
        problem: String,
    },
    /// The policy could not evaluate the call.
    #[error(transparent)]
    Policy(#[from] PolicyError),
}

pub(crate) fn explain_call(
    assembly: &Assembly,
    tool: &str,
    input: &Value,
) -> Result<CallExplanation, ExplainError> {
    let call = prepare(assembly.tools(), "toolu_explain", tool, input)?;
    let policy = assembly
        .policy()
        .explain(CallView::from(&call), None, assembly.workspace())?;
    let common = HookCommon {
        session_id: "permissions-explain".to_owned(),
        workspace: assembly.workspace().root().to_path_buf(),
        transcript_path: None,
        permission_mode: policy.mode,
        cancel: CancellationToken::new(),
        agent: None,
    };
    let hooks = would_run(assembly, common, &call, policy.decision.effect);
    Ok(CallExplanation { policy, hooks })
}

/// The call as a run would prepare it; an `mcp__` tool that is not registered
/// gets a stand-in, so rules and hooks for MCP tools can be explained.
pub(crate) fn prepare(
    tools: &ToolRegistry,
    id: &str,
    tool: &str,
    input: &Value,
) -> Result<PreparedCall, ExplainError> {
    let call = ToolCall::new(id, tool, input.to_string());
    if tools.get(tool).is_none() {
        if agenthub_protocol::mcp_name_rest(tool).is_none() {
            return Err(ExplainError::UnknownTool {
                tool: tool.to_owned(),
                available: tools.specs().into_iter().map(|spec| spec.name).collect(),
            });
        }
        return StandInTool::registry(tool)
            .and_then(|registry| registry.prepare(&call).ok())
            .ok_or_else(|| ExplainError::InvalidInput {
                tool: tool.to_owned(),
                problem: "the input is not a JSON object".to_owned(),
            });
    }
    tools
        .prepare(&call)
        .map_err(|rejection| ExplainError::InvalidInput {
            tool: tool.to_owned(),
            problem: match rejection {
                Rejection::SchemaMismatch { problems, .. } => {
                    InputMismatch::Schema(problems).to_string()
                }
                Rejection::InputType { error, .. } => InputMismatch::Deserialize(error).to_string(),
                other => other.to_string(),
            },
        })
}

/// PreToolUse hooks always; PermissionRequest hooks when the policy asks;
/// PostToolUse (and PostToolUseFailure) hooks unless the policy denies.
fn would_run(
    assembly: &Assembly,
    common: HookCommon,
    call: &PreparedCall,
    effect: PermissionEffect,
) -> Vec<WouldRun> {
    let hooks = assembly.hooks();
    let pre = PreToolUseContext {
        common: common.clone(),
        call: call.clone(),
    };
    let mut found = matching(HookEvent::PreToolUse, &hooks.pre_tool_use, &pre);
    if effect == PermissionEffect::Ask {
        let request = PermissionRequestContext {
            common: common.clone(),
            call: call.clone(),
            reason: String::new(),
        };
        found.extend(matching(
            HookEvent::PermissionRequest,
            &hooks.permission_request,
            &request,
        ));
    }
    if effect != PermissionEffect::Deny {
        for failed in [false, true] {
            let post = PostToolUseContext {
                common: common.clone(),
                call: call.clone(),
                result: outcome(failed),
            };
            found.extend(matching(
                HookEvent::PostToolUse,
                &hooks.post_tool_use,
                &post,
            ));
        }
    }
    found
}

/// A stand-in result, to see which PostToolUse matchers accept the call.
fn outcome(failed: bool) -> ToolOutcome {
    if failed {
        ToolOutcome::failed(ToolError::new("stand-in failure"), Duration::ZERO)
    } else {
        ToolOutcome::succeeded(String::new(), None, Duration::ZERO)
    }
}

fn matching<C, R>(event: HookEvent, entries: &[HookEntry<C, R>], context: &C) -> Vec<WouldRun>
where
    C: Send + 'static,
    R: Send + 'static,
{
    let mut seen = std::collections::HashSet::new();
    entries
        .iter()
        .filter(|entry| entry.matches(context))
        .filter(|entry| {
            // Identical command hooks from several files run once (see HookEntry::identity).
            entry
                .identity
                .as_ref()
                .is_none_or(|identity| seen.insert(identity.clone()))
        })
        .map(|entry| WouldRun {
            event: entry.recorded_as.unwrap_or(event),
            name: entry.name.clone(),
            origin: entry.origin.clone(),
        })
        .collect()
}
