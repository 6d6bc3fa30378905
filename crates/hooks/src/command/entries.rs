//! Turning validated settings into registry entries: one [`HookEntry`] per
//! command hook, under its event's list, with its matcher, origin (file and
//! index) and failure policy. PostToolUseFailure hooks sit in the PostToolUse
//! list, run only when the tool failed and are recorded under their own name;
//! PostToolUse command hooks run only when it succeeded. `once` hooks run at
//! most once per registry (one session); `async` hooks run in the background
//! and answer at once with nothing.

use super::wire::ReadAs;
use super::{
    interpret, payload, CallCondition, CommandHook, ConditionCompiler, HookServices, RunLog,
};
use crate::context::*;
use crate::{HookEntry, HookError, HookEvent, HookOrigin, HookRegistry};
use agenthub_settings::{CommandHookConfig, MatcherTarget};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use thiserror::Error;

/// A command hook that cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandHookError {
    /// The hook's `if` condition cannot be compiled (or no
    /// [`ConditionCompiler`] was given to compile it).
    #[error("invalid settings file {file} at {path}.if: {message}")]
    InvalidCondition {
        /// The settings file that defines the hook.
        file: String,
        /// The JSON path of the hook in that file.
        path: String,
        /// What is wrong with the condition.
        message: String,
    },
}

/// Command hooks from settings, to append after the in-process hooks.
///
/// ```
/// use agenthub_hooks::CommandHooks;
/// let registry = CommandHooks::new(Vec::new()).into_registry().unwrap();
/// assert!(registry.is_empty());
/// ```
#[derive(Clone, Default)]
pub struct CommandHooks {
    configs: Vec<CommandHookConfig>,
    log: Option<RunLog>,
    conditions: Option<Arc<dyn ConditionCompiler>>,
    services: HookServices,
}

impl CommandHooks {
    /// The command hooks of `configs` (validated settings entries), in the
    /// order they are to run.
    pub fn new(configs: Vec<CommandHookConfig>) -> Self {
        CommandHooks {
            configs,
            log: None,
            conditions: None,
            services: HookServices::default(),
        }
    }

    /// What the hooks use from the application: the settings' `env`, where
    /// `CLAUDE_ENV_FILE` exports go, the model of `prompt` hooks, the MCP
    /// caller of `mcp_tool` hooks.
    pub fn with_services(mut self, services: HookServices) -> Self {
        self.services = services;
        self
    }

    /// Compiles the hooks' `if` conditions (permission rules). Without it, a
    /// hook with `if` cannot be registered.
    pub fn with_conditions(mut self, compiler: Arc<dyn ConditionCompiler>) -> Self {
        self.conditions = Some(compiler);
        self
    }

    /// Also reports every run to `log` (for `agenthub hooks test`).
    pub fn with_log(mut self, log: RunLog) -> Self {
        self.log = Some(log);
        self
    }

    /// A registry holding one entry per command hook, in configuration order.
    /// A hook with `if` on an event without a tool never runs, so it is left out.
    pub fn into_registry(self) -> Result<HookRegistry, CommandHookError> {
        let mut registry = HookRegistry::new();
        for config in self.configs {
            let condition = match &config.condition {
                None => None,
                Some(_) if config.event.matcher_target() != MatcherTarget::ToolName => continue,
                Some(rule) => Some(compile(self.conditions.as_deref(), &config, rule)?),
            };
            let hook = CommandHook {
                config: Arc::new(config),
                log: self.log.clone(),
                services: self.services.clone(),
            };
            register(&mut registry, hook, condition);
        }
        Ok(registry)
    }
}

fn compile(
    compiler: Option<&dyn ConditionCompiler>,
    config: &CommandHookConfig,
    rule: &str,
) -> Result<Arc<dyn CallCondition>, CommandHookError> {
    let invalid = |message: String| CommandHookError::InvalidCondition {
        file: config.source.display().to_string(),
        path: config.json_path.clone(),
        message,
    };
    let compiler = compiler
        .ok_or_else(|| invalid("no rule matcher is configured to evaluate it".to_owned()))?;
    compiler
        .compile(rule, &config.source)
        .map_err(|message| invalid(format!("{rule:?}: {message}")))
}

/// The matcher and the `if` condition of a tool event's hook.
fn selects(
    matcher: &agenthub_settings::Matcher,
    condition: &Option<Arc<dyn CallCondition>>,
    common: &HookCommon,
    call: &agenthub_tools::PreparedCall,
) -> bool {
    matcher.matches(call.name())
        && condition
            .as_ref()
            .is_none_or(|condition| condition.matches(call, &common.workspace))
}

