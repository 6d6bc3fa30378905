//! The flags the Claude Agent SDKs pass to the executable they start
//! (contract §30), beyond §29's spellings. `--permission-prompt-tool stdio`
//! means something here: asks go to the SDK's `canUseTool`. The others
//! configure parts of Claude Code AgentHub does not have (thinking budgets,
//! betas, debug files, remote settings, session mirrors …): they are
//! accepted, in `--flag value` and `--flag=value` form, and each one given is
//! named once on stderr ([`SdkFlags::ignored`]) — never an error, because an
//! application written for the SDK must start unchanged. They are hidden
//! from `--help`: nobody types them.

/// Flags only the Agent SDKs pass.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SdkFlags {
    /// Who answers asks: `stdio` is the SDK's `canUseTool` (control request
    /// `can_use_tool`). Another value (Claude Code's MCP permission tool) is
    /// named on stderr and asks then have nobody to answer them.
    #[arg(long = "permission-prompt-tool", value_name = "TOOL", hide = true)]
    pub permission_prompt_tool: Option<String>,
    /// Wait for the SDK's `initialize` before assembling the session: what
    /// AgentHub always does (the session is assembled at the first user
    /// message, after the `initialize` that precedes it), so it is accepted
    /// and not named.
    #[arg(long = "await-initialize", hide = true)]
    pub await_initialize: bool,
    /// Flags that take a value and mean nothing to AgentHub.
    #[command(flatten)]
    valued: IgnoredValued,
    /// Flags without a value that mean nothing to AgentHub.
    #[command(flatten)]
    switches: IgnoredSwitches,
}

/// Whether asks are answered by the SDK over stdio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermissionPrompts {
    /// `--permission-prompt-tool stdio`: the SDK's `canUseTool`.
    Sdk,
    /// No prompt tool, or one AgentHub does not have.
    Nobody,
}

impl SdkFlags {
    /// Who answers asks.
    pub fn permission_prompts(&self) -> PermissionPrompts {
        match self.permission_prompt_tool.as_deref() {
            Some("stdio") => PermissionPrompts::Sdk,
            _ => PermissionPrompts::Nobody,
        }
    }

    /// Each flag given that AgentHub accepts without acting on it, with
    /// why, in the order of [`IgnoredValued`] and [`IgnoredSwitches`].
    pub fn ignored(&self) -> Vec<String> {
        let mut named: Vec<String> = self
            .valued
            .given()
            .into_iter()
            .chain(self.switches.given())
            .map(|flag| format!("--{flag} is Claude Code's and means nothing to AgentHub; ignored"))
            .collect();
        if let Some(tool) = self
            .permission_prompt_tool
            .as_deref()
            .filter(|tool| *tool != "stdio")
        {
            named.push(format!(
                "--permission-prompt-tool {tool}: only `stdio` (the Agent SDK's canUseTool) answers asks here; asks have nobody to answer them"
            ));
        }
        named
    }
}

/// Declares the ignored flags that take a value, and lists the given ones.
macro_rules! ignored_valued {
    ($($field:ident = $flag:literal),* $(,)?) => {
        /// Value-taking flags of Claude Code's that AgentHub accepts and ignores.
        #[derive(Debug, Clone, Default, clap::Args)]
        pub struct IgnoredValued {
            $(
                #[arg(long = $flag, value_name = "VALUE", hide = true, allow_hyphen_values = true,
                      help = concat!("Claude Code's --", $flag, ": accepted, named on stderr, not acted on"))]
                $field: Vec<String>,
            )*
        }

        impl IgnoredValued {
            fn given(&self) -> Vec<&'static str> {
                let mut given = Vec::new();
                $( if !self.$field.is_empty() { given.push($flag); } )*
                given
            }
        }
    };
}

/// Declares the ignored switches, and lists the given ones.
macro_rules! ignored_switches {
    ($($field:ident = $flag:literal),* $(,)?) => {
        /// Switches of Claude Code's that AgentHub accepts and ignores.
        #[derive(Debug, Clone, Default, clap::Args)]
        pub struct IgnoredSwitches {
            $(
                #[arg(long = $flag, hide = true,
                      help = concat!("Claude Code's --", $flag, ": accepted, named on stderr, not acted on"))]
                $field: bool,
            )*
        }

        impl IgnoredSwitches {
            fn given(&self) -> Vec<&'static str> {
                let mut given = Vec::new();
                $( if self.$field { given.push($flag); } )*
                given
            }
        }
    };
}

ignored_valued! {
    setting_sources = "setting-sources",
    max_thinking_tokens = "max-thinking-tokens",
    thinking = "thinking",
    thinking_display = "thinking-display",
    effort = "effort",
    task_budget = "task-budget",
    agent = "agent",
    betas = "betas",
    debug_file = "debug-file",
    permission_prompts = "permission-prompts",
    channels = "channels",
    tools = "tools",
    fallback_model = "fallback-model",
    project_config_root = "project-config-root",
    plugin_dir = "plugin-dir",
    plugin_dir_no_mcp = "plugin-dir-no-mcp",
    resume_session_at = "resume-session-at",
    resume_drops_turn = "resume-drops-turn",
    initialize_fields = "initialize-fields",
    managed_settings = "managed-settings",
    system_prompt_file = "system-prompt-file",
}

ignored_switches! {
    debug = "debug",
    debug_to_stderr = "debug-to-stderr",
    allow_dangerously_skip_permissions = "allow-dangerously-skip-permissions",
    include_hook_events = "include-hook-events",
    session_mirror = "session-mirror",
    no_session_persistence = "no-session-persistence",
    managed_settings_in_initialize = "managed-settings-in-initialize",
    replay_user_messages = "replay-user-messages",
}

#[cfg(test)]
mod tests {
    use crate::args::{Cli, Command};
    use clap::Parser;

    fn ignored(line: &[&str]) -> Vec<String> {
        match Cli::try_parse_from(line).map(|cli| cli.command) {
            Ok(Some(Command::Run(args))) => args.sdk.ignored(),
            other => vec![format!("not a run: {:?}", other.err())],
        }
    }

    #[test]
    fn the_sdks_flags_are_accepted_in_both_forms_and_each_named_once() {
        assert_eq!(
            ignored(&[
                "agenthub", "run", "hi", "--setting-sources=user,project", "--thinking", "adaptive",
                "--betas", "a,b", "--debug", "--await-initialize", "--max-thinking-tokens=-1",
                "--permission-prompt-tool", "mcp__auth__ask",
            ]),
            [
                "--setting-sources is Claude Code's and means nothing to AgentHub; ignored",
                "--max-thinking-tokens is Claude Code's and means nothing to AgentHub; ignored",
                "--thinking is Claude Code's and means nothing to AgentHub; ignored",
                "--betas is Claude Code's and means nothing to AgentHub; ignored",
                "--debug is Claude Code's and means nothing to AgentHub; ignored",
                "--permission-prompt-tool mcp__auth__ask: only `stdio` (the Agent SDK's canUseTool) answers asks here; asks have nobody to answer them",
            ]
        );
    }
}
