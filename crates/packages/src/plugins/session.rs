//! What a session takes from plugins: the installed ones `enabledPlugins`
//! turns on whose content still has its pinned hash, their hooks (with
//! `CLAUDE_PLUGIN_ROOT`) and MCP servers, from their files or written
//! inline in `plugin.json`; a hooks or MCP file that is a link out of the
//! plugin's folder is not read (contract §28). A plugin that is
//! missing, changed or unreadable is a warning, never a stop.

use super::store::unchanged;
use super::{ComponentSource, InstalledPlugin, PluginManifest, PluginStore};
use agenthub_settings::links::inside_tree;
use agenthub_settings::{parse_hooks_value, CommandHookConfig, HookPlugin};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// An installed, enabled and unchanged plugin with its manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnabledPlugin {
    /// What the store recorded.
    pub installed: InstalledPlugin,
    /// Its manifest.
    pub manifest: PluginManifest,
}

/// The plugins `enabled` (merged `enabledPlugins`) turns on, and a warning
/// for each that cannot join the session.
pub fn enabled_plugins(enabled: &BTreeMap<String, bool>) -> (Vec<EnabledPlugin>, Vec<String>) {
    let wanted: Vec<&String> = enabled
        .iter()
        .filter(|(_, on)| **on)
        .map(|(id, _)| id)
        .collect();
    if wanted.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let installed = match PluginStore::open().and_then(|store| store.installed()) {
        Ok(installed) => installed,
        Err(error) => return (Vec::new(), vec![format!("plugins not loaded: {error}")]),
    };
    let mut joined = Vec::new();
    let mut warnings = Vec::new();
    for id in wanted {
        let Some(plugin) = installed.iter().find(|plugin| plugin.is_named(id)) else {
            warnings.push(format!(
                "enabledPlugins names {id:?}, which is not installed: `agenthub plugin install {id}`"
            ));
            continue;
        };
        match join(plugin) {
            Ok(manifest) => joined.push(EnabledPlugin {
                installed: plugin.clone(),
                manifest,
            }),
            Err(why) => warnings.push(format!("plugin {:?} not loaded: {why}", plugin.id())),
        }
    }
    (joined, warnings)
}

/// The manifest of `plugin` when its pinned content is what was installed.
/// The manifest is pinned itself, so reading it first is reading what was
/// installed, or learning that it changed.
fn join(plugin: &InstalledPlugin) -> Result<PluginManifest, String> {
    let changed = || {
        format!(
            "its files in {} changed since it was installed; install it again to trust what it runs now",
            plugin.root.display()
        )
    };
    let manifest = PluginManifest::read(&plugin.root, &plugin.name).map_err(|_| changed())?;
    match unchanged(plugin, &manifest).map_err(|error| error.to_string())? {
        true => Ok(manifest),
        false => Err(changed()),
    }
}

impl EnabledPlugin {
    /// Its hooks, each knowing its plugin.
    pub fn hooks(&self) -> Result<Vec<CommandHookConfig>, String> {
        self.manifest.hook_configs(&self.installed.root)
    }

    /// Its MCP servers with `${CLAUDE_PLUGIN_ROOT}` replaced by its folder.
    pub fn mcp_servers(&self) -> Result<Option<(PathBuf, Value)>, String> {
        self.manifest.servers(&self.installed.root)
    }
}

impl PluginManifest {
    /// The hooks of the plugin installed at `root` (its hooks file, or
    /// `hooks` written inline in `plugin.json`; the settings files' shape),
    /// each knowing its plugin; none when it has no hooks.
    pub fn hook_configs(&self, root: &Path) -> Result<Vec<CommandHookConfig>, String> {
        let mut hooks = match &self.hooks {
            ComponentSource::File(path) if !path.is_file() => return Ok(Vec::new()),
            ComponentSource::File(path) => {
                inside_tree(root, path).map_err(|out| out.to_string())?;
                hooks_file(path)?
            }
            ComponentSource::Inline(value) => hooks_value(&self.file, value.clone())?,
        };
        for hook in &mut hooks {
            hook.plugin = Some(HookPlugin {
                name: self.name.clone(),
                root: root.to_path_buf(),
            });
        }
        Ok(hooks)
    }

    /// The MCP servers of the plugin installed at `root` (its `.mcp.json`,
    /// whose servers may sit under `mcpServers` or at the top, or
    /// `mcpServers` written inline in `plugin.json`) with
    /// `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` replaced (each
    /// string one value: a `command` or `args` word stays one argument) and
    /// both in each server's `env`, and the file they are written in;
    /// `None` when it has none.
    pub fn servers(&self, root: &Path) -> Result<Option<(PathBuf, Value)>, String> {
        let (file, servers) = match &self.mcp_servers {
            ComponentSource::File(path) if !path.is_file() => return Ok(None),
            ComponentSource::File(path) => {
                inside_tree(root, path).map_err(|out| out.to_string())?;
                (path.clone(), servers_file(path)?)
            }
            ComponentSource::Inline(value) => (self.file.clone(), value.clone()),
        };
        let plugin = HookPlugin {
            name: self.name.clone(),
            root: root.to_path_buf(),
        };
        let vars = agenthub_hooks::command::plugin_variables(&plugin);
        Ok(Some((file, with_plugin(servers, &vars))))
    }
}

