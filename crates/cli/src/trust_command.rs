//! `agenthub trust`: shows what the workspace's own configuration would do
//! once trusted, then records trust in exactly those files (running the
//! command is the consent; it never reads stdin). `--show` only shows, a
//! file that cannot be used among the rest (contract §29); recording refuses
//! while one is there. `--revoke` forgets. What it shows and records comes from the library.

use crate::args::trust::TrustArgs;
use crate::error::CliError;
use agenthub::{resolve_workspace, review_project, ProjectReview, TrustStatus};
use std::fmt::Write;

pub fn run(args: TrustArgs) -> Result<u8, CliError> {
    let workspace = resolve_workspace(args.workspace.as_deref())?;
    if args.revoke {
        let line = match agenthub::revoke_trust(&workspace).map_err(usage)? {
            true => format!("revoked: {} is no longer trusted\n", workspace.display()),
            false => format!("{} was not trusted\n", workspace.display()),
        };
        crate::output::print_stdout(&line);
        return Ok(0);
    }
    let review = review_project(&workspace)?;
    let mut text = render(&review);
    if review.is_empty() {
        crate::output::print_stdout(&text);
        return Ok(0);
    }
    if args.show {
        let status = match agenthub::stored_trust(&review.fingerprint) {
            TrustStatus::Trusted => "trusted".to_owned(),
            TrustStatus::Untrusted { changed: true, .. } => {
                "not trusted (changed since trusted)".to_owned()
            }
            TrustStatus::Untrusted {
                problem: Some(problem),
                ..
            } => format!("not trusted ({problem})"),
            _ => "not trusted".to_owned(),
        };
        let _ = writeln!(text, "status: {status}");
    } else {
        if let Some((name, why)) = review.unusable().next() {
            return Err(CliError::Usage(format!(
                "not trusted: {name} cannot be used ({why}); fix it, then run `agenthub trust` again"
            )));
        }
        let store = agenthub::trust_workspace(&review.fingerprint).map_err(usage)?;
        let files = match review.files.len() {
            0 => None,
            1 => Some("this file is".to_owned()),
            count => Some(format!("these {count} files are")),
        };
        let _ = match files {
            Some(files) => writeln!(
                text,
                "trusted: {files} pinned by SHA-256 in {}; a change needs `agenthub trust` again",
                store.display()
            ),
            None => writeln!(
                text,
                "trusted: recorded in {}; memory files are read whatever they say",
                store.display()
            ),
        };
    }
    crate::output::print_stdout(&text);
    Ok(0)
}

fn usage(error: impl std::fmt::Display) -> CliError {
    CliError::Usage(error.to_string())
}

/// The note said next to the trust question when an entry of the review
/// spans several lines (contract §26): `"(2 entries above span several lines:
/// 42, 3) "`; empty when none does.
pub(crate) fn count_note(review: &ProjectReview) -> String {
    let counts: Vec<String> = review
        .files
        .iter()
        .flat_map(|file| file.grants.iter().chain(&file.restrictions))
        .map(|entry| crate::shown_lines::line_count(entry))
        .filter(|lines| *lines > 1)
        .map(|lines| lines.to_string())
        .collect();
    match counts.len() {
        0 => String::new(),
        1 => format!("(1 entry above spans {} lines) ", counts[0]),
        entries => format!(
            "({entries} entries above span several lines: {}) ",
            counts.join(", ")
        ),
    }
}

/// The review as text: each link out of the repository that is not used
/// (contract §28), then each file, what it would do once trusted, what
/// applies already; an entry of several lines shows each line marked.
pub(crate) fn render(review: &ProjectReview) -> String {
    let workspace = review.fingerprint.workspace.display();
    let mut text = format!("workspace: {workspace}\n");
    for out in &review.links_out {
        let path = out.path();
        let name = path
            .strip_prefix(&review.fingerprint.workspace)
            .unwrap_or(path);
        let _ = writeln!(text, "{}\n  {}", name.display(), out.review_line());
    }
    if review.is_empty() {
        let _ = writeln!(
            text,
            "nothing to trust: no configuration files (.agenthub/, .claude/, .mcp.json)"
        );
        return text;
    }
    for file in &review.files {
        let _ = writeln!(text, "{} (sha256 {})", file.name, file.sha256);
        if let Some(why) = &file.unusable {
            let _ = writeln!(
                text,
                "  cannot be used, set aside whole while not trusted:\n    {why}"
            );
            continue;
        }
        if file.grants.is_empty() {
            let _ = writeln!(text, "  acts once trusted: nothing");
        } else {
            let _ = writeln!(text, "  acts once trusted:");
        }
        for grant in &file.grants {
            text.push_str(&crate::shown_lines::block("    ", grant));
        }
        if !file.restrictions.is_empty() {
            let _ = writeln!(text, "  applies already:");
        }
        for restriction in &file.restrictions {
            text.push_str(&crate::shown_lines::block("    ", restriction));
        }
    }
    for memory in &review.memory_files {
        let _ = writeln!(
            text,
            "{} (memory file, not pinned)\n  acts once trusted:\n    read into the system \
             prompt ({} bytes now), whatever it says then: editing it keeps the trust",
            memory.name, memory.bytes
        );
    }
    text
}
