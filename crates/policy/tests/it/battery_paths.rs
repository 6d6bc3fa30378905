//! Rows 15–31 of the attack battery (commands and paths people have used to slip past permission rules): paths and
//! the workspace boundary, each on a real temporary directory. Row 28
//! (Windows path forms) does not apply on Unix; row 30's sandbox half is out
//! of scope (no OS sandbox yet) — its policy half is here.

use crate::support;

use agenthub_policy::PermissionMode;
use agenthub_policy::Source::{ProtectedPath, Rule, WorkspaceBoundary};
use agenthub_tools::Parents;
use serde_json::json;
use std::fs;
use std::os::unix::fs::symlink;
use support::*;

fn read(battery: &Battery, path: &str) -> agenthub_policy::Decision {
    battery.decide("Read", json!({ "file_path": path }))
}

fn write(battery: &Battery, path: &str) -> agenthub_policy::Decision {
    battery.decide("Write", json!({ "file_path": path, "content": "x" }))
}

#[test]
fn row_15_dot_dot_out_of_the_workspace_is_denied() {
    let battery = Battery::new();
    let dotted = format!("{}/./../outside/x", path_text(&battery.proj("")));
    for path in ["../outside/x", "src/../../outside/x", dotted.as_str()] {
        let decision = read(&battery, path);
        assert_eq!(
            (verdict(&decision), decision.reason),
            (
                (Deny, WorkspaceBoundary),
                format!(
                    "{} is outside the workspace ({})",
                    path_text(&battery.base.join("outside/x")),
                    path_text(&battery.base.join("proj"))
                )
            ),
            "{path}"
        );
    }
}

#[test]
fn row_16_absolute_paths_outside_are_denied() {
    let battery = Battery::new();
    for path in [
        "/etc/passwd",
        "//etc/passwd",
        "/proc/self/root/etc/passwd",
        "/proc/self/fd/3",
        "/dev/tcp/1.2.3.4/80",
    ] {
        assert_eq!(
            verdict(&read(&battery, path)),
            (Deny, WorkspaceBoundary),
            "{path}"
        );
    }
}

#[test]
fn row_17_a_sibling_with_the_same_prefix_is_outside() {
    let battery = Battery::new();
    let sibling = path_text(&battery.base.join("proj-secrets/key"));
    assert_eq!(
        verdict(&read(&battery, &sibling)),
        (Deny, WorkspaceBoundary)
    );
}

#[test]
fn row_18_a_link_out_is_denied_and_a_link_to_a_denied_file_is_denied() {
    let battery = Battery::new();
    symlink("/etc", battery.proj("link")).unwrap();
    symlink(battery.home().join(".ssh/id_rsa"), battery.proj("key")).unwrap();
    symlink(battery.proj(".env"), battery.proj("alias")).unwrap();
    assert_eq!(
        verdict(&read(&battery, "link/passwd")),
        (Deny, WorkspaceBoundary)
    );
    assert_eq!(verdict(&read(&battery, "key")), (Deny, WorkspaceBoundary));
    let decision = read(&battery, "alias");
    assert_eq!(verdict(&decision), (Deny, Rule), "{}", decision.reason);
}

#[test]
fn row_18_a_link_into_a_denied_home_path_is_denied_by_the_rule_when_home_is_a_root() {
    let battery = Battery::new();
    let home = path_text(&battery.home());
    let engine = battery.engine_with(
        PermissionMode::Default,
        json!({"deny": ["Read(~/.ssh/**)"], "additionalDirectories": [home]}),
    );
    symlink(battery.home().join(".ssh/id_rsa"), battery.proj("key")).unwrap();
    let decision = battery
        .explain(&engine, "Read", json!({"file_path": "key"}), None)
        .decision;
    assert_eq!(
        (verdict(&decision), decision.rule),
        (
            (Deny, Rule),
            Some(format!(
                "Read(~/.ssh/**) ({})",
                path_text(&battery.proj(".agenthub/settings.json"))
            ))
        )
    );
}

#[test]
fn row_19_a_directory_swapped_for_a_link_after_the_check_is_not_written_through() {
    let battery = Battery::new();
    fs::create_dir(battery.proj("a")).unwrap();
    fs::write(battery.proj("a/f"), "inside").unwrap();
    assert_eq!(verdict(&write(&battery, "a/f")).0, Ask);
    fs::remove_dir_all(battery.proj("a")).unwrap();
    symlink(battery.base.join("outside"), battery.proj("a")).unwrap();
    assert!(battery
        .workspace
        .write_bytes("a/x", b"owned", Parents::Create)
        .is_err());
    assert_eq!(
        fs::read_to_string(battery.base.join("outside/x")).unwrap(),
        "outside"
    );
}

