//! One subagent from start to Task result: SubagentStart hooks, a child
//! agent built from the parent's parts, one prompt of a child session, and
//! its ending turned into the Task call's result. Every ending is a result:
//! a failed, stopped, exhausted or cancelled subagent says so.

use super::observe::{SubagentInfo, Tagged};
use super::{AgentDefinition, ParentParts, ParentScope};
use crate::system_prompt::{current_platform, repository_root, Date, Environment};
use crate::{Agent, AgentBuilder, AgentEvent, Session};
use agenthub_hooks::{HookCommon, HookRegistry, HookRun, SubagentIdentity, SubagentStartContext};
use agenthub_model::ChatModel;
use agenthub_protocol::{Message, RunStatus};
use agenthub_tools::{ToolError, ToolOutput, ToolRegistry};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// What the Task call asked for.
pub(crate) struct Request<'a> {
    pub(crate) definition: &'a AgentDefinition,
    pub(crate) description: String,
    pub(crate) prompt: String,
    pub(crate) tool_use_id: String,
}

impl ParentScope {
    /// Runs one subagent to its Task result.
    pub(crate) async fn run_child(
        &self,
        request: Request<'_>,
        cancel: CancellationToken,
    ) -> Result<ToolOutput, ToolError> {
        let parts = &self.parts;
        // Taken before the first await: concurrent Task handlers first run
        // in call order, so a scripted model hands out its subagents in it.
        let model = parts.child_model(request.definition)?;
        let identity = SubagentIdentity {
            agent_id: new_agent_id(),
            agent_type: request.definition.name.clone(),
        };
        let info = Arc::new(SubagentInfo {
            agent_id: identity.agent_id.clone(),
            agent_type: identity.agent_type.clone(),
            description: request.description.clone(),
            tool_use_id: request.tool_use_id.clone(),
        });
        let _ = parts
            .agent
            .observer
            .on_event(&AgentEvent::SubagentStarted(&info));
        let context = parts.subagent_start(&identity, &request, &cancel).await?;
        let child = parts.child_agent(model, request.definition, identity, info.clone())?;
        let mut preamble = vec![Message::system(child_prompt(
            request.definition,
            parts.agent.workspace.root(),
        ))];
        preamble.extend(context.into_iter().map(Message::system));
        for message in &preamble {
            let _ = child.observer.on_event(&AgentEvent::Message(message));
        }
        let report = Session::carry_on(&child, preamble)
            .send(&request.prompt, cancel)
            .await;
        if let Ok(mut totals) = self.subagents.lock() {
            totals.usage += report.usage;
            totals.api_ms = totals.api_ms.saturating_add(report.duration_api_ms);
            totals.denials.extend(report.permission_denials);
        }
        match (report.status, report.result) {
            (RunStatus::Completed, Some(answer)) => Ok(answer.into()),
            (RunStatus::Completed, None) => Ok(String::new().into()),
            (status, _) => Err(ToolError::new(ending_text(
                status,
                report.error.as_deref().unwrap_or("no reason given"),
            ))),
        }
    }
}

impl ParentParts {
    /// Runs the SubagentStart hooks; their context is for the subagent.
    async fn subagent_start(
        &self,
        identity: &SubagentIdentity,
        request: &Request<'_>,
        cancel: &CancellationToken,
    ) -> Result<Vec<String>, ToolError> {
        let context = SubagentStartContext {
            common: HookCommon {
                session_id: self.agent.session_id.clone(),
                workspace: self.agent.workspace.root().to_path_buf(),
                transcript_path: self.agent.transcript_path.clone(),
                permission_mode: self.agent.policy.mode(),
                cancel: cancel.clone(),
                agent: Some(identity.clone()),
            },
            description: request.description.clone(),
        };
        let started = self.agent.hooks.run_subagent_start(context).await;
        self.tell(&started);
        match started.verdict.failure {
            Some(failure) => Err(ToolError::new(format!(
                "the subagent did not start: {failure}"
            ))),
            None => Ok(started.verdict.context),
        }
    }

    fn tell<V>(&self, run: &HookRun<V>) {
        for record in &run.records {
            let _ = self.agent.observer.on_event(&AgentEvent::Hook(record));
        }
        for message in &run.messages {
            let _ = self.agent.observer.on_event(&AgentEvent::Warning(message));
        }
    }

