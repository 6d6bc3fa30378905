//! Notification: the session waits for the person (an approval, an idle
//! prompt). Its hooks only observe; matchers see the notification type.

use super::*;
use crate::command::interpret::observed;
use crate::command::{RawRun, ReadAs};
use crate::engine::Observing;
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use serde::{Deserialize, Serialize};

/// What a Notification hook sees: the session waits for the person.
#[derive(Debug, Clone)]
pub struct NotificationContext {
    /// What every event carries.
    pub common: HookCommon,
    /// What the person is told (`AgentHub needs your permission to use Bash`).
    pub message: String,
    /// What it waits for: `permission_prompt` or `idle_prompt`.
    pub notification_type: String,
}

/// A Notification hook can only tell the user something.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NotificationResult {
    /// A warning shown to the user.
    pub system_message: Option<String>,
}

impl HookRegistry {
    /// Runs the Notification observers; their failures are only recorded.
    pub async fn run_notification(&self, context: NotificationContext) -> HookRun<()> {
        self.run_observers::<Notification>(context).await
    }
}

/// Notification's stdin: the common fields, `message` and `notification_type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotificationInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// What the person is told.
    #[serde(default = "waiting")]
    pub message: String,
    /// Its kind (`idle_prompt`, `permission_prompt`, …).
    #[serde(default = "idle_prompt")]
    pub notification_type: String,
}

fn waiting() -> String {
    "AgentHub is waiting for your input".to_owned()
}

fn idle_prompt() -> String {
    "idle_prompt".to_owned()
}

/// Notification's stdin for this firing.
pub fn input(context: &NotificationContext) -> NotificationInput {
    NotificationInput {
        common: CommonInput::of(&context.common, "Notification"),
        message: context.message.clone(),
        notification_type: context.notification_type.clone(),
    }
}

/// Notification: the session waits for the person; hooks observe.
pub struct Notification;

impl EventSpec for Notification {
    const EVENT: HookEvent = HookEvent::Notification;
    type Context = NotificationContext;
    type Result = NotificationResult;
    type Verdict = ();
    type Input = NotificationInput;

    fn common(context: &NotificationContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &NotificationContext) -> NotificationInput {
        input(context)
    }

    fn sample(
        input: NotificationInput,
        env: &SampleEnv<'_>,
    ) -> Result<NotificationContext, SampleError> {
        Ok(NotificationContext {
            common: env.common(input.common),
            message: input.message,
            notification_type: input.notification_type,
        })
    }

    async fn try_run(registry: &HookRegistry, context: NotificationContext) -> HookRun<()> {
        registry.run_notification(context).await
    }

    fn subject(context: &NotificationContext) -> MatcherSubject<'_> {
        MatcherSubject::Value(&context.notification_type)
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &NotificationContext,
    ) -> Result<NotificationResult, HookError> {
        observed(run, as_).map(|result| NotificationResult {
            system_message: result.system_message,
        })
    }
}

impl Observing for Notification {
    fn message(result: NotificationResult) -> Option<String> {
        result.system_message
    }
}
