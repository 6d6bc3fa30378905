//! The UserPromptExpansion verdict (contract §20, §21): a slash command or skill
//! is about to become a prompt; hooks may add context or block it, exactly as
//! UserPromptSubmit hooks do with a typed prompt. The event is fired by
//! whoever expands commands; this module only folds its hooks' answers.

use super::fold::{run_chain, EventFold, Flow};
use super::{Observed, Trail};
use crate::observed::UserPromptExpansionContext;
use crate::result::UserPromptSubmitResult;
use crate::{HookError, HookEvent, HookRegistry, HookRun, UserPromptSubmitVerdict};

impl HookRegistry {
    /// Runs the UserPromptExpansion hooks that match the command's name.
    pub async fn run_user_prompt_expansion(
        &self,
        context: UserPromptExpansionContext,
    ) -> HookRun<UserPromptSubmitVerdict> {
        let fold = ExpansionFold {
            context,
            collected: Vec::new(),
        };
        run_chain(&self.user_prompt_expansion, fold).await
    }
}

struct ExpansionFold {
    context: UserPromptExpansionContext,
    collected: Vec<String>,
}

impl EventFold for ExpansionFold {
    type Context = UserPromptExpansionContext;
    type Result = UserPromptSubmitResult;
    type Verdict = UserPromptSubmitVerdict;
    const EVENT: HookEvent = HookEvent::UserPromptExpansion;

    fn context(&self) -> UserPromptExpansionContext {
        self.context.clone()
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: UserPromptSubmitResult,
    ) -> Flow<UserPromptSubmitVerdict> {
        super::session::prompt_step(
            &mut self.collected,
            trail,
            observed,
            result,
            "the command was blocked by a UserPromptExpansion hook",
        )
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> UserPromptSubmitVerdict {
        UserPromptSubmitVerdict::Failed { message }
    }

    fn finish(self) -> UserPromptSubmitVerdict {
        UserPromptSubmitVerdict::Proceed {
            context: self.collected,
        }
    }
}
