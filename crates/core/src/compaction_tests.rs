use super::*;
use agenthub_protocol::ToolCall;

fn calls(ids: &[&str]) -> Message {
    Message::Assistant {
        content: None,
        tool_calls: ids
            .iter()
            .map(|id| ToolCall::new(*id, "Echo", "{}"))
            .collect(),
    }
}

/// A history written as letters: S system, U user, A answer, C(n) a call
/// message with n calls (its results follow as R).
fn history(spec: &str) -> Vec<Message> {
    let mut out = Vec::new();
    let mut next = 0;
    for token in spec.split_whitespace() {
        match token {
            "S" => out.push(Message::system("s")),
            "U" => out.push(Message::user("u")),
            "A" => out.push(Message::assistant_text("a")),
            "R" => {
                next += 1;
                out.push(Message::tool(format!("c{next}"), "r"));
            }
            calls_token => {
                let count: usize = calls_token.trim_start_matches('C').parse().unwrap_or(1);
                let ids: Vec<String> = (next + 1..=next + count).map(|i| format!("c{i}")).collect();
                let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
                out.push(calls(&ids));
            }
        }
    }
    out
}

#[test]
fn the_kept_suffix_never_starts_inside_a_tool_round() {
    let table = [
        // (history, want, kept)
        ("S U A U A", 2, 2),         // starts at the second prompt
        ("S U C1 R A", 2, 3),        // would start at R: moves back to its call
        ("S U C2 R R A", 2, 4),      // two results: back to the call message
        ("S U C1 R S A", 2, 4),      // starts at a context message: back to the call
        ("S S U A", 4, 1),           // short: keep less so something is summarised
        ("S U", 4, 0),               // only one message after the system prompt
        ("U C1 R C1 R A U A", 3, 3), // starts at the last prompt
        ("U C1 R C1 R", 1, 2),       // the last round whole
    ];
    let kept: Vec<usize> = table
        .iter()
        .map(|(spec, want, _)| kept_suffix(&history(spec), *want))
        .collect();
    let expected: Vec<usize> = table.iter().map(|(_, _, kept)| *kept).collect();
    assert_eq!(kept, expected);
}

#[test]
fn the_compacted_history_is_system_prompt_then_summary_then_the_kept_messages() {
    let before = history("S U C1 R A U A");
    let after = compacted(&before, summary_message("sum"), 2);
    assert_eq!(
        after,
        vec![
            Message::system("s"),
            Message::user(format!("{SUMMARY_HEADER}\n\nsum")),
            Message::user("u"),
            Message::assistant_text("a"),
        ]
    );
}

#[test]
fn the_kept_suffix_drops_whole_rounds_until_it_fits_its_room() {
    let mut before = history("U C1 R U A");
    before[2] = Message::tool("c1", "r".repeat(400));
    let kept: Vec<usize> = [1000, 20, 0]
        .iter()
        .map(|room| kept_within(&before, 4, *room))
        .collect();
    assert_eq!(kept, vec![4, 2, 0]);
}
