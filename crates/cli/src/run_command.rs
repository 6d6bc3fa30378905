//! `agenthub run`: flags → library options → the assembled agent, then one
//! task, its live output and its report. The assembly is the library's.

use crate::args::{OutputFormat, RunArgs};
use crate::error::CliError;
use crate::headless::HeadlessHints;
use crate::live::LiveOutput;
use crate::output::print_report;
use agenthub::{
    open_transcript, transcript_path, AgentBuilder, AgentEvent, Assembly, ChosenModel,
    ConsoleObserver, Observer, ObserverError, Observers, PermissionOptions, RunReport,
    TranscriptWriter,
};
use std::path::Path;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

pub async fn run(args: RunArgs) -> Result<u8, CliError> {
    let options = crate::setup::options(
        args.workspace.clone(),
        args.settings.clone(),
        PermissionOptions {
            allow: args.allow.clone(),
            deny: args.deny.clone(),
            mode: args.permission_mode.clone(),
        },
        args.trust,
    );
    let assembly = Assembly::load(&options)?;
    crate::setup::print_warnings(&assembly);
    let model = assembly.choose_model(&crate::setup::model_options(&args))?;
    let prompt = args
        .prompt
        .clone()
        .or_else(|| args.positional_prompt.clone())
        .or_else(|| model.default_prompt.clone())
        .ok_or_else(|| {
            CliError::Usage("no prompt: pass the task as TEXT or with --prompt".to_owned())
        })?;
    let session_id = uuid::Uuid::new_v4().to_string();
    let transcript = transcript_path(args.transcript.clone(), &session_id);
    let live = LiveOutput::for_run(model.source, args.output_format);
    let observers = live.around(observers(&transcript, args.output_format)?);
    let approver = crate::approver::approver_for(assembly.workspace());
    let model = ChosenModel {
        model: live.model(model.model.clone()),
        ..model
    };
    let agent = assembly
        .agent(model)
        .approver(approver)
        .max_turns(args.max_turns)
        .session_id(session_id)
        .transcript_path(transcript.clone())
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
pub async fn run_until_ctrl_c(agent: AgentBuilder, prompt: &str) -> RunReport {
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

/// The transcript file, the console lines and headless hints on stderr, and
/// stream-json on stdout.
pub fn observers(transcript: &Path, format: OutputFormat) -> Result<Observers, CliError> {
    let mut observers = Observers::new()
        .with(Arc::new(open_transcript(transcript)?))
        .with(Arc::new(ConsoleObserver::new(std::io::stderr())))
        .with(Arc::new(HeadlessHints::new(std::io::stderr())));
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
