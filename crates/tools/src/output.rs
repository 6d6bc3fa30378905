//! The output cap: large tool outputs are cut with a marker that says how much.

/// Tool outputs longer than this many characters are cut.
pub const OUTPUT_CAP_CHARS: usize = 30_000;

/// Keeps the first `cap` characters and appends a marker naming how many were cut.
pub fn truncate_output(text: String, cap: usize) -> String {
    let total = text.chars().count();
    if total <= cap {
        return text;
    }
    let cut_at = text
        .char_indices()
        .nth(cap)
        .map_or(text.len(), |(index, _)| index);
    let mut kept = text;
    kept.truncate(cut_at);
    kept.push_str(&format!(
        "\n[output truncated: {} of {} characters cut]",
        total - cap,
        total
    ));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_output_is_kept_whole() {
        assert_eq!(truncate_output("abc".into(), 3), "abc");
    }

    #[test]
    fn long_output_is_cut_with_a_marker_counting_characters() {
        assert_eq!(
            truncate_output("héllo".into(), 2),
            "hé\n[output truncated: 3 of 5 characters cut]"
        );
    }
}
