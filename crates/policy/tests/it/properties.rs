//! Metamorphic properties of the policy (a rule's verdict must not change under renaming, reordering or equivalent spellings):
//! adding a deny rule never enlarges what is allowed; appending `&& X`, `; X`
//! or `| X` to an allowed command never allows a denied `X`; a command that
//! does not parse is never allowed.

use crate::support;

use agenthub_policy::shell::{analyse, ShellReport};
use agenthub_policy::PermissionMode;
use proptest::prelude::*;
use serde_json::json;
use std::sync::OnceLock;
use support::*;

fn battery() -> &'static Battery {
    static BATTERY: OnceLock<Battery> = OnceLock::new();
    BATTERY.get_or_init(Battery::new)
}

const COMMANDS: [&str; 12] = [
    "ls -la",
    "git status",
    "npm run test",
    "rm -rf x",
    "curl http://x",
    "cat .env",
    "echo hi",
    "git push",
    "ls $(id)",
    "timeout 5 ls",
    "FOO=1 git status",
    "cat src/a.rs",
];
const SEPARATORS: [&str; 7] = [" && ", " || ", "; ", " | ", " |& ", " & ", "\n"];
const DENY_RULES: [&str; 10] = [
    "Bash(ls *)",
    "Bash(git:*)",
    "Bash(echo hi)",
    "Bash",
    "Read(./src/**)",
    "Edit(*)",
    "Bash(*push*)",
    "Bash(timeout *)",
    "Read(*.rs)",
    "Write",
];
const PATHS: [&str; 8] = [
    "src/a.rs",
    ".env",
    "src/new.rs",
    "../outside/x",
    "notes.md",
    ".git/config",
    "src",
    "a/b/c.txt",
];
const TOOLS: [&str; 5] = ["Read", "Write", "Edit", "Glob", "Grep"];
const MODES: [PermissionMode; 5] = [
    PermissionMode::Default,
    PermissionMode::AcceptEdits,
    PermissionMode::Plan,
    PermissionMode::DontAsk,
    PermissionMode::BypassPermissions,
];
const ALLOWED: [&str; 6] = [
    "ls",
    "ls -la src",
    "git status",
    "git status --short",
    "npm run test",
    "NODE_ENV=test npm run test",
];
const DENIED: [&str; 8] = [
    "rm -rf x",
    "curl http://x",
    "timeout 5 rm x",
    "FOO=1 curl y",
    "bash -c 'rm x'",
    "nice -n 5 rm x",
    "cat .env",
    "/bin/rm -r y",
];

fn compound() -> impl Strategy<Value = String> {
    (
        prop::sample::select(COMMANDS.to_vec()),
        prop::collection::vec(
            (
                prop::sample::select(SEPARATORS.to_vec()),
                prop::sample::select(COMMANDS.to_vec()),
            ),
            0..3,
        ),
    )
        .prop_map(|(first, rest)| {
            rest.into_iter()
                .fold(first.to_owned(), |line, (separator, command)| {
                    line + separator + command
                })
        })
}

fn input_for(tool: &str, path: &str) -> serde_json::Value {
    match tool {
        "Glob" | "Grep" => json!({"pattern": "*", "path": path}),
        "Edit" => json!({"file_path": path, "old_string": "a", "new_string": "b"}),
        _ => json!({"file_path": path, "content": "x"}),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn adding_a_deny_rule_never_enlarges_what_bash_may_do(
        command in compound(),
        rule in prop::sample::select(DENY_RULES.to_vec()),
        mode in prop::sample::select(MODES.to_vec()),
    ) {
        let battery = battery();
        let input = json!({ "command": command });
        let before = battery.explain(&battery.engine(mode), "Bash", input.clone(), None).decision;
        let after = battery.explain(&battery.engine_with(mode, json!({"deny": [rule]})), "Bash", input, None).decision;
        prop_assert!(after.effect >= before.effect, "{command:?} + deny {rule}: {before:?} -> {after:?}");
    }

    #[test]
    fn adding_a_deny_rule_never_enlarges_what_file_tools_may_do(
        tool in prop::sample::select(TOOLS.to_vec()),
        path in prop::sample::select(PATHS.to_vec()),
        rule in prop::sample::select(DENY_RULES.to_vec()),
        mode in prop::sample::select(MODES.to_vec()),
        hook in prop::option::of(prop::sample::select(vec![Allow, Ask, Deny])),
    ) {
        let battery = battery();
        let before = battery.explain(&battery.engine(mode), tool, input_for(tool, path), hook).decision;
        let after = battery.explain(&battery.engine_with(mode, json!({"deny": [rule]})), tool, input_for(tool, path), hook).decision;
        prop_assert!(after.effect >= before.effect, "{tool} {path} + deny {rule}: {before:?} -> {after:?}");
    }

    #[test]
    fn appending_a_denied_command_to_an_allowed_one_is_denied(
        allowed in prop::sample::select(ALLOWED.to_vec()),
        separator in prop::sample::select(vec![" && ", "; ", " | ", " || ", "\n", " & "]),
        denied in prop::sample::select(DENIED.to_vec()),
        mode in prop::sample::select(MODES.to_vec()),
        hook in prop::option::of(prop::sample::select(vec![Allow, Ask])),
    ) {
        let battery = battery();
        let engine = battery.engine(mode);
        let alone = battery.explain(&engine, "Bash", json!({"command": allowed}), None).decision;
        prop_assume!(mode == PermissionMode::Plan || alone.effect == Allow);
        let line = format!("{allowed}{separator}{denied}");
        let decision = battery.explain(&engine, "Bash", json!({"command": line}), hook).decision;
        prop_assert_eq!(decision.effect, Deny, "{:?}: {}", line, decision.reason);
    }

    #[test]
    fn a_command_that_does_not_parse_is_never_allowed(
        line in "[a-z $()`'\"{};|&<>\\\\=-]{1,24}",
        hook in prop::option::of(prop::sample::select(vec![Allow])),
    ) {
        let unparsable = matches!(analyse(&line), ShellReport::Analysed(a) if a.parse_error.is_some());
        prop_assume!(unparsable);
        let battery = battery();
        let engine = battery.engine_with(PermissionMode::BypassPermissions, json!({"allow": ["Bash"]}));
        let decision = battery.explain(&engine, "Bash", json!({"command": line}), hook).decision;
        prop_assert_ne!(decision.effect, Allow, "{:?}", line);
    }
}
