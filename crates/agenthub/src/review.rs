//! What a workspace's own configuration would do once trusted, file by file:
//! every hook command, allow rule, mode, extra directory, environment
//! variable, MCP server, model endpoint, subagent definition and memory
//! file, and every link out of the repository that is not used — the text
//! a person reads before
//! trusting a cloned repository (`agenthub trust`, and the question an
//! interactive session asks at start). Reading only: nothing here runs.

use crate::pinned::{kind_of, PinnedKind};
use crate::SetupError;
use agenthub_core::{AgentDefinition, DefinitionError};
use agenthub_settings::links::LinkOut;
use agenthub_settings::{parse_file, FileSettings, ProjectFingerprint, PROJECT_CONFIG_FILES};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One configuration file of the workspace and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewedFile {
    /// The file, relative to the workspace root.
    pub name: String,
    /// The hex SHA-256 trust would pin.
    pub sha256: String,
    /// What acts only after trust: grants, commands, redirections.
    pub grants: Vec<String>,
    /// What applies already: deny and ask rules.
    pub restrictions: Vec<String>,
    /// Why the file cannot be used, when it cannot be read or understood:
    /// set aside whole while untrusted, an error once trusted (contract §29).
    pub unusable: Option<String>,
}

/// One memory file of the workspace or a parent: read into the system
/// prompt once the folder is trusted, whatever it says then (never pinned,
/// contract §29).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewedMemory {
    /// The file, relative to the workspace root (`../AGENTS.md` for a parent's).
    pub name: String,
    /// Its size now, in bytes.
    pub bytes: u64,
}

/// Every configuration file of a workspace, reviewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectReview {
    /// The fingerprint trust would record.
    pub fingerprint: ProjectFingerprint,
    /// The files: the settings files in [`PROJECT_CONFIG_FILES`] order, then
    /// the other pinned files (subagent definitions, skills, commands,
    /// scripts) by name.
    pub files: Vec<ReviewedFile>,
    /// The memory files, from the repository root down: not pinned.
    pub memory_files: Vec<ReviewedMemory>,
    /// The skills, commands, subagent definitions, memory files and scripts
    /// that are links out of the repository (contract §28): not read, not
    /// pinned, never used.
    pub links_out: Vec<LinkOut>,
}

/// Reviews the configuration files of `workspace` (canonical). A settings
/// file that cannot be understood is reviewed as unusable, with why
/// ([`ReviewedFile::unusable`]): it never stops the review (contract §29).
pub fn review_project(workspace: &Path) -> Result<ProjectReview, SetupError> {
    let fingerprint = crate::pinned::project_fingerprint(workspace)?;
    let settings_files = PROJECT_CONFIG_FILES.iter().copied();
    let definition_files = fingerprint
        .files
        .keys()
        .map(String::as_str)
        .filter(|name| !PROJECT_CONFIG_FILES.contains(name));
    let mut files = Vec::new();
    for name in settings_files.chain(definition_files) {
        let Some(sha256) = fingerprint.files.get(name) else {
            continue;
        };
        let path = workspace.join(name);
        let reviewed = match (name, kind_of(workspace, name)) {
            (".mcp.json", _) => mcp_servers(&path).map(|grants| (grants, Vec::new())),
            (".codex/hooks.json" | ".codex/config.toml" | ".gemini/settings.json", _) => {
                foreign_hooks(name, &path).map(|grants| (grants, Vec::new()))
            }
            _ if PROJECT_CONFIG_FILES.contains(&name) => settings_file(&path),
            (_, PinnedKind::Executed) => Ok((executed_file(&path), Vec::new())),
            (_, PinnedKind::Skill) => {
                Ok((agenthub_packages::skills::review_lines(&path), Vec::new()))
            }
            (_, PinnedKind::Command) => Ok((
                agenthub_packages::commands::review_lines(workspace, name),
                Vec::new(),
            )),
            (_, PinnedKind::Configuration) => Ok((agent_definition(&path), Vec::new())),
        };
        let (grants, restrictions, unusable) = match reviewed {
            Ok((grants, restrictions)) => (grants, restrictions, None),
            Err(error) => (Vec::new(), Vec::new(), Some(error.to_string())),
        };
        files.push(ReviewedFile {
            name: name.to_owned(),
            sha256: sha256.clone(),
            grants,
            restrictions,
            unusable,
        });
    }
    let links_out = crate::pinned::links_out(workspace)?;
    let memory_files = crate::pinned::memory_file_names(workspace)
        .into_iter()
        .map(|name| ReviewedMemory {
            bytes: std::fs::metadata(workspace.join(&name)).map_or(0, |meta| meta.len()),
            name,
        })
        .collect();
    Ok(ProjectReview {
        fingerprint,
        files,
        memory_files,
        links_out,
    })
}

impl ProjectReview {
    /// The files that cannot be read or understood, each with why.
    pub fn unusable(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().filter_map(|file| {
            file.unusable
                .as_deref()
                .map(|why| (file.name.as_str(), why))
        })
    }

    /// True when the workspace has nothing to trust: no pinned file, no
    /// memory file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.memory_files.is_empty()
    }
}

/// A file a project hook or MCP server runs: pinned so that it cannot
/// change behind the trust.
fn executed_file(path: &Path) -> Vec<String> {
    let size = std::fs::metadata(path).map_or(0, |metadata| metadata.len());
    vec![format!(
        "run by a project hook or MCP server ({size} bytes); protected from writes"
    )]
}

