//! `agenthub run`: flags → library options → the assembled agent, then one
//! task, its live output and its report. The assembly is the library's; a
//! prompt naming a custom command (`/name args`, contract §20) is sent as
//! that command, its `allowed-tools` and `model` applied to this run.

use crate::args::{OutputFormat, RunArgs};
use crate::error::CliError;
use crate::headless::HeadlessHints;
use crate::live::LiveOutput;
use crate::output::print_report;
use crate::signals::SignalWatch;
use agenthub::{
    find_session, latest_session, Assembly, ChosenModel, CommandPrompt, ConsoleObserver,
    ModelOptions, ProviderOptions, ReadySession, RunReport, SessionStart, SessionSummary,
};
use std::path::Path;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

pub async fn run(args: RunArgs) -> Result<u8, CliError> {
    crate::setup::create_missing_workspace(args.workspace.as_deref())?;
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
    let start = match resumed_session(&args, assembly.configuration().workspace())? {
        Some(found) => SessionStart::Resume(Box::new(found)),
        None => SessionStart::New {
            id: None,
            transcript: args.transcript.clone(),
        },
    };
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
    if args.output_format == OutputFormat::StreamJson {
        // stream-json echoes the transcript's own lines, ids included; a
        // reader that went away never stops the run (the file is the audit).
        setup = setup.echo_transcript(Box::new(std::io::stdout()));
    }
    let ready = setup.open()?;
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

/// The session `--resume ID` or `--continue` names, its warnings shown.
pub(crate) fn resumed_session(
    args: &RunArgs,
    workspace: &Path,
) -> Result<Option<SessionSummary>, CliError> {
    let found = match (&args.resume, args.continue_latest) {
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
