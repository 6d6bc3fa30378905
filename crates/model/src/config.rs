//! Which real model to talk to, and how: the provider, the model name, the
//! endpoint, the API key and the transport limits, resolved from the command
//! line, the environment and the settings files (in that order of precedence).
//!
//! Resolution is a pure function of its inputs (the environment is passed in as
//! a lookup), so it is tested without touching the process environment. This
//! module must never print, log or format an API key: [`ApiKey`]'s `Debug`
//! hides it, and no error message carries it.

use crate::transport::{TransportSettings, API_TIMEOUT_VARIABLE};
use reqwest::Url;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The wire protocol of the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderKind {
    /// OpenAI Chat Completions, also spoken by Ollama, vLLM, llama.cpp and LM Studio.
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
}

impl ProviderKind {
    /// The spelling of `--provider` and the settings key `provider`:
    /// `openai` or `anthropic`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "openai",
            ProviderKind::Anthropic => "anthropic",
        }
    }

    /// The environment variable holding this provider's key.
    pub fn key_variable(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "OPENAI_API_KEY",
            ProviderKind::Anthropic => "ANTHROPIC_API_KEY",
        }
    }

    /// The environment variable that may override this provider's endpoint.
    pub fn base_url_variable(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "OPENAI_BASE_URL",
            ProviderKind::Anthropic => "ANTHROPIC_BASE_URL",
        }
    }

    /// The highest sampling temperature the API takes.
    fn most_temperature(self) -> f64 {
        match self {
            ProviderKind::OpenAi => 2.0,
            ProviderKind::Anthropic => 1.0,
        }
    }

    fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
        }
    }

    /// `claude…` models speak Anthropic Messages; everything else OpenAI's API.
    fn guess_from_model(model: &str) -> Self {
        if model.to_ascii_lowercase().starts_with("claude") {
            ProviderKind::Anthropic
        } else {
            ProviderKind::OpenAi
        }
    }
}

/// A provider name that is neither `openai` nor `anthropic` (as written).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown provider {0:?} (expected openai or anthropic)")]
pub struct UnknownProvider(pub String);

impl FromStr for ProviderKind {
    type Err = UnknownProvider;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "openai" => Ok(ProviderKind::OpenAi),
            "anthropic" => Ok(ProviderKind::Anthropic),
            _ => Err(UnknownProvider(text.to_owned())),
        }
    }
}

/// How tool calls travel between the model and AgentHub.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolProtocol {
    /// The provider's own tool-call fields.
    #[default]
    Native,
    /// The text ReAct protocol (`Thought:` / `Action:` / `Action Input:` /
    /// `Final Answer:`), for models without native tool calling.
    React,
    /// Native, and when a reply has no structured calls, the calls of
    /// offered tools written in its text are taken as calls
    /// ([`TextCallModel`](crate::text_calls::TextCallModel)).
    Auto,
}

impl ToolProtocol {
    /// The spelling of `--tool-protocol` and the settings key `toolProtocol`.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolProtocol::Native => "native",
            ToolProtocol::React => "react",
            ToolProtocol::Auto => "auto",
        }
    }
}

/// A tool protocol that is not `native`, `react` or `auto` (as written).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown tool protocol {0:?} (expected native, react or auto)")]
pub struct UnknownToolProtocol(pub String);

impl FromStr for ToolProtocol {
    type Err = UnknownToolProtocol;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "native" => Ok(ToolProtocol::Native),
            "react" => Ok(ToolProtocol::React),
            "auto" => Ok(ToolProtocol::Auto),
            _ => Err(UnknownToolProtocol(text.to_owned())),
        }
    }
}

/// An API key. Its `Debug` never shows the key; only the HTTP layer reads it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key from wherever the embedder keeps it; from here on it is
    /// only ever sent to the provider.
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("ApiKey(<redacted>)")
    }
}

/// The provider settings one source (flags, or the settings files) gives.
/// Every field is optional; an absent one falls through to the next source.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProviderLayer {
    /// The model name (`--model`, settings `model`).
    pub model: Option<String>,
    /// The provider (`--provider`, settings `provider`).
    pub provider: Option<ProviderKind>,
    /// The endpoint as written (`--base-url`, settings `baseUrl`); checked
    /// by [`ProviderConfig::resolve`].
    pub base_url: Option<String>,
    /// How tool calls travel (`--tool-protocol`, settings `toolProtocol`).
    pub tool_protocol: Option<ToolProtocol>,
    /// The output limit of every request (`--max-output-tokens`, settings
    /// `maxOutputTokens`); default [`DEFAULT_MAX_OUTPUT_TOKENS`].
    pub max_output_tokens: Option<u32>,
    /// The sampling temperature of every request (settings `temperature`);
    /// unset, none is sent.
    pub temperature: Option<f64>,
    /// How long one request may take, in milliseconds (settings
    /// `apiTimeoutMs`; the environment's `API_TIMEOUT_MS` wins over it).
    pub api_timeout_ms: Option<u64>,
    /// Whether a request that timed out is sent again (settings
    /// `retryOnTimeout`); default: yes, except for a loopback endpoint.
    pub retry_on_timeout: Option<bool>,
}

