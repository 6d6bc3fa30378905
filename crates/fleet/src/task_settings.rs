//! What a fleet task may change on a worker (contract §28): a task reaches
//! a worker over the network, so its `settings` are the submitter's word,
//! not the operator's, and by default they may only restrict. The worker
//! compares them with its own — the effective configuration the task's
//! session would have without them ([`WorkerSettings`]) — key by key,
//! through one table of keys known to restrict ([`TABLE`]):
//!
//! | JSON path | accepted when |
//! |---|---|
//! | `$schema` | always (read by editors, by nothing else) |
//! | `permissions.deny` | an array of rule strings (a deny rule wins over every allow) |
//! | `permissions.ask` | an array of rule strings (an ask never lifts a deny) |
//! | `permissions.defaultMode` | a mode at least as strict as the worker's: `plan` and `dontAsk` above `default`, above `acceptEdits`, above `bypassPermissions` |
//! | `permissions.disableBypassPermissionsMode` | `"disable"` |
//! | `sandbox.mode` | a mode at least as strict as the worker's: `read-only` above `workspace-write`, above `off` |
//! | `sandbox.network` | `false`; domain lists over a worker whose network is `true`, or adding only `deniedDomains` to its own lists (never over a closed network) |
//! | `maxTurns` | at most the worker's (its default when unset, [`agenthub::DEFAULT_MAX_TURNS`]) |
//! | `maxStopContinuations` | at most the worker's (1 when unset) |
//!
//! Any other key — `sandbox.network: true`, `sandbox.passEnv`, allow
//! rules, `additionalDirectories`, `enabledPlugins`, hooks, `env`,
//! `baseUrl`, MCP servers, a less strict mode, anything unknown — is refused
//! naming its JSON path, unless the worker runs with `--allow-task-settings`.
//! A task's `workspace.path` must lie inside the worker's
//! `--workspace-root` ([`crate::WorkspaceRoot`]) whatever that flag says.
//!
//! A `git` workspace is cloned into a temporary folder the worker chooses,
//! so it has no path to check.
//!
//! Every task passes here in `run_task_with`, on a worker and in the local
//! batch (which runs the user's own file, so allows settings and has no
//! root): the workspace before it is prepared, the settings once it is (the
//! worker's own depend on the workspace's layers, e.g. a trusted project's
//! mode). This module never changes a task: it only says what it would widen.

use crate::task::{TaskSpec, TaskWorkspace};
use crate::workspace_root::{resolve, WorkspaceRoot};
use agenthub::crates::sandbox::NetworkAccess;
use agenthub::crates::settings::{SandboxSettings, Settings};
use agenthub::{PermissionMode, SandboxMode, SandboxPolicy};
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// How a key of the table restricts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restricts {
    /// Any value: the key changes nothing the session does.
    Inert,
    /// An array of rule strings.
    Rules,
    /// A permission mode no less strict than the worker's.
    PermissionMode,
    /// `"disable"`.
    DisablesBypass,
    /// A sandbox mode no less strict than the worker's.
    SandboxMode,
    /// `false`; or domain lists over a worker whose network is on, or over
    /// its own lists adding only denied entries (never over a closed
    /// network: lists would open it). The same rule as an untrusted
    /// file's (`SandboxSettings::network_narrows`).
    Network,
    /// A whole number no higher than the worker's `maxTurns`.
    MaxTurns,
    /// A whole number no higher than the worker's `maxStopContinuations`.
    MaxStopContinuations,
}

/// The keys known to restrict, by JSON path; every other key widens.
pub const TABLE: &[(&str, Restricts)] = &[
    ("$schema", Restricts::Inert),
    ("permissions.deny", Restricts::Rules),
    ("permissions.ask", Restricts::Rules),
    ("permissions.defaultMode", Restricts::PermissionMode),
    (
        "permissions.disableBypassPermissionsMode",
        Restricts::DisablesBypass,
    ),
    ("sandbox.mode", Restricts::SandboxMode),
    ("sandbox.network", Restricts::Network),
    ("maxTurns", Restricts::MaxTurns),
    ("maxStopContinuations", Restricts::MaxStopContinuations),
];

/// The objects whose keys the table names one by one.
const NESTED: [&str; 2] = ["permissions", "sandbox"];

/// What a task's settings are compared with: the worker's effective
/// configuration for the task's workspace, without the task's layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerSettings {
    /// The permission mode in force.
    pub mode: PermissionMode,
    /// Bash's sandbox mode.
    pub sandbox: SandboxMode,
    /// What Bash's sandbox lets commands reach (`sandbox.network`).
    pub network: NetworkAccess,
    /// `maxTurns`, its default when unset.
    pub max_turns: u32,
    /// `maxStopContinuations`, its default when unset.
    pub max_stop_continuations: u32,
}

