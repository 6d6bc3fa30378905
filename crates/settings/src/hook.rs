//! One hook from a settings file, validated: the event, the matcher, what to
//! run (a command, or another handler type: see `handler`), its timeout and
//! what its failure means.

use crate::handler::{parse_kind, HookHandler};
use crate::matcher::Matcher;
use crate::SettingsError;
use agenthub_protocol::{FailurePolicy, HookEvent, MatcherTarget};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The timeout of a hook that sets none (docs/hooks.md: 600 seconds).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// Timeouts above this many seconds are probably milliseconds by mistake.
const SUSPICIOUS_TIMEOUT_SECS: f64 = 3600.0;

/// A validated command hook.
#[derive(Debug, Clone)]
pub struct CommandHookConfig {
    /// The event the hook runs on.
    pub event: HookEvent,
    /// Which calls or sessions the hook runs for, from its matcher group.
    pub matcher: Matcher,
    /// Shell form: the `sh -c` string. Exec form (with `args`): the program.
    pub command: String,
    /// Present for the exec form: each element is one argv entry, no shell.
    pub args: Option<Vec<String>>,
    /// Claude Code's `if`: one permission rule (`Bash(git *)`, `Edit(*.ts)`)
    /// the call must match for the hook to run. Tool events only; on other
    /// events a hook with `if` never runs.
    pub condition: Option<String>,
    /// How long the hook may run before it is killed and counted as failed
    /// ([`DEFAULT_TIMEOUT`] when the file sets none).
    pub timeout: Duration,
    /// The hook's `onFailure`, or its event's default for external hooks
    /// ([`command_failure_default`]).
    pub on_failure: FailurePolicy,
    /// True when the file sets `onFailure`: then non-blocking errors (an exit
    /// code other than 0 and 2) follow it too; without it they are warnings.
    pub on_failure_given: bool,
    /// What runs: a command (`command`/`args` above), an HTTP endpoint, a
    /// model prompt or an MCP tool.
    pub handler: HookHandler,
    /// `"async": true`: runs in the background, never blocks or decides.
    pub run_async: bool,
    /// `"once": true`: runs at most once per session.
    pub once: bool,
    /// The settings file the hook comes from.
    pub source: PathBuf,
    /// The hook's index among this event's hooks in its file, from 0.
    pub index: usize,
    /// Where the hook is written: `hooks.PreToolUse[0].hooks[1]`.
    pub json_path: String,
    /// The plugin the hook comes with (contract §20); `None` for a settings
    /// file's own hook.
    pub plugin: Option<HookPlugin>,
}

/// The plugin a hook comes with: its name (`hooks list` says `plugin:NAME`)
/// and its installed folder (`CLAUDE_PLUGIN_ROOT` for the hook).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookPlugin {
    /// The plugin's name.
    pub name: String,
    /// Its installed folder.
    pub root: PathBuf,
}

impl CommandHookConfig {
    /// Two hooks with the same key are the same hook: it runs once.
    pub fn dedupe_key(
        &self,
    ) -> (
        HookEvent,
        String,
        Option<String>,
        String,
        Option<Vec<String>>,
    ) {
        (
            self.event,
            self.matcher.key().to_owned(),
            self.condition.clone(),
            self.command.clone(),
            self.args.clone(),
        )
    }

    /// The command line (or handler) as a person reads it.
    pub fn display_command(&self) -> String {
        if let Some(label) = self.handler.label() {
            return label;
        }
        match &self.args {
            None => self.command.clone(),
            Some(args) => {
                let mut parts = vec![self.command.clone()];
                parts.extend(args.iter().cloned());
                format!("[exec] {}", parts.join(" "))
            }
        }
    }
}

/// What a failure of an external hook means when the file sets no
/// `onFailure` (docs/hooks.md "When a hook cannot do its job"): PreToolUse and
/// PermissionRequest block (a gate that could not run must not let the call
/// through); every other event warns and goes on, as in Claude Code.
pub fn command_failure_default(event: HookEvent) -> FailurePolicy {
    match event {
        HookEvent::PreToolUse | HookEvent::PermissionRequest => FailurePolicy::Block,
        _ => FailurePolicy::Continue,
    }
}

/// Where a handler is being read, for error messages and warnings.
pub(crate) struct HandlerSite<'a> {
    pub file: &'a Path,
    pub event: HookEvent,
    pub matcher: &'a Matcher,
    pub path: String,
    pub index: usize,
}

impl HandlerSite<'_> {
    pub(crate) fn invalid(&self, field: &str, message: impl Into<String>) -> SettingsError {
        let path = if field.is_empty() {
            self.path.clone()
        } else {
            format!("{}.{field}", self.path)
        };
        SettingsError::Invalid {
            file: self.file.to_path_buf(),
            path,
            message: message.into(),
        }
    }
}

/// Handler keys Claude Code knows that change nothing here.
const IGNORED_KEYS: &[&str] = &["statusMessage", "shell"];

