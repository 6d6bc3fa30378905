//! The restrict-only table's tests: every key it accepts, every key that widens, modes
//! compared with the worker's own, and the workspace root.

use super::*;
use serde_json::json;
use std::path::Path;

/// A worker with nothing set: `default` mode, `workspace-write` sandbox,
/// the default `maxTurns` and `maxStopContinuations`.
fn default_worker() -> WorkerSettings {
    WorkerSettings {
        mode: PermissionMode::Default,
        sandbox: SandboxMode::WorkspaceWrite,
        network: NetworkAccess::Off,
        max_turns: agenthub::DEFAULT_MAX_TURNS,
        max_stop_continuations: 1,
    }
}

fn key(path: &str) -> Widening {
    not_a_restriction(path)
}

fn value(path: &str, given: &str, restriction: &str) -> Widening {
    Widening {
        path: path.to_owned(),
        why: Why::Value {
            given: given.to_owned(),
            restriction: restriction.to_owned(),
        },
    }
}

const AS_STRICT_AS_DEFAULT: &str = "a mode at least as strict as the worker's \"default\"";

#[test]
fn every_key_of_the_table_is_accepted_with_a_restricting_value() {
    let accepted = [
        json!({"$schema": "https://example.invalid/settings.json"}),
        json!({"permissions": {"deny": ["Bash(rm:*)", "Read(./.env)"]}}),
        json!({"permissions": {"ask": ["Write", "Bash"]}}),
        json!({"permissions": {"defaultMode": "plan"}}),
        json!({"permissions": {"defaultMode": "dontAsk"}}),
        json!({"permissions": {"defaultMode": "default"}}),
        json!({"permissions": {"disableBypassPermissionsMode": "disable"}}),
        json!({"sandbox": {"mode": "read-only"}}),
        json!({"sandbox": {"mode": "workspace-write"}}),
        json!({"sandbox": {"network": false}}),
        json!({"maxTurns": 5}),
        json!({"maxTurns": agenthub::DEFAULT_MAX_TURNS}),
        json!({"maxStopContinuations": 0}),
        json!({}),
    ];
    let outcomes: Vec<_> = accepted
        .iter()
        .map(|settings| check_settings(settings, &default_worker()))
        .collect();
    assert_eq!(outcomes, vec![Ok(()); accepted.len()]);
}

#[test]
fn every_key_that_widens_is_refused_naming_its_json_path() {
    let cases = [
        (
            json!({"sandbox": {"network": true}}),
            value("sandbox.network", "true", "false"),
        ),
        (
            json!({"sandbox": {"passEnv": ["OPENAI_API_KEY"]}}),
            key("sandbox.passEnv"),
        ),
        (
            json!({"sandbox": {"mode": "off"}}),
            value(
                "sandbox.mode",
                "\"off\"",
                "a mode at least as strict as the worker's \"workspace-write\"",
            ),
        ),
        (
            json!({"enabledPlugins": {"tool@market": true}}),
            key("enabledPlugins"),
        ),
        (
            json!({"permissions": {"additionalDirectories": ["/"]}}),
            key("permissions.additionalDirectories"),
        ),
        (
            json!({"permissions": {"allow": ["Bash"]}}),
            key("permissions.allow"),
        ),
        (
            json!({"permissions": {"defaultMode": "acceptEdits"}}),
            value(
                "permissions.defaultMode",
                "\"acceptEdits\"",
                AS_STRICT_AS_DEFAULT,
            ),
        ),
        (
            json!({"permissions": {"defaultMode": "bypassPermissions"}}),
            value(
                "permissions.defaultMode",
                "\"bypassPermissions\"",
                AS_STRICT_AS_DEFAULT,
            ),
        ),
        (
            json!({"permissions": {"defaultMode": "nonsense"}}),
            value(
                "permissions.defaultMode",
                "\"nonsense\"",
                AS_STRICT_AS_DEFAULT,
            ),
        ),
        (
            json!({"permissions": {"disableBypassPermissionsMode": "keep"}}),
            value(
                "permissions.disableBypassPermissionsMode",
                "\"keep\"",
                "\"disable\"",
            ),
        ),
        (
            json!({"permissions": {"deny": "Bash"}}),
            value("permissions.deny", "\"Bash\"", "an array of rule strings"),
        ),
        (
            json!({"permissions": {"defaultAgent": "x"}}),
            key("permissions.defaultAgent"),
        ),
        (json!({"permissions": ["deny"]}), key("permissions")),
        (json!({"hooks": {"SessionStart": []}}), key("hooks")),
        (json!({"env": {"A": "b"}}), key("env")),
        (
            json!({"baseUrl": "http://attacker.invalid/v1"}),
            key("baseUrl"),
        ),
        (json!({"mcpServers": {}}), key("mcpServers")),
        (json!({"disableAllHooks": true}), key("disableAllHooks")),
        (json!({"modelPrices": {}}), key("modelPrices")),
        (json!({"anUnknownKey": 1}), key("anUnknownKey")),
        (
            json!({"sandbox": {"anUnknownKey": 1}}),
            key("sandbox.anUnknownKey"),
        ),
        (
            json!({"maxTurns": 101}),
            value("maxTurns", "101", "a number up to the worker's 100"),
        ),
        (
            json!({"maxTurns": "5"}),
            value("maxTurns", "\"5\"", "a number up to the worker's 100"),
        ),
        (
            json!({"maxStopContinuations": 2}),
            value("maxStopContinuations", "2", "a number up to the worker's 1"),
        ),
    ];
    for (settings, widening) in cases {
        assert_eq!(
            check_settings(&settings, &default_worker()),
            Err(TaskRefusal::Widens(vec![widening])),
            "{settings}"
        );
    }
}

