//! One task's run through the library, as `agenthub run` would run it: the
//! result line is `run`'s JSON object plus `id`; a task that cannot start
//! still has its line, saying why.

use crate::support::isolated_home;
use agenthub::CancellationToken;
use agenthub_fleet::{run_task, TaskRunOptions, TaskSpec, TaskWorkspace, WorkspaceRoot};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn task(id: &str, workspace: &Path, script: Option<PathBuf>, settings: Option<Value>) -> TaskSpec {
    TaskSpec {
        id: id.to_owned(),
        prompt: "do it".to_owned(),
        workspace: TaskWorkspace::Path {
            path: workspace.to_path_buf(),
        },
        settings,
        script,
        model: None,
    }
}

/// The local batch's options: the task's settings are the user's own file.
fn local() -> TaskRunOptions {
    TaskRunOptions {
        allow_task_settings: true,
        ..TaskRunOptions::default()
    }
}

fn write_script(dir: &Path, turns: Value) -> PathBuf {
    let path = dir.join("script.json");
    std::fs::write(&path, json!({ "turns": turns }).to_string()).unwrap();
    path
}

#[tokio::test]
async fn a_scripted_task_runs_its_bash_call_with_its_settings_and_reports_as_run_does() {
    let home = isolated_home();
    let workspace = tempfile::tempdir().unwrap();
    let script = write_script(
        workspace.path(),
        json!([
            {"content": "writing", "tool_calls": [{"id": "call_1", "name": "Bash",
                "arguments": {"command": "echo hi > out.txt"}}]},
            {"content": "wrote {{last_tool_result}}"}
        ]),
    );
    let settings = json!({"permissions": {"defaultMode": "bypassPermissions"}});
    let spec = task("t1", workspace.path(), Some(script), Some(settings));
    let outcome = run_task(&spec, &local(), CancellationToken::new()).await;
    let line = outcome.line();
    let transcript = PathBuf::from(line["transcript_path"].as_str().unwrap());
    assert_eq!(
        (
            line["id"].clone(),
            line["status"].clone(),
            line["is_error"].clone(),
            line["num_turns"].clone(),
            std::fs::read_to_string(workspace.path().join("out.txt")).ok(),
            transcript.starts_with(home.join("state/agenthub/transcripts")),
            transcript.exists(),
        ),
        (
            json!("t1"),
            json!("completed"),
            json!(false),
            json!(2),
            Some("hi\n".to_owned()),
            true,
            true
        )
    );
}

#[tokio::test]
async fn an_ask_is_denied_and_worded_for_the_tasks_settings() {
    isolated_home();
    let workspace = tempfile::tempdir().unwrap();
    let script = write_script(
        workspace.path(),
        json!([
            {"content": "", "tool_calls": [{"id": "call_1", "name": "Bash",
                "arguments": {"command": "npm test"}}]},
            {"content": "gave up"}
        ]),
    );
    let spec = task("ask", workspace.path(), Some(script), None);
    let outcome = run_task(&spec, &local(), CancellationToken::new()).await;
    assert_eq!(
        outcome.line()["permission_denials"],
        json!([{
            "tool_name": "Bash", "tool_use_id": "call_1", "tool_input": {"command": "npm test"},
            "reason": "Bash needs approval and no one can answer in a batch: add {\"permissions\": {\"allow\": [\"Bash(npm test:*)\"]}} to the task's settings"
        }])
    );
}

#[tokio::test]
async fn a_missing_script_is_a_script_error_line() {
    isolated_home();
    let workspace = tempfile::tempdir().unwrap();
    let missing = workspace.path().join("none.json");
    let spec = task("bad", workspace.path(), Some(missing), None);
    let outcome = run_task(&spec, &local(), CancellationToken::new()).await;
    let line = outcome.line();
    assert_eq!(
        (
            line["status"].clone(),
            line["subtype"].clone(),
            line["is_error"].clone(),
            line["error"]
                .as_str()
                .is_some_and(|error| error.contains("none.json")),
        ),
        (json!("failed"), json!("script_error"), json!(true), true)
    );
}

#[tokio::test]
async fn malformed_task_settings_are_a_settings_error_line() {
    isolated_home();
    let workspace = tempfile::tempdir().unwrap();
    let script = write_script(workspace.path(), json!([{"content": "done"}]));
    let settings = json!({"permissions": {"allow": "Bash"}});
    let spec = task("s", workspace.path(), Some(script), Some(settings));
    let outcome = run_task(&spec, &local(), CancellationToken::new()).await;
    assert_eq!(
        (outcome.line()["subtype"].clone(), outcome.line()["error"].clone()),
        (
            json!("settings_error"),
            json!("invalid permissions setting in the settings of task \"s\" at permissions.allow: must be an array of rule strings")
        )
    );
}

