//! The `Task` tool (Claude Code's name and input): starts a subagent of a
//! known type and returns its final answer. Its calls run concurrently with
//! the adjacent Task calls of the same message (a capability it declares),
//! and `Task(name)` rules match its `subagent_type` (another one).

use super::child::Request;
use super::{current_parent, AgentDefinitions, TASK_TOOL};
use agenthub_tools::{Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError, ToolOutput};
use schemars::JsonSchema;
use serde::Deserialize;

/// The Task call's input, as Claude Code's.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskInput {
    /// The task in 3-5 words.
    pub description: String,
    /// The task, with all it needs to know.
    pub prompt: String,
    /// One of the agent types listed.
    pub subagent_type: String,
}

/// Starts subagents of the types in its definitions.
///
/// Register it in the registry an [`crate::Agent`] is built with; outside a
/// run of such an agent a call fails with a tool error.
pub struct TaskTool {
    definitions: AgentDefinitions,
    description: String,
}

impl TaskTool {
    /// A Task tool offering `definitions`. Its description tells the model
    /// each built-in type and what it is for; the types read from files vary
    /// by folder and are listed in the first message's `<system-reminder>`
    /// ([`crate::system_prompt::AgentTypeSummary`]), so the tool list stays
    /// the same for every session of one configuration (§33).
    pub fn new(definitions: AgentDefinitions) -> TaskTool {
        let mut description = String::from(
            "Starts a subagent with its own context; its final answer is the result. Task \
             calls of one message run concurrently.\n\nAgent types:",
        );
        for definition in definitions
            .iter()
            .filter(|definition| definition.source.is_none())
        {
            let tools = definition
                .tools
                .as_ref()
                .map_or("*".to_owned(), |tools| tools.join(", "));
            description.push_str(&format!(
                "\n- {}: {} (Tools: {tools})",
                definition.name, definition.description
            ));
        }
        TaskTool {
            definitions,
            description,
        }
    }

    /// The subagent types it offers.
    pub fn definitions(&self) -> &AgentDefinitions {
        &self.definitions
    }
}

impl Tool for TaskTool {
    type Input = TaskInput;

    fn name(&self) -> &str {
        TASK_TOOL
    }

    fn description(&self) -> &str {
        &self.description
    }

    /// The Task call itself changes nothing, but it is not read-only: the
    /// subagent may write, and every one of its calls is governed on its own.
    fn effect(&self) -> ToolEffect {
        ToolEffect::Delegates
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none()
            .starting_subagent("subagent_type")
            .concurrently()
    }

    async fn call(&self, input: TaskInput, context: ToolContext) -> Result<ToolOutput, ToolError> {
        let parent = current_parent().ok_or_else(|| {
            ToolError::new("the Task tool runs only inside a session's run (a subagent cannot start a subagent)")
        })?;
        let definition = self.definitions.get(&input.subagent_type).ok_or_else(|| {
            ToolError::new(format!(
                "no subagent type {:?}; the types are: {}",
                input.subagent_type,
                self.definitions.names()
            ))
        })?;
        let request = Request {
            definition,
            description: input.description,
            prompt: input.prompt,
            tool_use_id: parent.tool_use_id.clone(),
        };
        parent.run_child(request, context.cancel).await
    }
}