/// An entry whose handler runs `hook` on `to_payload(ctx)` and reads the run with `read`.
fn entry<C, R, P, I>(
    event: HookEvent,
    hook: &CommandHook,
    to_payload: P,
    read: I,
) -> HookEntry<C, R>
where
    C: Clone + Send + Sync + 'static,
    R: Send + 'static,
    R: Default,
    P: Fn(&C) -> (HookCommon, Value) + Send + Sync + 'static,
    I: Fn(&super::RawRun, ReadAs<'_>, &C) -> Result<R, HookError> + Send + Sync + 'static,
{
    let config = hook.config.clone();
    let shared = Arc::new(Shared {
        hook: hook.clone(),
        to_payload,
        read,
        ran_once: AtomicBool::new(false),
    });
    let origin = HookOrigin::Settings {
        file: config.source.display().to_string(),
        index: config.index,
    };
    HookEntry::new(event, config.display_command(), move |context: C| {
        let shared = shared.clone();
        run_hook(shared, context)
    })
    .with_origin(origin)
    .with_failure_policy(config.on_failure)
    .with_identity(format!(
        "{}\u{0}{}\u{0}{:?}",
        config.event, config.command, config.args
    ))
}

/// One hook's handler state: the hook, how to build its input and read its
/// answer, and whether a `once` hook already ran.
struct Shared<P, I> {
    hook: CommandHook,
    to_payload: P,
    read: I,
    ran_once: AtomicBool,
}

async fn run_hook<C, R, P, I>(shared: Arc<Shared<P, I>>, context: C) -> Result<R, HookError>
where
    C: Send + Sync + 'static,
    R: Send + Default + 'static,
    P: Fn(&C) -> (HookCommon, Value) + Send + Sync + 'static,
    I: Fn(&super::RawRun, ReadAs<'_>, &C) -> Result<R, HookError> + Send + Sync + 'static,
{
    let config = shared.hook.config.clone();
    if config.once && shared.ran_once.swap(true, Ordering::SeqCst) {
        return Ok(R::default());
    }
    let (common, payload) = (shared.to_payload)(&context);
    if config.run_async {
        let hook = shared.hook.clone();
        tokio::spawn(async move {
            let run = hook.invoke(&common, &payload).await;
            hook.report::<()>(run, &Ok(()));
        });
        return Ok(R::default());
    }
    let run = shared.hook.invoke(&common, &payload).await;
    let name = config.display_command();
    let file = config.source.display().to_string();
    let as_ = ReadAs {
        event: config.event,
        hook: &name,
        file: &file,
        strict: config.on_failure_given
            && config.on_failure == agenthub_settings::FailurePolicy::Block,
    };
    let result = (shared.read)(&run, as_, &context);
    shared.hook.report(run, &result);
    result
}

fn register(
    registry: &mut HookRegistry,
    hook: CommandHook,
    condition: Option<Arc<dyn CallCondition>>,
) {
    let matcher = hook.config.matcher.clone();
    match hook.config.event {
        HookEvent::SessionStart => registry.session_start.push(
            entry(
                HookEvent::SessionStart,
                &hook,
                |c: &SessionStartContext| (c.common.clone(), payload::session_start(c)),
                |run, as_, _| interpret::session_start(run, as_),
            )
            .with_matcher(move |c| matcher.matches(c.source.as_str())),
        ),
        HookEvent::UserPromptSubmit => registry.user_prompt_submit.push(entry(
            HookEvent::UserPromptSubmit,
            &hook,
            |c: &UserPromptSubmitContext| (c.common.clone(), payload::user_prompt_submit(c)),
            |run, as_, _| interpret::user_prompt_submit(run, as_),
        )),
        HookEvent::PreToolUse => registry.pre_tool_use.push(
            entry(
                HookEvent::PreToolUse,
                &hook,
                |c: &PreToolUseContext| (c.common.clone(), payload::pre_tool_use(c)),
                interpret::pre_tool_use,
            )
            .with_matcher(move |c| selects(&matcher, &condition, &c.common, &c.call)),
        ),
        HookEvent::PermissionRequest => registry.permission_request.push(
            entry(
                HookEvent::PermissionRequest,
                &hook,
                |c: &PermissionRequestContext| (c.common.clone(), payload::permission_request(c)),
                interpret::permission_request,
            )
            .with_matcher(move |c| selects(&matcher, &condition, &c.common, &c.call)),
        ),
        HookEvent::PostToolUse => registry.post_tool_use.push(
            entry(
                HookEvent::PostToolUse,
                &hook,
                |c: &PostToolUseContext| (c.common.clone(), payload::post_tool_use(c)),
                |run, as_, _| interpret::post_tool_use(run, as_),
            )
            .with_matcher(move |c| {
                !c.result.is_error() && selects(&matcher, &condition, &c.common, &c.call)
            }),
        ),
        HookEvent::PostToolUseFailure => registry.post_tool_use.push(
            entry(
                HookEvent::PostToolUse,
                &hook,
                |c: &PostToolUseContext| (c.common.clone(), payload::post_tool_use(c)),
                |run, as_, _| interpret::post_tool_use(run, as_),
            )
            .with_matcher(move |c| {
                c.result.is_error() && selects(&matcher, &condition, &c.common, &c.call)
            })
            .recorded_as(HookEvent::PostToolUseFailure),
        ),
        HookEvent::Stop => registry.stop.push(entry(
            HookEvent::Stop,
            &hook,
            |c: &StopContext| (c.common.clone(), payload::stop(c)),
            |run, as_, _| interpret::stop(run, as_),
        )),
        HookEvent::SubagentStart => registry.subagent_start.push(
            entry(
                HookEvent::SubagentStart,
                &hook,
                |c: &SubagentStartContext| (c.common.clone(), payload::subagent_start(c)),
                |run, as_, _| interpret::subagent_start(run, as_),
            )
            .with_matcher(move |c| matcher.matches(agent_type(&c.common))),
        ),
        HookEvent::SubagentStop => registry.subagent_stop.push(
            entry(
                HookEvent::SubagentStop,
                &hook,
                |c: &SubagentStopContext| (c.common.clone(), payload::stop(c)),
                |run, as_, _| interpret::stop(run, as_),
            )
            .with_matcher(move |c| matcher.matches(agent_type(&c.common)))
            .recorded_as(HookEvent::SubagentStop),
        ),
        HookEvent::PreCompact => registry.pre_compact.push(
            entry(
                HookEvent::PreCompact,
                &hook,
                |c: &PreCompactContext| (c.common.clone(), payload::pre_compact(c)),
                |run, as_, _| interpret::pre_compact(run, as_),
            )
            .with_matcher(move |c| matcher.matches(c.trigger.as_str())),
        ),
        HookEvent::Notification => registry.notification.push(
            entry(
                HookEvent::Notification,
                &hook,
                |c: &NotificationContext| (c.common.clone(), payload::notification(c)),
                |run, as_, _| interpret::notification(run, as_),
            )
            .with_matcher(move |c| matcher.matches(&c.notification_type)),
        ),
        HookEvent::SessionEnd => registry.session_end.push(
            entry(
                HookEvent::SessionEnd,
                &hook,
                |c: &SessionEndContext| (c.common.clone(), payload::session_end(c)),
                |run, as_, _| interpret::session_end(run, as_),
            )
            .with_matcher(move |c| {
                matcher.matches(c.exit.as_str()) || matcher.matches(c.reason.as_str())
            }),
        ),
        HookEvent::StopFailure => registry.stop_failure.push(entry(
            HookEvent::StopFailure,
            &hook,
            |c: &crate::StopFailureContext| (c.common.clone(), payload::stop_failure(c)),
            |run, as_, _| interpret::observed(run, as_),
        )),
        HookEvent::PermissionDenied => registry.permission_denied.push(
            entry(
                HookEvent::PermissionDenied,
                &hook,
                |c: &crate::PermissionDeniedContext| {
                    (c.common.clone(), payload::permission_denied(c))
                },
                |run, as_, _| interpret::observed(run, as_),
            )
            .with_matcher(move |c| matcher.matches(&c.tool_name)),
        ),
        HookEvent::PostCompact => registry.post_compact.push(
            entry(
                HookEvent::PostCompact,
                &hook,
                |c: &crate::PostCompactContext| (c.common.clone(), payload::post_compact(c)),
                |run, as_, _| interpret::observed(run, as_),
            )
            .with_matcher(move |c| matcher.matches(c.trigger.as_str())),
        ),
        HookEvent::PostToolBatch => registry.post_tool_batch.push(entry(
            HookEvent::PostToolBatch,
            &hook,
            |c: &crate::PostToolBatchContext| (c.common.clone(), payload::post_tool_batch(c)),
            |run, as_, _| interpret::post_tool_batch(run, as_),
        )),
        HookEvent::UserPromptExpansion => registry.user_prompt_expansion.push(
            entry(
                HookEvent::UserPromptExpansion,
                &hook,
                |c: &crate::UserPromptExpansionContext| {
                    (c.common.clone(), payload::user_prompt_expansion(c))
                },
                |run, as_, _| interpret::user_prompt_submit(run, as_),
            )
            .with_matcher(move |c| matcher.matches(&c.command_name)),
        ),
        HookEvent::InstructionsLoaded => registry.instructions_loaded.push(
            entry(
                HookEvent::InstructionsLoaded,
                &hook,
                |c: &crate::InstructionsLoadedContext| {
                    (c.common.clone(), payload::instructions_loaded(c))
                },
                |run, as_, _| interpret::observed(run, as_),
            )
            .with_matcher(move |c| matcher.matches(&c.load_reason)),
        ),
    }
}

/// The subagent type a SubagentStart/SubagentStop matcher is compared with.
fn agent_type(common: &HookCommon) -> &str {
    common
        .agent
        .as_ref()
        .map_or("", |agent| agent.agent_type.as_str())
}
