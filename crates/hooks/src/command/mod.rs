//! The Claude Code adapter. Command hooks: external programs speaking Claude
//! Code's hook protocol (docs/hooks.md), registered as ordinary
//! [`HookEntry`](crate::HookEntry)s so that every rule of contract §3 holds
//! for them exactly as for in-process hooks. Generic over the event: what
//! is particular to one event (its stdin fields, its output contract, its
//! matcher subject) is in that event's module, so nothing here names an event
//! except the one table in `entries.rs` that maps a settings key to its module.
//!
//! A command hook's handler builds the event's stdin JSON ([`payload`]), runs
//! the program ([`runner`]) — or, for the other handler types, POSTs it
//! (`http`), asks the model (`prompt`), calls an MCP tool (`mcp`) or the
//! application's own callback (`callback`), each answer read as a run —
//! reads its exit code and stdout (`wire`) and turns them into the event's typed result or a [`HookError`](crate::HookError) (`interpret`).
//! It never decides anything the engine decides: merging, short circuits and
//! failure policies stay in `engine`.

mod agent;
mod callback;
pub(crate) mod decision;
mod entries;
mod env_file;
pub mod http;
pub(crate) mod interpret;
pub mod journal;
mod mcp;
pub mod payload;
mod plugin_env;
mod prompt;
pub mod runner;
mod services;
pub(crate) mod wire;

pub use callback::{HookCallbackCaller, HookCallbackError};
pub use entries::{CommandHookError, CommandHooks};
pub use interpret::MODEL_TEXT_CAP;
pub use mcp::{McpHookCallError, McpToolCaller};
pub use plugin_env::{plugin_data_dir, plugin_variables, shell_inert, substitute_variables};
pub use runner::{Invocation, Program, RawRun, RunEnd, Stream, OUTPUT_CAP_BYTES};
pub use services::HookServices;
pub(crate) use wire::ReadAs;

use crate::HookCommon;
use agenthub_settings::CommandHookConfig;
use agenthub_tools::PreparedCall;
use serde_json::Value;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

/// A hook's compiled `if` condition: whether it selects one call.
pub trait CallCondition: Send + Sync {
    /// Whether the hook runs for `call` (relative paths in the rule and the
    /// call are read against `workspace`).
    fn matches(&self, call: &PreparedCall, workspace: &Path) -> bool;
}

/// Compiles `if` conditions (Claude Code permission rules such as
/// `Bash(git *)`). The permission engine knows the rule syntax, so the
/// application that has one provides this; the hooks crate never parses rules.
pub trait ConditionCompiler: Send + Sync {
    /// `source` is the settings file the rule is written in (path anchors);
    /// `Err` is the rule syntax's own error (the permission engine's).
    fn compile(&self, rule: &str, source: &Path) -> Result<Arc<dyn CallCondition>, ConditionError>;
}

/// Why an `if` condition does not compile: the error of whoever knows the
/// rule syntax (the hooks crate never parses rules, so it cannot name the type).
pub type ConditionError = Box<dyn std::error::Error + Send + Sync>;

/// What one command hook run looked like, for people who write hooks
/// (`agenthub hooks test`): the raw run and what AgentHub made of it.
#[derive(Debug, Clone)]
pub struct CommandRunReport {
    /// The hook as configured (command, timeout, source file).
    pub hook: Arc<CommandHookConfig>,
    /// How the program ended and what it printed.
    pub run: RawRun,
    /// `None` when the output was accepted; else why not.
    pub error: Option<String>,
}

/// Collects a [`CommandRunReport`] per command hook run, in run order.
#[derive(Debug, Clone, Default)]
pub struct RunLog(Arc<Mutex<Vec<CommandRunReport>>>);

impl RunLog {
    /// Appends one run's report; every clone of the log sees it.
    pub fn push(&self, report: CommandRunReport) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(report);
    }

    /// Every report so far, in run order.
    pub fn reports(&self) -> Vec<CommandRunReport> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// One configured hook (any handler type), ready to run.
#[derive(Clone)]
pub(crate) struct CommandHook {
    config: Arc<CommandHookConfig>,
    log: Option<RunLog>,
    services: HookServices,
}

impl CommandHook {
    /// Runs the hook once on `payload`, whatever its handler type; the
    /// answer is read as a run (exit code, stdout, stderr). `tool_use_id`
    /// is the id of the call the event is about, on tool events (a
    /// callback is told it).
    pub(crate) async fn invoke(
        &self,
        common: &HookCommon,
        payload: &Value,
        tool_use_id: Option<&str>,
    ) -> RawRun {
        let name = format!("hook {:?}", self.config.event);
        let run =
            journal::journaled(&name, self.invoke_directly(common, payload, tool_use_id)).await;
        crate::engine::exit_code::report(run.end.code());
        run
    }

