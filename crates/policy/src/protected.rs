//! Protected paths inside the workspace: version-control metadata, agent and
//! editor configuration, shell start-up files — files whose change runs code
//! later (git hooks, `core.fsmonitor`, `.bashrc`, hook settings). A write to
//! one needs a person's approval in every mode, acceptEdits and
//! bypassPermissions included (as Claude Code; the research notes' rule 5),
//! and dontAsk denies it. Allow rules and hook allows never pre-approve it.
//!
//! Names are compared case-insensitively below the workspace root, so `.GIT`
//! is protected too on case-insensitive file systems. Reading them is not
//! restricted here (deny rules can do that).

use std::path::{Component, Path, PathBuf};

/// Directories whose whole content is protected.
const PROTECTED_DIRS: [&str; 10] = [
    ".git",
    ".agenthub",
    ".claude",
    ".vscode",
    ".idea",
    ".husky",
    ".cargo",
    ".devcontainer",
    ".yarn",
    ".mvn",
];

/// Files protected wherever they are in the workspace.
const PROTECTED_FILES: [&str; 29] = [
    ".gitconfig",
    ".gitmodules",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".envrc",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pnp.cjs",
    ".pnpmfile.cjs",
    "bunfig.toml",
    ".bazelrc",
    ".pre-commit-config.yaml",
    "lefthook.yml",
    ".lefthook.yml",
    ".devcontainer.json",
    ".ripgreprc",
    "pyrightconfig.json",
    ".mcp.json",
    ".claude.json",
    ".gitattributes",
];

/// The protected name `path` is or lies under, relative to the root that
/// holds it; `None` when the path is not protected (or under no root).
pub fn protected_name(path: &Path, roots: &[PathBuf]) -> Option<String> {
    let relative = roots
        .iter()
        .filter_map(|root| path.strip_prefix(root).ok())
        .min_by_key(|relative| relative.components().count())?;
    let names: Vec<String> = relative
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(name.to_string_lossy().to_lowercase()),
            _ => None,
        })
        .collect();
    let (last, dirs) = names.split_last()?;
    dirs.iter()
        .chain(std::iter::once(last))
        .find(|name| PROTECTED_DIRS.contains(&name.as_str()))
        .or_else(|| PROTECTED_FILES.contains(&last.as_str()).then_some(last))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_name_table() {
        let roots = [PathBuf::from("/w/proj")];
        let table = [
            ("/w/proj/.git/hooks/pre-commit", Some(".git")),
            ("/w/proj/.git", Some(".git")),
            ("/w/proj/.GIT/config", Some(".git")),
            ("/w/proj/.agenthub/settings.json", Some(".agenthub")),
            ("/w/proj/sub/.bashrc", Some(".bashrc")),
            ("/w/proj/.mcp.json", Some(".mcp.json")),
            ("/w/proj/.envrc", Some(".envrc")),
            ("/w/proj/.vscode/tasks.json", Some(".vscode")),
            ("/w/proj/src/main.rs", None),
            ("/w/proj/git/config", None),
            ("/elsewhere/.bashrc", None),
        ];
        for (path, expected) in table {
            assert_eq!(
                protected_name(Path::new(path), &roots).as_deref(),
                expected,
                "{path}"
            );
        }
    }

    #[test]
    fn a_workspace_inside_a_dot_directory_is_not_itself_protected() {
        let roots = [PathBuf::from("/home/u/.cargo/proj")];
        assert_eq!(
            protected_name(Path::new("/home/u/.cargo/proj/src/a.rs"), &roots),
            None
        );
    }
}
