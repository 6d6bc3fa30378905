//! An ask answered with another input (`Approval::AllowWithInput`, an Agent
//! SDK's `canUseTool` with `updatedInput`, SPEC §30), end to end through
//! `Agent`: a scripted model asks for `Write a.txt`, the default policy asks,
//! and the approver allows it with an input of its own. The new input is
//! checked against Write's schema, the deny rules, the workspace boundary
//! and the protected paths before it runs, and the audit says what happened.

use agenthub_core::{Agent, AgentEvent, Observer, ObserverError};
use agenthub_hooks::{HookRegistry, PermissionRequestResult, PostToolUseResult};
use agenthub_model::ScriptedModel;
use agenthub_policy::{
    Approval, Approver, Decision, NoTerminalApprover, PolicyConfig, PolicyEngine, PolicyInput,
};
use agenthub_protocol::{Message, PermissionEffect, PermissionRecord, PermissionSource};
use agenthub_tools::{PreparedCall, ToolRegistry, Workspace};
use futures::future::BoxFuture;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

#[derive(Default)]
struct Permissions(Mutex<Vec<PermissionRecord>>);

impl Observer for Permissions {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let AgentEvent::Permission(record) = event {
            self.0.lock().unwrap().push((*record).clone());
        }
        Ok(())
    }
}

/// Allows every ask once, with `input` in place of the call's.
struct GivesInput(Value);

impl Approver for GivesInput {
    fn approve<'a>(
        &'a self,
        _call: &'a PreparedCall,
        _decision: &'a Decision,
    ) -> BoxFuture<'a, Approval> {
        let input = self.0.clone();
        Box::pin(async move {
            Approval::AllowWithInput {
                by: "the SDK".to_owned(),
                input,
            }
        })
    }
}

/// Who answers the ask, with which input.
enum Answered {
    /// The approver (an SDK's `canUseTool`).
    ByApprover(Value),
    /// An in-process PermissionRequest hook; no one else could answer.
    ByHook(Value),
}

/// What one session showed: the tool results, the permission records and
/// the input PostToolUse hooks saw.
struct Session {
    results: Vec<String>,
    permissions: Vec<PermissionRecord>,
    ran_with: Vec<Value>,
}

struct Case {
    _dir: tempfile::TempDir,
    /// The folder holding the workspace.
    base: PathBuf,
    /// The workspace root, canonical.
    root: PathBuf,
}

impl Case {
    fn new() -> Case {
        let dir = tempfile::TempDir::new().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let root = base.join("ws");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/config"), "[core]\n").unwrap();
        Case {
            _dir: dir,
            base,
            root,
        }
    }

    fn engine(&self, permissions: Value) -> PolicyEngine {
        let sections = [(self.root.join(".agenthub/settings.json"), permissions)];
        let config = PolicyConfig::build(PolicyInput {
            workspace: &self.root,
            home: None,
            sections: &sections,
            cli: Default::default(),
            extra_tools: &[],
        })
        .unwrap();
        PolicyEngine::new(config, None)
    }

    /// A session whose model asks for `Write a.txt "original"` once, under
    /// the policy `permissions`, with `input` given by the approver.
    async fn session(&self, permissions: Value, input: Value) -> Session {
        self.session_answered(permissions, Answered::ByApprover(input))
            .await
    }

    /// As [`Case::session`], the ask answered as `answered` says.
    async fn session_answered(&self, permissions: Value, answered: Answered) -> Session {
        let script = json!({"turns": [
            {"content": "writing", "tool_calls": [
                {"id": "call_1", "name": "Write", "arguments": {"file_path": "a.txt", "content": "original"}}]},
            {"content": "done"}
        ]});
        let model = ScriptedModel::from_json("script.json", &script.to_string()).unwrap();
        let ran_with = Arc::new(Mutex::new(Vec::new()));
        let seen = ran_with.clone();
        let mut hooks = HookRegistry::new().post_tool_use("see-input", move |ctx| {
            seen.lock().unwrap().push(ctx.call.input().clone());
            async move { Ok(PostToolUseResult::default()) }
        });
        let approver: Arc<dyn Approver> = match answered {
            Answered::ByApprover(input) => Arc::new(GivesInput(input)),
            Answered::ByHook(input) => {
                hooks = hooks.permission_request("gives-input", move |_ctx| {
                    let result = PermissionRequestResult {
                        updated_input: Some(input.clone()),
                        ..PermissionRequestResult::allow()
                    };
                    async move { Ok(result) }
                });
                Arc::new(NoTerminalApprover)
            }
        };
        let records = Arc::new(Permissions::default());
        let agent = Agent::builder(Arc::new(model), ToolRegistry::with_builtins().unwrap())
            .workspace(Workspace::new(&self.root))
            .policy(Arc::new(self.engine(permissions)))
            .hooks(hooks)
            .approver(approver)
            .observer(records.clone())
            .build();
        let report = agent.run("write a.txt", CancellationToken::new()).await;
        let results = report
            .history
            .iter()
            .filter_map(|message| match message {
                Message::Tool { content, .. } => Some(content.clone()),
                _ => None,
            })
            .collect();
        let permissions = records.0.lock().unwrap().clone();
        let ran_with = ran_with.lock().unwrap().clone();
        Session {
            results,
            permissions,
            ran_with,
        }
    }

