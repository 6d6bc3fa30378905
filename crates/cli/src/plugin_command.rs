//! `agenthub plugin …` (contract §20): add marketplaces, install, list,
//! enable, disable and remove Claude Code plugins. Install shows what the
//! plugin will run, pins its content and enables it in the user's settings
//! (`enabledPlugins`); running the command is the consent, so it never asks.
//! The layout, the store and what a session joins are the library's.

use crate::args::plugin::{MarketplaceArgs, MarketplaceCommand, PluginArgs, PluginCommand};
use crate::error::CliError;
use crate::mcp_edit::{read_object, write_object};
use agenthub::crates::settings;
use agenthub::plugins::{
    add_marketplace, install_plugin, InstalledPlugin, PluginError, PluginManifest, PluginStore,
};
use serde_json::{Map, Value};
use std::fmt::Write;
use std::path::PathBuf;

impl From<PluginError> for CliError {
    fn from(error: PluginError) -> Self {
        match error {
            PluginError::Git { .. } => CliError::Unavailable(error.to_string()),
            _ => CliError::Usage(error.to_string()),
        }
    }
}

pub fn run(args: PluginArgs) -> Result<u8, CliError> {
    let text = match args.command {
        PluginCommand::Marketplace(MarketplaceArgs {
            command: MarketplaceCommand::Add { source },
        }) => {
            let added = add_marketplace(&source)?;
            let mut text = format!("added marketplace {} from {}\n", added.name, added.source);
            for out in &added.links_left_out {
                let _ = writeln!(text, "  {}: {}", out.path().display(), out.review_line());
            }
            text
        }
        PluginCommand::Marketplace(MarketplaceArgs {
            command: MarketplaceCommand::List,
        }) => agenthub::plugins::known_marketplaces()?
            .iter()
            .map(|known| format!("{}  {}\n", known.name, known.source))
            .collect(),
        PluginCommand::Install { plugin } => install(&plugin)?,
        PluginCommand::List => list()?,
        PluginCommand::Enable { name } => switch(&name, true)?,
        PluginCommand::Disable { name } => switch(&name, false)?,
        PluginCommand::Remove { name } => {
            let removed = PluginStore::open()?.remove(&name)?;
            set_enabled(&removed.id(), None)?;
            format!("removed {}\n", removed.id())
        }
    };
    crate::output::print_stdout(&text);
    Ok(0)
}

fn install(plugin: &str) -> Result<String, CliError> {
    let installed = install_plugin(plugin)?;
    let file = set_enabled(&installed.id(), Some(true))?;
    let mut text = shown(&installed)?;
    let _ = writeln!(text, "enabled: {} (in {})", installed.id(), file.display());
    Ok(text)
}

/// What an installed plugin will run, as `trust --show` shows a project.
fn shown(plugin: &InstalledPlugin) -> Result<String, CliError> {
    let manifest = PluginManifest::read(&plugin.root, &plugin.name)?;
    let mut text = format!(
        "installed {}{} (sha256 {})\n  folder: {}\n",
        plugin.id(),
        plugin
            .version
            .as_deref()
            .map(|version| format!(" {version}"))
            .unwrap_or_default(),
        plugin.sha256,
        plugin.root.display()
    );
    for out in &plugin.links_left_out {
        let _ = writeln!(text, "  {}: {}", out.path().display(), out.review_line());
    }
    for hook in manifest
        .hook_configs(&plugin.root)
        .map_err(CliError::Usage)?
    {
        let _ = writeln!(
            text,
            "  {} hook (matcher {}): {}",
            hook.event,
            hook.matcher,
            hook.display_command()
        );
    }
    if let Some((_, servers)) = manifest.servers(&plugin.root).map_err(CliError::Usage)? {
        for (name, server) in servers.as_object().into_iter().flatten() {
            let _ = writeln!(text, "  MCP server {name}: {server}");
        }
    }
    let (agents, _) = agenthub::AgentDefinitions::load(&manifest.agents);
    for agent in agents.iter().filter(|agent| agent.source.is_some()) {
        let _ = writeln!(text, "  subagent {}: {}", agent.name, agent.description);
    }
    let inside = agenthub::LinkRule::Inside(plugin.root.clone());
    let (commands, _) = agenthub::CustomCommands::load(&manifest.commands, &inside);
    for command in commands.iter() {
        let _ = writeln!(text, "  command /{}:{}", manifest.name, command.name);
    }
    let (skills, _) = agenthub::Skills::load(&manifest.skills, &inside);
    for skill in skills.iter() {
        let _ = writeln!(text, "  skill {}", skill.name);
    }
    Ok(text)
}

fn list() -> Result<String, CliError> {
    let enabled = enabled_in_user_settings()?;
    let mut text = String::new();
    for plugin in PluginStore::open()?.installed()? {
        let on = enabled.get(&plugin.id()).and_then(Value::as_bool) == Some(true);
        let _ = writeln!(
            text,
            "{}  {}{}\n  folder: {}",
            plugin.id(),
            if on { "enabled" } else { "disabled" },
            plugin
                .version
                .as_deref()
                .map(|version| format!("  version {version}"))
                .unwrap_or_default(),
            plugin.root.display()
        );
    }
    if text.is_empty() {
        text = "no plugins installed\n".to_owned();
    }
    Ok(text)
}

fn switch(name: &str, on: bool) -> Result<String, CliError> {
    let plugin = PluginStore::open()?.find(name)?;
    let file = set_enabled(&plugin.id(), Some(on))?;
    Ok(format!(
        "{} {} (in {})\n",
        if on { "enabled" } else { "disabled" },
        plugin.id(),
        file.display()
    ))
}

fn user_settings() -> Result<PathBuf, CliError> {
    settings::user_settings_path().ok_or_else(|| {
        CliError::Usage("no user settings file: set XDG_CONFIG_HOME or HOME".to_owned())
    })
}

fn enabled_in_user_settings() -> Result<Map<String, Value>, CliError> {
    let root = read_object(&user_settings()?)?;
    Ok(root
        .get("enabledPlugins")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default())
}

/// Sets (or with `None` removes) `enabledPlugins[id]` in the user's
/// settings file, keeping the rest of it; the file's path.
fn set_enabled(id: &str, on: Option<bool>) -> Result<PathBuf, CliError> {
    let path = user_settings()?;
    let mut root = read_object(&path)?;
    let plugins = root
        .entry("enabledPlugins")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{}: enabledPlugins is not an object; not changed",
                path.display()
            ))
        })?;
    match on {
        Some(on) => {
            plugins.insert(id.to_owned(), Value::Bool(on));
        }
        None => {
            plugins.remove(id);
        }
    }
    write_object(&path, root)?;
    Ok(path)
}
