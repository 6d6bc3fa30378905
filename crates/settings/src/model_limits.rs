//! The keys of contract §22 (real models, real costs): `apiTimeoutMs`,
//! `maxOutputTokens`, `loopGuard` and `modelPrices`, and §33's
//! `retryOnTimeout` and `temperature`. This module only reads
//! and merges them, naming the JSON path of anything wrong; it never applies
//! a limit or computes a cost.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// What the settings say about request limits, the loop guard and prices;
/// `None` (or an empty map) leaves the library's default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelLimitSettings {
    /// `apiTimeoutMs`: how long one model request may take, in milliseconds.
    pub api_timeout_ms: Option<u64>,
    /// `maxOutputTokens`: the most tokens one reply may have.
    pub max_output_tokens: Option<u32>,
    /// `retryOnTimeout`: whether a request that timed out is sent again
    /// also on a loopback server (where by default it is not, §33).
    pub retry_on_timeout: Option<bool>,
    /// `loopGuard.noteAfter` and `loopGuard.stopAfter`.
    pub loop_guard: LoopGuardSettings,
    /// `modelPrices`: USD per million tokens, by model name.
    pub model_prices: BTreeMap<String, ModelPriceSetting>,
    /// `temperature`: the sampling temperature sent with every request
    /// (0 to 2); unset, none is sent and the server's default applies.
    pub temperature: Option<f64>,
}

/// `loopGuard`: after how many identical calls in a row a note is added,
/// and the run ends (0 turns a limit off).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoopGuardSettings {
    /// `noteAfter`: this many identical calls in a row get a note.
    pub note_after: Option<u32>,
    /// `stopAfter`: this many identical calls in a row end the run.
    pub stop_after: Option<u32>,
}

/// One `modelPrices` entry, in USD per million tokens. `cacheRead` and
/// `cacheWrite` default to `input` when left out (never an under-count).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPriceSetting {
    /// `input`: prompt tokens not read from or written to the cache.
    pub input: f64,
    /// `output`: generated tokens.
    pub output: f64,
    /// `cacheRead`: prompt tokens read from the cache.
    pub cache_read: f64,
    /// `cacheWrite`: prompt tokens written to the cache.
    pub cache_write: f64,
}

impl ModelLimitSettings {
    /// Each key `later` sets replaces this one's; prices are replaced model by model.
    pub fn merge(&mut self, later: ModelLimitSettings) {
        if later.api_timeout_ms.is_some() {
            self.api_timeout_ms = later.api_timeout_ms;
        }
        if later.max_output_tokens.is_some() {
            self.max_output_tokens = later.max_output_tokens;
        }
        if later.retry_on_timeout.is_some() {
            self.retry_on_timeout = later.retry_on_timeout;
        }
        if later.temperature.is_some() {
            self.temperature = later.temperature;
        }
        if later.loop_guard.note_after.is_some() {
            self.loop_guard.note_after = later.loop_guard.note_after;
        }
        if later.loop_guard.stop_after.is_some() {
            self.loop_guard.stop_after = later.loop_guard.stop_after;
        }
        self.model_prices.extend(later.model_prices);
    }

    /// What an untrusted project file asked for, as a person reads it.
    pub(crate) fn described(&self) -> Vec<String> {
        let mut items = Vec::new();
        if let Some(millis) = self.api_timeout_ms {
            items.push(format!("apiTimeoutMs {millis}"));
        }
        if let Some(tokens) = self.max_output_tokens {
            items.push(format!("maxOutputTokens {tokens}"));
        }
        if let Some(retry) = self.retry_on_timeout {
            items.push(format!("retryOnTimeout {retry}"));
        }
        if let Some(temperature) = self.temperature {
            items.push(format!("temperature {temperature}"));
        }
        if self.loop_guard != LoopGuardSettings::default() {
            items.push("loopGuard".to_owned());
        }
        for name in self.model_prices.keys() {
            items.push(format!("modelPrices.{name}"));
        }
        items
    }
}

