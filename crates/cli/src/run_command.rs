//! `agenthub run`: builds an agent from the flags and runs one task.

use crate::args::{OutputFormat, RunArgs};
use crate::error::CliError;
use crate::live::LiveOutput;
use crate::model_setup::choose_model;
use crate::output::print_report;
use agenthub_core::{
    Agent, AgentBuilder, AgentEvent, ConsoleObserver, Observer, ObserverError, Observers,
    TranscriptWriter,
};
use agenthub_tools::ToolRegistry;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

pub async fn run(args: RunArgs) -> Result<u8, CliError> {
    let workspace = resolve_workspace(args.workspace.as_deref())?;
    let settings = crate::settings_setup::load(&workspace, args.settings.as_deref())?;
    let model = choose_model(&args, &settings)?;
    let prompt = args
        .prompt
        .clone()
        .or_else(|| args.positional_prompt.clone())
        .or_else(|| model.default_prompt.clone())
        .ok_or_else(|| {
            CliError::Usage("no prompt: pass the task as TEXT or with --prompt".to_owned())
        })?;
    let tools = builtin_tools()?;
    let flags = crate::policy_setup::PermissionFlags {
        allow: &args.allow,
        deny: &args.deny,
        mode: args.permission_mode.as_deref(),
    };
    let policy =
        crate::policy_setup::build_policy(&settings.permissions, flags, &workspace, &tools)?;
    crate::policy_setup::print_warnings(&policy.warnings);
    let session_id = uuid::Uuid::new_v4().to_string();
    let transcript = transcript_path(args.transcript.clone(), &session_id);
    let live = LiveOutput::for_run(model.source, args.output_format);
    let observers = live.around(observers(&transcript, args.output_format)?);
    let agent = Agent::builder(live.model(model.model), tools)
        .workspace(policy.workspace)
        .policy(policy.engine)
        .approver(policy.approver)
        .max_turns(args.max_turns)
        .model_name(model.name.clone())
        .session_id(session_id)
        .transcript_path(transcript.clone())
        .hooks(crate::settings_setup::command_hooks(&settings, &workspace)?)
        .max_stop_continuations(settings.max_stop_continuations.unwrap_or(1))
        .observer(Arc::new(observers));
    let report = run_until_ctrl_c(agent, &prompt).await;
    let shown = live.finish(&report);
    Ok(print_report(
        &report,
        args.output_format,
        &transcript,
        shown,
    ))
}

/// Runs the agent; Ctrl-C cancels the run, which still pairs every pending call.
pub async fn run_until_ctrl_c(agent: AgentBuilder, prompt: &str) -> agenthub_core::RunReport {
    let agent = agent.build();
    let cancel = CancellationToken::new();
    let on_signal = cancel.clone();
    let watcher = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_signal.cancel();
        }
    });
    let report = agent.run(prompt, cancel).await;
    watcher.abort();
    report
}

pub fn resolve_workspace(flag: Option<&Path>) -> Result<PathBuf, CliError> {
    let candidate = match flag {
        Some(path) => path.to_path_buf(),
        None => std::env::current_dir().map_err(|error| {
            CliError::Usage(format!("cannot read the current directory: {error}"))
        })?,
    };
    let resolved = candidate.canonicalize().map_err(|error| {
        CliError::Usage(format!(
            "workspace {} does not exist or cannot be read: {error}",
            candidate.display()
        ))
    })?;
    if !resolved.is_dir() {
        return Err(CliError::Usage(format!(
            "workspace {} is not a directory",
            candidate.display()
        )));
    }
    Ok(resolved)
}

pub fn builtin_tools() -> Result<ToolRegistry, CliError> {
    ToolRegistry::with_builtins().map_err(|error| CliError::Internal(error.to_string()))
}

/// `--transcript`, else `$XDG_STATE_HOME/agenthub/transcripts/<session>.jsonl`
/// (default `~/.local/state/...`).
pub fn transcript_path(flag: Option<PathBuf>, session_id: &str) -> PathBuf {
    if let Some(path) = flag {
        return path;
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir);
    state
        .join("agenthub/transcripts")
        .join(format!("{session_id}.jsonl"))
}

/// The transcript file, the console lines on stderr, and stream-json on stdout.
pub fn observers(transcript: &Path, format: OutputFormat) -> Result<Observers, CliError> {
    let writer = TranscriptWriter::create(transcript).map_err(|error| {
        CliError::Usage(format!(
            "cannot write transcript {}: {error}",
            transcript.display()
        ))
    })?;
    let mut observers = Observers::new()
        .with(Arc::new(writer))
        .with(Arc::new(ConsoleObserver::new(std::io::stderr())));
    if format == OutputFormat::StreamJson {
        observers.push(Arc::new(Display(TranscriptWriter::new(std::io::stdout()))));
    }
    Ok(observers)
}

/// An observer that only shows the run to someone (stdout for stream-json):
/// when nobody reads any more, the run goes on. The transcript file, not the
/// display, is the audit whose failure stops a call.
struct Display<O>(O);

impl<O: Observer> Observer for Display<O> {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        let _ = self.0.on_event(event);
        Ok(())
    }
}
