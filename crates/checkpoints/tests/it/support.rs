//! A temporary workspace with a session in it: prompts run by an agent with
//! the scripted model, the built-in tools, every call allowed
//! (`bypassPermissions`), its transcript in a file and a `Checkpointer`
//! before each writing round — as `agenthub run` wires it.

use agenthub_checkpoints::{rewind, Checkpointer, RewindDone};
use agenthub_core::{Agent, Session, TranscriptWriter};
use agenthub_model::ScriptedModel;
use agenthub_policy::config::PolicyConfig;
use agenthub_policy::{PermissionMode, PolicyEngine};
use agenthub_protocol::{RewindScope, RunStatus};
use agenthub_tools::{ToolRegistry, Workspace};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use tokio_util::sync::CancellationToken;

/// `$XDG_STATE_HOME` for the whole test binary: set once, before the first
/// store is opened, and never changed after.
fn state_home() {
    static STATE: OnceLock<tempfile::TempDir> = OnceLock::new();
    STATE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        std::env::set_var("XDG_STATE_HOME", dir.path());
        dir
    });
}

/// A workspace and the transcript of its session.
pub struct Place {
    _dir: tempfile::TempDir,
    pub ws: PathBuf,
    pub transcript: PathBuf,
}

impl Place {
    pub fn new() -> Place {
        state_home();
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        std::fs::create_dir(&ws).unwrap();
        let ws = ws.canonicalize().unwrap();
        let transcript = dir.path().join("session.jsonl");
        Place {
            _dir: dir,
            ws,
            transcript,
        }
    }

    /// Writes `bytes` to `rel` in the workspace with `mode`.
    pub fn file(&self, rel: &str, bytes: &[u8], mode: u32) {
        let path = self.ws.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    /// One session sending `prompts` in turn, each making its calls and
    /// then answering `done`.
    pub async fn session(&self, prompts: &[(&str, Vec<Value>)]) {
        let turns: Vec<Value> = prompts
            .iter()
            .flat_map(|(_, calls)| [json!({"tool_calls": calls}), json!({"content": "done"})])
            .collect();
        let script = json!({ "turns": turns }).to_string();
        let model = ScriptedModel::from_json("script", &script).unwrap();
        let policy = PolicyEngine::new(
            PolicyConfig {
                mode: PermissionMode::BypassPermissions,
                ..PolicyConfig::default()
            },
            None,
        );
        let agent = Agent::builder(Arc::new(model), ToolRegistry::with_builtins().unwrap())
            .workspace(Workspace::new(self.ws.clone()))
            .policy(Arc::new(policy))
            .transcript_path(self.transcript.clone())
            .observer(Arc::new(
                TranscriptWriter::create(&self.transcript).unwrap(),
            ))
            .before_writes(Arc::new(Checkpointer::new()))
            .build();
        let mut session = Session::new(&agent);
        for (prompt, _) in prompts {
            let report = session.send(prompt, CancellationToken::new()).await;
            assert_eq!(report.status, RunStatus::Completed, "{prompt}");
        }
    }

    /// Rewinds the session to `to`, recording into its transcript.
    pub fn rewind(&self, to: u32, scope: RewindScope) -> RewindDone {
        let recorder = TranscriptWriter::append(&self.transcript).unwrap();
        rewind(&self.transcript, &self.ws, to, scope, &recorder).unwrap()
    }
}

pub fn bash(id: &str, command: &str) -> Value {
    json!({"id": id, "name": "Bash", "arguments": {"command": command}})
}

/// Every file and symbolic link under `root` (folders named `.git` left
/// out): its bytes (a link's target) and its mode.
pub fn files(root: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    let mut found = BTreeMap::new();
    walk(root, root, &mut found, &|name| name == ".git");
    found
}

/// Everything under `root`, folders included (for a `.git` compared whole).
pub fn everything(root: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    let mut found = BTreeMap::new();
    walk(root, root, &mut found, &|_| false);
    found
}

fn walk(
    root: &Path,
    dir: &Path,
    found: &mut BTreeMap<String, (Vec<u8>, u32)>,
    skip: &dyn Fn(&str) -> bool,
) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if skip(&name) {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let rel = path.strip_prefix(root).unwrap().display().to_string();
        let mode = meta.permissions().mode();
        if meta.is_dir() {
            found.insert(format!("{rel}/"), (Vec::new(), mode));
            walk(root, &path, found, skip);
        } else if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            found.insert(rel, (target.display().to_string().into_bytes(), mode));
        } else {
            found.insert(rel, (std::fs::read(&path).unwrap(), mode));
        }
    }
}

/// The files only (folders are not checkpointed: git keeps no empty one).
pub fn plain_files(root: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    files(root)
        .into_iter()
        .filter(|(path, _)| !path.ends_with('/'))
        .collect()
}
