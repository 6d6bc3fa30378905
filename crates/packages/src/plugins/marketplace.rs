//! Marketplaces: a folder or git repository with
//! `.claude-plugin/marketplace.json` (`name`, `plugins: [{name, source}]`,
//! `source` a relative path or a git URL). Added ones are kept under
//! `<data>/marketplaces/<name>/` (a copy or a clone) and listed in
//! `<data>/marketplaces/known.json`.

use super::{io_error, PluginError};
use agenthub_settings::links::LinkOut;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An added marketplace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marketplace {
    /// Its name, from its manifest.
    pub name: String,
    /// The folder or git URL it was added from.
    pub source: String,
    /// The links of its folder that lead out of it (contract §28): not
    /// copied, so never used; known only when it is added, to name them.
    #[serde(skip)]
    pub links_left_out: Vec<LinkOut>,
}

/// Where a marketplace's plugin is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PluginSource {
    /// A folder (inside the marketplace, or given directly).
    Folder(PathBuf),
    /// A git repository to clone.
    Git(String),
}

impl PluginSource {
    /// A command-line argument: a git URL (`https://…`, `git@…`, `file://…`,
    /// or ending in `.git`) or a folder.
    pub fn parse(text: &str) -> PluginSource {
        if is_git_url(text) {
            PluginSource::Git(text.to_owned())
        } else {
            PluginSource::Folder(PathBuf::from(text))
        }
    }

    /// The name of a plugin from here that has no manifest: the folder's
    /// name, or the repository's (`…/guard.git` is `guard`).
    pub fn default_name(&self) -> String {
        let last = match self {
            PluginSource::Folder(folder) => folder
                .canonicalize()
                .unwrap_or_else(|_| folder.clone())
                .file_name()
                .map(|name| name.to_string_lossy().into_owned()),
            PluginSource::Git(url) => url
                .trim_end_matches('/')
                .rsplit(['/', ':'])
                .next()
                .map(|name| name.trim_end_matches(".git").to_owned()),
        };
        last.unwrap_or_default()
    }

    /// The folder holding the plugin, cloning a git source into `scratch`.
    pub fn fetch(&self, scratch: &Path) -> Result<PathBuf, PluginError> {
        match self {
            PluginSource::Folder(folder) => Ok(folder.clone()),
            PluginSource::Git(url) => {
                let target = scratch.join("clone");
                clone(url, &target)?;
                Ok(target)
            }
        }
    }
}

fn is_git_url(text: &str) -> bool {
    ["https://", "http://", "git@", "ssh://", "git://", "file://"]
        .iter()
        .any(|scheme| text.starts_with(scheme))
        || text.ends_with(".git")
}

fn clone(url: &str, target: &Path) -> Result<(), PluginError> {
    let output = Command::new("git")
        // After `--`: a source spelled `--upload-pack=…` is a repository
        // name to git, never one of its options.
        .args(["clone", "--quiet", "--depth", "1", "--", url])
        .arg(target)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(|error| PluginError::Git {
            url: url.to_owned(),
            message: error.to_string(),
        })?;
    if output.status.success() {
        Ok(())
    } else {
        Err(PluginError::Git {
            url: url.to_owned(),
            message: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        })
    }
}

fn home() -> Result<PathBuf, PluginError> {
    Ok(super::data_home()?.join("marketplaces"))
}

fn known_path() -> Result<PathBuf, PluginError> {
    Ok(home()?.join("known.json"))
}

/// The added marketplaces.
pub fn known_marketplaces() -> Result<Vec<Marketplace>, PluginError> {
    let path = known_path()?;
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text).map_err(|error| PluginError::Invalid {
            path,
            message: error.to_string(),
        }),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(error) => Err(io_error(&path, error)),
    }
}

/// Adds the marketplace at `source` (a folder or git URL): its manifest is
/// read, its content kept under the marketplaces folder.
pub fn add_marketplace(source: &str) -> Result<Marketplace, PluginError> {
    let scratch = tempfile::tempdir().map_err(|error| io_error(Path::new("/tmp"), error))?;
    let folder = PluginSource::parse(source).fetch(scratch.path())?;
    let name = manifest_name(&folder)?;
    let target = home()?.join(&name);
    if target.exists() {
        std::fs::remove_dir_all(&target).map_err(|error| io_error(&target, error))?;
    }
    let links_left_out = super::files::copy_plugin(&folder, &target)?;
    let mut known = known_marketplaces()?;
    known.retain(|marketplace| marketplace.name != name);
    let added = Marketplace {
        name,
        source: source.to_owned(),
        links_left_out,
    };
    known.push(added.clone());
    let path = known_path()?;
    let text = serde_json::to_string_pretty(&known).map_err(|error| PluginError::Invalid {
        path: path.clone(),
        message: error.to_string(),
    })?;
    std::fs::write(&path, format!("{text}\n")).map_err(|error| io_error(&path, error))?;
    Ok(added)
}