/// A worker's options: its root `root`, task settings only restricting.
fn worker(root: &Path) -> TaskRunOptions {
    TaskRunOptions {
        workspace_root: WorkspaceRoot::open(Some(root)).unwrap(),
        ..TaskRunOptions::default()
    }
}

/// The refusal of a worker's task whose settings set `keys`.
fn widens(keys: &str) -> Value {
    json!(format!(
        "the task's settings may only restrict on this worker, but they set {keys}; the \
         worker's operator can allow this with `agenthub worker --allow-task-settings`"
    ))
}

#[tokio::test]
async fn a_workers_task_whose_settings_widen_is_refused_before_anything_runs() {
    isolated_home();
    let workspace = tempfile::tempdir().unwrap();
    let script = write_script(workspace.path(), json!([{"content": "done"}]));
    let marker = workspace.path().join("hook-ran");
    let settings = json!({
        "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": format!("touch {}", marker.display())}]}]},
        "permissions": {"defaultMode": "bypassPermissions"},
        "sandbox": {"mode": "off"},
        "baseUrl": "http://127.0.0.1:9/v1"
    });
    let spec = task("grant", workspace.path(), Some(script), Some(settings));
    let outcome = run_task(&spec, &worker(workspace.path()), CancellationToken::new()).await;
    assert_eq!(
        (
            outcome.line()["subtype"].clone(),
            outcome.line()["error"].clone(),
            marker.exists()
        ),
        (
            json!("settings_error"),
            widens(
                "baseUrl, hooks, permissions.defaultMode: \"bypassPermissions\", where only a mode \
                 at least as strict as the worker's \"default\" restricts, sandbox.mode: \"off\", \
                 where only a mode at least as strict as the worker's \"workspace-write\" restricts"
            ),
            false
        )
    );
}

#[tokio::test]
async fn the_audits_task_with_network_and_pass_env_is_refused_by_a_default_worker() {
    isolated_home();
    let workspace = tempfile::tempdir().unwrap();
    let script = write_script(
        workspace.path(),
        json!([
            {"content": "", "tool_calls": [{"id": "call_1", "name": "Bash",
                "arguments": {"command": "echo \"$OPENAI_API_KEY\" > leaked.txt"}}]},
            {"content": "done"}
        ]),
    );
    let settings = json!({"sandbox": {"network": true, "passEnv": ["OPENAI_API_KEY"]}});
    let spec = task("leak", workspace.path(), Some(script), Some(settings));
    let outcome = run_task(&spec, &worker(workspace.path()), CancellationToken::new()).await;
    assert_eq!(
        (
            outcome.line()["subtype"].clone(),
            outcome.line()["error"].clone(),
            workspace.path().join("leaked.txt").exists()
        ),
        (
            json!("settings_error"),
            widens("sandbox.network: true, where only false restricts, sandbox.passEnv"),
            false
        )
    );
}

#[tokio::test]
async fn the_audits_task_at_the_root_folder_is_refused_even_with_allow_task_settings() {
    isolated_home();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("workspaces");
    std::fs::create_dir(&root).unwrap();
    let target = dir.path().join("written-as-root.txt");
    let script = write_script(
        dir.path(),
        json!([
            {"content": "", "tool_calls": [{"id": "call_1", "name": "Write",
                "arguments": {"file_path": target, "content": "x"}}]},
            {"content": "done"}
        ]),
    );
    let settings = json!({"permissions": {"defaultMode": "acceptEdits"}});
    let spec = task("slash", Path::new("/"), Some(script), Some(settings));
    let refusal = json!(format!(
        "workspace.path / is outside the worker's workspace root {}; a worker runs tasks only in \
         folders inside its --workspace-root",
        root.canonicalize().unwrap().display()
    ));
    let mut outcomes = Vec::new();
    for allow_task_settings in [false, true] {
        let options = TaskRunOptions {
            allow_task_settings,
            ..worker(&root)
        };
        let outcome = run_task(&spec, &options, CancellationToken::new()).await;
        outcomes.push((
            outcome.line()["subtype"].clone(),
            outcome.line()["error"].clone(),
        ));
    }
    assert_eq!(
        (outcomes, target.exists()),
        (
            vec![
                (json!("settings_error"), refusal.clone()),
                (json!("settings_error"), refusal)
            ],
            false
        )
    );
}

