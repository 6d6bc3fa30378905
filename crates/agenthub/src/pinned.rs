//! What trust pins (contract §11, §26): the settings files, subagent
//! definitions, skills and custom commands ([`ProjectFingerprint::of`]) and
//! the workspace files project hooks and MCP servers run
//! ([`crate::executed`]). The project's memory files (`AGENTS.md`,
//! `CLAUDE.md` of the workspace and its parents up to the repository root)
//! are not pinned: they follow the folder, not their bytes (contract §29),
//! entering the system prompt whatever they say once the folder is trusted,
//! and their presence alone makes a folder one to trust. One
//! function computes it, for a run and for the review alike, so a review can
//! never show a different set of files than a run checks.
//!
//! It must never run anything: it reads and hashes files only.

use crate::SetupError;
use agenthub_core::system_prompt::{
    project_memory_links_out, project_memory_paths, repository_root,
};
use agenthub_settings::links::LinkOut;
use agenthub_settings::ProjectFingerprint;
use std::path::{Path, PathBuf};

/// The kind of a pinned file, from its name in the fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PinnedKind {
    /// A settings file, `.mcp.json` or a subagent definition.
    Configuration,
    /// A file a project hook or MCP server runs.
    Executed,
    /// A skill's `SKILL.md`.
    Skill,
    /// A custom command's Markdown file.
    Command,
}

/// Every file trust pins for `workspace` (canonical), hashed now.
pub(crate) fn project_fingerprint(workspace: &Path) -> Result<ProjectFingerprint, SetupError> {
    let executed = crate::executed::executed_paths(workspace)?;
    project_fingerprint_with(workspace, &executed)
}

/// [`project_fingerprint`] for a workspace whose executed paths
/// ([`crate::executed::executed_paths`]) are known.
pub(crate) fn project_fingerprint_with(
    workspace: &Path,
    executed: &[PathBuf],
) -> Result<ProjectFingerprint, SetupError> {
    let mut fingerprint = ProjectFingerprint::of(workspace)?;
    for name in executed_file_names(workspace, executed) {
        fingerprint.pin(&name)?;
    }
    Ok(fingerprint)
}

/// Those of `executed` that exist as files, named relative to `workspace`.
fn executed_file_names(workspace: &Path, executed: &[PathBuf]) -> Vec<String> {
    executed
        .iter()
        .filter(|path| path.is_file())
        .filter_map(|path| path.strip_prefix(workspace).ok())
        .map(|relative| relative.display().to_string())
        .collect()
}

/// The project's memory files, named relative to `workspace`: `AGENTS.md`,
/// or `../../CLAUDE.md` for one two folders up. Never pinned; read once the
/// folder is trusted.
pub(crate) fn memory_file_names(workspace: &Path) -> Vec<String> {
    let repository = repository_root(workspace);
    project_memory_paths(workspace, repository.as_deref())
        .iter()
        .filter_map(|path| relative_to(workspace, path))
        .collect()
}

/// The files trust would pin but that are links out of the repository
/// (contract §28): subagent definitions, skills, commands, memory files and
/// the scripts project hooks and MCP servers run. None is read or pinned;
/// the review lists each as a link to outside that is not used.
pub(crate) fn links_out(workspace: &Path) -> Result<Vec<LinkOut>, SetupError> {
    let mut found = agenthub_settings::project_links_out(workspace);
    found.extend(memory_links_out(workspace));
    found.extend(crate::executed::executed_links_out(workspace)?);
    Ok(found)
}

/// The project's memory files that are links out of its repository.
pub(crate) fn memory_links_out(workspace: &Path) -> Vec<LinkOut> {
    project_memory_links_out(workspace, repository_root(workspace).as_deref())
}

/// What a pinned `name` is.
pub(crate) fn kind_of(workspace: &Path, name: &str) -> PinnedKind {
    let executed = crate::executed::executed_paths(workspace)
        .map(|paths| executed_file_names(workspace, &paths))
        .unwrap_or_default();
    if executed.iter().any(|file| file == name) {
        PinnedKind::Executed
    } else if agenthub_settings::skill_files(workspace)
        .iter()
        .any(|skill| skill == name)
    {
        PinnedKind::Skill
    } else if agenthub_settings::command_files(workspace)
        .iter()
        .any(|command| command == name)
    {
        PinnedKind::Command
    } else {
        PinnedKind::Configuration
    }
}

/// `path` (a file in `workspace` or one of its parents) relative to
/// `workspace`, with `../` for each folder up.
fn relative_to(workspace: &Path, path: &Path) -> Option<String> {
    let folder = path.parent()?;
    let name = path.file_name()?.to_str()?;
    let depth = workspace.strip_prefix(folder).ok()?.components().count();
    Some(format!("{}{name}", "../".repeat(depth)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parent_folders_memory_file_is_named_with_one_dot_dot_per_level() {
        assert_eq!(
            relative_to(Path::new("/r/app/ws"), Path::new("/r/CLAUDE.md")),
            Some("../../CLAUDE.md".to_owned())
        );
    }

    #[test]
    fn the_workspaces_own_memory_file_is_named_plainly() {
        assert_eq!(
            relative_to(Path::new("/r/app/ws"), Path::new("/r/app/ws/AGENTS.md")),
            Some("AGENTS.md".to_owned())
        );
    }
}
