//! The prompt line: line editing and history (rustyline), multi-line input
//! (Alt-Enter, or a line ending in `\`), and Tab completion of `@path`
//! attachments from the workspace and of `/command` names at the start.
//!
//! History is kept per user in the state folder
//! (`$XDG_STATE_HOME/agenthub/history`, else `~/.local/state/agenthub/history`);
//! a history that cannot be read or written costs the history, never the session.

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Cmd, Config, Context, Editor, EventHandler, Helper, KeyCode, KeyEvent, Modifiers};
use std::path::{Path, PathBuf};

/// At most this many completions are offered for one `@path`.
const MAX_COMPLETIONS: usize = 200;

/// What the person did at the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A line (or several) to send or run as a command.
    Line(String),
    /// Ctrl-C at the prompt.
    Interrupted,
    /// Ctrl-D, or the terminal went away.
    End,
}

/// The prompt line of one interactive session.
pub struct PromptLine {
    editor: Editor<PromptHelper, FileHistory>,
    history: Option<PathBuf>,
}

impl PromptLine {
    /// An editor completing `@path` under `workspace`, with the user's history.
    pub fn new(workspace: &Path) -> Result<PromptLine, ReadlineError> {
        let config = Config::builder()
            .auto_add_history(false)
            .history_ignore_space(true)
            .max_history_size(2000)?
            .completion_type(rustyline::CompletionType::List)
            .build();
        let mut editor = Editor::with_config(config)?;
        editor.set_helper(Some(PromptHelper {
            workspace: workspace.to_path_buf(),
            commands: builtin_command_names(),
        }));
        editor.bind_sequence(
            KeyEvent(KeyCode::Enter, Modifiers::ALT),
            EventHandler::Simple(Cmd::Newline),
        );
        let history = history_path();
        if let Some(path) = &history {
            let _ = editor.load_history(path);
        }
        Ok(PromptLine { editor, history })
    }

    /// Reads one input; a line is added to the history.
    pub fn read(&mut self, prompt: &str) -> Input {
        match self.editor.readline(prompt) {
            Ok(line) => {
                let line = joined(&line);
                if !line.trim().is_empty() {
                    let _ = self.editor.add_history_entry(line.as_str());
                    self.save();
                }
                Input::Line(line)
            }
            Err(ReadlineError::Interrupted) => Input::Interrupted,
            Err(_) => Input::End,
        }
    }

    /// Tab completes these custom command names (contract §20) after `/`,
    /// beside the built-in ones.
    pub fn complete_commands(&mut self, custom: impl Iterator<Item = String>) {
        if let Some(helper) = self.editor.helper_mut() {
            helper.commands = builtin_command_names();
            helper.commands.extend(custom);
            helper.commands.sort();
            helper.commands.dedup();
        }
    }

    fn save(&mut self) {
        if let Some(path) = &self.history {
            // Created private before rustyline appends to it (contract §26).
            if agenthub::append_private_file(path).is_ok() {
                let _ = self.editor.append_history(path);
            }
        }
    }
}

/// The lines of a multi-line input with the `\` that continued them removed.
fn joined(line: &str) -> String {
    line.replace("\\\n", "\n")
}

/// Where the prompt history lives.
fn history_path() -> Option<PathBuf> {
    let state = agenthub::crates::settings::xdg::state_home()?;
    Some(state.join("agenthub").join("history"))
}

/// The built-in command names, without the slash.
fn builtin_command_names() -> Vec<String> {
    super::commands::COMMANDS
        .iter()
        .filter_map(|(name, _)| name.split(' ').next()?.strip_prefix('/'))
        .map(str::to_owned)
        .collect()
}

/// Completion and multi-line rules of the prompt.
struct PromptHelper {
    workspace: PathBuf,
    /// Command names (no slash) that Tab completes at the start of a line.
    commands: Vec<String>,
}

impl Helper for PromptHelper {}
impl Highlighter for PromptHelper {}

impl Hinter for PromptHelper {
    type Hint = String;
}

impl Validator for PromptHelper {
    fn validate(&self, context: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(if context.input().ends_with('\\') {
            ValidationResult::Incomplete
        } else {
            ValidationResult::Valid(None)
        })
    }
}

impl Completer for PromptHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        position: usize,
        _context: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..position];
        let start = before
            .rfind(char::is_whitespace)
            .map_or(0, |index| index + 1);
        if let Some(partial) = before[start..].strip_prefix('@') {
            return Ok((start, path_completions(&self.workspace, partial)));
        }
        match before.strip_prefix('/') {
            Some(partial) if start == 0 => Ok((0, command_completions(&self.commands, partial))),
            _ => Ok((position, Vec::new())),
        }
    }
}

/// `/` completions for `partial`: the names of `commands` it begins.
fn command_completions(commands: &[String], partial: &str) -> Vec<Pair> {
    commands
        .iter()
        .filter(|name| name.starts_with(partial))
        .map(|name| Pair {
            display: format!("/{name}"),
            replacement: format!("/{name} "),
        })
        .collect()
}

/// `@` completions for `partial`, a path relative to the workspace.
pub fn path_completions(workspace: &Path, partial: &str) -> Vec<Pair> {
    let (folder, prefix) = match partial.rfind('/') {
        Some(index) => (&partial[..=index], &partial[index + 1..]),
        None => ("", partial),
    };
    let Ok(entries) = std::fs::read_dir(workspace.join(folder)) else {
        return Vec::new();
    };
    let mut found: Vec<Pair> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let wanted =
                name.starts_with(prefix) && (prefix.starts_with('.') || !name.starts_with('.'));
            wanted.then(|| {
                let folder_mark = if entry.path().is_dir() { "/" } else { "" };
                let replacement = format!("@{folder}{name}{folder_mark}");
                Pair {
                    display: format!("{name}{folder_mark}"),
                    replacement,
                }
            })
        })
        .take(MAX_COMPLETIONS)
        .collect();
    found.sort_by(|a, b| a.display.cmp(&b.display));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_name_the_files_under_the_typed_folder() {
        let workspace = tempfile::tempdir().unwrap();
        std::fs::create_dir(workspace.path().join("src")).unwrap();
        std::fs::write(workspace.path().join("src/main.rs"), "").unwrap();
        std::fs::write(workspace.path().join("src/lib.rs"), "").unwrap();
        std::fs::write(workspace.path().join("src/.hidden"), "").unwrap();
        let offered: Vec<String> = path_completions(workspace.path(), "src/")
            .into_iter()
            .map(|pair| pair.replacement)
            .collect();
        assert_eq!(offered, ["@src/lib.rs", "@src/main.rs"]);
    }

    #[test]
    fn a_slash_completes_the_command_names_it_begins() {
        let names = [
            "help".to_owned(),
            "git:commit".to_owned(),
            "greet".to_owned(),
        ];
        let offered: Vec<String> = command_completions(&names, "g")
            .into_iter()
            .map(|pair| pair.replacement)
            .collect();
        assert_eq!(offered, ["/git:commit ", "/greet "]);
    }

    #[test]
    fn a_trailing_backslash_continues_the_input_on_the_next_line() {
        assert_eq!(joined("first\\\nsecond"), "first\nsecond");
    }
}
