//! `agenthub sessions list`: this workspace's sessions, most recent first —
//! id, when it started, turns, how it last ended, and its first prompt — as
//! text or as JSON for scripts. Finding them is the library's.

use crate::args::sessions::{ListFormat, SessionsArgs, SessionsCommand};
use crate::error::CliError;
use agenthub::{list_sessions, resolve_workspace, SessionSummary};
use serde_json::{json, Value};
use std::fmt::Write;

/// The longest first prompt shown in the text list, in characters.
const PROMPT_SHOWN: usize = 60;

pub fn run(args: SessionsArgs) -> Result<u8, CliError> {
    let SessionsCommand::List(args) = args.command;
    let workspace = resolve_workspace(args.workspace.as_deref())?;
    let sessions = list_sessions(&workspace);
    let text = match args.output_format {
        ListFormat::Json => format!("{}\n", Value::Array(sessions.iter().map(to_json).collect())),
        ListFormat::Text => render(&sessions),
    };
    crate::output::print_stdout(&text);
    Ok(0)
}

fn to_json(session: &SessionSummary) -> Value {
    let saved = &session.saved;
    json!({
        "session_id": saved.record.session_id,
        "created": saved.record.created,
        "model": saved.record.model,
        "first_prompt": saved.first_prompt,
        "turns": saved.turns,
        "last_status": saved.last_status.map(|status| status.as_str()),
        "transcript": session.path.display().to_string(),
    })
}

pub(crate) fn render(sessions: &[SessionSummary]) -> String {
    if sessions.is_empty() {
        return "no sessions in this workspace\n".to_owned();
    }
    let mut text = String::new();
    for session in sessions {
        let saved = &session.saved;
        let status = saved.last_status.map_or("-", |status| status.as_str());
        let prompt = saved.first_prompt.as_deref().unwrap_or("");
        let shown: String = prompt.chars().take(PROMPT_SHOWN).collect();
        let more = if prompt.chars().count() > PROMPT_SHOWN {
            "…"
        } else {
            ""
        };
        let _ = writeln!(
            text,
            "{}  {}  {:>3} turns  {:<9}  {}{more}",
            saved.record.session_id,
            saved.record.created,
            saved.turns,
            status,
            shown.replace('\n', " ")
        );
    }
    text
}
