//! The workspace files a project's own hooks and MCP servers run (contract §26):
//! `./scripts/post.sh` in a hook command, `python3 tools/check.py`, the
//! `command` and `args` of a server in `.mcp.json`, the hooks of a subagent
//! definition's front matter. Trust pins their content
//! with the settings files, and the policy protects them, so that trusting
//! `"command": "./scripts/post.sh"` does not leave the model free to rewrite
//! what that hook will run unsandboxed.
//!
//! Every word of a command is a candidate (quotes dropped, `$CLAUDE_PROJECT_DIR`
//! expanded, `--flag=value` split): one that names a file inside the
//! workspace counts, as does one with a `/` that would land inside it once
//! created. It must never run anything, and never name a path outside the
//! workspace: the user's own scripts are not the project's to pin.
//!
//! A word naming a workspace path that is a link out of the repository
//! (contract §28) is never pinned; the hook or server that would run it is
//! set aside with a warning ([`set_aside_links_out`]) and the review lists
//! the link as not used.

use crate::SetupError;
use agenthub_core::AgentDefinition;
use agenthub_settings::links::{inside_tree, project_tree, LinkOut};
use agenthub_settings::{
    agent_definition_files, parse_file_as, parse_project_file, project_file_format,
    CommandHookConfig, HookHandler, Settings, PROJECT_CONFIG_FILES, PROJECT_MCP_FILE,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// Characters that end a word in a shell command.
const SHELL_SEPARATORS: [char; 8] = [';', '|', '&', '(', ')', '<', '>', '`'];

/// The paths inside `workspace` (canonical) that the project's hooks and
/// MCP servers run, whether or not they exist yet, sorted.
pub(crate) fn executed_paths(workspace: &Path) -> Result<Vec<PathBuf>, SetupError> {
    let project = workspace.display().to_string();
    let mut found = BTreeSet::new();
    for word in project_command_words(workspace) {
        let word = agenthub_hooks::command::substitute(&word, &project);
        if let Some(path) = inside(workspace, &word) {
            found.insert(path);
        }
    }
    Ok(found.into_iter().collect())
}

/// The workspace paths the project's hooks and MCP servers name that are
/// links out of its repository: never pinned, never run.
pub(crate) fn executed_links_out(workspace: &Path) -> Result<Vec<LinkOut>, SetupError> {
    Ok(links_out_among(
        workspace,
        &project_command_words(workspace),
    ))
}

/// Removes from `settings` the project's own hooks and MCP servers whose
/// command names a link out of the repository, with a warning for each.
pub(crate) fn set_aside_links_out(workspace: &Path, settings: &mut Settings) -> Vec<String> {
    let project_files: Vec<PathBuf> = PROJECT_CONFIG_FILES
        .iter()
        .map(|name| workspace.join(name))
        .collect();
    let mut warnings = Vec::new();
    settings.hooks.retain(|hook| {
        if !project_files.contains(&hook.source) {
            return true;
        }
        let Some(out) = hooks_link_out(workspace, std::slice::from_ref(hook)) else {
            return true;
        };
        let command = hook.display_command();
        warnings.push(format!("{} hook `{command}` set aside: {out}", hook.event));
        false
    });
    for (file, servers) in &mut settings.mcp_servers {
        let Some(servers) = servers
            .as_object_mut()
            .filter(|_| project_files.contains(file))
        else {
            continue;
        };
        servers.retain(|name, server| {
            let one = Value::Object(serde_json::Map::from_iter([(name.clone(), server.clone())]));
            let Some(out) = links_out_among(workspace, &server_words(&one))
                .into_iter()
                .next()
            else {
                return true;
            };
            warnings.push(format!("MCP server {name} set aside: {out}"));
            false
        });
    }
    warnings
}

/// The first link out of the repository that one of `hooks` (the project's
/// own) would run, if any.
pub(crate) fn hooks_link_out(workspace: &Path, hooks: &[CommandHookConfig]) -> Option<LinkOut> {
    links_out_among(workspace, &hook_words(hooks))
        .into_iter()
        .next()
}

/// The paths among `words` (as a command names them, relative to
/// `workspace`) that exist under the workspace and lead out of its
/// repository.
fn links_out_among(workspace: &Path, words: &[String]) -> Vec<LinkOut> {
    let project = workspace.display().to_string();
    let tree = project_tree(workspace);
    let mut found = BTreeMap::new();
    for word in words {
        let word = agenthub_hooks::command::substitute(word, &project);
        let Some(path) = normalised(&workspace.join(&word)) else {
            continue;
        };
        if !path.starts_with(workspace) || path == workspace || path.symlink_metadata().is_err() {
            continue;
        }
        if let Err(out) = inside_tree(&tree, &path) {
            found.insert(path, out);
        }
    }
    found.into_values().collect()
}

/// Every word of every command the project's configuration files would run.
fn project_command_words(workspace: &Path) -> Vec<String> {
    let mut words = Vec::new();
    for name in PROJECT_CONFIG_FILES {
        let path = workspace.join(name);
        if !path.is_file() {
            continue;
        }
        // A file that cannot be understood runs nothing: untrusted it is set
        // aside whole, trusted the settings loader refuses it (contract §29).
        if name == PROJECT_MCP_FILE {
            if let Ok(servers) = parse_project_file(&path) {
                words.extend(server_words(&servers));
            }
            continue;
        }
        // Codex's and Gemini CLI's files are read in their own formats.
        let Ok(parsed) = parse_file_as(&path, project_file_format(name)) else {
            continue;
        };
        words.extend(hook_words(&parsed.hooks));
        if let Some(servers) = &parsed.mcp_servers {
            words.extend(server_words(servers));
        }
    }
    for name in agent_definition_files(workspace) {
        words.extend(hook_words(&definition_hooks(&workspace.join(name))));
    }
    words
}

/// The hooks of a subagent definition's front matter; none when the file
/// cannot be read (it is set aside, so it runs nothing).
fn definition_hooks(path: &Path) -> Vec<CommandHookConfig> {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| AgentDefinition::parse(path, &text).ok())
        .and_then(|definition| crate::agents::definition_hooks(&definition).ok())
        .unwrap_or_default()
}

