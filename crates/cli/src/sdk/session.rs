//! The session an Agent SDK drives (contract §30): assembled as `run`
//! assembles one — the same settings layers, trust, hooks, rules, sandbox,
//! transcript and checkpoints — plus what the SDK's `initialize` adds, when
//! the first message arrives. Then the queue in order: each user message a
//! turn ending in its own `result` line (an interrupted one too), a mode or
//! model change rebuilding the agent and carrying the history on, as the
//! interactive session does. The end of the queue (stdin) ends the session
//! after the messages already queued: SessionEnd hooks run, and the process
//! exits 0 (128 + the signal when one stopped it) — a failed turn is told
//! by its result line, not the exit code.

use super::approver::SdkApprover;
use super::channel::{Channel, LineOut};
use super::initialize::SdkSetup;
use crate::args::sdk_flags::PermissionPrompts;
use crate::args::RunArgs;
use crate::error::CliError;
use crate::headless::HeadlessHints;
use crate::stream_json::StreamJson;
use crate::stream_lines::Init;
use agenthub::{
    Assembly, Carried, ChosenModel, ConsoleObserver, CurrentTurn, McpConfigSource, ModelOptions,
    ModelSource, Options, ProviderOptions, ReadySession, RunStatus, Session, SessionStart,
};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio_util::sync::CancellationToken;

/// What the session is asked to do, in the order the SDK asked.
#[derive(Debug)]
pub enum Command {
    /// A user message: one turn.
    Turn(String),
    SetMode {
        id: String,
        mode: String,
    },
    /// `None`: the default model.
    SetModel {
        id: String,
        model: Option<String>,
    },
    McpStatus {
        id: String,
    },
    End {
        id: String,
    },
}

impl Command {
    /// The id of the control request to answer (empty for a turn).
    pub fn id(&self) -> &str {
        match self {
            Command::Turn(_) => "",
            Command::SetMode { id, .. }
            | Command::SetModel { id, .. }
            | Command::McpStatus { id }
            | Command::End { id } => id,
        }
    }
}

/// What outlives one agent: the flags, the SDK's setup, the stream.
pub struct Driver {
    pub args: RunArgs,
    pub options: Options,
    pub channel: Arc<Channel>,
    pub turn: CurrentTurn,
    pub setup: Arc<Mutex<Option<SdkSetup>>>,
    /// Cancelled by SIGINT/SIGTERM/SIGHUP: the running turn ends, then the session.
    pub stop: CancellationToken,
    out: LineOut,
    /// Made when the model is first chosen (its lines name it).
    stream: Option<Arc<StreamJson<LineOut>>>,
    model_options: ModelOptions,
    /// Chosen once: a script goes on where it was across rebuilds.
    model: Option<ChosenModel>,
    mode: Option<String>,
}

/// One assembled agent, and the `init` line it would be told by.
struct Built {
    ready: ReadySession,
    init: Init,
}

/// What follows a command.
enum Next {
    /// The next command.
    Go,
    /// The session ends.
    Ended,
    /// The agent is assembled anew first.
    Rebuild(Rebuild),
}

/// How the session continues after a command that rebuilds it.
enum Rebuild {
    Mode(String, String),
    Model(String, Option<String>),
}

impl Driver {
    pub fn new(
        args: RunArgs,
        options: Options,
        channel: Arc<Channel>,
        out: LineOut,
        setup: Arc<Mutex<Option<SdkSetup>>>,
    ) -> Driver {
        let model_options = crate::setup::model_options(&args);
        Driver {
            args,
            options,
            channel,
            turn: CurrentTurn::default(),
            setup,
            stop: CancellationToken::new(),
            out,
            stream: None,
            model_options,
            model: None,
            mode: None,
        }
    }

    /// Runs the queue to its end.
    pub async fn serve(mut self, mut commands: UnboundedReceiver<Command>) -> Result<(), CliError> {
        let Some(first) = self.next(&mut commands).await else {
            return Ok(());
        };
        let start = self.first_start()?;
        let mut built = self.build(start).await?;
        if let Some(stream) = &self.stream {
            stream.init(&built.init.clone().opened(&built.ready.agent));
        }
        let mut pending = Some(first);
        let mut carried = None;
        let mut last = RunStatus::Completed;
        loop {
            let mut session = match carried.take() {
                Some(carried) => Carried::begin(carried, &built.ready.agent),
                None => built.ready.begin(),
            };
            let rebuild = loop {
                let command = match pending.take() {
                    Some(command) => Some(command),
                    None => self.next(&mut commands).await,
                };
                match self.take(&mut session, &built, command, &mut last).await {
                    Next::Go => {}
                    Next::Ended => {
                        session.end(last).await;
                        return Ok(());
                    }
                    Next::Rebuild(rebuild) => break rebuild,
                }
            };
            carried = Some(session.carried());
            drop(session);
            built = self.rebuilt(built, rebuild).await;
        }
    }

    /// Carries out one command on the running session; `None`: the queue ended.
    async fn take(
        &self,
        session: &mut Session<'_>,
        built: &Built,
        command: Option<Command>,
        last: &mut RunStatus,
    ) -> Next {
        match command {
            None => Next::Ended,
            Some(Command::Turn(text)) => {
                let cancel = self.turn.begin();
                let report = session.send(&text, cancel).await;
                *last = report.status;
                self.channel.send(&crate::output::json_report(
                    &report,
                    &built.ready.transcript,
                ));
                Next::Go
            }
            Some(Command::McpStatus { id }) => {
                self.channel.respond(&id, Ok(built.mcp_status()));
                Next::Go
            }
            Some(Command::End { id }) => {
                self.channel.respond(&id, Ok(json!({})));
                Next::Ended
            }
            Some(Command::SetModel { id, .. }) if self.scripted() => {
                // The script keeps answering (§30).
                self.channel.respond(&id, Ok(json!({})));
                Next::Go
            }
            Some(Command::SetModel { id, model }) => Next::Rebuild(Rebuild::Model(id, model)),
            Some(Command::SetMode { id, mode }) => Next::Rebuild(Rebuild::Mode(id, mode)),
        }
    }

