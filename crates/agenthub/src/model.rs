//! Chooses the model of a run: the scripted model for a script file, else a
//! real provider configured from the run's options > environment > settings
//! files, wrapped in the text ReAct protocol when asked.
//!
//! Every model it builds counts its cost on one meter (contract §22): the
//! provider itself (inside the ReAct wrapper, so that corrections count),
//! the scripted model, and the models subagent definitions name.
//!
//! The precedence and the key rules live in `agenthub_model::ProviderConfig`;
//! this module only gathers the sources. It must never print or log a key.

use crate::options::{ModelOptions, ProviderOptions};
use crate::SetupError;
use agenthub_core::ModelResolver;
use agenthub_model::{
    metered_provider_model, speaking, ChatModel, CostMeter, MeteredModel, ModelPrice, PriceTable,
    ProviderConfig, ProviderKind, ProviderLayer, ScriptedModel, ToolProtocol,
};
use agenthub_settings::Settings;
use std::path::Path;
use std::sync::Arc;

/// Where the model's words come from, which decides how a front end shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelSource {
    /// Replayed from a script: nothing streams; only the final answer matters.
    Scripted,
    /// A real provider: text streams in as it is generated.
    Provider,
}

/// The chosen model and what a front end needs to know about it.
#[derive(Clone)]
pub struct ChosenModel {
    /// The model itself.
    pub model: Arc<dyn ChatModel>,
    /// Scripted or a real provider.
    pub source: ModelSource,
    /// The model's name as hooks see it (SessionStart's `model`).
    pub name: String,
    /// The provider's wire protocol; `None` for the scripted model and an
    /// embedder's own (traces name it as `gen_ai.provider.name`).
    pub provider: Option<ProviderKind>,
    /// The prompt to use when none is given: a script's own `prompt`, else a
    /// neutral task naming the script. `None` for a real provider.
    pub default_prompt: Option<String>,
    /// The script's own `prompt`, when it names one: unlike the neutral
    /// task of `default_prompt`, a front end prefers it to reading stdin.
    pub script_prompt: Option<String>,
    /// Builds the model a subagent definition's `model:` names, on the same
    /// provider. `None`: every subagent shares `model`.
    pub subagent_models: Option<ModelResolver>,
    /// What the model's requests cost so far; `None` for an embedder's own
    /// model (its cost is unknown).
    pub cost_meter: Option<Arc<CostMeter>>,
}

impl ChosenModel {
    /// A model the caller made itself (an embedder's own `ChatModel`), named
    /// `name` for hooks.
    pub fn new(model: Arc<dyn ChatModel>, source: ModelSource, name: impl Into<String>) -> Self {
        ChosenModel {
            model,
            source,
            name: name.into(),
            provider: None,
            default_prompt: None,
            script_prompt: None,
            subagent_models: None,
            cost_meter: None,
        }
    }
}

/// The model `options` and the settings files ask for, its cost counted
/// with no budget.
pub fn choose_model(
    options: &ModelOptions,
    settings: &Settings,
) -> Result<ChosenModel, SetupError> {
    choose_metered(options, settings, None)
}

/// [`choose_model`] with a budget: once the session's requests cost
/// `max_budget_usd`, the model refuses further requests. A budget needs the
/// model's price.
pub(crate) fn choose_metered(
    options: &ModelOptions,
    settings: &Settings,
    max_budget_usd: Option<f64>,
) -> Result<ChosenModel, SetupError> {
    let meter = CostMeter::new(max_budget_usd);
    let prices = price_table(settings);
    let chosen = match options {
        ModelOptions::Scripted { script, protocol } => scripted(script, *protocol, &meter, &prices),
        ModelOptions::Provider(flags) => provider(flags, settings, &meter, &prices),
    }?;
    if max_budget_usd.is_some() && prices.price(&chosen.name).is_none() {
        return Err(SetupError::UnknownPrice { model: chosen.name });
    }
    Ok(chosen)
}

/// The known prices, the settings' `modelPrices` first.
fn price_table(settings: &Settings) -> PriceTable {
    PriceTable::new(
        settings
            .model_limits
            .model_prices
            .iter()
            .map(|(name, price)| {
                let price = ModelPrice {
                    input: price.input,
                    output: price.output,
                    cache_read: price.cache_read,
                    cache_write: price.cache_write,
                };
                (name.clone(), price)
            }),
    )
}

/// The name the scripted model is priced under (settings `modelPrices.scripted`).
const SCRIPTED_NAME: &str = "scripted";

