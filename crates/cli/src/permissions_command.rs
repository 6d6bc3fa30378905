//! `agenthub permissions explain TOOL JSON`: every participant's verdict on
//! one call and the final decision, without a model and without running
//! anything. It uses the same library assembly as `agenthub run` (every
//! settings layer, the run's flags), so the explanation is the enforcement.
//! Hooks are not run: the hooks that would run for the call are listed, since
//! any of them could still block, rewrite or answer it.

use crate::args::permissions::{ExplainArgs, PermissionsArgs, PermissionsCommand};
use crate::error::CliError;
use agenthub::crates::hooks::HookOrigin;
use agenthub::crates::policy::{Source, Verdict};
use agenthub::crates::protocol::PermissionEffect;
use agenthub::crates::sandbox::Destination;
use agenthub::{Assembly, CallExplanation, NETWORK_TOOL};
use serde_json::Value;

pub async fn run(args: PermissionsArgs) -> Result<u8, CliError> {
    match args.command {
        PermissionsCommand::Explain(args) => explain(args),
    }
}

fn explain(args: ExplainArgs) -> Result<u8, CliError> {
    if args.tool == NETWORK_TOOL {
        return explain_network(args);
    }
    let input: Value = serde_json::from_str(&args.json)
        .map_err(|error| CliError::Usage(format!("the tool input is not valid JSON: {error}")))?;
    let assembly = assembly_of(&args)?;
    let explanation = assembly
        .explain(&args.tool, &input)
        .map_err(|error| CliError::Usage(error.to_string()))?;
    crate::output::print_stdout(&render(&args.tool, &input, &explanation));
    Ok(0)
}

/// The session `args` describe, its warnings printed.
fn assembly_of(args: &ExplainArgs) -> Result<Assembly, CliError> {
    let options = crate::setup::options(
        args.workspace.clone(),
        args.settings.clone(),
        args.permissions.options(),
        args.trust,
    );
    let assembly = Assembly::load(&options)?;
    crate::setup::print_warnings(&assembly);
    Ok(assembly)
}

/// `permissions explain Network HOST[:PORT]` (port 443 when none is given):
/// how a sandboxed command's connection to it would be decided.
fn explain_network(args: ExplainArgs) -> Result<u8, CliError> {
    let destination: Destination = args
        .json
        .parse()
        .map_err(|error| CliError::Usage(format!("the host to explain: {error}")))?;
    let assembly = assembly_of(&args)?;
    let explanation = assembly.explain_network(&destination);
    crate::output::print_stdout(&format!(
        "{NETWORK_TOOL} {destination}\ndecision: {} - {}\n",
        explanation.effect(),
        explanation.reason(&destination)
    ));
    Ok(0)
}

/// The explanation as text: the call, the mode, one line per policy verdict,
/// the hooks that would run, the decision.
pub fn render(tool: &str, input: &Value, explanation: &CallExplanation) -> String {
    let policy = &explanation.policy;
    let mut text = format!("{tool} {input}\nmode: {}\n", policy.mode);
    for verdict in policy.verdicts.iter().filter(|v| v.source != Source::Hook) {
        text.push_str(&verdict_line(verdict));
    }
    text.push_str(&hooks_lines(explanation));
    let decision = &policy.decision;
    let rule = decision
        .rule
        .as_deref()
        .map(|rule| format!(", {rule}"))
        .unwrap_or_default();
    text.push_str(&format!(
        "decision: {} ({}{rule}) - {}\n",
        decision.effect, decision.source, decision.reason
    ));
    if decision.effect == PermissionEffect::Ask && !decision.grantable() {
        text.push_str(
            "answered by: the person, for this call only (no session grant, allowed-tools or \
             allow rule answers it)\n",
        );
    }
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

/// The hooks a run would call; explain runs none of them.
fn hooks_lines(explanation: &CallExplanation) -> String {
    if explanation.hooks.is_empty() {
        return "  hooks: none would run for this call\n".to_owned();
    }
    let mut text =
        "  hooks that would run (not run here; they may block, rewrite or answer the call):\n"
            .to_owned();
    for hook in &explanation.hooks {
        let origin = match &hook.origin {
            HookOrigin::InProcess => "in-process".to_owned(),
            HookOrigin::Settings { file, index } => format!("{file}, index {index}"),
        };
        text.push_str(&format!("    {}: {} ({origin})\n", hook.event, hook.name));
    }
    text
}
