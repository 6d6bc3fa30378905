//! `.claude-plugin/plugin.json`: the plugin's name, version and description,
//! and where its components are, as Claude Code reads it. The manifest is
//! optional: without one the components are in the default places and the
//! name is the one the plugin was installed by. `hooks` and
//! `mcpServers` a file of the plugin or an inline object; `commands`,
//! `agents` and `skills` a path or a list of paths that add to the default
//! folders. A path must stay inside the plugin's folder.

use super::PluginError;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Where a plugin keeps its hooks or its MCP servers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ComponentSource {
    /// A file of the plugin (the default, or the path the manifest gives).
    File(PathBuf),
    /// Written in `plugin.json` itself.
    Inline(Value),
}

/// What a plugin's manifest says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginManifest {
    /// The plugin's name (letters, digits, `-`, `_`, `.`).
    pub name: String,
    /// Its version, when given.
    pub version: Option<String>,
    /// What it does, when given.
    pub description: Option<String>,
    /// The manifest file: where inline components are written.
    pub file: PathBuf,
    /// Its hooks (default `hooks/hooks.json`).
    pub hooks: ComponentSource,
    /// Its MCP servers (default `.mcp.json`).
    pub mcp_servers: ComponentSource,
    /// Its command files and folders (`commands/`, then the manifest's).
    pub commands: Vec<PathBuf>,
    /// Its agent definition files and folders (`agents/`, then the manifest's).
    pub agents: Vec<PathBuf>,
    /// Its skills folders (`skills/`, then the manifest's).
    pub skills: Vec<PathBuf>,
}

impl PluginManifest {
    /// Reads `root/.claude-plugin/plugin.json`; without that file, the
    /// plugin is `unnamed`'s (its marketplace entry's name, or its folder's)
    /// with every component in its default place.
    pub fn read(root: &Path, unnamed: &str) -> Result<PluginManifest, PluginError> {
        let path = root.join(".claude-plugin/plugin.json");
        let invalid = |message: String| PluginError::Invalid {
            path: path.clone(),
            message,
        };
        let value: Value = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|error| invalid(format!("not JSON: {error}")))?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                serde_json::json!({ "name": unnamed })
            }
            Err(error) => return Err(super::io_error(&path, error)),
        };
        let text_of = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
        let name = text_of("name").ok_or_else(|| invalid("no \"name\"".to_owned()))?;
        check_name(&name).map_err(invalid)?;
        let fields = Fields {
            root,
            value: &value,
        };
        Ok(PluginManifest {
            hooks: fields
                .source("hooks", "hooks/hooks.json")
                .map_err(invalid)?,
            mcp_servers: fields.source("mcpServers", ".mcp.json").map_err(invalid)?,
            commands: fields.paths("commands", "commands").map_err(invalid)?,
            agents: fields.paths("agents", "agents").map_err(invalid)?,
            skills: fields.paths("skills", "skills").map_err(invalid)?,
            version: text_of("version"),
            description: text_of("description"),
            file: path.clone(),
            name,
        })
    }
}

/// A name that can name a folder and a command prefix, and nothing else.
fn check_name(name: &str) -> Result<(), String> {
    let fits = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    match fits {
        true => Ok(()),
        false => Err(format!(
            "the name {name:?} may hold only letters, digits, '-', '_' and '.'"
        )),
    }
}

/// The manifest's component fields, read against the plugin's folder.
struct Fields<'a> {
    root: &'a Path,
    value: &'a Value,
}

impl Fields<'_> {
    /// A file of the plugin or an inline object (`hooks`, `mcpServers`).
    fn source(&self, key: &str, default: &str) -> Result<ComponentSource, String> {
        match self.value.get(key) {
            None => Ok(ComponentSource::File(self.root.join(default))),
            Some(Value::String(relative)) => self.inside(key, relative).map(ComponentSource::File),
            Some(inline @ Value::Object(_)) => Ok(ComponentSource::Inline(inline.clone())),
            Some(_) => Err(format!(
                "{key} must be a path inside the plugin or an object"
            )),
        }
    }

    /// The default folder, then a path or each of a list of paths
    /// (`commands`, `agents`, `skills`): they add to the default.
    fn paths(&self, key: &str, default: &str) -> Result<Vec<PathBuf>, String> {
        let mut paths = vec![self.root.join(default)];
        let listed: Vec<&Value> = match self.value.get(key) {
            None => Vec::new(),
            Some(Value::Array(items)) => items.iter().collect(),
            Some(one) => vec![one],
        };
        for item in listed {
            let Value::String(relative) = item else {
                return Err(format!("{key} must be a path or a list of paths"));
            };
            let path = self.inside(key, relative)?;
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        Ok(paths)
    }

    /// `root` joined with `relative` (`./hooks/x.json`), unless it climbs out.
    fn inside(&self, key: &str, relative: &str) -> Result<PathBuf, String> {
        let relative_path = Path::new(relative);
        let climbs = relative_path.components().any(|part| {
            matches!(
                part,
                std::path::Component::ParentDir | std::path::Component::RootDir
            )
        });
        match climbs {
            true => Err(format!("{key} {relative:?} leaves the plugin's folder")),
            false => Ok(normalized(&self.root.join(relative_path))),
        }
    }
}

