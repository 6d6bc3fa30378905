//! A sample firing of one event, for people who write hooks (`agenthub hooks
//! test EVENT --input FILE`): the sample stdin is read back through the
//! event's own stdin type (`EventSpec::Input`, the type the engine writes),
//! made into the context a run would build, run through the same hook chain,
//! and its verdict told in words. Generic over `EventSpec`: this module never
//! names an event, so a new event needs nothing here. It only describes what
//! a run would do; it never acts on a verdict.

use super::{Listed, MatcherSubject};
use crate::{HookEvent, HookRegistry};
use agenthub_protocol::{HookRecord, ToolCall};
use agenthub_tools::PreparedCall;
use serde_json::Value;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;

/// What a sample's context is built with beyond its stdin.
pub struct SampleEnv<'a> {
    /// The workspace the hooks run in (the sample's `cwd` is not used).
    pub workspace: PathBuf,
    /// Prepares a sample's tool call as a run would (the tool registry's
    /// validation); `Err` says why such a call would never reach hooks.
    pub prepare: &'a (dyn Fn(&ToolCall) -> Result<PreparedCall, String> + Sync),
}

/// Why a sample stdin cannot stand for a firing of its event.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    /// The sample does not read as the event's stdin type.
    #[error("not a {event} stdin: {source}")]
    NotInput {
        /// The event the sample was read as.
        event: HookEvent,
        /// What serde found wrong (names the field).
        source: serde_json::Error,
    },
    /// A field holds a value the event never sends.
    #[error("at {field}: expected {expected}")]
    Field {
        /// The stdin field.
        field: &'static str,
        /// What it may hold.
        expected: &'static str,
    },
    /// The sample's tool call would be rejected before any hook ran.
    #[error("this call would never reach hooks: {0}")]
    Rejected(String),
}

/// What a sample firing came to.
pub struct SampleRun {
    /// What the event's settings matchers were compared with, if anything.
    pub target: Option<String>,
    /// One record per hook that ran, in order.
    pub records: Vec<HookRecord>,
    /// What hooks asked to show the user.
    pub messages: Vec<String>,
    /// What the verdict would mean for a run, in words.
    pub merged: Vec<String>,
}

/// Reads `stdin` as a firing of `event`, runs `registry`'s hooks of it as a
/// run would, and tells what the verdict would mean.
pub async fn run_sample(
    registry: &HookRegistry,
    event: HookEvent,
    stdin: Value,
    env: &SampleEnv<'_>,
) -> Result<SampleRun, SampleError> {
    super::for_event(
        event,
        TrySample {
            registry,
            stdin,
            env,
        },
    )
    .await
}

struct TrySample<'a> {
    registry: &'a HookRegistry,
    stdin: Value,
    env: &'a SampleEnv<'a>,
}

type SampleFuture<'a> = Pin<Box<dyn Future<Output = Result<SampleRun, SampleError>> + 'a>>;

impl<'a> super::ForEvent for TrySample<'a> {
    type Output = SampleFuture<'a>;

    fn on<E: Listed>(self) -> SampleFuture<'a> {
        Box::pin(async move {
            let input: E::Input =
                serde_json::from_value(self.stdin).map_err(|source| SampleError::NotInput {
                    event: E::EVENT,
                    source,
                })?;
            let context = E::sample(input, self.env)?;
            let target = match E::subject(&context) {
                MatcherSubject::Call(call) => Some(call.name().to_owned()),
                MatcherSubject::Value(value) | MatcherSubject::EitherValue(value, _) => {
                    Some(value.to_owned())
                }
                MatcherSubject::Everything | MatcherSubject::Nothing => None,
            };
            let run = E::try_run(self.registry, context).await;
            Ok(SampleRun {
                target,
                records: run.records,
                messages: run.messages,
                merged: E::explain(run.verdict),
            })
        })
    }
}

impl SampleEnv<'_> {
    /// The sample's tool call, prepared as a run would prepare it.
    pub(crate) fn call(
        &self,
        id: &str,
        name: &str,
        input: &Value,
    ) -> Result<PreparedCall, SampleError> {
        (self.prepare)(&ToolCall::new(id, name, input.to_string())).map_err(SampleError::Rejected)
    }

    /// The context's common fields from the sample's: the session's own run
    /// (a subagent's event names its subagent, see `subagent_common`).
    pub(crate) fn common(&self, input: super::CommonInput) -> crate::HookCommon {
        crate::HookCommon {
            session_id: input.session_id,
            workspace: self.workspace.clone(),
            transcript_path: input.transcript_path.map(PathBuf::from),
            permission_mode: input.permission_mode,
            cancel: tokio_util::sync::CancellationToken::new(),
            agent: None,
        }
    }

    /// The common fields of a subagent's event: a sample that names no
    /// subagent gets a test one.
    pub(crate) fn subagent_common(&self, input: super::CommonInput) -> crate::HookCommon {
        let agent = crate::SubagentIdentity {
            agent_id: input
                .agent_id
                .clone()
                .unwrap_or_else(|| "agent-test".to_owned()),
            agent_type: input
                .agent_type
                .clone()
                .unwrap_or_else(|| "general-purpose".to_owned()),
        };
        crate::HookCommon {
            agent: Some(agent),
            ..self.common(input)
        }
    }
}

/// One line per context a hook added for the model.
pub(crate) fn contexts(context: &[String]) -> Vec<String> {
    context
        .iter()
        .map(|text| format!("system context for the model: {text}"))
        .collect()
}

/// `first`, then one line per context a hook added.
pub(crate) fn with_contexts(first: &str, context: &[String]) -> Vec<String> {
    let mut lines = vec![first.to_owned()];
    lines.extend(contexts(context));
    lines
}

/// A compaction's trigger as a sample names it.
pub(crate) fn trigger(text: &str) -> Result<agenthub_protocol::CompactionTrigger, SampleError> {
    match text {
        "manual" => Ok(agenthub_protocol::CompactionTrigger::Manual),
        "auto" => Ok(agenthub_protocol::CompactionTrigger::Auto),
        _ => Err(SampleError::Field {
            field: "trigger",
            expected: "\"manual\" or \"auto\"",
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::pre_tool_use::{input, PreToolUseInput};
    use crate::{HookCommon, PreToolUseContext};
    use agenthub_tools::builtin::Echo;
    use agenthub_tools::ToolDefinition;
    use serde_json::json;
    use std::sync::Arc;

    #[test]
    fn the_stdin_the_engine_writes_reads_back_as_the_same_input() {
        let definition = Arc::new(ToolDefinition::new(Echo).unwrap());
        let context = PreToolUseContext {
            common: HookCommon::sample("/ws"),
            call: PreparedCall::from_parts("c1", "Echo", definition, json!({"text": "hi"})),
        };
        let written = serde_json::to_value(input(&context)).unwrap();
        let read: PreToolUseInput = serde_json::from_value(written).unwrap();
        assert_eq!(read, input(&context));
    }

    #[test]
    fn a_sample_without_common_fields_reads_them_as_test_values() {
        let read: PreToolUseInput =
            serde_json::from_value(json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}))
                .unwrap();
        assert_eq!(
            serde_json::to_value(read).unwrap(),
            json!({
                "session_id": "hooks-test",
                "transcript_path": null,
                "cwd": "",
                "permission_mode": "default",
                "hook_event_name": "",
                "tool_name": "Bash",
                "tool_input": {"command": "ls"},
                "tool_use_id": "toolu_hooks_test",
            })
        );
    }
}
