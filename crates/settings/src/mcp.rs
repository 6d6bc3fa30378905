//! Where MCP servers are configured (contract §14), in Claude Code's places: an
//! `mcpServers` object in any settings file, and the project's `.mcp.json`
//! (`{"mcpServers": {...}}`). The objects are kept raw, with their file, in
//! precedence order — user settings, `.mcp.json`, project, local, `--settings`
//! — for the MCP crate to read; a later file's server of the same name wins.
//!
//! An untrusted workspace's `.mcp.json` and project files start nothing:
//! each of their servers is listed as set aside, so the trust warning names it
//! (a file that cannot be read is set aside whole, named with its error).
//! This module never starts a server and never expands a variable.

use crate::merge::SetAside;
use crate::{ProjectTrust, Settings, SettingsError, SettingsSources};
use serde_json::Value;
use std::path::Path;

/// The project's MCP file, relative to the workspace root.
pub const PROJECT_MCP_FILE: &str = ".mcp.json";

/// Reads `<workspace>/.mcp.json` into `settings`, right after the user
/// file's servers: its servers when `trust` is [`ProjectTrust::Trusted`],
/// else each server set aside. A missing file is no servers; a malformed one
/// is an error naming the file when trusted, else set aside whole (contract §29).
pub(crate) fn read_project_file(
    sources: &SettingsSources,
    trust: ProjectTrust,
    settings: &mut Settings,
) -> Result<(), SettingsError> {
    let path = sources.workspace.join(PROJECT_MCP_FILE);
    if !path.exists() {
        return Ok(());
    }
    let servers = match parse_project_file(&path) {
        Ok(servers) => servers,
        Err(error) if trust == ProjectTrust::Untrusted => {
            settings.set_aside_unusable(&path, error.to_string());
            return Ok(());
        }
        Err(error) => return Err(error),
    };
    if trust == ProjectTrust::Untrusted {
        settings.set_aside.extend(set_aside(&path, &servers));
        return Ok(());
    }
    let after_user = settings
        .mcp_servers
        .iter()
        .position(|(file, _)| sources.user.as_ref() != Some(file))
        .unwrap_or(settings.mcp_servers.len());
    settings.mcp_servers.insert(after_user, (path, servers));
    Ok(())
}

/// The `mcpServers` object of a `.mcp.json`-shaped file (also what
/// `--mcp-config FILE` reads).
pub fn parse_project_file(path: &Path) -> Result<Value, SettingsError> {
    let value = crate::load::parse_json(path, &crate::load::read_text(path)?)?;
    let invalid = |message: &str| SettingsError::Invalid {
        file: path.to_path_buf(),
        path: "mcpServers".to_owned(),
        message: message.to_owned(),
    };
    match value.get("mcpServers") {
        Some(servers) if servers.is_object() => Ok(servers.clone()),
        Some(_) => Err(invalid("mcpServers must be an object keyed by server name")),
        None => Err(invalid("the file has no mcpServers object")),
    }
}

/// Each server of an untrusted file's `mcpServers`, as the trust warning lists it.
pub(crate) fn set_aside(file: &Path, servers: &Value) -> Vec<SetAside> {
    let Some(servers) = servers.as_object() else {
        return Vec::new();
    };
    servers
        .iter()
        .map(|(name, entry)| SetAside {
            file: file.to_path_buf(),
            item: format!("MCP server {name} ({}), not started", describe(entry)),
        })
        .collect()
}

/// A server entry's command line or URL, as written (not expanded).
fn describe(entry: &Value) -> String {
    let field = |name: &str| entry.get(name).and_then(Value::as_str);
    match (field("command"), field("url")) {
        (Some(command), _) => {
            let args: Vec<&str> = entry
                .get("args")
                .and_then(Value::as_array)
                .map(|args| args.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            std::iter::once(command)
                .chain(args)
                .collect::<Vec<_>>()
                .join(" ")
        }
        (None, Some(url)) => url.to_owned(),
        (None, None) => entry.to_string(),
    }
}
