//! The system prompt (contract §12, placed as §33 says): what a session is
//! told before its first prompt, in two places.
//!
//! The **system message** ([`SystemPrompt::system_message`]) is the same for
//! every session of one configuration, so a server's prompt cache reuses it
//! with the tool list behind it:
//!
//! 1. the **instructions**: the built-in prompt for a coding agent
//!    ([`BUILT_IN_PROMPT`]), or the caller's replacement (`--system-prompt`;
//!    empty means none);
//! 2. the **appended** text (`--append-system-prompt`), if any.
//!
//! The **workspace context** ([`SystemPrompt::workspace_context`]) is what
//! varies by folder, day and git state; it goes in the `<system-reminder>`
//! block at the start of the first user message
//! ([`agenthub_protocol::with_reminder`]):
//!
//! 3. the **environment**: workspace, platform, date, git repository or not;
//! 4. the **memory files** ([`memory_files`]), each under a `# Memory: <path>` header;
//! 5. the **skills** ([`SkillSummary`]), by name and description only (contract §20);
//! 6. the **subagent types** read from files ([`AgentTypeSummary`]): the `Task`
//!    tool's description lists only the built-in ones, so the tool list too is
//!    the same in every folder.
//!
//! Replacing the instructions keeps the environment and the memory files, as
//! Claude Code keeps its memory files under `--system-prompt`: they are facts
//! about this workspace and the user's standing instructions, not the
//! built-in prompt's style. An embedder who wants none of it gives
//! [`crate::AgentBuilder::system_prompt`] its own text instead.
//!
//! This module only reads: never a file outside the memory files' places
//! (see [`memory_files`]), never a process, never the network. Everything
//! that varies (date, platform, the user's folder) comes in through
//! [`PromptSources`], so tests pin it.

mod agent_types;
mod environment;
mod memory;
mod skills;

pub use agent_types::AgentTypeSummary;
pub use environment::{current_platform, repository_root, Date, Environment};
pub use memory::{
    memory_files, project_memory_links_out, project_memory_paths, MemoryFile, ProjectMemory,
    MEMORY_FILE_LIMIT, MEMORY_FILE_NAMES,
};
pub use skills::SkillSummary;

use std::path::PathBuf;

/// The built-in instructions for a coding agent.
pub const BUILT_IN_PROMPT: &str = include_str!("built_in.md");

/// What the system prompt is gathered from. [`PromptSources::current`] reads
/// this machine; tests set every field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptSources {
    /// The workspace root (canonical, as the agent uses it).
    pub workspace: PathBuf,
    /// The `agenthub` configuration folder holding the user's `AGENTS.md`;
    /// `None` reads no user file.
    pub user_config: Option<PathBuf>,
    /// Today's date.
    pub date: Date,
    /// The platform, e.g. `linux x86_64`.
    pub platform: String,
    /// Whether the workspace's own memory files are read.
    pub project_memory: ProjectMemory,
}

impl PromptSources {
    /// `workspace` on this machine: `$XDG_CONFIG_HOME/agenthub` (else
    /// `~/.config/agenthub`), today's date (UTC) and this platform; the
    /// project's memory files as `project_memory` says.
    pub fn current(workspace: impl Into<PathBuf>, project_memory: ProjectMemory) -> PromptSources {
        PromptSources {
            workspace: workspace.into(),
            user_config: user_config_folder(),
            date: Date::today(),
            platform: current_platform(),
            project_memory,
        }
    }
}

/// `$XDG_CONFIG_HOME/agenthub`, else `~/.config/agenthub` (where the user
/// settings file lives too).
fn user_config_folder() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(config.join("agenthub"))
}

/// The parts of a system prompt: [`SystemPrompt::system_message`] joins the
/// instructions, [`SystemPrompt::workspace_context`] the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemPrompt {
    /// The instructions: [`BUILT_IN_PROMPT`] unless replaced.
    pub instructions: String,
    /// Text added after the instructions.
    pub appended: Option<String>,
    /// Where the agent runs.
    pub environment: Environment,
    /// The memory files, most general first.
    pub memory: Vec<MemoryFile>,
    /// The skills the `Skill` tool loads, listed last.
    pub skills: Vec<SkillSummary>,
    /// The subagent types read from files, listed after the skills.
    pub agent_types: Vec<AgentTypeSummary>,
}

impl SystemPrompt {
    /// The built-in instructions with the environment and memory files of `sources`.
    pub fn gather(sources: &PromptSources) -> SystemPrompt {
        let repository = repository_root(&sources.workspace);
        let memory = memory_files(
            &sources.workspace,
            repository.as_deref(),
            sources.user_config.as_deref(),
            sources.project_memory,
        );
        SystemPrompt {
            instructions: BUILT_IN_PROMPT.to_owned(),
            appended: None,
            environment: Environment {
                workspace: sources.workspace.clone(),
                platform: sources.platform.clone(),
                date: sources.date,
                repository,
            },
            memory,
            skills: Vec::new(),
            agent_types: Vec::new(),
        }
    }

    /// Replaces the instructions (`--system-prompt`) when `text` is `Some`.
    pub fn replace_instructions(mut self, text: Option<String>) -> SystemPrompt {
        if let Some(text) = text {
            self.instructions = text;
        }
        self
    }

    /// Sets the text added after the instructions (`--append-system-prompt`).
    pub fn append(mut self, text: Option<String>) -> SystemPrompt {
        self.appended = text;
        self
    }

    /// Lists `skills` (name and description) at the end of the prompt.
    pub fn with_skills(mut self, skills: Vec<SkillSummary>) -> SystemPrompt {
        self.skills = skills;
        self
    }

    /// Lists the subagent types read from files after the skills.
    pub fn with_agent_types(mut self, agent_types: Vec<AgentTypeSummary>) -> SystemPrompt {
        self.agent_types = agent_types;
        self
    }

    /// The system message: the instructions and the appended text, each
    /// trimmed, separated by a blank line; empty when both are. It names
    /// nothing of the workspace, so two folders share it byte for byte.
    pub fn system_message(&self) -> String {
        let mut parts = vec![self.instructions.trim().to_owned()];
        parts.extend(self.appended.as_deref().map(|text| text.trim().to_owned()));
        join(parts)
    }

    /// The text of the first user message's `<system-reminder>` block: the
    /// environment, the memory files, the skills and the subagent types read
    /// from files, separated by a blank line.
    pub fn workspace_context(&self) -> String {
        let mut parts = vec![self.environment.render()];
        parts.extend(self.memory.iter().map(MemoryFile::render));
        parts.push(skills::render(&self.skills));
        parts.push(agent_types::render(&self.agent_types));
        join(parts)
    }
}

/// The non-empty parts, in order, separated by a blank line.
fn join(mut parts: Vec<String>) -> String {
    parts.retain(|part| !part.is_empty());
    parts.join("\n\n")
}

#[cfg(test)]
mod tests;