#[test]
fn row_20_a_dangling_link_to_outside_is_denied_and_nothing_is_created() {
    let battery = Battery::new();
    symlink(battery.base.join("outside/planted"), battery.proj("new")).unwrap();
    assert_eq!(verdict(&write(&battery, "new")), (Deny, WorkspaceBoundary));
    assert!(battery
        .workspace
        .write_bytes("new", b"x", Parents::Create)
        .is_err());
    assert!(!battery.base.join("outside/planted").exists());
}

#[test]
fn row_21_a_symlinked_parent_with_a_missing_leaf_is_denied() {
    let battery = Battery::new();
    symlink(battery.base.join("outside"), battery.proj("d")).unwrap();
    let decision = write(&battery, "d/x/y");
    assert_eq!(
        (verdict(&decision), decision.reason),
        (
            (Deny, WorkspaceBoundary),
            format!(
                "{} leads through a symbolic link to {}, which is outside the workspace ({})",
                path_text(&battery.proj("d/x/y")),
                path_text(&battery.base.join("outside/x/y")),
                path_text(&battery.base.join("proj"))
            )
        )
    );
}

#[test]
fn row_22_link_chains_and_loops_are_denied_without_hanging() {
    let battery = Battery::new();
    symlink(battery.proj("l2"), battery.proj("l1")).unwrap();
    symlink(battery.proj("l1"), battery.proj("l2")).unwrap();
    symlink(battery.base.join("outside/x"), battery.proj("c0")).unwrap();
    for hop in 1..=45 {
        symlink(format!("c{}", hop - 1), battery.proj(&format!("c{hop}"))).unwrap();
    }
    assert_eq!(verdict(&read(&battery, "l1")), (Deny, WorkspaceBoundary));
    assert_eq!(verdict(&read(&battery, "c45")), (Deny, WorkspaceBoundary));
    assert_eq!(verdict(&read(&battery, "c5")), (Deny, WorkspaceBoundary));
}