    fn exists(&self, path: &str) -> bool {
        self.root.join(path).exists()
    }
}

/// One permission record of Write `call_1`.
fn record(effect: PermissionEffect, source: PermissionSource, reason: &str) -> PermissionRecord {
    PermissionRecord {
        agent_id: None,
        tool: "Write".to_owned(),
        tool_use_id: "call_1".to_owned(),
        host: None,
        effect,
        source,
        rule: None,
        reason: reason.to_owned(),
    }
}

/// The default policy's ask about a Write, audited before the approval.
fn write_asks() -> PermissionRecord {
    record(
        PermissionEffect::Ask,
        PermissionSource::Default,
        "Write asks by default",
    )
}

fn denied(reason: &str) -> Vec<String> {
    vec![format!(
        "Error [permission_denied]: the tool was not run: permission denied: {reason}"
    )]
}

fn path_in(root: &Path, relative: &str) -> String {
    root.join(relative).display().to_string()
}

#[tokio::test]
async fn an_approval_with_another_input_runs_the_tool_with_that_input() {
    let case = Case::new();
    let input = json!({"file_path": "b.txt", "content": "replaced"});
    let session = case.session(json!({}), input.clone()).await;
    assert_eq!(
        (
            session.results,
            std::fs::read_to_string(case.root.join("b.txt")).unwrap(),
            case.exists("a.txt"),
            session.ran_with,
            session.permissions
        ),
        (
            vec![format!("Wrote 8 bytes to {}", path_in(&case.root, "b.txt"))],
            "replaced".to_owned(),
            false,
            vec![input],
            vec![
                write_asks(),
                record(
                    PermissionEffect::Allow,
                    PermissionSource::Approval,
                    "allowed once by the SDK, with the input it gave in place of the call's"
                )
            ]
        )
    );
}

#[tokio::test]
async fn a_permission_request_hooks_updated_input_runs_the_tool_with_that_input() {
    let case = Case::new();
    let input = json!({"file_path": "b.txt", "content": "replaced"});
    let session = case
        .session_answered(json!({}), Answered::ByHook(input.clone()))
        .await;
    assert_eq!(
        (
            std::fs::read_to_string(case.root.join("b.txt")).unwrap(),
            session.ran_with,
            session.permissions[1].clone()
        ),
        (
            "replaced".to_owned(),
            vec![input],
            record(
                PermissionEffect::Allow,
                PermissionSource::Approval,
                "allowed once by PermissionRequest hook \"gives-input\", with the input it gave in place of the call's"
            )
        )
    );
}

#[tokio::test]
async fn a_permission_request_hooks_updated_input_onto_git_config_is_refused() {
    let case = Case::new();
    let input = json!({"file_path": ".git/config", "content": "pwned"});
    let session = case
        .session_answered(json!({}), Answered::ByHook(input))
        .await;
    let refused = &session.permissions[1];
    assert_eq!(
        (
            (refused.effect, refused.source),
            session.results == denied(&refused.reason),
            std::fs::read_to_string(case.root.join(".git/config")).unwrap()
        ),
        (
            (PermissionEffect::Deny, PermissionSource::Approval),
            true,
            "[core]\n".to_owned()
        )
    );
}

#[tokio::test]
async fn an_approval_with_the_calls_own_input_is_an_allow_once() {
    let case = Case::new();
    let input = json!({"file_path": "a.txt", "content": "original"});
    let session = case.session(json!({}), input).await;
    assert_eq!(
        (session.permissions, case.exists("a.txt")),
        (
            vec![
                write_asks(),
                record(
                    PermissionEffect::Allow,
                    PermissionSource::Approval,
                    "allowed once by the SDK"
                )
            ],
            true
        )
    );
}

