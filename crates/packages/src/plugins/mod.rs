//! Claude Code plugins and marketplaces (contract §20): a plugin is a folder
//! with `.claude-plugin/plugin.json` and any of `hooks/hooks.json`,
//! `agents/`, `.mcp.json` (and `commands/`, `skills/`); a marketplace is a
//! folder or git repository with `.claude-plugin/marketplace.json` naming
//! plugins by relative path or git URL.
//!
//! Installing copies a plugin under `$XDG_DATA_HOME/agenthub/plugins/` and
//! pins its components, the scripts they name and its links by hash
//! (`pins.rs`); a session joins the installed plugins that
//! `enabledPlugins` turns on, and only while that content still has the
//! pinned hash. A plugin's state goes in `CLAUDE_PLUGIN_DATA`
//! (`$XDG_DATA_HOME/agenthub/plugin-data/NAME/`), or in its own folder,
//! outside what is pinned. Running `agenthub plugin install` is the consent: nothing
//! here asks. It must never run a plugin's code: hooks and servers run in
//! the session like the user's own.

mod files;
mod manifest;
mod marketplace;
mod pins;
mod session;
mod store;

pub use manifest::{ComponentSource, PluginManifest};
pub use marketplace::{
    add_marketplace, find_in_marketplace, known_marketplaces, FoundPlugin, Marketplace,
    PluginSource,
};
pub use session::{enabled_plugins, hooks_file, EnabledPlugin};

pub use store::{InstalledPlugin, PinScope, PluginStore};

use std::path::PathBuf;
use thiserror::Error;

/// Why a plugin or marketplace could not be read, installed or changed.
#[derive(Debug, Error)]
pub enum PluginError {
    /// A file or folder could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// A manifest (`plugin.json`, `marketplace.json`) or the store's record
    /// is not what Claude Code's layout says.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// `git clone` of a plugin or marketplace failed.
    #[error("git clone {url} failed: {message}")]
    Git {
        /// The repository.
        url: String,
        /// git's own words.
        message: String,
    },
    /// No plugin or marketplace by that name.
    #[error("{0}")]
    NotFound(String),
    /// Neither `XDG_DATA_HOME` nor `HOME` is set.
    #[error("no place for plugins: set XDG_DATA_HOME or HOME")]
    NoHome,
}

pub(crate) fn io_error(path: &std::path::Path, error: std::io::Error) -> PluginError {
    PluginError::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}

/// Installs `spec` — `name@marketplace` (an added marketplace's plugin), a
/// folder, or a git URL — into the store, replacing an installed one of the
/// same name. Enabling it is the caller's.
pub fn install_plugin(spec: &str) -> Result<InstalledPlugin, PluginError> {
    let scratch = tempfile::tempdir().map_err(|error| io_error(&std::env::temp_dir(), error))?;
    let (found, marketplace) = match spec.split_once('@') {
        Some((name, marketplace)) if !spec.contains('/') && !spec.contains(':') => {
            (find_in_marketplace(marketplace, name)?, Some(marketplace))
        }
        _ => {
            let source = PluginSource::parse(spec);
            let name = source.default_name();
            let manifest = serde_json::Map::from_iter([("name".to_owned(), name.into())]);
            (FoundPlugin { source, manifest }, None)
        }
    };
    let folder = found.source.fetch(scratch.path())?;
    PluginStore::open()?.install(&folder, &found.manifest, marketplace, spec)
}

/// The installed plugin whose folder holds `path` (an MCP configuration, a
/// definition file), for lists that name where a thing comes from.
pub fn owning_plugin(path: &std::path::Path) -> Option<String> {
    let home = data_home().ok()?.join("plugins");
    let relative = path.strip_prefix(&home).ok()?;
    let name = relative.components().next()?.as_os_str().to_str()?;
    (relative.components().count() > 1).then(|| name.to_owned())
}

/// `$XDG_DATA_HOME/agenthub`, else `~/.local/share/agenthub`.
pub(crate) fn data_home() -> Result<PathBuf, PluginError> {
    agenthub_settings::xdg::data_home()
        .map(|data| data.join("agenthub"))
        .ok_or(PluginError::NoHome)
}