#[test]
fn row_23_a_hard_link_to_a_file_outside_is_not_written_through() {
    let battery = Battery::new();
    fs::hard_link(battery.base.join("outside/x"), battery.proj("h")).unwrap();
    let decision = battery.decide(
        "Edit",
        json!({"file_path": "h", "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(verdict(&decision).0, Ask);
    assert!(battery
        .workspace
        .write_bytes("h", b"owned", Parents::MustExist)
        .is_err());
    assert_eq!(
        fs::read_to_string(battery.base.join("outside/x")).unwrap(),
        "outside"
    );
}

#[test]
fn row_24_nul_control_and_invisible_characters_are_denied_with_a_clear_reason() {
    let battery = Battery::new();
    let table = [
        ("a.txt\0/../../etc/passwd", "the path contains a NUL byte"),
        (
            "a\u{7}.txt",
            "the path contains the control character U+0007",
        ),
        (
            "cod\u{202e}txt.rs",
            "the path contains the invisible or text-direction character U+202E",
        ),
        (
            "a\u{200d}.txt",
            "the path contains the invisible or text-direction character U+200D",
        ),
    ];
    for (path, reason) in table {
        let decision = read(&battery, path);
        assert_eq!(
            (verdict(&decision), decision.reason.as_str()),
            ((Deny, WorkspaceBoundary), reason)
        );
    }
}

#[test]
fn row_25_over_long_paths_are_denied_without_panicking() {
    let battery = Battery::new();
    let table = [
        (
            "a".repeat(5000),
            "the path is too long: 5000 bytes (at most 4096)".to_owned(),
        ),
        (
            "b".repeat(300),
            "a component of the path is too long: 300 bytes (at most 255)".to_owned(),
        ),
        (
            "d/".repeat(10_000),
            "the path is too long: 20000 bytes (at most 4096)".to_owned(),
        ),
    ];
    for (path, reason) in table {
        let decision = read(&battery, &path);
        assert_eq!(
            (verdict(&decision), decision.reason),
            ((Deny, WorkspaceBoundary), reason)
        );
    }
}

#[test]
fn row_26_case_variants_of_denied_and_protected_names_are_covered() {
    let battery = Battery::new();
    assert_eq!(verdict(&read(&battery, ".ENV")), (Deny, Rule));
    assert_eq!(
        verdict(&write(&battery, ".Git/config")),
        (Ask, ProtectedPath)
    );
    assert_eq!(
        verdict(&write(&battery, ".AGENTHUB/settings.json")),
        (Ask, ProtectedPath)
    );
    assert_eq!(verdict(&read(&battery, ".\u{ff45}nv")), (Allow, Rule));
}

/// Issue 15 changed this row: `~/` in a tool path is the home directory (as
/// in rules and Bash arguments), so it is outside the workspace like the
/// absolute home path; `~user` and variables stay literal names.
#[test]
fn row_27_tilde_in_tool_paths_is_home_and_variables_are_literal() {
    let battery = Battery::new();
    for path in ["~root/.ssh", "$HOME/.ssh"] {
        assert_eq!(verdict(&read(&battery, path)), (Allow, Rule), "{path}");
    }
    let home_key = path_text(&battery.home().join(".ssh/id_rsa"));
    for path in ["~/.ssh/id_rsa", home_key.as_str()] {
        assert_eq!(
            verdict(&read(&battery, path)),
            (Deny, WorkspaceBoundary),
            "{path}"
        );
    }
}

const PROTECTED: [&str; 7] = [
    ".git/hooks/pre-commit",
    ".git/config",
    ".agenthub/settings.json",
    ".mcp.json",
    ".envrc",
    ".vscode/tasks.json",
    ".bashrc",
];

#[test]
fn row_29_protected_paths_ask_even_with_allow_rules_and_accept_edits() {
    let battery = Battery::new();
    for mode in [PermissionMode::Default, PermissionMode::AcceptEdits] {
        let engine = battery.engine_with(mode, json!({"allow": ["Edit(*)", "Write"]}));
        for path in PROTECTED {
            let input = json!({"file_path": path, "content": "x"});
            let decision = battery
                .explain(&engine, "Write", input, Some(Allow))
                .decision;
            assert_eq!(verdict(&decision), (Ask, ProtectedPath), "{mode} {path}");
        }
    }
}

/// contract §11: protected paths ask "in every mode but bypassPermissions"
/// (this row asked in bypassPermissions too before issue 10).
#[test]
fn row_29_bypass_mode_writes_protected_paths_and_says_so() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::BypassPermissions);
    for path in PROTECTED {
        let input = json!({"file_path": path, "content": "x"});
        let explanation = battery.explain(&engine, "Write", input, None);
        assert_eq!(
            verdict(&explanation.decision),
            (Allow, agenthub_policy::Source::Mode),
            "{path}"
        );
        let protected: Vec<_> = explanation
            .verdicts
            .iter()
            .filter(|verdict| verdict.source == ProtectedPath)
            .map(|verdict| (verdict.effect, verdict.reason.clone()))
            .collect();
        let shown = battery.proj(path).display().to_string();
        let name = path.split('/').next().unwrap_or(path);
        assert_eq!(
            protected,
            [(
                None,
                format!("{shown} is a protected path ({name}): bypassPermissions mode writes it without asking")
            )]
        );
    }
}

#[test]
fn row_29_protected_paths_are_denied_in_dont_ask_mode() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::DontAsk);
    let decision = battery
        .explain(
            &engine,
            "Write",
            json!({"file_path": ".git/config", "content": "x"}),
            None,
        )
        .decision;
    assert_eq!(verdict(&decision), (Deny, agenthub_policy::Source::Mode));
}

#[test]
fn row_30_a_missing_protected_file_is_protected_from_bash_too() {
    let battery = Battery::new();
    assert_eq!(
        verdict(&battery.bash("echo '{}' > .agenthub/settings.json")),
        (Ask, ProtectedPath)
    );
    assert_eq!(
        verdict(&write(&battery, ".git/hooks/new-hook")),
        (Ask, ProtectedPath)
    );
}

#[test]
fn row_31_a_search_root_outside_the_workspace_is_denied() {
    let battery = Battery::new();
    for tool in ["Glob", "Grep"] {
        let decision = battery.decide(tool, json!({"pattern": "*", "path": "/"}));
        assert_eq!(verdict(&decision), (Deny, WorkspaceBoundary), "{tool}");
        let default_root = battery.decide(tool, json!({"pattern": "*"}));
        assert_eq!(verdict(&default_root).0, Allow, "{tool}");
    }
}
