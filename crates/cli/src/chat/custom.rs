//! Custom slash commands in the interactive session (contract §20): a
//! command's `model` applies to its prompt — the agent is rebuilt on that
//! model, sends it, and is rebuilt on the session's again, as `/model`
//! rebuilds it — unless a script or `--model` fixes the model, which the
//! person is told. Expanding is the library's (`agenthub::CustomCommands`);
//! nothing here decides a permission.

use super::session_loop::{Built, Chat, Next};
use crate::run_command::Sent;
use crate::terminal::neutralise;
use agenthub::{Assembly, ChosenModel, Configuration, Expansion, SetupError};

/// One prompt on another model (a custom command's `model`).
pub(super) struct Detour {
    /// The command to send on that model.
    pub(super) sent: Sent,
    /// The model the session goes back to (`None`: the one its options choose).
    pub(super) restore: Option<ChosenModel>,
}

impl Chat {
    /// The model a custom command's front matter names, chosen, when the
    /// session switches to it for the command's prompt: not under `--script`
    /// (a script cannot be switched) nor `--model` (the flag wins), and not
    /// the model `in_use`.
    fn command_model(
        &self,
        expansion: &Expansion,
        in_use: Option<&str>,
    ) -> Result<Option<ChosenModel>, SetupError> {
        let Some(name) = expansion.model.clone() else {
            return Ok(None);
        };
        if self.args.script.is_some() || self.args.model.is_some() || in_use == Some(&name) {
            return Ok(None);
        }
        let assembly = Assembly::load(&self.options())?;
        Ok(Some(
            assembly.choose_model(&self.model_options(Some(name)))?,
        ))
    }

    /// A custom command typed in the conversation whose model applies: the
    /// agent is rebuilt on that model for its prompt ([`Detour`]), then on
    /// the session's again. A model that cannot be chosen is said, and the
    /// command is sent on the session's model.
    pub(super) fn detour_for(&mut self, built: &Built, expansion: &Expansion) -> Option<Next> {
        match self.command_model(expansion, Some(&built.model)) {
            Ok(Some(model)) => {
                let restore = self.model.replace(model);
                self.detour = Some(Detour {
                    sent: Sent::Command(expansion.prompt.clone()),
                    restore,
                });
                Some(Next::Rebuild)
            }
            Ok(None) => None,
            Err(error) => {
                built
                    .view
                    .say(&self.screen.palette.bad(&neutralise(&error.to_string())));
                None
            }
        }
    }

    /// The prompt given with `agenthub chat` when it names a custom command
    /// whose model applies: the session starts on that model, sends it,
    /// then goes on with the session's model. `true` when it does.
    pub(super) fn first_prompt_detour(&mut self, prompt: &str) -> bool {
        let Ok(configuration) = Configuration::load(&self.options()) else {
            return false;
        };
        let Some(expansion) = configuration.custom_commands().0.expand(prompt) else {
            return false;
        };
        match self.command_model(&expansion, None) {
            Ok(Some(model)) => {
                self.model = Some(model);
                self.detour = Some(Detour {
                    sent: Sent::Command(expansion.prompt),
                    restore: None,
                });
                true
            }
            Ok(None) => false,
            Err(error) => {
                eprintln!("agenthub: warning: {}", neutralise(&error.to_string()));
                false
            }
        }
    }

    /// A custom command to send on the session's model; a `model` in its
    /// front matter that is not applied (a script, `--model`, a model that
    /// cannot be chosen) is said.
    pub(super) fn custom_command(&self, built: &Built, expansion: Expansion) -> Sent {
        if let Some(model) = expansion
            .model
            .as_ref()
            .filter(|name| **name != built.model)
        {
            built
                .view
                .say(&self.screen.palette.dim(&neutralise(&format!(
                    "/{} names the model {model}; this session keeps {} (/model switches it)",
                    expansion.prompt.name, built.model
                ))));
        }
        Sent::Command(expansion.prompt)
    }
}
