//! A prompt typed as a command (`/name args`, contract §20): its
//! UserPromptExpansion hooks run before the expanded text becomes the
//! prompt, and a block ends the run with the hook's reason, as a
//! UserPromptSubmit block does; then each `` !`command` `` in the expanded
//! prompt runs as a Bash call through the one pipeline and is replaced by its
//! result. The expansion itself (finding the command, replacing `$ARGUMENTS`)
//! is the caller's: this module never reads a command file.

use crate::pipeline::CallResult;
use crate::run::{Ending, Run};
use agenthub_hooks::{UserPromptExpansionContext, UserPromptSubmitVerdict};
use agenthub_protocol::{RunStatus, ToolCall};
use agenthub_tools::ProcessEnv;

/// The `expansion_type` of a custom slash command.
pub const SLASH_COMMAND_EXPANSION: &str = "slash_command";

/// A prompt that named a command, and the prompt it expands to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPrompt {
    /// The command's name without the slash (`review`, `git:commit`).
    pub name: String,
    /// The text after the name.
    pub args: String,
    /// The prompt as typed (`/review src/main.rs`).
    pub typed: String,
    /// The prompt the command expands to: what the model reads.
    pub expanded: String,
    /// Variables its inline shell commands get in their environment (a
    /// plugin command's `CLAUDE_PLUGIN_ROOT`, `CLAUDE_PLUGIN_DATA`): the
    /// shell expands them, so their values are never parsed as shell text.
    pub env: Vec<(String, String)>,
}

impl Run<'_> {
    /// Fires UserPromptExpansion for `command`; `Some` when a hook ends the
    /// run before the prompt (blocked, stopped or failed closed). The hooks'
    /// added context is kept either way.
    pub(crate) async fn expansion_hooks(&mut self, command: &CommandPrompt) -> Option<Ending> {
        let context = UserPromptExpansionContext {
            common: self.hook_common(),
            expansion_type: SLASH_COMMAND_EXPANSION.to_owned(),
            command_name: command.name.clone(),
            command_args: command.args.clone(),
            prompt: command.typed.clone(),
        };
        let Some(expanded) = self
            .unless_cancelled(self.agent.hooks.run_user_prompt_expansion(context))
            .await
        else {
            return Some(Ending::cancelled());
        };
        self.emit_hook_run(&expanded);
        match expanded.verdict {
            UserPromptSubmitVerdict::Proceed { context } => {
                self.push_context(context);
                None
            }
            UserPromptSubmitVerdict::Blocked { reason, context } => {
                self.push_context(context);
                Some(Ending::new(RunStatus::Blocked, None, Some(reason)))
            }
            UserPromptSubmitVerdict::Stopped { reason, context } => {
                self.push_context(context);
                Some(Ending::new(RunStatus::Stopped, None, Some(reason)))
            }
            UserPromptSubmitVerdict::Failed { message } => {
                Some(Ending::new(RunStatus::Failed, None, Some(message)))
            }
        }
    }
}

/// Where each shell command of a command's prompt stands (Claude Code's
/// inline shell): `` !`command` `` on one line, or a fenced block opened by
/// a line starting with ```` ```! ```` and closed by a ```` ``` ```` line.
/// Each is the byte range of the whole mark and the command inside it.
fn inline_commands(prompt: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let mut found = Vec::new();
    let mut from = 0;
    while from < prompt.len() {
        let next = match (prompt[from..].find("!`"), fenced_block_at(prompt, from)) {
            (_, Some(block)) => Some(block),
            (Some(at), None) => inline_at(prompt, from + at),
            (None, None) => None,
        };
        let Some((range, command)) = next else {
            break;
        };
        from = range.end;
        if !command.trim().is_empty() {
            found.push((range, command));
        }
    }
    found
}

/// The fenced ```` ```! ```` block starting at or after `from` when it comes
/// before the next `` !` ``.
fn fenced_block_at(prompt: &str, from: usize) -> Option<(std::ops::Range<usize>, &str)> {
    let at_line_start = |at: &usize| *at == 0 || prompt.as_bytes()[at - 1] == b'\n';
    let fence = prompt[from..]
        .match_indices("```!")
        .map(|(at, _)| from + at)
        .find(at_line_start)?;
    if prompt[from..fence].contains("!`") {
        return None;
    }
    let body_start = fence + prompt[fence..].find('\n')? + 1;
    let close = prompt[body_start..]
        .match_indices("```")
        .map(|(at, _)| body_start + at)
        .find(at_line_start)?;
    let command = prompt[body_start..close].trim_end_matches('\n');
    Some((fence..close + 3, command))
}

