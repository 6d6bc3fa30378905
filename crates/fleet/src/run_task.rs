//! One task, run as an independent session exactly as `agenthub run` runs
//! one: options → [`Assembly::load`] → MCP servers started in the background
//! while the model is chosen → the session ([`Assembly::session`]), once
//! they are up → its one prompt, ended. The task's `settings` are one more settings
//! layer (as `--settings FILE`), its `script` the scripted model, its `model`
//! the provider's model name.
//!
//! It must never ask a person (an ask is denied, as in `run` without a
//! terminal), never trust the workspace's own configuration except through
//! the runner's `--trust-project` (contract §18), and never end without an
//! outcome: a task that cannot start still gets its result line.

use crate::result_line::{NotStarted, TaskOutcome};
use crate::task::TaskSpec;
use crate::task_settings::{self, WorkerSettings};
use crate::workspace::PreparedWorkspace;
use crate::workspace::{prepare_workspace, WorkspaceError};
use crate::workspace_root::WorkspaceRoot;
use agenthub::crates::settings::Settings;
use agenthub::{
    AgentBuilder, Assembly, CancellationToken, McpConfigSource, ModelOptions, NoTerminalApprover,
    Options, ProviderOptions, RunReport, SessionStart, SetupError, SharedServers, TrustChoice,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use tempfile::NamedTempFile;

/// What the runner, not the task, decides for every task.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskRunOptions {
    /// Trust each workspace's own configuration (`--trust-project`);
    /// otherwise it only restricts, whatever the trust store says.
    pub trust_project: bool,
    /// Keep each git clone after its result is written (`--keep`).
    pub keep: bool,
    /// Let a task's own `settings` widen the worker's (hooks, allow rules,
    /// a less strict mode, …); otherwise a task whose settings hold a key
    /// the table does not accept is refused before its session starts
    /// ([`crate::task_settings`]). The local batch runs the user's own file
    /// and allows; a worker allows only with `--allow-task-settings`
    /// (contract §28).
    pub allow_task_settings: bool,
    /// Where a task's `path` workspace may be: anywhere for the local
    /// batch, inside `--workspace-root` on a worker, whatever
    /// `allow_task_settings` says.
    pub workspace_root: WorkspaceRoot,
    /// MCP servers for every task (`--mcp-config`), as `run` takes them.
    pub mcp_config: Vec<McpConfigSource>,
    /// Only the servers of `mcp_config` (`--strict-mcp-config`): no user,
    /// project or plugin server starts for any task.
    pub strict_mcp_config: bool,
}

/// Runs `task` to its outcome; `cancel` (Ctrl-C) cancels it before or
/// during its session. The outcome holds the task's workspace: drop it after
/// writing its line, which removes a clone unless it is kept.
pub async fn run_task(
    task: &TaskSpec,
    options: &TaskRunOptions,
    cancel: CancellationToken,
) -> TaskOutcome {
    run_task_with(task, options, cancel, &LocalParts).await
}

/// What a runner adds to a task's session beyond the local run's: the fleet
/// worker gives a journal, a durable approver, a fixed session id and a
/// restored workspace. Every default adds nothing.
pub trait SessionParts: Send + Sync {
    /// The session id (default: a new UUID).
    fn session_id(&self) -> Option<String> {
        None
    }

    /// Called once the workspace is ready, before the session is assembled;
    /// an error ends the task as not started (`checkpoint_error`).
    fn workspace_ready<'a>(
        &'a self,
        workspace: &'a PreparedWorkspace,
    ) -> futures::future::BoxFuture<'a, Result<(), crate::worker::CheckpointError>> {
        let _ = workspace;
        Box::pin(async { Ok(()) })
    }

    /// Adds to the task's agent, given its merged settings (default: nothing).
    fn agent(&self, builder: AgentBuilder, settings: &Settings) -> AgentBuilder {
        let _ = settings;
        builder
    }

    /// The MCP servers the task shares with the runner's other tasks: a
    /// server configured the same for them starts once (default: none
    /// shared, each task starts its own).
    fn shared_mcp_servers(&self) -> Option<Arc<SharedServers>> {
        None
    }
}

/// One task's parts: nothing added.
struct LocalParts;

impl SessionParts for LocalParts {}

/// The local batch's parts: its tasks share their MCP servers
/// ([`SharedServers`]), so a user-level server starts once per batch, not
/// once per task, and one that fails to start costs `MCP_TIMEOUT` once.
/// A server's configuration names no task (its working folder is the
/// batch's, its environment the batch's), so a task sees the same server it
/// would have started itself; what differs by task (a workspace's
/// `.mcp.json`, a task's own settings) has another origin and is not shared.
pub(crate) struct BatchParts {
    pub(crate) mcp: Arc<SharedServers>,
}

impl SessionParts for BatchParts {
    fn shared_mcp_servers(&self) -> Option<Arc<SharedServers>> {
        Some(self.mcp.clone())
    }
}

/// [`run_task`] with `parts` added to the session.
pub async fn run_task_with(
    task: &TaskSpec,
    options: &TaskRunOptions,
    cancel: CancellationToken,
    parts: &dyn SessionParts,
) -> TaskOutcome {
    let started = Instant::now();
    let not_started = |why: NotStarted| {
        let elapsed = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        TaskOutcome::not_started(&task.id, why, elapsed)
    };
    if cancel.is_cancelled() {
        return not_started(NotStarted::cancelled());
    }
    let checked = match task_settings::checked_workspace(task, &options.workspace_root) {
        Ok(checked) => checked,
        Err(refusal) => return not_started(NotStarted::failed("settings_error", refusal)),
    };
    let prepared = tokio::select! {
        biased;
        () = cancel.cancelled() => return not_started(NotStarted::cancelled()),
        prepared = prepare_workspace(&checked, &task.id, options.keep) => prepared,
    };
    let workspace = match prepared {
        Ok(workspace) => workspace,
        Err(error) => return not_started(NotStarted::failed(workspace_subtype(&error), error)),
    };
    if let Err(error) = parts.workspace_ready(&workspace).await {
        return not_started(NotStarted::failed("checkpoint_error", error.to_string()));
    }
    match session(task, options, workspace.path(), cancel, parts).await {
        Ok((report, transcript)) => {
            TaskOutcome::ran(&task.id, &report, &transcript, Some(workspace))
        }
        Err(why) => not_started(why),
    }
}

