//! Reading skills from their folders (contract §20): each `<name>/SKILL.md`
//! of a folder, its front matter read by [`agenthub_settings::front_matter`].
//! Lenient as Claude Code is: a skill that cannot be read is a [`SkillError`]
//! the caller shows as a warning, and the others load, as is a link out of
//! its tree (the link rule, [`agenthub_settings::links`]). It reads files only;
//! it never decides whether a folder may be read (that is trust's, in
//! `skills/mod.rs`).

use super::{Skill, Skills};
use agenthub_settings::front_matter::{self, FrontMatterError};
use agenthub_settings::links::{walk, LinkOut, LinkRule, Shape};
use agenthub_settings::SKILL_FILE;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why one skill was skipped.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SkillError {
    /// The `SKILL.md` could not be read.
    #[error("skill skipped: cannot read {}: {message}", file.display())]
    Unreadable {
        /// The file.
        file: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The front matter is neither YAML nor `key: value` lines.
    #[error("skill skipped: {0}")]
    FrontMatter(#[from] FrontMatterError),
    /// Nothing says when to use the skill: no `description` and no text.
    #[error(
        "skill skipped: {}:1: the front matter has no 'description' and the body no text",
        file.display()
    )]
    NoDescription {
        /// The file.
        file: PathBuf,
    },
    /// The `SKILL.md` (or its folder) is a link out of its tree (contract §28).
    #[error("skill skipped: {0}")]
    LinkOut(#[from] LinkOut),
}

/// Every skill of `folders`, in order: a later folder's skill replaces an
/// earlier one of the same name. A missing folder has none. Each folder is
/// walked under its link rule.
pub(super) fn load(folders: &[(PathBuf, LinkRule)]) -> (Skills, Vec<SkillError>) {
    let mut skills = Skills::default();
    let mut errors = Vec::new();
    for (folder, links) in folders {
        let found = walk(folder, Shape::Skills, links);
        errors.extend(found.links_out.into_iter().map(SkillError::LinkOut));
        for file in found.files {
            let Some(skill_folder) = file.parent() else {
                continue;
            };
            match read(skill_folder) {
                Ok(skill) => skills.insert(skill),
                Err(error) => errors.push(error),
            }
        }
    }
    (skills, errors)
}

/// The skill in `folder`: its name is the front matter's `name`, else the
/// folder's; its description the front matter's, else the body's first line.
pub(super) fn read(folder: &Path) -> Result<Skill, SkillError> {
    let file = folder.join(SKILL_FILE);
    let text = std::fs::read_to_string(&file).map_err(|error| SkillError::Unreadable {
        file: file.clone(),
        message: error.to_string(),
    })?;
    let split = front_matter::split(&file, &text)?;
    let folder_name = folder
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let description = split
        .text("description")
        .or_else(|| split.first_body_line())
        .map(|text| one_line(&text))
        .ok_or_else(|| SkillError::NoDescription { file: file.clone() })?;
    Ok(Skill {
        name: split.text("name").unwrap_or(folder_name),
        description,
        allowed_tools: split.list("allowed-tools"),
        body: split.body,
        folder: folder.to_path_buf(),
    })
}

/// `text` on one line: a YAML block description (`description: |`) is
/// listed in the system prompt as one entry.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(folder: &Path, text: &str) {
        std::fs::create_dir_all(folder).unwrap();
        std::fs::write(folder.join(SKILL_FILE), text).unwrap();
    }

    #[test]
    fn a_skill_is_its_front_matter_and_body() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("pdf");
        write(
            &folder,
            "---\nname: pdf-forms\ndescription: Fill PDF forms\nallowed-tools: Read, Bash(python3 *)\n---\nRun fill.py.\n",
        );
        assert_eq!(
            read(&folder),
            Ok(Skill {
                name: "pdf-forms".to_owned(),
                description: "Fill PDF forms".to_owned(),
                allowed_tools: Some(vec!["Read".to_owned(), "Bash(python3 *)".to_owned()]),
                body: "Run fill.py.".to_owned(),
                folder: folder.clone(),
            })
        );
    }

    #[test]
    fn a_skill_without_front_matter_is_named_after_its_folder_and_described_by_its_first_line() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("release");
        write(&folder, "# Cut a release\n\nTag, then push.\n");
        assert_eq!(
            read(&folder),
            Ok(Skill {
                name: "release".to_owned(),
                description: "Cut a release".to_owned(),
                allowed_tools: None,
                body: "# Cut a release\n\nTag, then push.".to_owned(),
                folder: folder.clone(),
            })
        );
    }

    #[test]
    fn a_description_on_several_lines_is_read_as_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("long");
        write(
            &folder,
            "---\ndescription: |\n  Fill forms.\n  Use for PDFs.\n---\nBody.\n",
        );
        assert_eq!(
            read(&folder).map(|skill| skill.description),
            Ok("Fill forms. Use for PDFs.".to_owned())
        );
    }

    #[test]
    fn an_unclosed_front_matter_skips_the_skill_naming_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("broken");
        write(&folder, "---\nname: broken\n");
        let error = read(&folder).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "skill skipped: {}:1: the front matter opened by '---' is never closed by a '---' line",
                folder.join(SKILL_FILE).display()
            )
        );
    }

    #[test]
    fn a_later_folder_replaces_a_skill_and_a_broken_one_does_not_stop_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let user = dir.path().join("user");
        let project = dir.path().join("project");
        write(&user.join("a"), "---\ndescription: user a\n---\nA.\n");
        write(&user.join("b"), "---\n");
        write(&project.join("a"), "---\ndescription: project a\n---\nA!\n");
        let follow = |folder: PathBuf| (folder, LinkRule::FollowAll);
        let (skills, errors) = load(&[
            follow(user.clone()),
            follow(project.clone()),
            follow(dir.path().join("none")),
        ]);
        let listed: Vec<(&str, &str)> = skills
            .iter()
            .map(|skill| (skill.name.as_str(), skill.description.as_str()))
            .collect();
        assert_eq!(listed, vec![("a", "project a")]);
        assert_eq!(
            errors,
            vec![SkillError::FrontMatter(FrontMatterError {
                file: user.join("b").join(SKILL_FILE),
                line: 1,
                message: "the front matter opened by '---' is never closed by a '---' line"
                    .to_owned(),
            })]
        );
    }
}
