//! What the ACP methods answer, as plain functions of their input: the
//! capabilities `initialize` announces, the permission modes as session
//! modes, request parameters read (or refused with the field named), a
//! prompt's content as text, and a run's end as a stop reason.

use super::rpc::{RpcError, INTERNAL_ERROR, INVALID_PARAMS};
use super::schema::{ContentBlock, StopReason, PROTOCOL_VERSION};
use agenthub::{PermissionMode, RunReport, RunStatus};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

pub fn initialize() -> Value {
    json!({
        "protocolVersion": PROTOCOL_VERSION,
        "agentCapabilities": {
            "loadSession": true,
            "promptCapabilities": {"image": false, "audio": false, "embeddedContext": true},
            "mcpCapabilities": {"http": true, "sse": false},
            "sessionCapabilities": {"list": {}},
        },
        "agentInfo": {"name": "agenthub", "title": "AgentHub", "version": env!("CARGO_PKG_VERSION")},
        "authMethods": [],
    })
}

/// The permission modes as ACP session modes, `current` selected: each by
/// its id, the name Claude Code's editor adapter shows it by, and what it
/// does here.
pub fn modes(current: &str) -> Value {
    let available: Vec<Value> = PermissionMode::ALL
        .iter()
        .map(|mode| {
            json!({"id": mode.as_str(), "name": mode_name(*mode),
                "description": mode_description(*mode)})
        })
        .collect();
    json!({"currentModeId": current, "availableModes": available})
}

fn mode_name(mode: PermissionMode) -> &'static str {
    match mode {
        PermissionMode::Default => "Default",
        PermissionMode::AcceptEdits => "Accept Edits",
        PermissionMode::Plan => "Plan Mode",
        PermissionMode::DontAsk => "Don't Ask",
        PermissionMode::BypassPermissions => "Bypass Permissions",
    }
}

fn mode_description(mode: PermissionMode) -> &'static str {
    match mode {
        PermissionMode::Default => "Reads run; anything with side effects asks",
        PermissionMode::AcceptEdits => "Edits inside the workspace run without asking",
        PermissionMode::Plan => "Nothing with side effects runs",
        PermissionMode::DontAsk => "Nobody is asked: what would ask is denied",
        PermissionMode::BypassPermissions => "Nothing asks; deny rules and the boundary still hold",
    }
}

/// `params` as the request type of `method`, or an invalid-params error
/// naming the method and the field.
pub fn parse<T: DeserializeOwned>(method: &str, params: Value) -> Result<T, RpcError> {
    serde_path_to_error::deserialize(params).map_err(|error| {
        RpcError::new(
            INVALID_PARAMS,
            format!(
                "invalid params for {method}: at {}: {}",
                error.path(),
                error.inner()
            ),
        )
    })
}

/// A session's folder: it must exist.
pub fn existing_dir(cwd: &Path) -> Result<PathBuf, RpcError> {
    match cwd.is_absolute() && cwd.is_dir() {
        true => Ok(cwd.to_path_buf()),
        false => Err(RpcError::new(
            INVALID_PARAMS,
            format!("cwd {} is not an absolute path to a folder", cwd.display()),
        )),
    }
}

/// The prompt as text: text blocks as they are, an embedded resource as its
/// text under its URI, a link as its URI.
pub fn prompt_text(blocks: &[ContentBlock]) -> String {
    let parts: Vec<String> = blocks
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text { text } => Some(text.clone()),
            ContentBlock::ResourceLink { uri } => Some(uri.clone()),
            ContentBlock::Resource { resource } => Some(match &resource.text {
                Some(text) => format!("<context uri=\"{}\">\n{text}\n</context>", resource.uri),
                None => resource.uri.clone(),
            }),
            ContentBlock::Image {} | ContentBlock::Audio {} => None,
        })
        .collect();
    parts.join("\n")
}

/// Why the turn ended, as ACP names it; a failed run is an error.
pub fn stop_reason(report: &RunReport) -> Result<StopReason, RpcError> {
    match report.status {
        RunStatus::Completed | RunStatus::Stopped | RunStatus::Blocked => Ok(StopReason::EndTurn),
        RunStatus::MaxTurns => Ok(StopReason::MaxTurnRequests),
        RunStatus::Cancelled => Ok(StopReason::Cancelled),
        RunStatus::Failed => Err(RpcError::new(
            INTERNAL_ERROR,
            report
                .error
                .clone()
                .unwrap_or_else(|| "the run failed".to_owned()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(value: Value) -> Vec<ContentBlock> {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn a_prompt_joins_its_text_resources_and_links() {
        let prompt = blocks(json!([
            {"type": "text", "text": "explain"},
            {"type": "resource", "resource": {"uri": "file:///w/a.rs", "text": "fn a() {}"}},
            {"type": "resource_link", "uri": "file:///w/b.rs", "name": "b.rs"}
        ]));
        assert_eq!(
            prompt_text(&prompt),
            "explain\n<context uri=\"file:///w/a.rs\">\nfn a() {}\n</context>\nfile:///w/b.rs"
        );
    }

    #[test]
    fn params_that_do_not_fit_name_the_method_and_the_field() {
        let refused = parse::<super::super::schema::PromptRequest>(
            "session/prompt",
            json!({"sessionId": "s", "prompt": [{"type": "text"}]}),
        );
        assert_eq!(
            refused.err(),
            Some(RpcError::new(
                INVALID_PARAMS,
                "invalid params for session/prompt: at prompt[0]: missing field `text`"
            ))
        );
    }

    #[test]
    fn a_relative_cwd_is_refused() {
        assert_eq!(
            existing_dir(Path::new("relative/dir")).err(),
            Some(RpcError::new(
                INVALID_PARAMS,
                "cwd relative/dir is not an absolute path to a folder"
            ))
        );
    }

    #[test]
    fn the_modes_are_the_permission_modes_by_name_with_the_current_one() {
        assert_eq!(
            modes("plan"),
            json!({"currentModeId": "plan", "availableModes": [
                {"id": "default", "name": "Default",
                    "description": "Reads run; anything with side effects asks"},
                {"id": "acceptEdits", "name": "Accept Edits",
                    "description": "Edits inside the workspace run without asking"},
                {"id": "plan", "name": "Plan Mode",
                    "description": "Nothing with side effects runs"},
                {"id": "dontAsk", "name": "Don't Ask",
                    "description": "Nobody is asked: what would ask is denied"},
                {"id": "bypassPermissions", "name": "Bypass Permissions",
                    "description": "Nothing asks; deny rules and the boundary still hold"},
            ]})
        );
    }
}
