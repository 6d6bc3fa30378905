//! The `<system-reminder>` block at the start of a session's first user
//! message (contract §33): what varies by workspace, date, git state or
//! memory files travels there, as Claude Code sends it, so the system
//! message and the tool list stay the same for every session of one
//! configuration and a server's prompt cache reuses them.
//!
//! The block is part of the user message the model is sent and the
//! transcript records; a reader that shows the prompt as typed (a session's
//! title, a rewind listing, a hook's `prompt`) takes [`typed_prompt`]. This
//! module only builds and takes apart text; it never decides what the
//! reminder says.

/// The tag that opens the block.
pub const REMINDER_OPEN: &str = "<system-reminder>";

/// The tag that closes the block.
pub const REMINDER_CLOSE: &str = "</system-reminder>";

/// What separates the block from the prompt.
const SEPARATOR: &str = "\n\n";

/// The first user message: `context` in a `<system-reminder>` block, a
/// blank line, then `prompt`; `prompt` alone when `context` is empty.
///
/// ```
/// use agenthub_protocol::{typed_prompt, with_reminder};
/// let sent = with_reminder("Workspace: /src/app", "fix the test");
/// assert_eq!(sent, "<system-reminder>\nWorkspace: /src/app\n</system-reminder>\n\nfix the test");
/// assert_eq!(typed_prompt(&sent), "fix the test");
/// ```
pub fn with_reminder(context: &str, prompt: &str) -> String {
    let context = context.trim();
    if context.is_empty() {
        return prompt.to_owned();
    }
    format!("{REMINDER_OPEN}\n{context}\n{REMINDER_CLOSE}{SEPARATOR}{prompt}")
}

/// The prompt as typed: `text` without a leading `<system-reminder>` block
/// and the blank line after it; `text` itself when it has none.
pub fn typed_prompt(text: &str) -> &str {
    let Some(inside) = text.strip_prefix(REMINDER_OPEN) else {
        return text;
    };
    let closing = format!("{REMINDER_CLOSE}{SEPARATOR}");
    match inside.find(&closing) {
        Some(end) => &inside[end + closing.len()..],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_context_sends_the_prompt_alone() {
        assert_eq!(with_reminder(" \n", "hello"), "hello");
    }

    #[test]
    fn the_typed_prompt_is_what_follows_the_block() {
        let sent = with_reminder("# Environment\n- Workspace: /w", "line one\n\nline two");
        assert_eq!(
            sent,
            "<system-reminder>\n# Environment\n- Workspace: /w\n</system-reminder>\n\nline one\n\nline two"
        );
        assert_eq!(typed_prompt(&sent), "line one\n\nline two");
    }

    #[test]
    fn a_prompt_without_a_block_or_with_an_unclosed_one_is_kept_whole() {
        assert_eq!(typed_prompt("plain"), "plain");
        assert_eq!(
            typed_prompt("<system-reminder> never closed"),
            "<system-reminder> never closed"
        );
    }
}
