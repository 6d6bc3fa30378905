//! One recorded call: what was decided then (from its records) and what the
//! configuration decides now (the run's registry, hooks engine and policy).

use super::{Configuration, Decided, HookReplay, RecordedCall, RecordedSession, Unprepared};
use agenthub_hooks::{
    HookCommon, PermissionRequestContext, PermissionRequestVerdict, PreToolUseVerdict,
};
use agenthub_policy::decided_by::{approval_decider, decision_decider, policy_decider};
use agenthub_policy::CallView;
use agenthub_protocol::{
    ErrorCode, HookDecision, HookOutcomeKind, HookRecord, PermissionEffect, PermissionSuggestion,
};
use agenthub_tools::PreparedCall;
use serde_json::Value;
use std::path::Path;
use tokio_util::sync::CancellationToken;

/// What was decided when the session ran: its permission records, or — for
/// a call a PreToolUse hook stopped before permission — that hook's block.
/// `None` when the call never reached a decision.
pub(super) fn recorded(call: &RecordedCall) -> Option<Decided> {
    if let Some(policy) = &call.policy {
        let hooks: Vec<&HookRecord> = call.permission_hooks.iter().collect();
        return Some(Decided {
            effect: policy.effect,
            by: policy_decider(policy),
            approval: call
                .approval
                .as_ref()
                .map(|approval| (approval.effect, approval_decider(approval, &hooks))),
        });
    }
    recorded_hook_stop(call)
}

/// A PreToolUse hook that blocked the call, or failed and so kept it from
/// running, as a deny by that hook.
fn recorded_hook_stop(call: &RecordedCall) -> Option<Decided> {
    let stopped = [
        ErrorCode::HookBlocked,
        ErrorCode::HookContractError,
        ErrorCode::HookExecutionError,
    ];
    let code = call.result_code.as_deref()?;
    stopped.iter().find(|stop| stop.as_str() == code)?;
    let hook = call.pre_tool_hooks.iter().rev().find(|record| {
        record.outcome != HookOutcomeKind::Ok || record.decision == Some(HookDecision::Stop)
    })?;
    Some(hook_deny(hook))
}

fn hook_deny(record: &HookRecord) -> Decided {
    let by = match record.outcome {
        HookOutcomeKind::Blocked | HookOutcomeKind::Ok => format!("hook {}", record.hook),
        HookOutcomeKind::ExecutionError | HookOutcomeKind::ContractError => {
            format!("hook {} (failed)", record.hook)
        }
    };
    Decided {
        effect: PermissionEffect::Deny,
        by,
        approval: None,
    }
}

/// Why a call has no recorded decision.
pub(super) fn why_undecided(call: &RecordedCall) -> String {
    match &call.result_code {
        Some(code) => format!("it never reached permission when recorded ({code})"),
        None => "the transcript records no decision for it".to_owned(),
    }
}

/// Decides `call` again under `configuration`; `Err` says why it cannot be.
pub(super) async fn again(
    configuration: &dyn Configuration,
    session: &RecordedSession,
    call: &RecordedCall,
    input: &Value,
    hooks: HookReplay,
) -> Result<Decided, String> {
    let prepared = configuration
        .prepare(&call.tool_use_id, &call.tool_name, input)
        .map_err(|error| match error {
            Unprepared::UnknownTool => {
                format!(
                    "no tool is named {} under this configuration",
                    call.tool_name
                )
            }
            Unprepared::Refused(problem) => problem,
        })?;
    let common = HookCommon {
        session_id: session.record.session_id.clone(),
        workspace: configuration.workspace().root().to_path_buf(),
        transcript_path: Some(session.transcript.clone()),
        permission_mode: configuration.policy().mode(),
        cancel: CancellationToken::new(),
        agent: None,
    };
    let (prepared, suggestion) = match hooks {
        HookReplay::Recorded => match recorded_hook_stop(call) {
            Some(stopped) => return Ok(stopped),
            None => (prepared, recorded_suggestion(&call.pre_tool_hooks)),
        },
        HookReplay::Run => match pre_tool_use(configuration, common.clone(), prepared).await {
            Ok(proceed) => proceed,
            Err(stopped) => return Ok(stopped),
        },
    };
    let explanation = configuration
        .policy()
        .explain(
            CallView::from(&prepared),
            suggestion.as_ref(),
            configuration.workspace(),
        )
        .map_err(|error| format!("the policy cannot decide it: {error}"))?;
    let decision = explanation.decision;
    let approval = match (hooks, decision.effect) {
        (HookReplay::Run, PermissionEffect::Ask) => {
            permission_request(configuration, common, prepared, decision.reason.clone()).await
        }
        _ => None,
    };
    Ok(Decided {
        effect: decision.effect,
        by: decision_decider(&decision),
        approval,
    })
}

