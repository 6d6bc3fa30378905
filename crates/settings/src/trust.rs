//! Trust in a workspace's own configuration (contract §11). A cloned repository
//! brings `.agenthub/settings*.json`, `.claude/settings*.json`, `.mcp.json`,
//! and the hook files of Codex (`.codex/hooks.json`, `.codex/config.toml`) and Gemini CLI
//! (`.gemini/settings.json`), subagent definitions, skills' `SKILL.md` and custom
//! commands;
//! what they grant, execute or redirect acts only once the user has trusted
//! exactly these files.
//!
//! Trust is pinned to content: the workspace's canonical path and a SHA-256 of
//! each configuration file, kept in `$XDG_STATE_HOME/agenthub/trust.json`
//! (default `~/.local/state/agenthub/trust.json`). A file that changed, appeared
//! or went away makes the workspace untrusted again.
//!
//! Memory files ([`MEMORY_FILE_NAMES`]) follow the folder, not their bytes
//! (contract §29): they are text, not code, so they are never pinned, and a
//! record written before that (which pinned them) is read without them.
//!
//! A definition, skill or command file that is a link out of the repository
//! is neither pinned nor loaded ([`crate::links`], contract §28);
//! [`project_links_out`] names those for the review.
//!
//! This module only answers "are these the files the user trusted?" and
//! records the answer. It never decides a permission and never reads what
//! the files say.

use crate::links::{project_tree, walk, LinkOut, LinkRule, Shape};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The configuration files a workspace can carry, relative to its root.
pub const PROJECT_CONFIG_FILES: [&str; 8] = [
    ".agenthub/settings.json",
    ".agenthub/settings.local.json",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".gemini/settings.json",
    ".mcp.json",
];

/// The workspace folders of subagent definitions (contract §17): their `*.md`
/// files are configuration too, loaded only when the workspace is trusted.
pub const PROJECT_AGENT_FOLDERS: [&str; 2] = [".claude/agents", ".agenthub/agents"];

/// The workspace folders of Agent Skills (contract §20, §29): each
/// `<name>/SKILL.md` in them is configuration too (it tells the model what
/// to do), loaded only when the workspace is trusted. In the order a later
/// one wins a name clash: the cross-vendor `.agents/skills` (Codex, Gemini
/// CLI, goose), then Claude Code's, then AgentHub's own.
pub const PROJECT_SKILL_FOLDERS: [&str; 3] =
    [".agents/skills", ".claude/skills", ".agenthub/skills"];

/// The workspace folders of custom slash commands (contract §20): their
/// `*.md` files, subfolders included, become prompts, so they are
/// configuration too, loaded only when the workspace is trusted.
pub const PROJECT_COMMAND_FOLDERS: [&str; 2] = [".claude/commands", ".agenthub/commands"];

/// The memory file names read in the workspace and each parent up to the
/// repository root (contract §26): read once the folder is trusted, whatever
/// they say, never pinned (contract §29).
pub const MEMORY_FILE_NAMES: [&str; 2] = ["AGENTS.md", "CLAUDE.md"];

/// The file that makes a folder a skill.
pub const SKILL_FILE: &str = "SKILL.md";

/// Whether the workspace's own configuration may grant, execute or redirect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProjectTrust {
    /// It may: the user trusted exactly these files (or trusts them for this run).
    Trusted,
    /// Only its restrictions (deny and ask rules) apply.
    Untrusted,
}

/// What the store says of a workspace's configuration files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustCheck {
    /// The user trusted exactly these files.
    Trusted,
    /// The user trusted this workspace, but a file changed, appeared or went away since.
    Changed,
    /// The user never trusted this workspace.
    NeverTrusted,
}

/// The workspace's configuration files as they are now: path → SHA-256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectFingerprint {
    /// The workspace root, canonical.
    pub workspace: PathBuf,
    /// Each existing configuration file (relative to the root) and the hex
    /// SHA-256 of its bytes.
    pub files: BTreeMap<String, String>,
}

impl ProjectFingerprint {
    /// Hashes the configuration files present in `workspace` (canonical).
    pub fn of(workspace: &Path) -> Result<ProjectFingerprint, TrustError> {
        let rule = LinkRule::Inside(project_tree(workspace));
        let mut names: Vec<String> = PROJECT_CONFIG_FILES.map(str::to_owned).to_vec();
        for (folders, shape) in PINNED_FOLDERS {
            names.extend(project_walk(workspace, &rule, folders, shape).0);
        }
        let mut fingerprint = ProjectFingerprint {
            workspace: workspace.to_path_buf(),
            files: BTreeMap::new(),
        };
        for name in names {
            fingerprint.pin(&name)?;
        }
        Ok(fingerprint)
    }

