//! One interactive session from start to end: the trust question, then for
//! each agent (rebuilt when the model, the mode or the session changes, and
//! around a custom command whose front matter names a model) a conversation
//! of prompts and slash commands — built-in ones, else custom commands
//! (contract §20), sent with their UserPromptExpansion hooks.

use super::attach::attach;
use super::commands;
use super::editor::{Input, PromptLine};
use super::style::Palette;
use super::view::{ChatView, Screen};
use crate::args::RunArgs;
use crate::error::CliError;
use crate::key_approver::{CurrentTurn, Interrupt, KeyApprover, QuestionOutput};
use crate::keys::{read_key, Key};
use crate::run_command::Sent;
use crate::terminal::neutralise;
use agenthub::Session;
use agenthub::SessionEndReason;
use agenthub::SessionGrants;
use agenthub::{
    review_project, Agent, Assembly, ChosenModel, Configuration, Conversation, CustomCommands,
    ModelOptions, Options, RunStatus, SessionStart, TrustStatus, Usage, Workspace,
};
use std::io::{IsTerminal, Stdout};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How often a running tool's elapsed time is redrawn.
const TICK: Duration = Duration::from_millis(200);

/// The interactive session and what outlives one agent: flags, the mode
/// and model chosen since, session grants, usage so far.
pub struct Chat {
    pub(super) args: RunArgs,
    pub(super) mode: Option<String>,
    /// The model in use: kept across rebuilds (a script goes on where it
    /// was), replaced by `/model NAME`.
    pub(super) model: Option<ChosenModel>,
    pub(super) grants: SessionGrants,
    pub(super) turn: CurrentTurn,
    pub(super) screen: Screen,
    pub(super) line: PromptLine,
    pub(super) usage: Usage,
    pub(super) turns: u32,
    pub(super) warned: bool,
    pub(super) asking: Arc<tokio::sync::Mutex<()>>,
    /// A custom command to send with the model its front matter names: the
    /// agent is rebuilt with that model, sends it, then is rebuilt with
    /// `restore`.
    pub(super) detour: Option<super::custom::Detour>,
}

/// What ended one agent's conversation.
pub(super) enum Next {
    Exit,
    Clear,
    Resume(Box<agenthub::SessionSummary>),
    Rebuild,
}

/// One agent and what the commands show of it.
pub(super) struct Built {
    pub(super) agent: Agent,
    pub(super) transcript: PathBuf,
    pub(super) model: String,
    pub(super) policy: Arc<agenthub::PolicyEngine>,
    pub(super) hooks: String,
    pub(super) view: Arc<ChatView<Stdout>>,
    pub(super) workspace: Workspace,
    /// The custom commands a `/name` may expand to.
    pub(super) commands: CustomCommands,
    /// Held around a command's prompt: its `allowed-tools` answer asks.
    pub(super) command_grants: agenthub::Active,
}

impl Chat {
    /// Checks the flags and opens the prompt line.
    pub fn start(args: RunArgs) -> Result<Chat, CliError> {
        if args.output_format != crate::args::OutputFormat::Text {
            return Err(CliError::Usage(
                "the interactive session shows text; use `agenthub run` for json".to_owned(),
            ));
        }
        if !std::io::stdin().is_terminal() {
            return Err(CliError::Usage(
                "the interactive session needs a terminal; use `agenthub run` with a prompt"
                    .to_owned(),
            ));
        }
        crate::setup::mcp_config_sources(&args.mcp_config)?;
        let workspace = agenthub::resolve_workspace(args.workspace.as_deref())?;
        let line = PromptLine::new(&workspace)
            .map_err(|error| CliError::Internal(format!("cannot open the prompt line: {error}")))?;
        let palette = Palette::from_environment();
        let dumb = std::env::var("TERM").is_ok_and(|term| term == "dumb");
        Ok(Chat {
            args,
            mode: None,
            model: None,
            grants: SessionGrants::default(),
            turn: CurrentTurn::default(),
            screen: Screen {
                palette,
                live: !dumb && std::io::stdout().is_terminal(),
            },
            line,
            usage: Usage::default(),
            turns: 0,
            warned: false,
            asking: Arc::new(tokio::sync::Mutex::new(())),
            detour: None,
        })
    }

