//! `callback` hooks: the application that started AgentHub (an Agent SDK)
//! answers the event through a [`HookCallbackCaller`]; its answer is read
//! as a command hook's stdout, its error as a hook that could not run.

use crate::support::*;
use agenthub_hooks::{
    CommandHooks, HookCallbackCaller, HookCallbackError, HookRegistry, HookServices,
    PermissionRequestContext, PermissionRequestVerdict,
};
use agenthub_settings::{callback_hooks, CallbackRegistration, CommandHookConfig};
use futures::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a fake application answers every callback with.
#[derive(Clone)]
enum Answer {
    Json(Value),
    Error(HookCallbackError),
    Hang,
}

/// An application that answers every callback the same way and keeps what
/// it was called with: `(id, input, tool_use_id)`.
struct FakeApplication {
    answer: Answer,
    calls: Mutex<Vec<(String, Value, Option<String>)>>,
}

impl FakeApplication {
    fn new(answer: Answer) -> Arc<FakeApplication> {
        Arc::new(FakeApplication {
            answer,
            calls: Mutex::new(Vec::new()),
        })
    }

    fn calls(&self) -> Vec<(String, Value, Option<String>)> {
        self.calls.lock().unwrap().clone()
    }
}

impl HookCallbackCaller for FakeApplication {
    fn call<'a>(
        &'a self,
        id: &'a str,
        input: &'a Value,
        tool_use_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Value, HookCallbackError>> {
        self.calls.lock().unwrap().push((
            id.to_owned(),
            input.clone(),
            tool_use_id.map(str::to_owned),
        ));
        let answer = self.answer.clone();
        Box::pin(async move {
            match answer {
                Answer::Json(value) => Ok(value),
                Answer::Error(error) => Err(error),
                Answer::Hang => {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    Ok(json!({}))
                }
            }
        })
    }
}

/// One registration of callback `hook_0` on `event` for every tool.
fn registration(
    event: &str,
    timeout_secs: Option<f64>,
    on_failure: Option<&str>,
) -> CallbackRegistration {
    CallbackRegistration {
        event: event.to_owned(),
        matcher: None,
        callback_ids: vec!["hook_0".to_owned()],
        timeout_secs,
        on_failure: on_failure.map(str::to_owned),
    }
}

fn registry_of(
    hooks: Vec<CommandHookConfig>,
    application: Option<Arc<FakeApplication>>,
) -> HookRegistry {
    let services = HookServices {
        callbacks: application.map(|app| app as Arc<dyn HookCallbackCaller>),
        ..HookServices::default()
    };
    CommandHooks::new(hooks)
        .with_services(services)
        .into_registry()
        .unwrap()
}

/// The PreToolUse verdict on `Echo hello` of callback `hook_0` answered by `application`.
async fn gate(
    case: &Case,
    registration: CallbackRegistration,
    application: Option<Arc<FakeApplication>>,
) -> Value {
    let registry = registry_of(callback_hooks(&[registration]).unwrap(), application);
    pre_tool_use(&case.pre_tool_use(&registry, echo("hello")).await.verdict)
}

#[tokio::test]
async fn a_callback_answering_deny_blocks_the_call_with_its_reason() {
    let case = Case::new();
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "not on Fridays"}});
    let application = FakeApplication::new(Answer::Json(deny));
    let verdict = gate(
        &case,
        registration("PreToolUse", None, None),
        Some(application),
    )
    .await;
    assert_eq!(
        (
            verdict["suggestion"]["effect"].clone(),
            verdict["suggestion"]["reason"].clone()
        ),
        (json!("deny"), json!("not on Fridays"))
    );
}

#[tokio::test]
async fn a_callback_answering_updated_input_rewrites_the_call() {
    let case = Case::new();
    let rewrite = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "updatedInput": {"text": "goodbye"}}});
    let application = FakeApplication::new(Answer::Json(rewrite));
    assert_eq!(
        gate(
            &case,
            registration("PreToolUse", None, None),
            Some(application)
        )
        .await,
        proceeds("goodbye")
    );
}

#[tokio::test]
async fn a_callback_gets_the_command_hooks_stdin_and_the_calls_tool_use_id() {
    let case = Case::new();
    let save = case.hook("save.sh", "cat > .agenthub/stdin.json");
    let mut hooks = case.configs(&[("PreToolUse", None, command(&save))]);
    hooks.extend(callback_hooks(&[registration("PreToolUse", None, None)]).unwrap());
    let application = FakeApplication::new(Answer::Json(json!({})));
    let registry = registry_of(hooks, Some(application.clone()));
    case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        application.calls(),
        vec![(
            "hook_0".to_owned(),
            case.saved(".agenthub/stdin.json"),
            Some("call_1".to_owned())
        )]
    );
}

