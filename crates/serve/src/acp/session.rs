//! One ACP session: an agent assembled as `run` assembles one (the same
//! settings layers, trust, hooks, rules, sandbox and transcript), owned by
//! its own task that takes the client's prompts one at a time. A mode
//! change rebuilds the agent and carries the session on, as the interactive
//! session does — its MCP servers keep running (contract §31): they are the
//! session's, started once, and every rebuilt agent uses the same
//! connections. The mode change is recorded in the transcript, so that
//! `session/load` comes back in it. Closing the connection ends the session
//! (SessionEnd) and stops its servers.
//!
//! [`build_agent`] is the one place that assembles the agent, through the
//! facade's one session assembly ([`Assembly::session`]).

use super::approver::EditorApprover;
use super::commands::EditorCommands;
use super::rpc::Peer;
use super::shown::ToolsByName;
use super::updates::EditorUpdates;
use crate::{Host, ServeError, ServedBy};
use agenthub::CurrentTurn;
use agenthub::{
    Agent, AgentEvent, Assembly, Carried, ChosenModel, Message, ModelOptions, Options,
    PermissionMode, RunReport, RunStatus, Session, SessionGrants, SessionStart, SetupWarning,
    SharedServers,
};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

/// What one session is made of; kept for the rebuilds a mode change makes.
pub struct SessionContext {
    pub id: String,
    pub options: Options,
    pub model_options: ModelOptions,
    pub max_turns: Option<u32>,
    pub transcript: PathBuf,
    pub peer: Peer,
    pub grants: SessionGrants,
    pub turn: CurrentTurn,
    /// Where the audit lines go.
    pub host: Arc<dyn Host>,
    /// Chosen once: a script goes on where it was across rebuilds.
    pub model: Mutex<Option<ChosenModel>>,
    /// The session's MCP servers: each starts once, with the first agent,
    /// and every rebuilt agent shares its running connection.
    pub mcp: Arc<SharedServers>,
    /// The client's MCP servers, as a configuration file the options name;
    /// removed with the session.
    pub _servers_file: Option<tempfile::NamedTempFile>,
}

/// An assembled agent and what the front door shows of it.
pub struct Built {
    pub agent: Agent,
    pub tools: ToolsByName,
    pub mode: String,
    pub warnings: Vec<String>,
    pub commands: EditorCommands,
}

/// Assembles the session's agent in `mode` (`None`: the flags' or the
/// settings'): configuration, MCP servers (the client's among them), model,
/// transcript, the editor's approver and updates.
pub async fn build_agent(
    context: &SessionContext,
    mode: Option<&str>,
) -> Result<Built, ServeError> {
    let mut options = context.options.clone();
    if let Some(mode) = mode {
        options.permissions.mode = Some(mode.parse());
    }
    // The servers start while the model is chosen (§29), once per session.
    let assembly = Assembly::load(&options)?
        .share_mcp_servers(context.mcp.clone())
        .begin_mcp_servers()?;
    let model = chosen_model(context, &assembly)?;
    let assembly = assembly.mcp_servers_ready().await;
    let warnings = assembly.warnings().into_iter().map(warning_text).collect();
    let tools = ToolsByName::new(assembly.tools(), assembly.workspace());
    let commands = EditorCommands::of(&assembly);
    // The session's task carries the session across rebuilds (a mode
    // change); the assembly only opens the transcript anew or reopens it.
    let start = match context.transcript.exists() {
        true => SessionStart::Carry {
            id: context.id.clone(),
            transcript: context.transcript.clone(),
            session: Carried::started(Vec::new()),
        },
        false => SessionStart::New {
            id: Some(context.id.clone()),
            transcript: Some(context.transcript.clone()),
        },
    };
    let updates = EditorUpdates::new(context.id.clone(), context.peer.clone(), tools.clone());
    let approver = EditorApprover {
        session_id: context.id.clone(),
        peer: context.peer.clone(),
        tools: tools.clone(),
        grants: context.grants.clone(),
        turn: context.turn.clone(),
    };
    let mode = assembly.policy().mode().as_str().to_owned();
    let mut setup = assembly
        .session(model, start)
        .approver(Arc::new(approver))
        .max_turns(context.max_turns)
        .observer(Arc::new(updates));
    for observer in context.host.observers(ServedBy::Acp) {
        setup = setup.observer(observer);
    }
    let ready = setup.open()?;
    Ok(Built {
        agent: ready.agent,
        tools,
        mode,
        warnings,
        commands,
    })
}

