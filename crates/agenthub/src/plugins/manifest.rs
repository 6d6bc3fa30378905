//! `.claude-plugin/plugin.json`: the plugin's name, version and description,
//! and where its components are when not in the default folders.

use super::PluginError;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What a plugin's manifest says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginManifest {
    /// The plugin's name (letters, digits, `-`, `_`, `.`).
    pub name: String,
    /// Its version, when given.
    pub version: Option<String>,
    /// What it does, when given.
    pub description: Option<String>,
    /// Its hooks file (default `hooks/hooks.json`).
    pub hooks: PathBuf,
    /// Its MCP configuration (default `.mcp.json`).
    pub mcp_servers: PathBuf,
    /// Its agent definitions folder (default `agents`).
    pub agents: PathBuf,
}

impl PluginManifest {
    /// Reads `root/.claude-plugin/plugin.json`.
    pub fn read(root: &Path) -> Result<PluginManifest, PluginError> {
        let path = root.join(".claude-plugin/plugin.json");
        let text = std::fs::read_to_string(&path).map_err(|error| super::io_error(&path, error))?;
        let invalid = |message: String| PluginError::Invalid {
            path: path.clone(),
            message,
        };
        let value: Value =
            serde_json::from_str(&text).map_err(|error| invalid(format!("not JSON: {error}")))?;
        let text_of = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        let name = text_of("name").ok_or_else(|| invalid("no \"name\"".to_owned()))?;
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            || name.starts_with('.')
        {
            return Err(invalid(format!(
                "the name {name:?} may hold only letters, digits, '-', '_' and '.'"
            )));
        }
        let component = |key: &str, default: &str| -> Result<PathBuf, PluginError> {
            match value.get(key) {
                None => Ok(root.join(default)),
                Some(Value::String(relative)) => inside(root, relative).ok_or_else(|| {
                    invalid(format!("{key} {relative:?} leaves the plugin's folder"))
                }),
                Some(_) => Err(invalid(format!(
                    "{key} must be a path inside the plugin (an inline value is not read)"
                ))),
            }
        };
        Ok(PluginManifest {
            hooks: component("hooks", "hooks/hooks.json")?,
            mcp_servers: component("mcpServers", ".mcp.json")?,
            agents: component("agents", "agents")?,
            version: text_of("version"),
            description: text_of("description"),
            name,
        })
    }
}

/// `root` joined with `relative` (`./hooks/x.json`), unless it climbs out.
fn inside(root: &Path, relative: &str) -> Option<PathBuf> {
    let relative = Path::new(relative);
    let climbs = relative.components().any(|part| {
        matches!(
            part,
            std::path::Component::ParentDir | std::path::Component::RootDir
        )
    });
    (!climbs).then(|| root.join(relative))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(json: &str) -> Result<PluginManifest, String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".claude-plugin")).unwrap();
        std::fs::write(dir.path().join(".claude-plugin/plugin.json"), json).unwrap();
        PluginManifest::read(dir.path())
            .map(|manifest| PluginManifest {
                hooks: manifest
                    .hooks
                    .strip_prefix(dir.path())
                    .unwrap()
                    .to_path_buf(),
                mcp_servers: manifest
                    .mcp_servers
                    .strip_prefix(dir.path())
                    .unwrap()
                    .to_path_buf(),
                agents: manifest
                    .agents
                    .strip_prefix(dir.path())
                    .unwrap()
                    .to_path_buf(),
                ..manifest
            })
            .map_err(|error| error.to_string().rsplit(": ").next().unwrap().to_owned())
    }

    #[test]
    fn components_default_to_claude_codes_folders() {
        assert_eq!(
            manifest(r#"{"name": "guard", "version": "1.0.0"}"#),
            Ok(PluginManifest {
                name: "guard".to_owned(),
                version: Some("1.0.0".to_owned()),
                description: None,
                hooks: PathBuf::from("hooks/hooks.json"),
                mcp_servers: PathBuf::from(".mcp.json"),
                agents: PathBuf::from("agents"),
            })
        );
    }

    #[test]
    fn a_component_path_that_leaves_the_plugin_is_refused() {
        assert_eq!(
            manifest(r#"{"name": "guard", "hooks": "../elsewhere/hooks.json"}"#),
            Err("hooks \"../elsewhere/hooks.json\" leaves the plugin's folder".to_owned())
        );
    }

    #[test]
    fn a_name_that_could_name_a_path_is_refused() {
        assert_eq!(
            manifest(r#"{"name": "../x"}"#),
            Err("the name \"../x\" may hold only letters, digits, '-', '_' and '.'".to_owned())
        );
    }
}
