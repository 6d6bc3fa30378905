//! `agenthub run`: flags → library options → the assembled agent, then one
//! task, its live output and its report. The assembly is the library's; a
//! prompt naming a custom command (`/name args`, contract §20) is sent as
//! that command, its `allowed-tools` and `model` applied to this run.

use crate::args::claude_flags::InputFormat;
use crate::args::{OutputFormat, RunArgs};
use crate::error::CliError;
use crate::headless::HeadlessHints;
use crate::live::LiveOutput;
use crate::output::print_report;
use crate::signals::SignalWatch;
use crate::stream_json::StreamJson;
use crate::stream_lines::Init;
use agenthub::{
    find_session, latest_session, Assembly, ChosenModel, CommandPrompt, ConsoleObserver,
    ModelOptions, ProviderOptions, ReadySession, RunReport, SessionStart, SessionSummary,
};
use std::path::Path;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

pub async fn run(args: RunArgs) -> Result<u8, CliError> {
    if args.claude.input_format == InputFormat::StreamJson {
        return crate::sdk::run(args).await;
    }
    let options = crate::setup::run_options(&args)?;
    // The MCP servers start in the background while the model is chosen and
    // the prompt read (stdin, perhaps); the session waits for them below,
    // before its agent is built. Their warnings follow the others.
    let assembly = Assembly::load(&options)?.begin_mcp_servers()?;
    crate::setup::print_warnings(&assembly);
    let model_options = crate::setup::model_options(&args);
    let model = assembly.choose_model(&model_options)?;
    let given = args.prompt.as_deref().or(args.positional_prompt.as_deref());
    let prompt = crate::prompt::resolve(given, &model)?;
    let assembly = assembly.mcp_servers_ready().await;
    crate::setup::print_warning_list(assembly.mcp_warnings());
    let (prompt, assembly, model) = match assembly.commands().expand(&prompt) {
        Some(expansion) => {
            let mut assembly = assembly;
            // Rules that do not parse were named among the start-up
            // warnings (file and rule); the prompt then runs without them.
            let _ = assembly.allow_also(&expansion.file, &expansion.allowed_tools);
            let model = match command_model(&model_options, expansion.model) {
                Some(options) => assembly.choose_model(&options)?,
                None => model,
            };
            (Sent::Command(expansion.prompt), assembly, model)
        }
        None => (Sent::Typed(prompt), assembly, model),
    };
    refuse_too_large(&prompt, &assembly, &model)?;
    let start = match resumed_session(&args, assembly.configuration().workspace())? {
        Some(found) => SessionStart::Resume(Box::new(found)),
        None => SessionStart::New {
            id: new_session_id(&args)?,
            transcript: args.transcript.clone(),
        },
    };
    let stream = (args.output_format == OutputFormat::StreamJson).then(|| {
        let init = Init::before_open(&assembly, &model.name);
        let writer = StreamJson::new(
            std::io::stdout(),
            &model.name,
            args.include_partial_messages,
        );
        (Arc::new(writer), init)
    });
    let live = LiveOutput::for_run(model.source, args.output_format);
    let approver = crate::approver::approver_for(assembly.workspace());
    let model = ChosenModel {
        model: live.model(model.model.clone()),
        ..model
    };
    let mut setup = assembly
        .session(model, start)
        .approver(approver)
        .max_turns(args.max_turns)
        .observer(Arc::new(ConsoleObserver::new(crate::terminal::stderr())))
        .observer(Arc::new(HeadlessHints::new(crate::terminal::stderr())));
    if let Some(text) = live.text_observer() {
        setup = setup.observer_first(text);
    }
    if let Some((writer, _)) = &stream {
        setup = setup.observer(writer.clone());
    }
    let ready = setup.open()?;
    if let Some((writer, init)) = stream {
        writer.init(&init.opened(&ready.agent));
    }
    let (report, signals) = run_until_signal(&ready, &prompt).await;
    let transcript = ready.transcript;
    let shown = live.finish(&report);
    let status = print_report(&report, args.output_format, &transcript, shown);
    Ok(signals.exit_code(status))
}

