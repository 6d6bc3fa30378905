//! Turning validated settings into registry entries: one [`HookEntry`] per
//! command hook, under its event's list, with its matcher, origin (file and
//! index) and failure policy. PostToolUseFailure hooks sit in the PostToolUse
//! list, run only when the tool failed and are recorded under their own name;
//! PostToolUse command hooks run only when it succeeded. `once` hooks run at
//! most once per registry (one session); `async` hooks run in the background
//! and answer at once with nothing.

use super::wire::ReadAs;
use super::{CallCondition, CommandHook, ConditionCompiler, HookServices, RunLog};
use crate::events::*;
use crate::{HookEntry, HookError, HookOrigin, HookRegistry};
use agenthub_settings::{CommandHookConfig, Matcher, MatcherTarget};
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

/// Whether a settings hook with `matcher` (and `if` condition) runs for one
/// firing of its event.
fn selects<E: EventSpec>(
    matcher: &Matcher,
    condition: Option<&dyn CallCondition>,
    context: &E::Context,
) -> bool {
    match E::subject(context) {
        MatcherSubject::Everything => true,
        MatcherSubject::Nothing => false,
        MatcherSubject::Value(value) => matcher.matches(value),
        MatcherSubject::EitherValue(first, second) => {
            matcher.matches(first) || matcher.matches(second)
        }
        MatcherSubject::Call(call) => {
            matcher.matches(call.name())
                && condition
                    .is_none_or(|condition| condition.matches(call, &E::common(context).workspace))
        }
    }
}

/// The registry entry of one settings hook of event `E`: its handler runs
/// the hook on the event's stdin and reads the answer against the event's
/// contract; its matcher and `if` pick the firings it runs for.
fn entry<E: EventSpec>(
    hook: CommandHook,
    condition: Option<Arc<dyn CallCondition>>,
) -> HookEntry<E::Context, E::Result> {
    let config = hook.config.clone();
    let matcher = config.matcher.clone();
    let shared = Arc::new(Shared {
        hook,
        ran_once: AtomicBool::new(false),
    });
    let origin = HookOrigin::Settings {
        file: config.source.display().to_string(),
        index: config.index,
    };
    HookEntry::new(
        E::EVENT,
        config.display_command(),
        move |context: E::Context| run_hook::<E>(shared.clone(), context),
    )
    .with_matcher(move |context| selects::<E>(&matcher, condition.as_deref(), context))
    .with_origin(origin)
    .with_failure_policy(config.on_failure)
    .with_identity(identity(&config))
}

/// What makes two settings hooks the same hook (run once per firing): the
/// event, the command and its arguments, its `if` — two conditions that
/// both match a call run the command twice, as in Claude Code — and the
/// plugin's folder, since `${CLAUDE_PLUGIN_ROOT}` in the same text names
/// another program in another plugin — and the handler's type, so an
/// application's callback `hook_0` is never a command named `hook_0`.
fn identity(config: &CommandHookConfig) -> String {
    let root = config.plugin.as_ref().map(|plugin| &plugin.root);
    format!(
        "{}\u{0}{}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{0}{:?}",
        config.event,
        config.command,
        config.args,
        config.condition,
        root,
        config.handler.label()
    )
}

/// One hook's handler state: the hook and whether a `once` hook already ran.
struct Shared {
    hook: CommandHook,
    ran_once: AtomicBool,
}

async fn run_hook<E: EventSpec>(
    shared: Arc<Shared>,
    context: E::Context,
) -> Result<E::Result, HookError> {
    let config = shared.hook.config.clone();
    if config.once && shared.ran_once.swap(true, Ordering::SeqCst) {
        return Ok(E::Result::default());
    }
    let common = E::common(&context).clone();
    let payload = crate::events::stdin::<E>(&context)?;
    let tool_use_id = tool_use_id::<E>(&context, &payload);
    if config.run_async {
        let hook = shared.hook.clone();
        tokio::spawn(async move {
            let run = hook.invoke(&common, &payload, tool_use_id.as_deref()).await;
            hook.report::<()>(run, &Ok(()));
        });
        return Ok(E::Result::default());
    }
    let run = shared
        .hook
        .invoke(&common, &payload, tool_use_id.as_deref())
        .await;
    let name = config.display_command();
    let file = config.source.display().to_string();
    let strict =
        config.on_failure_given && config.on_failure == agenthub_settings::FailurePolicy::Block;
    let result = E::read(&run, ReadAs::of::<E>(&name, &file, strict), &context);
    shared.hook.report(run, &result);
    result
}

