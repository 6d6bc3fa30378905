//! The task list (contract §18): JSONL, one task a line, `{"id", "prompt",
//! "workspace": {"path": DIR} | {"git": URL, "ref": REF}, "settings"?,
//! "script"?, "model"?}`. Blank lines are skipped; relative `path` and
//! `script` are resolved against the task file's folder.
//!
//! It must never accept a list it half understood: an unknown field, a
//! duplicate id or a malformed line is an error naming the file, the line and
//! why, before any task runs.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// One task: a prompt, run as an independent session in its workspace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskSpec {
    /// Unique in its list; the result line carries it.
    pub id: String,
    /// What the session is asked.
    pub prompt: String,
    /// Where the session works.
    pub workspace: TaskWorkspace,
    /// A settings layer for this task only (as `--settings FILE` would add),
    /// applied after the user's and the project's layers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Value>,
    /// The scripted model's file (as `run --script`): offline, no key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<PathBuf>,
    /// The real provider's model name (as `run --model`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// A task's workspace: a folder used as it is, or a repository cloned fresh.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TaskWorkspace {
    /// `{"path": DIR}`: the folder itself.
    Path {
        /// The folder (absolute once the list is read).
        path: PathBuf,
    },
    /// `{"git": URL, "ref": REF}`: cloned into a temporary folder, `REF`
    /// (a branch, tag or commit) checked out.
    Git {
        /// What `git clone` is given: a URL, a local path or `file://`.
        git: String,
        /// The branch, tag or commit to check out.
        #[serde(rename = "ref")]
        reference: String,
    },
}

/// A task list that cannot be used.
#[derive(Debug, Error)]
pub enum TaskListError {
    /// The file cannot be read.
    #[error("cannot read task list {}: {error}", path.display())]
    Read {
        /// The task list.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// One line is not a valid task.
    #[error("{}:{line}: {problem}", path.display())]
    Line {
        /// The task list.
        path: PathBuf,
        /// The line, counting from 1.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// The file holds no task.
    #[error("{}: the task list holds no task", path.display())]
    Empty {
        /// The task list.
        path: PathBuf,
    },
}

/// Reads and checks the task list at `path`.
pub fn read_task_list(path: &Path) -> Result<Vec<TaskSpec>, TaskListError> {
    let text = std::fs::read_to_string(path).map_err(|error| TaskListError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    parse_task_list(&text, path)
}

/// Parses the task list `text`, read from `file` (named in errors; relative
/// paths are resolved against its folder).
pub fn parse_task_list(text: &str, file: &Path) -> Result<Vec<TaskSpec>, TaskListError> {
    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let base = absolute.parent().unwrap_or(Path::new(""));
    let mut tasks = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let number = index + 1;
        let at_line = |problem: String| TaskListError::Line {
            path: file.to_path_buf(),
            line: number,
            problem,
        };
        let task = parse_line(line, base).map_err(at_line)?;
        if let Some(first) = first_line.insert(task.id.clone(), number) {
            return Err(at_line(format!(
                "duplicate task id \"{}\" (first on line {first})",
                task.id
            )));
        }
        tasks.push(task);
    }
    if tasks.is_empty() {
        return Err(TaskListError::Empty {
            path: file.to_path_buf(),
        });
    }
    Ok(tasks)
}

/// A line as written, before its checks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTask {
    id: String,
    prompt: String,
    workspace: RawWorkspace,
    #[serde(default)]
    settings: Option<Value>,
    #[serde(default)]
    script: Option<PathBuf>,
    #[serde(default)]
    model: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorkspace {
    #[serde(default)]
    path: Option<PathBuf>,
    #[serde(default)]
    git: Option<String>,
    #[serde(default, rename = "ref")]
    reference: Option<String>,
}

fn parse_line(line: &str, base: &Path) -> Result<TaskSpec, String> {
    let raw: RawTask =
        serde_json::from_str(line).map_err(|error| format!("not a task: {error}"))?;
    if raw.id.trim().is_empty() {
        return Err("\"id\" is empty".to_owned());
    }
    if raw
        .settings
        .as_ref()
        .is_some_and(|value| !value.is_object())
    {
        return Err(format!(
            "task \"{}\": \"settings\" must be an object",
            raw.id
        ));
    }
    if raw.script.is_some() && raw.model.is_some() {
        return Err(format!(
            "task \"{}\": give \"script\" or \"model\", not both",
            raw.id
        ));
    }
    let workspace = workspace(raw.workspace, base)
        .map_err(|problem| format!("task \"{}\": \"workspace\" {problem}", raw.id))?;
    Ok(TaskSpec {
        id: raw.id,
        prompt: raw.prompt,
        workspace,
        settings: raw.settings,
        script: raw.script.map(|script| base.join(script)),
        model: raw.model,
    })
}

fn workspace(raw: RawWorkspace, base: &Path) -> Result<TaskWorkspace, String> {
    match (raw.path, raw.git, raw.reference) {
        (Some(path), None, None) => Ok(TaskWorkspace::Path {
            path: base.join(path),
        }),
        (None, Some(git), Some(reference)) => Ok(TaskWorkspace::Git { git, reference }),
        (None, Some(_), None) => Err("needs \"ref\" with \"git\"".to_owned()),
        (Some(_), Some(_), _) => Err("gives both \"path\" and \"git\"".to_owned()),
        (Some(_), None, Some(_)) => Err("gives \"ref\" without \"git\"".to_owned()),
        (None, None, _) => Err("needs \"path\" or \"git\"".to_owned()),
    }
}

#[cfg(test)]
#[path = "task_tests.rs"]
mod tests;
