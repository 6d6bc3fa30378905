//! Flags in, library options out: the CLI's only share of building an agent
//! is turning `clap` values into `agenthub::Options` and showing the
//! warnings the library returns. Everything else is the library's.

use crate::args::flags::{PermissionFlags, SettingsFlags, TrustFlag};
use crate::args::{ProviderArg, RunArgs, ToolProtocolArg};
use crate::error::CliError;
use agenthub::crates::model::{ProviderKind, ToolProtocol};
use agenthub::{
    Assembly, ModelOptions, Options, PermissionOptions, ProviderOptions, SetupWarning, TrustChoice,
};
use std::path::PathBuf;

/// The options `--workspace`, `--settings`, `--no-claude-settings`,
/// `--allow`, `--deny` and `--permission-mode` give.
pub fn options(
    workspace: Option<PathBuf>,
    settings: SettingsFlags,
    permissions: PermissionOptions,
    trust: TrustFlag,
) -> Options {
    Options {
        workspace,
        settings_files: settings.settings,
        no_claude_settings: settings.no_claude_settings,
        permissions,
        trust: if trust.trust_project {
            TrustChoice::ThisRun
        } else {
            TrustChoice::Stored
        },
        ..Options::default()
    }
}

impl PermissionFlags {
    /// The library's options for these flags: `--permission-mode` parsed
    /// here, its error (if any) kept for the policy to report in turn.
    pub fn options(&self) -> PermissionOptions {
        PermissionOptions {
            allow: self.allow.clone(),
            deny: self.deny.clone(),
            mode: self.permission_mode.as_deref().map(str::parse),
            additional_directories: Vec::new(),
        }
    }
}

/// The permission options of `run`'s flags: AgentHub's own and Claude
/// Code's spellings of them (§29), which add to each other.
fn run_permissions(args: &RunArgs) -> Result<PermissionOptions, CliError> {
    let claude = &args.claude;
    let mut permissions = args.permissions.options();
    permissions
        .allow
        .extend(crate::args::claude_flags::split_rules(
            &claude.allowed_tools,
        ));
    permissions
        .deny
        .extend(crate::args::claude_flags::split_rules(
            &claude.disallowed_tools,
        ));
    if claude.dangerously_skip_permissions {
        permissions.mode = Some(Ok(agenthub::PermissionMode::BypassPermissions));
    }
    permissions.additional_directories = claude
        .add_dir
        .iter()
        .map(|dir| existing_directory(dir, "--add-dir"))
        .collect::<Result<_, _>>()?;
    Ok(permissions)
}

/// `dir` made absolute and canonical, or a usage error naming `flag` when
/// it is not an existing folder. Nothing is created.
pub fn existing_directory(dir: &std::path::Path, flag: &str) -> Result<PathBuf, CliError> {
    match dir.canonicalize() {
        Ok(canonical) if canonical.is_dir() => Ok(canonical),
        Ok(_) => Err(CliError::Usage(format!(
            "{flag} {}: not a folder",
            dir.display()
        ))),
        Err(error) => Err(CliError::Usage(format!(
            "{flag} {}: no such folder ({error}); nothing was created",
            dir.display()
        ))),
    }
}

/// The model `run`'s flags ask for.
pub fn model_options(args: &RunArgs) -> ModelOptions {
    let protocol = args.tool_protocol.map(tool_protocol);
    match &args.script {
        Some(script) => ModelOptions::Scripted {
            script: script.clone(),
            protocol: protocol.unwrap_or_default(),
        },
        None => ModelOptions::Provider(ProviderOptions {
            model: args.model.clone(),
            provider: args.provider.map(provider_kind),
            base_url: args.base_url.clone(),
            tool_protocol: protocol,
            max_output_tokens: args.max_output_tokens,
        }),
    }
}

/// Shows the assembly's warnings on stderr: settings warnings as
/// `agenthub: warning: …`, policy warnings as `[Warning] …`.
pub fn print_warnings(assembly: &Assembly) {
    print_warning_list(assembly.warnings());
}

/// Writes each setup warning to stderr.
pub fn print_warning_list(warnings: Vec<SetupWarning>) {
    for warning in warnings {
        match warning {
            SetupWarning::Settings(text) => {
                crate::terminal::eprintln_neutral!("agenthub: warning: {text}")
            }
            SetupWarning::Policy(text) => crate::terminal::eprintln_neutral!("[Warning] {text}"),
            SetupWarning::Mcp(text) | SetupWarning::Skipped(text) | SetupWarning::Tracing(text) => {
                crate::terminal::eprintln_neutral!("agenthub: warning: {text}")
            }
        }
    }
}

pub fn provider_kind(arg: ProviderArg) -> ProviderKind {
    match arg {
        ProviderArg::Openai => ProviderKind::OpenAi,
        ProviderArg::Anthropic => ProviderKind::Anthropic,
    }
}

pub fn tool_protocol(arg: ToolProtocolArg) -> ToolProtocol {
    match arg {
        ToolProtocolArg::Native => ToolProtocol::Native,
        ToolProtocolArg::React => ToolProtocol::React,
        ToolProtocolArg::Auto => ToolProtocol::Auto,
    }
}

/// `run`'s flags as library options; `acp` and `mcp serve` take the same flags.
pub fn run_options(
    args: &crate::args::RunArgs,
) -> Result<agenthub::Options, crate::error::CliError> {
    Ok(agenthub::Options {
        system_prompt: args.system_prompt.clone(),
        append_system_prompt: args.append_system_prompt.clone(),
        mcp_config: mcp_config_sources(&args.mcp_config)?,
        strict_mcp_config: args.strict_mcp_config,
        sandbox: args.sandbox,
        max_budget_usd: args.max_budget_usd,
        json_schema: args
            .json_schema
            .as_deref()
            .map(agenthub::read_answer_schema)
            .transpose()?,
        ..crate::setup::options(
            args.workspace.clone(),
            args.settings.clone(),
            run_permissions(args)?,
            args.trust,
        )
    })
}

/// Each `--mcp-config` value: a file, or inline JSON (malformed JSON is a
/// usage error naming it).
pub fn mcp_config_sources(
    values: &[String],
) -> Result<Vec<agenthub::McpConfigSource>, crate::error::CliError> {
    values
        .iter()
        .map(|value| agenthub::McpConfigSource::from_arg(value))
        .collect::<Result<_, _>>()
        .map_err(|error| crate::error::CliError::Usage(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub::crates::policy::{PermissionMode, UnknownMode};

    fn mode_of(flag: &str) -> Option<Result<PermissionMode, UnknownMode>> {
        PermissionFlags {
            permission_mode: Some(flag.to_owned()),
            ..PermissionFlags::default()
        }
        .options()
        .mode
    }

    #[test]
    fn the_permission_mode_flag_is_parsed_into_the_mode() {
        assert_eq!(
            mode_of("acceptEdits"),
            Some(Ok(PermissionMode::AcceptEdits))
        );
    }

    #[test]
    fn an_unknown_permission_mode_is_kept_as_its_error_for_the_policy_to_report() {
        let given = "yolo".to_owned();
        assert_eq!(mode_of("yolo"), Some(Err(UnknownMode { given })));
    }
}
