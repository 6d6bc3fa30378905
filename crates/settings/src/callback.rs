//! The hooks an application registers for its own callbacks (the Agent
//! SDK's `initialize` request: `"hooks": {"PreToolUse": [{"matcher": "Bash",
//! "hookCallbackIds": ["hook_0"], "timeout": 30, "onFailure": "block"}]}`),
//! turned into [`CommandHookConfig`]s whose handler is
//! [`HookHandler::Callback`], so they run through the same registry and
//! chains as the settings files' hooks (SPEC §30: "the SDK's hooks run as
//! hooks of the user layer").
//!
//! Only an application's own registration comes here; a settings file can
//! never declare a callback hook. Nothing here runs or calls anything.

use crate::handler::HookHandler;
use crate::hook::CommandHookConfig;
use crate::matcher::{Matcher, MatcherError};
use agenthub_protocol::{FailurePolicy, HookEvent};
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

/// What the hooks of an application name as their source (their records'
/// `file`, and "hook from …" in messages): they come from no file.
pub const APPLICATION_HOOKS_SOURCE: &str = "the application (hook callbacks)";

/// How long a callback may take when its registration sets no `timeout`
/// (the Agent SDK's documented default: 60 seconds).
pub const CALLBACK_DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// One matcher group of an application's hook registration: every callback
/// in it runs for the event's firings the matcher selects.
#[derive(Debug, Clone, PartialEq)]
pub struct CallbackRegistration {
    /// The event's name as Claude Code spells it (`PreToolUse`).
    pub event: String,
    /// The matcher (`Bash`, `Write|Edit`); `None` matches everything.
    pub matcher: Option<String>,
    /// The application's callback ids, in the order they run.
    pub callback_ids: Vec<String>,
    /// Seconds each callback may take; `None`: [`CALLBACK_DEFAULT_TIMEOUT`].
    pub timeout_secs: Option<f64>,
    /// `onFailure`: `"block"` makes a callback that fails block; `None` or
    /// `"continue"` counts a failure as no decision; any other value is read
    /// as `"block"`, as Claude Code reads it. Stop and SubagentStop ignore it.
    pub on_failure: Option<String>,
}

/// A registration that cannot be turned into hooks.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CallbackHookError {
    /// The event name is not one AgentHub or Claude Code knows.
    #[error("unknown hook event {name:?}; known events: {known}")]
    UnknownEvent {
        /// The name as registered.
        name: String,
        /// The events AgentHub fires, comma-separated.
        known: String,
    },
    /// Claude Code fires this event; AgentHub never does, so its callbacks
    /// would never run.
    #[error("hook event {name:?} is a Claude Code event AgentHub never fires; its callbacks would never run")]
    EventNeverFired {
        /// The name as registered.
        name: String,
    },
    /// The matcher does not compile.
    #[error("the {event} matcher: {source}")]
    InvalidMatcher {
        /// The event it was registered for.
        event: HookEvent,
        /// Why it does not compile.
        source: MatcherError,
    },
    /// The timeout is not a positive number of seconds.
    #[error("the {event} hooks' timeout must be a positive number of seconds, not {seconds}")]
    InvalidTimeout {
        /// The event it was registered for.
        event: HookEvent,
        /// The timeout as registered.
        seconds: f64,
    },
    /// The wire value is not of the registration's shape.
    #[error("hooks{path}: {message}")]
    Malformed {
        /// Where in the `hooks` value (`.PreToolUse[0].hookCallbackIds`).
        path: String,
        /// What was expected.
        message: String,
    },
}