#[tokio::test]
async fn an_approval_echoing_the_input_as_shown_with_absolute_paths_is_an_allow_once() {
    let case = Case::new();
    let input = json!({"file_path": path_in(&case.root, "a.txt"), "content": "original"});
    let session = case.session(json!({}), input).await;
    assert_eq!(
        (session.permissions[1].reason.clone(), session.ran_with),
        (
            "allowed once by the SDK".to_owned(),
            vec![json!({"file_path": "a.txt", "content": "original"})]
        )
    );
}

#[tokio::test]
async fn an_approved_input_that_fails_the_schema_is_refused() {
    let case = Case::new();
    let session = case.session(json!({}), json!({"file_path": 3})).await;
    let reason = session.permissions[1].reason.clone();
    assert_eq!(
        (
            reason.starts_with(
                "the input the SDK gave in place of the call's: updated_input does not match the schema of Write: "
            ),
            session.results,
            session.permissions,
            session.ran_with,
            case.exists("a.txt")
        ),
        (
            true,
            denied(&reason),
            vec![
                write_asks(),
                record(PermissionEffect::Deny, PermissionSource::Approval, &reason)
            ],
            Vec::<Value>::new(),
            false
        )
    );
}

#[tokio::test]
async fn an_approved_input_a_deny_rule_matches_is_refused() {
    let case = Case::new();
    let input = json!({"file_path": "secret.txt", "content": "leak"});
    let session = case
        .session(json!({"deny": ["Edit(**/secret.txt)"]}), input)
        .await;
    let refused = &session.permissions[1];
    let reason = refused.reason.clone();
    assert_eq!(
        (
            session.results,
            (refused.effect, refused.source),
            reason.ends_with(" (the input the SDK gave in place of the call's)"),
            case.exists("secret.txt")
        ),
        (
            denied(&reason),
            (PermissionEffect::Deny, PermissionSource::Rule),
            true,
            false
        )
    );
}

#[tokio::test]
async fn an_approved_input_outside_the_workspace_is_refused_at_the_boundary() {
    let case = Case::new();
    let input = json!({"file_path": "../outside.txt", "content": "escaped"});
    let session = case.session(json!({}), input).await;
    let reason = format!(
        "{} is outside the workspace ({}) (the input the SDK gave in place of the call's)",
        case.base.join("outside.txt").display(),
        case.root.display()
    );
    assert_eq!(
        (
            session.results,
            session.permissions,
            case.base.join("outside.txt").exists()
        ),
        (
            denied(&reason),
            vec![
                write_asks(),
                record(
                    PermissionEffect::Deny,
                    PermissionSource::WorkspaceBoundary,
                    &reason
                )
            ],
            false
        )
    );
}

/// How the refusal of an approved input that asks again where only a
/// person may answer begins.
const FOR_ANOTHER_INPUT: &str = "the SDK allowed the call with another input, and that input asks again where only a person may answer for it: ";

/// An approved input writing the protected `path`, as one comparable
/// value: the approval's record, whether the model was told its reason, and
/// whether the file kept its content.
async fn onto_protected(path: &str) -> Value {
    let case = Case::new();
    std::fs::create_dir_all(case.root.join(".claude")).unwrap();
    std::fs::write(case.root.join(".claude/settings.json"), "{}").unwrap();
    let before = std::fs::read_to_string(case.root.join(path)).unwrap();
    let input = json!({"file_path": path, "content": "pwned"});
    let session = case.session(json!({}), input).await;
    let refused = &session.permissions[1];
    let after = std::fs::read_to_string(case.root.join(path)).unwrap();
    json!({
        "effect": refused.effect,
        "source": refused.source,
        "for_another_input": refused.reason.starts_with(FOR_ANOTHER_INPUT),
        "names_the_path": refused.reason.contains(path),
        "model_told": session.results == denied(&refused.reason),
        "unchanged": before == after,
    })
}

/// What [`onto_protected`] finds when the approved input is refused.
fn refused_onto_protected() -> Value {
    json!({"effect": "deny", "source": "approval", "for_another_input": true,
        "names_the_path": true, "model_told": true, "unchanged": true})
}

#[tokio::test]
async fn an_approved_input_onto_git_config_is_refused_as_an_approval_for_another_input() {
    assert_eq!(
        onto_protected(".git/config").await,
        refused_onto_protected()
    );
}

#[tokio::test]
async fn an_approved_input_onto_the_claude_settings_is_refused_as_an_approval_for_another_input() {
    assert_eq!(
        onto_protected(".claude/settings.json").await,
        refused_onto_protected()
    );
}
