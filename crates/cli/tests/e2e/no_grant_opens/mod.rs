//! What no grant can answer, door by door (contract §28): for every front
//! door (`run`, the interactive session, `acp`, `mcp serve`, batch,
//! subagents, a command's inline shell) × every permission mode but
//! bypassPermissions × every grant that door can hold (a session grant —
//! `a` or ACP's `allow_always` — given for an ordinary Write and Edit, a
//! custom command's `allowed-tools`, a broad allow rule), the writes to
//! protected paths are put to the person (headless: refused as "approval
//! required"; plan and dontAsk: denied by the mode) and never run. The
//! decision itself is searched in `crates/policy/tests/it/no_grant_answers.rs`;
//! these tests show every door passes it. (The fleet worker runs a task as
//! batch does, `agenthub_fleet::run_task`, with a per-call approver.)

mod headless;
mod interactive;

use crate::support::home::Home;
use serde_json::{json, Value};

/// The permission modes but bypassPermissions.
pub const MODES: [&str; 4] = ["default", "acceptEdits", "plan", "dontAsk"];

/// The grants a door may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrantKind {
    /// "Allow for this session", given when the ordinary Write and Edit ask.
    SessionGrant,
    /// The prompt is `/plant`, a user command whose `allowed-tools` allow
    /// Write, Edit and `cp`.
    AllowedTools,
    /// The user's settings allow `Write`, `Edit(**)` and `Bash(cp:*)`.
    BroadAllowRule,
}

/// The grants of a door with nobody to answer (no session grant there).
pub const HEADLESS_GRANTS: [GrantKind; 2] = [GrantKind::AllowedTools, GrantKind::BroadAllowRule];

/// The grants of a door that runs no custom command and has nobody to
/// answer (batch, `agenthub_run`): a `/plant` prompt is plain text there.
pub const RULE_GRANTS: [GrantKind; 1] = [GrantKind::BroadAllowRule];

/// Every grant.
pub const ALL_GRANTS: [GrantKind; 3] = [
    GrantKind::SessionGrant,
    GrantKind::AllowedTools,
    GrantKind::BroadAllowRule,
];

const GRANTED: [&str; 3] = ["Write", "Edit(**)", "Bash(cp:*)"];
const GIT_CONFIG: &str = "[core]\n\tbare = false\n";

/// The ordinary calls (what a session grant is given for).
pub fn ordinary_calls() -> Value {
    json!([
        {"id": "o1", "name": "Write", "arguments": {"file_path": "notes2.txt", "content": "fine"}},
        {"id": "o2", "name": "Edit", "arguments": {"file_path": "notes.txt", "old_string": "hi", "new_string": "ho"}},
    ])
}

/// One write to each protected class.
pub fn protected_calls() -> Value {
    json!([
        {"id": "p1", "name": "Write", "arguments": {"file_path": ".git/hooks/post-merge", "content": "touch pwned"}},
        {"id": "p2", "name": "Write", "arguments": {"file_path": ".claude/settings.local.json", "content": "{}"}},
        {"id": "p3", "name": "Edit", "arguments": {"file_path": ".git/config", "old_string": "bare = false", "new_string": "hooksPath = ."}},
        {"id": "p4", "name": "Bash", "arguments": {"command": "cp notes.txt .git/hooks/pre-commit"}},
        {"id": "p5", "name": "Write", "arguments": {"file_path": ".github/workflows/ci.yml", "content": "on: push"}},
    ])
}

pub const PROTECTED_IDS: [&str; 5] = ["p1", "p2", "p3", "p4", "p5"];

/// The ordinary calls, then the protected ones, then an answer.
pub fn script() -> Value {
    json!({"turns": [
        {"content": "ordinary", "tool_calls": ordinary_calls()},
        {"content": "protected", "tool_calls": protected_calls()},
        {"content": "done"},
    ]})
}