impl WorkerSettings {
    /// The worker's own from its merged `settings`, its policy's `mode` and
    /// Bash's `sandbox`.
    pub fn of(settings: &Settings, mode: PermissionMode, sandbox: &SandboxPolicy) -> Self {
        WorkerSettings {
            mode,
            sandbox: sandbox.mode,
            network: match (sandbox.network, sandbox.proxied()) {
                (true, _) => NetworkAccess::On,
                (false, Some(proxy)) => NetworkAccess::Domains(proxy.lists().clone()),
                (false, None) => NetworkAccess::Off,
            },
            max_turns: settings.max_turns.unwrap_or(agenthub::DEFAULT_MAX_TURNS),
            max_stop_continuations: settings.max_stop_continuations.unwrap_or(1),
        }
    }
}

/// One key of a task's settings that would widen the worker's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Widening {
    /// Its JSON path (`sandbox.passEnv`).
    pub path: String,
    /// Why it is refused.
    pub why: Why,
}

/// Why a key widens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// The table does not name it.
    NotARestriction,
    /// The table names it, but this value does not restrict.
    Value {
        /// The value given, as JSON.
        given: String,
        /// What would restrict, in words.
        restriction: String,
    },
}

impl fmt::Display for Widening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.why {
            Why::NotARestriction => f.write_str(&self.path),
            Why::Value { given, restriction } => write!(
                f,
                "{}: {given}, where only {restriction} restricts",
                self.path
            ),
        }
    }
}

/// Why a task is refused before its session starts (`settings_error`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TaskRefusal {
    /// Its `workspace.path` is not inside the worker's root.
    #[error(
        "workspace.path {} is outside the worker's workspace root {}; a worker runs tasks only \
         in folders inside its --workspace-root",
        path.display(), root.display()
    )]
    OutsideRoot {
        /// The path as the task gives it.
        path: PathBuf,
        /// The worker's root.
        root: PathBuf,
    },
    /// Its `workspace.git` names a repository on the worker's own disk
    /// outside the worker's root.
    #[error(
        "workspace.git {git} is a repository on this machine outside the worker's workspace root \
         {}; a worker clones local repositories only from inside its --workspace-root",
        root.display()
    )]
    LocalGitOutsideRoot {
        /// The source as the task gives it.
        git: String,
        /// The worker's root.
        root: PathBuf,
    },
    /// Its settings would widen the worker's own.
    #[error(
        "the task's settings may only restrict on this worker, but they set {}; the worker's \
         operator can allow this with `agenthub worker --allow-task-settings`",
        list(.0)
    )]
    Widens(Vec<Widening>),
}

fn list(widenings: &[Widening]) -> String {
    let names: Vec<String> = widenings.iter().map(ToString::to_string).collect();
    names.join(", ")
}

/// `Err` when `task`'s `path` workspace is not inside `root`, or its `git`
/// source is a repository on this machine (a path, `file://`) outside it; a
/// remote repository is cloned where the worker chooses and passes.
pub fn check_workspace(task: &TaskSpec, root: &WorkspaceRoot) -> Result<(), TaskRefusal> {
    checked_workspace(task, root).map(|_| ())
}

/// The task's workspace as its session is to use it, after
/// [`check_workspace`]: on a worker, a `path` workspace is the resolved path
/// the check compared, so a link swapped in after the check is not followed.
pub fn checked_workspace(
    task: &TaskSpec,
    root: &WorkspaceRoot,
) -> Result<TaskWorkspace, TaskRefusal> {
    let WorkspaceRoot::Inside(root) = root else {
        return Ok(task.workspace.clone());
    };
    let inside = |path: &Path| resolve(path).is_some_and(|resolved| resolved.starts_with(root));
    match &task.workspace {
        TaskWorkspace::Path { path } => match resolve(path) {
            Some(resolved) if resolved.starts_with(root) => {
                Ok(TaskWorkspace::Path { path: resolved })
            }
            _ => Err(TaskRefusal::OutsideRoot {
                path: path.clone(),
                root: root.clone(),
            }),
        },
        TaskWorkspace::Git { git, .. }
            if local_git_source(git).is_some_and(|path| !inside(&path)) =>
        {
            Err(TaskRefusal::LocalGitOutsideRoot {
                git: git.clone(),
                root: root.clone(),
            })
        }
        other => Ok(other.clone()),
    }
}

/// The folder a git source names on this machine: `file://PATH`, or a
/// path (git's own rule: no `://`, and no `host:` before the first `/`).
/// `None` for a remote URL (`https://`, `ssh://`, `user@host:repo`).
fn local_git_source(git: &str) -> Option<PathBuf> {
    if let Some(path) = git.strip_prefix("file://") {
        return Some(PathBuf::from(path));
    }
    if git.contains("://") {
        return None;
    }
    let before_slash = git.split('/').next().unwrap_or(git);
    match before_slash.contains(':') {
        true => None,
        false => Some(PathBuf::from(git)),
    }
}

