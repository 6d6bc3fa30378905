//! A session: a conversation that lasts (contract §12). Many prompts, one
//! history, one transcript; each prompt is one run of the loop over the
//! history so far. `Agent::run` is a session with one prompt.
//!
//! A session knows its history and when its SessionStart and SessionEnd hooks
//! are due; it never prints and knows nothing of the transcript's file format
//! (resuming one is the transcript module's reading, handed in as a history).

use crate::run::{Ending, Run};
use crate::{Agent, AgentEvent, CommandPrompt, CompactionError, RunReport};
use agenthub_hooks::{NotificationContext, SessionEndReason, SessionSource};
use agenthub_protocol::{CompactionRecord, CompactionTrigger, Message, RunStatus, SessionRecord};
use tokio_util::sync::CancellationToken;

/// A conversation with one agent: `send` a prompt, get its report, send the
/// next one with the history kept.
///
/// ```
/// use agenthub_core::{Agent, Session};
/// use agenthub_model::{ScriptedModel, ScriptedTurn};
/// use agenthub_tools::ToolRegistry;
/// use tokio_util::sync::CancellationToken;
/// use std::sync::Arc;
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let answer = |text: &str| ScriptedTurn { content: Some(text.into()), tool_calls: vec![] };
/// let model = ScriptedModel::new("two answers", vec![answer("one"), answer("two")]);
/// let agent = Agent::builder(Arc::new(model), ToolRegistry::new()).build();
/// let mut session = Session::new(&agent);
/// session.send("first", CancellationToken::new()).await;
/// let second = session.send("second", CancellationToken::new()).await;
/// assert_eq!(second.result.as_deref(), Some("two"));
/// assert_eq!(session.history().len(), 4); // two prompts, two answers
/// session.end(second.status).await;
/// # });
/// ```
pub struct Session<'a> {
    agent: &'a Agent,
    history: Vec<Message>,
    /// How the session starts: SessionStart hooks run with it before the first
    /// prompt, then it is `None`.
    pending_start: Option<SessionSource>,
}

