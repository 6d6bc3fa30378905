//! A session's custom commands and skills in the editor: listed as ACP's
//! available commands (`available_commands_update`, after `session/new` and
//! `session/load`), and a prompt that names a custom command (`/name args`)
//! sent as the interactive session sends one — expanded, its
//! UserPromptExpansion hooks first, its `allowed-tools` answering asks during
//! that prompt only. Its `model` is not applied: the session keeps its agent.
//!
//! Finding commands and skills is the assembly's (the one loader, with its
//! trust and plugin rules); this module only reads what it found, and
//! never decides a permission.

use super::schema::{AvailableCommand, CommandInput, SessionUpdate};
use agenthub::crates::core::system_prompt::SkillSummary;
use agenthub::{Active, Assembly, CancellationToken, CustomCommands, RunReport, Session};

/// What a session offers after `/`, and how a prompt naming a command is sent.
pub struct EditorCommands {
    custom: CustomCommands,
    grants: Active,
    available: Vec<AvailableCommand>,
}

impl EditorCommands {
    /// The custom commands and skills `assembly` found.
    pub fn of(assembly: &Assembly) -> EditorCommands {
        EditorCommands {
            custom: assembly.commands().clone(),
            grants: assembly.command_grants(),
            available: available(assembly.commands(), assembly.skills()),
        }
    }

    /// The update that tells the editor the commands; none when there are
    /// none (an editor starts with none).
    pub fn update(&self) -> Option<SessionUpdate> {
        (!self.available.is_empty()).then(|| SessionUpdate::AvailableCommandsUpdate {
            available_commands: self.available.clone(),
        })
    }

    /// Runs one prompt: a custom command expanded, with its rules during
    /// it; any other text as typed.
    pub async fn send(
        &self,
        session: &mut Session<'_>,
        text: &str,
        cancel: CancellationToken,
    ) -> RunReport {
        match self.custom.expand(text) {
            Some(expansion) => {
                let _rules = self.grants.during(&expansion.prompt.name);
                session.send_command(&expansion.prompt, cancel).await
            }
            None => session.send(text, cancel).await,
        }
    }
}

/// The custom commands (with their argument hint), then the skills a
/// command of the same name does not hide, each in name order.
fn available(commands: &CustomCommands, skills: &[SkillSummary]) -> Vec<AvailableCommand> {
    let custom = commands.iter().map(|command| AvailableCommand {
        name: command.name.clone(),
        description: command.description.clone().unwrap_or_default(),
        input: command
            .argument_hint
            .clone()
            .map(|hint| CommandInput { hint }),
    });
    let skills = skills
        .iter()
        .filter(|skill| commands.get(&skill.name).is_none())
        .map(|skill| AvailableCommand {
            name: skill.name.clone(),
            description: skill.description.clone(),
            input: None,
        });
    custom.chain(skills).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub::LinkRule;

    #[test]
    fn commands_with_their_hints_come_before_the_skills_they_do_not_hide() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("review.md"),
            "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS.\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("pdf.md"), "Convert to PDF.\n").unwrap();
        let (commands, errors) =
            CustomCommands::load(&[dir.path().to_path_buf()], &LinkRule::FollowAll);
        let skills = [
            SkillSummary {
                name: "pdf".to_owned(),
                description: "Reads PDF files".to_owned(),
            },
            SkillSummary {
                name: "deploy".to_owned(),
                description: "Deploys the site".to_owned(),
            },
        ];
        assert_eq!(
            (errors.len(), available(&commands, &skills)),
            (
                0,
                vec![
                    AvailableCommand {
                        name: "pdf".to_owned(),
                        description: "Convert to PDF.".to_owned(),
                        input: None,
                    },
                    AvailableCommand {
                        name: "review".to_owned(),
                        description: "Review a file".to_owned(),
                        input: Some(CommandInput {
                            hint: "<file>".to_owned()
                        }),
                    },
                    AvailableCommand {
                        name: "deploy".to_owned(),
                        description: "Deploys the site".to_owned(),
                        input: None,
                    },
                ]
            )
        );
    }
}