/// A subagent definition file: the agent it adds, its tools and model.
/// What a subagent definition grants: the agent, and every hook its front
/// matter would run. One that cannot be read says so: it would be set aside,
/// and the review goes on.
fn agent_definition(path: &Path) -> Vec<String> {
    let definition = std::fs::read_to_string(path)
        .map_err(|error| DefinitionError::Unreadable {
            file: path.to_path_buf(),
            message: error.to_string(),
        })
        .and_then(|text| AgentDefinition::parse(path, &text));
    let definition = match definition {
        Ok(definition) => definition,
        Err(error) => return vec![format!("set aside, it cannot be read: {error}")],
    };
    let tools = definition
        .tools
        .as_ref()
        .map_or_else(|| "all but Task".to_owned(), |tools| tools.join(", "));
    let model = definition.model.as_deref().unwrap_or("inherit");
    let mut grants = vec![format!(
        "subagent {}: {} (tools: {tools}; model: {model})",
        definition.name, definition.description
    )];
    match crate::agents::definition_hooks(&definition) {
        Ok(hooks) => grants.extend(hooks.iter().map(hook_grant)),
        Err(why) => grants.push(format!("set aside, its hooks cannot be read: {why}")),
    }
    grants
}

/// A settings file's grants (hooks, allow rules, mode, directories, env,
/// model endpoint) and restrictions (deny and ask rules).
/// Codex's or Gemini CLI's hook file: the hooks it runs, as AgentHub maps them.
fn foreign_hooks(name: &str, path: &Path) -> Result<Vec<String>, SetupError> {
    let parsed =
        agenthub_settings::parse_file_as(path, agenthub_settings::project_file_format(name))?;
    Ok(parsed.hooks.iter().map(hook_grant).collect())
}

fn hook_grant(hook: &agenthub_settings::CommandHookConfig) -> String {
    format!(
        "{} hook (matcher {}): {}",
        hook.event,
        hook.matcher,
        hook.display_command()
    )
}

fn settings_file(path: &Path) -> Result<(Vec<String>, Vec<String>), SetupError> {
    let parsed = parse_file(path)?;
    let raw = raw_json(path)?;
    let mut grants: Vec<String> = parsed.hooks.iter().map(hook_grant).collect();
    let mut restrictions = Vec::new();
    if let Some(Value::Object(permissions)) = &parsed.permissions {
        for (key, value) in permissions {
            match key.as_str() {
                "allow" => grants.extend(rules("allow rule", value)),
                "deny" | "ask" => restrictions.extend(rules(&format!("{key} rule"), value)),
                _ => grants.push(format!("permissions.{key}: {value}")),
            }
        }
    }
    if let Some(Value::Object(env)) = raw.get("env") {
        grants.extend(
            env.iter()
                .map(|(name, value)| format!("env {name}={value}")),
        );
    }
    grants.extend(endpoint(&parsed));
    grants.extend(plugins(&parsed));
    Ok((grants, restrictions))
}

/// Every plugin `enabledPlugins` enables, and every one it tries to
/// disable — which a project never does to a plugin the user enabled.
fn plugins(parsed: &FileSettings) -> Vec<String> {
    parsed
        .enabled_plugins
        .iter()
        .map(|(id, on)| match on {
            true => format!("enables plugin {id}"),
            false => format!(
                "tries to disable plugin {id}: not done if the user enabled it (a project \
                 never switches off the user's plugins)"
            ),
        })
        .collect()
}

fn rules(label: &str, value: &Value) -> Vec<String> {
    match value.as_array() {
        Some(rules) => rules
            .iter()
            .map(|rule| match rule.as_str() {
                Some(text) => format!("{label}: {text}"),
                None => format!("{label}: {rule}"),
            })
            .collect(),
        None => vec![format!("{label}s: {value}")],
    }
}

fn endpoint(parsed: &FileSettings) -> Vec<String> {
    [
        ("model", &parsed.model),
        ("provider", &parsed.provider),
        ("baseUrl", &parsed.base_url),
    ]
    .into_iter()
    .filter_map(|(key, value)| value.as_ref().map(|value| format!("{key}: {value}")))
    .collect()
}

/// `.mcp.json`'s servers: each one's command line or URL.
fn mcp_servers(path: &Path) -> Result<Vec<String>, SetupError> {
    let raw = raw_json(path)?;
    let Some(Value::Object(servers)) = raw.get("mcpServers") else {
        return Ok(vec![format!("content: {raw}")]);
    };
    Ok(servers
        .iter()
        .map(|(name, server)| {
            let command = server.get("command").and_then(Value::as_str);
            let url = server.get("url").and_then(Value::as_str);
            let args: Vec<&str> = server
                .get("args")
                .and_then(Value::as_array)
                .map(|args| args.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            match (command, url) {
                (Some(command), _) => format!("MCP server {name}: {command} {}", args.join(" "))
                    .trim_end()
                    .to_owned(),
                (None, Some(url)) => format!("MCP server {name}: {url}"),
                (None, None) => format!("MCP server {name}: {server}"),
            }
        })
        .collect())
}

fn raw_json(path: &Path) -> Result<Value, SetupError> {
    let unreadable = |message: String| SetupError::ProjectFile {
        file: PathBuf::from(path),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|error| unreadable(error.to_string()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    serde_json::from_str(text).map_err(|error| unreadable(format!("not valid JSON: {error}")))
}
