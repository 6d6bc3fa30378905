//! Properties of the fleet's task check (contract §28), against the real
//! settings merge and the real file system rather than a model of them:
//! whatever settings a task carries, if the worker's table accepts them, the
//! session's effective configuration is no wider than the worker's own; a
//! workspace the check lets in lies inside the root once it exists.

use crate::support::isolated_home;
use agenthub::crates::policy::RuleList;
use agenthub::{Assembly, Options, PermissionMode, TrustChoice};
use agenthub_fleet::{
    check_settings, check_workspace, TaskSpec, TaskWorkspace, WorkerSettings, WorkspaceRoot,
};
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

fn pick(values: Vec<Value>) -> BoxedStrategy<Value> {
    proptest::sample::select(values).boxed()
}

fn scalar() -> BoxedStrategy<Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::from),
        (0u64..300).prop_map(Value::from),
        "[a-z]{0,4}".prop_map(Value::from),
    ]
    .boxed()
}

/// An object holding each of `entries` or not.
fn object_of(entries: Vec<(&'static str, BoxedStrategy<Value>)>) -> BoxedStrategy<Value> {
    let parts: Vec<_> = entries
        .into_iter()
        .map(|(key, value)| prop::option::weighted(0.35, value).prop_map(move |v| (key, v)))
        .collect();
    parts
        .prop_map(|parts| {
            let object: Map<String, Value> = parts
                .into_iter()
                .filter_map(|(key, value)| Some((key.to_owned(), value?)))
                .collect();
            Value::Object(object)
        })
        .boxed()
}

fn rules() -> BoxedStrategy<Value> {
    let rule = pick(
        [
            "Bash",
            "Bash(rm:*)",
            "Write",
            "Edit(**)",
            "Read(./x)",
            "WebFetch",
        ]
        .map(Value::from)
        .to_vec(),
    );
    prop::collection::vec(rule, 0..3)
        .prop_map(Value::Array)
        .boxed()
}

fn permission_mode() -> BoxedStrategy<Value> {
    let modes = [
        "default",
        "acceptEdits",
        "plan",
        "dontAsk",
        "bypassPermissions",
    ];
    pick(modes.map(Value::from).to_vec())
}

fn sandbox_mode() -> BoxedStrategy<Value> {
    pick(
        ["read-only", "workspace-write", "off"]
            .map(Value::from)
            .to_vec(),
    )
}

/// A task's settings: the two modes alone, keys the table names (with
/// values that restrict or not), the same with one more key that widens, or
/// any keys, known or unknown, at random.
fn task_settings() -> BoxedStrategy<Value> {
    let with_one =
        (table_keys_only(), one_widening_key()).prop_map(|(mut settings, (parent, key, value))| {
            // A missing `permissions` or `sandbox` becomes an object.
            match parent {
                Some(parent) => settings[parent][key] = value,
                None => settings[key] = value,
            }
            settings
        });
    let modes_only = (permission_mode(), sandbox_mode()).prop_map(|(mode, sandbox)| {
        json!({"permissions": {"defaultMode": mode}, "sandbox": {"mode": sandbox}})
    });
    prop_oneof![
        2 => modes_only,
        3 => table_keys_only(),
        2 => with_one,
        1 => any_keys()
    ]
    .boxed()
}

/// One key that widens a default worker, by path, and its value.
fn one_widening_key() -> impl Strategy<Value = (Option<&'static str>, &'static str, Value)> {
    let hook = json!({"SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}]});
    proptest::sample::select(vec![
        (Some("permissions"), "allow", json!(["Bash"])),
        (Some("permissions"), "additionalDirectories", json!(["/"])),
        (
            Some("permissions"),
            "defaultMode",
            json!("bypassPermissions"),
        ),
        (Some("sandbox"), "network", json!(true)),
        (Some("sandbox"), "passEnv", json!(["OPENAI_API_KEY"])),
        (Some("sandbox"), "mode", json!("off")),
        (None, "hooks", hook),
        (None, "env", json!({"A": "b"})),
        (None, "enabledPlugins", json!({"tool@market": true})),
        (None, "baseUrl", json!("http://127.0.0.1:9/v1")),
        (None, "model", json!("other-model")),
        (None, "disableAllHooks", json!(true)),
        (None, "maxTurns", json!(250)),
    ])
}

fn table_keys_only() -> BoxedStrategy<Value> {
    let permissions = object_of(vec![
        ("deny", rules()),
        ("ask", rules()),
        ("defaultMode", permission_mode()),
        (
            "disableBypassPermissionsMode",
            pick(vec![json!("disable"), json!("no")]),
        ),
    ]);
    let sandbox = object_of(vec![
        ("mode", sandbox_mode()),
        ("network", any::<bool>().prop_map(Value::from).boxed()),
    ]);
    object_of(vec![
        ("permissions", permissions),
        ("sandbox", sandbox),
        ("maxTurns", (1u64..200).prop_map(Value::from).boxed()),
        (
            "maxStopContinuations",
            (0u64..4).prop_map(Value::from).boxed(),
        ),
        ("$schema", Just(json!("s")).boxed()),
    ])
}

fn any_keys() -> BoxedStrategy<Value> {
    let permissions = object_of(vec![
        ("allow", rules()),
        ("deny", rules()),
        ("ask", rules()),
        (
            "defaultMode",
            prop_oneof![permission_mode(), scalar()].boxed(),
        ),
        ("additionalDirectories", Just(json!(["/"])).boxed()),
        (
            "disableBypassPermissionsMode",
            pick(vec![json!("disable"), json!("no")]),
        ),
        ("defaultAgent", scalar()),
    ]);
    let sandbox = object_of(vec![
        ("mode", prop_oneof![sandbox_mode(), scalar()].boxed()),
        ("network", any::<bool>().prop_map(Value::from).boxed()),
        ("passEnv", Just(json!(["OPENAI_API_KEY"])).boxed()),
        ("excludedCommands", scalar()),
    ]);
    let hook = json!({"SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}]});
    object_of(vec![
        (
            "permissions",
            prop_oneof![4 => permissions, 1 => scalar()].boxed(),
        ),
        ("sandbox", prop_oneof![4 => sandbox, 1 => scalar()].boxed()),
        (
            "maxTurns",
            prop_oneof![(1u64..200).prop_map(Value::from), scalar()].boxed(),
        ),
        (
            "maxStopContinuations",
            (0u64..4).prop_map(Value::from).boxed(),
        ),
        ("hooks", Just(hook).boxed()),
        ("env", Just(json!({"A": "b"})).boxed()),
        ("enabledPlugins", Just(json!({"tool@market": true})).boxed()),
        ("baseUrl", Just(json!("http://127.0.0.1:9/v1")).boxed()),
        ("model", Just(json!("other-model")).boxed()),
        (
            "disableAllHooks",
            any::<bool>().prop_map(Value::from).boxed(),
        ),
        ("$schema", Just(json!("s")).boxed()),
        ("zzUnknown", scalar()),
    ])
}

/// The worker's own settings, as its trusted workspace layer.
fn worker_settings() -> BoxedStrategy<Value> {
    let permissions = object_of(vec![
        ("defaultMode", permission_mode()),
        ("allow", Just(json!(["Bash(ls:*)"])).boxed()),
    ]);
    let sandbox = object_of(vec![
        ("mode", sandbox_mode()),
        ("network", any::<bool>().prop_map(Value::from).boxed()),
    ]);
    object_of(vec![
        ("permissions", permissions),
        ("sandbox", sandbox),
        ("maxTurns", (1u64..200).prop_map(Value::from).boxed()),
    ])
}

/// What a session may do, as far as a task could widen it.
#[derive(Debug, PartialEq)]
struct Effective {
    allow: Vec<String>,
    additional_directories: Vec<PathBuf>,
    hooks: usize,
    disable_all_hooks: bool,
    env: BTreeMap<String, String>,
    enabled_plugins: BTreeMap<String, bool>,
    base_url: Option<String>,
    model: Option<String>,
    mcp_servers: usize,
    pass_env: Vec<String>,
}

fn effective(assembly: &Assembly) -> Effective {
    let settings = assembly.configuration().settings();
    let config = assembly.policy().config();
    Effective {
        allow: config
            .rules
            .iter()
            .filter(|rule| rule.list == RuleList::Allow)
            .map(|rule| rule.text.clone())
            .collect(),
        additional_directories: config.additional_directories.clone(),
        hooks: settings.hooks.len(),
        disable_all_hooks: settings.disable_all_hooks,
        env: settings.env.clone(),
        enabled_plugins: settings.enabled_plugins.clone(),
        base_url: settings.base_url.clone(),
        model: settings.model.clone(),
        mcp_servers: settings.mcp_servers.len(),
        pass_env: assembly.workspace().sandbox().pass_env,
    }
}

fn load(workspace: &Path, task_file: Option<&Path>) -> Result<Assembly, agenthub::SetupError> {
    Assembly::load(&Options {
        workspace: Some(workspace.to_path_buf()),
        settings_files: task_file.into_iter().map(Path::to_path_buf).collect(),
        trust: TrustChoice::ThisRun,
        ..Options::default()
    })
}

/// The contract's order of the modes, written here again so that the
/// property does not take the order from the code it checks.
fn contract_rank(mode: PermissionMode) -> u8 {
    match mode {
        PermissionMode::Plan => 4,
        PermissionMode::DontAsk => 3,
        PermissionMode::Default => 2,
        PermissionMode::AcceptEdits => 1,
        PermissionMode::BypassPermissions => 0,
    }
}

/// One case: `Ok(true)` when the task's settings were accepted and loaded.
fn accepted_task_is_no_wider(worker: &Value, task: &Value) -> Result<bool, TestCaseError> {
    let workspace = tempfile::tempdir().unwrap();
    std::fs::create_dir(workspace.path().join(".agenthub")).unwrap();
    std::fs::write(
        workspace.path().join(".agenthub/settings.json"),
        worker.to_string(),
    )
    .unwrap();
    let own = load(workspace.path(), None).expect("the worker's own settings load");
    let sandbox = own.workspace().sandbox();
    let worker_settings = WorkerSettings::of(
        own.configuration().settings(),
        own.policy().mode(),
        &sandbox,
    );
    if check_settings(task, &worker_settings).is_err() {
        return Ok(false);
    }
    let files = tempfile::tempdir().unwrap();
    let task_file = files.path().join("task.json");
    std::fs::write(&task_file, task.to_string()).unwrap();
    let Ok(with_task) = load(workspace.path(), Some(&task_file)) else {
        return Ok(false);
    };
    let (ran, own_sandbox) = (with_task.workspace().sandbox(), sandbox);
    let settings = with_task.configuration().settings();
    let turns = |max: Option<u32>| max.unwrap_or(agenthub::DEFAULT_MAX_TURNS);
    prop_assert_eq!(effective(&with_task), effective(&own), "task {}", task);
    prop_assert!(
        contract_rank(with_task.policy().mode()) >= contract_rank(own.policy().mode()),
        "mode {} after {}",
        with_task.policy().mode(),
        own.policy().mode()
    );
    prop_assert!(ran.mode.looseness() <= own_sandbox.mode.looseness());
    prop_assert!(!ran.network || own_sandbox.network, "network turned on");
    prop_assert!(turns(settings.max_turns) <= turns(own.configuration().settings().max_turns));
    prop_assert!(
        settings.max_stop_continuations.unwrap_or(1)
            <= own
                .configuration()
                .settings()
                .max_stop_continuations
                .unwrap_or(1)
    );
    Ok(true)
}

#[test]
fn no_task_settings_the_table_accepts_widen_the_workers_own() {
    isolated_home();
    let mut runner = TestRunner::new(Config {
        cases: 512,
        failure_persistence: None,
        ..Config::default()
    });
    let accepted = AtomicUsize::new(0);
    let outcome = runner.run(&(worker_settings(), task_settings()), |(worker, task)| {
        if accepted_task_is_no_wider(&worker, &task)? {
            accepted.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
    let accepted = accepted.into_inner();
    assert!(
        accepted >= 10,
        "only {accepted} accepted cases: the property says little"
    );
}

proptest! {
    #![proptest_config(Config { cases: 128, ..Config::default() })]

    #[test]
    fn a_workspace_the_check_lets_in_lies_inside_the_root_once_made(
        components in prop::collection::vec(
            prop::sample::select(vec!["a", "b", "..", ".", "out", "new"]), 0..6)
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), root.join("out")).unwrap();
        let opened = WorkspaceRoot::open(Some(&root)).unwrap();
        let canonical_root = root.canonicalize().unwrap();
        let path = components.iter().fold(root.clone(), |path, part| path.join(part));
        let task = TaskSpec {
            id: "t".to_owned(),
            prompt: "p".to_owned(),
            workspace: TaskWorkspace::Path { path: path.clone() },
            settings: None,
            script: None,
            model: None,
        };
        let existed_inside = path
            .canonicalize()
            .is_ok_and(|canonical| canonical.starts_with(&canonical_root));
        let accepted = check_workspace(&task, &opened).is_ok();
        if existed_inside {
            prop_assert!(accepted, "{} is inside but refused", path.display());
        }
        if accepted {
            // Through its components: `create_dir_all("x/new/.")` fails.
            std::fs::create_dir_all(path.components().collect::<PathBuf>()).unwrap();
            let made = path.canonicalize().unwrap();
            prop_assert!(made.starts_with(&canonical_root), "{} made at {}", path.display(), made.display());
        }
    }
}
