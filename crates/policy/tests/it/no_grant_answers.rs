//! What no grant can answer (contract §28), searched rather than sampled:
//! for every permission mode × every kind of grant × every protected class
//! × every way of writing it, the decision is an ask only the person may
//! answer for that one call (or a deny where the mode denies asks), a
//! session grant is never offered for it and never covers it. The front
//! doors' own end-to-end matrix (`crates/cli/tests/e2e/no_grant_opens/`)
//! shows each door passes this one decision.

use crate::support::{Ask, Battery, Deny};
use agenthub_policy::{
    AskScope, CliPermissions, Decision, PermissionMode, PermissionPolicy, PermissionRequest,
    PolicyConfig, PolicyEngine, PolicyInput, SessionGrants,
};
use agenthub_protocol::{PermissionEffect, ToolCall};
use agenthub_tools::{PreparedCall, ToolRegistry};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::sync::OnceLock;

/// The kinds of grant a person, a package or a settings file can give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GrantKind {
    /// "Allow for this session" given for an ordinary call of the same tool
    /// (the interactive session's `a`, ACP's `allow_always`).
    SessionGrant,
    /// A custom command's or skill's `allowed-tools`, added as allow rules
    /// from its file.
    AllowedTools,
    /// A broad allow rule in settings.
    BroadAllowRule,
    /// No grant at all (the baseline).
    Nothing,
}

const GRANTS: [GrantKind; 4] = [
    GrantKind::SessionGrant,
    GrantKind::AllowedTools,
    GrantKind::BroadAllowRule,
    GrantKind::Nothing,
];

/// Every mode but bypassPermissions.
const MODES: [PermissionMode; 4] = [
    PermissionMode::Default,
    PermissionMode::AcceptEdits,
    PermissionMode::Plan,
    PermissionMode::DontAsk,
];

/// What a grant of each kind allows: every write tool, every way a shell
/// command writes here.
const GRANTED_RULES: [&str; 8] = [
    "Write",
    "Edit(**)",
    "Bash(cp:*)",
    "Bash(echo:*)",
    "Bash(tee:*)",
    "Bash(git config:*)",
    "Bash(ln:*)",
    "Bash(cd:*)",
];

/// One write to a protected class, as a tool call.
fn protected_writes() -> Vec<(&'static str, Value)> {
    let write = |path: &str| json!({"file_path": path, "content": "planted"});
    let edit = |path: &str| json!({"file_path": path, "old_string": "[core]", "new_string": "[core]\n\thooksPath = x"});
    let bash = |command: &str| json!({"command": command});
    vec![
        ("Write", write(".git/hooks/post-merge")),
        ("Write", write(".git/config")),
        ("Write", write(".GIT/hooks/pre-commit")),
        ("Write", write("sub/.git/hooks/pre-commit")),
        ("Write", write(".claude/settings.local.json")),
        ("Write", write(".agenthub/settings.json")),
        ("Write", write(".bashrc")),
        ("Write", write(".envrc")),
        ("Write", write(".mcp.json")),
        ("Write", write(".vscode/tasks.json")),
        ("Write", write(".husky/pre-commit")),
        ("Write", write(".github/workflows/ci.yml")),
        ("Write", write("sub/.GITHUB/Workflows/release.yml")),
        ("Edit", edit(".git/config")),
        ("Bash", bash("cp src/a.rs .git/hooks/post-merge")),
        ("Bash", bash("echo x > .claude/settings.local.json")),
        ("Bash", bash("echo '{}' | tee .mcp.json")),
        ("Bash", bash("cp src/a.rs .ag*/settings.json")),
        ("Bash", bash("git config core.hooksPath .")),
        // Writes whose destination the analysis cannot name.
        ("Bash", bash("cp src/a.rs \"$(cat dest)\"")),
        ("Bash", bash("cd .git && cp ../src/a.rs hooks/post-merge")),
        ("Bash", bash("cp -r src/. .github/")),
        ("Bash", bash("cp -r src .github")),
        // A link made and written through in one command.
        (
            "Bash",
            bash("ln -s .git/hooks h && cp src/a.rs h/post-merge"),
        ),
        ("Bash", bash("cp -s .git/config c && cp src/a.rs c")),
    ]
}

fn tools() -> &'static ToolRegistry {
    static TOOLS: OnceLock<ToolRegistry> = OnceLock::new();
    TOOLS.get_or_init(|| ToolRegistry::with_builtins().unwrap())
}

fn prepare(tool: &str, input: &Value) -> PreparedCall {
    tools()
        .prepare(&ToolCall::new("call_1", tool, input.to_string()))
        .unwrap()
}

/// The battery's workspace with `grant`'s rules where that kind of grant
/// puts them, in `mode`.
fn engine(battery: &Battery, mode: PermissionMode, grant: GrantKind) -> PolicyEngine {
    let rules = json!({ "allow": GRANTED_RULES });
    let sections = match grant {
        GrantKind::BroadAllowRule => {
            vec![(battery.home().join(".config/agenthub/settings.json"), rules)]
        }
        GrantKind::AllowedTools => vec![(battery.home().join(".claude/commands/fix.md"), rules)],
        GrantKind::SessionGrant | GrantKind::Nothing => Vec::new(),
    };
    let config = PolicyConfig::build(PolicyInput {
        workspace: &battery.proj(""),
        home: Some(&battery.home()),
        sections: &sections,
        cli: CliPermissions {
            mode: Some(&Ok(mode)),
            ..CliPermissions::default()
        },
        extra_tools: &[],
    })
    .unwrap();
    PolicyEngine::new(config, Some(battery.home()))
}