#[tokio::test]
async fn a_folder_beside_the_root_is_refused_even_with_allow_task_settings() {
    isolated_home();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("workspaces");
    let beside = dir.path().join("workspaces-not");
    std::fs::create_dir_all(&beside).unwrap();
    let spec = task("beside", &beside, None, None);
    let options = TaskRunOptions {
        allow_task_settings: true,
        ..worker(&root)
    };
    let outcome = run_task(&spec, &options, CancellationToken::new()).await;
    assert_eq!(
        (
            outcome.line()["subtype"].clone(),
            outcome.line()["error"].clone()
        ),
        (
            json!("settings_error"),
            json!(format!(
                "workspace.path {} is outside the worker's workspace root {}; a worker runs \
                 tasks only in folders inside its --workspace-root",
                beside.display(),
                root.canonicalize().unwrap().display()
            ))
        )
    );
}

#[tokio::test]
async fn a_workers_task_that_only_restricts_runs_in_a_folder_inside_the_root() {
    isolated_home();
    let root = tempfile::tempdir().unwrap();
    let workspace = root.path().join("task-1");
    std::fs::create_dir_all(&workspace).unwrap();
    let script = write_script(&workspace, json!([{"content": "done"}]));
    let settings = json!({
        "permissions": {"deny": ["Bash(rm:*)"], "ask": ["Write"], "defaultMode": "plan"},
        "sandbox": {"mode": "read-only", "network": false},
        "maxTurns": 3
    });
    let spec = task("narrow", &workspace, Some(script), Some(settings));
    let outcome = run_task(&spec, &worker(root.path()), CancellationToken::new()).await;
    assert_eq!(
        (
            outcome.line()["status"].clone(),
            outcome.line()["is_error"].clone()
        ),
        (json!("completed"), json!(false))
    );
}

#[tokio::test]
async fn a_task_s_mode_is_compared_with_the_mode_the_worker_has_in_its_workspace() {
    isolated_home();
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join(".agenthub")).unwrap();
    std::fs::write(
        root.path().join(".agenthub/settings.json"),
        json!({"permissions": {"defaultMode": "plan"}}).to_string(),
    )
    .unwrap();
    let script = write_script(root.path(), json!([{"content": "done"}]));
    let settings = json!({"permissions": {"defaultMode": "default"}});
    let spec = task("looser", root.path(), Some(script), Some(settings));
    let options = TaskRunOptions {
        trust_project: true,
        ..worker(root.path())
    };
    let outcome = run_task(&spec, &options, CancellationToken::new()).await;
    assert_eq!(
        (
            outcome.line()["subtype"].clone(),
            outcome.line()["error"].clone()
        ),
        (
            json!("settings_error"),
            widens(
                "permissions.defaultMode: \"default\", where only a mode at least as strict as \
                 the worker's \"plan\" restricts"
            )
        )
    );
}

#[tokio::test]
async fn a_task_cancelled_before_it_starts_has_a_cancelled_line() {
    isolated_home();
    let workspace = tempfile::tempdir().unwrap();
    let spec = task("c", workspace.path(), None, None);
    let cancel = CancellationToken::new();
    cancel.cancel();
    let outcome = run_task(&spec, &local(), cancel).await;
    assert_eq!(
        (
            outcome.line()["status"].clone(),
            outcome.line()["subtype"].clone()
        ),
        (json!("cancelled"), json!("cancelled"))
    );
}

#[tokio::test]
async fn the_workspaces_own_allow_rules_act_only_with_trust_project() {
    isolated_home();
    let workspace = tempfile::tempdir().unwrap();
    std::fs::create_dir(workspace.path().join(".agenthub")).unwrap();
    std::fs::write(
        workspace.path().join(".agenthub/settings.json"),
        json!({"permissions": {"allow": ["Bash(printf:*)"]}, "sandbox": {"mode": "off"}})
            .to_string(),
    )
    .unwrap();
    let script = write_script(
        workspace.path(),
        json!([
            {"content": "", "tool_calls": [{"id": "call_1", "name": "Bash",
                "arguments": {"command": "printf hi"}}]},
            {"content": "done"}
        ]),
    );
    let spec = task("trust", workspace.path(), Some(script), None);
    let denials = |trust_project: bool| {
        let spec = spec.clone();
        async move {
            let options = TaskRunOptions {
                trust_project,
                allow_task_settings: true,
                ..TaskRunOptions::default()
            };
            let outcome = run_task(&spec, &options, CancellationToken::new()).await;
            outcome.line()["permission_denials"]
                .as_array()
                .map(Vec::len)
        }
    };
    assert_eq!(
        [denials(false).await, denials(true).await],
        [Some(1), Some(0)]
    );
}
