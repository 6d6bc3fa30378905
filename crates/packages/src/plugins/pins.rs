//! What of an installed plugin's folder its pin covers (contract §28, §29):
//! its components — the manifest, its hooks file, its MCP configuration,
//! its commands, agents and skills — the scripts they name under
//! `$CLAUDE_PLUGIN_ROOT` (braced or not, quoted or not), and every symbolic
//! link anywhere in the folder. Anything else a plugin writes into its own
//! folder (a log, a cache) is its state and never un-pins it; state belongs
//! in `CLAUDE_PLUGIN_DATA`, but a plugin written for an older Claude Code
//! keeps working.
//!
//! It reads and hashes files only: it never runs a plugin's code.

use super::files::{entries, hash_of, Entry};
use super::{ComponentSource, PluginError, PluginManifest};
use std::path::{Component, Path, PathBuf};

/// The variable a plugin's programs name their own folder by.
const ROOT_VARIABLE: &str = "CLAUDE_PLUGIN_ROOT";

/// The SHA-256 of what the pin of the plugin installed at `root` covers,
/// its components read from `manifest`.
pub(crate) fn pinned_hash(root: &Path, manifest: &PluginManifest) -> Result<String, PluginError> {
    let all = entries(root)?;
    let components = component_paths(root, manifest);
    let mut pinned = components.clone();
    for entry in &all {
        if let Entry::File(relative) = entry {
            if under_any(relative, &components) {
                let path = root.join(relative);
                let bytes = std::fs::read(&path).map_err(|error| super::io_error(&path, error))?;
                pinned.extend(named_paths(&String::from_utf8_lossy(&bytes)));
            }
        }
    }
    let covered: Vec<Entry> = all
        .into_iter()
        .filter(|entry| match entry {
            Entry::Link(..) => true,
            Entry::File(relative) => under_any(relative, &pinned),
        })
        .collect();
    hash_of(root, &covered)
}

/// The manifest's components, relative to `root`: files, or folders whose
/// every entry counts.
fn component_paths(root: &Path, manifest: &PluginManifest) -> Vec<PathBuf> {
    let mut paths = vec![PathBuf::from(".claude-plugin/plugin.json")];
    for source in [&manifest.hooks, &manifest.mcp_servers] {
        if let ComponentSource::File(path) = source {
            paths.push(path.clone());
        }
    }
    paths.extend(manifest.commands.iter().cloned());
    paths.extend(manifest.agents.iter().cloned());
    paths.extend(manifest.skills.iter().cloned());
    paths
        .into_iter()
        .map(|path| match path.strip_prefix(root) {
            Ok(relative) => relative.to_path_buf(),
            Err(_) => path,
        })
        .collect()
}

/// Whether `relative` is one of `paths` or lies under one of them.
fn under_any(relative: &Path, paths: &[PathBuf]) -> bool {
    paths.iter().any(|path| relative.starts_with(path))
}

/// Every path `text` names under the plugin's root: what follows
/// `$CLAUDE_PLUGIN_ROOT/` or `${CLAUDE_PLUGIN_ROOT}/` up to the first
/// character that ends a word in a shell command or a JSON string, relative
/// and without `.` parts; one that climbs out of the root is none.
pub(crate) fn named_paths(text: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        rest = &rest[at + 1..];
        let after = if let Some(braced) = rest.strip_prefix('{') {
            braced
                .strip_prefix(ROOT_VARIABLE)
                .and_then(|after| after.strip_prefix('}'))
        } else {
            rest.strip_prefix(ROOT_VARIABLE)
                .filter(|after| !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        };
        let Some(path) = after.and_then(|after| after.strip_prefix('/')) else {
            continue;
        };
        let end = path.find(ends_a_word).unwrap_or(path.len());
        found.extend(inside_root(&path[..end]));
    }
    found
}

/// A character that ends a path in a shell command or a JSON string.
fn ends_a_word(c: char) -> bool {
    c.is_whitespace() || "\"'`;|&<>(),\\$[]{}*?".contains(c)
}

/// `written` (a path after the root) as a relative path without `.` parts;
/// `None` when it is empty or climbs out of the root.
fn inside_root(written: &str) -> Option<PathBuf> {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for part in Path::new(written).components() {
        match part {
            Component::Normal(name) => parts.push(name),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    (!parts.is_empty()).then(|| parts.iter().collect())
}

#[cfg(test)]
#[path = "pins_tests.rs"]
mod tests;