fn chosen_model(context: &SessionContext, assembly: &Assembly) -> Result<ChosenModel, ServeError> {
    let mut kept = context
        .model
        .lock()
        .map_err(|_| ServeError::Internal("the session's model lock was poisoned".to_owned()))?;
    if let Some(model) = kept.as_ref() {
        return Ok(model.clone());
    }
    let model = assembly.choose_model(&context.model_options)?;
    *kept = Some(model.clone());
    Ok(model)
}

fn warning_text(warning: SetupWarning) -> String {
    warning.text().to_owned()
}

/// How the session's conversation begins.
pub enum Start {
    New,
    Resume(Vec<Message>),
}

/// Why the mode did not change.
#[derive(Debug, thiserror::Error)]
pub enum ModeError {
    /// The session's task is gone (the connection is closing).
    #[error("the session has ended")]
    Ended,
    /// The agent could not be assembled in the new mode; the old one stays.
    #[error("the session stays in its mode: {0}")]
    Rebuild(ServeError),
}

enum Command {
    Prompt(String, oneshot::Sender<RunReport>),
    SetMode(String, oneshot::Sender<Result<String, ModeError>>),
}

/// The client's hold on a running session.
pub struct SessionHandle {
    commands: mpsc::UnboundedSender<Command>,
    turn: CurrentTurn,
}

impl SessionHandle {
    /// Starts the session's task around its first agent.
    pub fn start(context: SessionContext, built: Built, start: Start) -> SessionHandle {
        let (commands, received) = mpsc::unbounded_channel();
        let turn = context.turn.clone();
        tokio::spawn(serve(context, built, start, received));
        SessionHandle { commands, turn }
    }

    /// Runs one prompt to its end; `None` if the session's task is gone.
    pub async fn prompt(&self, text: String) -> Option<RunReport> {
        let (answer, answered) = oneshot::channel();
        self.commands.send(Command::Prompt(text, answer)).ok()?;
        answered.await.ok()
    }

    /// Rebuilds the agent in `mode` after the running prompt; the mode in
    /// force, or why it could not change.
    pub async fn set_mode(&self, mode: String) -> Result<String, ModeError> {
        let (answer, answered) = oneshot::channel();
        self.commands
            .send(Command::SetMode(mode, answer))
            .map_err(|_| ModeError::Ended)?;
        answered.await.unwrap_or(Err(ModeError::Ended))
    }

    /// Cancels the running turn: every pending call gets its result, a
    /// pending question is withdrawn (denied).
    pub fn cancel(&self) {
        self.turn.cancel();
    }
}

/// The session's task: prompts in order; a mode change rebuilds the agent
/// and carries the session on (a session not yet started still starts at
/// its first prompt); the end of the commands ends the session.
async fn serve(
    context: SessionContext,
    mut built: Built,
    start: Start,
    mut commands: mpsc::UnboundedReceiver<Command>,
) {
    let mut carried: Option<Carried> = None;
    let mut start = Some(start);
    let mut last = RunStatus::Completed;
    // A mode change not yet in the transcript (it had no `session` record).
    let mut unrecorded: Option<PermissionMode> = None;
    loop {
        let mut session = match (carried.take(), start.take()) {
            (Some(carried), _) => carried.begin(&built.agent),
            (None, Some(Start::Resume(history))) => Session::resume(&built.agent, history),
            (None, _) => Session::new(&built.agent),
        };
        record_mode(&session, &built.agent, &mut unrecorded);
        let (mode, answer) = loop {
            match commands.recv().await {
                None => {
                    session.end(last).await;
                    return;
                }
                Some(Command::Prompt(text, answer)) => {
                    let cancel = context.turn.begin();
                    let report = built.commands.send(&mut session, &text, cancel).await;
                    last = report.status;
                    record_mode(&session, &built.agent, &mut unrecorded);
                    let _ = answer.send(report);
                }
                Some(Command::SetMode(mode, answer)) => break (mode, answer),
            }
        };
        carried = Some(session.carried());
        drop(session);
        match build_agent(&context, Some(&mode)).await {
            Ok(rebuilt) => {
                built = rebuilt;
                unrecorded = built.mode.parse().ok();
                let _ = answer.send(Ok(built.mode.clone()));
            }
            Err(error) => {
                let _ = answer.send(Err(ModeError::Rebuild(error)));
            }
        }
    }
}

/// Writes the mode changed to into the transcript once it has the
/// session's `session` record (which stays its first line). A record that
/// cannot be written is left out: the mode still changed, and the
/// transcript's next lines fail as loudly as they would anyway.
fn record_mode(session: &Session<'_>, agent: &Agent, unrecorded: &mut Option<PermissionMode>) {
    if !session.has_session_record() {
        return;
    }
    if let Some(mode) = unrecorded.take() {
        let _ = agent.tell(&AgentEvent::PermissionMode(mode));
    }
}