/// Reads one of the five keys into `limits`; `Err` is (JSON path, what is wrong).
pub(crate) fn read(
    limits: &mut ModelLimitSettings,
    key: &str,
    value: &Value,
) -> Result<(), (String, String)> {
    let wrong = |message: &str| (key.to_owned(), message.to_owned());
    match key {
        "apiTimeoutMs" => {
            let millis = value.as_u64().filter(|millis| *millis > 0).ok_or_else(|| {
                wrong("apiTimeoutMs must be a whole number of milliseconds, more than 0")
            })?;
            limits.api_timeout_ms = Some(millis);
        }
        "maxOutputTokens" => {
            let tokens = value
                .as_u64()
                .and_then(|tokens| u32::try_from(tokens).ok())
                .filter(|tokens| *tokens > 0)
                .ok_or_else(|| {
                    wrong("maxOutputTokens must be a whole number of tokens, more than 0")
                })?;
            limits.max_output_tokens = Some(tokens);
        }
        "retryOnTimeout" => {
            let retry = value
                .as_bool()
                .ok_or_else(|| wrong("retryOnTimeout must be true or false"))?;
            limits.retry_on_timeout = Some(retry);
        }
        "temperature" => {
            let temperature = value
                .as_f64()
                .filter(|temperature| (0.0..=MAX_TEMPERATURE).contains(temperature))
                .ok_or_else(|| wrong("temperature must be a number from 0 to 2"))?;
            limits.temperature = Some(temperature);
        }
        "loopGuard" => limits.loop_guard = loop_guard(value)?,
        _ => limits.model_prices = model_prices(value)?,
    }
    Ok(())
}

/// The highest `temperature` any provider takes (OpenAI's; Anthropic's is 1).
const MAX_TEMPERATURE: f64 = 2.0;

fn loop_guard(value: &Value) -> Result<LoopGuardSettings, (String, String)> {
    let object = value.as_object().ok_or_else(|| {
        (
            "loopGuard".to_owned(),
            "loopGuard must be an object: {\"noteAfter\": 3, \"stopAfter\": 5}".to_owned(),
        )
    })?;
    let mut guard = LoopGuardSettings::default();
    for (key, count) in object {
        let path = format!("loopGuard.{key}");
        let slot = match key.as_str() {
            "noteAfter" => &mut guard.note_after,
            "stopAfter" => &mut guard.stop_after,
            _ => {
                return Err((
                    path,
                    "unknown key (expected noteAfter or stopAfter)".to_owned(),
                ))
            }
        };
        let count = count
            .as_u64()
            .and_then(|count| u32::try_from(count).ok())
            .ok_or_else(|| {
                (
                    path.clone(),
                    format!("{key} must be a whole number (0 turns it off)"),
                )
            })?;
        *slot = Some(count);
    }
    Ok(guard)
}

fn model_prices(value: &Value) -> Result<BTreeMap<String, ModelPriceSetting>, (String, String)> {
    let object = value.as_object().ok_or_else(|| {
        (
            "modelPrices".to_owned(),
            "modelPrices must be an object keyed by model name".to_owned(),
        )
    })?;
    object
        .iter()
        .map(|(name, entry)| Ok((name.clone(), price(name, entry)?)))
        .collect()
}