/// The id of the call a firing is about: the stdin's `tool_use_id`, else
/// the call a tool event matches on (PermissionRequest's stdin has none);
/// `None` on events without a call.
fn tool_use_id<E: EventSpec>(context: &E::Context, payload: &serde_json::Value) -> Option<String> {
    if let Some(id) = payload
        .get("tool_use_id")
        .and_then(serde_json::Value::as_str)
    {
        return Some(id.to_owned());
    }
    match E::subject(context) {
        MatcherSubject::Call(call) => Some(call.id().to_owned()),
        _ => None,
    }
}

/// Appends the entry of one settings hook of event `E` to `E`'s hooks.
fn add<E: Listed>(
    registry: &mut HookRegistry,
    hook: CommandHook,
    condition: Option<Arc<dyn CallCondition>>,
) {
    registry.push::<E>(entry::<E>(hook, condition));
}

/// Registers one settings hook under its event (`events::for_event` maps
/// its name to its module).
fn register(
    registry: &mut HookRegistry,
    hook: CommandHook,
    condition: Option<Arc<dyn CallCondition>>,
) {
    let event = hook.config.event;
    crate::events::for_event(
        event,
        Add {
            registry,
            hook,
            condition,
        },
    );
}

/// Appends one settings hook to its event's list.
struct Add<'a> {
    registry: &'a mut HookRegistry,
    hook: CommandHook,
    condition: Option<Arc<dyn CallCondition>>,
}

impl crate::events::ForEvent for Add<'_> {
    type Output = ();

    fn on<E: Listed>(self) {
        add::<E>(self.registry, self.hook, self.condition);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HookEvent;
    use serde_json::json;
    use std::path::Path;

    /// `PreToolUse` → `pre_tool_use`.
    fn snake_case(name: &str) -> String {
        let mut snake = String::new();
        for (index, letter) in name.chars().enumerate() {
            if letter.is_ascii_uppercase() && index > 0 {
                snake.push('_');
            }
            snake.push(letter.to_ascii_lowercase());
        }
        snake
    }

    #[test]
    fn the_same_command_text_in_two_plugins_is_two_hooks_and_in_two_files_one() {
        let hooks = json!({"SessionStart": [{"hooks": [
            {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/start.sh"}]}]});
        let read = |file: &str, plugin: Option<&str>| {
            let mut configs =
                agenthub_settings::parse_hooks_value(Path::new(file), hooks.clone()).unwrap();
            configs[0].plugin = plugin.map(|name| agenthub_settings::HookPlugin {
                name: name.to_owned(),
                root: Path::new("/plugins").join(name),
            });
            identity(&configs[0])
        };
        assert_eq!(
            (
                read("/a/hooks.json", Some("explain")) == read("/b/hooks.json", Some("learn")),
                read("/a/settings.json", None) == read("/b/settings.json", None)
            ),
            (false, true)
        );
    }

    #[test]
    fn a_settings_hook_of_every_event_is_kept_in_its_events_list_and_recorded_under_its_name() {
        for event in HookEvent::ALL {
            let hooks =
                json!({event.as_str(): [{"hooks": [{"type": "command", "command": "true"}]}]});
            let configs =
                agenthub_settings::parse_hooks_value(Path::new("/ws/.claude/settings.json"), hooks)
                    .unwrap();
            let registry = CommandHooks::new(configs).into_registry().unwrap();
            let list = match event {
                HookEvent::PostToolUseFailure => "post_tool_use".to_owned(),
                other => snake_case(other.as_str()),
            };
            assert_eq!(
                registry.placements(),
                vec![(list.as_str(), event)],
                "{event}"
            );
        }
    }
}
