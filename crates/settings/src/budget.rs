//! The context budget keys (contract §12 "Compaction"): `contextWindow` (tokens)
//! and `autoCompactThreshold` (a fraction of the window). This module only
//! reads and merges them; it never decides when to compact.

use serde_json::Value;

/// What the settings say about the context budget; `None` leaves the
/// library's default (the model's known window, threshold 0.8).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ContextBudgetSettings {
    /// `contextWindow`: the model's context window in tokens.
    pub context_window: Option<u64>,
    /// `autoCompactThreshold`: compact when the history uses this fraction
    /// of the window (above 0, at most 1).
    pub auto_compact_threshold: Option<f64>,
}

impl ContextBudgetSettings {
    /// Each key of `later` that is set replaces this one's.
    pub fn merge(&mut self, later: ContextBudgetSettings) {
        if later.context_window.is_some() {
            self.context_window = later.context_window;
        }
        if later.auto_compact_threshold.is_some() {
            self.auto_compact_threshold = later.auto_compact_threshold;
        }
    }
}

/// Reads one of the two keys into `budget`; `Err` says what is wrong.
pub(crate) fn read(
    budget: &mut ContextBudgetSettings,
    key: &str,
    value: &Value,
) -> Result<(), String> {
    if key == "contextWindow" {
        let tokens = value
            .as_u64()
            .filter(|tokens| *tokens > 0)
            .ok_or("contextWindow must be a whole number of tokens, more than 0")?;
        budget.context_window = Some(tokens);
        return Ok(());
    }
    let fraction = value
        .as_f64()
        .filter(|fraction| *fraction > 0.0 && *fraction <= 1.0)
        .ok_or("autoCompactThreshold must be a number above 0 and at most 1")?;
    budget.auto_compact_threshold = Some(fraction);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_keys_are_read_and_a_later_layer_wins_key_by_key() {
        let mut first = ContextBudgetSettings::default();
        read(&mut first, "contextWindow", &json!(2000)).unwrap();
        read(&mut first, "autoCompactThreshold", &json!(0.5)).unwrap();
        let mut later = ContextBudgetSettings::default();
        read(&mut later, "contextWindow", &json!(800)).unwrap();
        first.merge(later);
        assert_eq!(
            first,
            ContextBudgetSettings {
                context_window: Some(800),
                auto_compact_threshold: Some(0.5)
            }
        );
    }

    #[test]
    fn a_threshold_outside_zero_to_one_is_refused() {
        let mut budget = ContextBudgetSettings::default();
        assert_eq!(
            read(&mut budget, "autoCompactThreshold", &json!(1.5)),
            Err("autoCompactThreshold must be a number above 0 and at most 1".to_owned())
        );
    }
}
