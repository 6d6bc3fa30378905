//! What a verdict would mean for a run, in the words `agenthub hooks test`
//! prints as the merged result. It only describes: it never runs a hook and
//! never decides anything itself.

use agenthub_hooks::{
    PermissionRequestVerdict, PostToolUseVerdict, PreCompactVerdict, PreToolUseVerdict,
    SessionStartVerdict, StopDecision, StopVerdict, UserPromptSubmitVerdict,
};
use agenthub_protocol::ErrorCode;

pub(super) fn session_start(verdict: SessionStartVerdict) -> Vec<String> {
    let mut merged = match (verdict.failure, verdict.stop) {
        (Some(failure), _) => vec![format!("the run would fail: {failure}")],
        (None, Some(reason)) => vec![format!("the run would stop: {reason}")],
        (None, None) => vec!["the run goes on".to_owned()],
    };
    merged.extend(contexts(&verdict.context));
    merged
}

pub(super) fn pre_compact(verdict: PreCompactVerdict) -> Vec<String> {
    vec![match verdict.blocked {
        Some(reason) => {
            format!("a manual compaction is cancelled ({reason}); an automatic one goes on")
        }
        None => "the compaction goes on".to_owned(),
    }]
}

pub(super) fn user_prompt_submit(verdict: UserPromptSubmitVerdict) -> Vec<String> {
    match verdict {
        UserPromptSubmitVerdict::Proceed { context } => {
            with_contexts("the prompt goes to the model", &context)
        }
        UserPromptSubmitVerdict::Blocked { reason, context } => {
            with_contexts(&format!("the prompt is blocked: {reason}"), &context)
        }
        UserPromptSubmitVerdict::Stopped { reason, context } => {
            with_contexts(&format!("the run would stop: {reason}"), &context)
        }
        UserPromptSubmitVerdict::Failed { message } => {
            vec![format!("the run would fail: {message}")]
        }
    }
}

pub(super) fn permission_request(verdict: PermissionRequestVerdict) -> Vec<String> {
    vec![match verdict {
        PermissionRequestVerdict::Undecided => {
            "no hook answered: the terminal prompt decides (deny without a terminal)".to_owned()
        }
        PermissionRequestVerdict::Allow { hook } => format!("allowed by {hook:?}"),
        PermissionRequestVerdict::Deny { message } => format!("denied: {message}"),
        PermissionRequestVerdict::Failed { message } => {
            format!("denied because a hook failed: {message}")
        }
    }]
}

pub(super) fn stop(verdict: StopVerdict) -> Vec<String> {
    match verdict.decision {
        StopDecision::Finish { context } => with_contexts("the answer stands", &context),
        StopDecision::Continue { reason, context } => with_contexts(
            &format!("the model is asked once more with: {reason}"),
            &context,
        ),
        StopDecision::Stopped { reason, context } => {
            with_contexts(&format!("the run would stop: {reason}"), &context)
        }
        StopDecision::Failed { message } => vec![format!("the run would fail: {message}")],
    }
}

fn contexts(context: &[String]) -> Vec<String> {
    context
        .iter()
        .map(|text| format!("system context for the model: {text}"))
        .collect()
}

fn with_contexts(first: &str, context: &[String]) -> Vec<String> {
    let mut lines = vec![first.to_owned()];
    lines.extend(contexts(context));
    lines
}

pub(super) fn pre_tool_use(verdict: PreToolUseVerdict) -> Vec<String> {
    let not_run = |code: ErrorCode, text: &str, context: &[String]| {
        with_contexts(
            &format!("the tool would not run: {}", code.result_text(text)),
            context,
        )
    };
    match verdict {
        PreToolUseVerdict::Proceed {
            call,
            suggestion,
            context,
        } => {
            let mut lines = vec![format!(
                "the call goes on to permission with input {}",
                call.input()
            )];
            if let Some(suggestion) = suggestion {
                let reason = suggestion.reason.as_deref().unwrap_or("no reason given");
                lines.push(format!(
                    "permission suggestion: {} ({reason}) from {:?}",
                    suggestion.effect, suggestion.hook
                ));
            }
            lines.extend(contexts(&context));
            lines
        }
        PreToolUseVerdict::Blocked { reason, context } => {
            not_run(ErrorCode::HookBlocked, &reason, &context)
        }
        PreToolUseVerdict::Stopped { reason, context } => with_contexts(
            &format!("the run would stop before the tool runs: {reason}"),
            &context,
        ),
        PreToolUseVerdict::ContractError { message, context } => {
            not_run(ErrorCode::HookContractError, &message, &context)
        }
        PreToolUseVerdict::ExecutionError { message, context } => {
            not_run(ErrorCode::HookExecutionError, &message, &context)
        }
    }
}

pub(super) fn post_tool_use(verdict: PostToolUseVerdict) -> Vec<String> {
    let mut lines = vec![format!("the model sees: {}", verdict.output)];
    if let Some(reason) = verdict.stop_reason {
        lines.push(format!("the run would stop after this round: {reason}"));
    }
    lines.extend(contexts(&verdict.context));
    lines.extend(
        verdict
            .failures
            .iter()
            .map(|failure| format!("reported (the result is kept): {failure}")),
    );
    lines
}
