//! A prompt typed as a command (`/name args`, contract §20): its
//! UserPromptExpansion hooks run before the expanded text becomes the
//! prompt, and a block ends the run with the hook's reason, as a
//! UserPromptSubmit block does. The expansion itself (finding the command,
//! replacing `$ARGUMENTS`) is the caller's: this module never reads a
//! command file; it only fires the event and hands the run its prompt.

use crate::run::{Ending, Run};
use agenthub_hooks::{UserPromptExpansionContext, UserPromptSubmitVerdict};
use agenthub_protocol::RunStatus;

/// The `expansion_type` of a custom slash command.
pub const SLASH_COMMAND_EXPANSION: &str = "slash_command";

/// A prompt that named a command, and the prompt it expands to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPrompt {
    /// The command's name without the slash (`review`, `git:commit`).
    pub name: String,
    /// The text after the name.
    pub args: String,
    /// The prompt as typed (`/review src/main.rs`).
    pub typed: String,
    /// The prompt the command expands to: what the model reads.
    pub expanded: String,
}

impl Run<'_> {
    /// Fires UserPromptExpansion for `command`; `Some` when a hook ends the
    /// run before the prompt (blocked, stopped or failed closed). The hooks'
    /// added context is kept either way.
    pub(crate) async fn expansion_hooks(&mut self, command: &CommandPrompt) -> Option<Ending> {
        let context = UserPromptExpansionContext {
            common: self.hook_common(),
            expansion_type: SLASH_COMMAND_EXPANSION.to_owned(),
            command_name: command.name.clone(),
            command_args: command.args.clone(),
            prompt: command.typed.clone(),
        };
        let Some(expanded) = self
            .unless_cancelled(self.agent.hooks.run_user_prompt_expansion(context))
            .await
        else {
            return Some(Ending::cancelled());
        };
        self.emit_hook_run(&expanded);
        match expanded.verdict {
            UserPromptSubmitVerdict::Proceed { context } => {
                self.push_context(context);
                None
            }
            UserPromptSubmitVerdict::Blocked { reason, context } => {
                self.push_context(context);
                Some(Ending::new(RunStatus::Blocked, None, Some(reason)))
            }
            UserPromptSubmitVerdict::Stopped { reason, context } => {
                self.push_context(context);
                Some(Ending::new(RunStatus::Stopped, None, Some(reason)))
            }
            UserPromptSubmitVerdict::Failed { message } => {
                Some(Ending::new(RunStatus::Failed, None, Some(message)))
            }
        }
    }
}