#[tokio::test]
async fn a_callback_on_an_event_without_a_tool_gets_no_tool_use_id() {
    let case = Case::new();
    let application = FakeApplication::new(Answer::Json(json!({})));
    let registry = registry_of(
        callback_hooks(&[registration("UserPromptSubmit", None, None)]).unwrap(),
        Some(application.clone()),
    );
    case.user_prompt_submit(&registry).await;
    let calls = application.calls();
    assert_eq!(
        (
            calls.len(),
            calls[0].1["prompt"].clone(),
            calls[0].2.clone()
        ),
        (1, json!(PROMPT), None)
    );
}

#[tokio::test]
async fn an_erroring_callback_with_on_failure_block_blocks_the_call() {
    let case = Case::new();
    let application = FakeApplication::new(Answer::Error(HookCallbackError::Failed(
        "KeyError: 'command'".to_owned(),
    )));
    assert_eq!(
        gate(
            &case,
            registration("PreToolUse", None, Some("block")),
            Some(application)
        )
        .await,
        json!({"execution_error": "PreToolUse hook \"[callback] hook_0\" failed: could not run: hook callback \"hook_0\" failed: KeyError: 'command'", "context": []})
    );
}

#[tokio::test]
async fn an_erroring_callback_without_on_failure_is_a_warning_and_the_call_goes_on() {
    let case = Case::new();
    let application = FakeApplication::new(Answer::Error(HookCallbackError::ChannelClosed));
    let registry = registry_of(
        callback_hooks(&[registration("PreToolUse", None, None)]).unwrap(),
        Some(application),
    );
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    let record = &records(&run.records)[0];
    assert_eq!(
        (pre_tool_use(&run.verdict), record["outcome"].clone(), record["error"].clone()),
        (
            proceeds("hello"),
            json!("hook_execution_error"),
            json!("could not run: hook callback \"hook_0\" failed: the application is no longer answering hook callbacks (the check could not run, the action goes on; hook from the application (hook callbacks); \"onFailure\": \"block\" makes it block)")
        )
    );
}

#[tokio::test]
async fn a_callback_past_its_timeout_fails_and_blocks_under_on_failure_block() {
    let case = Case::new();
    let application = FakeApplication::new(Answer::Hang);
    assert_eq!(
        gate(
            &case,
            registration("PreToolUse", Some(0.2), Some("block")),
            Some(application)
        )
        .await,
        json!({"execution_error": "PreToolUse hook \"[callback] hook_0\" failed: timed out after 0.2s; its process group was killed", "context": []})
    );
}

#[tokio::test]
async fn a_callback_with_no_application_to_answer_it_could_not_run() {
    let case = Case::new();
    assert_eq!(
        gate(&case, registration("PreToolUse", None, Some("block")), None).await,
        json!({"execution_error": "PreToolUse hook \"[callback] hook_0\" failed: could not run: no application answers hook callbacks (callback \"hook_0\")", "context": []})
    );
}

#[tokio::test]
async fn a_callback_answering_something_other_than_an_object_could_not_run() {
    let case = Case::new();
    let application = FakeApplication::new(Answer::Json(Value::Null));
    assert_eq!(
        gate(
            &case,
            registration("PreToolUse", None, Some("block")),
            Some(application)
        )
        .await,
        json!({"execution_error": "PreToolUse hook \"[callback] hook_0\" failed: could not run: hook callback \"hook_0\" answered null, not a JSON object (an answer with no opinion is {})", "context": []})
    );
}

#[tokio::test]
async fn a_permission_request_callback_answers_the_ask_told_the_calls_id() {
    let case = Case::new();
    let allow = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow"}}});
    let application = FakeApplication::new(Answer::Json(allow));
    let registry = registry_of(
        callback_hooks(&[registration("PermissionRequest", None, None)]).unwrap(),
        Some(application.clone()),
    );
    let context = PermissionRequestContext {
        common: case.common(),
        call: echo("hello"),
        reason: "confirm echo".to_owned(),
    };
    let verdict = registry.run_permission_request(context).await.verdict;
    assert_eq!(
        (verdict, application.calls()[0].2.clone()),
        (
            PermissionRequestVerdict::Allow {
                hook: "[callback] hook_0".to_owned(),
                updated_input: None,
            },
            Some("call_1".to_owned())
        )
    );
}

#[tokio::test]
async fn a_cancelled_run_stops_waiting_for_a_callback() {
    let case = Case::new();
    let registry = registry_of(
        callback_hooks(&[registration("PreToolUse", None, Some("block"))]).unwrap(),
        Some(FakeApplication::new(Answer::Hang)),
    );
    let common = case.common();
    common.cancel.cancel();
    let started = std::time::Instant::now();
    let run = registry.run_pre_tool_use(common, echo("hello")).await;
    assert_eq!(
        (
            pre_tool_use(&run.verdict),
            started.elapsed() < Duration::from_secs(10)
        ),
        (
            json!({"execution_error": "PreToolUse hook \"[callback] hook_0\" failed: was cancelled with the run; its process group was killed", "context": []}),
            true
        )
    );
}