impl CallbackRegistration {
    /// The registrations of an `initialize` request's `hooks` value, in
    /// order: an object of event names to arrays of `{matcher,
    /// hookCallbackIds, timeout, onFailure}`; `null` (Python's "no hooks")
    /// is none. Event names are checked by [`callback_hooks`], not here.
    ///
    /// ```
    /// use agenthub_settings::CallbackRegistration;
    /// let hooks = serde_json::json!({"PreToolUse": [
    ///     {"matcher": "Bash", "hookCallbackIds": ["hook_0"], "timeout": 30}]});
    /// let registrations = CallbackRegistration::from_initialize(&hooks).unwrap();
    /// assert_eq!(registrations[0].callback_ids, vec!["hook_0".to_owned()]);
    /// assert!(CallbackRegistration::from_initialize(&serde_json::Value::Null).unwrap().is_empty());
    /// ```
    pub fn from_initialize(hooks: &Value) -> Result<Vec<CallbackRegistration>, CallbackHookError> {
        let malformed = |path: String, message: &str| CallbackHookError::Malformed {
            path,
            message: message.to_owned(),
        };
        let events = match hooks {
            Value::Null => return Ok(Vec::new()),
            Value::Object(events) => events,
            _ => {
                return Err(malformed(
                    String::new(),
                    "must be an object keyed by event name",
                ))
            }
        };
        let mut registrations = Vec::new();
        for (event, groups) in events {
            let groups = match groups {
                Value::Null => continue,
                Value::Array(groups) => groups,
                _ => {
                    return Err(malformed(
                        format!(".{event}"),
                        "must be an array of matchers",
                    ))
                }
            };
            for (position, group) in groups.iter().enumerate() {
                let path = format!(".{event}[{position}]");
                let field = |key: &str| group.get(key).filter(|value| !value.is_null());
                let matcher = match field("matcher") {
                    None => None,
                    Some(Value::String(text)) => Some(text.clone()),
                    Some(_) => {
                        return Err(malformed(format!("{path}.matcher"), "must be a string"))
                    }
                };
                let callback_ids = match field("hookCallbackIds") {
                    None => Vec::new(),
                    Some(Value::Array(ids)) => ids
                        .iter()
                        .map(|id| id.as_str().map(str::to_owned))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| {
                            malformed(format!("{path}.hookCallbackIds"), "must be strings")
                        })?,
                    Some(_) => {
                        return Err(malformed(
                            format!("{path}.hookCallbackIds"),
                            "must be an array of strings",
                        ))
                    }
                };
                let timeout_secs = match field("timeout") {
                    None => None,
                    Some(value) => Some(value.as_f64().ok_or_else(|| {
                        malformed(format!("{path}.timeout"), "must be a number of seconds")
                    })?),
                };
                let on_failure = match field("onFailure") {
                    None => None,
                    Some(Value::String(text)) => Some(text.clone()),
                    Some(_) => {
                        return Err(malformed(format!("{path}.onFailure"), "must be a string"))
                    }
                };
                registrations.push(CallbackRegistration {
                    event: event.clone(),
                    matcher,
                    callback_ids,
                    timeout_secs,
                    on_failure,
                });
            }
        }
        Ok(registrations)
    }
}

