//! A recorded session and the configurations it is replayed under: the
//! policy engine with `--allow`/`--deny` rules and a mode, command hooks
//! from real scripts, the built-in tools.

use agenthub_core::{Agent, TranscriptWriter};
use agenthub_hooks::{CommandHooks, HookRegistry};
use agenthub_model::ScriptedModel;
use agenthub_policy::rule::path::PathAnchors;
use agenthub_policy::rule::{parse_rule, RuleContext};
use agenthub_policy::{PermissionMode, PolicyConfig, PolicyEngine, RuleList, RuleOrigin};
use agenthub_protocol::{PermissionEffect, RunStatus, ToolCall};
use agenthub_replay::{read_recorded_session, Configuration, Decided, RecordedSession, Unprepared};
use agenthub_settings::{CommandHookConfig, FailurePolicy, HookEvent, HookHandler, Matcher};
use agenthub_tools::{PreparedCall, Rejection, ToolRegistry, Workspace};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// A workspace, a folder for scripts beside it, and a transcript.
pub struct Place {
    pub dir: tempfile::TempDir,
    pub ws: PathBuf,
    pub transcript: PathBuf,
}

impl Place {
    pub fn new() -> Place {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        std::fs::create_dir(&ws).unwrap();
        let ws = ws.canonicalize().unwrap();
        let transcript = dir.path().join("session.jsonl");
        Place {
            dir,
            ws,
            transcript,
        }
    }

    /// Writes an executable script `name` beside the workspace; its path.
    pub fn script(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// The configuration `policy` and `hooks` make in this workspace.
    pub fn configuration(&self, policy: PolicyEngine, hooks: HookRegistry) -> Config {
        Config {
            workspace: Workspace::new(self.ws.clone()),
            policy,
            hooks,
            tools: ToolRegistry::with_builtins().unwrap(),
        }
    }

    /// Runs one prompt whose message makes `calls` under `configuration`
    /// (no one answers an ask) and reads the session back.
    pub async fn record(&self, configuration: Config, calls: Value) -> RecordedSession {
        let script = serde_json::json!({"turns": [{"tool_calls": calls}, {"content": "done"}]});
        let model = ScriptedModel::from_json("script", &script.to_string()).unwrap();
        let agent = Agent::builder(Arc::new(model), configuration.tools)
            .workspace(configuration.workspace)
            .policy(Arc::new(configuration.policy))
            .hooks(configuration.hooks)
            .transcript_path(self.transcript.clone())
            .observer(Arc::new(
                TranscriptWriter::create(&self.transcript).unwrap(),
            ))
            .build();
        let report = agent.run("tidy up", CancellationToken::new()).await;
        assert_eq!(report.status, RunStatus::Completed);
        read_recorded_session(&self.transcript).unwrap()
    }
}

/// The policy engine of `mode` with `(list, rule)` rules given on the
/// command line.
pub fn policy(ws: &Path, mode: PermissionMode, rules: &[(RuleList, &str)]) -> PolicyEngine {
    let anchors = PathAnchors {
        workspace: ws.to_path_buf(),
        settings_root: ws.to_path_buf(),
        home: None,
    };
    let rules = rules
        .iter()
        .map(|(list, text)| {
            let context = RuleContext {
                list: *list,
                anchors: &anchors,
                extra_tools: &[],
            };
            parse_rule(text, RuleOrigin::CommandLine, context).unwrap()
        })
        .collect();
    let config = PolicyConfig {
        rules,
        mode,
        ..PolicyConfig::default()
    };
    PolicyEngine::new(config, None)
}

/// One PreToolUse command hook on `matcher`, running `script`.
pub fn pre_tool_use_hook(matcher: &str, script: &Path) -> HookRegistry {
    let config = CommandHookConfig {
        event: HookEvent::PreToolUse,
        matcher: Matcher::parse(Some(matcher)).unwrap(),
        command: script.display().to_string(),
        args: None,
        condition: None,
        timeout: Duration::from_secs(60),
        on_failure: FailurePolicy::Block,
        on_failure_given: false,
        handler: HookHandler::Command,
        run_async: false,
        once: false,
        source: script.with_file_name("settings.json"),
        index: 0,
        json_path: "hooks.PreToolUse[0].hooks[0]".into(),
        plugin: None,
    };
    CommandHooks::new(vec![config]).into_registry().unwrap()
}

/// A configuration replay decides under: the pieces a run is built from.
pub struct Config {
    pub workspace: Workspace,
    pub policy: PolicyEngine,
    pub hooks: HookRegistry,
    pub tools: ToolRegistry,
}

impl Configuration for Config {
    fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    fn policy(&self) -> &PolicyEngine {
        &self.policy
    }

    fn hooks(&self) -> HookRegistry {
        self.hooks.clone()
    }

    fn prepare(&self, id: &str, tool: &str, input: &Value) -> Result<PreparedCall, Unprepared> {
        if self.tools.get(tool).is_none() {
            return Err(Unprepared::UnknownTool);
        }
        let call = ToolCall::new(id, tool, input.to_string());
        self.tools
            .prepare(&call)
            .map_err(|rejection: Rejection| Unprepared::Refused(rejection.to_string()))
    }
}

/// A decision with no answer to an ask.
pub fn decided(effect: PermissionEffect, by: &str) -> Decided {
    Decided {
        effect,
        by: by.to_owned(),
        approval: None,
    }
}
