//! A skill's or a custom command's `allowed-tools` (contract §20): added to
//! the session's policy as allow rules, they answer a PermissionRequest
//! (an ask) with allow while the skill or command is active, and only for a
//! call that policy allows: a deny rule, or a call they do not name, stays
//! the approver's. Rules that do not parse grant nothing and say why.

use agenthub_hooks::{
    HookCommon, HookRegistry, PermissionRequestContext, PermissionRequestVerdict,
};
use agenthub_packages::skills::{register, Skills};
use agenthub_packages::CustomCommands;
use agenthub_policy::{CliPermissions, PolicyConfig, PolicyEngine, PolicyInput};
use agenthub_protocol::ToolCall;
use agenthub_settings::links::LinkRule;
use agenthub_tools::{PreparedCall, ToolContext, ToolRegistry, Workspace};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// A workspace whose session policy denies `git push`.
struct Case {
    _dir: tempfile::TempDir,
    root: PathBuf,
    workspace: Workspace,
}

impl Case {
    fn new() -> Case {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let workspace = Workspace::new(&root);
        Case {
            _dir: dir,
            root,
            workspace,
        }
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// The session's policy with `rules`, written in `file`, as allow rules.
    fn with_rules(&self, file: &Path, rules: &[String]) -> Result<Arc<PolicyEngine>, String> {
        let config = PolicyConfig::build(PolicyInput {
            workspace: &self.root,
            home: None,
            sections: &[
                (
                    self.root.join(".agenthub/settings.json"),
                    json!({"deny": ["Bash(git push *)"]}),
                ),
                (file.to_path_buf(), json!({ "allow": rules })),
            ],
            cli: CliPermissions::default(),
            extra_tools: &[],
        })
        .map_err(|error| error.to_string())?;
        Ok(Arc::new(PolicyEngine::new(config, None)))
    }

    /// The commands of `.agenthub/commands`.
    fn commands(&self) -> CustomCommands {
        let (commands, errors) = CustomCommands::load(
            &[self.root.join(".agenthub/commands")],
            &LinkRule::FollowAll,
        );
        assert!(errors.is_empty(), "{errors:?}");
        commands
    }

    /// What the PermissionRequest hooks answer an ask for `call`.
    async fn ask(&self, hooks: &HookRegistry, call: PreparedCall) -> PermissionRequestVerdict {
        let context = PermissionRequestContext {
            common: HookCommon {
                session_id: "session-1".to_owned(),
                workspace: self.root.clone(),
                transcript_path: None,
                permission_mode: agenthub_protocol::PermissionMode::Default,
                cancel: CancellationToken::new(),
                agent: None,
            },
            call,
            reason: "approval required".to_owned(),
        };
        hooks.run_permission_request(context).await.verdict
    }
}

/// `tool` called with `input`, prepared by `tools`.
fn prepared(tools: &ToolRegistry, tool: &str, input: Value) -> PreparedCall {
    tools
        .prepare(&ToolCall::new("call_1", tool, input.to_string()))
        .unwrap()
}

fn bash(command: &str) -> PreparedCall {
    prepared(
        &ToolRegistry::with_builtins().unwrap(),
        "Bash",
        json!({"command": command}),
    )
}

fn allowed_by(hook: &str) -> PermissionRequestVerdict {
    PermissionRequestVerdict::Allow {
        hook: hook.to_owned(),
        updated_input: None,
    }
}

const GIT_COMMAND: &str =
    "---\ndescription: Commit\nallowed-tools: Bash(git *)\n---\nCommit the work.\n";

#[tokio::test]
async fn a_commands_allowed_tools_answer_an_ask_only_while_it_is_active() {
    let case = Case::new();
    case.write(".agenthub/commands/commit.md", GIT_COMMAND);
    let with_rules = |file: &Path, rules: &[String]| case.with_rules(file, rules);
    let (active, hooks, warnings) = case.commands().grants(&with_rules, &case.workspace);
    let before = case.ask(&hooks, bash("git status")).await;
    let during = {
        let _guard = active.during("commit");
        case.ask(&hooks, bash("git status")).await
    };
    let after = case.ask(&hooks, bash("git status")).await;
    assert_eq!(
        (warnings, before, during, after),
        (
            Vec::<String>::new(),
            PermissionRequestVerdict::Undecided,
            allowed_by("command allowed-tools"),
            PermissionRequestVerdict::Undecided
        )
    );
}

#[tokio::test]
async fn an_active_grant_leaves_a_denied_call_and_one_it_does_not_name_to_the_approver() {
    let case = Case::new();
    case.write(".agenthub/commands/commit.md", GIT_COMMAND);
    let with_rules = |file: &Path, rules: &[String]| case.with_rules(file, rules);
    let (active, hooks, _) = case.commands().grants(&with_rules, &case.workspace);
    let _guard = active.during("commit");
    assert_eq!(
        (
            case.ask(&hooks, bash("git push origin main")).await,
            case.ask(&hooks, bash("make")).await
        ),
        (
            PermissionRequestVerdict::Undecided,
            PermissionRequestVerdict::Undecided
        )
    );
}

#[tokio::test]
async fn allowed_tools_that_do_not_parse_grant_nothing_and_say_why() {
    let case = Case::new();
    let file = case.write(
        ".agenthub/commands/deploy.md",
        "---\nallowed-tools: Bash(git *\n---\nDeploy.\n",
    );
    let with_rules = |file: &Path, rules: &[String]| case.with_rules(file, rules);
    let (_, hooks, warnings) = case.commands().grants(&with_rules, &case.workspace);
    let error = case
        .with_rules(&file, &["Bash(git *".to_owned()])
        .unwrap_err();
    assert_eq!(
        (warnings, hooks.is_empty()),
        (
            vec![format!(
                "command deploy: its allowed-tools are not applied: {error}"
            )],
            true
        )
    );
}

#[tokio::test]
async fn a_skills_allowed_tools_answer_asks_from_its_loading_on() {
    let case = Case::new();
    case.write(
        "skills/release/SKILL.md",
        "---\nname: release\ndescription: Cut a release\nallowed-tools: Bash(git *)\n---\nTag it.\n",
    );
    let (skills, errors) = Skills::load(&[case.root.join("skills")], &LinkRule::FollowAll);
    assert!(errors.is_empty(), "{errors:?}");
    let mut tools = ToolRegistry::with_builtins().unwrap();
    let pending = register(skills, &mut tools).unwrap();
    let with_rules = |file: &Path, rules: &[String]| case.with_rules(file, rules);
    let (hooks, warnings) = pending.hooks(&with_rules, &case.workspace);
    let before = case.ask(&hooks, bash("git status")).await;
    let load = prepared(&tools, "Skill", json!({"skill": "release"}));
    let context = ToolContext {
        workspace: case.workspace.clone(),
        cancel: CancellationToken::new(),
    };
    load.definition()
        .invoke(load.input().clone(), context)
        .await
        .unwrap();
    let after = [
        case.ask(&hooks, bash("git status")).await,
        case.ask(&hooks, bash("git log")).await,
    ];
    assert_eq!(
        (warnings, before, after),
        (
            Vec::<String>::new(),
            PermissionRequestVerdict::Undecided,
            [
                allowed_by("skill allowed-tools"),
                allowed_by("skill allowed-tools")
            ]
        )
    );
}
