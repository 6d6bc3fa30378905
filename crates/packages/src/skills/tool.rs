//! The `Skill` tool (Claude Code's name and input, contract §20): returns a
//! skill's instructions and its folder, so the model can Read the skill's
//! other files. It is read-only (allowed by default, as Read is) and
//! declares its `skill` field, so `Skill(name)` rules allow or deny one
//! skill. It records which skills it loaded (their `allowed-tools` apply
//! from then on: `crate::grants`). It hands out only what was read at
//! start-up: it never opens a file, never runs anything.

use super::Skills;
use crate::grants::Active;
use agenthub_tools::{Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError, ToolOutput};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// The name the model calls the skill tool by (Claude Code's).
pub const SKILL_TOOL: &str = "Skill";

/// The Skill call's input, as Claude Code's.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillInput {
    /// The name of the skill to use, as the system prompt lists it.
    pub skill: String,
}

/// Loads the skills it was given.
pub struct SkillTool {
    skills: Skills,
    description: String,
    /// The skills loaded so far, for their `allowed-tools`.
    in_use: Active,
}

impl SkillTool {
    /// A Skill tool offering `skills`. Its description names none of them:
    /// they vary by folder and are listed in the first message's
    /// `<system-reminder>`, so the tool list stays the same (§33).
    pub fn new(skills: Skills) -> SkillTool {
        let description = "Use a skill listed in the first message: returns its instructions \
                           and the folder holding its other files (read them with Read)."
            .to_owned();
        SkillTool {
            skills,
            description,
            in_use: Active::default(),
        }
    }

    /// The record of the skills this tool has loaded.
    pub(crate) fn in_use(&self) -> Active {
        self.in_use.clone()
    }
}

impl Tool for SkillTool {
    type Input = SkillInput;

    fn name(&self) -> &str {
        SKILL_TOOL
    }

    fn description(&self) -> &str {
        &self.description
    }

    /// Loading a skill changes nothing: what the model then does is
    /// governed call by call.
    fn effect(&self) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none().loading_skill("skill")
    }

    async fn call(
        &self,
        input: SkillInput,
        _context: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let skill = self.skills.get(&input.skill).ok_or_else(|| {
            ToolError::new(format!(
                "no skill {:?}; the skills are: {}",
                input.skill,
                self.skills.names()
            ))
        })?;
        self.in_use.mark(&skill.name);
        let folder = skill.folder.display().to_string();
        let text = format!("Base directory for this skill: {folder}\n\n{}", skill.body);
        Ok(ToolOutput::with_structured(
            text,
            json!({"skill": skill.name, "folder": folder}),
        ))
    }
}
