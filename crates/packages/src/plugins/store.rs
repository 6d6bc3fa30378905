//! The installed plugins: their folders under `<data>/plugins/<name>/` and
//! `<data>/plugins/installed.json`, which records where each came from and
//! the hash its pinned content had when installed (`pins.rs`: its components,
//! the scripts they name and every link; the whole folder for a plugin
//! installed before contract §29).

use super::files::{content_hash, copy_plugin};
use super::pins::pinned_hash;
use super::{io_error, PluginError, PluginManifest};
use agenthub_settings::links::LinkOut;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One installed plugin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstalledPlugin {
    /// Its name, from its manifest.
    pub name: String,
    /// The marketplace it was installed from; `None` for a lone plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marketplace: Option<String>,
    /// The folder or git URL it was installed from.
    pub source: String,
    /// Its version, when its manifest gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The hash of its pinned content when installed: a session joins it
    /// only while its folder still has this hash.
    pub sha256: String,
    /// What `sha256` covers.
    #[serde(default)]
    pub pinned: PinScope,
    /// Its installed folder.
    #[serde(skip)]
    pub root: PathBuf,
    /// The links of the folder it was installed from that lead out of that
    /// folder (contract §28): not copied, so never used; known only at
    /// install, for the install to name them.
    #[serde(skip)]
    pub links_left_out: Vec<LinkOut>,
}

impl InstalledPlugin {
    /// The key `enabledPlugins` uses: `name@marketplace`, or the name alone.
    pub fn id(&self) -> String {
        match &self.marketplace {
            Some(marketplace) => format!("{}@{marketplace}", self.name),
            None => self.name.clone(),
        }
    }

    /// Whether `name` (a name or an id) names this plugin.
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name || self.id() == name
    }
}

/// What an installed plugin's hash covers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PinScope {
    /// Every file and link of its folder: how a plugin installed before
    /// contract §29 was pinned (a record without `pinned`).
    #[default]
    Folder,
    /// Its components, the scripts they name and every link (contract §29):
    /// what else it writes into its folder is its state.
    Components,
}

#[derive(Default, Serialize, Deserialize)]
struct Record {
    plugins: Vec<InstalledPlugin>,
}

/// Where plugins are installed.
#[derive(Debug, Clone)]
pub struct PluginStore {
    home: PathBuf,
}

impl PluginStore {
    /// The store under `$XDG_DATA_HOME/agenthub/plugins`.
    pub fn open() -> Result<PluginStore, PluginError> {
        Ok(PluginStore {
            home: super::data_home()?.join("plugins"),
        })
    }

    fn record_path(&self) -> PathBuf {
        self.home.join("installed.json")
    }

