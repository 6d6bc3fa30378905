//! PermissionRequest: the policy answered `ask`. The verdict: hooks that
//! answer it before anyone is prompted. A deny from any hook wins and stops
//! the rest; an allow holds unless a later hook denies; no answer leaves the
//! ask to the approver.
//!
//! This never grants more than an `ask` allows: the policy's deny and boundary
//! verdicts never reach these hooks.

use super::input::empty_input;
use super::*;
use crate::command::interpret::to_model;
use crate::command::payload::tool_input;
use crate::command::wire::{read, Fields, Output, Said};
use crate::command::{RawRun, ReadAs};
use crate::engine::{default_if_blank, run_chain, EventFold, Flow, Observed, Trail};
use crate::{ContractError, HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::HookDecision;
use agenthub_tools::PreparedCall;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A call the permission policy answered with `ask`, before anyone is prompted.
#[derive(Debug, Clone)]
pub struct PermissionRequestContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The call the policy asks about, exactly as it would run.
    pub call: PreparedCall,
    /// Why the policy asks.
    pub reason: String,
}

/// How a PermissionRequest hook answers an `ask`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermissionBehavior {
    /// Lets the call run, without prompting anyone.
    Allow,
    /// Refuses the call (`Error [permission_denied]`), without prompting anyone.
    Deny,
}

/// A PermissionRequest hook's answer to an `ask`, given before anyone is prompted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PermissionRequestResult {
    /// `None` leaves the ask to the next hook, then to the approver.
    pub behavior: Option<PermissionBehavior>,
    /// For a deny: why, told to the model.
    pub message: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
    /// For an allow: the whole input the call runs with instead of its own
    /// (`decision.updatedInput`). The pipeline checks it as any call's:
    /// schema, deny rules, workspace boundary, protected paths.
    pub updated_input: Option<Value>,
}

impl PermissionRequestResult {
    /// Answers the ask with allow, unless a later hook denies.
    pub fn allow() -> Self {
        PermissionRequestResult {
            behavior: Some(PermissionBehavior::Allow),
            ..Self::default()
        }
    }

    /// Answers the ask with deny; `message` tells the model why. No later
    /// hook runs and no one is prompted.
    pub fn deny(message: impl Into<String>) -> Self {
        PermissionRequestResult {
            behavior: Some(PermissionBehavior::Deny),
            message: Some(message.into()),
            ..Self::default()
        }
    }
}

/// How the PermissionRequest hooks answered an `ask`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PermissionRequestVerdict {
    /// No hook answered: the approver decides.
    Undecided,
    /// A hook allowed and none denied after it: the call runs, no one is prompted.
    Allow {
        /// The hook that allowed.
        hook: String,
        /// The input it gave in place of the call's, when it changed it.
        updated_input: Option<Value>,
    },
    /// A hook denied: the call does not run (`Error [permission_denied]`).
    Deny {
        /// Why, as the hook told the model.
        message: String,
    },
    /// A hook failed under a `Block` policy: the ask is denied with this text.
    Failed {
        /// Which hook and why it failed.
        message: String,
    },
}

impl HookRegistry {
    /// Runs the PermissionRequest hooks that match the call.
    pub async fn run_permission_request(
        &self,
        context: PermissionRequestContext,
    ) -> HookRun<PermissionRequestVerdict> {
        let fold = PermissionRequestFold {
            context,
            verdict: PermissionRequestVerdict::Undecided,
        };
        run_chain(&self.permission_request, fold).await
    }
}

struct PermissionRequestFold {
    context: PermissionRequestContext,
    verdict: PermissionRequestVerdict,
}

impl EventFold for PermissionRequestFold {
    type Event = PermissionRequest;

    fn context(&self) -> PermissionRequestContext {
        self.context.clone()
    }

    fn call(&self) -> Option<&PreparedCall> {
        Some(&self.context.call)
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: PermissionRequestResult,
    ) -> Flow<PermissionRequestVerdict> {
        trail.message(&observed, result.system_message);
        let hook = observed.hook.clone();
        match result.behavior {
            Some(PermissionBehavior::Deny) => {
                trail.applied(observed, Some(HookDecision::Deny));
                let default = "denied by a PermissionRequest hook";
                let message = result.message.unwrap_or_default();
                return Flow::Done(PermissionRequestVerdict::Deny {
                    message: default_if_blank(message, default, &hook),
                });
            }
            Some(PermissionBehavior::Allow) => {
                trail.applied(observed, Some(HookDecision::Allow));
                if self.verdict == PermissionRequestVerdict::Undecided {
                    self.verdict = PermissionRequestVerdict::Allow {
                        hook,
                        updated_input: result.updated_input,
                    };
                }
            }
            None => trail.applied(observed, None),
        }
        Flow::Next
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> PermissionRequestVerdict {
        PermissionRequestVerdict::Failed { message }
    }

    fn finish(self) -> PermissionRequestVerdict {
        self.verdict
    }
}

/// PermissionRequest's stdin: the common fields, `tool_name` and `tool_input`
/// (declared paths absolute).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PermissionRequestInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// The tool the call asks for.
    pub tool_name: String,
    /// The call's input, declared paths absolute.
    #[serde(default = "empty_input")]
    pub tool_input: Value,
}

