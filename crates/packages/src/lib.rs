//! What a session joins from outside its settings files (contract §20):
//! Claude Code plugins and marketplaces, Agent Skills and custom slash
//! commands, and the one trust-gated walk of the folders they (and subagent
//! definitions) come from (contract §28).
//!
//! This crate finds, installs and reads packages; it never runs a plugin's
//! code, never builds a session and never asks a person. The facade
//! (`agenthub`) assembles what it returns into a session.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod agents;
pub mod commands;
mod folders;
pub mod grants;
pub mod plugins;
pub mod skills;

pub use commands::{CommandError, CustomCommand, CustomCommands, Expansion};
pub use folders::Sources;
pub use grants::{Active, ActiveGuard};
pub use skills::{Skill, SkillError, SkillInput, SkillTool, Skills, SKILL_TOOL};
