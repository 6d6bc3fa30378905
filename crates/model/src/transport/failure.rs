//! What a failed HTTP exchange tells the user: the provider's own error message
//! pulled out of its JSON body, and transport errors with their causes.
//!
//! Must never let an API key through: every message passes [`redact`].

use crate::ApiKey;

/// The longest error body quoted when it holds no recognisable message.
const MAX_QUOTED: usize = 500;

/// The provider's message: `error.message` (OpenAI, Anthropic), `error` as a
/// string (Ollama), a top-level `message`, or else the body itself, shortened.
pub fn provider_message(body: &str) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let found = parsed.as_ref().and_then(|value| {
        let error = value.get("error");
        error
            .and_then(|error| error.get("message"))
            .or(error)
            .or_else(|| value.get("message"))
            .and_then(|message| message.as_str())
            .map(str::to_owned)
    });
    match found {
        Some(message) => message,
        None if body.trim().is_empty() => "(empty response body)".to_owned(),
        None => shorten(body.trim()),
    }
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// A reqwest error with its chain of causes ("error sending request: … : connection refused").
pub fn describe_transport(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Replaces every occurrence of the key with `<redacted>`.
pub fn redact(text: String, key: Option<&ApiKey>) -> String {
    match key {
        Some(key) if !key.expose().is_empty() && text.contains(key.expose()) => {
            text.replace(key.expose(), "<redacted>")
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_and_anthropic_error_bodies_give_their_message() {
        let openai = r#"{"error": {"message": "Rate limit reached", "type": "requests"}}"#;
        let anthropic =
            r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#;
        assert_eq!(
            (provider_message(openai), provider_message(anthropic)),
            ("Rate limit reached".to_owned(), "Overloaded".to_owned())
        );
    }

    #[test]
    fn an_error_given_as_a_plain_string_is_used() {
        assert_eq!(
            provider_message(r#"{"error": "model 'x' not found"}"#),
            "model 'x' not found"
        );
    }

    #[test]
    fn a_body_without_a_message_is_quoted_shortened() {
        let body = "x".repeat(600);
        assert_eq!(provider_message(&body), format!("{}…", "x".repeat(500)));
    }

    #[test]
    fn an_empty_body_says_so() {
        assert_eq!(provider_message("  "), "(empty response body)");
    }

    #[test]
    fn the_key_is_redacted_wherever_it_appears() {
        let key = ApiKey::new("sk-secret");
        assert_eq!(
            redact("bad key sk-secret, sk-secret".to_owned(), Some(&key)),
            "bad key <redacted>, <redacted>"
        );
    }
}
