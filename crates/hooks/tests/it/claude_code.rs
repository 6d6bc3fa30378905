//! Issue 13: hook configurations written for Claude Code run unchanged. Each
//! test is one pattern the issue found broken, as a small real script; what
//! the hook's answer comes to is its event's verdict.

use crate::support::*;
use agenthub_hooks::{
    CommandHooks, HookCommon, HookServices, StopDecision, UserPromptSubmitVerdict,
};
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_grep_guard_that_exits_1_on_the_harmless_path_lets_the_call_run() {
    let case = Case::new();
    let guard = case.hook(
        "guard.sh",
        "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }",
    );
    let registry = case.registry(&[("PreToolUse", Some("Echo"), command(&guard))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(pre_tool_use(&run.verdict), proceeds("hello"));
}

#[tokio::test]
async fn a_stop_hook_whose_tool_is_missing_keeps_the_answer() {
    let case = Case::new();
    let registry = case.registry(&[("Stop", None, command("pnpm-not-installed test"))]);
    assert_eq!(
        case.stop(&registry, "all done", false)
            .await
            .verdict
            .decision,
        StopDecision::Finish {
            context: Vec::new()
        }
    );
}

#[tokio::test]
async fn a_user_prompt_submit_hook_whose_tool_is_missing_keeps_the_prompt() {
    let case = Case::new();
    let registry = case.registry(&[(
        "UserPromptSubmit",
        None,
        command("osascript-not-installed -e 'display notification'"),
    )]);
    assert_eq!(
        case.user_prompt_submit(&registry).await.verdict,
        UserPromptSubmitVerdict::Proceed {
            context: Vec::new()
        }
    );
}

#[tokio::test]
async fn a_hook_that_echoes_its_input_back_is_not_a_contract_error() {
    let case = Case::new();
    let echo_input = case.hook("echo-input.sh", "cat");
    let registry = case.registry(&[("UserPromptSubmit", None, command(&echo_input))]);
    let run = case.user_prompt_submit(&registry).await;
    assert_eq!(
        (
            records(&run.records)[0]["outcome"].clone(),
            matches!(run.verdict, UserPromptSubmitVerdict::Proceed { .. })
        ),
        (json!("ok"), true)
    );
}

#[tokio::test]
async fn a_stop_hook_saying_decision_allow_lets_the_answer_go() {
    let case = Case::new();
    let allow = case.hook("allow.sh", r#"echo '{"decision": "allow"}'"#);
    let registry = case.registry(&[("Stop", None, command(&allow))]);
    assert_eq!(
        case.stop(&registry, "all done", false)
            .await
            .verdict
            .decision,
        StopDecision::Finish {
            context: Vec::new()
        }
    );
}

#[tokio::test]
async fn a_stop_hook_exiting_2_with_its_reason_on_stdout_makes_the_model_continue() {
    let case = Case::new();
    let gate = case.hook(
        "tests-pass.sh",
        r#"echo '{"decision":"block","reason":"tests must pass: 2 failing"}'
exit 2"#,
    );
    let registry = case.registry(&[("Stop", None, command(&gate))]);
    assert_eq!(
        case.stop(&registry, "done", false).await.verdict.decision,
        StopDecision::Continue {
            reason: "tests must pass: 2 failing".to_owned(),
            context: Vec::new()
        }
    );
}

/// Runs the SessionStart hook `body` with a session environment and returns
/// what bash will run before each later command.
async fn prelude_after(case: &Case, body: &str) -> Option<String> {
    let setup = case.hook("env.sh", body);
    let services = HookServices::default();
    let process_env = services.process_env.clone();
    let registry = case.registry_with(&[("SessionStart", None, command(&setup))], services);
    case.session_start(&registry).await;
    process_env.prelude()
}

#[tokio::test]
async fn a_session_start_hook_exporting_to_claude_env_file_sets_variables_for_bash() {
    let case = Case::new();
    assert_eq!(
        prelude_after(
            &case,
            r#"echo 'export NODE_ENV="test"' >> "$CLAUDE_ENV_FILE""#
        )
        .await,
        Some("export NODE_ENV=\"test\"\n".to_owned())
    );
}

#[tokio::test]
async fn a_claude_env_file_that_extends_path_is_run_by_bash_so_later_commands_find_both() {
    // The pattern of Node projects: `export PATH="…/node_modules/.bin:$PATH"`.
    // Read as text it set PATH to the literal; it is handed to bash whole.
    let case = Case::new();
    assert_eq!(
        prelude_after(
            &case,
            r#"echo "export PATH=\"$CLAUDE_PROJECT_DIR/tools:\$PATH\"" >> "$CLAUDE_ENV_FILE""#
        )
        .await,
        Some(format!(
            "export PATH=\"{}/tools:$PATH\"\n",
            case.workspace.display()
        ))
    );
}

#[tokio::test]
async fn declare_x_lines_of_export_p_in_claude_env_file_reach_bash() {
    let case = Case::new();
    assert_eq!(
        prelude_after(
            &case,
            r#"echo 'declare -x GREETING="two words"' >> "$CLAUDE_ENV_FILE""#
        )
        .await,
        Some("declare -x GREETING=\"two words\"\n".to_owned())
    );
}

#[tokio::test]
async fn a_project_folder_with_shell_syntax_in_its_name_runs_nothing_through_the_hook() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("proj$(touch PWNED)");
    std::fs::create_dir_all(workspace.join(".agenthub")).unwrap();
    std::fs::write(
        workspace.join(".agenthub/ok.sh"),
        "#!/bin/sh\ntouch \"$CLAUDE_PROJECT_DIR/ran\"\n",
    )
    .unwrap();
    chmod_x(&workspace.join(".agenthub/ok.sh"));
    let configs = configs_in(
        &workspace.join(".agenthub/settings.json"),
        &[(
            "Stop",
            None,
            command("\"$CLAUDE_PROJECT_DIR\"/.agenthub/ok.sh"),
        )],
    );
    let registry = CommandHooks::new(configs).into_registry().unwrap();
    let context = agenthub_hooks::StopContext {
        common: HookCommon {
            workspace: workspace.clone(),
            ..Case::new().common()
        },
        history: std::sync::Arc::from(Vec::new()),
        last_assistant_message: "done".to_owned(),
        stop_hook_active: false,
    };
    registry.run_stop(context, true).await;
    assert_eq!(
        (
            workspace.join("ran").exists(),
            dir.path().join("PWNED").exists() || workspace.join("PWNED").exists()
        ),
        (true, false)
    );
}

#[tokio::test]
async fn a_hook_whose_child_escaped_the_group_holding_stdout_ends_at_its_timeout() {
    let case = Case::new();
    let escape = case.hook("escape.sh", "setsid sleep 30 &\nexit 0");
    let mut spec = command(&escape);
    spec["timeout"] = json!(1);
    let registry = case.registry(&[("Stop", None, spec)]);
    let started = Instant::now();
    let decision = case.stop(&registry, "done", false).await.verdict.decision;
    assert_eq!(
        (decision, started.elapsed() < Duration::from_secs(10)),
        (
            StopDecision::Finish {
                context: Vec::new()
            },
            true
        )
    );
}

#[tokio::test]
async fn an_async_hook_does_not_hold_the_run() {
    let case = Case::new();
    let slow = case.hook("slow.sh", "sleep 5; touch .agenthub/late");
    let mut spec = command(&slow);
    spec["async"] = json!(true);
    let registry = case.registry(&[("Stop", None, spec)]);
    let started = Instant::now();
    let decision = case.stop(&registry, "done", false).await.verdict.decision;
    assert_eq!(
        (decision, started.elapsed() < Duration::from_secs(4)),
        (
            StopDecision::Finish {
                context: Vec::new()
            },
            true
        )
    );
}

#[tokio::test]
async fn a_once_hook_runs_once_per_session() {
    let case = Case::new();
    let count = case.hook("count.sh", "echo x >> .agenthub/count");
    let mut spec = command(&count);
    spec["once"] = json!(true);
    let registry = case.registry(&[("PreToolUse", None, spec)]);
    case.pre_tool_use(&registry, echo("a")).await;
    case.pre_tool_use(&registry, echo("b")).await;
    assert_eq!(case.read(".agenthub/count"), "x\n");
}
