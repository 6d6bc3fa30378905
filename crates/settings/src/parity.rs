//! The hook parity matrix (contract §21): for every event Claude Code, Codex or
//! Gemini CLI fires, what each of them calls it and what AgentHub does with
//! a hook configured for it. Built from the same tables the settings loader
//! uses, so the published page (docs/hook-parity.md, checked by a test)
//! cannot drift from what AgentHub reads.

use crate::event::CLAUDE_CODE_ONLY;
use crate::foreign::GEMINI_EVENTS;
use agenthub_protocol::HookEvent;

/// The events Codex fires, by their (Claude Code) names, from its hooks
/// documentation.
const CODEX_EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SubagentStop",
    "Stop",
];

/// Gemini CLI's events that have no counterpart anywhere else.
const GEMINI_ONLY: &[&str] = &["BeforeModel", "AfterModel", "BeforeToolSelection"];

/// The matrix as a Markdown page.
pub fn parity_matrix() -> String {
    let mut page = String::from(
        "# Hook events: Claude Code, Codex, Gemini CLI and AgentHub\n\n\
         Generated from the settings loader's tables by `cargo test -p agenthub-settings --test it parity`\n\
         (`AGENTHUB_WRITE_PARITY=1` rewrites it). A name in the Codex or Gemini CLI column is\n\
         what that agent's configuration calls the event; AgentHub reads `.codex/hooks.json`, the `[hooks]` of\n\
         `.codex/config.toml` and the `hooks` of `.gemini/settings.json` (user and trusted project files) and runs their\n\
         hooks on the AgentHub event of the row.\n\n\
         | event | Claude Code | Codex | Gemini CLI | AgentHub |\n|---|---|---|---|---|\n",
    );
    let fired = HookEvent::ALL.iter().map(|event| event.as_str());
    let claude = fired.chain(CLAUDE_CODE_ONLY.iter().copied());
    for event in claude {
        let codex = if CODEX_EVENTS.contains(&event) {
            event
        } else {
            "—"
        };
        let gemini = GEMINI_EVENTS
            .iter()
            .find(|(_, ours)| *ours == event)
            .map_or("—", |(theirs, _)| theirs);
        let ours = if HookEvent::parse(event).is_some() {
            "runs"
        } else {
            "ignored with a warning"
        };
        page.push_str(&format!(
            "| {event} | {event} | {codex} | {gemini} | {ours} |\n"
        ));
    }
    for event in GEMINI_ONLY {
        page.push_str(&format!(
            "| {event} | — | — | {event} | ignored with a warning |\n"
        ));
    }
    page
}