    /// Converses until the person ends the session.
    pub async fn run(mut self) -> Result<u8, CliError> {
        self.cancel_turns_on_ctrl_c()?;
        self.ask_trust()?;
        let workspace = agenthub::resolve_workspace(self.args.workspace.as_deref())?;
        // `-r` without an ID: the person picks a session, as with `/resume`.
        let mut pick_first = self.args.resume.as_deref() == Some("");
        if pick_first {
            self.args.resume = None;
        }
        let mut start = match crate::run_command::resumed_session(&self.args, &workspace)? {
            Some(found) => SessionStart::Resume(Box::new(found)),
            None => SessionStart::New {
                id: crate::run_command::new_session_id(&self.args)?,
                transcript: self.args.transcript.take(),
            },
        };
        let mut greeted = false;
        let mut first_prompt = self
            .args
            .prompt
            .clone()
            .or_else(|| self.args.positional_prompt.clone());
        if first_prompt
            .as_deref()
            .is_some_and(|prompt| self.first_prompt_detour(prompt))
        {
            first_prompt = None;
        }
        loop {
            let (built, conversation) = self.build(start).await?;
            if !greeted {
                greeted = true;
                self.greet(&built, &conversation);
            }
            let mut session = conversation.begin(&built.agent);
            if std::mem::take(&mut pick_first) {
                if let Some(found) = self.pick_session(&built) {
                    session
                        .end_because(RunStatus::Completed, SessionEndReason::Resume)
                        .await;
                    start = SessionStart::Resume(found);
                    continue;
                }
            }
            if let Some(prompt) = first_prompt.take() {
                let sent = match built.commands.expand(&prompt) {
                    Some(expansion) => self.custom_command(&built, expansion),
                    None => Sent::Typed(prompt),
                };
                self.send(&mut session, &built, sent).await;
            }
            let next = match self.detour.take() {
                Some(detour) => {
                    self.send(&mut session, &built, detour.sent).await;
                    self.model = detour.restore;
                    Next::Rebuild
                }
                None => self.converse(&mut session, &built).await,
            };
            let carried = session.carried();
            start = match next {
                Next::Exit => {
                    session
                        .end_because(RunStatus::Completed, SessionEndReason::PromptInputExit)
                        .await;
                    return Ok(0);
                }
                Next::Clear => {
                    session
                        .end_because(RunStatus::Completed, SessionEndReason::Clear)
                        .await;
                    self.grants.clear();
                    SessionStart::new_session()
                }
                Next::Resume(found) => {
                    session
                        .end_because(RunStatus::Completed, SessionEndReason::Resume)
                        .await;
                    SessionStart::Resume(found)
                }
                Next::Rebuild => SessionStart::Carry {
                    id: built.agent.session_id().to_owned(),
                    transcript: built.transcript.clone(),
                    session: carried,
                },
            };
        }
    }
}

impl Chat {
    /// Ctrl-C (SIGINT, while no prompt or question reads keys) cancels the
    /// turn running then. The handler is in place before the first turn, so
    /// no Ctrl-C can fall through to the default action and kill the session.
    fn cancel_turns_on_ctrl_c(&self) -> Result<(), CliError> {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupts = signal(SignalKind::interrupt())
            .map_err(|error| CliError::Internal(format!("cannot listen for Ctrl-C: {error}")))?;
        let turn = self.turn.clone();
        tokio::spawn(async move {
            while interrupts.recv().await.is_some() {
                turn.cancel();
            }
        });
        Ok(())
    }

    pub(super) fn options(&self) -> Options {
        let mut permissions = self.args.permissions.options();
        if let Some(mode) = &self.mode {
            permissions.mode = Some(mode.parse());
        }
        Options {
            system_prompt: self.args.system_prompt.clone(),
            append_system_prompt: self.args.append_system_prompt.clone(),
            // Checked when the session started (a malformed one is refused there).
            mcp_config: crate::setup::mcp_config_sources(&self.args.mcp_config).unwrap_or_default(),
            strict_mcp_config: self.args.strict_mcp_config,
            max_budget_usd: self.args.max_budget_usd,
            ..crate::setup::options(
                self.args.workspace.clone(),
                self.args.settings.clone(),
                permissions,
                self.args.trust,
            )
        }
    }

    pub(super) fn model_options(&self, name: Option<String>) -> ModelOptions {
        let mut options = crate::setup::model_options(&self.args);
        if let (ModelOptions::Provider(provider), Some(name)) = (&mut options, name) {
            provider.model = Some(name);
        }
        options
    }

    /// The agent for `start`: settings loaded again, the model chosen, the
    /// transcript opened (or reopened), the view and the approver attached.
    async fn build(&mut self, start: SessionStart) -> Result<(Built, Conversation), CliError> {
        // The servers start while the model is chosen; the view lists their
        // tools. Their warnings follow the others once they are up.
        let assembly = Assembly::load(&self.options())?.begin_mcp_servers()?;
        let warn = !self.warned;
        if warn {
            crate::setup::print_warnings(&assembly);
            self.warned = true;
        }
        let model = match &self.model {
            Some(model) => model.clone(),
            None => assembly.choose_model(&self.model_options(None))?,
        };
        let assembly = assembly.mcp_servers_ready().await;
        if warn {
            crate::setup::print_warning_list(assembly.mcp_warnings());
        }
        self.model = Some(model.clone());
        if let SessionStart::Resume(found) = &start {
            for warning in &found.saved.warnings {
                eprintln!("agenthub: warning: {}", neutralise(warning));
            }
        }
        let view = Arc::new(ChatView::new(
            std::io::stdout(),
            self.screen,
            assembly.tools(),
        ));
        let policy = assembly.policy().clone();
        let hooks = crate::hooks_command::list::render(
            assembly.configuration().workspace(),
            assembly.configuration().settings(),
        );
        let workspace = assembly.workspace().clone();
        let commands = assembly.commands().clone();
        let command_grants = assembly.command_grants();
        self.line
            .complete_commands(commands.iter().map(|command| command.name.clone()));
        let approver = KeyApprover {
            workspace: workspace.clone(),
            grants: self.grants.clone(),
            interrupt: Interrupt::CancelTurn(self.turn.clone()),
            palette: self.screen.palette,
            output: QuestionOutput::Stdout,
            asking: self.asking.clone(),
        };
        let model_name = model.name.clone();
        let ready = assembly
            .session(model, start)
            .approver(Arc::new(approver))
            .max_turns(self.args.max_turns)
            .observer(view.clone())
            .open()?;
        let built = Built {
            agent: ready.agent,
            transcript: ready.transcript,
            model: model_name,
            policy,
            hooks,
            view,
            workspace,
            commands,
            command_grants,
        };
        Ok((built, ready.conversation))
    }

