//! What the editor is shown of one tool call: its kind, the files it
//! touches (absolute, with the line it looks at) and its content — the change
//! a tool that previews one would make, as a diff computed by the tool's own
//! preview (the very code its handler runs, never a copy), or the shell
//! command it would run. Everything is read from what the tool declares;
//! nothing here matches a tool's name.
//!
//! It only shows: a preview that fails, cannot show the file's current text,
//! or holds more than [`MAX_DIFF_BYTES`] on a side (a line an editor would
//! choke on) shows no diff, and nothing here decides whether a call runs.

use super::schema::{ToolCallContent, ToolCallLocation, ToolKind};
use agenthub::crates::tools::PathAccess;
use agenthub::{FileChange, ToolDefinition, ToolRegistry, Workspace};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// The most bytes of text either side of a diff may hold.
pub const MAX_DIFF_BYTES: usize = 1024 * 1024;

/// The tools a session may call, by name, and the workspace their paths
/// resolve in (the session's `cwd`, its extra roots and read guard).
#[derive(Clone)]
pub struct ToolsByName {
    by_name: HashMap<String, Arc<ToolDefinition>>,
    workspace: Workspace,
}

/// Whether a call's change is previewed now: a live call's is; a call of a
/// saved history (`session/load`) ran long ago, and today's file would show
/// a change that is not the one it made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changes {
    Previewed,
    Omitted,
}

/// The parts of a `tool_call` that depend on the tool.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownCall {
    pub kind: ToolKind,
    pub locations: Vec<ToolCallLocation>,
    pub content: Vec<ToolCallContent>,
}

impl ToolsByName {
    /// The tools of `registry`, their paths resolved in `workspace`.
    pub fn new(registry: &ToolRegistry, workspace: &Workspace) -> ToolsByName {
        ToolsByName {
            by_name: registry
                .iter()
                .map(|tool| (tool.name().to_owned(), tool.clone()))
                .collect(),
            workspace: workspace.clone(),
        }
    }

    /// The tool named `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<ToolDefinition>> {
        self.by_name.get(name)
    }

    /// What a call of `name` with `input` shows; a tool the session does
    /// not have is `other`, touching nothing known.
    pub fn shown(&self, name: &str, input: &Value, changes: Changes) -> ShownCall {
        let Some(tool) = self.get(name) else {
            return ShownCall {
                kind: ToolKind::Other,
                locations: Vec::new(),
                content: Vec::new(),
            };
        };
        let diff = match changes {
            Changes::Previewed => self.diff(tool, input),
            Changes::Omitted => None,
        };
        let command = match tool.capabilities().command(input) {
            Some(Ok(command)) => Some(ToolCallContent::text(command_block(command))),
            _ => None,
        };
        ShownCall {
            kind: tool.kind(),
            locations: self.locations(tool, input),
            content: diff.into_iter().chain(command).collect(),
        }
    }

    /// Each declared path of `input`, absolute, once; a read path carries the
    /// line the tool declares it looks from.
    fn locations(&self, tool: &ToolDefinition, input: &Value) -> Vec<ToolCallLocation> {
        let capabilities = tool.capabilities();
        let line = capabilities.line(input);
        let mut locations: Vec<ToolCallLocation> = Vec::new();
        for (field, access) in capabilities.path_fields() {
            let Ok(path) = field.value(input) else {
                continue;
            };
            let location = ToolCallLocation {
                path: self.workspace.resolve(path),
                line: line.filter(|_| access == PathAccess::Read),
            };
            if !locations.iter().any(|known| known.path == location.path) {
                locations.push(location);
            }
        }
        locations
    }

    /// The change the tool's own preview computes, as a diff; none when the
    /// tool previews nothing, would refuse the call, cannot show the current
    /// text of a file that exists (a read rule denies it) — `oldText` is
    /// `null` only for a file that does not exist yet — or either side is
    /// longer than [`MAX_DIFF_BYTES`].
    fn diff(&self, tool: &ToolDefinition, input: &Value) -> Option<ToolCallContent> {
        let FileChange {
            path,
            before,
            after,
        } = tool.preview(input, &self.workspace)?.ok()?;
        if before.is_none() && path.symlink_metadata().is_ok() {
            return None;
        }
        if before.as_ref().map_or(0, String::len).max(after.len()) > MAX_DIFF_BYTES {
            return None;
        }
        Some(ToolCallContent::Diff {
            path,
            old_text: before,
            new_text: after,
        })
    }
}

/// A shell command as a Markdown code block, fenced with more backticks than
/// any run in the command, so that no command can close it early.
pub fn command_block(command: &str) -> String {
    let longest = command.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}sh\n{command}\n{fence}")
}

#[cfg(test)]
#[path = "shown_call_tests.rs"]
mod tests;