#[test]
fn a_mode_is_compared_with_the_workers_own() {
    let worker = |mode, sandbox| WorkerSettings {
        mode,
        sandbox,
        ..default_worker()
    };
    let outcomes = [
        (worker(PermissionMode::BypassPermissions, SandboxMode::Off), json!({"permissions": {"defaultMode": "acceptEdits"}, "sandbox": {"mode": "workspace-write"}})),
        (worker(PermissionMode::DontAsk, SandboxMode::ReadOnly), json!({"permissions": {"defaultMode": "plan"}, "sandbox": {"mode": "read-only"}})),
        (worker(PermissionMode::Plan, SandboxMode::ReadOnly), json!({"permissions": {"defaultMode": "default"}, "sandbox": {"mode": "workspace-write"}})),
    ]
    .map(|(worker, settings)| check_settings(&settings, &worker));
    assert_eq!(
        outcomes,
        [
            Ok(()),
            Ok(()),
            Err(TaskRefusal::Widens(vec![
                value(
                    "permissions.defaultMode",
                    "\"default\"",
                    "a mode at least as strict as the worker's \"plan\""
                ),
                value(
                    "sandbox.mode",
                    "\"workspace-write\"",
                    "a mode at least as strict as the worker's \"read-only\""
                ),
            ]))
        ]
    );
}

#[test]
fn the_audits_network_and_pass_env_task_is_refused_naming_both_keys() {
    let settings = json!({"sandbox": {"network": true, "passEnv": ["OPENAI_API_KEY"]}});
    let refusal = check_settings(&settings, &default_worker()).unwrap_err();
    assert_eq!(
        refusal.to_string(),
        "the task's settings may only restrict on this worker, but they set sandbox.network: \
         true, where only false restricts, sandbox.passEnv; the worker's operator can allow \
         this with `agenthub worker --allow-task-settings`"
    );
}

#[test]
fn strictness_orders_the_modes_as_the_contract_does() {
    let mut modes = PermissionMode::ALL;
    modes.sort_by_key(|mode| std::cmp::Reverse(strictness(*mode)));
    assert_eq!(
        modes.map(|mode| (mode, strictness(mode))),
        [
            (PermissionMode::Plan, 4),
            (PermissionMode::DontAsk, 3),
            (PermissionMode::Default, 2),
            (PermissionMode::AcceptEdits, 1),
            (PermissionMode::BypassPermissions, 0),
        ]
    );
}

fn path_task(path: &Path) -> TaskSpec {
    TaskSpec {
        id: "t".to_owned(),
        prompt: "p".to_owned(),
        workspace: TaskWorkspace::Path {
            path: path.to_path_buf(),
        },
        settings: None,
        script: None,
        model: None,
    }
}

/// A root with a folder `inside` and a link `out` to a folder beside it.
fn root_with_link() -> (tempfile::TempDir, WorkspaceRoot, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("inside")).unwrap();
    std::fs::create_dir_all(dir.path().join("outside")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside"), root.join("out")).unwrap();
    let opened = WorkspaceRoot::open(Some(&root)).unwrap();
    (dir, opened, root.canonicalize().unwrap())
}

#[test]
fn a_workspace_inside_the_root_passes_even_before_it_exists() {
    let (_dir, root, canonical) = root_with_link();
    let outcomes = [
        canonical.join("inside"),
        canonical.join("inside/new/deeper"),
        canonical.join("inside/../inside"),
    ]
    .map(|path| check_workspace(&path_task(&path), &root));
    assert_eq!(outcomes, [Ok(()), Ok(()), Ok(())]);
}

#[test]
fn a_workspace_outside_the_root_is_refused_naming_the_path_and_the_root() {
    let (dir, root, canonical) = root_with_link();
    let outside = [
        PathBuf::from("/"),
        dir.path().join("outside"),
        canonical.join("out"),
        canonical.join("out/new"),
        canonical.join("../outside"),
        canonical.join("new/../../outside"),
        PathBuf::new(),
    ];
    for path in outside {
        assert_eq!(
            check_workspace(&path_task(&path), &root),
            Err(TaskRefusal::OutsideRoot {
                path: path.clone(),
                root: canonical.clone()
            }),
            "{}",
            path.display()
        );
    }
}