/// `Err` naming every key of the task's `settings` that the table does not
/// accept against `worker`, in the (sorted) order of the keys.
pub fn check_settings(settings: &Value, worker: &WorkerSettings) -> Result<(), TaskRefusal> {
    let widenings = widenings(settings, worker);
    if widenings.is_empty() {
        return Ok(());
    }
    Err(TaskRefusal::Widens(widenings))
}

/// Every key of `settings` that would widen `worker`'s own.
pub fn widenings(settings: &Value, worker: &WorkerSettings) -> Vec<Widening> {
    let Some(object) = settings.as_object() else {
        return vec![not_a_restriction("settings")];
    };
    let mut found = Vec::new();
    for (key, value) in object {
        match (NESTED.contains(&key.as_str()), value.as_object()) {
            (true, Some(nested)) => {
                for (inner, value) in nested {
                    found.extend(widening(&format!("{key}.{inner}"), value, worker));
                }
            }
            _ => found.extend(widening(key, value, worker)),
        }
    }
    found
}

fn not_a_restriction(path: &str) -> Widening {
    Widening {
        path: path.to_owned(),
        why: Why::NotARestriction,
    }
}

/// The key at `path` with `value`, looked up in the table.
fn widening(path: &str, value: &Value, worker: &WorkerSettings) -> Option<Widening> {
    let Some((_, restricts)) = TABLE.iter().find(|(known, _)| *known == path) else {
        return Some(not_a_restriction(path));
    };
    let restriction = restriction(*restricts, value, worker)?;
    Some(Widening {
        path: path.to_owned(),
        why: Why::Value {
            given: value.to_string(),
            restriction,
        },
    })
}

/// `None` when `value` restricts as `restricts` says, against `worker`;
/// else what would restrict, in words.
fn restriction(restricts: Restricts, value: &Value, worker: &WorkerSettings) -> Option<String> {
    match restricts {
        Restricts::Inert => None,
        Restricts::Rules => {
            let rules = value.as_array();
            let strings = rules.is_some_and(|rules| rules.iter().all(Value::is_string));
            (!strings).then(|| "an array of rule strings".to_owned())
        }
        Restricts::PermissionMode => {
            let given = value.as_str().and_then(|text| text.parse().ok());
            let stricter = given.is_some_and(|mode| strictness(mode) >= strictness(worker.mode));
            (!stricter).then(|| {
                format!(
                    "a mode at least as strict as the worker's \"{}\"",
                    worker.mode
                )
            })
        }
        Restricts::DisablesBypass => {
            (value.as_str() != Some("disable")).then(|| "\"disable\"".to_owned())
        }
        Restricts::SandboxMode => {
            let given = value
                .as_str()
                .and_then(|text| text.parse::<SandboxMode>().ok());
            let stricter = given.is_some_and(|mode| mode.looseness() <= worker.sandbox.looseness());
            (!stricter).then(|| {
                format!(
                    "a mode at least as strict as the worker's \"{}\"",
                    worker.sandbox
                )
            })
        }
        Restricts::Network => network_restriction(value, &worker.network),
        Restricts::MaxTurns => at_most(value, worker.max_turns),
        Restricts::MaxStopContinuations => at_most(value, worker.max_stop_continuations),
    }
}

/// `None` when the task's `sandbox.network` only narrows the worker's.
fn network_restriction(value: &Value, worker: &NetworkAccess) -> Option<String> {
    let narrows = SandboxSettings::read_network(value)
        .is_ok_and(|task| SandboxSettings::network_narrows(worker, task).is_ok());
    (!narrows).then(|| {
        match worker {
            NetworkAccess::Off => "false",
            NetworkAccess::On => "false, or domain lists with only deniedDomains",
            NetworkAccess::Domains(_) => {
                "false, or domain lists adding only deniedDomains to the worker's"
            }
        }
        .to_owned()
    })
}

/// `None` when `value` is a whole number at most the worker's `limit`.
fn at_most(value: &Value, limit: u32) -> Option<String> {
    let lower = value
        .as_u64()
        .is_some_and(|count| count <= u64::from(limit));
    (!lower).then(|| format!("a number up to the worker's {limit}"))
}

/// How strict a permission mode is: `plan` and `dontAsk` above `default`,
/// above `acceptEdits`, above `bypassPermissions` (contract §28); `plan`
/// above `dontAsk`, since plan runs no call with side effects while
/// dontAsk runs what the worker's allow rules allow.
pub fn strictness(mode: PermissionMode) -> u8 {
    match mode {
        PermissionMode::Plan => 4,
        PermissionMode::DontAsk => 3,
        PermissionMode::Default => 2,
        PermissionMode::AcceptEdits => 1,
        PermissionMode::BypassPermissions => 0,
    }
}

#[cfg(test)]
#[path = "task_settings_tests.rs"]
mod tests;
