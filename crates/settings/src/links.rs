//! The link rule (contract §28): a file a trusted tree brings — a skill, a
//! custom command, a subagent definition, a memory file, a script a project
//! hook or MCP server runs, a plugin's file — is read only when its real
//! location, links resolved, lies inside that tree (the repository, or the
//! plugin's installed folder). A link out of it (or a file under a linked
//! folder that leads out) is never read: the caller sets it aside with a
//! warning naming it, and `agenthub trust --show` lists it as a link to
//! outside that is not used. Links whose target stays inside keep working.
//!
//! [`inside_tree`] is the one place that decides it; [`walk`] is the one
//! folder walk of skills, commands and definitions, which asks it for every
//! file it finds. The user's own folders (`~/.claude/skills`,
//! `~/.config/agenthub/commands`, …) are walked with [`LinkRule::FollowAll`]:
//! a link there is the user's own choice, as in Claude Code, so it is
//! followed.
//!
//! It must never read a file's content: it resolves paths only.

use std::path::{Path, PathBuf};
use thiserror::Error;

/// How deep below a folder [`walk`] looks for Markdown files.
pub const MAX_DEPTH: usize = 8;

/// Why a file of a trusted tree is not used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LinkOut {
    /// Its real location, links resolved, is outside the tree.
    #[error(
        "{} is a link to outside {} that is not used (it leads to {})",
        path.display(), tree.display(), target.display()
    )]
    Outside {
        /// The file as found.
        path: PathBuf,
        /// The tree it had to stay in.
        tree: PathBuf,
        /// Where it really leads.
        target: PathBuf,
    },
    /// It cannot be resolved: a link that leads nowhere, or a loop.
    #[error("{} is a link that leads nowhere that is not used ({message})", path.display())]
    Unresolvable {
        /// The file as found.
        path: PathBuf,
        /// The operating system's reason.
        message: String,
    },
}

impl LinkOut {
    /// The file as found.
    pub fn path(&self) -> &Path {
        match self {
            LinkOut::Outside { path, .. } | LinkOut::Unresolvable { path, .. } => path,
        }
    }

    /// The same, naming the file `path` instead (relative to its tree, say).
    pub fn named(self, path: PathBuf) -> LinkOut {
        match self {
            LinkOut::Outside { tree, target, .. } => LinkOut::Outside { path, tree, target },
            LinkOut::Unresolvable { message, .. } => LinkOut::Unresolvable { path, message },
        }
    }

    /// What it is, for a review line: "a link to outside that is not used
    /// (it leads to …)".
    pub fn review_line(&self) -> String {
        match self {
            LinkOut::Outside { target, .. } => format!(
                "a link to outside that is not used (it leads to {})",
                target.display()
            ),
            LinkOut::Unresolvable { message, .. } => {
                format!("a link that leads nowhere, not used ({message})")
            }
        }
    }
}

/// `path`'s real location when it lies inside `tree` (both resolved through
/// every link, so a file under a linked folder counts where it really is):
/// the one check of the link rule.
pub fn inside_tree(tree: &Path, path: &Path) -> Result<PathBuf, LinkOut> {
    let unresolvable = |error: std::io::Error| LinkOut::Unresolvable {
        path: path.to_path_buf(),
        message: error.to_string(),
    };
    let tree = tree.canonicalize().map_err(unresolvable)?;
    let real = path.canonicalize().map_err(unresolvable)?;
    match real.starts_with(&tree) {
        true => Ok(real),
        false => Err(LinkOut::Outside {
            path: path.to_path_buf(),
            tree,
            target: real,
        }),
    }
}

