//! The loop of one run (contract §2). It stays small by construction: behaviour
//! arrives as a hook, a tool or a provider, never as another branch here.

use crate::answer_schema::AnswerCheck;
use crate::budget::TokenTally;
use crate::loop_guard::RepeatTracker;
use crate::round::RoundEnd;
use crate::tally::Tally;
use crate::{Agent, AgentEvent, RunReport};
use agenthub_hooks::{
    HookCommon, HookRun, SessionEndContext, SessionEndReason, SessionSource, SessionStartContext,
    StopContext, StopDecision, UserPromptSubmitContext, UserPromptSubmitVerdict,
};
use agenthub_model::RequestPurpose;
use agenthub_model::{AssistantReply, ModelError, ModelEvents, ModelRequest};
use agenthub_protocol::{
    check_pairing, HookRecord, Message, OutcomeRecord, RunStatus, StopReason, Usage, UsageRecord,
};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// The state of one run: one prompt of a session, from the prompt to its
/// outcome, over the session's history.
pub(crate) struct Run<'a> {
    pub(crate) agent: &'a Agent,
    pub(crate) cancel: CancellationToken,
    pub(crate) history: Vec<Message>,
    /// How much of the history already passed the pairing check: a prefix
    /// that passed stays valid (messages are only appended), so each check
    /// reads only what is new and a long session costs the same per turn.
    checked: usize,
    /// The history's tokens, counted once per message.
    tokens: TokenTally,
    pub(crate) turns: u32,
    forced_continuations: u32,
    pub(crate) tally: Tally,
    /// The loop guard's count of identical calls in a row.
    pub(crate) repeats: RepeatTracker,
    /// How many of the final answers were refused by the answer schema.
    pub(crate) schema_retries: u32,
    /// The final answer as JSON, once the answer schema accepted it.
    pub(crate) structured_output: Option<serde_json::Value>,
    /// A reply cut at the output limit awaits its one continuation
    /// (contract §33, `cut_reply.rs`): the text the final answer starts with.
    pub(crate) cut: Option<String>,
}

/// How a run ended, before it becomes a report.
pub(crate) struct Ending {
    pub(crate) status: RunStatus,
    pub(crate) result: Option<String>,
    pub(crate) error: Option<String>,
}

impl Ending {
    pub(crate) fn new(status: RunStatus, result: Option<String>, error: Option<String>) -> Self {
        Ending {
            status,
            result,
            error,
        }
    }

    pub(crate) fn cancelled() -> Self {
        Ending::new(
            RunStatus::Cancelled,
            None,
            Some("the run was cancelled".to_owned()),
        )
    }
}

impl<'a> Run<'a> {
    /// A run over `history` (empty for a new session); the whole history is
    /// checked before its first model request.
    pub(crate) fn new(agent: &'a Agent, cancel: CancellationToken, history: Vec<Message>) -> Self {
        Run {
            agent,
            cancel,
            checked: 0,
            tokens: TokenTally::default(),
            history,
            turns: 0,
            forced_continuations: 0,
            tally: Tally::start(),
            repeats: RepeatTracker::default(),
            schema_retries: 0,
            structured_output: None,
            cut: None,
        }
    }

    pub(crate) fn hook_common(&self) -> HookCommon {
        HookCommon {
            session_id: self.agent.session_id.clone(),
            workspace: self.agent.workspace.root().to_path_buf(),
            transcript_path: self.agent.transcript_path.clone(),
            permission_mode: self.agent.policy.mode(),
            cancel: self.cancel.clone(),
            agent: self.agent.subagent.clone(),
        }
    }

    /// What a Task call of this run reaches: `None` in a subagent's run.
    pub(crate) fn parent_scope(&self, tool_use_id: &str) -> Option<crate::subagent::ParentScope> {
        self.agent
            .parent_parts
            .as_ref()
            .map(|parts| crate::subagent::ParentScope {
                parts: parts.clone(),
                subagents: self.tally.subagents.clone(),
                tool_use_id: tool_use_id.to_owned(),
            })
    }

    pub(crate) fn emit(&self, event: AgentEvent<'_>) {
        // Only permission audits must not fail silently; the pipeline checks those itself.
        let _ = self.agent.observer.on_event(&event);
    }

    pub(crate) fn emit_hook_records(&self, records: &[HookRecord]) {
        for record in records {
            self.emit(AgentEvent::Hook(record));
        }
    }