/// The PreToolUse hooks on the call: the call as they leave it and their
/// suggestion, or the deny of a hook that blocked it (or failed closed).
async fn pre_tool_use(
    configuration: &dyn Configuration,
    common: HookCommon,
    call: PreparedCall,
) -> Result<(PreparedCall, Option<PermissionSuggestion>), Decided> {
    let run = configuration.hooks().run_pre_tool_use(common, call).await;
    match run.verdict {
        PreToolUseVerdict::Proceed {
            call, suggestion, ..
        } => Ok((call, suggestion)),
        PreToolUseVerdict::Blocked { .. }
        | PreToolUseVerdict::Stopped { .. }
        | PreToolUseVerdict::ContractError { .. }
        | PreToolUseVerdict::ExecutionError { .. } => {
            let last = run.records.last().map(hook_deny);
            Err(last.unwrap_or(Decided {
                effect: PermissionEffect::Deny,
                by: "hook".to_owned(),
                approval: None,
            }))
        }
    }
}

/// The PermissionRequest hooks' answer to an ask, if one answered.
async fn permission_request(
    configuration: &dyn Configuration,
    common: HookCommon,
    call: PreparedCall,
    reason: String,
) -> Option<(PermissionEffect, String)> {
    let context = PermissionRequestContext {
        common,
        call,
        reason,
    };
    let run = configuration.hooks().run_permission_request(context).await;
    let last = run
        .records
        .last()
        .map(|record| format!("hook {}", record.hook));
    let by = last.unwrap_or_else(|| "hook".to_owned());
    match run.verdict {
        PermissionRequestVerdict::Undecided => None,
        PermissionRequestVerdict::Allow { hook, .. } => {
            Some((PermissionEffect::Allow, format!("hook {hook}")))
        }
        PermissionRequestVerdict::Deny { .. } | PermissionRequestVerdict::Failed { .. } => {
            Some((PermissionEffect::Deny, by))
        }
    }
}

/// What the recorded PreToolUse hooks suggested, merged strictest-wins as
/// the hooks engine merges it (`allow`, `ask`, `deny`, each perhaps with
/// `+updated_input`).
fn recorded_suggestion(records: &[HookRecord]) -> Option<PermissionSuggestion> {
    records
        .iter()
        .filter_map(|record| {
            let effect = record.decision?.permission_effect()?;
            Some(PermissionSuggestion {
                effect,
                reason: None,
                hook: record.hook.clone(),
            })
        })
        .reduce(PermissionSuggestion::merge)
}

/// `input` with every text that names a path under `from` naming it under
/// `to` instead: a session replayed in another checkout of its repository.
pub(super) fn rebase(input: &Value, from: &Path, to: &Path) -> Value {
    if from == to {
        return input.clone();
    }
    let (Some(from), Some(to)) = (from.to_str(), to.to_str()) else {
        return input.clone();
    };
    rebase_value(input, from.trim_end_matches('/'), to.trim_end_matches('/'))
}

fn rebase_value(value: &Value, from: &str, to: &str) -> Value {
    match value {
        Value::String(text) => Value::String(rebase_text(text, from, to)),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| rebase_value(item, from, to))
                .collect(),
        ),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, item)| (key.clone(), rebase_value(item, from, to)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Replaces `from` where it stands as a whole path (followed by `/`, the
/// end, or a character that cannot continue a path name).
fn rebase_text(text: &str, from: &str, to: &str) -> String {
    let mut rebased = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let after = &rest[at + from.len()..];
        let whole = after
            .chars()
            .next()
            .is_none_or(|next| next == '/' || next.is_whitespace() || "\"';&|)".contains(next));
        rebased.push_str(&rest[..at]);
        rebased.push_str(if whole { to } else { from });
        rest = after;
    }
    rebased.push_str(rest);
    rebased
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_under_the_recorded_workspace_are_read_under_the_new_one() {
        let input = json!({"file_path": "/home/dev/app/src/main.rs", "command": "cat /home/dev/app/a && ls /home/dev/apple"});
        assert_eq!(
            rebase(&input, Path::new("/home/dev/app"), Path::new("/ci/work")),
            json!({"file_path": "/ci/work/src/main.rs", "command": "cat /ci/work/a && ls /home/dev/apple"})
        );
    }

    #[test]
    fn recorded_suggestions_merge_strictest_first() {
        let record = |hook: &str, decision: HookDecision| HookRecord {
            agent_id: None,
            event: agenthub_protocol::HookEvent::PreToolUse.into(),
            hook: hook.to_owned(),
            tool_use_id: Some("c1".to_owned()),
            tool_name: Some("Bash".to_owned()),
            tool_result: None,
            outcome: HookOutcomeKind::Ok,
            decision: Some(decision),
            elapsed_ms: 1.0,
            handler_ran: None,
            error: None,
            source: None,
            index: None,
            exit_code: Some(0),
        };
        let merged = recorded_suggestion(&[
            record("a", HookDecision::Allow),
            record("b", HookDecision::AskUpdatedInput),
        ]);
        assert_eq!(
            merged,
            Some(PermissionSuggestion {
                effect: PermissionEffect::Ask,
                reason: None,
                hook: "b".to_owned()
            })
        );
    }
}
