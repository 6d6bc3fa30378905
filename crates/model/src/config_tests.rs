use super::*;
use std::collections::HashMap;

fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

fn resolve(
    flags: ProviderLayer,
    settings: ProviderLayer,
    vars: &[(&str, &str)],
) -> Result<ProviderConfig, ConfigError> {
    let vars = env(vars);
    let lookup = move |name: &str| vars.get(name).cloned();
    ProviderConfig::resolve(&flags, &settings, &lookup)
}

fn model_flag(model: &str) -> ProviderLayer {
    ProviderLayer {
        model: Some(model.to_owned()),
        ..ProviderLayer::default()
    }
}

/// (provider, model, base URL, has key) of a resolved configuration.
fn summary(config: &ProviderConfig) -> (ProviderKind, String, String, bool) {
    (
        config.provider,
        config.model.clone(),
        config.base_url.to_string(),
        config.api_key.is_some(),
    )
}

#[test]
fn no_model_anywhere_names_the_missing_setting() {
    let error = resolve(ProviderLayer::default(), ProviderLayer::default(), &[]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Missing required settings: model (pass --model NAME, set AGENTHUB_MODEL or the settings key \"model\"; or use --script FILE for the offline scripted model)"
    );
}

#[test]
fn a_remote_endpoint_without_a_key_is_refused_with_the_exact_message() {
    let error = resolve(model_flag("gpt-4o"), ProviderLayer::default(), &[]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Missing required settings: OPENAI_API_KEY (set it with `export OPENAI_API_KEY=...`; a local server such as Ollama or llama.cpp needs no key: pass --base-url http://127.0.0.1:PORT/v1 instead)"
    );
}

#[test]
fn an_empty_key_counts_as_missing() {
    let error = resolve(
        model_flag("gpt-4o"),
        ProviderLayer::default(),
        &[("OPENAI_API_KEY", " ")],
    )
    .unwrap_err();
    assert_eq!(
        error,
        ConfigError::MissingKey {
            setting: "OPENAI_API_KEY".into()
        }
    );
}

#[test]
fn loopback_endpoints_need_no_key() {
    let hosts = [
        "http://127.0.0.1:8080/v1",
        "http://127.1.2.3",
        "http://localhost:11434/v1",
        "http://[::1]:8000",
        "http://[::ffff:127.0.0.1]:8000",
        "http://[::ffff:10.0.0.1]:8000",
    ];
    let resolved: Vec<bool> = hosts
        .iter()
        .map(|url| {
            resolve(
                model_flag("m"),
                ProviderLayer::default(),
                &[("OPENAI_BASE_URL", url)],
            )
            .is_ok()
        })
        .collect();
    assert_eq!(resolved, vec![true, true, true, true, true, false]);
}

#[test]
fn flags_beat_the_environment_which_beats_settings() {
    let flags = ProviderLayer {
        base_url: Some("http://127.0.0.1:1/v1".into()),
        ..ProviderLayer::default()
    };
    let settings = ProviderLayer {
        model: Some("from-settings".into()),
        base_url: Some("http://127.0.0.1:3/v1".into()),
        ..ProviderLayer::default()
    };
    let config = resolve(
        flags,
        settings,
        &[
            ("AGENTHUB_MODEL", "from-env"),
            ("OPENAI_BASE_URL", "http://127.0.0.1:2/v1"),
        ],
    )
    .unwrap();
    assert_eq!(
        summary(&config),
        (
            ProviderKind::OpenAi,
            "from-env".into(),
            "http://127.0.0.1:1/v1".into(),
            false
        )
    );
}

#[test]
fn settings_fill_what_flags_and_environment_leave_open() {
    let settings = ProviderLayer {
        model: Some("llama3".into()),
        provider: Some(ProviderKind::OpenAi),
        base_url: Some("http://localhost:11434/v1".into()),
        tool_protocol: Some(ToolProtocol::React),
        ..ProviderLayer::default()
    };
    let config = resolve(ProviderLayer::default(), settings, &[]).unwrap();
    assert_eq!(
        (summary(&config), config.tool_protocol),
        (
            (
                ProviderKind::OpenAi,
                "llama3".into(),
                "http://localhost:11434/v1".into(),
                false
            ),
            ToolProtocol::React
        )
    );
}

#[test]
fn a_claude_model_selects_anthropic_with_its_key_and_default_endpoint() {
    let config = resolve(
        model_flag("claude-sonnet-4-5"),
        ProviderLayer::default(),
        &[
            ("ANTHROPIC_API_KEY", "sk-ant"),
            ("OPENAI_BASE_URL", "http://127.0.0.1:9"),
        ],
    )
    .unwrap();
    assert_eq!(
        summary(&config),
        (
            ProviderKind::Anthropic,
            "claude-sonnet-4-5".into(),
            "https://api.anthropic.com/".into(),
            true
        )
    );
}

#[test]
fn an_explicit_provider_beats_the_model_name() {
    let flags = ProviderLayer {
        model: Some("claude-via-proxy".into()),
        provider: Some(ProviderKind::OpenAi),
        ..ProviderLayer::default()
    };
    let config = resolve(flags, ProviderLayer::default(), &[("OPENAI_API_KEY", "k")]).unwrap();
    assert_eq!(config.provider, ProviderKind::OpenAi);
}

#[test]
fn anthropic_without_its_key_names_its_variable() {
    let flags = ProviderLayer {
        model: Some("m".into()),
        provider: Some(ProviderKind::Anthropic),
        ..ProviderLayer::default()
    };
    let error = resolve(flags, ProviderLayer::default(), &[("OPENAI_API_KEY", "k")]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Missing required settings: ANTHROPIC_API_KEY (set it with `export ANTHROPIC_API_KEY=...`; a local server such as Ollama or llama.cpp needs no key: pass --base-url http://127.0.0.1:PORT/v1 instead)"
    );
}

#[test]
fn a_malformed_base_url_names_where_it_came_from() {
    let error = resolve(
        model_flag("m"),
        ProviderLayer::default(),
        &[("OPENAI_BASE_URL", "ftp://example.com")],
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid base URL \"ftp://example.com\" (from OPENAI_BASE_URL): the scheme must be http or https, not ftp"
    );
}

#[test]
fn debug_output_never_shows_the_key() {
    let config = resolve(
        model_flag("gpt-4o"),
        ProviderLayer::default(),
        &[("OPENAI_API_KEY", "sk-very-secret")],
    )
    .unwrap();
    let shown = format!("{config:?} {:?}", config.api_key);
    assert_eq!(
        (
            shown.contains("sk-very-secret"),
            shown.contains("<redacted>")
        ),
        (false, true)
    );
}

#[test]
fn provider_and_protocol_names_parse_with_clear_errors() {
    assert_eq!(
        (
            "Anthropic".parse::<ProviderKind>(),
            ["react", "AUTO", "native"].map(str::parse::<ToolProtocol>),
            "gemini".parse::<ProviderKind>()
        ),
        (
            Ok(ProviderKind::Anthropic),
            [
                Ok(ToolProtocol::React),
                Ok(ToolProtocol::Auto),
                Ok(ToolProtocol::Native)
            ],
            Err(UnknownProvider("gemini".to_owned()))
        )
    );
    assert_eq!(
        UnknownProvider("gemini".to_owned()).to_string(),
        "unknown provider \"gemini\" (expected openai or anthropic)"
    );
    assert_eq!(
        "x".parse::<ToolProtocol>()
            .map_err(|error| error.to_string()),
        Err("unknown tool protocol \"x\" (expected native, react or auto)".to_owned())
    );
}

#[test]
fn the_request_timeout_comes_from_api_timeout_ms_before_the_settings() {
    let settings = ProviderLayer {
        api_timeout_ms: Some(900_000),
        ..model_flag("m")
    };
    let from_env = resolve(
        ProviderLayer::default(),
        settings.clone(),
        &[("API_TIMEOUT_MS", "1500"), ("OPENAI_API_KEY", "k")],
    )
    .unwrap();
    let from_settings = resolve(
        ProviderLayer::default(),
        settings,
        &[("OPENAI_API_KEY", "k")],
    )
    .unwrap();
    let by_default = resolve(
        model_flag("m"),
        ProviderLayer::default(),
        &[("OPENAI_API_KEY", "k")],
    )
    .unwrap();
    assert_eq!(
        (
            from_env.transport.request_timeout,
            from_settings.transport.request_timeout,
            by_default.transport.request_timeout
        ),
        (
            std::time::Duration::from_millis(1500),
            std::time::Duration::from_secs(900),
            std::time::Duration::from_secs(600)
        )
    );
}

#[test]
fn an_api_timeout_that_is_not_a_number_of_milliseconds_is_refused() {
    let error = resolve(
        model_flag("m"),
        ProviderLayer::default(),
        &[("API_TIMEOUT_MS", "10m"), ("OPENAI_API_KEY", "k")],
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid API_TIMEOUT_MS \"10m\": it must be a whole number of milliseconds, more than 0"
    );
}

#[test]
fn the_output_limit_is_the_flag_else_the_settings_else_16384() {
    let flags = ProviderLayer {
        max_output_tokens: Some(512),
        ..model_flag("m")
    };
    let settings = ProviderLayer {
        max_output_tokens: Some(2048),
        ..ProviderLayer::default()
    };
    let limits: Vec<u32> = [
        (flags, settings.clone()),
        (model_flag("m"), settings),
        (model_flag("m"), ProviderLayer::default()),
    ]
    .into_iter()
    .map(|(flags, settings)| {
        resolve(flags, settings, &[("OPENAI_API_KEY", "k")])
            .unwrap()
            .max_tokens
    })
    .collect();
    assert_eq!(limits, vec![512, 2048, 16384]);
}

#[test]
fn timeouts_are_retried_for_a_remote_endpoint_and_not_for_loopback_unless_the_settings_say() {
    let at = |url: &str| ProviderLayer {
        base_url: Some(url.to_owned()),
        ..model_flag("m")
    };
    let retry_on_timeout = ProviderLayer {
        retry_on_timeout: Some(true),
        ..ProviderLayer::default()
    };
    let retried: Vec<bool> = [
        (at("https://api.example.com/v1"), ProviderLayer::default()),
        (at("http://127.0.0.1:8080/v1"), ProviderLayer::default()),
        (at("http://localhost:8080/v1"), ProviderLayer::default()),
        (at("http://[::1]:8080/v1"), ProviderLayer::default()),
        (at("http://127.0.0.1:8080/v1"), retry_on_timeout),
    ]
    .into_iter()
    .map(|(flags, settings)| {
        resolve(flags, settings, &[("OPENAI_API_KEY", "k")])
            .unwrap()
            .transport
            .retry
            .retry_timeouts
    })
    .collect();
    assert_eq!(retried, vec![true, false, false, false, true]);
}

#[test]
fn the_settings_temperature_is_kept_up_to_what_the_provider_takes() {
    let settings = ProviderLayer {
        temperature: Some(1.5),
        ..ProviderLayer::default()
    };
    let at = |provider: ProviderKind| {
        let flags = ProviderLayer {
            provider: Some(provider),
            base_url: Some("http://127.0.0.1:8080".into()),
            ..model_flag("m")
        };
        resolve(flags, settings.clone(), &[]).map(|config| config.temperature)
    };
    assert_eq!(
        (
            at(ProviderKind::OpenAi),
            at(ProviderKind::Anthropic).map_err(|e| e.to_string())
        ),
        (
            Ok(Some(1.5)),
            Err(
                "settings key \"temperature\": 1.5 is more than the anthropic API takes (0 to 1)"
                    .to_owned()
            )
        )
    );
}

#[test]
fn loopback_endpoints_are_resolved_without_a_key_even_for_anthropic() {
    let keys: Vec<bool> = [ProviderKind::OpenAi, ProviderKind::Anthropic]
        .into_iter()
        .map(|provider| {
            let flags = ProviderLayer {
                provider: Some(provider),
                base_url: Some("http://localhost:8080".into()),
                ..model_flag("m")
            };
            resolve(flags, ProviderLayer::default(), &[])
                .unwrap()
                .api_key
                .is_some()
        })
        .collect();
    assert_eq!(keys, vec![false, false]);
}
