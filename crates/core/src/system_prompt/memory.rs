//! The memory files: `AGENTS.md` and `CLAUDE.md` from the workspace and its
//! parents up to the repository root (only once the workspace is trusted),
//! and the user's own `AGENTS.md`.
//!
//! It must never read a file anywhere else: only those names, only in those
//! folders, and a project memory file that is a link leading out of its tree
//! (the repository, else the workspace) is skipped by the link rule
//! ([`agenthub_settings::links::inside_tree`], contract §28), so a cloned
//! repository cannot have `~/.ssh/id_rsa` read into the prompt;
//! [`project_memory_links_out`] names those the caller warns about. The
//! user's own `AGENTS.md` may be a link anywhere (a dotfiles manager's): it
//! is the user's choice, as in Claude Code.
//! Each file is cut at [`MEMORY_FILE_LIMIT`] bytes.

use agenthub_settings::links::{inside_tree, project_tree_in, LinkOut, LinkRule};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The names read in each folder, in this order (the one list trust also
/// knows them by, [`agenthub_settings::MEMORY_FILE_NAMES`]).
pub const MEMORY_FILE_NAMES: [&str; 2] = agenthub_settings::MEMORY_FILE_NAMES;

/// The most bytes of one memory file put in the prompt (40 KiB).
pub const MEMORY_FILE_LIMIT: usize = 40 * 1024;

/// One memory file as it goes into the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryFile {
    /// Where it was read, as found (not resolved through links).
    pub path: PathBuf,
    /// Its text, up to [`MEMORY_FILE_LIMIT`] bytes.
    pub content: String,
    /// The file's full size in bytes when it was cut, else `None`.
    pub cut_from: Option<u64>,
}

impl MemoryFile {
    /// Renders the file under a header naming it, with a note when it was cut.
    pub fn render(&self) -> String {
        let mut text = format!(
            "# Memory: {}\n\n{}",
            self.path.display(),
            self.content.trim_end()
        );
        if let Some(size) = self.cut_from {
            text.push_str(&format!(
                "\n\n[AgentHub cut this file: it has {size} bytes; only the first \
                 {MEMORY_FILE_LIMIT} are shown.]"
            ));
        }
        text
    }
}

/// Whether the project's memory files go into the prompt (contract §26): a
/// cloned repository's `CLAUDE.md` is instructions to the model, so it is
/// read only once the workspace is trusted — and then whatever it says now,
/// since trust follows the folder, not the memory files' bytes (contract §29).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProjectMemory {
    /// Read the workspace's and its parents' memory files.
    Load,
    /// Read only the user's own `AGENTS.md`.
    SetAside,
}

/// The memory files for `workspace`, most general first: the user's
/// `AGENTS.md` in `user_config` (the `agenthub` configuration folder), then,
/// when `project` is [`ProjectMemory::Load`], each folder from the repository
/// root (or, outside a repository, the workspace alone) down to the
/// workspace, `AGENTS.md` before `CLAUDE.md`. Missing, empty and unreadable
/// files are left out.
pub fn memory_files(
    workspace: &Path,
    repository: Option<&Path>,
    user_config: Option<&Path>,
    project: ProjectMemory,
) -> Vec<MemoryFile> {
    let mut files: Vec<MemoryFile> = user_config
        .and_then(|folder| read_memory(&folder.join("AGENTS.md"), &LinkRule::FollowAll))
        .into_iter()
        .collect();
    if project == ProjectMemory::Load {
        let inside = LinkRule::Inside(project_tree_in(workspace, repository));
        files.extend(
            project_memory_paths(workspace, repository)
                .iter()
                .filter_map(|path| read_memory(path, &inside)),
        );
    }
    files
}

/// The project's memory files that exist, as [`memory_files`] would look for
/// them (the workspace and its parents up to the repository root): what
/// the review lists and what an untrusted workspace sets aside. A link out of the
/// repository is not one ([`project_memory_links_out`]).
pub fn project_memory_paths(workspace: &Path, repository: Option<&Path>) -> Vec<PathBuf> {
    let tree = project_tree_in(workspace, repository);
    project_memory_candidates(workspace, &tree)
        .filter(|path| inside_tree(&tree, path).is_ok() && path.is_file())
        .collect()
}

/// The project's memory files that are links out of the repository (or
/// lead nowhere): never read, named in a warning and by the review.
pub fn project_memory_links_out(workspace: &Path, repository: Option<&Path>) -> Vec<LinkOut> {
    let tree = project_tree_in(workspace, repository);
    project_memory_candidates(workspace, &tree)
        .filter_map(|path| inside_tree(&tree, &path).err())
        .collect()
}

/// Every memory file name in every folder from `root` down to `workspace`
/// that is there at all (a link counts, wherever it leads).
fn project_memory_candidates(workspace: &Path, root: &Path) -> impl Iterator<Item = PathBuf> {
    project_folders(workspace, root)
        .into_iter()
        .flat_map(|folder| MEMORY_FILE_NAMES.map(|name| folder.join(name)))
        .filter(|path| path.symlink_metadata().is_ok())
}

/// The folders from `root` down to `workspace`, outermost first.
fn project_folders(workspace: &Path, root: &Path) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = workspace
        .ancestors()
        .take_while(|folder| folder.starts_with(root))
        .map(Path::to_path_buf)
        .collect();
    folders.reverse();
    folders
}

/// Reads `path` if it is a file the link rule `links` lets be read.
fn read_memory(path: &Path, links: &LinkRule) -> Option<MemoryFile> {
    links.check(path).ok()?;
    if !path.is_file() {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    let mut bytes = Vec::new();
    file.take(MEMORY_FILE_LIMIT as u64)
        .read_to_end(&mut bytes)
        .ok()?;
    let content = utf8_prefix(&bytes);
    if content.trim().is_empty() {
        return None;
    }
    Some(MemoryFile {
        path: path.to_path_buf(),
        content,
        cut_from: (size > MEMORY_FILE_LIMIT as u64).then_some(size),
    })
}

/// The text of `bytes`, without a character split by the cut at its end;
/// invalid UTF-8 elsewhere becomes U+FFFD.
fn utf8_prefix(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(error) if error.error_len().is_none() => {
            String::from_utf8_lossy(&bytes[..error.valid_up_to()]).into_owned()
        }
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}