/// `path` without `.` components (`root/./commands` is `root/commands`).
fn normalized(path: &Path) -> PathBuf {
    path.components()
        .filter(|part| *part != std::path::Component::CurDir)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The manifest of a plugin in a temporary folder, its paths relative to it.
    fn manifest(json: &str) -> Result<PluginManifest, String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".claude-plugin")).unwrap();
        std::fs::write(dir.path().join(".claude-plugin/plugin.json"), json).unwrap();
        let relative = |path: PathBuf| path.strip_prefix(dir.path()).unwrap().to_path_buf();
        let relative_source = |source: ComponentSource| match source {
            ComponentSource::File(path) => ComponentSource::File(relative(path)),
            inline => inline,
        };
        let all = |paths: Vec<PathBuf>| paths.into_iter().map(relative).collect();
        PluginManifest::read(dir.path(), "unnamed")
            .map(|manifest| PluginManifest {
                file: relative(manifest.file),
                hooks: relative_source(manifest.hooks),
                mcp_servers: relative_source(manifest.mcp_servers),
                commands: all(manifest.commands),
                agents: all(manifest.agents),
                skills: all(manifest.skills),
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
                file: PathBuf::from(".claude-plugin/plugin.json"),
                hooks: ComponentSource::File(PathBuf::from("hooks/hooks.json")),
                mcp_servers: ComponentSource::File(PathBuf::from(".mcp.json")),
                commands: vec![PathBuf::from("commands")],
                agents: vec![PathBuf::from("agents")],
                skills: vec![PathBuf::from("skills")],
            })
        );
    }

    #[test]
    fn inline_hooks_and_servers_are_kept_and_listed_paths_add_to_the_default_folders() {
        let hooks = json!({"PreToolUse": [{"matcher": "Write", "hooks": [
            {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/check.sh"}]}]});
        let servers = json!({"api": {"command": "${CLAUDE_PLUGIN_ROOT}/api"}});
        let text = json!({"name": "guard", "hooks": hooks, "mcpServers": servers,
            "commands": ["./commands", "./admin-commands", "./extra/one.md"],
            "agents": "./specialized", "skills": ["./more-skills"]})
        .to_string();
        let read = manifest(&text).unwrap();
        assert_eq!(
            (
                read.hooks,
                read.mcp_servers,
                read.commands,
                read.agents,
                read.skills
            ),
            (
                ComponentSource::Inline(hooks),
                ComponentSource::Inline(servers),
                vec![
                    PathBuf::from("commands"),
                    PathBuf::from("admin-commands"),
                    PathBuf::from("extra/one.md")
                ],
                vec![PathBuf::from("agents"), PathBuf::from("specialized")],
                vec![PathBuf::from("skills"), PathBuf::from("more-skills")]
            )
        );
    }

    #[test]
    fn a_component_path_that_leaves_the_plugin_is_refused() {
        assert_eq!(
            manifest(r#"{"name": "guard", "hooks": "../elsewhere/hooks.json"}"#),
            Err("hooks \"../elsewhere/hooks.json\" leaves the plugin's folder".to_owned())
        );
        assert_eq!(
            manifest(r#"{"name": "guard", "commands": ["./ok", "/etc"]}"#),
            Err("commands \"/etc\" leaves the plugin's folder".to_owned())
        );
    }

    #[test]
    fn without_a_manifest_the_plugin_has_the_name_it_was_installed_by_and_the_default_places() {
        let dir = tempfile::tempdir().unwrap();
        let read = PluginManifest::read(dir.path(), "plugin-dev").unwrap();
        assert_eq!(
            (read.name, read.version, read.hooks, read.commands),
            (
                "plugin-dev".to_owned(),
                None,
                ComponentSource::File(dir.path().join("hooks/hooks.json")),
                vec![dir.path().join("commands")]
            )
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