    /// Runs the hook's handler itself (no journal).
    async fn invoke_directly(
        &self,
        common: &HookCommon,
        payload: &Value,
        tool_use_id: Option<&str>,
    ) -> RawRun {
        use agenthub_settings::HookHandler;
        match &self.config.handler {
            HookHandler::Command => {
                let mut invocation = invocation(&self.config, common, payload);
                invocation.env.extend(self.services.env.iter().cloned());
                let env_file = self.env_file();
                if let Some(file) = &env_file {
                    invocation
                        .env
                        .push(("CLAUDE_ENV_FILE".to_owned(), file.display().to_string()));
                }
                let run = runner::run(invocation).await;
                if let Some(file) = &env_file {
                    env_file::apply(file, &self.services.process_env);
                }
                run
            }
            HookHandler::Http(hook) => {
                http::post(
                    hook,
                    payload,
                    self.config.timeout,
                    &self.services.env,
                    &common.cancel,
                )
                .await
            }
            HookHandler::Prompt { prompt, model } => {
                prompt::ask(
                    &self.services,
                    prompt,
                    model.as_deref(),
                    payload,
                    self.config.timeout,
                    &common.cancel,
                )
                .await
            }
            HookHandler::Agent { prompt, .. } => {
                let request = agent::AgentRequest {
                    prompt,
                    payload,
                    workspace: &common.workspace,
                    timeout: self.config.timeout,
                    cancel: &common.cancel,
                };
                agent::ask(&self.services, request).await
            }
            HookHandler::McpTool {
                server,
                tool,
                input,
            } => {
                mcp::call(
                    &self.services,
                    server,
                    tool,
                    input,
                    payload,
                    self.config.timeout,
                )
                .await
            }
            HookHandler::Callback { id } => {
                let request = callback::CallbackRequest {
                    id,
                    input: payload,
                    tool_use_id,
                    timeout: self.config.timeout,
                    cancel: &common.cancel,
                };
                callback::call(&self.services, request).await
            }
        }
    }

    /// `CLAUDE_ENV_FILE` for a SessionStart command hook: the session's
    /// private file. When it cannot be made the hook runs without one.
    fn env_file(&self) -> Option<std::path::PathBuf> {
        (self.config.event == agenthub_settings::HookEvent::SessionStart)
            .then(|| self.services.process_env.env_file().ok())
            .flatten()
    }

    pub(crate) fn report<R>(&self, run: RawRun, result: &Result<R, crate::HookError>) {
        if let Some(log) = &self.log {
            log.push(CommandRunReport {
                hook: self.config.clone(),
                run,
                error: result.as_ref().err().map(ToString::to_string),
            });
        }
    }
}

/// The program, environment and stdin of one run of `config`. In shell form
/// the project folder (and a plugin's `CLAUDE_PLUGIN_ROOT` and
/// `CLAUDE_PLUGIN_DATA`) reach the command only in its environment: pasting
/// them into the text would run a folder named `x$(id)`. In exec form
/// (`args`) they are substituted, each word one argument, without a shell.
pub fn invocation(config: &CommandHookConfig, common: &HookCommon, payload: &Value) -> Invocation {
    let project = common.workspace.display().to_string();
    let plugin_vars = config
        .plugin
        .as_ref()
        .map(plugin_variables)
        .unwrap_or_default();
    let exec_word = |word: &str| substitute_variables(&substitute(word, &project), &plugin_vars);
    let program = match &config.args {
        None => Program::Shell(config.command.clone()),
        Some(args) => Program::Exec {
            program: exec_word(&config.command),
            args: args.iter().map(|arg| exec_word(arg)).collect(),
        },
    };
    let mut env = environment(&common.workspace, &common.session_id);
    env.extend(plugin_vars);
    Invocation {
        program,
        cwd: common.workspace.clone(),
        env,
        stdin: payload.to_string().into_bytes(),
        timeout: config.timeout,
        cancel: common.cancel.clone(),
    }
}

/// The variables every hook gets besides AgentHub's own environment.
pub fn environment(workspace: &Path, session_id: &str) -> Vec<(String, String)> {
    let project = workspace.display().to_string();
    vec![
        ("AGENTHUB_PROJECT_DIR".to_owned(), project.clone()),
        ("CLAUDE_PROJECT_DIR".to_owned(), project),
        ("AGENTHUB_SESSION_ID".to_owned(), session_id.to_owned()),
        ("CLAUDE_CODE_SESSION_ID".to_owned(), session_id.to_owned()),
    ]
}

/// Replaces `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PROJECT_DIR}` (and the
/// `AGENTHUB_PROJECT_DIR` spellings) with the workspace root. `$NAME` is only
/// replaced when no further identifier character follows it.
pub fn substitute(text: &str, project: &str) -> String {
    let mut out = text.to_owned();
    for name in ["CLAUDE_PROJECT_DIR", "AGENTHUB_PROJECT_DIR"] {
        out = out.replace(&format!("${{{name}}}"), project);
        out = replace_bare(&out, &format!("${name}"), project);
    }
    out
}

fn replace_bare(text: &str, needle: &str, value: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(position) = rest.find(needle) {
        let after = &rest[position + needle.len()..];
        let continues = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        out.push_str(&rest[..position]);
        out.push_str(if continues { needle } else { value });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_placeholder_spellings_are_replaced_by_the_workspace() {
        assert_eq!(
            substitute("$CLAUDE_PROJECT_DIR/a ${CLAUDE_PROJECT_DIR}/b", "/w"),
            "/w/a /w/b"
        );
    }

    #[test]
    fn a_longer_variable_name_is_left_alone() {
        assert_eq!(
            substitute("$CLAUDE_PROJECT_DIRS/x", "/w"),
            "$CLAUDE_PROJECT_DIRS/x"
        );
    }

    #[test]
    fn agenthub_spelling_is_replaced_too() {
        assert_eq!(
            substitute("\"$AGENTHUB_PROJECT_DIR\"/h.sh", "/w"),
            "\"/w\"/h.sh"
        );
    }
}