/// Reads one handler object; `warnings` collects what is accepted but
/// ignored. `None`: an `agent` hook off the gates, skipped with a warning.
pub(crate) fn parse_handler(
    site: HandlerSite<'_>,
    value: &Value,
    warnings: &mut Vec<String>,
) -> Result<Option<CommandHookConfig>, SettingsError> {
    let object = value
        .as_object()
        .ok_or_else(|| site.invalid("", "a hook must be an object with a \"command\""))?;
    let (handler, command, known) = parse_kind(&site, object)?;
    let args = match handler {
        HookHandler::Command => parse_args(&site, object.get("args"))?,
        _ => None,
    };
    let condition = parse_condition(&site, object.get("if"), warnings)?;
    let timeout = parse_timeout(&site, object.get("timeout"), warnings)?;
    let (on_failure, on_failure_given) = parse_on_failure(&site, object.get("onFailure"))?;
    let run_async = flag(&site, object, "async")?;
    let once = flag(&site, object, "once")?;
    warn_about_keys(&site, object, known, warnings);
    Ok(Some(CommandHookConfig {
        event: site.event,
        matcher: site.matcher.clone(),
        command,
        args,
        condition,
        timeout,
        on_failure,
        on_failure_given,
        handler,
        run_async,
        once,
        source: site.file.to_path_buf(),
        index: site.index,
        json_path: site.path.clone(),
        plugin: None,
    }))
}

fn flag(
    site: &HandlerSite<'_>,
    object: &Map<String, Value>,
    key: &str,
) -> Result<bool, SettingsError> {
    match object.get(key) {
        None => Ok(false),
        Some(Value::Bool(value)) => Ok(*value),
        Some(other) => Err(site.invalid(key, format!("{key} must be true or false, not {other}"))),
    }
}

fn parse_args(
    site: &HandlerSite<'_>,
    value: Option<&Value>,
) -> Result<Option<Vec<String>>, SettingsError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let items = value
        .as_array()
        .ok_or_else(|| site.invalid("args", "args must be an array of strings"))?;
    items
        .iter()
        .enumerate()
        .map(|(position, item)| {
            item.as_str().map(str::to_owned).ok_or_else(|| {
                site.invalid(
                    &format!("args[{position}]"),
                    "each argument must be a string",
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn parse_condition(
    site: &HandlerSite<'_>,
    value: Option<&Value>,
    warnings: &mut Vec<String>,
) -> Result<Option<String>, SettingsError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let rule = value
        .as_str()
        .filter(|rule| !rule.trim().is_empty())
        .ok_or_else(|| {
            site.invalid("if", "if must be one permission rule, e.g. \"Bash(git *)\"")
        })?;
    if site.event.matcher_target() != MatcherTarget::ToolName {
        warnings.push(format!(
            "{} {}.if: a {} hook with \"if\" never runs (conditions apply to tool events only)",
            site.file.display(),
            site.path,
            site.event
        ));
    }
    Ok(Some(rule.to_owned()))
}

fn parse_timeout(
    site: &HandlerSite<'_>,
    value: Option<&Value>,
    warnings: &mut Vec<String>,
) -> Result<Duration, SettingsError> {
    let Some(value) = value else {
        return Ok(DEFAULT_TIMEOUT);
    };
    let seconds = value.as_f64().ok_or_else(|| {
        site.invalid(
            "timeout",
            format!("the timeout must be a number of seconds, not {value}"),
        )
    })?;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(site.invalid(
            "timeout",
            format!("the timeout must be a positive number of seconds, not {value}"),
        ));
    }
    if seconds > SUSPICIOUS_TIMEOUT_SECS {
        warnings.push(format!(
            "{} {}.timeout: {seconds} seconds is over an hour; timeouts are in seconds, not milliseconds",
            site.file.display(),
            site.path
        ));
    }
    Duration::try_from_secs_f64(seconds)
        .map_err(|error| site.invalid("timeout", format!("the timeout is out of range: {error}")))
}

fn parse_on_failure(
    site: &HandlerSite<'_>,
    value: Option<&Value>,
) -> Result<(FailurePolicy, bool), SettingsError> {
    match value {
        None => Ok((command_failure_default(site.event), false)),
        Some(Value::String(text)) if text == "block" => Ok((FailurePolicy::Block, true)),
        Some(Value::String(text)) if text == "continue" => Ok((FailurePolicy::Continue, true)),
        Some(other) => Err(site.invalid(
            "onFailure",
            format!("onFailure must be \"block\" or \"continue\", not {other}"),
        )),
    }
}

fn warn_about_keys(
    site: &HandlerSite<'_>,
    object: &Map<String, Value>,
    handler_keys: &[&str],
    warnings: &mut Vec<String>,
) {
    let known = ["type", "if", "timeout", "onFailure", "async", "once"];
    for key in object.keys() {
        let note = match key.as_str() {
            key if known.contains(&key)
                || handler_keys.contains(&key)
                || IGNORED_KEYS.contains(&key) =>
            {
                continue
            }
            "asyncRewake" => "is not supported: the hook runs without it",
            _ => "is unknown and ignored",
        };
        warnings.push(format!(
            "{} {}.{key} {note}",
            site.file.display(),
            site.path
        ));
    }
}