/// Everything needed to build a real model. Resolved by [`ProviderConfig::resolve`].
#[derive(Clone)]
pub struct ProviderConfig {
    /// Which API the endpoint speaks.
    pub provider: ProviderKind,
    /// The model name sent with every request.
    pub model: String,
    /// The API root, e.g. `https://api.openai.com/v1`; the provider appends
    /// its path (`chat/completions`, `v1/messages`).
    pub base_url: Url,
    /// The key sent with every request; `None` is accepted by
    /// [`ProviderConfig::resolve`] only for a loopback endpoint.
    pub api_key: Option<ApiKey>,
    /// Whether tool calls use the provider's own fields or ReAct text
    /// (see [`provider_model`](crate::provider_model)).
    pub tool_protocol: ToolProtocol,
    /// Timeouts and retries of every request.
    pub transport: TransportSettings,
    /// The most tokens one reply may have, sent as `max_tokens` with every
    /// request (settings `maxOutputTokens`, `--max-output-tokens`).
    pub max_tokens: u32,
    /// The sampling temperature sent with every request (settings
    /// `temperature`); `None` sends none.
    pub temperature: Option<f64>,
}

impl fmt::Debug for ProviderConfig {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("ProviderConfig")
            .field("provider", &self.provider)
            .field("model", &self.model)
            .field("base_url", &self.base_url.as_str())
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("tool_protocol", &self.tool_protocol)
            .field("transport", &self.transport)
            .field("max_tokens", &self.max_tokens)
            .field("temperature", &self.temperature)
            .finish()
    }
}

/// A configuration that cannot be used. Exit status 2 in the CLI.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// No model name anywhere.
    #[error("Missing required settings: model (pass --model NAME, set AGENTHUB_MODEL or the settings key \"model\"; or use --script FILE for the offline scripted model)")]
    NoModel,
    /// A remote endpoint without its key; `setting` is the variable's name.
    #[error(
        "Missing required settings: {setting} (set it with `export {setting}=...`; a local \
         server such as Ollama or llama.cpp needs no key: pass --base-url \
         http://127.0.0.1:PORT/v1 instead)"
    )]
    MissingKey {
        /// The environment variable the key is read from, e.g. `OPENAI_API_KEY`.
        setting: String,
    },
    /// `API_TIMEOUT_MS` is not a whole number of milliseconds above 0.
    #[error(
        "invalid API_TIMEOUT_MS {value:?}: it must be a whole number of milliseconds, more than 0"
    )]
    BadTimeout {
        /// The variable's value as set.
        value: String,
    },
    /// The endpoint is not an http(s) URL with a host.
    #[error("invalid base URL {url:?} (from {origin}): {reason}")]
    BadBaseUrl {
        /// The URL as written.
        url: String,
        /// Where it was written: `--base-url`, an environment variable's
        /// name, the settings key, or the default.
        origin: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A temperature the provider does not take (Anthropic's is 0 to 1).
    #[error(
        "settings key \"temperature\": {value} is more than the {provider} API takes (0 to {most})"
    )]
    BadTemperature {
        /// The temperature asked for, as a number is written.
        value: String,
        /// The provider's name (`anthropic`).
        provider: String,
        /// The highest temperature it takes, as a number is written.
        most: String,
    },
    /// The HTTP client could not be built (e.g. TLS could not be set up).
    #[error("cannot set up the HTTP client: {0}")]
    Client(String),
}

/// Reads one environment variable; `None` when unset.
pub type EnvLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The output limit of every request when neither `--max-output-tokens`
/// nor the settings' `maxOutputTokens` says (contract §22).
pub const DEFAULT_MAX_OUTPUT_TOKENS: u32 = 16384;

/// `AGENTHUB_MODEL`: the model when neither flag nor settings name one.
pub const MODEL_VARIABLE: &str = "AGENTHUB_MODEL";