/// The hooks of a plugin's hooks file: `{"hooks": {EVENT: […]}}` (other
/// keys, such as `description`, are the plugin's), or the events at the top
/// level, as some published plugins write it.
pub fn hooks_file(path: &Path) -> Result<Vec<CommandHookConfig>, String> {
    hooks_value(path, json_file(path)?)
}

/// The hooks of `value`, found in `path`: events wrapped in `hooks` or at the top.
fn hooks_value(path: &Path, value: Value) -> Result<Vec<CommandHookConfig>, String> {
    let hooks = match value.get("hooks") {
        Some(hooks) => hooks.clone(),
        None => value,
    };
    parse_hooks_value(path, hooks).map_err(|error| error.to_string())
}

/// The servers of a plugin's MCP file: under `mcpServers` (a project's
/// `.mcp.json` shape) or, as Claude Code's plugin documentation writes it,
/// at the top level.
fn servers_file(path: &Path) -> Result<Value, String> {
    match json_file(path)? {
        Value::Object(mut object) => match object.remove("mcpServers") {
            Some(servers @ Value::Object(_)) => Ok(servers),
            Some(_) => Err(format!(
                "{}: mcpServers must be an object keyed by server name",
                path.display()
            )),
            None => Ok(Value::Object(object)),
        },
        _ => Err(format!("{}: not a JSON object", path.display())),
    }
}

fn json_file(path: &Path) -> Result<Value, String> {
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    serde_json::from_str(&text).map_err(|error| format!("{}: not JSON: {error}", path.display()))
}

/// `servers` with the plugin's variables replaced in every string and set
/// in the `env` of every server that has a `command` (so a server started
/// through a shell expands them itself).
fn with_plugin(servers: Value, vars: &[(String, String)]) -> Value {
    match substituted(servers, vars) {
        Value::Object(servers) => Value::Object(
            servers
                .into_iter()
                .map(|(name, server)| (name, with_env(server, vars)))
                .collect(),
        ),
        other => other,
    }
}

fn with_env(mut server: Value, vars: &[(String, String)]) -> Value {
    let Some(object) = server.as_object_mut().filter(|o| o.contains_key("command")) else {
        return server;
    };
    let env = object
        .entry("env")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if let Some(env) = env.as_object_mut() {
        for (name, value) in vars {
            env.entry(name.clone())
                .or_insert_with(|| Value::String(value.clone()));
        }
    }
    server
}

/// `value` with the variables replaced in every string.
fn substituted(value: Value, vars: &[(String, String)]) -> Value {
    match value {
        Value::String(text) => {
            Value::String(agenthub_hooks::command::substitute_variables(&text, vars))
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| substituted(item, vars))
                .collect(),
        ),
        Value::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(key, item)| (key, substituted(item, vars)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_hooks_file_may_wrap_its_events_in_hooks_or_give_them_at_the_top() {
        let dir = tempfile::tempdir().unwrap();
        let group = json!([{"matcher": "*", "hooks": [{"type": "command", "command": "true"}]}]);
        let wrapped = dir.path().join("wrapped.json");
        let top = dir.path().join("top.json");
        std::fs::write(
            &wrapped,
            json!({"description": "d", "hooks": {"Stop": group}}).to_string(),
        )
        .unwrap();
        std::fs::write(&top, json!({"Stop": group}).to_string()).unwrap();
        let events = |path: &Path| -> Vec<String> {
            hooks_file(path)
                .unwrap()
                .iter()
                .map(|hook| hook.event.to_string())
                .collect()
        };
        assert_eq!(
            (events(&wrapped), events(&top)),
            (vec!["Stop".to_owned()], vec!["Stop".to_owned()])
        );
    }

    #[test]
    fn a_plugins_server_gets_its_root_and_data_in_every_string_and_in_its_env() {
        let servers = json!({"db": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/db",
            "args": ["--config", "$CLAUDE_PLUGIN_ROOT/db.toml", "${CLAUDE_PLUGIN_DATA}"],
            "env": {"N": 1}}, "web": {"url": "http://127.0.0.1:1/$CLAUDE_PLUGIN_ROOT"}});
        let vars = vec![
            ("CLAUDE_PLUGIN_ROOT".to_owned(), "/p/my guard".to_owned()),
            ("CLAUDE_PLUGIN_DATA".to_owned(), "/d/guard".to_owned()),
        ];
        assert_eq!(
            with_plugin(servers, &vars),
            json!({"db": {"command": "/p/my guard/bin/db",
                "args": ["--config", "/p/my guard/db.toml", "/d/guard"],
                "env": {"N": 1, "CLAUDE_PLUGIN_ROOT": "/p/my guard",
                    "CLAUDE_PLUGIN_DATA": "/d/guard"}},
                "web": {"url": "http://127.0.0.1:1//p/my guard"}})
        );
    }
}