impl<'a> Session<'a> {
    /// A new session: its first prompt runs SessionStart hooks with
    /// `source: "startup"` and begins the transcript with the `session` record.
    pub fn new(agent: &'a Agent) -> Session<'a> {
        Session {
            agent,
            history: Vec::new(),
            pending_start: Some(SessionSource::Startup),
        }
    }

    /// A session that goes on from `history` (rebuilt from its transcript):
    /// its next prompt runs SessionStart hooks with `source: "resume"`.
    pub fn resume(agent: &'a Agent, history: Vec<Message>) -> Session<'a> {
        Session {
            agent,
            history,
            pending_start: Some(SessionSource::Resume),
        }
    }

    /// The same session handed to a rebuilt agent (another model or
    /// permission mode, chosen mid-conversation): it goes on from `history`
    /// without SessionStart hooks, as nothing started.
    pub fn carry_on(agent: &'a Agent, history: Vec<Message>) -> Session<'a> {
        Session {
            agent,
            history,
            pending_start: None,
        }
    }

    /// Whether the transcript holds this session's `session` record: a new
    /// session writes it at its first prompt; a resumed one has it. A front
    /// end records what it changes between prompts (a mode) only then, so
    /// that the record stays the transcript's first line.
    pub fn has_session_record(&self) -> bool {
        self.pending_start != Some(SessionSource::Startup)
    }

    /// What a rebuilt agent goes on from (another model or permission
    /// mode, chosen mid-conversation): the history, and the start this
    /// session still owes when no prompt has run yet.
    pub fn carried(&self) -> Carried {
        Carried {
            history: self.history.clone(),
            pending_start: self.pending_start,
        }
    }

    /// Goes on from `history` instead (the conversation was rewound,
    /// contract §24): the next prompt follows it, with no SessionStart hooks.
    pub fn rewind_to(&mut self, history: Vec<Message>) {
        self.history = history;
    }

    /// The history so far, oldest first.
    pub fn history(&self) -> &[Message] {
        &self.history
    }

    /// Runs one prompt to its outcome (recorded) and keeps the history.
    pub async fn send(&mut self, prompt: &str, cancel: CancellationToken) -> RunReport {
        let (run, ending) = self.run_prompt(Input::Typed(prompt), cancel).await;
        self.keep(run.into_report(ending))
    }

    /// Runs a prompt typed as a command (`/name args`): its
    /// UserPromptExpansion hooks first (a block ends the run with the
    /// hook's reason), then the expanded prompt as [`Session::send`] runs one.
    pub async fn send_command(
        &mut self,
        command: &CommandPrompt,
        cancel: CancellationToken,
    ) -> RunReport {
        let (run, ending) = self.run_prompt(Input::Command(command), cancel).await;
        self.keep(run.into_report(ending))
    }

    /// Compacts the history now (`/compact [instructions]`): PreCompact hooks
    /// with `trigger: "manual"` (a block cancels it), the model's summary
    /// (focused by `instructions`, which may be empty), then SessionStart
    /// hooks with `source: "compact"`. Returns the transcript's record.
    pub async fn compact(
        &mut self,
        instructions: &str,
        cancel: CancellationToken,
    ) -> Result<CompactionRecord, CompactionError> {
        let mut run = Run::new(self.agent, cancel, std::mem::take(&mut self.history));
        let tokens = run.tokens_in_use();
        let result = run
            .compact(CompactionTrigger::Manual, instructions, tokens)
            .await;
        self.history = std::mem::take(&mut run.history);
        result
    }

    /// Ends the session: SessionEnd hooks run with `reason` (the last run's
    /// status) and `reason: "other"`.
    pub async fn end(self, reason: RunStatus) {
        self.end_because(reason, SessionEndReason::Other).await;
    }

    /// Ends the session for `exit` (`/clear`, the person leaving the
    /// interactive session): SessionEnd hooks see it as their `reason`.
    pub async fn end_because(self, reason: RunStatus, exit: SessionEndReason) {
        Run::new(self.agent, CancellationToken::new(), Vec::new())
            .end_session(reason, exit)
            .await;
    }

    /// Tells Notification hooks that the session waits for the person
    /// (`notification_type` e.g. `idle_prompt`); they only observe.
    pub async fn notify(&self, message: &str, notification_type: &str) {
        let run = Run::new(self.agent, CancellationToken::new(), Vec::new());
        let context = NotificationContext {
            common: run.hook_common(),
            message: message.to_owned(),
            notification_type: notification_type.to_owned(),
        };
        let notified = self.agent.hooks.run_notification(context).await;
        run.emit_hook_run(&notified);
    }

    /// A last prompt, then the end of the session (`agenthub run`, also when
    /// it resumes): SessionEnd runs with the run's status before the outcome
    /// is recorded, so the outcome stays the transcript's last line.
    pub async fn send_and_end(self, prompt: &str, cancel: CancellationToken) -> RunReport {
        self.last(Input::Typed(prompt), cancel).await
    }

    /// [`Session::send_and_end`] for a prompt typed as a command.
    pub async fn send_command_and_end(
        self,
        command: &CommandPrompt,
        cancel: CancellationToken,
    ) -> RunReport {
        self.last(Input::Command(command), cancel).await
    }

    async fn last(mut self, input: Input<'_>, cancel: CancellationToken) -> RunReport {
        let (run, ending) = self.run_prompt(input, cancel).await;
        run.end_session(ending.status, SessionEndReason::Other)
            .await;
        run.into_report(ending)
    }

    async fn run_prompt(
        &mut self,
        input: Input<'_>,
        cancel: CancellationToken,
    ) -> (Run<'a>, Ending) {
        let mut run = Run::new(self.agent, cancel, std::mem::take(&mut self.history));
        if let Some(source) = self.pending_start.take() {
            if source == SessionSource::Startup {
                run.emit(AgentEvent::Session(&self.record()));
            }
            if let Some(ending) = run.start(source).await {
                return (run, ending);
            }
        }
        let prompt = match input {
            Input::Typed(prompt) => prompt.to_owned(),
            Input::Command(command) => {
                if let Some(ending) = run.expansion_hooks(command).await {
                    return (run, ending);
                }
                match run
                    .run_inline_commands(&command.expanded, &command.env)
                    .await
                {
                    Ok(prompt) => prompt,
                    Err(ending) => return (run, ending),
                }
            }
        };
        let ending = run.drive(&prompt).await;
        (run, ending)
    }

    fn keep(&mut self, report: RunReport) -> RunReport {
        self.history = report.history.clone();
        report
    }

    fn record(&self) -> SessionRecord {
        SessionRecord {
            session_id: self.agent.session_id.clone(),
            workspace: self.agent.workspace.root().display().to_string(),
            model: self.agent.model_name.clone(),
            created: crate::clock::utc_now(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

/// A session between two agents (a rebuild for another mode or model):
/// its history, and the start it still owes if no prompt has run yet. A
/// session rebuilt before its first prompt thus still begins its transcript
/// with its `session` record and runs its SessionStart hooks (`startup`, or
/// `resume` for a resumed one) at that prompt, as if nothing was rebuilt.
#[derive(Debug, Clone)]
pub struct Carried {
    history: Vec<Message>,
    pending_start: Option<SessionSource>,
}

impl Carried {
    /// A session that has already started, going on from `history` (what
    /// [`Session::carry_on`] goes on from).
    pub fn started(history: Vec<Message>) -> Carried {
        Carried {
            history,
            pending_start: None,
        }
    }

    /// The history so far, oldest first.
    pub fn history(&self) -> &[Message] {
        &self.history
    }

    /// Whether a prompt has run (the transcript has the `session` record).
    pub fn has_started(&self) -> bool {
        self.pending_start.is_none()
    }

    /// The session on the rebuilt `agent`.
    pub fn begin(self, agent: &Agent) -> Session<'_> {
        Session {
            agent,
            history: self.history,
            pending_start: self.pending_start,
        }
    }
}

/// What a prompt was typed as.
#[derive(Clone, Copy)]
enum Input<'p> {
    /// Plain text.
    Typed(&'p str),
    /// A command, expanded by the caller.
    Command(&'p CommandPrompt),
}

impl Agent {
    /// Runs one task to its end: a session with one prompt. Never panics on
    /// model, tool or hook failures: each becomes a tool result or the run's outcome.
    pub async fn run(&self, prompt: &str, cancel: CancellationToken) -> RunReport {
        Session::new(self).send_and_end(prompt, cancel).await
    }
}
