//! The one place a session is assembled around an [`Assembly`] and a model:
//! its id, its transcript (new, or reopened to go on), the history it starts
//! from, the observers (the transcript first), the approver slot and the
//! turn budget. `agenthub run`, the interactive session, the batch and fleet
//! runner, the demo and the editor and MCP front doors all open their
//! sessions here, so a front door adds only its own I/O.
//!
//! It never prints and never asks: warnings of a resumed session are the
//! front door's to show, and without an approver every `ask` is denied.

use crate::network::SessionNetworkGate;
use crate::{open_transcript, reopen_transcript, transcript_path};
use crate::{Assembly, ChosenModel, SessionSummary, SetupError};
use agenthub_core::{Agent, AgentBuilder, Carried, Observer, Observers, Session};
use agenthub_policy::Approver;
use agenthub_protocol::Message;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where a session's conversation starts.
pub enum SessionStart {
    /// A new session: `id` (a new UUID when `None`), its transcript at
    /// `transcript` (the transcripts folder when `None`).
    New {
        /// The session id, when the runner fixes it (the fleet's task).
        id: Option<String>,
        /// Where the transcript goes (`--transcript`).
        transcript: Option<PathBuf>,
    },
    /// A saved session picked up again: its transcript reopened, its history
    /// the start, SessionStart hooks told `resume`.
    Resume(Box<SessionSummary>),
    /// The same session handed to a rebuilt agent (another model or mode,
    /// chosen mid-conversation): nothing starts again, unless no prompt had
    /// run yet (then the first prompt starts it, `session` record first).
    Carry {
        /// The session's id.
        id: String,
        /// Its transcript, reopened.
        transcript: PathBuf,
        /// The session so far ([`Session::carried`]).
        session: Carried,
    },
}

impl SessionStart {
    /// A new session with a new id and the default transcript place.
    pub fn new_session() -> SessionStart {
        SessionStart::New {
            id: None,
            transcript: None,
        }
    }
}

/// A session being assembled: [`Assembly::session`], then the front door's
/// approver and observers, then [`SessionSetup::open`].
pub struct SessionSetup {
    builder: AgentBuilder,
    start: SessionStart,
    before_transcript: Vec<Arc<dyn Observer>>,
    after_transcript: Vec<Arc<dyn Observer>>,
    echo: Option<Box<dyn Write + Send>>,
    network_gate: Option<Arc<SessionNetworkGate>>,
}

impl Assembly {
    /// The session of this assembly's agent around `model`, starting at `start`.
    pub fn session(self, model: ChosenModel, start: SessionStart) -> SessionSetup {
        let known_id = match &start {
            SessionStart::New { id, .. } => id.clone(),
            SessionStart::Resume(found) => Some(found.saved.record.session_id.clone()),
            SessionStart::Carry { id, .. } => Some(id.clone()),
        };
        let network_gate = self.policy.network_gate.clone();
        SessionSetup {
            network_gate,
            builder: self.agent_of(model, known_id.as_deref()),
            start,
            before_transcript: Vec::new(),
            after_transcript: Vec::new(),
            echo: None,
        }
    }
}

impl SessionSetup {
    /// Who answers the session's asks (without one, every ask is denied).
    pub fn approver(mut self, approver: Arc<dyn Approver>) -> SessionSetup {
        self.builder = self.builder.approver(approver);
        self
    }

    /// Adds an observer told of each event after the transcript has it.
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> SessionSetup {
        self.after_transcript.push(observer);
        self
    }

    /// Adds an observer told of each event before the transcript (streamed
    /// text a person should see without waiting for the file).
    pub fn observer_first(mut self, observer: Arc<dyn Observer>) -> SessionSetup {
        self.before_transcript.push(observer);
        self
    }

    /// Echoes each transcript line to `sink` as it is written (stream-json);
    /// a sink that fails never stops the session.
    pub fn echo_transcript(mut self, sink: Box<dyn Write + Send>) -> SessionSetup {
        self.echo = Some(sink);
        self
    }

    /// The most model requests one prompt may make, when the front door says
    /// (`--max-turns`); otherwise the settings' `maxTurns` or the default.
    pub fn max_turns(mut self, max_turns: Option<u32>) -> SessionSetup {
        if let Some(max_turns) = max_turns {
            self.builder = self.builder.max_turns(max_turns);
        }
        self
    }

    /// Whatever else a runner adds to the agent (the fleet's journal).
    pub fn agent(mut self, add: impl FnOnce(AgentBuilder) -> AgentBuilder) -> SessionSetup {
        self.builder = add(self.builder);
        self
    }

    /// Opens the transcript (a new file, or the saved one reopened to go on)
    /// and builds the agent with its session id and observers.
    pub fn open(self) -> Result<ReadySession, SetupError> {
        let (id, transcript, conversation) = match self.start {
            SessionStart::New { id, transcript } => {
                let id = id.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
                let path = transcript_path(transcript, &id);
                (id, path, Conversation::New)
            }
            SessionStart::Resume(found) => {
                let found = *found;
                let history = Conversation::Resume(found.saved.history);
                (found.saved.record.session_id, found.path, history)
            }
            SessionStart::Carry {
                id,
                transcript,
                session,
            } => (id, transcript, Conversation::Carry(session)),
        };
        let writer = match conversation {
            Conversation::New => open_transcript(&transcript)?,
            _ => reopen_transcript(&transcript)?,
        };
        let writer = match self.echo {
            Some(sink) => writer.echo_to(sink),
            None => writer,
        };
        let mut observers = Observers::new();
        for observer in self.before_transcript {
            observers.push(observer);
        }
        observers.push(Arc::new(writer));
        for observer in self.after_transcript {
            observers.push(observer);
        }
        let agent = self
            .builder
            .session_id(id)
            .transcript_path(transcript.clone())
            .observer(Arc::new(observers))
            .build();
        if let Some(gate) = &self.network_gate {
            gate.connect(agent.person_approver(), agent.observer());
        }
        Ok(ReadySession {
            agent,
            transcript,
            conversation,
        })
    }
}

/// A session ready for its first prompt.
pub struct ReadySession {
    /// The session's agent.
    pub agent: Agent,
    /// Its transcript file.
    pub transcript: PathBuf,
    /// The history it goes on from, if any.
    pub conversation: Conversation,
}

impl ReadySession {
    /// The transcript file.
    pub fn transcript(&self) -> &Path {
        &self.transcript
    }

    /// The conversation, started on this session's agent.
    pub fn begin(&self) -> Session<'_> {
        self.conversation.clone().begin(&self.agent)
    }
}

/// The history a session's first prompt goes on from.
#[derive(Debug, Clone)]
pub enum Conversation {
    /// None: a new session (SessionStart hooks told `startup`).
    New,
    /// A saved session's (SessionStart hooks told `resume`).
    Resume(Vec<Message>),
    /// The same session's, with a rebuilt agent (no SessionStart hooks
    /// unless no prompt had run yet).
    Carry(Carried),
}

impl Conversation {
    /// The conversation on `agent`.
    pub fn begin(self, agent: &Agent) -> Session<'_> {
        match self {
            Conversation::New => Session::new(agent),
            Conversation::Resume(history) => Session::resume(agent, history),
            Conversation::Carry(session) => session.begin(agent),
        }
    }

    /// The history so far (empty for a new session).
    pub fn history(&self) -> &[Message] {
        match self {
            Conversation::New => &[],
            Conversation::Resume(history) => history,
            Conversation::Carry(session) => session.history(),
        }
    }
}