    /// The subagent's agent: the parent's, with the definition's tools
    /// (never Task) and model, events tagged with the subagent, and none of
    /// what only a session has (its system prompt and memory, which the
    /// subagent's preamble replaces; its answer schema, cost meter and
    /// durable journal; subagents of its own).
    fn child_agent(
        &self,
        model: Arc<dyn ChatModel>,
        definition: &AgentDefinition,
        identity: SubagentIdentity,
        info: Arc<SubagentInfo>,
    ) -> Result<Agent, ToolError> {
        let parent = &self.agent;
        let mut tools = ToolRegistry::new();
        for tool in parent.tools.iter() {
            if definition.allows_tool(tool.name()) {
                tools.insert_definition(tool.clone());
                if parent.tools.is_withheld(tool.name()) {
                    tools.withhold(tool.name());
                }
            }
        }
        let model_name = definition.model.as_deref().filter(|m| *m != "inherit");
        let child = Agent {
            model,
            specs: tools.specs().into(),
            tools: Arc::new(tools),
            hooks: self.hooks_for(definition)?,
            observer: Arc::new(Tagged {
                parent: parent.observer.clone(),
                info,
            }),
            subagent: Some(identity),
            model_name: model_name.map(str::to_owned),
            system_prompt: None,
            workspace_context: None,
            memory_files: Vec::new(),
            max_stop_continuations: 1,
            max_parallel_agents: crate::DEFAULT_MAX_PARALLEL_AGENTS,
            parent_parts: None,
            model_resolver: None,
            definition_hooks: None,
            journal: None,
            answer_schema: None,
            cost_meter: None,
            ..parent.clone()
        };
        Ok(AgentBuilder::from_agent(child).build())
    }

    /// The parent's hooks that apply to a subagent, then the definition's own
    /// (its `Stop` hooks run when the subagent stops).
    fn hooks_for(&self, definition: &AgentDefinition) -> Result<HookRegistry, ToolError> {
        let mut hooks = self.agent.hooks.for_subagent();
        if let (Some(_), Some(build)) = (&definition.hooks, &self.agent.definition_hooks) {
            let own = build(definition).map_err(|why| {
                ToolError::new(format!(
                    "the subagent {:?} has hooks that cannot run: {why}",
                    definition.name
                ))
            })?;
            hooks.extend(own.for_subagent());
        }
        Ok(hooks)
    }

    /// The model the definition names (through the resolver), else the
    /// parent model's choice for a subagent, else the parent's model.
    fn child_model(&self, definition: &AgentDefinition) -> Result<Arc<dyn ChatModel>, ToolError> {
        if let Some(model) = self.agent.model.subagent_model() {
            return Ok(model);
        }
        match (definition.model.as_deref(), &self.agent.model_resolver) {
            (Some(name), Some(resolve)) if name != "inherit" => resolve(name).map_err(|why| {
                ToolError::new(format!(
                    "the subagent {:?} names model {name:?}, which cannot be used: {why}",
                    definition.name
                ))
            }),
            _ => Ok(self.agent.model.clone()),
        }
    }
}

/// The subagent's system prompt: the definition's body, then the environment.
fn child_prompt(definition: &AgentDefinition, workspace: &std::path::Path) -> String {
    let environment = Environment {
        workspace: workspace.to_path_buf(),
        platform: current_platform(),
        date: Date::today(),
        repository: repository_root(workspace),
    };
    format!("{}\n\n{}", definition.prompt.trim(), environment.render())
}

/// What the Task result says when the subagent did not complete.
fn ending_text(status: RunStatus, reason: &str) -> String {
    match status {
        RunStatus::MaxTurns => format!("the subagent hit its turn limit: {reason}"),
        RunStatus::Cancelled => format!("the subagent was cancelled: {reason}"),
        RunStatus::Stopped => format!("a hook stopped the subagent: {reason}"),
        RunStatus::Blocked => format!("the subagent was blocked: {reason}"),
        _ => format!("the subagent failed: {reason}"),
    }
}

/// A new subagent id: unique within the session's transcript.
fn new_agent_id() -> String {
    let uuid = uuid::Uuid::new_v4().simple().to_string();
    format!("agent-{}", &uuid[..12])
}