    /// Tells the observers every hook record, then what the hooks asked to show the user.
    pub(crate) fn emit_hook_run<V>(&self, run: &HookRun<V>) {
        self.emit_hook_records(&run.records);
        for message in &run.messages {
            self.emit(AgentEvent::Warning(message));
        }
    }

    pub(crate) fn push(&mut self, message: Message) {
        self.emit(AgentEvent::Message(&message));
        self.history.push(message);
    }

    /// Awaits `future` unless the run is cancelled first.
    pub(crate) async fn unless_cancelled<T>(
        &self,
        future: impl std::future::Future<Output = T>,
    ) -> Option<T> {
        tokio::select! {
            biased;
            () = self.cancel.cancelled() => None,
            value = future => Some(value),
        }
    }

    /// The SessionStart hooks of a session that starts (or resumes) with this
    /// run; `Some` when they end it before the prompt.
    pub(crate) async fn start(&mut self, source: SessionSource) -> Option<Ending> {
        if self.history.is_empty() {
            if let Some(text) = self.agent.system_prompt.as_ref().filter(|t| !t.is_empty()) {
                self.push(Message::system(text.clone()));
            }
            self.instructions_loaded().await;
        }
        let start = SessionStartContext {
            common: self.hook_common(),
            source,
            model: self.agent.model_name.clone(),
        };
        let Some(started) = self
            .unless_cancelled(self.agent.hooks.run_session_start(start))
            .await
        else {
            return Some(Ending::cancelled());
        };
        self.emit_hook_run(&started);
        if let Some(failure) = started.verdict.failure {
            return Some(Ending::new(RunStatus::Failed, None, Some(failure)));
        }
        if let Some(reason) = started.verdict.stop {
            return Some(Ending::new(RunStatus::Stopped, None, Some(reason)));
        }
        self.push_context(started.verdict.context);
        None
    }

    /// The prompt, its UserPromptSubmit hooks, then the turns until an ending.
    pub(crate) async fn drive(&mut self, prompt: &str) -> Ending {
        if let Err(too_large) = self.agent.budget().check_prompt(prompt) {
            return Ending::new(RunStatus::Failed, None, Some(too_large.to_string()));
        }
        self.push(Message::user(self.first_message(prompt)));
        let submit = UserPromptSubmitContext {
            common: self.hook_common(),
            prompt: prompt.to_owned(),
        };
        let Some(submitted) = self
            .unless_cancelled(self.agent.hooks.run_user_prompt_submit(submit))
            .await
        else {
            return Ending::cancelled();
        };
        self.emit_hook_run(&submitted);
        match submitted.verdict {
            UserPromptSubmitVerdict::Proceed { context } => self.push_context(context),
            UserPromptSubmitVerdict::Blocked { reason, context } => {
                self.push_context(context);
                return Ending::new(RunStatus::Blocked, None, Some(reason));
            }
            UserPromptSubmitVerdict::Stopped { reason, context } => {
                self.push_context(context);
                return Ending::new(RunStatus::Stopped, None, Some(reason));
            }
            UserPromptSubmitVerdict::Failed { message } => {
                return Ending::new(RunStatus::Failed, None, Some(message))
            }
        }
        self.turn_loop().await
    }

    /// The user message `prompt` is sent as: with the agent's workspace
    /// context in front (contract §33) when the conversation has no user
    /// message yet, else the prompt alone.
    fn first_message(&self, prompt: &str) -> String {
        let started = self
            .history
            .iter()
            .any(|message| matches!(message, Message::User { .. }));
        match (&self.agent.workspace_context, started) {
            (Some(context), false) => agenthub_protocol::with_reminder(context, prompt),
            _ => prompt.to_owned(),
        }
    }

