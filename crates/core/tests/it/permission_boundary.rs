//! The seed article's experiment "a hook's allow against the workspace
//! boundary", end to end through `Agent`: a scripted model asks for
//! `Write ../outside.txt`, an in-process PreToolUse hook suggests allow, and
//! the permission engine still denies it as `workspace-boundary`. The model
//! gets `Error [permission_denied]` with the boundary's reason, the audit
//! names the source, and nothing is written outside the workspace.

use agenthub_core::{Agent, AgentEvent, Observer, ObserverError};
use agenthub_hooks::{HookRegistry, PreToolUseResult};
use agenthub_model::ScriptedModel;
use agenthub_policy::{PolicyConfig, PolicyEngine, PolicyInput};
use agenthub_protocol::{Message, PermissionEffect, PermissionRecord};
use agenthub_tools::{ToolRegistry, Workspace};
use serde_json::json;
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

fn engine(root: &std::path::Path) -> PolicyEngine {
    let config = PolicyConfig::build(PolicyInput {
        workspace: root,
        home: None,
        sections: &[],
        cli: Default::default(),
        extra_tools: &[],
    })
    .unwrap();
    PolicyEngine::new(config, None)
}

fn tool_results(history: &[Message]) -> Vec<String> {
    history
        .iter()
        .filter_map(|message| match message {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_hooks_allow_does_not_carry_a_write_across_the_workspace_boundary() {
    let dir = tempfile::TempDir::new().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let root = base.join("ws");
    std::fs::create_dir(&root).unwrap();
    let script = json!({"turns": [
        {"content": "writing", "tool_calls": [
            {"id": "call_1", "name": "Write", "arguments": {"file_path": "../outside.txt", "content": "escaped"}}]},
        {"content": "done"}
    ]});
    let model = ScriptedModel::from_json("script.json", &script.to_string()).unwrap();
    let hooks = HookRegistry::new().pre_tool_use("allow-everything", |_ctx| async move {
        Ok(PreToolUseResult::suggest(
            PermissionEffect::Allow,
            "the hook trusts every call",
        ))
    });
    let permissions = Arc::new(Permissions::default());
    let agent = Agent::builder(Arc::new(model), ToolRegistry::with_builtins().unwrap())
        .workspace(Workspace::new(&root))
        .policy(Arc::new(engine(&root)))
        .hooks(hooks)
        .observer(permissions.clone())
        .build();

    let report = agent.run("write outside", CancellationToken::new()).await;

    let reason = format!(
        "{} is outside the workspace ({})",
        base.join("outside.txt").display(),
        root.display()
    );
    assert_eq!(
        tool_results(&report.history),
        [format!(
            "Error [permission_denied]: the tool was not run: permission denied: {reason}"
        )]
    );
    assert_eq!(
        *permissions.0.lock().unwrap(),
        [PermissionRecord {
            agent_id: None,
            tool: "Write".to_owned(),
            tool_use_id: "call_1".to_owned(),
            host: None,
            effect: PermissionEffect::Deny,
            source: agenthub_protocol::PermissionSource::WorkspaceBoundary,
            rule: None,
            reason,
        }]
    );
    assert!(!base.join("outside.txt").exists());
}
