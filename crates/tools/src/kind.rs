//! What kind of action a tool's call is, as a person watching is shown it:
//! an editor's icon and grouping (ACP's `kind`), a summary line. A tool
//! declares its kind ([`crate::Tool::kind`]); one that does not gets the kind
//! its capabilities imply, so no front end ever learns it from a tool's name.
//!
//! A kind only describes; it never decides anything. Permission, hooks and
//! the sandbox read the effect and the capabilities, never the kind.

use crate::ToolCapabilities;

/// The kinds of action a tool call may be: the nine of the Agent Client
/// Protocol (`switch_mode` aside), which Claude Code's editor adapter uses too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolKind {
    /// Reads files or data (Read).
    Read,
    /// Changes files or content (Write, Edit).
    Edit,
    /// Removes files or data.
    Delete,
    /// Moves or renames files.
    Move,
    /// Searches for files or text (Glob, Grep).
    Search,
    /// Runs a command or code (Bash).
    Execute,
    /// Thinks or plans without touching anything (a subagent's task, a to-do list).
    Think,
    /// Retrieves data from outside the machine (a web page).
    Fetch,
    /// Anything else (an MCP server's tool).
    Other,
}

impl ToolKind {
    /// The kind a tool's declared capabilities imply, for a tool that declares
    /// no kind of its own: a shell command executes, a written path edits, a
    /// started subagent thinks, a read path reads; anything else is other.
    ///
    /// ```
    /// use agenthub_tools::{PathField, ToolCapabilities, ToolKind};
    ///
    /// let copy = ToolCapabilities::none()
    ///     .reading(PathField::required("from"))
    ///     .writing(PathField::required("to"));
    /// assert_eq!(ToolKind::implied_by(&copy), ToolKind::Edit);
    /// assert_eq!(ToolKind::implied_by(&ToolCapabilities::none()), ToolKind::Other);
    /// ```
    pub fn implied_by(capabilities: &ToolCapabilities) -> ToolKind {
        if capabilities.shell_command.is_some() {
            ToolKind::Execute
        } else if capabilities.writes_paths() {
            ToolKind::Edit
        } else if capabilities.subagent_field.is_some() {
            ToolKind::Think
        } else if capabilities.reads_paths() {
            ToolKind::Read
        } else {
            ToolKind::Other
        }
    }

    /// The kind's name as ACP spells it (`read`, `execute`, …).
    pub fn as_str(&self) -> &'static str {
        match self {
            ToolKind::Read => "read",
            ToolKind::Edit => "edit",
            ToolKind::Delete => "delete",
            ToolKind::Move => "move",
            ToolKind::Search => "search",
            ToolKind::Execute => "execute",
            ToolKind::Think => "think",
            ToolKind::Fetch => "fetch",
            ToolKind::Other => "other",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PathField;

    #[test]
    fn capabilities_imply_a_kind_the_shell_command_first() {
        let shell_writing = ToolCapabilities::none()
            .running("command")
            .writing(PathField::required("out"));
        let subagent = ToolCapabilities::none().starting_subagent("subagent_type");
        let reading = ToolCapabilities::none().reading(PathField::required("file_path"));
        assert_eq!(
            [
                ToolKind::implied_by(&shell_writing),
                ToolKind::implied_by(&subagent),
                ToolKind::implied_by(&reading),
                ToolKind::implied_by(&ToolCapabilities::none().loading_skill("skill")),
            ],
            [
                ToolKind::Execute,
                ToolKind::Think,
                ToolKind::Read,
                ToolKind::Other
            ]
        );
    }
}
