//! The slash commands of the interactive session (contract §13) carried out:
//! what each shows, and which end this agent's conversation (`/clear`,
//! `/resume`, `/model NAME`, `/permissions MODE`, `/exit`). Parsing is
//! `commands.rs`; nothing here decides a permission.

use super::commands::{self, SlashCommand};
use super::editor::Input;
use super::session_loop::{Built, Chat, Next};
use crate::terminal::neutralise;
use agenthub::Session;
use agenthub::SessionGrants;
use agenthub::{list_sessions, Assembly, SessionSummary};

/// The most sessions `/resume` offers.
const RESUMABLE_SHOWN: usize = 20;

impl Chat {
    /// Runs a slash command; `Some` when it ends this agent's conversation.
    pub(super) async fn command(
        &mut self,
        command: SlashCommand,
        session: &mut Session<'_>,
        built: &Built,
    ) -> Option<Next> {
        let palette = self.screen.palette;
        let say = |text: &str| built.view.say(text);
        match command {
            SlashCommand::Help => say(&neutralise(&commands::help(&built.commands))),
            SlashCommand::Clear => return Some(Next::Clear),
            SlashCommand::Exit => return Some(Next::Exit),
            SlashCommand::Compact(instructions) => {
                let cancel = self.turn.begin();
                if let Err(error) = session.compact(&instructions, cancel).await {
                    say(&palette.bad(&format!(
                        "not compacted: {}",
                        neutralise(&error.to_string())
                    )));
                }
            }
            SlashCommand::Resume => return self.pick_session(built).map(Next::Resume),
            SlashCommand::Model(None) => say(&format!("model: {}", neutralise(&built.model))),
            SlashCommand::Model(Some(name)) => {
                if self.args.script.is_some() {
                    say(&palette.bad("the scripted model (--script) cannot be switched"));
                } else {
                    return self.switch_model(name, built);
                }
            }
            SlashCommand::Permissions(None) => {
                say(&describe_permissions(&built.policy, &self.grants))
            }
            SlashCommand::Permissions(Some(mode)) => match mode.parse::<agenthub::PermissionMode>()
            {
                Ok(_) => {
                    self.mode = Some(mode);
                    return Some(Next::Rebuild);
                }
                Err(error) => say(&palette.bad(&neutralise(&error.to_string()))),
            },
            SlashCommand::Hooks => say(&neutralise(&built.hooks)),
            SlashCommand::Rewind(argument) => self.rewind(argument, session, built),
            SlashCommand::Usage => say(&format!(
                "{} model requests; tokens: {} in ({} from cache), {} out",
                self.turns,
                self.usage.input_tokens,
                self.usage.cache_read_tokens,
                self.usage.output_tokens
            )),
        }
        None
    }

    /// `/model NAME`: the same session goes on with another model.
    fn switch_model(&mut self, name: String, built: &Built) -> Option<Next> {
        let chosen = Assembly::load(&self.options())
            .and_then(|assembly| assembly.choose_model(&self.model_options(Some(name))));
        match chosen {
            Ok(model) => {
                self.model = Some(model);
                Some(Next::Rebuild)
            }
            Err(error) => {
                built
                    .view
                    .say(&self.screen.palette.bad(&neutralise(&error.to_string())));
                None
            }
        }
    }

    /// `/resume`: the sessions of this workspace, newest first, one picked by number.
    pub(super) fn pick_session(&mut self, built: &Built) -> Option<Box<SessionSummary>> {
        let mut sessions = list_sessions(built.workspace.root());
        sessions.sort_by_key(|session| std::cmp::Reverse(session.modified));
        sessions.truncate(RESUMABLE_SHOWN);
        if sessions.is_empty() {
            built.view.say("no sessions in this workspace");
            return None;
        }
        let listing = crate::sessions_command::render(&sessions);
        for (number, line) in listing.lines().enumerate() {
            built
                .view
                .say(&format!("{:>3}. {}", number + 1, neutralise(line)));
        }
        let answer =
            tokio::task::block_in_place(|| self.line.read("session number (Enter cancels): "));
        let Input::Line(answer) = answer else {
            return None;
        };
        let picked = answer
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|number| (1..=sessions.len()).contains(number));
        match picked {
            Some(number) => Some(Box::new(sessions.swap_remove(number - 1))),
            None => {
                if !answer.trim().is_empty() {
                    built
                        .view
                        .say(&self.screen.palette.bad("no session with that number"));
                }
                None
            }
        }
    }
}

/// `/permissions`: the mode, every rule with its file, and the session grants.
fn describe_permissions(policy: &agenthub::PolicyEngine, grants: &SessionGrants) -> String {
    let config = policy.config();
    let mut text = format!("mode: {}\n", config.mode.as_str());
    if config.rules.is_empty() {
        text.push_str("rules: none\n");
    }
    for rule in &config.rules {
        text.push_str(&format!(
            "  {} {}\n",
            rule.list.as_str(),
            neutralise(&rule.describe())
        ));
    }
    let granted = grants.list();
    if !granted.is_empty() {
        text.push_str(
            "allowed for this session (never a write to a protected path: that is asked each time):\n",
        );
    }
    for grant in granted {
        text.push_str(&format!("  {}\n", neutralise(&grant.rule())));
    }
    text.push_str("switch mode: /permissions default|acceptEdits|plan|dontAsk|bypassPermissions");
    text
}
