//! The `<system-reminder>`'s list of subagent types read from files (§33):
//! user, project and plugin agents. They vary by folder, so they are named
//! here rather than in the `Task` tool's description, which lists only the
//! built-in types and so stays the same for every session of one
//! configuration. This part must never hold an agent's prompt.

/// A subagent type as the reminder names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentTypeSummary {
    /// The `subagent_type` that starts it.
    pub name: String,
    /// When to use it, as its file says.
    pub description: String,
    /// The tools it may use; `None`: every tool but `Task`.
    pub tools: Option<Vec<String>>,
}

/// The `# Agent types` section: empty when no type comes from a file.
pub(super) fn render(types: &[AgentTypeSummary]) -> String {
    if types.is_empty() {
        return String::new();
    }
    let mut text =
        String::from("# Agent types\n\nThe Task tool also starts these subagent types:\n");
    for summary in types {
        let tools = summary
            .tools
            .as_ref()
            .map_or("*".to_owned(), |tools| tools.join(", "));
        text.push_str(&format!(
            "\n- {}: {} (Tools: {tools})",
            summary.name, summary.description
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_type_from_a_file_renders_nothing() {
        assert_eq!(render(&[]), "");
    }

    #[test]
    fn each_type_is_listed_with_its_description_and_tools() {
        let types = [
            AgentTypeSummary {
                name: "reviewer".to_owned(),
                description: "Reviews a diff".to_owned(),
                tools: Some(vec!["Read".to_owned(), "Grep".to_owned()]),
            },
            AgentTypeSummary {
                name: "fixer".to_owned(),
                description: "Fixes a test".to_owned(),
                tools: None,
            },
        ];
        assert_eq!(
            render(&types),
            "# Agent types\n\nThe Task tool also starts these subagent types:\n\n\
             - reviewer: Reviews a diff (Tools: Read, Grep)\n- fixer: Fixes a test (Tools: *)"
        );
    }
}
