//! A temporary case for command hook tests: `<tmp>/ws` is the workspace (its
//! hooks in `.agenthub/hooks/`, its settings in `.agenthub/settings.json`),
//! the transcript path beside it. Settings entries are read by the settings
//! crate and registered by [`CommandHooks`], as an application does; each
//! test then fires one event through the registry's `run_<event>`.

#![allow(dead_code)]

use agenthub_hooks::{CommandHooks, HookCommon, HookRegistry, HookServices, PreToolUseVerdict};
use agenthub_protocol::HookRecord;
use agenthub_settings::CommandHookConfig;
use agenthub_tools::{PreparedCall, Tool, ToolDefinition};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The session id every case's hooks are told.
pub const SESSION: &str = "session-1";

pub struct Case {
    dir: tempfile::TempDir,
    pub workspace: PathBuf,
}

impl Case {
    pub fn new() -> Case {
        let dir = tempfile::tempdir().unwrap();
        let workspace = dir.path().join("ws");
        std::fs::create_dir_all(workspace.join(".agenthub/hooks")).unwrap();
        let workspace = workspace.canonicalize().unwrap();
        Case { dir, workspace }
    }

    pub fn path(&self, rel: &str) -> String {
        self.workspace.join(rel).display().to_string()
    }

    pub fn outside(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, content: &str) {
        let path = self.workspace.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.workspace.join(rel)).unwrap()
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.workspace.join(rel).exists()
    }

    /// Writes `.agenthub/hooks/<name>` (a `#!/bin/sh` script, executable) and
    /// returns the command that runs it.
    pub fn hook(&self, name: &str, body: &str) -> String {
        let rel = format!(".agenthub/hooks/{name}");
        self.write(&rel, &format!("#!/bin/sh\n{body}\n"));
        chmod_x(&self.workspace.join(&rel));
        format!("./{rel}")
    }

    /// `.agenthub/settings.json`, where every case's hooks are written.
    pub fn settings_file(&self) -> PathBuf {
        self.workspace.join(".agenthub/settings.json")
    }

    /// The validated entries of `hooks` as the settings file would hold them.
    pub fn configs(&self, hooks: &[(&str, Option<&str>, Value)]) -> Vec<CommandHookConfig> {
        configs_in(&self.settings_file(), hooks)
    }

    /// A registry of `hooks`, one matcher group each, in this order.
    pub fn registry(&self, hooks: &[(&str, Option<&str>, Value)]) -> HookRegistry {
        CommandHooks::new(self.configs(hooks))
            .into_registry()
            .unwrap()
    }

    /// As [`Case::registry`], with the application's services.
    pub fn registry_with(
        &self,
        hooks: &[(&str, Option<&str>, Value)],
        services: HookServices,
    ) -> HookRegistry {
        CommandHooks::new(self.configs(hooks))
            .with_services(services)
            .into_registry()
            .unwrap()
    }

    pub fn transcript_path(&self) -> PathBuf {
        self.outside("t.jsonl")
    }

    /// The fields every event carries: session `SESSION` in this workspace.
    pub fn common(&self) -> HookCommon {
        HookCommon {
            session_id: SESSION.to_owned(),
            workspace: self.workspace.clone(),
            transcript_path: Some(self.transcript_path()),
            permission_mode: agenthub_protocol::PermissionMode::Default,
            cancel: CancellationToken::new(),
            agent: None,
        }
    }

    /// Waits for a file a hook writes, and returns it.
    pub fn wait_for(&self, rel: &str) -> String {
        for _ in 0..300 {
            if let Ok(text) = std::fs::read_to_string(self.workspace.join(rel)) {
                if !text.trim().is_empty() {
                    return text;
                }
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("{rel} never appeared")
    }

    /// A JSON file a hook saved, read back.
    pub fn saved(&self, rel: &str) -> Value {
        serde_json::from_str(&self.read(rel)).unwrap()
    }
}

pub fn chmod_x(path: &Path) {
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(path)
        .status()
        .unwrap();
}

/// The validated entries of `hooks`, read as written in the file `source`.
pub fn configs_in(source: &Path, hooks: &[(&str, Option<&str>, Value)]) -> Vec<CommandHookConfig> {
    let settings = settings_with(hooks);
    agenthub_settings::parse_hooks_value(source, settings["hooks"].clone()).unwrap()
}

/// A settings object with one matcher group per hook.
pub fn settings_with(hooks: &[(&str, Option<&str>, Value)]) -> Value {
    let mut events = serde_json::Map::new();
    for (event, matcher, hook) in hooks {
        let mut group = json!({"hooks": [hook]});
        if let Some(matcher) = matcher {
            group["matcher"] = json!(matcher);
        }
        events
            .entry(event.to_string())
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .unwrap()
            .push(group);
    }
    json!({ "hooks": events })
}

/// `{"type": "command", "command": command}`.
pub fn command(command: &str) -> Value {
    json!({"type": "command", "command": command})
}

/// A call of built-in `tool` as the tool registry would prepare it (paths
/// already absolute: resolving them is the registry's, not the hooks').
pub fn call<T: Tool>(tool: T, id: &str, name: &str, input: Value) -> PreparedCall {
    let definition = Arc::new(ToolDefinition::new(tool).unwrap());
    PreparedCall::from_parts(id, name, definition, input)
}

/// `Echo {"text": text}` as `call_1`.
pub fn echo(text: &str) -> PreparedCall {
    call(
        agenthub_tools::builtin::Echo,
        "call_1",
        "Echo",
        json!({"text": text}),
    )
}

/// A PreToolUse verdict as one comparable value: its kind with its text
/// (`proceed` with the call's input), the permission suggestion and the context.
pub fn pre_tool_use(verdict: &PreToolUseVerdict) -> Value {
    match verdict {
        PreToolUseVerdict::Proceed {
            call,
            suggestion,
            context,
        } => json!({"proceed": call.input(), "suggestion": suggestion, "context": context}),
        PreToolUseVerdict::Blocked { reason, context } => {
            json!({"blocked": reason, "context": context})
        }
        PreToolUseVerdict::Stopped { reason, context } => {
            json!({"stopped": reason, "context": context})
        }
        PreToolUseVerdict::ContractError { message, context } => {
            json!({"contract_error": message, "context": context})
        }
        PreToolUseVerdict::ExecutionError { message, context } => {
            json!({"execution_error": message, "context": context})
        }
    }
}

/// The verdict of a PreToolUse call that goes on unchanged, with no suggestion.
pub fn proceeds(text: &str) -> Value {
    json!({"proceed": {"text": text}, "suggestion": null, "context": []})
}

/// The records as the transcript writes them, without their timing.
pub fn records(records: &[HookRecord]) -> Vec<Value> {
    records
        .iter()
        .map(|record| {
            let mut value = serde_json::to_value(record).unwrap();
            value.as_object_mut().unwrap().remove("elapsed_ms");
            value
        })
        .collect()
}

/// Whether process `pid` is still alive (zombies count as dead).
pub fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())) {
        Ok(stat) => !stat.contains(") Z "),
        Err(_) => false,
    }
}

