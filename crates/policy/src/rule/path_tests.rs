//! The anchors and gitignore semantics of path patterns, as a table.

use super::*;

fn anchors() -> PathAnchors {
    PathAnchors {
        workspace: PathBuf::from("/w/proj"),
        settings_root: PathBuf::from("/w/proj"),
        home: Some(PathBuf::from("/home/u")),
    }
}

fn matches(spec: &str, list: RuleList, path: &str) -> bool {
    PathPattern::parse(spec, list, &anchors())
        .unwrap()
        .matches(Path::new(path))
}

#[test]
fn pattern_table() {
    use RuleList::{Allow, Deny};
    let table = [
        ("./.env", Deny, "/w/proj/.env", true),
        ("./.env", Deny, "/w/proj/sub/.env", false),
        ("./.env", Deny, "/w/proj/.ENV", true),
        ("./.env", Allow, "/w/proj/.ENV", false),
        (".env", Deny, "/w/proj/sub/.env", true),
        ("*.env", Allow, "/w/proj/a/b.env", true),
        ("*.env", Allow, "/w/other/b.env", false),
        ("src/**", Allow, "/w/proj/src/a.rs", true),
        ("src/**", Allow, "/w/proj/x/src/a.rs", false),
        ("secrets/**", Deny, "/w/proj/x/secrets/a", true),
        ("secrets", Deny, "/w/proj/secrets/a.txt", true),
        ("/src/**/*.ts", Allow, "/w/proj/src/a/b.ts", true),
        ("/src/**/*.ts", Allow, "/w/proj/src/b.rs", false),
        ("~/.ssh/**", Deny, "/home/u/.ssh/id_rsa", true),
        ("~/.zshrc", Deny, "/home/u/.zshrc", true),
        ("~/.zshrc", Deny, "/w/proj/.zshrc", false),
        ("//etc/**", Deny, "/etc/passwd", true),
        ("//etc/**", Deny, "/w/proj/etc/passwd", false),
        ("../other/**", Deny, "/w/other/x", true),
        ("*", Allow, "/w/proj/a/b/c", true),
        ("*", Allow, "/w/other/x", false),
        ("src/*.rs", Allow, "/w/proj/src/a/b.rs", false),
    ];
    for (spec, list, path, expected) in table {
        assert_eq!(
            matches(spec, list, path),
            expected,
            "{spec} ({list:?}) vs {path}"
        );
    }
}

#[test]
fn settings_root_anchors_a_leading_slash() {
    let anchors = PathAnchors {
        settings_root: PathBuf::from("/home/u/.config/agenthub"),
        ..anchors()
    };
    let pattern = PathPattern::parse("/notes/**", RuleList::Allow, &anchors).unwrap();
    assert!(pattern.matches(Path::new("/home/u/.config/agenthub/notes/a.md")));
    assert!(!pattern.matches(Path::new("/w/proj/notes/a.md")));
}

#[test]
fn malformed_patterns_are_errors() {
    let no_home = PathAnchors {
        home: None,
        ..anchors()
    };
    let cases = [
        (
            "~bob/.ssh/**",
            anchors(),
            PathPatternError::OtherUsersHome("~bob/.ssh/**".to_owned()),
        ),
        ("!x", anchors(), PathPatternError::Negated),
        ("~/x", no_home, PathPatternError::NoHome),
        ("./", anchors(), PathPatternError::Empty),
        ("a\0b", anchors(), PathPatternError::Nul),
    ];
    for (spec, anchors, expected) in cases {
        assert_eq!(
            PathPattern::parse(spec, RuleList::Deny, &anchors).unwrap_err(),
            expected,
            "{spec:?}"
        );
    }
}