/// The nearest folder, from `workspace` up, that holds a `.git` entry (a
/// folder, or a file in a worktree or submodule).
pub fn repository_root(workspace: &Path) -> Option<PathBuf> {
    workspace
        .ancestors()
        .find(|folder| folder.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The tree a workspace's files must stay in: its repository, or the
/// workspace itself outside one — and outside a repository that holds the
/// user's home (dotfiles kept in git at `~` or `/`), whose tree would
/// take in `~/.ssh`.
pub fn project_tree(workspace: &Path) -> PathBuf {
    project_tree_in(workspace, repository_root(workspace).as_deref())
}

/// [`project_tree`] for a workspace whose repository (if any) is known.
pub fn project_tree_in(workspace: &Path, repository: Option<&Path>) -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    tree_for(
        workspace,
        repository.map(Path::to_path_buf),
        home.as_deref(),
    )
}

fn tree_for(workspace: &Path, repository: Option<PathBuf>, home: Option<&Path>) -> PathBuf {
    match repository {
        Some(root) if !home.is_some_and(|home| home.starts_with(&root)) => root,
        _ => workspace.to_path_buf(),
    }
}

/// Which links a [`walk`] follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkRule {
    /// Only those whose target stays inside this folder: a repository's
    /// files, a plugin's.
    Inside(PathBuf),
    /// Every one: the user's own folders.
    FollowAll,
}

impl LinkRule {
    /// Whether `path` may be read under this rule.
    pub fn check(&self, path: &Path) -> Result<(), LinkOut> {
        match self {
            LinkRule::Inside(tree) => inside_tree(tree, path).map(drop),
            LinkRule::FollowAll => Ok(()),
        }
    }
}

/// What a [`walk`] looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Every `*.md` file, subfolders included to [`MAX_DEPTH`] levels (links
    /// to folders are not followed, so a loop cannot trap it): commands and
    /// subagent definitions.
    Markdown,
    /// Each `<name>/SKILL.md` (a linked skill folder counts where it leads).
    Skills,
}

/// What a [`walk`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Walk {
    /// The files to read, as found (not resolved), in path order.
    pub files: Vec<PathBuf>,
    /// The files (or the folder itself) the link rule set aside.
    pub links_out: Vec<LinkOut>,
    /// Folders that exist but could not be read, with the reason.
    pub unreadable: Vec<(PathBuf, String)>,
}

/// The files of `shape` in `folder` (or `folder` itself when it is one such
/// file, as a plugin's manifest may name one), each passed through `rule`.
/// A folder that does not exist has none.
pub fn walk(folder: &Path, shape: Shape, rule: &LinkRule) -> Walk {
    let mut found = Walk::default();
    if folder.symlink_metadata().is_err() {
        return found;
    }
    if let Err(out) = rule.check(folder) {
        found.links_out.push(out);
        return found;
    }
    if folder.is_file() {
        if shape == Shape::Markdown && is_markdown(folder) {
            found.files.push(folder.to_path_buf());
        }
        return found;
    }
    match shape {
        Shape::Markdown => markdown_below(folder, MAX_DEPTH, rule, &mut found),
        Shape::Skills => skills_in(folder, rule, &mut found),
    }
    found.files.sort();
    found.links_out.sort_by(|a, b| a.path().cmp(b.path()));
    found
}

fn markdown_below(folder: &Path, depth: usize, rule: &LinkRule, found: &mut Walk) {
    let Some(entries) = entries(folder, found) else {
        return;
    };
    for entry in entries {
        let path = entry.path();
        let real_folder = entry.file_type().is_ok_and(|kind| kind.is_dir());
        if real_folder {
            if depth > 0 {
                markdown_below(&path, depth - 1, rule, found);
            }
        } else if is_markdown(&path) {
            take(path, rule, found);
        }
    }
}

fn skills_in(folder: &Path, rule: &LinkRule, found: &mut Walk) {
    let Some(entries) = entries(folder, found) else {
        return;
    };
    for entry in entries {
        let file = entry.path().join(crate::SKILL_FILE);
        if file.symlink_metadata().is_ok() {
            take(file, rule, found);
        }
    }
}

/// Adds `path` to the files when the rule lets it be read and it is a file.
fn take(path: PathBuf, rule: &LinkRule, found: &mut Walk) {
    match rule.check(&path) {
        Ok(()) if path.is_file() => found.files.push(path),
        Ok(()) => {}
        Err(out) => found.links_out.push(out),
    }
}

fn entries(folder: &Path, found: &mut Walk) -> Option<Vec<std::fs::DirEntry>> {
    match std::fs::read_dir(folder) {
        Ok(entries) => Some(entries.filter_map(Result::ok).collect()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => {
            found
                .unreadable
                .push((folder.to_path_buf(), error.to_string()));
            None
        }
    }
}

fn is_markdown(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext == "md")
}

#[cfg(test)]
#[path = "links_tests.rs"]
mod tests;