    /// The next command, or `None` when stdin ended or a signal stops the session.
    async fn next(&self, commands: &mut UnboundedReceiver<Command>) -> Option<Command> {
        tokio::select! {
            command = commands.recv() => command,
            () = self.stop.cancelled() => None,
        }
    }

    /// The session `--resume`, `--continue` or `--session-id` name, else a new one.
    fn first_start(&self) -> Result<SessionStart, CliError> {
        let workspace = agenthub::resolve_workspace(self.options.workspace.as_deref())
            .map_err(|error| CliError::Usage(error.to_string()))?;
        Ok(
            match crate::run_command::resumed_session(&self.args, &workspace)? {
                Some(found) => SessionStart::Resume(Box::new(found)),
                None => SessionStart::New {
                    id: crate::run_command::new_session_id(&self.args)?,
                    transcript: self.args.transcript.clone(),
                },
            },
        )
    }

    /// Applies a mode or model change, answering its request; when the agent
    /// cannot be assembled so, the old one stays and the answer is the error.
    async fn rebuilt(&mut self, built: Built, rebuild: Rebuild) -> Built {
        let (id, previous_mode, previous_model) = (
            match &rebuild {
                Rebuild::Mode(id, _) | Rebuild::Model(id, _) => id.clone(),
            },
            self.mode.clone(),
            (self.model.clone(), self.model_options.clone()),
        );
        match rebuild {
            Rebuild::Mode(_, mode) => self.mode = Some(mode),
            Rebuild::Model(_, model) => {
                self.model = None;
                if let ModelOptions::Provider(provider) = &mut self.model_options {
                    *provider = ProviderOptions {
                        model,
                        ..provider.clone()
                    };
                }
            }
        }
        let start = SessionStart::Carry {
            id: built.ready.agent.session_id().to_owned(),
            transcript: built.ready.transcript.clone(),
            // The session itself is carried by `serve`.
            session: Carried::started(Vec::new()),
        };
        match self.build(start).await {
            Ok(rebuilt) => {
                let answer =
                    json!({"mode": rebuilt.init.permission_mode, "model": rebuilt.init.model});
                self.channel.respond(&id, Ok(answer));
                rebuilt
            }
            Err(error) => {
                self.mode = previous_mode;
                (self.model, self.model_options) = previous_model;
                self.channel.respond(&id, Err(error.to_string()));
                built
            }
        }
    }

    /// Assembles the agent: the flags' options with the SDK's additions,
    /// the mode chosen since, the kept model.
    async fn build(&mut self, start: SessionStart) -> Result<Built, CliError> {
        let setup = self
            .setup
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .unwrap_or_default();
        let options = self.options_with(&setup)?;
        let assembly = super::callbacks::attach(Assembly::load(&options)?, &setup, &self.channel)
            .begin_mcp_servers()?;
        crate::setup::print_warnings(&assembly);
        let model = match &self.model {
            Some(model) => model.clone(),
            None => assembly.choose_model(&self.model_options)?,
        };
        self.model = Some(model.clone());
        let partial = self.args.include_partial_messages;
        let out = self.out.clone();
        let stream = self
            .stream
            .get_or_insert_with(|| Arc::new(StreamJson::new(out, &model.name, partial)))
            .clone();
        let assembly = assembly.mcp_servers_ready().await;
        crate::setup::print_warning_list(assembly.mcp_warnings());
        let init = Init::before_open(&assembly, &model.name);
        let mut session = assembly
            .session(model, start)
            .max_turns(self.args.max_turns)
            .observer(Arc::new(ConsoleObserver::new(crate::terminal::stderr())))
            .observer(Arc::new(HeadlessHints::new(crate::terminal::stderr())))
            .observer(stream);
        if self.args.sdk.permission_prompts() == PermissionPrompts::Sdk {
            session = session.approver(Arc::new(SdkApprover {
                channel: self.channel.clone(),
                turn: self.turn.clone(),
            }));
        }
        Ok(Built {
            ready: session.open()?,
            init,
        })
    }

    /// The flags' options, the mode chosen since, and what `initialize` adds.
    fn options_with(&self, setup: &SdkSetup) -> Result<Options, CliError> {
        let mut options = self.options.clone();
        if let Some(mode) = &self.mode {
            options.permissions.mode = Some(mode.parse());
        }
        if let Some(config) = setup.mcp_config() {
            let source = McpConfigSource::from_arg(&config)
                .map_err(|error| CliError::Usage(error.to_string()))?;
            options.mcp_config.push(source);
        }
        if setup.system_prompt.is_some() {
            options.system_prompt = setup.system_prompt.clone();
        }
        if setup.append_system_prompt.is_some() {
            options.append_system_prompt = setup.append_system_prompt.clone();
        }
        Ok(options)
    }

    fn scripted(&self) -> bool {
        matches!(self.model_options, ModelOptions::Scripted { .. })
            || self
                .model
                .as_ref()
                .is_some_and(|model| model.source == ModelSource::Scripted)
    }
}

impl Built {
    /// `mcp_status`'s answer: each server and its state.
    fn mcp_status(&self) -> Value {
        let servers: Vec<Value> = self
            .init
            .mcp_servers
            .iter()
            .map(|(name, status)| json!({"name": name, "status": status}))
            .collect();
        json!({ "mcpServers": servers })
    }
}
