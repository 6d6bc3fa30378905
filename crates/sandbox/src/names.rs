//! How protected names are judged (contract §11, §26, §29): one value,
//! [`ProtectedNames`], and one function, [`ProtectedNames::judge`], that
//! both the permission layer (is this written path protected?) and the
//! sandbox (which entries to bind read-only, which new ones to undo) use, so
//! the two can never disagree on what is protected. The names themselves
//! are listed by the permission layer (`agenthub_policy::protected_name_rules`).
//!
//! Three kinds of names: ones protected whole wherever they stand (`.envrc`,
//! `.husky`); pairs protected where the second stands directly inside the
//! first (`.github/workflows`); and folders judged entry by entry
//! ([`FolderRule`]): `.git`, where only what everyday git writes is
//! writable, and `.claude`/`.agenthub`, where only the settings and the
//! folders of code and prompts stay protected. Names compare
//! case-insensitively (callers pass them lower-case).

/// Every protected name, as a plain value the sandbox policy carries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtectedNames {
    /// Folders and files protected whole, at any depth.
    pub whole: Vec<String>,
    /// `(parent, name)`: `name` protected whole where it stands directly
    /// inside a folder named `parent`, at any depth.
    pub nested: Vec<(String, String)>,
    /// Folders whose entries are judged one by one, at any depth.
    pub folders: Vec<FolderRule>,
}

/// A folder judged entry by entry. The folder itself is protected as a
/// whole target (removing or replacing it would take its protected entries
/// along); what lies inside is judged by `content`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderRule {
    /// Its name (`.git`).
    pub name: String,
    /// Whether the folder is protected when it is new: a command that
    /// creates it (`git init`) has it undone whole, not entry by entry.
    pub created_whole: bool,
    /// How its direct entries are judged.
    pub content: Content,
}

/// How the direct entries of a [`FolderRule`]'s folder are judged. A
/// pattern is a name, or a prefix followed by `*` (`merge_*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Every entry is protected whole but the ones these patterns match,
    /// which are writable with everything below them — as is each one's
    /// `*.lock` file.
    ProtectedExcept(Vec<String>),
    /// Every entry is an ordinary one (judged by the other names, the
    /// folder as its parent) but the ones these patterns match, which are
    /// protected whole.
    WritableExcept(Vec<String>),
}

/// Where an entry stands: in an ordinary folder (named so, lower-case;
/// `""` for a root), or directly inside a judged folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Within<'a> {
    /// An ordinary folder of this name.
    Plain(&'a str),
    /// A folder judged by this rule.
    Folder(&'a FolderRule),
}

/// What one entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement<'a> {
    /// Protected, with everything below it; the label names the rule
    /// (`.envrc`, `.github/workflows`, `.git`).
    Protected(String),
    /// A judged folder: protected as a target, its entries judged by the rule.
    Folder(&'a FolderRule),
    /// Writable, with everything below it.
    Open,
    /// An ordinary entry: what lies below it is judged by the names.
    Plain,
}

impl ProtectedNames {
    /// Whether no name is protected.
    pub fn is_empty(&self) -> bool {
        self.whole.is_empty() && self.nested.is_empty() && self.folders.is_empty()
    }

    /// What the entry `name` (lower-case) standing `within` a folder is.
    pub fn judge<'a>(&'a self, within: Within<'_>, name: &str) -> Judgement<'a> {
        match within {
            Within::Plain(parent) => self.judge_plain(parent, name),
            Within::Folder(rule) => match &rule.content {
                Content::ProtectedExcept(writable) => {
                    let stem = name.strip_suffix(".lock").unwrap_or(name);
                    match matches_any(writable, stem) {
                        true => Judgement::Open,
                        false => Judgement::Protected(rule.name.clone()),
                    }
                }
                Content::WritableExcept(protected) => match matches_any(protected, name) {
                    true => Judgement::Protected(rule.name.clone()),
                    false => self.judge_plain(&rule.name, name),
                },
            },
        }
    }

    fn judge_plain<'a>(&'a self, parent: &str, name: &str) -> Judgement<'a> {
        if self
            .whole
            .iter()
            .any(|whole| whole.eq_ignore_ascii_case(name))
        {
            return Judgement::Protected(name.to_owned());
        }
        if let Some((first, second)) = self.nested.iter().find(|(first, second)| {
            first.eq_ignore_ascii_case(parent) && second.eq_ignore_ascii_case(name)
        }) {
            return Judgement::Protected(format!("{first}/{second}"));
        }
        match self
            .folders
            .iter()
            .find(|rule| rule.name.eq_ignore_ascii_case(name))
        {
            Some(rule) => Judgement::Folder(rule),
            None => Judgement::Plain,
        }
    }
}

/// Whether `name` is one of `patterns` (`prefix*` matching by prefix).
fn matches_any(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|pattern| {
        let pattern = pattern.to_lowercase();
        match pattern.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => name == pattern,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> ProtectedNames {
        ProtectedNames {
            whole: vec![".envrc".into()],
            nested: vec![(".github".into(), "workflows".into())],
            folders: vec![
                FolderRule {
                    name: ".git".into(),
                    created_whole: true,
                    content: Content::ProtectedExcept(vec!["HEAD".into(), "MERGE_*".into()]),
                },
                FolderRule {
                    name: ".claude".into(),
                    created_whole: false,
                    content: Content::WritableExcept(vec!["settings.json".into()]),
                },
            ],
        }
    }

    #[test]
    fn each_kind_of_name_is_judged_where_it_stands() {
        let names = names();
        let git = &names.folders[0];
        let claude = &names.folders[1];
        let table = [
            (
                Within::Plain(""),
                ".envrc",
                Judgement::Protected(".envrc".into()),
            ),
            (Within::Plain("src"), "workflows", Judgement::Plain),
            (
                Within::Plain(".github"),
                "workflows",
                Judgement::Protected(".github/workflows".into()),
            ),
            (Within::Plain("sub"), ".git", Judgement::Folder(git)),
            (Within::Folder(git), "head", Judgement::Open),
            (Within::Folder(git), "head.lock", Judgement::Open),
            (Within::Folder(git), "merge_msg", Judgement::Open),
            (
                Within::Folder(git),
                "config",
                Judgement::Protected(".git".into()),
            ),
            (
                Within::Folder(git),
                "config.lock",
                Judgement::Protected(".git".into()),
            ),
            (
                Within::Folder(git),
                "new-name",
                Judgement::Protected(".git".into()),
            ),
            (
                Within::Folder(claude),
                "settings.json",
                Judgement::Protected(".claude".into()),
            ),
            (
                Within::Folder(claude),
                "ralph-loop.local.md",
                Judgement::Plain,
            ),
            (
                Within::Folder(claude),
                ".envrc",
                Judgement::Protected(".envrc".into()),
            ),
        ];
        for (within, name, expected) in table {
            assert_eq!(names.judge(within, name), expected, "{within:?} {name}");
        }
    }
}