    /// Every installed plugin, in name order.
    pub fn installed(&self) -> Result<Vec<InstalledPlugin>, PluginError> {
        let path = self.record_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(io_error(&path, error)),
        };
        let record: Record = serde_json::from_str(&text).map_err(|error| PluginError::Invalid {
            path: path.clone(),
            message: error.to_string(),
        })?;
        let mut plugins = record.plugins;
        for plugin in &mut plugins {
            plugin.root = self.home.join(&plugin.name);
        }
        plugins.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(plugins)
    }

    /// The installed plugin named `name` (a name or `name@marketplace`).
    pub fn find(&self, name: &str) -> Result<InstalledPlugin, PluginError> {
        self.installed()?
            .into_iter()
            .find(|plugin| plugin.is_named(name))
            .ok_or_else(|| PluginError::NotFound(format!("no installed plugin named {name:?}")))
    }

    /// Copies the plugin at `from` into the store (replacing an installed one
    /// of the same name) and records it with its content hash. A plugin
    /// without `.claude-plugin/plugin.json` gets `stand_in` (its marketplace
    /// entry's manifest fields, or just a name) written as its manifest.
    /// The copy is made and its manifest read in a folder of its own first,
    /// so a plugin that cannot be read leaves an installed one as it was.
    pub fn install(
        &self,
        from: &Path,
        stand_in: &serde_json::Map<String, serde_json::Value>,
        marketplace: Option<&str>,
        source: &str,
    ) -> Result<InstalledPlugin, PluginError> {
        let unnamed = stand_in
            .get("name")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        std::fs::create_dir_all(&self.home).map_err(|error| io_error(&self.home, error))?;
        let staging = tempfile::Builder::new()
            .prefix(".installing-")
            .tempdir_in(&self.home)
            .map_err(|error| io_error(&self.home, error))?;
        let links_left_out = copy_plugin(from, staging.path())?;
        write_stand_in_manifest(staging.path(), stand_in)?;
        let manifest = PluginManifest::read(staging.path(), unnamed)?;
        let root = self.home.join(&manifest.name);
        if root.exists() {
            std::fs::remove_dir_all(&root).map_err(|error| io_error(&root, error))?;
        }
        let staged = staging.keep();
        std::fs::rename(&staged, &root).map_err(|error| io_error(&root, error))?;
        // Read again where it now lives: its component paths name `root`.
        let manifest = PluginManifest::read(&root, &manifest.name)?;
        let sha256 = pinned_hash(&root, &manifest)?;
        let plugin = InstalledPlugin {
            name: manifest.name,
            marketplace: marketplace.map(str::to_owned),
            source: source.to_owned(),
            sha256,
            pinned: PinScope::Components,
            version: manifest.version,
            root,
            links_left_out,
        };
        let mut plugins = self.installed()?;
        plugins.retain(|installed| installed.name != plugin.name);
        plugins.push(plugin.clone());
        self.write(plugins)?;
        Ok(plugin)
    }

    /// Removes the plugin named `name` and its folder.
    pub fn remove(&self, name: &str) -> Result<InstalledPlugin, PluginError> {
        let plugin = self.find(name)?;
        if plugin.root.exists() {
            std::fs::remove_dir_all(&plugin.root).map_err(|error| io_error(&plugin.root, error))?;
        }
        let mut plugins = self.installed()?;
        plugins.retain(|installed| installed.name != plugin.name);
        self.write(plugins)?;
        Ok(plugin)
    }

    fn write(&self, plugins: Vec<InstalledPlugin>) -> Result<(), PluginError> {
        std::fs::create_dir_all(&self.home).map_err(|error| io_error(&self.home, error))?;
        let path = self.record_path();
        let text = serde_json::to_string_pretty(&Record { plugins }).map_err(|error| {
            PluginError::Invalid {
                path: path.clone(),
                message: error.to_string(),
            }
        })?;
        let partial = self.home.join("installed.json.partial");
        std::fs::write(&partial, format!("{text}\n")).map_err(|error| io_error(&partial, error))?;
        std::fs::rename(&partial, &path).map_err(|error| io_error(&path, error))
    }
}

/// Whether the plugin's folder still has the pinned content it was
/// installed with, its components read from `manifest`.
pub(crate) fn unchanged(
    plugin: &InstalledPlugin,
    manifest: &PluginManifest,
) -> Result<bool, PluginError> {
    let now = match plugin.pinned {
        PinScope::Components => pinned_hash(&plugin.root, manifest)?,
        PinScope::Folder => content_hash(&plugin.root)?,
    };
    Ok(now == plugin.sha256)
}

/// Writes `manifest` as the installed plugin's `plugin.json` when it has none.
fn write_stand_in_manifest(
    root: &Path,
    manifest: &serde_json::Map<String, serde_json::Value>,
) -> Result<(), PluginError> {
    let path = root.join(".claude-plugin/plugin.json");
    if path.exists() {
        return Ok(());
    }
    let folder = root.join(".claude-plugin");
    std::fs::create_dir_all(&folder).map_err(|error| io_error(&folder, error))?;
    let text = serde_json::to_string_pretty(manifest).unwrap_or_default();
    std::fs::write(&path, text).map_err(|error| io_error(&path, error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_written_before_components_were_pinned_pins_the_whole_folder() {
        let record: Record = serde_json::from_str(
            r#"{"plugins": [{"name": "guard", "source": "/p", "sha256": "ab"}]}"#,
        )
        .unwrap();
        assert_eq!(record.plugins[0].pinned, PinScope::Folder);
    }
}
