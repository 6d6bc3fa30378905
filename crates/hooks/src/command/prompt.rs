//! `prompt` hooks: the configured model is asked the hook's `prompt` (with
//! `$ARGUMENTS` replaced by the input JSON, or the JSON appended) and must
//! answer `{"ok": true}` or `{"ok": false, "reason": "..."}`. `ok: false`
//! reads as exit 2 with the reason; an answer that is not that object, a
//! missing model or a model error means the check could not run.
//!
//! The question is a [`RequestPurpose::HookQuestion`] request, so every
//! provider answers it and the scripted model answers from its `hook_answers`.

use super::runner::{RawRun, RunEnd};
use super::services::HookServices;
use agenthub_model::{ModelRequest, NoModelEvents};
use agenthub_protocol::Message;
use serde_json::Value;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

const INSTRUCTIONS: &str = "You evaluate one event of a coding agent for a hook. Answer with one JSON object and nothing else: {\"ok\": true} to let it proceed, or {\"ok\": false, \"reason\": \"...\"} to block it, the reason saying what to do instead.";

/// Asks the model `prompt` about `payload`.
pub(crate) async fn ask(
    services: &HookServices,
    prompt: &str,
    _model: Option<&str>,
    payload: &Value,
    timeout: Duration,
    cancel: &CancellationToken,
) -> RawRun {
    let started = Instant::now();
    let end = |end: RunEnd, stderr: String| RawRun {
        end,
        stdout: String::new(),
        stderr,
        elapsed: started.elapsed(),
    };
    let Some(model) = &services.model else {
        return end(
            RunEnd::Refused("no model is configured to answer prompt hooks".to_owned()),
            String::new(),
        );
    };
    let messages = [
        Message::system(INSTRUCTIONS.to_owned()),
        Message::user(question(prompt, payload)),
    ];
    let request = ModelRequest::hook_question(&messages);
    let asked = model.complete(request, &NoModelEvents, cancel);
    let answer = tokio::time::timeout(timeout, asked).await;
    match answer {
        Err(_) => end(RunEnd::TimedOut(timeout), String::new()),
        Ok(Err(error)) => end(
            RunEnd::Refused(format!("the model could not answer: {error}")),
            String::new(),
        ),
        Ok(Ok(reply)) => match verdict(reply.content.as_deref().unwrap_or_default()) {
            Ok(None) => end(RunEnd::Exited(0), String::new()),
            Ok(Some(reason)) => end(RunEnd::Exited(2), reason),
            Err(problem) => end(RunEnd::Refused(problem), String::new()),
        },
    }
}

/// The prompt with `$ARGUMENTS` replaced by the input JSON (appended when
/// the prompt does not use it).
pub(crate) fn question(prompt: &str, payload: &Value) -> String {
    let json = payload.to_string();
    if prompt.contains("$ARGUMENTS") {
        prompt.replace("$ARGUMENTS", &json)
    } else {
        format!("{prompt}\n\nInput: {json}")
    }
}

/// `Ok(None)`: ok; `Ok(Some(reason))`: blocked; `Err`: not a verdict. A
/// code fence around the object is accepted.
pub(crate) fn verdict(answer: &str) -> Result<Option<String>, String> {
    let start = answer.find('{');
    let stop = answer.rfind('}');
    let object = match (start, stop) {
        (Some(start), Some(stop)) if start < stop => &answer[start..=stop],
        _ => return Err(unreadable(answer)),
    };
    let value: Value = serde_json::from_str(object).map_err(|_| unreadable(answer))?;
    match value.get("ok") {
        Some(Value::Bool(true)) => Ok(None),
        Some(Value::Bool(false)) => Ok(Some(
            value
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        )),
        _ => Err(unreadable(answer)),
    }
}

fn unreadable(answer: &str) -> String {
    let short: String = answer.chars().take(200).collect();
    format!("the model's answer is not {{\"ok\": true|false, \"reason\": …}}: {short:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ok_false_is_a_block_with_its_reason_and_ok_true_lets_it_go() {
        assert_eq!(
            (
                verdict(r#"{"ok": true}"#),
                verdict("```json\n{\"ok\": false, \"reason\": \"no rm\"}\n```"),
            ),
            (Ok(None), Ok(Some("no rm".to_owned())))
        );
    }

    #[test]
    fn an_answer_without_ok_is_unreadable() {
        assert!(verdict("sure, go ahead").is_err());
    }

    #[test]
    fn arguments_are_replaced_or_appended() {
        let payload = serde_json::json!({"a": 1});
        assert_eq!(
            (
                question("check $ARGUMENTS now", &payload),
                question("check", &payload)
            ),
            (
                "check {\"a\":1} now".to_owned(),
                "check\n\nInput: {\"a\":1}".to_owned()
            )
        );
    }
}
