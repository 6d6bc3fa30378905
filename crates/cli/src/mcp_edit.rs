//! `agenthub mcp add` and `agenthub mcp remove`: edit `mcpServers` in the
//! user settings file (default) or the workspace's `.mcp.json`
//! (`--scope project`). Other keys of the file are kept; a file that is not
//! a JSON object is refused, never overwritten.

use crate::args::mcp::Scope;
use crate::args::mcp::{AddArgs, RemoveArgs, TransportArg};
use crate::error::CliError;
use agenthub::crates::settings::{SettingsSources, PROJECT_MCP_FILE};
use agenthub::resolve_workspace;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

pub fn add(args: AddArgs) -> Result<u8, CliError> {
    if args.name.is_empty() || args.name.contains("__") {
        return Err(CliError::Usage(format!(
            "MCP server name {:?}: a name must be non-empty and must not contain \"__\"",
            args.name
        )));
    }
    let entry = entry(&args)?;
    let path = file_for(args.scope, args.workspace.as_deref())?;
    let mut root = read_object(&path)?;
    let servers = servers_of(&mut root, &path)?;
    let replaced = servers.insert(args.name.clone(), entry).is_some();
    write_object(&path, root)?;
    let verb = if replaced { "replaced" } else { "added" };
    println!("{verb} MCP server {} in {}", args.name, path.display());
    if args.scope == Scope::Project {
        println!("the workspace's configuration changed: review and trust it again with `agenthub trust`");
    }
    Ok(0)
}

pub fn remove(args: RemoveArgs) -> Result<u8, CliError> {
    let scopes = match args.scope {
        Some(scope) => vec![scope],
        None => vec![Scope::User, Scope::Project],
    };
    for scope in scopes {
        let path = file_for(scope, args.workspace.as_deref())?;
        if !path.exists() {
            continue;
        }
        let mut root = read_object(&path)?;
        if servers_of(&mut root, &path)?.remove(&args.name).is_some() {
            write_object(&path, root)?;
            println!("removed MCP server {} from {}", args.name, path.display());
            return Ok(0);
        }
    }
    Err(CliError::Usage(format!(
        "no MCP server is named {}",
        args.name
    )))
}

fn entry(args: &AddArgs) -> Result<Value, CliError> {
    match args.transport {
        TransportArg::Http => {
            let [url] = args.command.as_slice() else {
                return Err(CliError::Usage(
                    "an http server takes one URL: agenthub mcp add --transport http NAME URL"
                        .to_owned(),
                ));
            };
            let headers = pairs(&args.headers, ':', "--header")?;
            Ok(json!({"type": "http", "url": url, "headers": headers}))
        }
        TransportArg::Stdio => {
            let (command, rest) = args.command.split_first().ok_or_else(|| {
                CliError::Usage(
                    "a stdio server needs a command: agenthub mcp add NAME -- COMMAND ARGS…"
                        .to_owned(),
                )
            })?;
            let env = pairs(&args.env, '=', "--env")?;
            Ok(json!({"command": command, "args": rest, "env": env}))
        }
    }
}

fn pairs(items: &[String], separator: char, flag: &str) -> Result<Map<String, Value>, CliError> {
    items
        .iter()
        .map(|item| match item.split_once(separator) {
            Some((key, value)) if !key.trim().is_empty() => Ok((
                key.trim().to_owned(),
                Value::String(value.trim().to_owned()),
            )),
            _ => Err(CliError::Usage(format!(
                "{flag} {item:?}: expected KEY{separator}VALUE"
            ))),
        })
        .collect()
}

fn file_for(scope: Scope, workspace: Option<&Path>) -> Result<PathBuf, CliError> {
    match scope {
        Scope::Project => Ok(resolve_workspace(workspace)?.join(PROJECT_MCP_FILE)),
        Scope::User => SettingsSources::standard(Path::new("."), Vec::new(), false)
            .user
            .ok_or_else(|| {
                CliError::Usage("no user settings folder: set HOME or XDG_CONFIG_HOME".to_owned())
            }),
    }
}

pub(crate) fn read_object(path: &Path) -> Result<Map<String, Value>, CliError> {
    if !path.exists() {
        return Ok(Map::new());
    }
    let text = std::fs::read_to_string(path)
        .map_err(|error| CliError::Usage(format!("cannot read {}: {error}", path.display())))?;
    match serde_json::from_str(&text) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(CliError::Usage(format!(
            "{} is not a JSON object; not changed",
            path.display()
        ))),
        Err(error) => Err(CliError::Usage(format!(
            "{} is not valid JSON ({error}); not changed",
            path.display()
        ))),
    }
}

fn servers_of<'a>(
    root: &'a mut Map<String, Value>,
    path: &Path,
) -> Result<&'a mut Map<String, Value>, CliError> {
    root.entry("mcpServers")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{}: mcpServers is not an object; not changed",
                path.display()
            ))
        })
}

pub(crate) fn write_object(path: &Path, root: Map<String, Value>) -> Result<(), CliError> {
    let fail = |error: std::io::Error| {
        CliError::Usage(format!("cannot write {}: {error}", path.display()))
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    let text = serde_json::to_string_pretty(&Value::Object(root)).unwrap_or_default();
    std::fs::write(path, text + "\n").map_err(fail)
}