fn price(name: &str, entry: &Value) -> Result<ModelPriceSetting, (String, String)> {
    let path = format!("modelPrices.{name}");
    let object: &Map<String, Value> = entry.as_object().ok_or_else(|| {
        (
            path.clone(),
            "a price must be an object: {\"input\": USD, \"output\": USD, \"cacheRead\": USD, \"cacheWrite\": USD} per million tokens".to_owned(),
        )
    })?;
    if let Some(unknown) = object.keys().find(|key| {
        !matches!(
            key.as_str(),
            "input" | "output" | "cacheRead" | "cacheWrite"
        )
    }) {
        return Err((
            format!("{path}.{unknown}"),
            "unknown key (expected input, output, cacheRead or cacheWrite)".to_owned(),
        ));
    }
    let field = |key: &str, required: bool| -> Result<Option<f64>, (String, String)> {
        match object.get(key) {
            None if required => Err((path.clone(), format!("{key} is required"))),
            None => Ok(None),
            Some(value) => value
                .as_f64()
                .filter(|usd| usd.is_finite() && *usd >= 0.0)
                .map(Some)
                .ok_or_else(|| {
                    (
                        format!("{path}.{key}"),
                        "must be a number of USD per million tokens, 0 or more".to_owned(),
                    )
                }),
        }
    };
    let input = field("input", true)?.unwrap_or_default();
    let output = field("output", true)?.unwrap_or_default();
    Ok(ModelPriceSetting {
        input,
        output,
        cache_read: field("cacheRead", false)?.unwrap_or(input),
        cache_write: field("cacheWrite", false)?.unwrap_or(input),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_all(pairs: &[(&str, Value)]) -> Result<ModelLimitSettings, (String, String)> {
        let mut limits = ModelLimitSettings::default();
        for (key, value) in pairs {
            read(&mut limits, key, value)?;
        }
        Ok(limits)
    }

    #[test]
    fn every_key_is_read_with_cache_prices_defaulting_to_input() {
        let limits = read_all(&[
            ("apiTimeoutMs", json!(900000)),
            ("maxOutputTokens", json!(2048)),
            ("retryOnTimeout", json!(true)),
            ("temperature", json!(0.2)),
            ("loopGuard", json!({"noteAfter": 2, "stopAfter": 0})),
            (
                "modelPrices",
                json!({"qwen": {"input": 0.5, "output": 1.5, "cacheRead": 0.05}}),
            ),
        ])
        .unwrap();
        assert_eq!(
            limits,
            ModelLimitSettings {
                api_timeout_ms: Some(900000),
                max_output_tokens: Some(2048),
                retry_on_timeout: Some(true),
                loop_guard: LoopGuardSettings {
                    note_after: Some(2),
                    stop_after: Some(0)
                },
                model_prices: BTreeMap::from([(
                    "qwen".to_owned(),
                    ModelPriceSetting {
                        input: 0.5,
                        output: 1.5,
                        cache_read: 0.05,
                        cache_write: 0.5
                    }
                )]),
                temperature: Some(0.2),
            }
        );
    }

    #[test]
    fn retry_on_timeout_that_is_not_a_boolean_is_refused() {
        assert_eq!(
            read_all(&[("retryOnTimeout", json!("yes"))]),
            Err((
                "retryOnTimeout".to_owned(),
                "retryOnTimeout must be true or false".to_owned()
            ))
        );
    }

    #[test]
    fn a_price_without_output_names_its_path() {
        assert_eq!(
            read_all(&[("modelPrices", json!({"qwen": {"input": 0.5}}))]),
            Err((
                "modelPrices.qwen".to_owned(),
                "output is required".to_owned()
            ))
        );
    }

    #[test]
    fn a_negative_price_is_refused_at_its_key() {
        assert_eq!(
            read_all(&[("modelPrices", json!({"m": {"input": -1, "output": 1}}))]),
            Err((
                "modelPrices.m.input".to_owned(),
                "must be a number of USD per million tokens, 0 or more".to_owned()
            ))
        );
    }

    #[test]
    fn a_temperature_outside_0_to_2_or_not_a_number_is_refused() {
        let refused: Vec<Result<ModelLimitSettings, (String, String)>> =
            [json!(-0.1), json!(2.5), json!("0.2")]
                .into_iter()
                .map(|value| read_all(&[("temperature", value)]))
                .collect();
        let wrong = Err((
            "temperature".to_owned(),
            "temperature must be a number from 0 to 2".to_owned(),
        ));
        assert_eq!(refused, vec![wrong.clone(), wrong.clone(), wrong]);
    }

    #[test]
    fn an_unknown_loop_guard_key_is_refused() {
        assert_eq!(
            read_all(&[("loopGuard", json!({"after": 3}))]),
            Err((
                "loopGuard.after".to_owned(),
                "unknown key (expected noteAfter or stopAfter)".to_owned()
            ))
        );
    }

    #[test]
    fn a_later_layer_wins_key_by_key_and_model_by_model() {
        let mut first = read_all(&[
            ("loopGuard", json!({"noteAfter": 2, "stopAfter": 4})),
            (
                "modelPrices",
                json!({"a": {"input": 1, "output": 2}, "b": {"input": 1, "output": 2}}),
            ),
        ])
        .unwrap();
        let later = read_all(&[
            ("loopGuard", json!({"stopAfter": 9})),
            ("modelPrices", json!({"b": {"input": 3, "output": 4}})),
        ])
        .unwrap();
        first.merge(later);
        let prices: Vec<(String, f64)> = first
            .model_prices
            .iter()
            .map(|(name, price)| (name.clone(), price.input))
            .collect();
        assert_eq!(
            (first.loop_guard, prices),
            (
                LoopGuardSettings {
                    note_after: Some(2),
                    stop_after: Some(9)
                },
                vec![("a".to_owned(), 1.0), ("b".to_owned(), 3.0)]
            )
        );
    }
}
