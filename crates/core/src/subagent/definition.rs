//! Subagent definitions in Claude Code's format (contract §17, §20): a
//! Markdown file whose front matter names the agent (`name`, `description`,
//! `tools` — a comma list or a YAML list, absent = every tool but `Task` —
//! `model`, and `hooks` that run only for that subagent) and whose body is
//! its system prompt.
//!
//! Read as Claude Code reads them: the front matter is optional (the name is
//! then the file's, the description the body's first line), files in
//! subfolders count, unknown keys (`color`, …) are ignored. A file that
//! cannot be used is set aside with an error naming it and its line; it
//! never stops the other definitions from loading. This module reads files;
//! which folders are read (and whether a project's are trusted) and what
//! the hooks run is the caller's decision.

use agenthub_settings::front_matter;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The agent type that always exists, unless a definition file replaces it.
pub const GENERAL_PURPOSE: &str = "general-purpose";

const GENERAL_PURPOSE_PROMPT: &str = "You are a subagent: a helper started by another agent \
for one task. Do the task you are given with the tools you have, then answer with a concise \
report of what you found or did. Your final answer is all the other agent will see.";

/// One kind of subagent the `Task` tool can start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentDefinition {
    /// The `subagent_type` that starts it (letters, digits, `-`, `_`).
    pub name: String,
    /// When to use it: shown to the model in the Task tool's description.
    pub description: String,
    /// The tools it may use, by name; `None`: every tool but `Task`.
    pub tools: Option<Vec<String>>,
    /// The model it talks to (`inherit` or absent: the parent's).
    pub model: Option<String>,
    /// Its system prompt: the file's body.
    pub prompt: String,
    /// Its front matter's `hooks` (the settings files' `hooks` shape): hooks
    /// that run only while this subagent runs; `None` when it has none.
    pub hooks: Option<serde_json::Value>,
    /// The file it was read from; `None` for the built-in agent.
    pub source: Option<PathBuf>,
}

/// A definition file that cannot be used: the file, the line (counting from
/// 1) and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DefinitionError {
    /// The file or folder could not be read.
    #[error("cannot read subagent definition {file}: {message}")]
    Unreadable {
        /// The file or folder.
        file: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The front matter is not what Claude Code's format allows.
    #[error("invalid subagent definition {file}:{line}: {message}")]
    Invalid {
        /// The file.
        file: PathBuf,
        /// The line, counting from 1.
        line: usize,
        /// What is wrong and what was expected.
        message: String,
    },
}

impl AgentDefinition {
    /// The built-in `general-purpose` agent: every tool but `Task`, the parent's model.
    pub fn general_purpose() -> AgentDefinition {
        AgentDefinition {
            name: GENERAL_PURPOSE.to_owned(),
            description: "Researches questions, searches code, does multi-step tasks.".to_owned(),
            tools: None,
            model: None,
            prompt: GENERAL_PURPOSE_PROMPT.to_owned(),
            hooks: None,
            source: None,
        }
    }

    /// Parses a definition file's text; `file` names it in errors.
    ///
    /// ```
    /// use agenthub_core::AgentDefinition;
    /// use std::path::Path;
    ///
    /// let text = "---\nname: reviewer\ndescription: Reviews a diff\ntools: Read, Grep\n---\nYou review code.\n";
    /// let definition = AgentDefinition::parse(Path::new("reviewer.md"), text)?;
    /// assert_eq!(definition.tools, Some(vec!["Read".to_owned(), "Grep".to_owned()]));
    /// assert_eq!(definition.prompt, "You review code.");
    /// # Ok::<(), agenthub_core::DefinitionError>(())
    /// ```
    pub fn parse(file: &Path, text: &str) -> Result<AgentDefinition, DefinitionError> {
        let invalid = |line: usize, message: String| DefinitionError::Invalid {
            file: file.to_path_buf(),
            line,
            message,
        };
        let split =
            front_matter::split(file, text).map_err(|error| invalid(error.line, error.message))?;
        let name = split
            .text("name")
            .or_else(|| file_stem(file))
            .unwrap_or_default();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(invalid(
                key_line(text, "name"),
                format!("the name {name:?} may hold only letters, digits, '-' and '_'"),
            ));
        }
        let description = split
            .text("description")
            .or_else(|| split.first_body_line())
            .ok_or_else(|| {
                invalid(
                    key_line(text, "description"),
                    "no 'description', and no body to take one from".to_owned(),
                )
            })?;
        let hooks = match split.fields.get("hooks") {
            None | Some(serde_json::Value::Null) => None,
            Some(hooks @ serde_json::Value::Object(_)) => Some(hooks.clone()),
            Some(other) => {
                return Err(invalid(
                    key_line(text, "hooks"),
                    format!("'hooks' must be a map of events to hook groups, not {other}"),
                ))
            }
        };
        Ok(AgentDefinition {
            name,
            description,
            tools: split.list("tools"),
            model: split.text("model"),
            prompt: split.body.clone(),
            hooks,
            source: Some(file.to_path_buf()),
        })
    }

    /// Whether the definition lets the subagent use `tool` (never `Task`).
    pub fn allows_tool(&self, tool: &str) -> bool {
        tool != crate::subagent::TASK_TOOL
            && self
                .tools
                .as_ref()
                .is_none_or(|tools| tools.iter().any(|name| name == tool || name == "*"))
    }
}

