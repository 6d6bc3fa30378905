//! Copying a plugin's folder and hashing its content: regular files, folders
//! and symbolic links (`.git` left out; links are never followed), in path
//! order, so the same content always gives the same hash. A link counts by
//! its target text (contract §28): adding one to an installed plugin changes
//! its hash, so the plugin is no longer joined until installed again. A copy
//! keeps a link only when it is relative and leads to a place inside the
//! plugin's folder; a link out of it is left behind, never followed.

use super::{io_error, PluginError};
use agenthub_settings::links::{inside_tree, LinkOut};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// One entry of a plugin's folder, relative to its root.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Entry {
    /// A regular file.
    File(PathBuf),
    /// A symbolic link, with its target as written.
    Link(PathBuf, PathBuf),
}

impl Entry {
    pub(super) fn relative(&self) -> &Path {
        match self {
            Entry::File(path) | Entry::Link(path, _) => path,
        }
    }
}

/// The plugin's files and links below `root`, relative, sorted by path.
pub(super) fn entries(root: &Path) -> Result<Vec<Entry>, PluginError> {
    let mut found = Vec::new();
    walk(root, Path::new(""), &mut found)?;
    found.sort_by(|a, b| a.relative().cmp(b.relative()));
    Ok(found)
}

fn walk(root: &Path, relative: &Path, found: &mut Vec<Entry>) -> Result<(), PluginError> {
    let folder = root.join(relative);
    let listing = std::fs::read_dir(&folder).map_err(|error| io_error(&folder, error))?;
    for entry in listing {
        let entry = entry.map_err(|error| io_error(&folder, error))?;
        let name = entry.file_name();
        if name == ".git" {
            continue;
        }
        let kind = entry
            .file_type()
            .map_err(|error| io_error(&entry.path(), error))?;
        let path = relative.join(&name);
        if kind.is_dir() {
            walk(root, &path, found)?;
        } else if kind.is_file() {
            found.push(Entry::File(path));
        } else if kind.is_symlink() {
            let target =
                std::fs::read_link(entry.path()).map_err(|error| io_error(&entry.path(), error))?;
            found.push(Entry::Link(path, target));
        }
    }
    Ok(())
}

/// The SHA-256 of every file's relative path and content and every link's
/// relative path and target text, in path order: the whole folder, as a
/// plugin installed before contract §29 was pinned.
pub(crate) fn content_hash(root: &Path) -> Result<String, PluginError> {
    hash_of(root, &entries(root)?)
}

/// The SHA-256 of `entries` of the folder `root`: each file's relative path
/// and content, each link's relative path and target text, in their order.
pub(super) fn hash_of(root: &Path, entries: &[Entry]) -> Result<String, PluginError> {
    let mut hasher = Sha256::new();
    for entry in entries {
        let (marker, bytes) = match entry {
            Entry::File(relative) => {
                let path = root.join(relative);
                (
                    0u8,
                    std::fs::read(&path).map_err(|error| io_error(&path, error))?,
                )
            }
            Entry::Link(_, target) => (1u8, target.to_string_lossy().as_bytes().to_vec()),
        };
        hasher.update(entry.relative().to_string_lossy().as_bytes());
        hasher.update([marker]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

/// Copies the plugin at `from` to `to` (which must not exist), keeping modes
/// and the links that stay inside the plugin (relative ones: an absolute
/// target would lead back to `from`); returns the links left out, each
/// named relative to the plugin's folder.
pub(crate) fn copy_plugin(from: &Path, to: &Path) -> Result<Vec<LinkOut>, PluginError> {
    let mut left_out = Vec::new();
    for entry in entries(from)? {
        let (source, target) = (from.join(entry.relative()), to.join(entry.relative()));
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|error| io_error(parent, error))?;
        }
        match &entry {
            Entry::File(_) => std::fs::copy(&source, &target)
                .map(drop)
                .map_err(|error| io_error(&target, error))?,
            Entry::Link(relative, text) => match inside_tree(from, &source) {
                Ok(_) if text.is_relative() => std::os::unix::fs::symlink(text, &target)
                    .map_err(|error| io_error(&target, error))?,
                Ok(real) => left_out.push(LinkOut::Outside {
                    path: relative.clone(),
                    tree: from.to_path_buf(),
                    target: real,
                }),
                Err(out) => left_out.push(out.named(relative.clone())),
            },
        }
    }
    std::fs::create_dir_all(to).map_err(|error| io_error(to, error))?;
    Ok(left_out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_added_to_a_plugin_changes_its_hash_by_its_target_text() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("guard");
        std::fs::create_dir_all(root.join("commands")).unwrap();
        std::fs::write(root.join("commands/check.md"), "Check.").unwrap();
        let installed = content_hash(&root).unwrap();
        std::os::unix::fs::symlink("/home/me/.ssh/id_ed25519", root.join("commands/key.md"))
            .unwrap();
        let with_link = content_hash(&root).unwrap();
        std::fs::remove_file(root.join("commands/key.md")).unwrap();
        std::os::unix::fs::symlink("/home/me/.aws/credentials", root.join("commands/key.md"))
            .unwrap();
        let retargeted = content_hash(&root).unwrap();
        assert_eq!(
            (installed != with_link, with_link != retargeted),
            (true, true)
        );
    }

    #[test]
    fn a_copy_keeps_links_inside_the_plugin_and_leaves_links_out_behind() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("from");
        std::fs::create_dir_all(from.join("commands")).unwrap();
        std::fs::write(from.join("commands/check.md"), "Check.").unwrap();
        std::fs::write(dir.path().join("secret"), "SECRET").unwrap();
        std::os::unix::fs::symlink("check.md", from.join("commands/alias.md")).unwrap();
        std::os::unix::fs::symlink("../../secret", from.join("commands/key.md")).unwrap();
        let to = dir.path().join("to");
        let left_out = copy_plugin(&from, &to).unwrap();
        let from = from.canonicalize().unwrap();
        assert_eq!(
            (entries(&to).unwrap(), left_out),
            (
                vec![
                    Entry::Link("commands/alias.md".into(), "check.md".into()),
                    Entry::File("commands/check.md".into()),
                ],
                vec![LinkOut::Outside {
                    path: "commands/key.md".into(),
                    tree: from,
                    target: dir.path().canonicalize().unwrap().join("secret"),
                }]
            )
        );
    }
}