/// The hooks of `registrations`, one per callback id, event by event and
/// each event's in registration order: each a [`HookHandler::Callback`] of the registration's event,
/// matcher, timeout and failure policy, with [`APPLICATION_HOOKS_SOURCE`]
/// as its source and `initialize.hooks.<Event>[group].hookCallbackIds[i]`
/// as its JSON path.
///
/// ```
/// use agenthub_settings::{callback_hooks, CallbackRegistration, FailurePolicy, HookHandler};
/// let hooks = callback_hooks(&[CallbackRegistration {
///     event: "PreToolUse".to_owned(),
///     matcher: Some("Bash".to_owned()),
///     callback_ids: vec!["hook_0".to_owned()],
///     timeout_secs: Some(30.0),
///     on_failure: Some("block".to_owned()),
/// }])
/// .unwrap();
/// assert_eq!(hooks[0].handler, HookHandler::Callback { id: "hook_0".to_owned() });
/// assert_eq!(hooks[0].on_failure, FailurePolicy::Block);
/// ```
pub fn callback_hooks(
    registrations: &[CallbackRegistration],
) -> Result<Vec<CommandHookConfig>, CallbackHookError> {
    let mut hooks = Vec::new();
    let mut groups_per_event: Vec<(HookEvent, usize)> = Vec::new();
    for registration in registrations {
        let event = event_named(&registration.event)?;
        let group = match groups_per_event.iter_mut().find(|(seen, _)| *seen == event) {
            Some((_, count)) => {
                *count += 1;
                *count - 1
            }
            None => {
                groups_per_event.push((event, 1));
                0
            }
        };
        let matcher = Matcher::parse(registration.matcher.as_deref())
            .map_err(|source| CallbackHookError::InvalidMatcher { event, source })?;
        let timeout = timeout(event, registration.timeout_secs)?;
        let (on_failure, on_failure_given) =
            failure_policy(event, registration.on_failure.as_deref());
        for (position, id) in registration.callback_ids.iter().enumerate() {
            let index = hooks
                .iter()
                .filter(|hook: &&CommandHookConfig| hook.event == event)
                .count();
            hooks.push(CommandHookConfig {
                event,
                matcher: matcher.clone(),
                command: id.clone(),
                args: None,
                condition: None,
                timeout,
                on_failure,
                on_failure_given,
                handler: HookHandler::Callback { id: id.clone() },
                run_async: false,
                once: false,
                source: PathBuf::from(APPLICATION_HOOKS_SOURCE),
                index,
                json_path: format!("initialize.hooks.{event}[{group}].hookCallbackIds[{position}]"),
                plugin: None,
            });
        }
    }
    // As a settings file's: event by event, each event's in registration order.
    hooks.sort_by_key(|hook| (hook.event, hook.index));
    Ok(hooks)
}

fn event_named(name: &str) -> Result<HookEvent, CallbackHookError> {
    if let Some(event) = HookEvent::parse(name) {
        return Ok(event);
    }
    if crate::event::is_claude_code_only(name) {
        return Err(CallbackHookError::EventNeverFired {
            name: name.to_owned(),
        });
    }
    let known: Vec<&str> = HookEvent::ALL.iter().map(|event| event.as_str()).collect();
    Err(CallbackHookError::UnknownEvent {
        name: name.to_owned(),
        known: known.join(", "),
    })
}

fn timeout(event: HookEvent, seconds: Option<f64>) -> Result<Duration, CallbackHookError> {
    let Some(seconds) = seconds else {
        return Ok(CALLBACK_DEFAULT_TIMEOUT);
    };
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(CallbackHookError::InvalidTimeout { event, seconds });
    }
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| CallbackHookError::InvalidTimeout { event, seconds })
}