/// The file's name without `.md`.
fn file_stem(file: &Path) -> Option<String> {
    file.file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
}

/// The line (from 1) where the front matter sets `key`, else 1.
fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|line| {
            line.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map_or(1, |index| index + 1)
}

/// The subagent types a session can start: the built-in `general-purpose`,
/// then the definition files of the folders read, a later folder's file
/// replacing an earlier one of the same name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentDefinitions {
    by_name: BTreeMap<String, AgentDefinition>,
}

impl Default for AgentDefinitions {
    fn default() -> Self {
        AgentDefinitions::builtin()
    }
}

impl AgentDefinitions {
    /// The types read from files, as the first message's `<system-reminder>`
    /// lists them (the `Task` tool's description names only the built-in ones).
    pub fn read_from_files(&self) -> Vec<crate::system_prompt::AgentTypeSummary> {
        self.iter()
            .filter(|definition| definition.source.is_some())
            .map(|definition| crate::system_prompt::AgentTypeSummary {
                name: definition.name.clone(),
                description: definition.description.clone(),
                tools: definition.tools.clone(),
            })
            .collect()
    }

    /// Only the built-in `general-purpose` agent.
    pub fn builtin() -> AgentDefinitions {
        let general = AgentDefinition::general_purpose();
        AgentDefinitions {
            by_name: BTreeMap::from([(general.name.clone(), general)]),
        }
    }

    /// The built-in agent, then every `*.md` file of `folders` in order (a
    /// `*.md` file given itself counts as its own folder's only file),
    /// subfolders included (a folder that does not exist is skipped; files of
    /// one folder in path order), and the files that could not be used, each
    /// with its file, line and reason: they are set aside, never fatal.
    pub fn load(folders: &[PathBuf]) -> (AgentDefinitions, Vec<DefinitionError>) {
        let mut definitions = AgentDefinitions::builtin();
        let mut set_aside = Vec::new();
        for folder in folders {
            let mut files = Vec::new();
            markdown_files(folder, MAX_DEPTH, &mut files, &mut set_aside);
            files.sort();
            for file in files {
                match read_definition(&file) {
                    Ok(definition) => definitions.insert(definition),
                    Err(error) => set_aside.push(error),
                }
            }
        }
        (definitions, set_aside)
    }

    /// Adds `definition`, replacing one of the same name.
    pub fn insert(&mut self, definition: AgentDefinition) {
        self.by_name.insert(definition.name.clone(), definition);
    }

    /// Removes the definition named `name` (one that cannot be used).
    pub fn remove(&mut self, name: &str) -> Option<AgentDefinition> {
        self.by_name.remove(name)
    }

    /// The definition named `name`.
    pub fn get(&self, name: &str) -> Option<&AgentDefinition> {
        self.by_name.get(name)
    }

    /// Every definition, by name.
    pub fn iter(&self) -> impl Iterator<Item = &AgentDefinition> {
        self.by_name.values()
    }

    /// Every name, comma-separated, for error messages.
    pub fn names(&self) -> String {
        self.by_name
            .keys()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// How deep below a definitions folder files are looked for.
const MAX_DEPTH: usize = 8;

fn read_definition(file: &Path) -> Result<AgentDefinition, DefinitionError> {
    let text = std::fs::read_to_string(file).map_err(|error| DefinitionError::Unreadable {
        file: file.to_path_buf(),
        message: error.to_string(),
    })?;
    AgentDefinition::parse(file, &text)
}

/// Adds the `*.md` files under `folder` to `files` (subfolders to `depth`
/// levels; a symlinked folder is not followed, so a loop cannot trap it);
/// a folder that cannot be read is set aside.
fn markdown_files(
    folder: &Path,
    depth: usize,
    files: &mut Vec<PathBuf>,
    set_aside: &mut Vec<DefinitionError>,
) {
    if folder.is_file() {
        // A plugin's manifest may name one definition file.
        if folder.extension().is_some_and(|ext| ext == "md") {
            files.push(folder.to_path_buf());
        }
        return;
    }
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return,
        Err(error) => {
            set_aside.push(DefinitionError::Unreadable {
                file: folder.to_path_buf(),
                message: error.to_string(),
            });
            return;
        }
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let is_folder = entry.file_type().is_ok_and(|kind| kind.is_dir());
        if is_folder && depth > 0 {
            markdown_files(&path, depth - 1, files, set_aside);
        } else if path.extension().is_some_and(|ext| ext == "md") && path.is_file() {
            files.push(path);
        }
    }
}

#[cfg(test)]
#[path = "definition_tests.rs"]
mod tests;
