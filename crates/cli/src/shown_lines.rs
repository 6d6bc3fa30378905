//! What a person approves is what runs (contract §26): a command, hook command
//! or rule that spans several lines is shown with every line visible and
//! marked (`│` and its number), runs of blank lines collapsed into one
//! marked line that says how many, and its line count said again next to the
//! question ([`count_note`]). Forty newlines can then no longer push the real
//! command off the screen and leave a forged question in its place.
//!
//! It must never drop a line that is not blank, and never show a line
//! without its mark: the mark is what tells a line of the command from a line
//! AgentHub wrote. Control characters are left to [`crate::terminal::neutralise`].

/// `text` under `indent`: as is when it is one line; else a header saying
/// how many lines it has, then each line marked and numbered.
pub fn block(indent: &str, text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    if lines.len() == 1 {
        return format!("{indent}{text}\n");
    }
    let width = lines.len().to_string().len();
    let mut shown = format!("{indent}({} lines, each marked │)\n", lines.len());
    let mut index = 0;
    while index < lines.len() {
        let blank_run = lines[index..]
            .iter()
            .take_while(|line| line.trim().is_empty())
            .count();
        if blank_run > 1 {
            shown.push_str(&format!(
                "{indent}{:>width$} ┆ … {blank_run} blank lines ({}–{})\n",
                "",
                index + 1,
                index + blank_run
            ));
            index += blank_run;
            continue;
        }
        shown.push_str(&format!(
            "{indent}{:>width$} │ {}\n",
            index + 1,
            lines[index]
        ));
        index += 1;
    }
    shown
}

/// `label` and `text` on one line when `text` is one line; else the label
/// alone, then [`block`] of `text` indented under it.
pub fn labelled(indent: &str, label: &str, text: &str) -> String {
    if line_count(text) == 1 {
        return format!("{indent}{label}{text}\n");
    }
    format!(
        "{indent}{}\n{}",
        label.trim_end(),
        block(&format!("{indent}  "), text)
    )
}

/// How many lines `text` has as shown (a trailing newline starts a line).
pub fn line_count(text: &str) -> usize {
    text.split('\n').count()
}

/// The note put next to the question when what is approved spans several
/// lines: `"(the command has 42 lines) "`; empty for one line.
pub fn count_note(what: &str, text: &str) -> String {
    match line_count(text) {
        1 => String::new(),
        lines => format!("({what} has {lines} lines) "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_is_shown_as_is() {
        assert_eq!(block("  ", "git status"), "  git status\n");
    }

    #[test]
    fn every_line_is_numbered_and_marked_and_blank_runs_collapse() {
        let padded = format!("git status{}touch PWNED", "\n".repeat(41));
        assert_eq!(
            block("  ", &padded),
            "  (42 lines, each marked │)\n   1 │ git status\n     ┆ … 40 blank lines (2–41)\n  42 │ touch PWNED\n"
        );
    }

    #[test]
    fn a_single_blank_line_keeps_its_number_and_spaces_count_as_blank() {
        assert_eq!(
            block("", "a\n\nb\n  \n\t\nc"),
            "(6 lines, each marked │)\n1 │ a\n2 │ \n3 │ b\n  ┆ … 2 blank lines (4–5)\n6 │ c\n"
        );
    }

    #[test]
    fn a_multi_line_value_goes_under_its_label() {
        assert_eq!(
            labelled("  ", "command: ", "echo a\necho b"),
            "  command:\n    (2 lines, each marked │)\n    1 │ echo a\n    2 │ echo b\n"
        );
    }

    #[test]
    fn the_count_note_is_empty_for_one_line() {
        assert_eq!(
            (
                count_note("the command", "ls"),
                count_note("the command", "ls\n\nrm x")
            ),
            (String::new(), "(the command has 3 lines) ".to_owned())
        );
    }
}