    /// The banner, and for a resumed session its last exchange (dimmed).
    fn greet(&self, built: &Built, conversation: &Conversation) {
        let palette = self.screen.palette;
        let mode = built.policy.mode();
        let banner = super::banner::banner(&built.model, built.workspace.root(), mode.as_str());
        built.view.say(&palette.dim(&neutralise(&banner)));
        if let Conversation::Resume(history) = conversation {
            let id = built.agent.session_id();
            for line in super::banner::resumed(id, history) {
                built.view.say(&palette.dim(&neutralise(&line)));
            }
        }
    }

    /// Prompts and commands until one of them ends this agent's conversation.
    async fn converse(&mut self, session: &mut Session<'_>, built: &Built) -> Next {
        let mut interrupted = false;
        loop {
            let prompt = self.screen.palette.bold("> ");
            let input = tokio::task::block_in_place(|| self.line.read(&prompt));
            let text = match input {
                Input::End => return Next::Exit,
                Input::Interrupted if interrupted => return Next::Exit,
                Input::Interrupted => {
                    interrupted = true;
                    built.view.say(
                        &self
                            .screen
                            .palette
                            .dim("(Ctrl-C again or Ctrl-D to end the session)"),
                    );
                    continue;
                }
                Input::Line(text) => text,
            };
            interrupted = false;
            if text.trim().is_empty() {
                continue;
            }
            match commands::parse(&text) {
                None => self.send(session, built, Sent::Typed(text)).await,
                Some(Err(unknown)) => match built.commands.expand(&text) {
                    Some(expansion) => {
                        if let Some(next) = self.detour_for(built, &expansion) {
                            return next;
                        }
                        let sent = self.custom_command(built, expansion);
                        self.send(session, built, sent).await
                    }
                    None => built
                        .view
                        .say(&self.screen.palette.bad(&unknown.to_string())),
                },
                Some(Ok(command)) => {
                    if let Some(next) = self.command(command, session, built).await {
                        return next;
                    }
                }
            }
        }
    }

    /// One turn: a typed prompt with its attachments, or a custom command
    /// with its `allowed-tools` answering asks during it (its `model` is not
    /// applied: the session's agent stays as it is); Ctrl-C cancelling it,
    /// the running tool's time redrawn until it ends.
    async fn send(&mut self, session: &mut Session<'_>, built: &Built, sent: Sent) {
        let sent = match sent {
            Sent::Typed(text) => {
                let attached = attach(&text, &built.workspace);
                for note in &attached.notes {
                    built.view.say(&self.screen.palette.dim(&neutralise(note)));
                }
                Sent::Typed(attached.prompt)
            }
            command => command,
        };
        let cancel = self.turn.begin();
        let view = built.view.clone();
        let ticker = tokio::spawn(async move {
            loop {
                tokio::time::sleep(TICK).await;
                view.tick();
            }
        });
        let report = match &sent {
            Sent::Typed(prompt) => session.send(prompt, cancel).await,
            Sent::Command(command) => {
                let _grants = built.command_grants.during(&command.name);
                session.send_command(command, cancel).await
            }
        };
        ticker.abort();
        built.view.settle();
        session
            .notify("AgentHub is waiting for your input", "idle_prompt")
            .await;
        self.usage += report.usage;
        self.turns += report.turns;
    }

    /// The trust question of contract §11, asked once when the workspace has
    /// configuration nobody trusted yet.
    fn ask_trust(&self) -> Result<(), CliError> {
        let configuration = Configuration::load(&self.options())?;
        if !matches!(configuration.trust(), TrustStatus::Untrusted { .. }) {
            return Ok(());
        }
        let review = review_project(configuration.workspace())?;
        let palette = self.screen.palette;
        print!("{}", neutralise(&crate::trust_command::render(&review)));
        let note = crate::trust_command::count_note(&review);
        print!(
            "{}",
            palette.ask(&format!(
                "This folder's configuration is not trusted. {note}Trust it? [y/N] "
            ))
        );
        let _ = std::io::Write::flush(&mut std::io::stdout());
        if read_key() == Key::Char('y') {
            agenthub::trust_workspace(&review.fingerprint)
                .map_err(|error| CliError::Usage(error.to_string()))?;
            println!("trusted");
        } else {
            println!("not trusted: its restrictions apply, its grants, hooks and servers do not");
        }
        Ok(())
    }
}
