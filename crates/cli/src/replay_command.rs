//! `agenthub replay SESSION…` (contract §25): every recorded tool call
//! decided again under the session workspace's own settings plus the flags,
//! without running a tool. Per call the recorded and the new decision, then a
//! summary; exit 0 when nothing changed, 1 when something did, 2 for a usage
//! or configuration error. The deciding is the library's
//! (`agenthub::replay`); this file is flags, lookup and output.

use crate::args::replay::{ReplayArgs, ReplayFormat};
use crate::error::CliError;
use agenthub::replay::{
    read_recorded_session, replay_session, Change, Decided, HookReplay, RecordedSession,
    SessionReplay,
};
use agenthub::Assembly;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

pub async fn run(args: ReplayArgs) -> Result<u8, CliError> {
    let hooks = if args.with_hooks {
        HookReplay::Run
    } else {
        HookReplay::Recorded
    };
    let mut replays = Vec::new();
    for session in &args.sessions {
        let recorded = find(session, args.workspace.as_deref())?;
        let workspace = args
            .workspace
            .clone()
            .unwrap_or_else(|| PathBuf::from(&recorded.record.workspace));
        if !workspace.is_dir() {
            return Err(CliError::Usage(format!(
                "session {} ran in {}, which does not exist here; give --workspace DIR (a checkout of that project)",
                recorded.record.session_id,
                workspace.display()
            )));
        }
        let options = crate::setup::options(
            Some(workspace),
            args.settings.clone(),
            args.permissions.options(),
            args.trust,
        );
        let assembly = Assembly::load(&options)?;
        crate::setup::print_warnings(&assembly);
        replays.push(replay_session(&assembly, &recorded, hooks).await);
    }
    let text = match args.output_format {
        ReplayFormat::Text => render_text(&replays),
        ReplayFormat::Json => format!("{:#}\n", to_json(&replays)),
    };
    crate::output::print_stdout(&text);
    Ok(u8::from(replays.iter().any(SessionReplay::changed)))
}

/// A transcript file, or a session id of the workspace (`--workspace`, else
/// the current directory).
fn find(session: &str, workspace: Option<&Path>) -> Result<RecordedSession, CliError> {
    let as_path = Path::new(session);
    let path = if as_path.is_file() {
        as_path.to_path_buf()
    } else {
        let workspace = agenthub::resolve_workspace(workspace)?;
        agenthub::find_session(&workspace, session)
            .map_err(|error| CliError::Usage(error.to_string()))?
            .path
    };
    read_recorded_session(&path).map_err(|error| CliError::Usage(error.to_string()))
}

fn decided_text(decided: &Decided) -> String {
    let mut text = format!("{} ({})", decided.effect, decided.by);
    if let Some((effect, by)) = &decided.approval {
        text.push_str(&format!(", answered {effect} by {by}"));
    }
    text
}

fn render_text(replays: &[SessionReplay]) -> String {
    let mut text = String::new();
    for replay in replays {
        text.push_str(&format!(
            "session {} ({})\n",
            replay.session_id,
            replay.transcript.display()
        ));
        for call in &replay.calls {
            let agent = call
                .agent_id
                .as_deref()
                .map(|agent| format!(" [subagent {agent}]"))
                .unwrap_or_default();
            let mark = match call.change {
                Change::Unchanged => "  ",
                _ => "! ",
            };
            text.push_str(&format!(
                "{mark}{} {}{agent}: recorded {} -> now {}{}\n",
                call.tool_use_id,
                call.tool_name,
                decided_text(&call.recorded),
                decided_text(&call.replayed),
                match call.change {
                    Change::Unchanged => String::new(),
                    change => format!("  [{}]", change.as_str()),
                }
            ));
        }
        for skipped in &replay.skipped {
            text.push_str(&format!(
                "  {} {}: skipped, {}\n",
                skipped.tool_use_id, skipped.tool_name, skipped.reason
            ));
        }
    }
    let summary = Summary::of(replays);
    text.push_str(&format!(
        "{} in {}: {} newly denied, {} newly allowed, {} changed, {} unchanged, {} skipped\n",
        counted(summary.calls, "call", "calls"),
        counted(replays.len(), "session", "sessions"),
        summary.newly_denied,
        summary.newly_allowed,
        summary.changed,
        summary.calls - summary.changed,
        summary.skipped
    ));
    text
}

/// `1 call`, `3 calls`.
fn counted(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

struct Summary {
    calls: usize,
    newly_denied: usize,
    newly_allowed: usize,
    changed: usize,
    skipped: usize,
}

impl Summary {
    fn of(replays: &[SessionReplay]) -> Self {
        let sum = |count: &dyn Fn(&SessionReplay) -> usize| replays.iter().map(count).sum();
        Summary {
            calls: sum(&|replay| replay.calls.len()),
            newly_denied: sum(&|replay| replay.count(Change::NewlyDenied)),
            newly_allowed: sum(&|replay| replay.count(Change::NewlyAllowed)),
            changed: sum(&|replay| replay.calls.len() - replay.count(Change::Unchanged)),
            skipped: sum(&|replay| replay.skipped.len()),
        }
    }
}

fn decided_json(decided: &Decided) -> Value {
    let approval = decided
        .approval
        .as_ref()
        .map(|(effect, by)| json!({ "decision": effect.as_str(), "by": by }));
    json!({ "decision": decided.effect.as_str(), "by": decided.by, "approval": approval })
}

fn to_json(replays: &[SessionReplay]) -> Value {
    let sessions: Vec<Value> = replays
        .iter()
        .map(|replay| {
            let calls: Vec<Value> = replay
                .calls
                .iter()
                .map(|call| {
                    json!({
                        "tool_use_id": call.tool_use_id,
                        "tool_name": call.tool_name,
                        "agent_id": call.agent_id,
                        "recorded": decided_json(&call.recorded),
                        "replayed": decided_json(&call.replayed),
                        "change": call.change.as_str(),
                    })
                })
                .collect();
            let skipped: Vec<Value> = replay
                .skipped
                .iter()
                .map(|call| {
                    json!({
                        "tool_use_id": call.tool_use_id,
                        "tool_name": call.tool_name,
                        "agent_id": call.agent_id,
                        "reason": call.reason,
                    })
                })
                .collect();
            json!({
                "session_id": replay.session_id,
                "transcript": replay.transcript,
                "workspace": replay.workspace,
                "calls": calls,
                "skipped": skipped,
            })
        })
        .collect();
    let summary = Summary::of(replays);
    json!({
        "sessions": sessions,
        "summary": {
            "calls": summary.calls,
            "newly_denied": summary.newly_denied,
            "newly_allowed": summary.newly_allowed,
            "changed": summary.changed,
            "unchanged": summary.calls - summary.changed,
            "skipped": summary.skipped,
        },
        "changed": summary.changed > 0,
    })
}
