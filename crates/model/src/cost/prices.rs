//! Prices in USD per million tokens, by model name: the settings'
//! `modelPrices` first, then [`KNOWN_PRICES`]. Pure data and arithmetic.

use agenthub_protocol::Usage;

/// What one million tokens of each kind cost, in USD.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPrice {
    /// Prompt tokens neither read from nor written to the cache.
    pub input: f64,
    /// Generated tokens.
    pub output: f64,
    /// Prompt tokens read from the provider's cache.
    pub cache_read: f64,
    /// Prompt tokens written to the provider's cache.
    pub cache_write: f64,
}

impl ModelPrice {
    /// The cost of `usage` in USD. `usage.input_tokens` counts the cached
    /// tokens too, so they are taken out before the input price applies.
    pub fn cost(&self, usage: &Usage) -> f64 {
        let cached = usage
            .cache_read_tokens
            .saturating_add(usage.cache_creation_tokens);
        let plain = usage.input_tokens.saturating_sub(cached);
        (plain as f64 * self.input
            + usage.cache_read_tokens as f64 * self.cache_read
            + usage.cache_creation_tokens as f64 * self.cache_write
            + usage.output_tokens as f64 * self.output)
            / 1_000_000.0
    }
}

/// When [`KNOWN_PRICES`] were copied from the vendors' pricing pages
/// (<https://www.anthropic.com/pricing>, <https://openai.com/api/pricing>).
/// Prices change: settings `modelPrices` override any entry.
pub const PRICES_CHECKED: &str = "2025-08";

const fn price(input: f64, output: f64, cache_read: f64, cache_write: f64) -> ModelPrice {
    ModelPrice {
        input,
        output,
        cache_read,
        cache_write,
    }
}

/// Standard (not batch) API prices of known models, USD per million tokens,
/// as of [`PRICES_CHECKED`]. OpenAI bills no cache writes: its write price
/// is its input price.
pub const KNOWN_PRICES: &[(&str, ModelPrice)] = &[
    ("claude-opus-4-1", price(15.0, 75.0, 1.5, 18.75)),
    ("claude-opus-4", price(15.0, 75.0, 1.5, 18.75)),
    ("claude-sonnet-4-5", price(3.0, 15.0, 0.3, 3.75)),
    ("claude-sonnet-4", price(3.0, 15.0, 0.3, 3.75)),
    ("claude-3-7-sonnet", price(3.0, 15.0, 0.3, 3.75)),
    ("claude-haiku-4-5", price(1.0, 5.0, 0.1, 1.25)),
    ("claude-3-5-haiku", price(0.8, 4.0, 0.08, 1.0)),
    ("gpt-5", price(1.25, 10.0, 0.125, 1.25)),
    ("gpt-5-mini", price(0.25, 2.0, 0.025, 0.25)),
    ("gpt-5-nano", price(0.05, 0.4, 0.005, 0.05)),
    ("gpt-4.1", price(2.0, 8.0, 0.5, 2.0)),
    ("gpt-4.1-mini", price(0.4, 1.6, 0.1, 0.4)),
    ("gpt-4.1-nano", price(0.1, 0.4, 0.025, 0.1)),
    ("gpt-4o", price(2.5, 10.0, 1.25, 2.5)),
    ("gpt-4o-mini", price(0.15, 0.6, 0.075, 0.15)),
    ("o3", price(2.0, 8.0, 0.5, 2.0)),
    ("o4-mini", price(1.1, 4.4, 0.275, 1.1)),
];

/// The settings' prices, then the known ones.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PriceTable {
    configured: Vec<(String, ModelPrice)>,
}

impl PriceTable {
    /// A table where `configured` (the settings' `modelPrices`) wins over
    /// [`KNOWN_PRICES`].
    pub fn new(configured: impl IntoIterator<Item = (String, ModelPrice)>) -> Self {
        PriceTable {
            configured: configured.into_iter().collect(),
        }
    }

    /// The price of `model`: a configured name, else a known one; a name
    /// matches itself and its dated versions (`claude-sonnet-4-5-20250929`
    /// is `claude-sonnet-4-5`), the longest match winning. `None` when unknown.
    pub fn price(&self, model: &str) -> Option<ModelPrice> {
        let configured = self
            .configured
            .iter()
            .map(|(name, price)| (name.as_str(), *price));
        longest_match(model, configured)
            .or_else(|| longest_match(model, KNOWN_PRICES.iter().copied()))
    }
}

fn longest_match<'a>(
    model: &str,
    table: impl Iterator<Item = (&'a str, ModelPrice)>,
) -> Option<ModelPrice> {
    table
        .filter(|(name, _)| names_version_of(model, name))
        .max_by_key(|(name, _)| name.len())
        .map(|(_, price)| price)
}

/// `model` is `name`, or `name` followed by `-` and a version.
fn names_version_of(model: &str, name: &str) -> bool {
    match model.strip_prefix(name) {
        Some("") => true,
        Some(rest) => rest.starts_with('-') && rest[1..].starts_with(|c: char| c.is_ascii_digit()),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(input: u64, output: u64, read: u64, written: u64) -> Usage {
        Usage {
            input_tokens: input,
            output_tokens: output,
            cache_read_tokens: read,
            cache_creation_tokens: written,
        }
    }

    #[test]
    fn each_kind_of_token_is_charged_at_its_own_price() {
        let price = price(3.0, 15.0, 0.3, 3.75);
        let cost = price.cost(&usage(1_500_000, 100_000, 400_000, 100_000));
        // 1M plain * 3 + 0.4M read * 0.3 + 0.1M written * 3.75 + 0.1M out * 15
        assert!((cost - (3.0 + 0.12 + 0.375 + 1.5)).abs() < 1e-9, "{cost}");
    }

    #[test]
    fn a_dated_version_has_its_family_price_and_the_longest_name_wins() {
        let table = PriceTable::default();
        assert_eq!(
            (
                table.price("claude-sonnet-4-5-20250929"),
                table.price("gpt-4o-mini"),
                table.price("gpt-4o-mini-2024-07-18"),
            ),
            (
                Some(price(3.0, 15.0, 0.3, 3.75)),
                Some(price(0.15, 0.6, 0.075, 0.15)),
                Some(price(0.15, 0.6, 0.075, 0.15)),
            )
        );
    }

    #[test]
    fn an_unknown_model_has_no_price() {
        assert_eq!(
            (
                PriceTable::default().price("qwen2.5-coder"),
                PriceTable::default().price("gpt-4o-custom")
            ),
            (None, None)
        );
    }

    #[test]
    fn a_configured_price_wins_over_the_known_one() {
        let table = PriceTable::new([("gpt-4o".to_owned(), price(1.0, 2.0, 0.5, 1.0))]);
        assert_eq!(table.price("gpt-4o"), Some(price(1.0, 2.0, 0.5, 1.0)));
    }
}
