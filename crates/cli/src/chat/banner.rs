//! What the interactive session says before the first prompt: one line with
//! the model, the workspace, the permission mode and where help is; and, for
//! a resumed session, that it was resumed and its last exchange, so the
//! person knows where the conversation stands.

use agenthub::Message;
use std::path::Path;

/// The longest line of the last exchange shown; the rest is elided.
const EXCERPT_CHARS: usize = 200;

/// `agenthub · model M · workspace W · mode D · /help for commands`.
pub fn banner(model: &str, workspace: &Path, mode: &str) -> String {
    format!(
        "agenthub · model {model} · workspace {} · mode {mode} · /help for commands",
        workspace.display()
    )
}

/// `resumed session ID (N earlier prompts); last exchange:` and the last
/// prompt and answer, each cut to one line.
pub fn resumed(id: &str, history: &[Message]) -> Vec<String> {
    let prompts = history
        .iter()
        .filter(|message| matches!(message, Message::User { .. }))
        .count();
    let plural = if prompts == 1 { "" } else { "s" };
    let mut lines = vec![format!(
        "resumed session {id} ({prompts} earlier prompt{plural})"
    )];
    if let Some(prompt) = last_prompt(history) {
        lines.push(format!("  > {}", excerpt(prompt)));
    }
    if let Some(answer) = last_answer(history) {
        lines.push(format!("  {}", excerpt(answer)));
    }
    lines
}

fn last_prompt(history: &[Message]) -> Option<&str> {
    history.iter().rev().find_map(|message| match message {
        Message::User { content } => Some(agenthub::typed_prompt(content)),
        _ => None,
    })
}

fn last_answer(history: &[Message]) -> Option<&str> {
    history.iter().rev().find_map(|message| match message {
        Message::Assistant {
            content: Some(text),
            ..
        } if !text.trim().is_empty() => Some(text.as_str()),
        _ => None,
    })
}

/// The text's first non-empty line, at most [`EXCERPT_CHARS`] characters,
/// marked when something was left out.
fn excerpt(text: &str) -> String {
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());
    let first = lines.next().unwrap_or_default().trim();
    let mut shown: String = first.chars().take(EXCERPT_CHARS).collect();
    if shown.len() < first.len() || lines.next().is_some() {
        shown.push_str(" …");
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_names_model_workspace_mode_and_help() {
        assert_eq!(
            banner("scripted", Path::new("/w"), "default"),
            "agenthub · model scripted · workspace /w · mode default · /help for commands"
        );
    }

    #[test]
    fn a_resumed_session_shows_its_last_prompt_and_answer() {
        let history = vec![
            Message::System {
                content: "instructions".into(),
            },
            Message::User {
                content: "first".into(),
            },
            Message::Assistant {
                content: Some("one".into()),
                tool_calls: vec![],
            },
            Message::User {
                content: "list the files\nplease".into(),
            },
            Message::Assistant {
                content: Some("There are three.".into()),
                tool_calls: vec![],
            },
        ];
        assert_eq!(
            resumed("3f2a", &history),
            [
                "resumed session 3f2a (2 earlier prompts)",
                "  > list the files …",
                "  There are three."
            ]
        );
    }
}
