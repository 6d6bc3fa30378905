//! The system prompt's list of skills (contract §20): each skill's name and
//! description, so the model knows which exist and when one applies. A
//! skill's body costs nothing until the model loads it with the `Skill`
//! tool; this part must never hold a body or read a file.

/// A skill as the system prompt names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillSummary {
    /// The name the `Skill` tool loads it by.
    pub name: String,
    /// When to use it, as its `SKILL.md` says.
    pub description: String,
}

/// The tool the listing tells the model to call (Claude Code's name).
const SKILL_TOOL: &str = "Skill";

/// The `# Skills` section: empty when there is no skill.
pub(super) fn render(skills: &[SkillSummary]) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "# Skills\n\nThese skills hold instructions for particular tasks. When a task \
         matches a skill's description, call the {SKILL_TOOL} tool with {{\"skill\": NAME}} \
         first and follow what it returns.\n"
    );
    for skill in skills {
        text.push_str(&format!("\n- {}: {}", skill.name, skill.description));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_skill_renders_nothing() {
        assert_eq!(render(&[]), "");
    }

    #[test]
    fn each_skill_is_listed_by_name_and_description_only() {
        let skills = [
            SkillSummary {
                name: "pdf".to_owned(),
                description: "Fill PDF forms".to_owned(),
            },
            SkillSummary {
                name: "release".to_owned(),
                description: "Cut a release".to_owned(),
            },
        ];
        assert_eq!(
            render(&skills),
            "# Skills\n\nThese skills hold instructions for particular tasks. When a task \
             matches a skill's description, call the Skill tool with {\"skill\": NAME} first \
             and follow what it returns.\n\n- pdf: Fill PDF forms\n- release: Cut a release"
        );
    }
}
