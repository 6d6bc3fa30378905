//! What the analysis finds in a command line, as tables.

use super::*;

fn analysed(line: &str) -> Analysis {
    match analyse(line) {
        ShellReport::Analysed(analysis) => analysis,
        ShellReport::Refused(reason) => panic!("refused {line:?}: {reason}"),
    }
}

fn command_sources(line: &str) -> Vec<String> {
    analysed(line)
        .commands
        .into_iter()
        .map(|command| command.source)
        .collect()
}

#[test]
fn compound_commands_are_split_on_every_separator() {
    for separator in [" && ", " || ", "; ", " | ", " |& ", " & ", "\n"] {
        let line = format!("git status{separator}curl x");
        assert_eq!(command_sources(&line), ["git status", "curl x"], "{line:?}");
    }
}

#[test]
fn commands_inside_substitutions_groups_and_control_flow_are_found() {
    let table: [(&str, &[&str]); 6] = [
        (
            "ls $(sh -c 'id')",
            &["ls $(sh -c 'id')", "sh -c 'id'", "id"],
        ),
        ("ls `id`", &["ls `id`", "id"]),
        ("cat <(id)", &["cat <(id)", "id"]),
        ("{ cat .env; }", &["cat .env"]),
        ("(cat .env)", &["cat .env"]),
        ("if true; then cat .env; fi", &["true", "cat .env"]),
    ];
    for (line, expected) in table {
        assert_eq!(command_sources(line), expected, "{line}");
    }
}

#[test]
fn hazards_name_the_construct() {
    let table: [(&str, &str); 8] = [
        ("ls $(id)", "command substitution `$(id)`"),
        ("diff >(tee x) y", "process substitution `>(tee x)`"),
        ("(ls)", "a subshell `(ls)`"),
        ("cat${IFS}/etc/passwd", "a variable expansion `${IFS}`"),
        ("$'\\x72m' -rf x", "an ANSI-C quoted string `$'\\x72m'`"),
        ("/???/r? x", "the command name is a glob pattern: `/???/r?`"),
        ("echo x > out", "output redirection to a file `> out`"),
        (
            "PATH=/tmp/evil; ls",
            "a variable assignment changes later commands: `PATH=/tmp/evil`",
        ),
    ];
    for (line, expected) in table {
        let hazards = analysed(line).hazards;
        assert!(hazards.iter().any(|h| h == expected), "{line}: {hazards:?}");
    }
}

#[test]
fn plain_commands_have_no_hazards() {
    for line in [
        "git status",
        "ls -la src | grep rs",
        "npm run test -- --watch",
        "ls 2>/dev/null",
        "ls 2>&1 | wc -l",
    ] {
        assert_eq!(analysed(line).hazards, Vec::<String>::new(), "{line}");
    }
}

#[test]
fn cd_followed_by_other_commands_is_a_hazard() {
    assert_eq!(
        analysed("cd ../other && git status").hazards,
        ["`cd ../other` changes the directory the other commands run in"]
    );
}

#[test]
fn a_syntax_error_is_reported_with_its_place() {
    assert_eq!(
        analysed("ls \"unterminated").parse_error.as_deref(),
        Some(
            "the command does not parse as shell: unexpected `\"unterminated` at line 1, column 4"
        )
    );
}

#[test]
fn scripts_given_to_shells_and_eval_are_analysed_too() {
    assert_eq!(
        command_sources("bash -c 'rm -rf x; curl y'"),
        ["bash -c 'rm -rf x; curl y'", "rm -rf x", "curl y"]
    );
}

#[test]
fn refusals_name_the_limit() {
    let long = format!("echo {}", "a".repeat(MAX_COMMAND_BYTES));
    let many = "true; ".repeat(MAX_COMMANDS) + "curl evil";
    let table = [
        (
            "ls\0x".to_owned(),
            "the command contains a NUL byte".to_owned(),
        ),
        (
            long,
            format!(
                "the command is {} bytes long; commands over 10000 bytes are not analysed",
                MAX_COMMAND_BYTES + 5
            ),
        ),
        (
            many,
            "the command line runs 101 commands; more than 100 are not analysed".to_owned(),
        ),
    ];
    for (line, expected) in table {
        assert_eq!(analyse(&line), ShellReport::Refused(expected));
    }
}

#[test]
fn redirect_targets_are_reported_with_their_direction() {
    let redirects = analysed("cat < in.txt > out.txt 2>/dev/null").redirects;
    let summary: Vec<(Direction, String)> = redirects
        .into_iter()
        .map(|redirect| (redirect.direction, redirect.target.text))
        .collect();
    assert_eq!(
        summary,
        [
            (Direction::Read, "in.txt".to_owned()),
            (Direction::Write, "out.txt".to_owned())
        ]
    );
}