/// Every word of the command hooks among `hooks`.
fn hook_words(hooks: &[CommandHookConfig]) -> Vec<String> {
    let mut words = Vec::new();
    for hook in hooks
        .iter()
        .filter(|hook| hook.handler == HookHandler::Command)
    {
        words.extend(shell_words(&hook.command));
        words.extend(hook.args.iter().flatten().cloned());
    }
    words
}

/// The `command` and `args` of every server of an `mcpServers` object.
fn server_words(servers: &Value) -> Vec<String> {
    let Some(servers) = servers.as_object() else {
        return Vec::new();
    };
    let mut words = Vec::new();
    for server in servers.values() {
        if let Some(command) = server.get("command").and_then(Value::as_str) {
            words.extend(shell_words(command));
        }
        let args = server.get("args").and_then(Value::as_array);
        words.extend(
            args.into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned),
        );
    }
    words
}

/// The words of a shell command, quotes dropped; `--flag=value` also gives
/// `value`.
fn shell_words(command: &str) -> Vec<String> {
    let unquoted: String = command
        .chars()
        .filter(|c| !matches!(c, '"' | '\''))
        .collect();
    let mut words = Vec::new();
    for word in unquoted
        .split(|c: char| c.is_whitespace() || SHELL_SEPARATORS.contains(&c))
        .filter(|word| !word.is_empty())
    {
        if let Some((_, value)) = word.split_once('=') {
            words.push(value.to_owned());
        }
        words.push(word.to_owned());
    }
    words
}

/// The path `word` names inside `workspace`: an existing file there (where
/// it really lands), or a path with a `/` that stays inside it lexically.
fn inside(workspace: &Path, word: &str) -> Option<PathBuf> {
    let joined = workspace.join(word);
    if let Ok(real) = joined.canonicalize() {
        return (real.is_file() && real.starts_with(workspace)).then_some(real);
    }
    let lexical = normalised(&joined)?;
    (word.contains('/') && lexical.starts_with(workspace) && lexical != workspace)
        .then_some(lexical)
}

/// `path` with `.` and `..` resolved lexically; `None` above the root.
fn normalised(path: &Path) -> Option<PathBuf> {
    let mut clean = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !clean.pop() {
                    return None;
                }
            }
            other => clean.push(other),
        }
    }
    Some(clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_drop_quotes_and_split_on_operators_and_assignments() {
        assert_eq!(
            shell_words(
                r#"cd "$CLAUDE_PROJECT_DIR" && ./scripts/post.sh --config=hooks/c.json|tee log"#
            ),
            [
                "cd",
                "$CLAUDE_PROJECT_DIR",
                "./scripts/post.sh",
                "hooks/c.json",
                "--config=hooks/c.json",
                "tee",
                "log"
            ]
        );
    }

    #[test]
    fn a_project_mcp_server_running_a_link_out_of_the_repository_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let workspace = base.join("ws");
        std::fs::create_dir_all(workspace.join("bin")).unwrap();
        std::fs::write(base.join("db"), "#!/bin/sh\n").unwrap();
        std::os::unix::fs::symlink(base.join("db"), workspace.join("bin/db")).unwrap();
        let file = workspace.join(PROJECT_MCP_FILE);
        let mut settings = Settings::default();
        settings.mcp_servers.push((
            file.clone(),
            serde_json::json!({"db": {"command": "./bin/db"}, "ok": {"command": "node"}}),
        ));
        let warnings = set_aside_links_out(&workspace, &mut settings);
        assert_eq!(
            (settings.mcp_servers, warnings),
            (
                vec![(file, serde_json::json!({"ok": {"command": "node"}}))],
                vec![format!(
                    "MCP server db set aside: {} is a link to outside {} that is not used \
                     (it leads to {})",
                    workspace.join("bin/db").display(),
                    workspace.display(),
                    base.join("db").display()
                )]
            )
        );
    }

    #[test]
    fn existing_files_inside_count_and_paths_outside_never_do() {
        let dir = tempfile::tempdir().unwrap();
        let workspace = dir.path().canonicalize().unwrap();
        std::fs::create_dir(workspace.join("scripts")).unwrap();
        std::fs::write(workspace.join("scripts/post.sh"), "echo hi").unwrap();
        let named: Vec<Option<PathBuf>> = [
            "./scripts/post.sh",
            "scripts",
            "echo",
            "tools/later.py",
            "../outside.sh",
            "/bin/sh",
        ]
        .iter()
        .map(|word| inside(&workspace, word))
        .collect();
        assert_eq!(
            named,
            [
                Some(workspace.join("scripts/post.sh")),
                None,
                None,
                Some(workspace.join("tools/later.py")),
                None,
                None
            ]
        );
    }
}