/// PermissionRequest's stdin for this firing.
pub fn input(context: &PermissionRequestContext) -> PermissionRequestInput {
    PermissionRequestInput {
        common: CommonInput::of(&context.common, "PermissionRequest"),
        tool_name: context.call.name().to_owned(),
        tool_input: tool_input(&context.common, &context.call),
    }
}

/// PermissionRequest: `hookSpecificOutput.decision.behavior` answers the ask.
/// **Differs:** exit 2 denies with stderr (Claude Code ignores it), and
/// `continue: false` denies with the stop reason (an approval cannot end a run).
pub(crate) fn read_output(
    run: &RawRun,
    as_: ReadAs<'_>,
    context: &PermissionRequestContext,
) -> Result<PermissionRequestResult, HookError> {
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(PermissionRequestResult::default()),
        Said::Output(Output::Warning(text)) => Ok(PermissionRequestResult {
            system_message: Some(text),
            ..PermissionRequestResult::default()
        }),
        Said::Output(Output::Json(fields)) => permission_from_json(fields, context),
        Said::Blocking { reason, json } => Ok(PermissionRequestResult {
            system_message: json.and_then(|fields| fields.system_message),
            ..PermissionRequestResult::deny(to_model(reason))
        }),
    }
}

fn permission_from_json(
    fields: Fields,
    context: &PermissionRequestContext,
) -> Result<PermissionRequestResult, HookError> {
    if let Some(reason) = fields.stop {
        return Ok(PermissionRequestResult {
            system_message: fields.system_message,
            ..PermissionRequestResult::deny(to_model(reason))
        });
    }
    let mut result = PermissionRequestResult {
        system_message: fields.system_message.clone(),
        ..PermissionRequestResult::default()
    };
    let Some(decision) = fields.specific.get("decision") else {
        return Ok(result);
    };
    let Value::Object(decision) = decision else {
        return Err(ContractError::RequestDecisionNotAnObject.into());
    };
    for (key, value) in decision {
        match (key.as_str(), value) {
            ("behavior", Value::String(behavior)) if behavior == "allow" => {
                result.behavior = Some(PermissionBehavior::Allow)
            }
            ("behavior", Value::String(behavior)) if behavior == "deny" => {
                result.behavior = Some(PermissionBehavior::Deny)
            }
            ("message", Value::String(message)) => result.message = Some(to_model(message.clone())),
            ("updatedInput", input) => result.updated_input = changed_input(input, context),
            ("updatedPermissions", _) | ("interrupt", Value::Bool(_)) => {}
            _ => {
                return Err(ContractError::RequestDecisionField {
                    key: key.clone(),
                    value: value.to_string(),
                }
                .into())
            }
        }
    }
    match result.behavior {
        None => Err(ContractError::RequestDecisionNoBehavior.into()),
        Some(PermissionBehavior::Deny) => Ok(PermissionRequestResult {
            updated_input: None,
            ..result
        }),
        Some(PermissionBehavior::Allow) => Ok(result),
    }
}

/// An `updatedInput` that changes the call: `None` when it is the call's
/// own input, or the input as the hook saw it (declared paths absolute).
fn changed_input(input: &Value, context: &PermissionRequestContext) -> Option<Value> {
    let seen = tool_input(&context.common, &context.call);
    (input != context.call.input() && *input != seen).then(|| input.clone())
}

/// PermissionRequest: the policy answered `ask`; hooks may answer for the person.
pub struct PermissionRequest;

impl EventSpec for PermissionRequest {
    const EVENT: HookEvent = HookEvent::PermissionRequest;
    const WIRE: WireContract = WireContract {
        specific: &["decision"],
        ..WireContract::COMMON_ONLY
    };
    type Context = PermissionRequestContext;
    type Result = PermissionRequestResult;
    type Verdict = PermissionRequestVerdict;
    type Input = PermissionRequestInput;

    fn common(context: &PermissionRequestContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &PermissionRequestContext) -> PermissionRequestInput {
        input(context)
    }

    fn sample(
        input: PermissionRequestInput,
        env: &SampleEnv<'_>,
    ) -> Result<PermissionRequestContext, SampleError> {
        let id = super::input::sample_tool_use_id();
        Ok(PermissionRequestContext {
            call: env.call(&id, &input.tool_name, &input.tool_input)?,
            common: env.common(input.common),
            reason: super::input::sample_reason(),
        })
    }

    async fn try_run(
        registry: &HookRegistry,
        context: PermissionRequestContext,
    ) -> HookRun<PermissionRequestVerdict> {
        registry.run_permission_request(context).await
    }

    fn explain(verdict: PermissionRequestVerdict) -> Vec<String> {
        vec![match verdict {
            PermissionRequestVerdict::Undecided => {
                "no hook answered: the terminal prompt decides (deny without a terminal)".to_owned()
            }
            PermissionRequestVerdict::Allow {
                hook,
                updated_input: None,
            } => format!("allowed by {hook:?}"),
            PermissionRequestVerdict::Allow {
                hook,
                updated_input: Some(input),
            } => format!("allowed by {hook:?} with the input {input}"),
            PermissionRequestVerdict::Deny { message } => format!("denied: {message}"),
            PermissionRequestVerdict::Failed { message } => {
                format!("denied because a hook failed: {message}")
            }
        }]
    }

    fn subject(context: &PermissionRequestContext) -> MatcherSubject<'_> {
        MatcherSubject::Call(&context.call)
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        context: &PermissionRequestContext,
    ) -> Result<PermissionRequestResult, HookError> {
        read_output(run, as_, context)
    }
}
