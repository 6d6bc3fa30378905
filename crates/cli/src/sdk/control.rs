//! The SDK's control requests (contract §30), each answered: `initialize`
//! (its setup kept for the session), `interrupt` (the running turn ends as
//! Ctrl-C ends it), and those the session answers in order with the user
//! messages around them — `set_permission_mode`, `set_model`,
//! `mcp_status`, `end_session`. Requests that only tune Claude Code's own
//! interface are accepted and named once on stderr; those of Claude Code's
//! AgentHub has no part for are answered with an error and named once; any
//! other subtype is answered with an error. None is ever left unanswered.

use super::channel::Channel;
use super::initialize::SdkSetup;
use super::session::Command;
use agenthub::CurrentTurn;
use serde_json::{json, Map, Value};
use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::mpsc::UnboundedSender;

/// Requests that mean nothing to AgentHub: accepted, named once.
const ACCEPTED: [&str; 9] = [
    "set_max_thinking_tokens",
    "set_prompt_suggestions_paused",
    "prompt_draft_activity",
    "message_rated",
    "set_chrome_browser_hints",
    "reload_output_styles",
    "reload_plugins",
    "reload_skills",
    "mirror_error",
];

/// Requests the pinned SDKs can send that AgentHub has no part for (Claude
/// Code's own dialogs, accounts, remote sessions, its file rewind and
/// context counters): answered with an error, and named once on stderr.
const UNSUPPORTED: [&str; 42] = [
    "get_context_usage",
    "rewind_files",
    "mcp_reconnect",
    "mcp_toggle",
    "stop_task",
    "mcp_set_servers",
    "mcp_read_resource",
    "mcp_authenticate",
    "mcp_clear_auth",
    "mcp_oauth_callback_url",
    "set_mcp_permission_mode_override",
    "get_usage",
    "get_status",
    "get_settings",
    "update_settings",
    "get_plan",
    "get_task_output",
    "get_hooks_listing",
    "list_permission_rules",
    "get_skills_dialog",
    "get_sandbox_dialog",
    "get_memory_dialog",
    "get_chrome_dialog",
    "get_chrome_browsers",
    "select_chrome_browser",
    "generate_session_title",
    "rename_session",
    "export_conversation",
    "side_question",
    "seed_read_state",
    "read_file",
    "set_cwd",
    "remote_control",
    "set_peer_delivery",
    "decide_held_peer_message",
    "update_queued_message",
    "submit_feedback",
    "submit_survey_feedback",
    "ultrareview_launch",
    "claude_authenticate",
    "claude_oauth_callback",
    "claude_oauth_wait_for_completion",
];

/// Answers the SDK's requests as the reader hands them over.
pub struct Control {
    pub channel: Arc<Channel>,
    pub turn: CurrentTurn,
    /// What `initialize` set up, taken by the session when it opens.
    pub setup: Arc<Mutex<Option<SdkSetup>>>,
    /// The session's queue.
    pub commands: UnboundedSender<Command>,
    /// What was named on stderr already.
    named: Mutex<HashSet<String>>,
}

impl Control {
    pub fn new(
        channel: Arc<Channel>,
        turn: CurrentTurn,
        setup: Arc<Mutex<Option<SdkSetup>>>,
        commands: UnboundedSender<Command>,
    ) -> Control {
        Control {
            channel,
            turn,
            setup,
            commands,
            named: Mutex::new(HashSet::new()),
        }
    }

    /// Answers request `id`, or queues it for the session to answer.
    pub fn handle(&self, id: String, request: Map<String, Value>) {
        let subtype = request
            .get("subtype")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let text = |key: &str| request.get(key).and_then(Value::as_str).map(str::to_owned);
        let queued = match subtype.as_str() {
            "initialize" => return self.initialize(&id, &request),
            "interrupt" => {
                self.turn.cancel();
                return self.channel.respond(&id, Ok(json!({})));
            }
            "set_permission_mode" => match text("mode") {
                Some(mode) => Command::SetMode { id, mode },
                None => return self.refuse(&id, "set_permission_mode needs a string `mode`"),
            },
            "set_model" => Command::SetModel {
                id,
                model: text("model"),
            },
            "mcp_status" => Command::McpStatus { id },
            "end_session" => Command::End { id },
            accepted if ACCEPTED.contains(&accepted) => {
                self.name_once(&format!(
                    "control request `{accepted}` means nothing to AgentHub; accepted and ignored"
                ));
                return self.channel.respond(&id, Ok(json!({})));
            }
            unsupported if UNSUPPORTED.contains(&unsupported) => {
                let why = format!(
                    "control request `{unsupported}` is Claude Code's and AgentHub has no part for it"
                );
                self.name_once(&format!("{why}; answered with an error"));
                return self.refuse(&id, &why);
            }
            other => {
                return self.refuse(
                    &id,
                    &format!("`{other}` is not a control request AgentHub knows"),
                )
            }
        };
        if let Err(unsent) = self.commands.send(queued) {
            self.refuse(unsent.0.id(), "the session has ended");
        }
    }

    fn initialize(&self, id: &str, request: &Map<String, Value>) {
        match SdkSetup::read(request) {
            Ok(setup) => {
                for field in &setup.ignored {
                    self.name_once(&format!(
                        "initialize: `{field}` means nothing to AgentHub; ignored"
                    ));
                }
                self.channel.respond(id, Ok(setup.answer(&[])));
                *self.setup.lock().unwrap_or_else(PoisonError::into_inner) = Some(setup);
            }
            Err(why) => self.refuse(id, &format!("initialize: {why}")),
        }
    }

    fn refuse(&self, id: &str, why: &str) {
        self.channel.respond(id, Err(why.to_owned()));
    }

    /// Writes `note` on stderr the first time only.
    pub fn name_once(&self, note: &str) {
        let first = self
            .named
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(note.to_owned());
        if first {
            crate::terminal::eprintln_neutral!("agenthub: {note}");
        }
    }
}