fn read_manifest(folder: &Path) -> Result<(PathBuf, Value), PluginError> {
    let path = folder.join(".claude-plugin/marketplace.json");
    let text = std::fs::read_to_string(&path).map_err(|error| io_error(&path, error))?;
    let value = serde_json::from_str(&text).map_err(|error| PluginError::Invalid {
        path: path.clone(),
        message: format!("not JSON: {error}"),
    })?;
    Ok((path, value))
}

fn manifest_name(folder: &Path) -> Result<String, PluginError> {
    let (path, value) = read_manifest(folder)?;
    let name = value
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(PluginError::Invalid {
            path,
            message: format!(
                "the marketplace name {name:?} may hold only letters, digits, '-', '_' and '.'"
            ),
        });
    }
    Ok(name.to_owned())
}

/// A source written as an object: `{"source": "github", "repo": "owner/name"}`
/// (a GitHub repository), `{"source": "url", "url": "…"}` (any git URL) or
/// `{"path": "./plugins/x"}`; empty when it is none of these.
fn object_source(object: &serde_json::Map<String, Value>) -> String {
    let text = |key: &str| object.get(key).and_then(Value::as_str);
    if let Some(url) = text("url") {
        return url.to_owned();
    }
    if let Some(repo) = text("repo") {
        return format!("https://github.com/{repo}.git");
    }
    text("path").unwrap_or_default().to_owned()
}

/// Where the marketplace `marketplace` keeps the plugin `plugin`.
pub fn find_in_marketplace(marketplace: &str, plugin: &str) -> Result<FoundPlugin, PluginError> {
    if !known_marketplaces()?
        .iter()
        .any(|known| known.name == marketplace)
    {
        return Err(PluginError::NotFound(format!(
            "no marketplace named {marketplace:?}: add it with `agenthub plugin marketplace add PATH|GIT_URL`"
        )));
    }
    let folder = home()?.join(marketplace);
    let (path, value) = read_manifest(&folder)?;
    let entry = value
        .get("plugins")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|entry| entry.get("name").and_then(Value::as_str) == Some(plugin))
        .ok_or_else(|| {
            PluginError::NotFound(format!(
                "the marketplace {marketplace:?} has no plugin {plugin:?}"
            ))
        })?;
    let source = match entry.get("source") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Object(object)) => object_source(object),
        _ => String::new(),
    };
    if source.is_empty() {
        return Err(PluginError::Invalid {
            path,
            message: format!("the plugin {plugin:?} has no \"source\""),
        });
    }
    let manifest = entry_manifest(entry);
    if is_git_url(&source) {
        return Ok(FoundPlugin {
            source: PluginSource::Git(source),
            manifest,
        });
    }
    let relative = Path::new(&source);
    if relative.components().any(|part| {
        matches!(
            part,
            std::path::Component::ParentDir | std::path::Component::RootDir
        )
    }) {
        return Err(PluginError::Invalid {
            path,
            message: format!("the source {source:?} of {plugin:?} leaves the marketplace"),
        });
    }
    Ok(FoundPlugin {
        source: PluginSource::Folder(folder.join(relative)),
        manifest,
    })
}

/// A marketplace's plugin: where it is, and the manifest its entry gives.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundPlugin {
    /// Where the plugin's files are.
    pub source: PluginSource,
    /// The manifest fields of its entry (name, version, description,
    /// author, and the component fields): Claude Code takes them as the
    /// plugin's manifest when the plugin has no `plugin.json` of its own.
    pub manifest: serde_json::Map<String, Value>,
}

/// The keys of a marketplace entry that are manifest keys.
const MANIFEST_KEYS: [&str; 12] = [
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "license",
    "keywords",
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
];

fn entry_manifest(entry: &Value) -> serde_json::Map<String, Value> {
    MANIFEST_KEYS
        .iter()
        .filter_map(|key| Some(((*key).to_owned(), entry.get(*key)?.clone())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_source_object_names_a_github_repository_a_git_url_or_a_path() {
        let sources: Vec<String> = [
            json!({"source": "github", "repo": "acme/tools"}),
            json!({"source": "url", "url": "https://git.example.com/t.git"}),
            json!({"path": "./plugins/x"}),
        ]
        .iter()
        .map(|value| object_source(value.as_object().unwrap()))
        .collect();
        assert_eq!(
            sources,
            vec![
                "https://github.com/acme/tools.git".to_owned(),
                "https://git.example.com/t.git".to_owned(),
                "./plugins/x".to_owned()
            ]
        );
    }

    #[test]
    fn a_git_source_that_looks_like_an_option_is_only_ever_a_repository_to_git() {
        let scratch = tempfile::tempdir().unwrap();
        let pwned = scratch.path().join("pwned");
        let url = format!(
            "--upload-pack=touch {}; git-upload-pack x.git",
            pwned.display()
        );
        let source = PluginSource::parse(&url);
        let error = source.fetch(scratch.path()).unwrap_err().to_string();
        assert_eq!(
            (error, pwned.exists()),
            (
                format!("git clone {url} failed: fatal: repository '{url}' does not exist"),
                false
            )
        );
    }
}
