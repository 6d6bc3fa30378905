//! Codex's and Gemini CLI's hook configurations (contract §21), read in their own
//! formats and turned into AgentHub's (Claude Code's) before the one settings
//! parser checks them, so that their hooks run unchanged: events and tool
//! names in matchers are mapped, everything else about a hook is as it was.
//! Only their hooks are read; the rest of those files belongs to their
//! agents. Their project files are project layers, so they act only once the
//! workspace is trusted, like every project file.
//!
//! Nothing here runs a hook or reads a file other than the layer's own.

use crate::layers::{LayerFormat, SettingsLayer};
use crate::load::{parse_file, parse_json, parse_value, read_text, FileSettings};
use crate::SettingsError;
use serde_json::{json, Map, Value};
use std::path::Path;

/// The settings of `layer`, read in its format.
pub(crate) fn parse_layer(layer: &SettingsLayer) -> Result<FileSettings, SettingsError> {
    match &layer.inline {
        Some(text) => crate::load::parse_str(&layer.path, text),
        None => parse_file_as(&layer.path, layer.format),
    }
}

/// The format of a workspace configuration file named as in
/// [`PROJECT_CONFIG_FILES`](crate::PROJECT_CONFIG_FILES).
pub fn project_file_format(name: &str) -> LayerFormat {
    match name {
        ".codex/hooks.json" => LayerFormat::Codex,
        ".codex/config.toml" => LayerFormat::CodexToml,
        ".gemini/settings.json" => LayerFormat::Gemini,
        _ => LayerFormat::Claude,
    }
}

/// Reads and validates the file at `path` in `format`: a Codex or Gemini
/// CLI file gives only its hooks, mapped onto AgentHub's events and tools.
pub fn parse_file_as(path: &Path, format: LayerFormat) -> Result<FileSettings, SettingsError> {
    let convert = match format {
        LayerFormat::Claude => return parse_file(path),
        LayerFormat::Codex | LayerFormat::CodexToml => codex,
        LayerFormat::Gemini => gemini,
    };
    let text = read_text(path)?;
    let value = match format {
        LayerFormat::CodexToml => crate::toml::parse(path, &text)?,
        _ => parse_json(path, &text)?,
    };
    let mut warnings = Vec::new();
    let hooks = value.get("hooks").cloned().unwrap_or_else(|| json!({}));
    let converted = convert(hooks, path, &mut warnings)?;
    let mut settings = parse_value(path, json!({ "hooks": converted }))?;
    settings.warnings.extend(warnings);
    Ok(settings)
}

fn invalid(path: &Path, at: &str, message: &str) -> SettingsError {
    SettingsError::Invalid {
        file: path.to_path_buf(),
        path: at.to_owned(),
        message: message.to_owned(),
    }
}

/// Codex: Claude Code's shape; `apply_patch` is AgentHub's Edit and Write.
fn codex(hooks: Value, path: &Path, _warnings: &mut Vec<String>) -> Result<Value, SettingsError> {
    let Value::Object(events) = hooks else {
        return Err(invalid(path, "hooks", "hooks must be an object of events"));
    };
    let mapped = events
        .into_iter()
        .map(|(event, groups)| (event, map_groups(groups, codex_tools, None)))
        .collect();
    Ok(Value::Object(mapped))
}

fn codex_tools(matcher: &str) -> String {
    let exact = matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-|, ".contains(c));
    let edits = if exact {
        "Edit|Write"
    } else {
        "(?:Edit|Write)"
    };
    matcher.replace("apply_patch", edits)
}

/// Gemini CLI's events and the AgentHub events they are.
pub(crate) const GEMINI_EVENTS: &[(&str, &str)] = &[
    ("BeforeTool", "PreToolUse"),
    ("AfterTool", "PostToolUse"),
    ("BeforeAgent", "UserPromptSubmit"),
    ("AfterAgent", "Stop"),
    ("SessionStart", "SessionStart"),
    ("SessionEnd", "SessionEnd"),
    ("PreCompress", "PreCompact"),
    ("Notification", "Notification"),
];

/// Gemini CLI's built-in tools and AgentHub's.
const GEMINI_TOOLS: &[(&str, &str)] = &[
    ("run_shell_command", "Bash"),
    ("write_file", "Write"),
    ("replace", "Edit"),
    ("read_file", "Read"),
    ("read_many_files", "Read"),
    ("glob", "Glob"),
    ("search_file_content", "Grep"),
    ("grep_search", "Grep"),
    ("web_fetch", "WebFetch"),
];