impl Case {
    /// Fires PreToolUse for `call`.
    pub async fn pre_tool_use(
        &self,
        registry: &HookRegistry,
        call: PreparedCall,
    ) -> agenthub_hooks::HookRun<PreToolUseVerdict> {
        registry.run_pre_tool_use(self.common(), call).await
    }

    /// Fires UserPromptSubmit for the prompt `PROMPT`.
    pub async fn user_prompt_submit(
        &self,
        registry: &HookRegistry,
    ) -> agenthub_hooks::HookRun<agenthub_hooks::UserPromptSubmitVerdict> {
        let context = agenthub_hooks::UserPromptSubmitContext {
            common: self.common(),
            prompt: PROMPT.to_owned(),
        };
        registry.run_user_prompt_submit(context).await
    }

    /// Fires SessionStart for a new session of model `scripted`.
    pub async fn session_start(
        &self,
        registry: &HookRegistry,
    ) -> agenthub_hooks::HookRun<agenthub_hooks::SessionStartVerdict> {
        let context = agenthub_hooks::SessionStartContext {
            common: self.common(),
            source: agenthub_hooks::SessionSource::Startup,
            model: Some("scripted".to_owned()),
        };
        registry.run_session_start(context).await
    }

    /// Fires Stop on the candidate `answer` (`active`: the run already
    /// continues because of a Stop hook); a forced continuation is allowed.
    pub async fn stop(
        &self,
        registry: &HookRegistry,
        answer: &str,
        active: bool,
    ) -> agenthub_hooks::HookRun<agenthub_hooks::StopVerdict> {
        let context = agenthub_hooks::StopContext {
            common: self.common(),
            history: Arc::from(Vec::new()),
            last_assistant_message: answer.to_owned(),
            stop_hook_active: active,
        };
        registry.run_stop(context, true).await
    }

    /// Fires PostToolUse for `call`, which returned `outcome`.
    pub async fn post_tool_use(
        &self,
        registry: &HookRegistry,
        call: PreparedCall,
        outcome: agenthub_hooks::ToolOutcome,
    ) -> agenthub_hooks::HookRun<agenthub_hooks::PostToolUseVerdict> {
        registry
            .run_post_tool_use(self.common(), call, outcome)
            .await
    }
}

/// The prompt of every case.
pub const PROMPT: &str = "do the task";

/// Echo's result for `text`: the text itself and Echo's structured value.
pub fn echoed(text: &str) -> agenthub_hooks::ToolOutcome {
    agenthub_hooks::ToolOutcome::succeeded(
        text.to_owned(),
        Some(json!({"text": text})),
        Duration::from_millis(1),
    )
}

/// A Read of a missing file, and its failure.
pub fn failed_read(case: &Case) -> (PreparedCall, agenthub_hooks::ToolOutcome) {
    let read = call(
        agenthub_tools::builtin::Read,
        "call_1",
        "Read",
        json!({"file_path": case.path("missing.txt")}),
    );
    let error =
        agenthub_tools::ToolError::new(format!("{} does not exist", case.path("missing.txt")));
    (
        read,
        agenthub_hooks::ToolOutcome::failed(error, Duration::from_millis(1)),
    )
}
