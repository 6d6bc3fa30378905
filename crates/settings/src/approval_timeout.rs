//! `approvalTimeout` (contract §18): how long an ask on a fleet worker waits for
//! `agenthub approve` before it is denied. Written as a whole number and a
//! unit — `"90s"`, `"15m"`, `"1h"`, `"2d"` — or a whole number of seconds.
//! It only reads the value; the worker applies it.

use std::time::Duration;

/// How long an ask waits when no settings file sets `approvalTimeout`.
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(60 * 60);

/// Reads an `approvalTimeout` value, or says what is wrong with it.
pub fn parse(value: &serde_json::Value) -> Result<Duration, String> {
    const FORMAT: &str =
        "approvalTimeout must be a whole number of seconds or a string like \"90s\", \"15m\", \"1h\", \"2d\"";
    if let Some(seconds) = value.as_u64() {
        return Ok(Duration::from_secs(seconds));
    }
    let text = value.as_str().ok_or(FORMAT)?.trim();
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let amount: u64 = digits.parse().map_err(|_| FORMAT)?;
    let unit = match &text[digits.len()..] {
        "s" => 1,
        "m" => 60,
        "h" => 60 * 60,
        "d" => 24 * 60 * 60,
        _ => return Err(FORMAT.to_owned()),
    };
    amount
        .checked_mul(unit)
        .map(Duration::from_secs)
        .ok_or_else(|| FORMAT.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_number_is_seconds_and_a_string_names_its_unit() {
        let read: Vec<_> = [
            json!(30),
            json!("90s"),
            json!("15m"),
            json!("1h"),
            json!("2d"),
        ]
        .iter()
        .map(|value| parse(value).map(|duration| duration.as_secs()))
        .collect();
        assert_eq!(read, vec![Ok(30), Ok(90), Ok(900), Ok(3600), Ok(172_800)]);
    }

    #[test]
    fn an_unknown_unit_or_a_negative_number_is_an_error() {
        assert!([json!("5 minutes"), json!(-3), json!("h"), json!(true)]
            .iter()
            .all(|value| parse(value).is_err()));
    }
}
