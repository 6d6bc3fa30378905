//! PostCompact (contract §21): the history was compacted. Its hooks only
//! observe; matchers see the trigger (`manual`, `auto`).

use super::*;
use crate::command::interpret::observed;
use crate::command::{RawRun, ReadAs};
use crate::engine::{ObservedResult, Observing};
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::CompactionTrigger;
use serde::{Deserialize, Serialize};

/// What a PostCompact hook sees: the history was compacted.
#[derive(Debug, Clone)]
pub struct PostCompactContext {
    /// What every event carries.
    pub common: HookCommon,
    /// Whether the user asked (`manual`) or the budget did (`auto`).
    pub trigger: CompactionTrigger,
    /// The summary that now stands for the older history.
    pub compact_summary: String,
}

impl HookRegistry {
    /// Runs the PostCompact observers; their failures are only recorded.
    pub async fn run_post_compact(&self, context: PostCompactContext) -> HookRun<()> {
        self.run_observers::<PostCompact>(context).await
    }
}

/// PostCompact's stdin: the common fields, `trigger` and `compact_summary`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PostCompactInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// `manual` or `auto`.
    #[serde(default = "super::input::manual")]
    pub trigger: String,
    /// The summary that replaced the history.
    #[serde(default)]
    pub compact_summary: String,
}

/// PostCompact's stdin for this firing.
pub fn input(context: &PostCompactContext) -> PostCompactInput {
    PostCompactInput {
        common: CommonInput::of(&context.common, "PostCompact"),
        trigger: context.trigger.as_str().to_owned(),
        compact_summary: context.compact_summary.clone(),
    }
}

/// PostCompact: the history was compacted; hooks observe.
pub struct PostCompact;

impl EventSpec for PostCompact {
    const EVENT: HookEvent = HookEvent::PostCompact;
    type Context = PostCompactContext;
    type Result = ObservedResult;
    type Verdict = ();
    type Input = PostCompactInput;

    fn common(context: &PostCompactContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &PostCompactContext) -> PostCompactInput {
        input(context)
    }

    fn sample(
        input: PostCompactInput,
        env: &SampleEnv<'_>,
    ) -> Result<PostCompactContext, SampleError> {
        Ok(PostCompactContext {
            trigger: sample::trigger(&input.trigger)?,
            common: env.common(input.common),
            compact_summary: input.compact_summary,
        })
    }

    async fn try_run(registry: &HookRegistry, context: PostCompactContext) -> HookRun<()> {
        registry.run_post_compact(context).await
    }

    fn subject(context: &PostCompactContext) -> MatcherSubject<'_> {
        MatcherSubject::Value(context.trigger.as_str())
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &PostCompactContext,
    ) -> Result<ObservedResult, HookError> {
        observed(run, as_)
    }
}

impl Observing for PostCompact {
    fn message(result: ObservedResult) -> Option<String> {
        result.system_message
    }
}
