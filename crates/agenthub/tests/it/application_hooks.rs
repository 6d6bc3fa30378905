//! Hooks answered by the application that started AgentHub (an Agent SDK's
//! `hook_callback`), added to an assembly with
//! [`Assembly::with_application_hooks`]: a session's calls go through them
//! as through the settings files' hooks, in the user layer's place.

use agenthub::{
    callback_hooks, Assembly, CallbackRegistration, CancellationToken, ChosenModel,
    HookCallbackCaller, HookCallbackError, Message, ModelSource, Options, ScriptedCall,
    ScriptedModel, ScriptedTurn, TrustChoice,
};
use futures::future::BoxFuture;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// An application answering every callback with `answer`, and writing
/// `callback <id>` to `log` when it is given one (for order).
struct Application {
    answer: Value,
    log: Option<PathBuf>,
    inputs: Mutex<Vec<Value>>,
}

impl HookCallbackCaller for Application {
    fn call<'a>(
        &'a self,
        id: &'a str,
        input: &'a Value,
        _tool_use_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Value, HookCallbackError>> {
        self.inputs.lock().unwrap().push(input.clone());
        if let Some(log) = &self.log {
            let mut text = std::fs::read_to_string(log).unwrap_or_default();
            text.push_str(&format!("callback {id}\n"));
            std::fs::write(log, text).unwrap();
        }
        let answer = self.answer.clone();
        Box::pin(async move { Ok(answer) })
    }
}

fn application(answer: Value, log: Option<PathBuf>) -> Arc<Application> {
    Arc::new(Application {
        answer,
        log,
        inputs: Mutex::new(Vec::new()),
    })
}

/// Callback `hook_0` on PreToolUse for Echo, as the SDK registers it.
fn echo_gate() -> Vec<agenthub::CommandHookConfig> {
    let hooks = json!({"PreToolUse": [{"matcher": "Echo", "hookCallbackIds": ["hook_0"]}]});
    callback_hooks(&CallbackRegistration::from_initialize(&hooks).unwrap()).unwrap()
}

/// Runs a session in `workspace` whose model calls `Echo {"text": "hello"}`
/// once, with `application` answering the callbacks; the tool results.
async fn echo_session(workspace: &Path, application: Arc<Application>) -> Vec<String> {
    let options = Options {
        trust: TrustChoice::ThisRun,
        ..Options::for_workspace(workspace)
    };
    let assembly = Assembly::load(&options)
        .unwrap()
        .with_application_hooks(echo_gate(), application);
    let script = ScriptedModel::new(
        "application hooks",
        vec![
            ScriptedTurn {
                content: None,
                tool_calls: vec![ScriptedCall {
                    id: Some("call_1".to_owned()),
                    name: "Echo".to_owned(),
                    arguments: json!({"text": "hello"}),
                }],
            },
            ScriptedTurn {
                content: Some("done".to_owned()),
                tool_calls: Vec::new(),
            },
        ],
    );
    let model = ChosenModel::new(Arc::new(script), ModelSource::Scripted, "scripted");
    let report = assembly
        .agent(model)
        .build()
        .run("echo hello", CancellationToken::new())
        .await;
    report
        .history
        .iter()
        .filter_map(|message| match message {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_pre_tool_use_callback_that_denies_blocks_the_call_in_a_session() {
    let dir = tempfile::tempdir().unwrap();
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "no echoes today"}});
    assert_eq!(
        echo_session(dir.path(), application(deny, None)).await,
        vec![
            "Error [permission_denied]: the tool was not run: permission denied: no echoes today"
                .to_owned()
        ]
    );
}

#[tokio::test]
async fn a_pre_tool_use_callback_with_updated_input_rewrites_the_call_in_a_session() {
    let dir = tempfile::tempdir().unwrap();
    let rewrite = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "updatedInput": {"text": "goodbye"}}});
    assert_eq!(
        echo_session(dir.path(), application(rewrite, None)).await,
        vec!["goodbye".to_owned()]
    );
}

#[tokio::test]
async fn application_hooks_run_before_the_projects_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let log = root.join("order.log");
    std::fs::create_dir_all(root.join(".agenthub")).unwrap();
    let settings = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "cat > /dev/null; echo project >> order.log"}]}]}});
    std::fs::write(root.join(".agenthub/settings.json"), settings.to_string()).unwrap();
    echo_session(&root, application(json!({}), Some(log.clone()))).await;
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "callback hook_0\nproject\n"
    );
}
