//! Slash commands of the interactive session (contract §13): what the user typed
//! after `/`, parsed into what to do. Parsing never acts; the session loop does.
//! A name that is no built-in command may be a custom command (contract
//! §20), which the session loop expands.

use agenthub::CustomCommands;

/// One slash command with its argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlashCommand {
    /// `/help`: the commands and keys.
    Help,
    /// `/clear`: end this session and start a new one.
    Clear,
    /// `/compact [instructions]`: summarise the history now.
    Compact(String),
    /// `/resume`: pick a session of this workspace.
    Resume,
    /// `/model [NAME]`: show the model, or switch to NAME.
    Model(Option<String>),
    /// `/permissions [MODE]`: show mode and rules, or switch mode.
    Permissions(Option<String>),
    /// `/hooks`: the command hooks, as `agenthub hooks list`.
    Hooks,
    /// `/usage`: tokens and turns so far.
    Usage,
    /// `/rewind [N [code|conversation|both]]`: list the points, or go back
    /// to the state before prompt N (contract §24).
    Rewind(Option<String>),
    /// `/exit`: end the session.
    Exit,
}

/// Each command's name and one line on what it does, in `/help` order.
pub const COMMANDS: &[(&str, &str)] = &[
    ("/help", "show this help"),
    (
        "/clear",
        "start a new session (the old one stays resumable)",
    ),
    (
        "/compact [instructions]",
        "summarise the conversation so far to free context",
    ),
    ("/resume", "continue an earlier session of this workspace"),
    ("/model [NAME]", "show the model, or switch to NAME"),
    (
        "/permissions [MODE]",
        "show the mode and rules, or switch the mode",
    ),
    ("/hooks", "list the command hooks"),
    ("/usage", "tokens and turns used in this session"),
    (
        "/rewind [N [code|conversation|both]]",
        "list the points, or go back to before prompt N",
    ),
    ("/exit", "end the session"),
];

/// A line starting with `/` that names no known command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCommand(pub String);

impl std::fmt::Display for UnknownCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let known: Vec<&str> = COMMANDS
            .iter()
            .map(|(name, _)| name.split(' ').next().unwrap_or(name))
            .collect();
        write!(
            f,
            "unknown command /{}; the commands are {}",
            self.0,
            known.join(" ")
        )
    }
}

/// The command in `line`, `None` when the line is not a slash command.
pub fn parse(line: &str) -> Option<Result<SlashCommand, UnknownCommand>> {
    let rest = line.trim().strip_prefix('/')?;
    let (name, argument) = match rest.split_once(char::is_whitespace) {
        Some((name, argument)) => (name, argument.trim()),
        None => (rest, ""),
    };
    let optional = || (!argument.is_empty()).then(|| argument.to_owned());
    Some(match name {
        "help" => Ok(SlashCommand::Help),
        "clear" => Ok(SlashCommand::Clear),
        "compact" => Ok(SlashCommand::Compact(argument.to_owned())),
        "resume" => Ok(SlashCommand::Resume),
        "model" => Ok(SlashCommand::Model(optional())),
        "permissions" => Ok(SlashCommand::Permissions(optional())),
        "hooks" => Ok(SlashCommand::Hooks),
        "usage" => Ok(SlashCommand::Usage),
        "rewind" => Ok(SlashCommand::Rewind(optional())),
        "exit" | "quit" => Ok(SlashCommand::Exit),
        other => Err(UnknownCommand(other.to_owned())),
    })
}

/// The text `/help` shows: the built-in commands, then `custom` ones
/// (contract §20) with their argument hints and descriptions.
pub fn help(custom: &CustomCommands) -> String {
    let mut text = String::from("Commands:\n");
    for (name, what) in COMMANDS {
        text.push_str(&format!("  {name:<26} {what}\n"));
    }
    if !custom.is_empty() {
        text.push_str("Custom commands:\n");
    }
    for command in custom.iter() {
        let name = match &command.argument_hint {
            Some(hint) => format!("/{} {hint}", command.name),
            None => format!("/{}", command.name),
        };
        let what = command.description.as_deref().unwrap_or("");
        text.push_str(&format!("  {name:<26} {what}\n"));
    }
    text.push_str(
        "Keys: Enter sends, Alt-Enter or a trailing \\ adds a line, Tab completes @path and /command, \
         Ctrl-C cancels a turn (twice on an empty prompt ends), Ctrl-D ends.\n\
         @path attaches a file of the workspace to the prompt.\n",
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_without_a_slash_is_not_a_command() {
        assert_eq!(parse("what is /etc?"), None);
    }

    #[test]
    fn compact_takes_the_rest_of_the_line_as_instructions() {
        assert_eq!(
            parse("/compact keep the test names"),
            Some(Ok(SlashCommand::Compact("keep the test names".to_owned())))
        );
    }

    #[test]
    fn model_without_a_name_shows_the_model() {
        assert_eq!(parse("/model"), Some(Ok(SlashCommand::Model(None))));
    }

    #[test]
    fn help_lists_custom_commands_after_the_built_in_ones() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("review.md"),
            "---\ndescription: Review a file\nargument-hint: FILE\n---\nReview $1.\n",
        )
        .unwrap();
        let (custom, skipped) =
            CustomCommands::load(&[dir.path().to_path_buf()], &agenthub::LinkRule::FollowAll);
        assert_eq!(skipped, Vec::new());
        let help = help(&custom);
        let custom_part = help
            .split_once("Custom commands:\n")
            .and_then(|(_, rest)| rest.split_once("Keys:"))
            .map(|(part, _)| part);
        assert_eq!(
            custom_part,
            Some("  /review FILE               Review a file\n")
        );
    }

    #[test]
    fn an_unknown_command_lists_the_known_ones() {
        let error = parse("/frobnicate").unwrap().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown command /frobnicate; the commands are /help /clear /compact /resume \
             /model /permissions /hooks /usage /rewind /exit"
        );
    }
}