    async fn turn_loop(&mut self) -> Ending {
        loop {
            self.auto_compact().await;
            if let Some(ending) = self.checkpoint() {
                return ending;
            }
            let reply = match self.request_reply().await {
                Ok(reply) => reply,
                Err(ending) => return ending,
            };
            let calls = reply.tool_calls.clone();
            let candidate = reply.content.clone().unwrap_or_default();
            let (usage, cut) = (reply.usage, reply.was_cut());
            self.record_usage(usage);
            let stop_reason = StopReason::recorded(reply.stop_reason, calls.len());
            self.emit(AgentEvent::StopReason(stop_reason));
            self.push(reply.into_message());
            self.count_usage(usage);
            if cut {
                match self.after_cut(&calls, candidate).await {
                    Some(ending) => return ending,
                    None => continue,
                }
            }
            let candidate = self.continued(candidate, &calls);
            if calls.is_empty() {
                match self.stop_check(candidate).await {
                    Some(ending) => return ending,
                    None => continue,
                }
            }
            match self.run_round(&calls).await {
                RoundEnd::Continue => {}
                RoundEnd::Stopped(_, reason) => {
                    return Ending::new(
                        RunStatus::Stopped,
                        self.last_assistant_text(),
                        Some(reason),
                    )
                }
                RoundEnd::Failed(error) => {
                    return Ending::new(RunStatus::Failed, None, Some(error))
                }
                RoundEnd::Cancelled => return Ending::cancelled(),
            }
        }
    }

    /// Before each model request: `Some` when the run must end here
    /// (cancelled, out of turns, or a broken history).
    fn checkpoint(&mut self) -> Option<Ending> {
        if self.cancel.is_cancelled() {
            return Some(Ending::cancelled());
        }
        if self.turns >= self.agent.max_turns {
            let error = format!(
                "the run reached max_turns ({}) without a final answer",
                self.agent.max_turns
            );
            return Some(Ending::new(
                RunStatus::MaxTurns,
                self.last_assistant_text(),
                Some(error),
            ));
        }
        if let Err(violation) = check_pairing(&self.history[self.checked..]) {
            return Some(Ending::new(
                RunStatus::Failed,
                None,
                Some(format!(
                    "internal error: tool-call pairing violated: {violation} (counting from message {})",
                    self.checked
                )),
            ));
        }
        self.checked = self.history.len();
        None
    }

    /// Asks the model for the next reply; a finished request uses a turn. A
    /// request that failed still counts the tokens it spent (a ReAct turn's
    /// unreadable attempts).
    async fn request_reply(&mut self) -> Result<AssistantReply, Ending> {
        let request = ModelRequest {
            messages: &self.history,
            tools: &self.agent.specs,
            purpose: RequestPurpose::Turn,
        };
        self.emit(AgentEvent::ModelRequest(self.turns + 1));
        let events = EventForwarder {
            run: self,
            unanswered: std::sync::Mutex::new(None),
        };
        let reply = self
            .tally
            .api
            .time(self.unless_cancelled(crate::durable::model_step(
                self.agent,
                request,
                &events,
                &self.cancel,
            )))
            .await;
        let unanswered = events.unanswered.into_inner().ok().flatten();
        let Some(result) = reply else {
            return Err(Ending::cancelled());
        };
        if result
            .as_ref()
            .err()
            .is_none_or(ModelError::request_was_made)
        {
            self.turns += 1;
        }
        match result {
            Ok(reply) => Ok(reply),
            Err(error) => {
                self.count_usage(unanswered);
                let error = error.run_error();
                self.stop_failure(&error).await;
                Err(Ending::new(RunStatus::Failed, None, Some(error)))
            }
        }
    }

    /// Tells a request's usage, when the provider reported it, before the
    /// assistant message it produced (whose transcript line carries it).
    fn record_usage(&self, usage: Option<Usage>) {
        if let Some(usage) = usage {
            let turn = self.turns;
            self.emit(AgentEvent::Usage(&UsageRecord { turn, usage }));
        }
    }

    /// Adds a request's usage to the run's, when the provider reported it.
    fn count_usage(&mut self, usage: Option<Usage>) {
        if let Some(usage) = usage {
            self.tally.usage += usage;
            let reported = usage.input_tokens + usage.output_tokens;
            self.tokens.reported(self.history.len(), reported);
        }
    }

