//! Copying a plugin's folder and hashing its content: regular files and
//! folders only (`.git` left out, symlinks not followed), in path order, so
//! the same content always gives the same hash.

use super::{io_error, PluginError};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The plugin's files below `root`, relative, sorted.
fn files(root: &Path) -> Result<Vec<PathBuf>, PluginError> {
    let mut found = Vec::new();
    walk(root, Path::new(""), &mut found)?;
    found.sort();
    Ok(found)
}

fn walk(root: &Path, relative: &Path, found: &mut Vec<PathBuf>) -> Result<(), PluginError> {
    let folder = root.join(relative);
    let entries = std::fs::read_dir(&folder).map_err(|error| io_error(&folder, error))?;
    for entry in entries {
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
            found.push(path);
        }
    }
    Ok(())
}

/// The SHA-256 of every file's relative path and content, in path order.
pub(crate) fn content_hash(root: &Path) -> Result<String, PluginError> {
    let mut hasher = Sha256::new();
    for relative in files(root)? {
        let path = root.join(&relative);
        let bytes = std::fs::read(&path).map_err(|error| io_error(&path, error))?;
        hasher.update(relative.to_string_lossy().as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

/// Copies the plugin at `from` to `to` (which must not exist), keeping modes.
pub(crate) fn copy_plugin(from: &Path, to: &Path) -> Result<(), PluginError> {
    for relative in files(from)? {
        let (source, target) = (from.join(&relative), to.join(&relative));
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|error| io_error(parent, error))?;
        }
        std::fs::copy(&source, &target).map_err(|error| io_error(&target, error))?;
    }
    std::fs::create_dir_all(to).map_err(|error| io_error(to, error))
}