/// What `run` sends: the prompt as typed, or the custom command it names.
pub enum Sent {
    /// A plain prompt.
    Typed(String),
    /// A prompt naming a custom command, expanded.
    Command(CommandPrompt),
}

/// The model options for a command whose front matter names `model`: the
/// provider's, with that model unless `--model` chose one. `None` keeps the
/// run's model (a script, or no `model` key).
fn command_model(options: &ModelOptions, model: Option<String>) -> Option<ModelOptions> {
    match (options, model) {
        (ModelOptions::Provider(provider), Some(model)) if provider.model.is_none() => {
            Some(ModelOptions::Provider(ProviderOptions {
                model: Some(model),
                ..provider.clone()
            }))
        }
        _ => None,
    }
}

/// A prompt larger than the model's context window is a usage error
/// before any session opens (§29): never sent, never compacted.
fn refuse_too_large(sent: &Sent, assembly: &Assembly, model: &ChosenModel) -> Result<(), CliError> {
    let text = match sent {
        Sent::Typed(text) => text.as_str(),
        Sent::Command(command) => command.expanded.as_str(),
    };
    assembly
        .context_budget(model)
        .check_prompt(text)
        .map_err(|too_large| CliError::Usage(too_large.to_string()))
}

/// `--session-id UUID`: the new session's id, refused when a session of
/// that id exists (its transcript is never overwritten).
pub(crate) fn new_session_id(args: &RunArgs) -> Result<Option<String>, CliError> {
    let Some(id) = &args.claude.session_id else {
        return Ok(None);
    };
    let taken = agenthub::transcripts_dir().join(format!("{id}.jsonl"));
    match taken.exists() {
        true => Err(CliError::Usage(format!(
            "--session-id {id}: a session of that id exists ({}); use --resume {id} to continue it",
            taken.display()
        ))),
        false => Ok(Some(id.clone())),
    }
}

/// The session `--resume ID` or `--continue` names, its warnings shown.
pub(crate) fn resumed_session(
    args: &RunArgs,
    workspace: &Path,
) -> Result<Option<SessionSummary>, CliError> {
    let found = match (&args.resume, args.continue_latest) {
        (Some(id), _) if id.is_empty() => return Err(CliError::Usage(pick_a_session(workspace))),
        (Some(id), _) => find_session(workspace, id),
        (None, true) => latest_session(workspace),
        (None, false) if args.fork_session => {
            return Err(CliError::Usage(
                "--fork-session goes with --resume ID or --continue".to_owned(),
            ))
        }
        (None, false) => return Ok(None),
    }
    .map_err(|error| CliError::Usage(error.to_string()))?;
    for warning in &found.saved.warnings {
        crate::terminal::eprintln_neutral!("agenthub: warning: {warning}");
    }
    match args.fork_session {
        true => agenthub::fork_session(&found)
            .map(Some)
            .map_err(|error| CliError::Usage(error.to_string())),
        false => Ok(Some(found)),
    }
}

/// `--resume` without an ID where nobody can pick: the sessions to choose from.
fn pick_a_session(workspace: &Path) -> String {
    let sessions = agenthub::list_sessions(workspace);
    if sessions.is_empty() {
        return format!(
            "--resume needs a session ID; {} has no sessions",
            workspace.display()
        );
    }
    let ids: Vec<&str> = sessions
        .iter()
        .take(10)
        .map(|session| session.saved.record.session_id.as_str())
        .collect();
    format!(
        "--resume needs a session ID here; the latest of this workspace: {} (see `agenthub sessions list`, or use --continue)",
        ids.join(", ")
    )
}

/// Runs the session's next prompt; Ctrl-C, SIGTERM and SIGHUP cancel the
/// run, which still pairs every pending call. The watch says which signal,
/// if any, stopped it.
pub async fn run_until_signal(ready: &ReadySession, prompt: &Sent) -> (RunReport, SignalWatch) {
    let session = ready.begin();
    let cancel = CancellationToken::new();
    let watch = SignalWatch::start(cancel.clone());
    let report = match prompt {
        Sent::Typed(prompt) => session.send_and_end(prompt, cancel).await,
        Sent::Command(command) => session.send_command_and_end(command, cancel).await,
    };
    (report, watch)
}