/// The task's session, from its options to its report and transcript path.
async fn session(
    task: &TaskSpec,
    options: &TaskRunOptions,
    workspace: &Path,
    cancel: CancellationToken,
    parts: &dyn SessionParts,
) -> Result<(RunReport, PathBuf), NotStarted> {
    let settings = settings_file(task)?;
    let run_options = Options {
        workspace: Some(workspace.to_path_buf()),
        settings_files: settings
            .iter()
            .map(|file| file.path().to_path_buf())
            .collect(),
        trust: if options.trust_project {
            TrustChoice::ThisRun
        } else {
            TrustChoice::NotThisRun
        },
        mcp_config: options.mcp_config.clone(),
        strict_mcp_config: options.strict_mcp_config,
        ..Options::default()
    };
    let failure = |error: SetupError| setup_failure(error, task, settings.as_ref());
    if !options.allow_task_settings {
        only_restricts(task, &run_options)?;
    }
    let mut assembly = Assembly::load(&run_options).map_err(failure)?;
    if let Some(shared) = parts.shared_mcp_servers() {
        assembly = assembly.share_mcp_servers(shared);
    }
    // The servers start while the model is chosen; the session waits for them.
    let assembly = assembly.begin_mcp_servers().map_err(failure)?;
    let model = assembly
        .choose_model(&model_options(task))
        .map_err(failure)?;
    let assembly = assembly.mcp_servers_ready().await;
    let settings = assembly.configuration().settings().clone();
    let start = SessionStart::New {
        id: parts.session_id(),
        transcript: None,
    };
    let ready = assembly
        .session(model, start)
        .approver(Arc::new(NoTerminalApprover))
        .agent(|builder| parts.agent(builder, &settings))
        .open()
        .map_err(failure)?;
    let report = ready.begin().send_and_end(&task.prompt, cancel).await;
    let transcript = ready.transcript;
    Ok((report, transcript))
}

/// `Err` (`settings_error`) when the task's settings would widen the
/// worker's own: the configuration its session would have in this
/// workspace without them ([`task_settings::check_settings`]).
fn only_restricts(task: &TaskSpec, run_options: &Options) -> Result<(), NotStarted> {
    let Some(settings) = &task.settings else {
        return Ok(());
    };
    let own_options = Options {
        settings_files: Vec::new(),
        ..run_options.clone()
    };
    let own = Assembly::load(&own_options).map_err(|error| setup_failure(error, task, None))?;
    let worker = WorkerSettings::of(
        own.configuration().settings(),
        own.policy().mode(),
        &own.workspace().sandbox(),
    );
    task_settings::check_settings(settings, &worker)
        .map_err(|refusal| NotStarted::failed("settings_error", refusal))
}

/// The task's `settings` as a file, the layer `--settings FILE` would add;
/// removed when dropped (after the session is assembled and has run).
fn settings_file(task: &TaskSpec) -> Result<Option<NamedTempFile>, NotStarted> {
    let Some(settings) = &task.settings else {
        return Ok(None);
    };
    let failed = |error: std::io::Error| {
        NotStarted::failed(
            "settings_error",
            format!("cannot write the task's settings to a file: {error}"),
        )
    };
    let mut file = tempfile::Builder::new()
        .prefix(&format!(
            "agenthub-task-{}-settings-",
            crate::workspace::safe_name(&task.id)
        ))
        .suffix(".json")
        .tempfile()
        .map_err(failed)?;
    file.write_all(settings.to_string().as_bytes())
        .and_then(|()| file.flush())
        .map_err(failed)?;
    Ok(Some(file))
}

fn model_options(task: &TaskSpec) -> ModelOptions {
    match &task.script {
        Some(script) => ModelOptions::Scripted {
            script: script.clone(),
            protocol: Default::default(),
        },
        None => ModelOptions::Provider(ProviderOptions {
            model: task.model.clone(),
            ..ProviderOptions::default()
        }),
    }
}

/// A session that could not be assembled, with the subtype naming why; the
/// task's settings are named as such, not by their temporary file.
fn setup_failure(
    error: SetupError,
    task: &TaskSpec,
    settings: Option<&NamedTempFile>,
) -> NotStarted {
    let subtype = match &error {
        SetupError::Workspace { .. } => "workspace_error",
        SetupError::Settings(_) | SetupError::Policy(_) | SetupError::Hooks(_) => "settings_error",
        SetupError::Script(_) => "script_error",
        SetupError::Provider(_) | SetupError::ProviderName(_) => "model_error",
        _ => "setup_error",
    };
    let mut text = error.to_string();
    if let Some(file) = settings {
        let named = format!("the settings of task \"{}\"", task.id);
        text = text.replace(&file.path().display().to_string(), &named);
    }
    NotStarted::failed(subtype, text)
}

fn workspace_subtype(error: &WorkspaceError) -> &'static str {
    match error {
        WorkspaceError::Folder { .. } => "workspace_error",
        _ => "clone_error",
    }
}