#[test]
fn a_root_refusal_names_workspace_path_and_the_root() {
    let refusal = TaskRefusal::OutsideRoot {
        path: PathBuf::from("/"),
        root: PathBuf::from("/srv/ws"),
    };
    assert_eq!(
        refusal.to_string(),
        "workspace.path / is outside the worker's workspace root /srv/ws; a worker runs tasks \
         only in folders inside its --workspace-root"
    );
}

#[test]
fn without_a_root_and_for_a_remote_git_workspace_any_place_passes() {
    let (_dir, root, _) = root_with_link();
    let git = TaskSpec {
        workspace: TaskWorkspace::Git {
            git: "https://example.invalid/r.git".to_owned(),
            reference: "main".to_owned(),
        },
        ..path_task(Path::new("/"))
    };
    assert_eq!(
        [
            check_workspace(&path_task(Path::new("/")), &WorkspaceRoot::Anywhere),
            check_workspace(&git, &root),
        ],
        [Ok(()), Ok(())]
    );
}

fn git_task(git: &str) -> TaskSpec {
    TaskSpec {
        workspace: TaskWorkspace::Git {
            git: git.to_owned(),
            reference: "main".to_owned(),
        },
        ..path_task(Path::new("/"))
    }
}

#[test]
fn a_git_source_on_this_machine_must_lie_inside_the_root() {
    let (dir, root, canonical) = root_with_link();
    let outside = dir.path().join("outside");
    let sources = [
        (format!("{}", outside.display()), false),
        (format!("file://{}", outside.display()), false),
        (format!("{}/out", canonical.display()), false),
        (format!("{}/inside", canonical.display()), true),
        (format!("file://{}/inside", canonical.display()), true),
        ("https://example.invalid/r.git".to_owned(), true),
        ("ssh://git@example.invalid/r.git".to_owned(), true),
        ("git@example.invalid:team/r.git".to_owned(), true),
    ];
    let found: Vec<(String, bool)> = sources
        .iter()
        .map(|(git, _)| (git.clone(), check_workspace(&git_task(git), &root).is_ok()))
        .collect();
    assert_eq!(found, sources.to_vec());
}

#[test]
fn a_local_git_refusal_names_workspace_git_and_the_root() {
    let (_dir, root, canonical) = root_with_link();
    assert_eq!(
        check_workspace(&git_task("/root/private-repo"), &root),
        Err(TaskRefusal::LocalGitOutsideRoot {
            git: "/root/private-repo".to_owned(),
            root: canonical,
        })
    );
}

#[test]
fn a_plan_worker_refuses_a_dont_ask_task_which_would_run_what_its_allow_rules_allow() {
    let worker = WorkerSettings {
        mode: PermissionMode::Plan,
        ..default_worker()
    };
    assert_eq!(
        check_settings(&json!({"permissions": {"defaultMode": "dontAsk"}}), &worker),
        Err(TaskRefusal::Widens(vec![value(
            "permissions.defaultMode",
            "\"dontAsk\"",
            "a mode at least as strict as the worker's \"plan\""
        )]))
    );
}

#[test]
fn a_worker_runs_a_path_workspace_at_the_resolved_path_it_checked() {
    let (_dir, root, canonical) = root_with_link();
    std::os::unix::fs::symlink(canonical.join("inside"), canonical.join("alias")).unwrap();
    assert_eq!(
        checked_workspace(&path_task(&canonical.join("alias/../alias")), &root),
        Ok(TaskWorkspace::Path {
            path: canonical.join("inside")
        })
    );
}

#[test]
fn only_denied_domains_narrow_an_open_network_and_allowed_ones_widen_it() {
    let lists = json!({"sandbox": {"network": {"allowedDomains": ["registry.example.com"]}}});
    let open = WorkerSettings {
        network: NetworkAccess::On,
        ..default_worker()
    };
    let listed = WorkerSettings {
        network: SandboxSettings::read_network(&json!({"allowedDomains": ["example.com"]}))
            .unwrap(),
        ..default_worker()
    };
    let more_denied = json!({"sandbox": {"network": {"deniedDomains": ["bad.example.com"]}}});
    let given = r#"{"allowedDomains":["registry.example.com"]}"#;
    assert_eq!(
        [
            check_settings(&more_denied, &open),
            check_settings(&lists, &open),
            check_settings(&lists, &default_worker()),
            check_settings(&more_denied, &listed),
            check_settings(&lists, &listed),
        ],
        [
            Ok(()),
            Err(TaskRefusal::Widens(vec![value(
                "sandbox.network",
                given,
                "false, or domain lists with only deniedDomains"
            )])),
            Err(TaskRefusal::Widens(vec![value(
                "sandbox.network",
                given,
                "false"
            )])),
            Ok(()),
            Err(TaskRefusal::Widens(vec![value(
                "sandbox.network",
                given,
                "false, or domain lists adding only deniedDomains to the worker's"
            )])),
        ]
    );
}
