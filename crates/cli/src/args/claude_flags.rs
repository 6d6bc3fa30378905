//! Claude Code's spellings of `run`'s flags (contract §29), so that a
//! command line written for `claude` works here unchanged: the rule lists
//! `--allowedTools` / `--disallowedTools`, `--add-dir`,
//! `--dangerously-skip-permissions`, `--session-id` and `--input-format`.
//! `-c`, `-r`, `--settings FILE|JSON` and `--mcp-config FILE|JSON` are the
//! existing flags' own spellings. Only definitions here; `setup.rs` turns
//! them into the same options AgentHub's own flags give.

use std::path::PathBuf;

/// The flags Claude Code spells differently from AgentHub.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ClaudeFlags {
    /// Allow rules as Claude Code takes them, e.g. `--allowedTools "Bash(git log:*)" Edit`
    /// (= --allow; comma- or space-separated; takes every argument up to the next flag).
    #[arg(long = "allowedTools", alias = "allowed-tools", value_name = "RULES", num_args = 1..)]
    pub allowed_tools: Vec<String>,
    /// Deny rules as Claude Code takes them (= --deny; comma- or
    /// space-separated; takes every argument up to the next flag).
    #[arg(long = "disallowedTools", alias = "disallowed-tools", value_name = "RULES", num_args = 1..)]
    pub disallowed_tools: Vec<String>,
    /// Another folder the session may read and edit, as
    /// `permissions.additionalDirectories` (repeatable; takes every
    /// argument up to the next flag).
    #[arg(long = "add-dir", value_name = "DIR", num_args = 1..)]
    pub add_dir: Vec<PathBuf>,
    /// Run in bypassPermissions mode (= --permission-mode bypassPermissions):
    /// nothing asks; deny rules and the sandbox still hold.
    #[arg(long, conflicts_with = "permission_mode")]
    pub dangerously_skip_permissions: bool,
    /// The new session's id (a UUID), instead of a fresh one.
    #[arg(long, value_name = "UUID", value_parser = parse_session_id,
          conflicts_with_all = ["resume", "continue_latest"])]
    pub session_id: Option<String>,
    /// What stdin carries: `text` (the prompt). `stream-json` is the Agent
    /// SDKs' protocol.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = InputFormat::Text)]
    pub input_format: InputFormat,
}

/// `--input-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum InputFormat {
    /// stdin is the prompt's text.
    #[default]
    Text,
    /// stdin carries the Agent SDKs' user messages and control requests.
    StreamJson,
}

/// `--session-id UUID`: a UUID as Claude Code writes them, lower-case.
fn parse_session_id(text: &str) -> Result<String, String> {
    let groups: Vec<&str> = text.split('-').collect();
    let shape = [8, 4, 4, 4, 12];
    let valid = groups.len() == shape.len()
        && groups.iter().zip(shape).all(|(group, length)| {
            group.len() == length && group.chars().all(|c| c.is_ascii_hexdigit())
        });
    match valid {
        true => Ok(text.to_ascii_lowercase()),
        false => Err(format!(
            "{text:?} is not a UUID (e.g. 123e4567-e89b-12d3-a456-426614174000)"
        )),
    }
}

/// The rules in `--allowedTools` / `--disallowedTools` values: each value
/// split at commas and spaces, except inside parentheses, which belong to
/// the rule (`"Bash(git log:*) Edit"` is two rules, `"Bash(npm run *)"` one).
pub fn split_rules(values: &[String]) -> Vec<String> {
    let mut rules = Vec::new();
    for value in values {
        let mut depth = 0usize;
        let mut current = String::new();
        for c in value.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ',' | ' ' | '\t' | '\n' if depth == 0 => {
                    push_rule(&mut rules, &mut current);
                    continue;
                }
                _ => {}
            }
            current.push(c);
        }
        push_rule(&mut rules, &mut current);
    }
    rules
}

fn push_rule(rules: &mut Vec<String>, current: &mut String) {
    let rule = std::mem::take(current);
    if !rule.trim().is_empty() {
        rules.push(rule.trim().to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| (*item).to_owned()).collect()
    }

    #[test]
    fn rules_are_split_at_commas_and_spaces_outside_parentheses() {
        assert_eq!(
            split_rules(&strings(&[
                "Bash(git log:*) Edit,Read",
                "Bash(npm run test *)"
            ])),
            strings(&["Bash(git log:*)", "Edit", "Read", "Bash(npm run test *)"])
        );
    }

    #[test]
    fn a_comma_inside_parentheses_belongs_to_the_rule() {
        assert_eq!(
            split_rules(&strings(&["Bash(echo a, b), Write"])),
            strings(&["Bash(echo a, b)", "Write"])
        );
    }

    #[test]
    fn a_session_id_must_be_a_uuid() {
        assert_eq!(
            parse_session_id("123E4567-E89B-12D3-A456-426614174000"),
            Ok("123e4567-e89b-12d3-a456-426614174000".to_owned())
        );
        assert_eq!(
            parse_session_id("abc"),
            Err("\"abc\" is not a UUID (e.g. 123e4567-e89b-12d3-a456-426614174000)".to_owned())
        );
    }
}