    /// Pins one more file, `name` relative to the workspace, when it exists:
    /// a script a project hook or MCP server runs (contract §26). A missing file is not
    /// pinned; its appearing later changes the fingerprint only if the caller
    /// names it again.
    pub fn pin(&mut self, name: &str) -> Result<(), TrustError> {
        let path = self.workspace.join(name);
        if !path.exists() {
            return Ok(());
        }
        let bytes = std::fs::read(&path).map_err(|error| TrustError::Unreadable {
            file: path.clone(),
            message: error.to_string(),
        })?;
        self.files.insert(name.to_owned(), hex_sha256(&bytes));
        Ok(())
    }

    /// True when the workspace carries no configuration file: nothing to trust.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    fn to_json(&self) -> Value {
        json!({ "files": self.files })
    }
}

/// The subagent definition files of the workspace (relative, `/`-separated),
/// folder by folder of [`PROJECT_AGENT_FOLDERS`], in name order: what trust
/// pins and what an untrusted workspace sets aside. Only files count: a
/// folder named `x.md` is not a definition; a link out of the repository is
/// not one either ([`project_links_out`]).
pub fn agent_definition_files(workspace: &Path) -> Vec<String> {
    project_walk(
        workspace,
        &tree_rule(workspace),
        &PROJECT_AGENT_FOLDERS,
        Shape::Markdown,
    )
    .0
}

/// The skill files of the workspace (relative, `/`-separated): each
/// `<folder>/<name>/SKILL.md` of [`PROJECT_SKILL_FOLDERS`], folder by folder,
/// in name order. Only `SKILL.md` is pinned: the other files of a skill are
/// read by the model through Read, which the policy governs like any read.
pub fn skill_files(workspace: &Path) -> Vec<String> {
    project_walk(
        workspace,
        &tree_rule(workspace),
        &PROJECT_SKILL_FOLDERS,
        Shape::Skills,
    )
    .0
}

/// The custom command files of the workspace (relative, `/`-separated):
/// every `*.md` file under each of [`PROJECT_COMMAND_FOLDERS`], subfolders
/// included (symbolic links to folders are not followed), in path order.
pub fn command_files(workspace: &Path) -> Vec<String> {
    project_walk(
        workspace,
        &tree_rule(workspace),
        &PROJECT_COMMAND_FOLDERS,
        Shape::Markdown,
    )
    .0
}

/// The workspace's subagent definitions, skills and commands that are links
/// out of its repository (contract §28): never read, listed by the review.
pub fn project_links_out(workspace: &Path) -> Vec<LinkOut> {
    let rule = tree_rule(workspace);
    PINNED_FOLDERS
        .into_iter()
        .flat_map(|(folders, shape)| project_walk(workspace, &rule, folders, shape).1)
        .collect()
}

/// The folders of subagent definitions, skills and commands, with the
/// shape of what each holds.
const PINNED_FOLDERS: [(&[&str], Shape); 3] = [
    (&PROJECT_AGENT_FOLDERS, Shape::Markdown),
    (&PROJECT_SKILL_FOLDERS, Shape::Skills),
    (&PROJECT_COMMAND_FOLDERS, Shape::Markdown),
];

/// Links must stay inside the workspace's project tree (its repository).
fn tree_rule(workspace: &Path) -> LinkRule {
    LinkRule::Inside(project_tree(workspace))
}

/// The files of `folders` in `workspace` that `rule` lets through
/// (relative, `/`-separated), and the links out of it.
fn project_walk(
    workspace: &Path,
    rule: &LinkRule,
    folders: &[&str],
    shape: Shape,
) -> (Vec<String>, Vec<LinkOut>) {
    let mut names = Vec::new();
    let mut links_out = Vec::new();
    for folder in folders {
        let found = walk(&workspace.join(folder), shape, rule);
        names.extend(
            found
                .files
                .iter()
                .filter_map(|file| file.strip_prefix(workspace).ok())
                .map(|relative| relative.to_string_lossy().replace('\\', "/")),
        );
        links_out.extend(found.links_out);
    }
    (names, links_out)
}

fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Why the trust store could not be read or written.
#[derive(Debug, Error)]
pub enum TrustError {
    /// A file could not be read.
    #[error("cannot read {}: {message}", file.display())]
    Unreadable {
        /// The file.
        file: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The store is not what AgentHub writes; it is left as it is.
    #[error("trust store {} is damaged ({message}); fix or remove it", file.display())]
    Damaged {
        /// The store.
        file: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// The store could not be written.
    #[error("cannot write trust store {}: {message}", file.display())]
    Unwritable {
        /// The store.
        file: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// Neither `XDG_STATE_HOME` nor `HOME` is set.
    #[error("no place for the trust store: set XDG_STATE_HOME or HOME")]
    NoLocation,
}

/// The file where trusted workspaces are remembered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustStore {
    path: PathBuf,
}

impl TrustStore {
    /// The store at `path`.
    pub fn at(path: impl Into<PathBuf>) -> TrustStore {
        TrustStore { path: path.into() }
    }

    /// `$XDG_STATE_HOME/agenthub/trust.json`, else `~/.local/state/agenthub/trust.json`.
    pub fn standard() -> Result<TrustStore, TrustError> {
        let state = std::env::var_os("XDG_STATE_HOME")
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/state"))
            })
            .ok_or(TrustError::NoLocation)?;
        Ok(TrustStore::at(state.join("agenthub/trust.json")))
    }

