//! `agenthub agents list` (contract §17): the subagent types a run here can
//! start — the built-in `general-purpose` and every definition file read —
//! each with its description, tools, model and file. Which folders are read
//! (and whether the workspace's are trusted) is the library's.

use crate::args::agents::{AgentsArgs, AgentsCommand};
use crate::error::CliError;
use agenthub::{AgentDefinition, Configuration};
use std::fmt::Write;

pub fn run(args: AgentsArgs) -> Result<u8, CliError> {
    let AgentsCommand::List(args) = args.command;
    let options = crate::setup::options(
        args.workspace,
        args.settings,
        Default::default(),
        args.trust,
    );
    let configuration = Configuration::load(&options)?;
    let (definitions, set_aside) = configuration.agent_definitions();
    for warning in configuration.warnings().into_iter().chain(set_aside) {
        crate::terminal::eprintln_neutral!("agenthub: warning: {warning}");
    }
    let text: String = definitions.iter().map(render).collect();
    crate::output::print_stdout(&text);
    Ok(0)
}

/// `name  description` then indented tools, model and file.
fn render(definition: &AgentDefinition) -> String {
    let mut text = format!("{}  {}\n", definition.name, definition.description);
    let tools = definition
        .tools
        .as_ref()
        .map_or("all but Task".to_owned(), |tools| tools.join(", "));
    let _ = writeln!(text, "  tools: {tools}");
    let _ = writeln!(
        text,
        "  model: {}",
        definition.model.as_deref().unwrap_or("inherit")
    );
    let file = definition
        .source
        .as_ref()
        .map_or(
            "built-in".to_owned(),
            |file| match agenthub::plugins::owning_plugin(file) {
                Some(plugin) => format!("plugin:{plugin} {}", file.display()),
                None => file.display().to_string(),
            },
        );
    let _ = writeln!(text, "  file: {file}");
    if let Some(hooks) = definition
        .hooks
        .as_ref()
        .and_then(|hooks| hooks.as_object())
    {
        let events: Vec<&str> = hooks.keys().map(String::as_str).collect();
        let _ = writeln!(text, "  hooks: {}", events.join(", "));
    }
    text
}
