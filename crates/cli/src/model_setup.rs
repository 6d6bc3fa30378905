//! Chooses the model of a run: the scripted model for `--script FILE`, else a
//! real provider configured from flags > environment > settings files, wrapped
//! in the text ReAct protocol for `--tool-protocol react`.
//!
//! The precedence and the key rules live in `agenthub_model::ProviderConfig`;
//! this module only gathers the sources. It must never print or log a key.

use crate::args::{ProviderArg, RunArgs, ToolProtocolArg};
use crate::error::CliError;
use agenthub_model::{
    provider_model, ChatModel, ProviderConfig, ProviderKind, ProviderLayer, ReactModel,
    ScriptedModel, ToolProtocol,
};
use agenthub_settings::Settings;
use std::sync::Arc;

/// Where the model's words come from, which decides how text mode shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelSource {
    /// Replayed from a script: only the final answer is printed.
    Scripted,
    /// A real provider: text is printed as it streams in.
    Provider,
}

/// The chosen model and where it comes from.
pub struct ModelSetup {
    pub model: Arc<dyn ChatModel>,
    pub source: ModelSource,
    /// The model's name as hooks see it (SessionStart's `model`).
    pub name: String,
    /// The prompt to use when the command line gives none: a script's own
    /// `prompt`, else a neutral task naming the script.
    pub default_prompt: Option<String>,
}

/// The model for `agenthub run`. Configuration problems are usage errors (exit 2).
pub fn choose_model(args: &RunArgs, settings: &Settings) -> Result<ModelSetup, CliError> {
    let protocol = args.tool_protocol.map(tool_protocol);
    if let Some(path) = &args.script {
        let scripted =
            ScriptedModel::from_file(path).map_err(|error| CliError::Usage(error.to_string()))?;
        let default_prompt = scripted
            .prompt()
            .map(str::to_owned)
            .unwrap_or_else(|| format!("Replay the script {}", path.display()));
        return Ok(ModelSetup {
            model: wrap(Arc::new(scripted), protocol.unwrap_or_default()),
            source: ModelSource::Scripted,
            name: "scripted".to_owned(),
            default_prompt: Some(default_prompt),
        });
    }
    let flags = ProviderLayer {
        model: args.model.clone(),
        provider: args.provider.map(provider_kind),
        base_url: args.base_url.clone(),
        tool_protocol: protocol,
    };
    let env = |name: &str| std::env::var(name).ok();
    let config = ProviderConfig::resolve(&flags, &settings_layer(settings)?, &env)
        .map_err(|error| CliError::Usage(error.to_string()))?;
    let model = provider_model(&config).map_err(|error| CliError::Usage(error.to_string()))?;
    Ok(ModelSetup {
        model,
        source: ModelSource::Provider,
        name: config.model.clone(),
        default_prompt: None,
    })
}

/// The merged settings files' `model`, `provider` and `baseUrl` keys.
fn settings_layer(settings: &Settings) -> Result<ProviderLayer, CliError> {
    let provider = settings
        .provider
        .as_deref()
        .map(str::parse::<ProviderKind>)
        .transpose()
        .map_err(|error| CliError::Usage(format!("settings key \"provider\": {error}")))?;
    Ok(ProviderLayer {
        model: settings.model.clone(),
        provider,
        base_url: settings.base_url.clone(),
        tool_protocol: None,
    })
}

fn wrap(model: Arc<dyn ChatModel>, protocol: ToolProtocol) -> Arc<dyn ChatModel> {
    match protocol {
        ToolProtocol::Native => model,
        ToolProtocol::React => Arc::new(ReactModel::new(model)),
    }
}

fn provider_kind(arg: ProviderArg) -> ProviderKind {
    match arg {
        ProviderArg::Openai => ProviderKind::OpenAi,
        ProviderArg::Anthropic => ProviderKind::Anthropic,
    }
}

fn tool_protocol(arg: ToolProtocolArg) -> ToolProtocol {
    match arg {
        ToolProtocolArg::Native => ToolProtocol::Native,
        ToolProtocolArg::React => ToolProtocol::React,
    }
}