/// The SDK's `onFailure`: unset or `continue` is no decision, anything
/// else blocks; Stop and SubagentStop ignore it.
fn failure_policy(event: HookEvent, given: Option<&str>) -> (FailurePolicy, bool) {
    match (event, given) {
        (HookEvent::Stop | HookEvent::SubagentStop, _) | (_, None) => {
            (FailurePolicy::Continue, false)
        }
        (_, Some("continue")) => (FailurePolicy::Continue, true),
        (_, Some(_)) => (FailurePolicy::Block, true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The parts of a hook a registration decides, as one value.
    fn summary(hook: &CommandHookConfig) -> Value {
        json!({
            "event": hook.event.as_str(),
            "matcher": hook.matcher.key(),
            "handler": hook.display_command(),
            "timeout_ms": hook.timeout.as_millis() as u64,
            "on_failure": hook.on_failure.as_str(),
            "given": hook.on_failure_given,
            "index": hook.index,
            "path": hook.json_path,
        })
    }

    fn registered(hooks: Value) -> Result<Vec<Value>, CallbackHookError> {
        let registrations = CallbackRegistration::from_initialize(&hooks)?;
        Ok(callback_hooks(&registrations)?
            .iter()
            .map(summary)
            .collect())
    }

    #[test]
    fn each_callback_id_is_one_hook_of_its_groups_matcher_timeout_and_failure_policy() {
        let hooks = json!({
            "PreToolUse": [
                {"matcher": "Bash", "hookCallbackIds": ["hook_0", "hook_1"], "timeout": 1.5, "onFailure": "block"},
                {"matcher": null, "hookCallbackIds": ["hook_2"]}
            ],
            "PostToolUse": [{"hookCallbackIds": ["hook_3"], "onFailure": "continue"}]
        });
        assert_eq!(
            registered(hooks).unwrap(),
            vec![
                json!({"event": "PreToolUse", "matcher": "Bash", "handler": "[callback] hook_0", "timeout_ms": 1500, "on_failure": "block", "given": true, "index": 0, "path": "initialize.hooks.PreToolUse[0].hookCallbackIds[0]"}),
                json!({"event": "PreToolUse", "matcher": "Bash", "handler": "[callback] hook_1", "timeout_ms": 1500, "on_failure": "block", "given": true, "index": 1, "path": "initialize.hooks.PreToolUse[0].hookCallbackIds[1]"}),
                json!({"event": "PreToolUse", "matcher": "*", "handler": "[callback] hook_2", "timeout_ms": 60000, "on_failure": "continue", "given": false, "index": 2, "path": "initialize.hooks.PreToolUse[1].hookCallbackIds[0]"}),
                json!({"event": "PostToolUse", "matcher": "*", "handler": "[callback] hook_3", "timeout_ms": 60000, "on_failure": "continue", "given": true, "index": 0, "path": "initialize.hooks.PostToolUse[0].hookCallbackIds[0]"}),
            ]
        );
    }

    #[test]
    fn an_unknown_on_failure_blocks_and_stop_ignores_it() {
        let hooks = json!({
            "PreToolUse": [{"hookCallbackIds": ["a"], "onFailure": "Block"}],
            "Stop": [{"hookCallbackIds": ["b"], "onFailure": "block"}]
        });
        let policies: Vec<Value> = registered(hooks)
            .unwrap()
            .into_iter()
            .map(|hook| json!([hook["handler"], hook["on_failure"]]))
            .collect();
        assert_eq!(
            policies,
            vec![
                json!(["[callback] a", "block"]),
                json!(["[callback] b", "continue"])
            ]
        );
    }

    #[test]
    fn null_hooks_register_nothing() {
        assert_eq!(registered(Value::Null).unwrap(), Vec::<Value>::new());
    }

    #[test]
    fn an_unknown_event_name_is_an_error_listing_the_known_ones() {
        let error = registered(json!({"PreToolUze": [{"hookCallbackIds": ["a"]}]})).unwrap_err();
        let known: Vec<&str> = HookEvent::ALL.iter().map(|event| event.as_str()).collect();
        assert_eq!(
            error,
            CallbackHookError::UnknownEvent {
                name: "PreToolUze".to_owned(),
                known: known.join(", ")
            }
        );
    }

    #[test]
    fn a_claude_code_only_event_is_an_error_saying_it_never_fires() {
        assert_eq!(
            registered(json!({"TeammateIdle": [{"hookCallbackIds": ["a"]}]})).unwrap_err(),
            CallbackHookError::EventNeverFired {
                name: "TeammateIdle".to_owned()
            }
        );
    }

    #[test]
    fn a_zero_timeout_is_an_error() {
        assert_eq!(
            registered(json!({"PreToolUse": [{"hookCallbackIds": ["a"], "timeout": 0}]}))
                .unwrap_err(),
            CallbackHookError::InvalidTimeout {
                event: HookEvent::PreToolUse,
                seconds: 0.0
            }
        );
    }

    #[test]
    fn callback_ids_that_are_not_strings_are_malformed() {
        assert_eq!(
            registered(json!({"PreToolUse": [{"hookCallbackIds": [1]}]})).unwrap_err(),
            CallbackHookError::Malformed {
                path: ".PreToolUse[0].hookCallbackIds".to_owned(),
                message: "must be strings".to_owned()
            }
        );
    }
}