fn scripted(
    path: &Path,
    protocol: ToolProtocol,
    meter: &Arc<CostMeter>,
    prices: &PriceTable,
) -> Result<ChosenModel, SetupError> {
    let scripted = ScriptedModel::from_file(path)?;
    let script_prompt = scripted.prompt().map(str::to_owned);
    let default_prompt = script_prompt
        .clone()
        .unwrap_or_else(|| format!("Replay the script {}", path.display()));
    let metered = MeteredModel::new(
        Arc::new(scripted),
        prices.price(SCRIPTED_NAME),
        meter.clone(),
    );
    Ok(ChosenModel {
        model: speaking(protocol, Arc::new(metered)),
        source: ModelSource::Scripted,
        name: SCRIPTED_NAME.to_owned(),
        provider: None,
        default_prompt: Some(default_prompt),
        script_prompt,
        subagent_models: None,
        cost_meter: Some(meter.clone()),
    })
}

fn provider(
    options: &ProviderOptions,
    settings: &Settings,
    meter: &Arc<CostMeter>,
    prices: &PriceTable,
) -> Result<ChosenModel, SetupError> {
    let config = provider_config(options, settings)?;
    let model = metered_provider_model(&config, meter, prices)?;
    Ok(ChosenModel {
        model: model.clone(),
        source: ModelSource::Provider,
        name: config.model.clone(),
        provider: Some(config.provider),
        default_prompt: None,
        script_prompt: None,
        subagent_models: Some(subagent_models(
            config,
            model,
            meter.clone(),
            prices.clone(),
        )),
        cost_meter: Some(meter.clone()),
    })
}

/// The provider configuration `options` (flags), the environment and the
/// settings give, in that order of precedence; what `run` would talk to
/// (`doctor --probe` sends its one request there).
pub fn provider_config(
    options: &ProviderOptions,
    settings: &Settings,
) -> Result<ProviderConfig, SetupError> {
    let flags = ProviderLayer {
        model: options.model.clone(),
        provider: options.provider,
        base_url: options.base_url.clone(),
        tool_protocol: options.tool_protocol,
        max_output_tokens: options.max_output_tokens,
        api_timeout_ms: None,
        retry_on_timeout: None,
        temperature: None,
    };
    let env = |name: &str| std::env::var(name).ok();
    Ok(ProviderConfig::resolve(
        &flags,
        &settings_layer(settings)?,
        &env,
    )?)
}

/// Claude Code's model aliases in agent definitions, as Anthropic model ids.
const CLAUDE_ALIASES: [(&str, &str); 3] = [
    ("sonnet", "claude-sonnet-4-5"),
    ("opus", "claude-opus-4-1"),
    ("haiku", "claude-haiku-4-5"),
];

/// A definition's `model:` on the parent's provider: a full model name as
/// given; a Claude alias as its Anthropic id, or — on another provider,
/// where it names nothing — the parent's own model.
fn subagent_models(
    config: ProviderConfig,
    parent: Arc<dyn ChatModel>,
    meter: Arc<CostMeter>,
    prices: PriceTable,
) -> ModelResolver {
    Arc::new(move |name: &str| {
        let alias = CLAUDE_ALIASES.iter().find(|(alias, _)| *alias == name);
        let model = match (alias, config.provider) {
            (Some((_, id)), ProviderKind::Anthropic) => (*id).to_owned(),
            (Some(_), _) => return Ok(parent.clone()),
            (None, _) => name.to_owned(),
        };
        let config = ProviderConfig {
            model,
            ..config.clone()
        };
        metered_provider_model(&config, &meter, &prices)
    })
}

/// The merged settings files' `model`, `provider`, `baseUrl`,
/// `toolProtocol`, `maxOutputTokens`, `apiTimeoutMs`, `retryOnTimeout` and `temperature` keys.
fn settings_layer(settings: &Settings) -> Result<ProviderLayer, SetupError> {
    let provider = settings
        .provider
        .as_deref()
        .map(str::parse::<ProviderKind>)
        .transpose()
        .map_err(SetupError::ProviderName)?;
    let tool_protocol = settings
        .tool_protocol
        .as_deref()
        .map(str::parse::<ToolProtocol>)
        .transpose()
        .map_err(SetupError::ToolProtocolName)?;
    Ok(ProviderLayer {
        model: settings.model.clone(),
        provider,
        base_url: settings.base_url.clone(),
        tool_protocol,
        max_output_tokens: settings.model_limits.max_output_tokens,
        api_timeout_ms: settings.model_limits.api_timeout_ms,
        retry_on_timeout: settings.model_limits.retry_on_timeout,
        temperature: settings.model_limits.temperature,
    })
}
