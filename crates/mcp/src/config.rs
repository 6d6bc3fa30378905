//! The servers' configuration in Claude Code's format: `mcpServers` objects
//! from several files (user settings, the project's `.mcp.json`, a
//! `--mcp-config` file), merged by name — a later file's server replaces an
//! earlier one of the same name — with `${VAR}` expansion in every string.
//!
//! A server entry that cannot be understood is reported with its file and
//! name and left out; the other servers still start.

use crate::expand::expand;
use crate::ConfigError;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How AgentHub reaches a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A child process speaking JSON-RPC on its stdin and stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to AgentHub's own environment for the child.
        env: BTreeMap<String, String>,
    },
    /// A streamable HTTP endpoint.
    Http {
        /// The endpoint's URL.
        url: String,
        /// Headers sent with every request (`Authorization`, …).
        headers: BTreeMap<String, String>,
    },
    /// A server inside the Agent SDK application that started AgentHub
    /// (`"type": "sdk"`): its messages travel through the application's
    /// [`crate::SdkMcpBridge`]. The entry's `name`, if any, is informational:
    /// the entry's key names the server.
    Sdk,
}

/// One configured server, its strings expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// The server's name: the middle part of its tools' names.
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
    /// The file that configured it.
    pub origin: PathBuf,
}

impl ServerConfig {
    /// The command line or URL, as error messages and `mcp list` show it.
    pub fn describe(&self) -> String {
        match &self.transport {
            Transport::Stdio { command, args, .. } if args.is_empty() => command.clone(),
            Transport::Stdio { command, args, .. } => format!("{command} {}", args.join(" ")),
            Transport::Http { url, .. } => url.clone(),
            Transport::Sdk => crate::sdk::SDK_DESCRIPTION.to_owned(),
        }
    }
}

/// Every configured server, and what could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpConfig {
    /// The servers, by name (later files win).
    pub servers: Vec<ServerConfig>,
    /// Entries left out, each naming its file and server.
    pub problems: Vec<ConfigError>,
}

impl McpConfig {
    /// Reads each `(file, mcpServers object)` in order; `lookup` answers
    /// `${VAR}` (the process environment in a run, a map in tests).
    pub fn from_sections(
        sections: &[(PathBuf, Value)],
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> McpConfig {
        let mut by_name: BTreeMap<String, ServerConfig> = BTreeMap::new();
        let mut problems = Vec::new();
        for (file, section) in sections {
            let Some(servers) = section.as_object() else {
                problems.push(ConfigError::new(
                    file,
                    "",
                    "mcpServers must be a JSON object",
                ));
                continue;
            };
            for (name, entry) in servers {
                match server(file, name, entry, lookup) {
                    Ok(config) => {
                        by_name.insert(name.clone(), config);
                    }
                    Err(problem) => problems.push(problem),
                }
            }
        }
        McpConfig {
            servers: by_name.into_values().collect(),
            problems,
        }
    }

    /// The server named `name`.
    pub fn get(&self, name: &str) -> Option<&ServerConfig> {
        self.servers.iter().find(|server| server.name == name)
    }
}

fn server(
    file: &Path,
    name: &str,
    entry: &Value,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<ServerConfig, ConfigError> {
    let fail = |message: String| ConfigError::new(file, name, message);
    check_name(name).map_err(fail)?;
    let object = entry
        .as_object()
        .ok_or_else(|| fail("a server must be a JSON object".to_owned()))?;
    let reader = Entry { object, lookup };
    let transport = match object.get("type").map(|kind| kind.as_str()) {
        None | Some(Some("stdio")) => reader.stdio(),
        Some(Some("http")) | Some(Some("streamable-http")) => reader.http(),
        Some(Some("sdk")) => reader.sdk(),
        Some(Some("sse")) => Err(
            "the SSE transport is not supported (the MCP SDK removed it); use \"type\": \"http\""
                .to_owned(),
        ),
        Some(other) => Err(format!(
            "type {} is not a transport; expected \"stdio\", \"http\" or \"sdk\"",
            other.map_or_else(|| object["type"].to_string(), |text| format!("{text:?}"))
        )),
    }
    .map_err(fail)?;
    Ok(ServerConfig {
        name: name.to_owned(),
        transport,
        origin: file.to_path_buf(),
    })
}

/// Server names become part of tool names: no `__` (it separates server and
/// tool), only letters, digits, `_` and `-`.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.contains("__") {
        return Err("a server name must be non-empty and must not contain \"__\"".to_owned());
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err("a server name may hold only letters, digits, '_' and '-'".to_owned());
    }
    Ok(())
}

struct Entry<'a> {
    object: &'a Map<String, Value>,
    lookup: &'a dyn Fn(&str) -> Option<String>,
}

impl Entry<'_> {
    fn stdio(&self) -> Result<Transport, String> {
        self.only_keys(&["type", "command", "args", "env"])?;
        let command = self
            .string("command")?
            .ok_or("a stdio server needs \"command\"")?;
        Ok(Transport::Stdio {
            command,
            args: self.strings("args")?,
            env: self.map("env")?,
        })
    }

    fn http(&self) -> Result<Transport, String> {
        self.only_keys(&["type", "url", "headers"])?;
        let url = self.string("url")?.ok_or("an http server needs \"url\"")?;
        Ok(Transport::Http {
            url,
            headers: self.map("headers")?,
        })
    }

    fn sdk(&self) -> Result<Transport, String> {
        self.only_keys(&["type", "name"])?;
        match self.object.get("name") {
            None | Some(Value::String(_)) => Ok(Transport::Sdk),
            Some(other) => Err(format!("name must be a string, not {other}")),
        }
    }

    fn only_keys(&self, known: &[&str]) -> Result<(), String> {
        match self
            .object
            .keys()
            .find(|key| !known.contains(&key.as_str()))
        {
            Some(key) => Err(format!(
                "unknown key {key:?} (this transport takes {})",
                known.join(", ")
            )),
            None => Ok(()),
        }
    }

    fn expand(&self, key: &str, text: &str) -> Result<String, String> {
        expand(text, self.lookup).map_err(|error| format!("{key}: {error}"))
    }

    fn string(&self, key: &str) -> Result<Option<String>, String> {
        match self.object.get(key) {
            None => Ok(None),
            Some(Value::String(text)) => self.expand(key, text).map(Some),
            Some(other) => Err(format!("{key} must be a string, not {other}")),
        }
    }

    fn strings(&self, key: &str) -> Result<Vec<String>, String> {
        let Some(value) = self.object.get(key) else {
            return Ok(Vec::new());
        };
        let items = value
            .as_array()
            .ok_or_else(|| format!("{key} must be an array of strings"))?;
        items
            .iter()
            .enumerate()
            .map(|(index, item)| match item.as_str() {
                Some(text) => self.expand(&format!("{key}[{index}]"), text),
                None => Err(format!("{key}[{index}] must be a string, not {item}")),
            })
            .collect()
    }

    fn map(&self, key: &str) -> Result<BTreeMap<String, String>, String> {
        let Some(value) = self.object.get(key) else {
            return Ok(BTreeMap::new());
        };
        let object = value
            .as_object()
            .ok_or_else(|| format!("{key} must be an object of strings"))?;
        object
            .iter()
            .map(|(name, item)| match item.as_str() {
                Some(text) => Ok((name.clone(), self.expand(&format!("{key}.{name}"), text)?)),
                None => Err(format!("{key}.{name} must be a string, not {item}")),
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
