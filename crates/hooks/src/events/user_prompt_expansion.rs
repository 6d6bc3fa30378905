//! UserPromptExpansion (contract §20, §21): a slash command or skill is about
//! to become a prompt; hooks may add context or block it, exactly as
//! UserPromptSubmit hooks do with a typed prompt. The event is fired by whoever
//! expands commands; this module says what its hooks get and how their answers
//! fold.

use super::user_prompt_submit::{PromptEvent, PromptFold};
use super::*;
use crate::command::{RawRun, ReadAs};
use crate::engine::run_chain;
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use serde::{Deserialize, Serialize};

/// What a UserPromptExpansion hook sees: a slash command (or skill) is about
/// to be expanded into a prompt (contract §20).
#[derive(Debug, Clone)]
pub struct UserPromptExpansionContext {
    /// What every event carries.
    pub common: HookCommon,
    /// What is expanded: `slash_command` or `skill`.
    pub expansion_type: String,
    /// The command's name, without the slash (matchers match it).
    pub command_name: String,
    /// The text after the command's name.
    pub command_args: String,
    /// The prompt as typed.
    pub prompt: String,
}

impl HookRegistry {
    /// Runs the UserPromptExpansion hooks that match the command's name.
    pub async fn run_user_prompt_expansion(
        &self,
        context: UserPromptExpansionContext,
    ) -> HookRun<UserPromptSubmitVerdict> {
        let fold = PromptFold::<UserPromptExpansion>::new(context);
        run_chain(&self.user_prompt_expansion, fold).await
    }
}

impl PromptEvent for UserPromptExpansion {
    const BLOCKED: &'static str = "the command was blocked by a UserPromptExpansion hook";
}

/// UserPromptExpansion's stdin: the common fields, `expansion_type`,
/// `command_name`, `command_args` and `prompt`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserPromptExpansionInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// What is expanded (`slash_command`).
    #[serde(default = "slash_command")]
    pub expansion_type: String,
    /// The command's name.
    pub command_name: String,
    /// The text after the command's name.
    #[serde(default)]
    pub command_args: String,
    /// The prompt the command expands to.
    #[serde(default)]
    pub prompt: String,
}

fn slash_command() -> String {
    "slash_command".to_owned()
}

/// UserPromptExpansion's stdin for this firing.
pub fn input(context: &UserPromptExpansionContext) -> UserPromptExpansionInput {
    UserPromptExpansionInput {
        common: CommonInput::of(&context.common, "UserPromptExpansion"),
        expansion_type: context.expansion_type.clone(),
        command_name: context.command_name.clone(),
        command_args: context.command_args.clone(),
        prompt: context.prompt.clone(),
    }
}

/// UserPromptExpansion: a slash command or skill is about to become a
/// prompt; hooks answer as UserPromptSubmit hooks do.
pub struct UserPromptExpansion;

impl EventSpec for UserPromptExpansion {
    const EVENT: HookEvent = HookEvent::UserPromptExpansion;
    const WIRE: WireContract = WireContract::BLOCK_WITH_CONTEXT;
    type Context = UserPromptExpansionContext;
    type Result = UserPromptSubmitResult;
    type Verdict = UserPromptSubmitVerdict;
    type Input = UserPromptExpansionInput;

    fn common(context: &UserPromptExpansionContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &UserPromptExpansionContext) -> UserPromptExpansionInput {
        input(context)
    }

    fn sample(
        input: UserPromptExpansionInput,
        env: &SampleEnv<'_>,
    ) -> Result<UserPromptExpansionContext, SampleError> {
        Ok(UserPromptExpansionContext {
            common: env.common(input.common),
            expansion_type: input.expansion_type,
            command_name: input.command_name,
            command_args: input.command_args,
            prompt: input.prompt,
        })
    }

    async fn try_run(
        registry: &HookRegistry,
        context: UserPromptExpansionContext,
    ) -> HookRun<UserPromptSubmitVerdict> {
        registry.run_user_prompt_expansion(context).await
    }

    fn explain(verdict: UserPromptSubmitVerdict) -> Vec<String> {
        super::user_prompt_submit::explain_prompt(verdict)
    }

    fn subject(context: &UserPromptExpansionContext) -> MatcherSubject<'_> {
        MatcherSubject::Value(&context.command_name)
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &UserPromptExpansionContext,
    ) -> Result<UserPromptSubmitResult, HookError> {
        super::user_prompt_submit::read_output(run, as_)
    }
}