    /// Checks a candidate answer against the answer schema, then runs the
    /// Stop hooks on it: `Some` ends the run, `None` means the schema or a
    /// hook asked for one more model request.
    async fn stop_check(&mut self, candidate: String) -> Option<Ending> {
        match self.check_answer(&candidate) {
            AnswerCheck::Accepted => {}
            AnswerCheck::Retry => return None,
            AnswerCheck::Failed(ending) => return Some(ending),
        }
        let context = StopContext {
            common: self.hook_common(),
            history: Arc::from(self.history.as_slice()),
            last_assistant_message: candidate.clone(),
            stop_hook_active: self.forced_continuations > 0,
        };
        let may_continue = self.forced_continuations < self.agent.max_stop_continuations;
        let Some(stopped) = self
            .unless_cancelled(self.agent.hooks.run_stop(context, may_continue))
            .await
        else {
            return Some(Ending::cancelled());
        };
        self.emit_hook_run(&stopped);
        for hook in &stopped.verdict.dropped_continues {
            self.emit(AgentEvent::Warning(&format!(
                "Stop hook {hook:?} asked to continue again; dropped (at most {} forced continuation per run)",
                self.agent.max_stop_continuations
            )));
        }
        match stopped.verdict.decision {
            StopDecision::Finish { context } => {
                self.push_context(context);
                Some(Ending::new(RunStatus::Completed, Some(candidate), None))
            }
            StopDecision::Continue { reason, context } => {
                self.forced_continuations += 1;
                self.push_context(context);
                self.push(Message::user(reason));
                None
            }
            StopDecision::Stopped { reason, context } => {
                self.push_context(context);
                Some(Ending::new(
                    RunStatus::Stopped,
                    Some(candidate),
                    Some(reason),
                ))
            }
            StopDecision::Failed { message } => {
                Some(Ending::new(RunStatus::Failed, None, Some(message)))
            }
        }
    }

    /// Replaces the history (a compaction): it is counted and checked again
    /// from its start.
    pub(crate) fn replace_history(&mut self, history: Vec<Message>) {
        self.history = history;
        self.checked = 0;
        self.tokens = TokenTally::default();
    }

    /// The tokens the history uses now (estimated; see [`TokenTally`]).
    pub(crate) fn tokens_in_use(&mut self) -> u64 {
        self.tokens.tokens_in_use(&self.history)
    }

    fn last_assistant_text(&self) -> Option<String> {
        self.history.iter().rev().find_map(|message| match message {
            Message::Assistant {
                content: Some(text),
                ..
            } if !text.is_empty() => Some(text.clone()),
            _ => None,
        })
    }

    /// Runs the SessionEnd hooks with the run's status as the reason, then
    /// removes the session's `CLAUDE_ENV_FILE`.
    pub(crate) async fn end_session(&self, status: RunStatus, exit: SessionEndReason) {
        let end = SessionEndContext {
            common: self.hook_common(),
            reason: status,
            exit,
        };
        let ended = self.agent.hooks.run_session_end(end).await;
        self.emit_hook_run(&ended);
        // The session's CLAUDE_ENV_FILE (and its folder) go with it.
        self.agent.workspace.process_env().end_session();
    }

    /// Records the outcome and turns the run into its report; the history
    /// goes back to the session.
    pub(crate) fn into_report(mut self, ending: Ending) -> RunReport {
        let outcome = OutcomeRecord {
            status: ending.status,
            result: ending.result.clone(),
            error: ending.error.clone(),
            turns: self.turns,
        };
        self.emit(AgentEvent::Outcome(&outcome));
        RunReport {
            status: ending.status,
            result: ending.result,
            error: ending.error,
            turns: self.turns,
            session_id: self.agent.session_id.clone(),
            history: self.history,
            duration_ms: self.tally.elapsed_ms(),
            duration_api_ms: self.tally.api_ms(),
            usage: self.tally.total_usage(),
            permission_denials: self.tally.all_denials(),
            total_cost_usd: self
                .agent
                .cost_meter
                .as_ref()
                .and_then(|meter| meter.total_usd()),
            structured_output: self.structured_output,
        }
    }
}

/// Forwards streamed model text to the observers, and keeps the usage of
/// requests that ended without a reply for the run to count.
struct EventForwarder<'r, 'a> {
    run: &'r Run<'a>,
    unanswered: std::sync::Mutex<Option<Usage>>,
}

impl ModelEvents for EventForwarder<'_, '_> {
    fn text_delta(&self, text: &str) {
        self.run.emit(AgentEvent::TextDelta(text));
    }

    fn unanswered_usage(&self, usage: Usage) {
        if let Ok(mut unanswered) = self.unanswered.lock() {
            *unanswered = Usage::combine(*unanswered, Some(usage));
        }
    }

    fn retrying(&self, retry: &agenthub_model::Retry) {
        self.run.emit(AgentEvent::Warning(&retry.to_string()));
    }

    fn warning(&self, text: &str) {
        self.run.emit(AgentEvent::Warning(text));
    }
}