fn decide(battery: &Battery, engine: &PolicyEngine, call: &PreparedCall) -> Decision {
    engine
        .decide(&PermissionRequest {
            call,
            suggestion: None,
            workspace: &battery.workspace,
        })
        .unwrap()
}

/// The session's grants after the person said "allow for this session" to
/// an ordinary call of `tool` (for Bash, to the very same command: a grant
/// for a shell tool names its command).
fn granted_session(
    battery: &Battery,
    engine: &PolicyEngine,
    tool: &str,
    input: &Value,
) -> SessionGrants {
    let grants = SessionGrants::default();
    let ordinary = match tool {
        "Bash" => input.clone(),
        "Edit" => json!({"file_path": "src/a.rs", "old_string": "fn", "new_string": "pub fn"}),
        _ => json!({"file_path": "notes.txt", "content": "x"}),
    };
    let call = prepare(tool, &ordinary);
    let decision = decide(battery, engine, &call);
    if let Some(offer) = SessionGrants::offer(&call, &decision) {
        grants.add(offer);
    }
    grants
}

/// What the person-facing end of the pipeline sees for one protected write.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    effect: PermissionEffect,
    scope: AskScope,
    grant_offered: bool,
    grant_covers: bool,
}

fn outcome(
    battery: &Battery,
    mode: PermissionMode,
    grant: GrantKind,
    tool: &str,
    input: &Value,
) -> Outcome {
    let engine = engine(battery, mode, grant);
    let grants = match grant {
        GrantKind::SessionGrant => granted_session(battery, &engine, tool, input),
        _ => SessionGrants::default(),
    };
    let call = prepare(tool, input);
    let decision = decide(battery, &engine, &call);
    Outcome {
        effect: decision.effect,
        scope: decision.scope,
        grant_offered: SessionGrants::offer(&call, &decision).is_some(),
        grant_covers: grants.covering(&call, &decision).is_some(),
    }
}

#[test]
fn no_grant_answers_a_protected_write_in_any_mode_but_bypass() {
    let battery = Battery::new();
    let mut wrong = Vec::new();
    let writes: Vec<(&str, Value)> = protected_writes()
        .into_iter()
        .chain(crate::judged_folders::protected())
        .collect();
    for mode in MODES {
        let expected = match mode {
            PermissionMode::Plan | PermissionMode::DontAsk => Deny,
            _ => Ask,
        };
        for grant in GRANTS {
            for (tool, input) in writes.clone() {
                let found = outcome(&battery, mode, grant, tool, &input);
                let wanted = Outcome {
                    effect: expected,
                    scope: AskScope::ThisCallOnly,
                    grant_offered: false,
                    grant_covers: false,
                };
                if found != wanted {
                    wrong.push(format!("{mode:?} × {grant:?} × {tool} {input}: {found:?}"));
                }
            }
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
}

#[test]
fn the_same_grants_do_answer_ordinary_writes() {
    let battery = Battery::new();
    let ordinary = json!({"file_path": "notes.txt", "content": "x"});
    let found: Vec<(GrantKind, PermissionEffect, bool)> = GRANTS
        .iter()
        .map(|&grant| {
            let found = outcome(&battery, PermissionMode::Default, grant, "Write", &ordinary);
            (grant, found.effect, found.grant_covers)
        })
        .collect();
    assert_eq!(
        found,
        vec![
            (GrantKind::SessionGrant, Ask, true),
            (GrantKind::AllowedTools, PermissionEffect::Allow, false),
            (GrantKind::BroadAllowRule, PermissionEffect::Allow, false),
            (GrantKind::Nothing, Ask, false),
        ]
    );
}

#[test]
fn bypass_permissions_writes_protected_paths_without_asking() {
    let battery = Battery::new();
    let effects: Vec<PermissionEffect> = protected_writes()
        .iter()
        .map(|(tool, input)| {
            outcome(
                &battery,
                PermissionMode::BypassPermissions,
                GrantKind::Nothing,
                tool,
                input,
            )
            .effect
        })
        .collect();
    assert_eq!(
        effects,
        vec![PermissionEffect::Allow; protected_writes().len()]
    );
}

fn protected_name() -> impl Strategy<Value = String> {
    let names: Vec<String> = agenthub_policy::protected_names().collect();
    proptest::sample::select(names)
}

fn case_flips() -> impl Strategy<Value = Vec<bool>> {
    proptest::collection::vec(any::<bool>(), 0..24)
}

fn flip_case(text: &str, flips: &[bool]) -> String {
    text.chars()
        .zip(flips.iter().chain(std::iter::repeat(&false)))
        .map(|(character, &flip)| match flip {
            true => character.to_ascii_uppercase(),
            false => character,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A write to any protected name (the folder names written as a file
    /// of that name), at any depth, in any letter case, under any grant:
    /// never answered by the grant.
    #[test]
    fn a_generated_protected_write_is_never_granted(
        name in protected_name(),
        depth in proptest::collection::vec("[a-z]{1,6}", 0..3),
        flips in case_flips(),
        grant in proptest::sample::select(GRANTS.to_vec()),
        mode in proptest::sample::select(vec![PermissionMode::Default, PermissionMode::AcceptEdits]),
        through_shell in any::<bool>(),
    ) {
        let battery = Battery::new();
        let mut path: Vec<String> = depth;
        path.push(flip_case(&name, &flips));
        let path = path.join("/");
        let (tool, input) = match through_shell {
            true => ("Bash", json!({"command": format!("cp src/a.rs {path}")})),
            false => ("Write", json!({"file_path": path, "content": "planted"})),
        };
        let found = outcome(&battery, mode, grant, tool, &input);
        prop_assert_eq!(
            found,
            Outcome { effect: Ask, scope: AskScope::ThisCallOnly, grant_offered: false, grant_covers: false }
        );
    }
}