    /// Where the store lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether `fingerprint` is exactly what the user trusted for its workspace.
    pub fn is_trusted(&self, fingerprint: &ProjectFingerprint) -> Result<bool, TrustError> {
        Ok(self.check(fingerprint)? == TrustCheck::Trusted)
    }

    /// What the store says of `fingerprint`'s workspace.
    pub fn check(&self, fingerprint: &ProjectFingerprint) -> Result<TrustCheck, TrustError> {
        let workspaces = self.read()?;
        Ok(match workspaces.get(&key(&fingerprint.workspace)) {
            None => TrustCheck::NeverTrusted,
            Some(trusted) if without_memory(trusted) == fingerprint.to_json() => {
                TrustCheck::Trusted
            }
            Some(_) => TrustCheck::Changed,
        })
    }

    /// Remembers `fingerprint` as trusted (replacing what was trusted before).
    pub fn trust(&self, fingerprint: &ProjectFingerprint) -> Result<(), TrustError> {
        let mut workspaces = self.read()?;
        workspaces.insert(key(&fingerprint.workspace), fingerprint.to_json());
        self.write(workspaces)
    }

    /// Forgets `workspace`; true when it had been trusted.
    pub fn revoke(&self, workspace: &Path) -> Result<bool, TrustError> {
        let mut workspaces = self.read()?;
        let removed = workspaces.remove(&key(workspace)).is_some();
        if removed {
            self.write(workspaces)?;
        }
        Ok(removed)
    }

    /// Every trusted workspace; a missing store is an empty one.
    fn read(&self) -> Result<Map<String, Value>, TrustError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Map::new()),
            Err(error) => {
                return Err(TrustError::Unreadable {
                    file: self.path.clone(),
                    message: error.to_string(),
                })
            }
        };
        let damaged = |message: String| TrustError::Damaged {
            file: self.path.clone(),
            message,
        };
        let value: Value =
            serde_json::from_str(&text).map_err(|error| damaged(error.to_string()))?;
        match value.get("workspaces") {
            Some(Value::Object(workspaces)) if value["version"] == 1 => Ok(workspaces.clone()),
            _ => Err(damaged(
                "expected {\"version\": 1, \"workspaces\": {…}}".to_owned(),
            )),
        }
    }

    /// Writes the store atomically: a temporary file in the same folder, then a rename.
    fn write(&self, workspaces: Map<String, Value>) -> Result<(), TrustError> {
        let unwritable = |error: std::io::Error| TrustError::Unwritable {
            file: self.path.clone(),
            message: error.to_string(),
        };
        let folder = self.path.parent().unwrap_or(Path::new("."));
        let text = serde_json::to_string_pretty(&json!({"version": 1, "workspaces": workspaces}))
            .map_err(|error| unwritable(std::io::Error::other(error)))?;
        let temporary = folder.join(format!(".trust.json.{}", std::process::id()));
        let written = crate::state_files::create_private_file(&temporary)
            .and_then(|mut file| {
                file.write_all(text.as_bytes())?;
                file.sync_all()
            })
            .and_then(|()| std::fs::rename(&temporary, &self.path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written.map_err(unwritable)
    }
}

/// A stored record without the memory files an earlier version pinned
/// (`CLAUDE.md`, `../AGENTS.md`): they follow the folder now (contract §29).
fn without_memory(record: &Value) -> Value {
    let mut record = record.clone();
    if let Some(Value::Object(files)) = record.get_mut("files") {
        files.retain(|name, _| !is_memory_file_name(name));
    }
    record
}

/// Whether `name` (relative to the workspace) is a memory file of the
/// workspace or a parent: `CLAUDE.md`, `../../AGENTS.md`.
pub fn is_memory_file_name(name: &str) -> bool {
    let mut rest = name;
    while let Some(up) = rest.strip_prefix("../") {
        rest = up;
    }
    MEMORY_FILE_NAMES.contains(&rest)
}

fn key(workspace: &Path) -> String {
    workspace.display().to_string()
}

#[cfg(test)]
#[path = "trust_tests.rs"]
mod tests;
