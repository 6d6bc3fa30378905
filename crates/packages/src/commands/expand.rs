//! A typed prompt that names a custom command, expanded (contract §20):
//! `/name args` becomes the command's body with `$ARGUMENTS` replaced by
//! `args` and `$1`…`$9` by its words, and the command's variables (a
//! plugin's `CLAUDE_PLUGIN_ROOT`) carried along for its inline shell's
//! environment, never pasted into it here. A prompt whose first word names
//! no command stays a plain prompt. This module only rewrites text; the
//! UserPromptExpansion hooks run where the prompt is sent (`agenthub_core`).

use super::CustomCommands;
use agenthub_core::CommandPrompt;
use std::path::PathBuf;

/// A command prompt and what its front matter adds for that prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expansion {
    /// The names, the typed and the expanded prompt.
    pub prompt: CommandPrompt,
    /// The command's `allowed-tools`: allow rules for that prompt only.
    pub allowed_tools: Vec<String>,
    /// The command's file, where those rules are written.
    pub file: PathBuf,
    /// The command's `model`, if it names one.
    pub model: Option<String>,
}

impl CustomCommands {
    /// `typed` expanded, when its first word is `/` and a command's name.
    pub fn expand(&self, typed: &str) -> Option<Expansion> {
        let text = typed.trim();
        let rest = text.strip_prefix('/')?;
        let (name, args) = match rest.split_once(char::is_whitespace) {
            Some((name, args)) => (name, args.trim()),
            None => (rest, ""),
        };
        let command = self.get(name)?;
        Some(Expansion {
            prompt: CommandPrompt {
                name: command.name.clone(),
                args: args.to_owned(),
                typed: text.to_owned(),
                expanded: substitute(&command.body, args),
                env: command.env.clone(),
            },
            allowed_tools: command.allowed_tools.clone(),
            file: command.file.clone(),
            model: command.model.clone(),
        })
    }
}

/// `body` with `$ARGUMENTS` replaced by `args` and `$1`…`$9` by its
/// whitespace-separated words (empty past the last one). The arguments are
/// made inert first: text typed after a command's name never becomes one of
/// its inline shell commands (`` !`…` ``, ```` ```! ````), which the
/// command's `allowed-tools` could let run unasked.
fn substitute(body: &str, args: &str) -> String {
    let inert = inert(args);
    substitute_inert(body, &inert)
}

/// `args` with every inline shell opener broken by a space.
fn inert(args: &str) -> String {
    args.replace("```!", "``` !").replace("!`", "! `")
}

fn substitute_inert(body: &str, args: &str) -> String {
    let words: Vec<&str> = args.split_whitespace().collect();
    let mut out = String::with_capacity(body.len() + args.len());
    let mut rest = body;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix("ARGUMENTS") {
            out.push_str(args);
            rest = tail;
        } else if let Some(digit) = after.chars().next().and_then(|c| c.to_digit(10)) {
            if digit == 0 {
                out.push('$');
                rest = after;
                continue;
            }
            out.push_str(words.get(digit as usize - 1).copied().unwrap_or_default());
            rest = &after[1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::CustomCommand;

    fn commands(body: &str) -> CustomCommands {
        let mut commands = CustomCommands::default();
        commands.insert(CustomCommand {
            name: "git:commit".to_owned(),
            description: None,
            argument_hint: None,
            allowed_tools: vec!["Bash(git commit *)".to_owned()],
            model: Some("haiku".to_owned()),
            body: body.to_owned(),
            file: PathBuf::from("commit.md"),
            env: vec![("CLAUDE_PLUGIN_ROOT".to_owned(), "/p".to_owned())],
        });
        commands
    }

    #[test]
    fn arguments_and_positions_are_replaced() {
        assert_eq!(
            substitute(
                "All: $ARGUMENTS. First: $1, second: $2, fourth: [$4], cost $0 $x",
                "a b  c"
            ),
            "All: a b  c. First: a, second: b, fourth: [], cost $0 $x"
        );
    }

    #[test]
    fn a_prompt_naming_a_command_expands_with_its_front_matter() {
        assert_eq!(
            commands("Commit with message: $ARGUMENTS").expand("  /git:commit fix the build \n"),
            Some(Expansion {
                prompt: CommandPrompt {
                    name: "git:commit".to_owned(),
                    args: "fix the build".to_owned(),
                    typed: "/git:commit fix the build".to_owned(),
                    expanded: "Commit with message: fix the build".to_owned(),
                    env: vec![("CLAUDE_PLUGIN_ROOT".to_owned(), "/p".to_owned())],
                },
                allowed_tools: vec!["Bash(git commit *)".to_owned()],
                file: PathBuf::from("commit.md"),
                model: Some("haiku".to_owned()),
            })
        );
    }

    #[test]
    fn an_unknown_command_or_plain_text_stays_a_plain_prompt() {
        let commands = commands("x");
        assert_eq!(
            (
                commands.expand("/unknown args"),
                commands.expand("git:commit"),
                commands.expand("/usr/bin/env is a path")
            ),
            (None, None, None)
        );
    }
}