/// The `` !`command` `` at `at`, on one line.
fn inline_at(prompt: &str, at: usize) -> Option<(std::ops::Range<usize>, &str)> {
    let start = at + 2;
    let length = prompt[start..].find('`')?;
    let command = &prompt[start..start + length];
    match command.contains('\n') {
        true => Some((at..start, "")),
        false => Some((at..start + length + 1, command)),
    }
}

impl Run<'_> {
    /// The command's prompt with each `` !`command` `` replaced by what it
    /// printed (Claude Code's inline shell in commands): each is a Bash
    /// call through the one pipeline — hooks, the policy with the command's
    /// `allowed-tools`, the approver, the sandbox — so a command file can
    /// run nothing the session would not — after a checkpoint that belongs
    /// to this prompt; each gets `env` in its environment. A refused or
    /// failed command leaves its error text in the prompt; a hook that ends
    /// the run ends it here.
    pub(crate) async fn run_inline_commands(
        &mut self,
        prompt: &str,
        env: &[(String, String)],
    ) -> Result<String, Ending> {
        let marks = inline_commands(prompt);
        if marks.is_empty() {
            return Ok(prompt.to_owned());
        }
        let calls: Vec<ToolCall> = marks
            .iter()
            .map(|(_, command)| {
                let arguments = serde_json::json!({ "command": command }).to_string();
                let id = format!("command_shell_{}", uuid::Uuid::new_v4().simple());
                ToolCall::new(id, "Bash", arguments)
            })
            .collect();
        self.before_writes_of(&calls, true).await;
        let mut expanded = String::with_capacity(prompt.len());
        let mut copied = 0;
        for ((range, _), call) in marks.into_iter().zip(&calls) {
            let running = ProcessEnv::with_call_vars(env.to_vec(), self.run_tool_call(call));
            let Some(mut result) = self.unless_cancelled(running).await else {
                return Err(Ending::cancelled());
            };
            let output = shell_output(&result);
            self.push_context(std::mem::take(&mut result.context));
            self.tally.denials.extend(result.denial);
            if let Some((_, reason)) = result.stop {
                return Err(Ending::new(RunStatus::Stopped, None, Some(reason)));
            }
            if let Some(error) = result.failure {
                return Err(Ending::new(RunStatus::Failed, None, Some(error)));
            }
            expanded.push_str(&prompt[copied..range.start]);
            expanded.push_str(output.trim_end());
            copied = range.end;
        }
        expanded.push_str(&prompt[copied..]);
        Ok(expanded)
    }
}

/// What stands in a prompt for an inline command: what it printed (its
/// stdout, then its stderr), as Claude Code puts it; the result's text when
/// it failed, was refused, or a hook replaced its output.
fn shell_output(result: &CallResult) -> String {
    let streams = result
        .structured
        .as_ref()
        .filter(|_| !result.is_error())
        .and_then(|structured| {
            let stream = |name: &str| structured.get(name).and_then(|value| value.as_str());
            Some((stream("stdout")?, stream("stderr").unwrap_or_default()))
        });
    match streams {
        Some((stdout, "")) => stdout.to_owned(),
        Some((stdout, stderr)) => format!("{stdout}\n{stderr}"),
        None => result.content.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fenced_bang_block_is_one_command_of_its_lines() {
        let prompt = "Run it:\n\n```!\n\"$ROOT/setup.sh\" a b\necho done\n```\n\nThen !`date`.";
        let found: Vec<(&str, &str)> = inline_commands(prompt)
            .into_iter()
            .map(|(range, command)| (&prompt[range], command))
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    "```!\n\"$ROOT/setup.sh\" a b\necho done\n```",
                    "\"$ROOT/setup.sh\" a b\necho done"
                ),
                ("!`date`", "date")
            ]
        );
    }

    #[test]
    fn each_bang_backtick_mark_on_one_line_is_an_inline_command() {
        let prompt =
            "Branch: !`git branch --show-current`, diff:\n!`git diff HEAD`\n`plain` !`` !`a\nb`";
        let found: Vec<&str> = inline_commands(prompt)
            .into_iter()
            .map(|(range, command)| {
                assert_eq!(&prompt[range.clone()], format!("!`{command}`"));
                command
            })
            .collect();
        assert_eq!(found, vec!["git branch --show-current", "git diff HEAD"]);
    }
}