impl ProviderConfig {
    /// Resolves flags > environment > settings. The request timeout is
    /// `API_TIMEOUT_MS`, else the settings' `apiTimeoutMs`, else ten minutes;
    /// a timed-out request is retried when `retryOnTimeout` says so, else
    /// unless the endpoint is on loopback;
    /// the output limit the flag, else the settings, else
    /// [`DEFAULT_MAX_OUTPUT_TOKENS`]. The provider is the flag, else
    /// the settings key, else guessed from the model name (`claude…` is
    /// Anthropic). A key is required unless the endpoint is on loopback.
    ///
    /// ```
    /// use agenthub_model::{ProviderConfig, ProviderKind, ProviderLayer};
    ///
    /// let flags = ProviderLayer {
    ///     base_url: Some("http://localhost:11434/v1".into()),
    ///     ..ProviderLayer::default()
    /// };
    /// let settings = ProviderLayer {
    ///     model: Some("qwen2.5-coder".into()),
    ///     ..ProviderLayer::default()
    /// };
    /// // The environment is passed in: here, nothing is set.
    /// let config = ProviderConfig::resolve(&flags, &settings, &|_| None)?;
    /// assert_eq!(config.provider, ProviderKind::OpenAi);
    /// assert_eq!(config.model, "qwen2.5-coder");
    /// assert!(config.api_key.is_none()); // a loopback endpoint needs no key
    /// # Ok::<(), agenthub_model::ConfigError>(())
    /// ```
    pub fn resolve(
        flags: &ProviderLayer,
        settings: &ProviderLayer,
        env: EnvLookup<'_>,
    ) -> Result<ProviderConfig, ConfigError> {
        let env_value = |name: &str| env(name).filter(|value| !value.trim().is_empty());
        let model = flags
            .model
            .clone()
            .or_else(|| env_value(MODEL_VARIABLE))
            .or_else(|| settings.model.clone())
            .filter(|model| !model.trim().is_empty())
            .ok_or(ConfigError::NoModel)?;
        let provider = flags
            .provider
            .or(settings.provider)
            .unwrap_or_else(|| ProviderKind::guess_from_model(&model));
        let (raw_url, origin) = pick_base_url(flags, settings, provider, &env_value);
        let base_url = parse_base_url(&raw_url, &origin)?;
        let api_key = env_value(provider.key_variable()).map(ApiKey::new);
        let loopback = is_loopback(&base_url);
        if api_key.is_none() && !loopback {
            return Err(ConfigError::MissingKey {
                setting: provider.key_variable().to_owned(),
            });
        }
        let temperature = flags.temperature.or(settings.temperature);
        if let Some(value) = temperature.filter(|value| *value > provider.most_temperature()) {
            return Err(ConfigError::BadTemperature {
                value: value.to_string(),
                provider: provider.as_str().to_owned(),
                most: provider.most_temperature().to_string(),
            });
        }
        Ok(ProviderConfig {
            provider,
            model,
            base_url,
            api_key,
            temperature,
            tool_protocol: flags
                .tool_protocol
                .or(settings.tool_protocol)
                .unwrap_or_default(),
            transport: transport(flags, settings, &env_value, loopback)?,
            max_tokens: flags
                .max_output_tokens
                .or(settings.max_output_tokens)
                .unwrap_or(DEFAULT_MAX_OUTPUT_TOKENS),
        })
    }
}

/// The default transport with the request timeout the sources give.
fn transport(
    flags: &ProviderLayer,
    settings: &ProviderLayer,
    env_value: &dyn Fn(&str) -> Option<String>,
    loopback: bool,
) -> Result<TransportSettings, ConfigError> {
    let from_env = env_value(API_TIMEOUT_VARIABLE)
        .map(|value| {
            value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|millis| *millis > 0)
                .ok_or(ConfigError::BadTimeout { value })
        })
        .transpose()?;
    let millis = flags
        .api_timeout_ms
        .or(from_env)
        .or(settings.api_timeout_ms);
    let mut transport = TransportSettings::default();
    if let Some(millis) = millis {
        transport.request_timeout = std::time::Duration::from_millis(millis);
    }
    transport.retry.retry_timeouts = flags
        .retry_on_timeout
        .or(settings.retry_on_timeout)
        .unwrap_or(!loopback);
    Ok(transport)
}

fn pick_base_url(
    flags: &ProviderLayer,
    settings: &ProviderLayer,
    provider: ProviderKind,
    env_value: &dyn Fn(&str) -> Option<String>,
) -> (String, String) {
    if let Some(url) = &flags.base_url {
        return (url.clone(), "--base-url".to_owned());
    }
    let variable = provider.base_url_variable();
    if let Some(url) = env_value(variable) {
        return (url, variable.to_owned());
    }
    if let Some(url) = &settings.base_url {
        return (url.clone(), "settings key \"baseUrl\"".to_owned());
    }
    (
        provider.default_base_url().to_owned(),
        "the default".to_owned(),
    )
}

fn parse_base_url(raw: &str, origin: &str) -> Result<Url, ConfigError> {
    let bad = |reason: String| ConfigError::BadBaseUrl {
        url: raw.to_owned(),
        origin: origin.to_owned(),
        reason,
    };
    let url = Url::parse(raw.trim()).map_err(|error| bad(error.to_string()))?;
    if url.scheme() != "http" && url.scheme() != "https" {
        return Err(bad(format!(
            "the scheme must be http or https, not {}",
            url.scheme()
        )));
    }
    if url.host().is_none() {
        return Err(bad("it names no host".to_owned()));
    }
    Ok(url)
}

/// 127.0.0.0/8, `localhost`, `[::1]` and IPv4-mapped loopback
/// (`[::ffff:127.0.0.1]`): endpoints that need no key.
pub fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(address)) => address
            .to_ipv4_mapped()
            .map_or(address.is_loopback(), |mapped| mapped.is_loopback()),
        Ok(address) => address.is_loopback(),
        Err(_) => bare.eq_ignore_ascii_case("localhost"),
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