/// A workspace with a git folder, `notes.txt` and (for the allowed-tools
/// grant) the user's `/plant` command; the user's settings in `mode`, with
/// the broad allow rules when `grant` is one.
pub fn case(mode: &str, grant: GrantKind) -> Home {
    let home = Home::new();
    home.write("ws/notes.txt", "hi\n");
    home.write("ws/.git/config", GIT_CONFIG);
    std::fs::create_dir_all(home.ws().join(".git/hooks")).unwrap();
    std::fs::create_dir_all(home.ws().join(".claude")).unwrap();
    home.write(
        "home/.claude/commands/plant.md",
        "---\nallowed-tools: Write, Edit, Bash(cp:*)\ndescription: plants\n---\nPlant things.\n",
    );
    let mut permissions = json!({"defaultMode": mode});
    if grant == GrantKind::BroadAllowRule {
        permissions["allow"] = json!(GRANTED);
    }
    home.settings(json!({ "permissions": permissions }));
    home
}

/// The prompt that holds `grant`'s rules: `/plant` for allowed-tools.
pub fn prompt(grant: GrantKind) -> &'static str {
    match grant {
        GrantKind::AllowedTools => "/plant",
        _ => "go",
    }
}

/// What the transcript must say of each protected call in `mode`: asked
/// (for a protected path), then refused by whoever answered; or denied by
/// the mode without asking.
pub fn expected(mode: &str) -> Value {
    let each = match mode {
        "plan" | "dontAsk" => json!([["deny", "mode"]]),
        _ => json!([["ask", "protected-path"], ["deny", "approval"]]),
    };
    PROTECTED_IDS
        .iter()
        .map(|id| (id.to_string(), each.clone()))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// Each protected call's permission records `[effect, source]` in `records`.
pub fn found(records: &[Value]) -> Value {
    PROTECTED_IDS
        .iter()
        .map(|id| {
            let decisions: Vec<Value> = records
                .iter()
                .filter(|record| record["type"] == "permission" && record["tool_use_id"] == *id)
                .map(|record| json!([record["effect"], record["source"]]))
                .collect();
            (id.to_string(), Value::Array(decisions))
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// What the protected paths hold now: nothing planted, `.git/config` as it was.
pub fn protected_state(home: &Home) -> Value {
    let ws = home.ws();
    let hooks: Vec<String> = std::fs::read_dir(ws.join(".git/hooks"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    json!({
        "hooks": hooks,
        "settings.local.json": ws.join(".claude/settings.local.json").exists(),
        "workflow": ws.join(".github/workflows/ci.yml").exists(),
        "git config": std::fs::read_to_string(ws.join(".git/config")).unwrap(),
        "ordinary write ran": ws.join("notes2.txt").exists(),
    })
}

/// The protected state untouched, while the grant did let the ordinary
/// Write run (so the grant was real) in default and acceptEdits; plan
/// runs no write; under dontAsk it depends on the grant, so it is not
/// compared there.
pub fn untouched(mode: &str) -> Value {
    let mut state = json!({"hooks": [], "settings.local.json": false, "workflow": false,
        "git config": GIT_CONFIG});
    if mode != "dontAsk" {
        state["ordinary write ran"] = json!(mode != "plan");
    }
    state
}

/// Collects one door's mismatches: `(door, mode, grant)` with what was found.
#[derive(Default)]
pub struct Mismatches(Vec<String>);

impl Mismatches {
    pub fn check(
        &mut self,
        door: &str,
        mode: &str,
        grant: GrantKind,
        home: &Home,
        records: &[Value],
    ) {
        let mut state = protected_state(home);
        if mode == "dontAsk" {
            state.as_object_mut().unwrap().remove("ordinary write ran");
        }
        let seen = json!({"decisions": found(records), "state": state});
        let wanted = json!({"decisions": expected(mode), "state": untouched(mode)});
        if seen != wanted {
            self.0.push(format!("{door} × {mode} × {grant:?}: {seen}"));
        }
    }

    pub fn note(&mut self, line: String) {
        self.0.push(line);
    }

    pub fn assert_none(self) {
        assert_eq!(self.0, Vec::<String>::new());
    }
}
