//! Subagent definitions in Claude Code's format (contract §17): a Markdown file
//! whose YAML front matter names the agent (`name`, `description`, `tools` —
//! a comma list, absent = every tool but `Task` — and `model`) and whose body
//! is its system prompt.
//!
//! The front matter is read by hand: only `key: value` lines (a value may be
//! quoted, `tools` may also be written `[A, B]`), which is all Claude Code's
//! definitions use. Anything else is an error naming the file and the line,
//! never a guess. Unknown keys (Claude Code's `color`, …) are accepted and
//! ignored. This module reads files; which folders are read (and whether a
//! project's are trusted) is the caller's decision.

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
            description: "General-purpose agent for researching complex questions, searching \
                          for code and doing multi-step tasks on its own."
                .to_owned(),
            tools: None,
            model: None,
            prompt: GENERAL_PURPOSE_PROMPT.to_owned(),
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
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, first)) if first.trim_end() == "---" => {}
            _ => return Err(invalid(
                1,
                "expected front matter: a first line '---', then 'key: value' lines, then '---'"
                    .to_owned(),
            )),
        }
        let mut fields: BTreeMap<String, (usize, String)> = BTreeMap::new();
        let mut closed = None;
        for (index, line) in lines.by_ref() {
            let number = index + 1;
            if line.trim_end() == "---" {
                closed = Some(number);
                break;
            }
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once(':')
                .ok_or_else(|| invalid(number, format!("expected 'key: value', found {line:?}")))?;
            let key = key.trim();
            if key.is_empty() || key.starts_with(char::is_whitespace) || line.starts_with(' ') {
                return Err(invalid(
                    number,
                    "nested or indented YAML is not supported; write 'key: value'".to_owned(),
                ));
            }
            let value = unquote(value.trim());
            if value == "|" || value == ">" {
                return Err(invalid(
                    number,
                    format!("block values ('{key}: {value}') are not supported; write the value on one line"),
                ));
            }
            fields.insert(key.to_owned(), (number, value.to_owned()));
        }
        let Some(closing) = closed else {
            return Err(invalid(
                1,
                "the front matter is not closed by a '---' line".to_owned(),
            ));
        };
        let required = |key: &str| -> Result<String, DefinitionError> {
            match fields.get(key) {
                Some((_, value)) if !value.is_empty() => Ok(value.clone()),
                Some((line, _)) => Err(invalid(*line, format!("'{key}' is empty"))),
                None => Err(invalid(closing, format!("the front matter has no '{key}'"))),
            }
        };
        let name = required("name")?;
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            let line = fields.get("name").map_or(closing, |(line, _)| *line);
            return Err(invalid(
                line,
                format!("the name {name:?} may hold only letters, digits, '-' and '_'"),
            ));
        }
        let description = required("description")?;
        let tools = fields.get("tools").map(|(_, value)| tool_list(value));
        let model = fields
            .get("model")
            .map(|(_, value)| value.clone())
            .filter(|model| !model.is_empty());
        let body: Vec<&str> = lines.map(|(_, line)| line).collect();
        Ok(AgentDefinition {
            name,
            description,
            tools,
            model,
            prompt: body.join("\n").trim().to_owned(),
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

fn unquote(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

/// `Read, Grep` or `[Read, Grep]` → the names; empty entries dropped.
fn tool_list(value: &str) -> Vec<String> {
    let inner = value
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .unwrap_or(value);
    inner
        .split(',')
        .map(|name| unquote(name.trim()).to_owned())
        .filter(|name| !name.is_empty())
        .collect()
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
    /// Only the built-in `general-purpose` agent.
    pub fn builtin() -> AgentDefinitions {
        let general = AgentDefinition::general_purpose();
        AgentDefinitions {
            by_name: BTreeMap::from([(general.name.clone(), general)]),
        }
    }

    /// The built-in agent, then every `*.md` file of `folders` in order (a
    /// folder that does not exist is skipped; files of one folder in name order).
    pub fn load(folders: &[PathBuf]) -> Result<AgentDefinitions, DefinitionError> {
        let mut definitions = AgentDefinitions::builtin();
        for folder in folders {
            for file in markdown_files(folder)? {
                let text = std::fs::read_to_string(&file).map_err(|error| {
                    DefinitionError::Unreadable {
                        file: file.clone(),
                        message: error.to_string(),
                    }
                })?;
                definitions.insert(AgentDefinition::parse(&file, &text)?);
            }
        }
        Ok(definitions)
    }

    /// Adds `definition`, replacing one of the same name.
    pub fn insert(&mut self, definition: AgentDefinition) {
        self.by_name.insert(definition.name.clone(), definition);
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

fn markdown_files(folder: &Path) -> Result<Vec<PathBuf>, DefinitionError> {
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => {
            return Err(DefinitionError::Unreadable {
                file: folder.to_path_buf(),
                message: error.to_string(),
            })
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md") && path.is_file())
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
#[path = "definition_tests.rs"]
mod tests;
