//! `agenthub permissions explain TOOL JSON`: every participant's verdict on
//! one call and the final decision, without a model and without running
//! anything. It builds the policy with the same function as `agenthub run`
//! (`policy_setup::build_policy`), so the explanation is the enforcement.
//! Hooks are not run: the hook participant is shown as passthrough.

use crate::error::CliError;
use crate::policy_setup::{build_policy, print_warnings, PermissionFlags};
use agenthub_policy::{CallView, Explanation, Verdict};
use agenthub_tools::ToolRegistry;
use clap::{Args, Subcommand};
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct PermissionsArgs {
    #[command(subcommand)]
    pub command: PermissionsCommand,
}

#[derive(Debug, Subcommand)]
pub enum PermissionsCommand {
    /// Show each participant's verdict on one tool call, and the decision.
    Explain(ExplainArgs),
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The tool, e.g. Bash, Read, Write.
    pub tool: String,
    /// The tool's input as a JSON object, e.g. '{"command": "git status"}'.
    pub json: String,
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// A settings file whose `permissions` object is used.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// An extra allow rule (repeatable).
    #[arg(long = "allow", value_name = "RULE")]
    pub allow: Vec<String>,
    /// An extra deny rule (repeatable).
    #[arg(long = "deny", value_name = "RULE")]
    pub deny: Vec<String>,
    #[arg(long, value_name = "MODE")]
    pub permission_mode: Option<String>,
}

pub async fn run(args: PermissionsArgs) -> Result<u8, CliError> {
    match args.command {
        PermissionsCommand::Explain(args) => explain(args),
    }
}

fn explain(args: ExplainArgs) -> Result<u8, CliError> {
    let root = crate::run_command::resolve_workspace(args.workspace.as_deref())?;
    let input: Value = serde_json::from_str(&args.json)
        .map_err(|error| CliError::Usage(format!("the tool input is not valid JSON: {error}")))?;
    let tools = crate::run_command::builtin_tools()?;
    let read_only = tool_effect(&tools, &args.tool, &input)?;
    let sections = match &args.settings {
        Some(file) => settings_section(file)?,
        None => Vec::new(),
    };
    let flags = PermissionFlags {
        allow: &args.allow,
        deny: &args.deny,
        mode: args.permission_mode.as_deref(),
    };
    let setup = build_policy(&sections, flags, &root, &tools)?;
    print_warnings(&setup.warnings);
    let capabilities = tools
        .get(&args.tool)
        .map(|definition| definition.capabilities().clone())
        .unwrap_or_default();
    let call = CallView {
        tool: &args.tool,
        read_only,
        capabilities: &capabilities,
        input: &input,
    };
    let explanation = setup
        .engine
        .explain(call, None, &setup.workspace)
        .map_err(|error| CliError::Usage(error.to_string()))?;
    crate::output::print_stdout(&render(&args.tool, &input, &explanation));
    Ok(0)
}

/// Whether the tool is read-only; its input must pass the tool's schema, as
/// in a real run (an invalid input never reaches permission).
fn tool_effect(tools: &ToolRegistry, tool: &str, input: &Value) -> Result<bool, CliError> {
    if let Some(definition) = tools.get(tool) {
        definition.validate(input).map_err(|problem| {
            CliError::Usage(format!(
                "the input does not match the schema of {tool} (a run would refuse it as invalid_arguments before permission): {problem}"
            ))
        })?;
        return Ok(definition.is_read_only());
    }
    if tool.starts_with("mcp__") {
        return Ok(false);
    }
    let names: Vec<String> = tools.specs().into_iter().map(|spec| spec.name).collect();
    Err(CliError::Usage(format!(
        "no tool is named {tool:?}; available tools: {}, mcp__<server>__<tool>",
        names.join(", ")
    )))
}

/// One settings file's `permissions` object, as the only section.
fn settings_section(file: &Path) -> Result<Vec<(PathBuf, Value)>, CliError> {
    let text = std::fs::read_to_string(file).map_err(|error| {
        CliError::Usage(format!(
            "cannot read settings file {}: {error}",
            file.display()
        ))
    })?;
    let settings: Value = serde_json::from_str(&text).map_err(|error| {
        CliError::Usage(format!(
            "settings file {} is not valid JSON: {error}",
            file.display()
        ))
    })?;
    let path = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    Ok(settings
        .get("permissions")
        .map(|permissions| vec![(path, permissions.clone())])
        .unwrap_or_default())
}

/// The explanation as text: the call, the mode, one line per verdict, the decision.
pub fn render(tool: &str, input: &Value, explanation: &Explanation) -> String {
    let mut text = format!("{tool} {input}\nmode: {}\n", explanation.mode);
    for verdict in &explanation.verdicts {
        text.push_str(&verdict_line(verdict));
    }
    let decision = &explanation.decision;
    let rule = decision
        .rule
        .as_deref()
        .map(|rule| format!(", {rule}"))
        .unwrap_or_default();
    text.push_str(&format!(
        "decision: {} ({}{rule}) - {}\n",
        decision.effect, decision.source, decision.reason
    ));
    text
}

fn verdict_line(verdict: &Verdict) -> String {
    let effect = verdict
        .effect
        .map_or("passthrough", |effect| effect.as_str());
    let subject = verdict
        .subject
        .as_deref()
        .map(|subject| format!(" [{subject}]"))
        .unwrap_or_default();
    format!(
        "  {}{subject}: {effect} - {}\n",
        verdict.source, verdict.reason
    )
}