/// Gemini CLI: its event names, its tool names in matchers, and `timeout` in
/// milliseconds; hook keys only Gemini reads (`name`, `description`) dropped.
fn gemini(hooks: Value, path: &Path, warnings: &mut Vec<String>) -> Result<Value, SettingsError> {
    let Value::Object(events) = hooks else {
        return Err(invalid(path, "hooks", "hooks must be an object of events"));
    };
    let mut mapped = Map::new();
    for (event, groups) in events {
        if !groups.is_array() {
            continue; // `enabled`, `disabled` and other switches of Gemini's own
        }
        match GEMINI_EVENTS.iter().find(|(gemini, _)| *gemini == event) {
            Some((_, ours)) => {
                let groups = map_groups(groups, gemini_tools, Some(gemini_hook));
                mapped.insert((*ours).to_owned(), groups);
            }
            None => warnings.push(format!(
                "{}: hooks.{event}: Gemini CLI's {event} has no AgentHub event; these hooks are ignored",
                path.display()
            )),
        }
    }
    Ok(Value::Object(mapped))
}

fn gemini_tools(matcher: &str) -> String {
    let mut mapped = matcher.to_owned();
    for (gemini, ours) in GEMINI_TOOLS {
        mapped = replace_word(&mapped, gemini, ours);
    }
    mapped
}

/// `text` with every `word` that stands alone (not inside a longer name) replaced.
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + word.len()..].chars().next();
        out.push_str(&rest[..at]);
        if before.is_some_and(is_name) || after.is_some_and(is_name) {
            out.push_str(word);
        } else {
            out.push_str(by);
        }
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    out
}

/// A Gemini hook as AgentHub reads it: `timeout` from milliseconds to
/// seconds (rounded up), Gemini-only keys dropped.
fn gemini_hook(hook: &mut Map<String, Value>) {
    hook.remove("name");
    hook.remove("description");
    if let Some(ms) = hook.get("timeout").and_then(Value::as_u64) {
        hook.insert("timeout".into(), json!(ms.div_ceil(1000).max(1)));
    }
}

/// Each matcher group of an event with its matcher mapped (and, given,
/// each hook); a value that is not a list of groups is left for the parser
/// to refuse with its JSON path.
fn map_groups(
    groups: Value,
    matcher: impl Fn(&str) -> String,
    hook: Option<fn(&mut Map<String, Value>)>,
) -> Value {
    let Value::Array(groups) = groups else {
        return groups;
    };
    let groups = groups.into_iter().map(|mut group| {
        if let Some(Value::String(text)) = group.get_mut("matcher") {
            *text = matcher(text);
        }
        if let (Some(Value::Array(hooks)), Some(hook)) = (group.get_mut("hooks"), hook) {
            hooks
                .iter_mut()
                .filter_map(Value::as_object_mut)
                .for_each(hook);
        }
        if let Some(object) = group.as_object_mut() {
            object.remove("sequential"); // Gemini's; AgentHub always runs hooks in order
        }
        group
    });
    Value::Array(groups.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_apply_patch_is_edit_and_write_in_a_list_and_in_a_regex() {
        assert_eq!(
            (
                codex_tools("Bash|apply_patch"),
                codex_tools("^apply_patch$")
            ),
            ("Bash|Edit|Write".to_owned(), "^(?:Edit|Write)$".to_owned())
        );
    }

    #[test]
    fn gemini_tool_names_are_mapped_only_where_they_stand_alone() {
        assert_eq!(
            gemini_tools("run_shell_command|write_file|my_replace_tool|replace"),
            "Bash|Write|my_replace_tool|Edit"
        );
    }

    #[test]
    fn gemini_events_are_mapped_and_one_without_a_counterpart_is_ignored_with_a_warning() {
        let hooks = json!({
            "enabled": true,
            "BeforeTool": [{"matcher": "run_shell_command", "sequential": true,
                "hooks": [{"name": "guard", "type": "command", "command": "./g.sh", "timeout": 1500}]}],
            "BeforeModel": [{"hooks": [{"type": "command", "command": "./m.sh"}]}]
        });
        let mut warnings = Vec::new();
        let mapped = gemini(hooks, Path::new("/w/.gemini/settings.json"), &mut warnings).unwrap();
        assert_eq!(
            (mapped, warnings),
            (
                json!({"PreToolUse": [{"matcher": "Bash",
                    "hooks": [{"type": "command", "command": "./g.sh", "timeout": 2}]}]}),
                vec!["/w/.gemini/settings.json: hooks.BeforeModel: Gemini CLI's BeforeModel has no AgentHub event; these hooks are ignored".to_owned()]
            )
        );
    }
}
