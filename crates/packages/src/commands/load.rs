//! Reading custom slash commands from their folders (contract §20): every
//! `*.md` file, subfolders included; `review.md` is `/review`,
//! `git/commit.md` is `/git:commit`. Front matter is read by
//! [`agenthub_settings::front_matter`]. Lenient as Claude Code is: a file
//! that cannot be read is a [`CommandError`] the caller shows as a warning,
//! and the others load, as is a link out of its tree (the link rule,
//! [`agenthub_settings::links`]). It reads files only; whether a folder may
//! be read is trust's (in `commands/mod.rs`).

use super::{CustomCommand, CustomCommands};
use agenthub_hooks::command::{plugin_variables, shell_inert, substitute_variables};
use agenthub_settings::front_matter::{self, FrontMatterError};
use agenthub_settings::links::{walk, LinkOut, LinkRule, Shape};
use agenthub_settings::HookPlugin;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why one command was skipped.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandError {
    /// The file could not be read.
    #[error("command skipped: cannot read {}: {message}", file.display())]
    Unreadable {
        /// The file.
        file: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The front matter is neither YAML nor `key: value` lines.
    #[error("command skipped: {0}")]
    FrontMatter(#[from] FrontMatterError),
    /// The file (or its folder) is a link out of its tree (contract §28).
    #[error("command skipped: {0}")]
    LinkOut(#[from] LinkOut),
}

/// A folder (or one file) of commands, how their names start, and the
/// plugin they come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CommandFolder {
    /// The folder, or a single `*.md` file.
    pub path: PathBuf,
    /// The words each name starts with (a plugin's `plugin:`), none for bare names.
    pub prefix: Vec<String>,
    /// The plugin the commands come with: its `CLAUDE_PLUGIN_ROOT` and
    /// `CLAUDE_PLUGIN_DATA` reach their inline shell as variables.
    pub plugin: Option<HookPlugin>,
    /// Which links may be followed: the workspace's and a plugin's must
    /// stay in their tree; the user's own are followed.
    pub links: LinkRule,
}

impl CommandFolder {
    /// Commands of `path` with bare names, not from a plugin, following
    /// links as `links` says.
    pub fn plain(path: PathBuf, links: LinkRule) -> CommandFolder {
        CommandFolder {
            path,
            prefix: Vec::new(),
            plugin: None,
            links,
        }
    }
}

/// Every command of `folders`, in order: a later folder's command replaces
/// an earlier one of the same name. A missing folder has none.
pub(super) fn load(folders: &[CommandFolder]) -> (CustomCommands, Vec<CommandError>) {
    let mut commands = CustomCommands::default();
    let mut errors = Vec::new();
    for folder in folders {
        let found = walk(&folder.path, Shape::Markdown, &folder.links);
        errors.extend(found.links_out.into_iter().map(CommandError::LinkOut));
        let mut files: Vec<(String, PathBuf)> = found
            .files
            .into_iter()
            .filter_map(|file| Some((command_name(folder, &file)?, file)))
            .collect();
        files.sort();
        for (name, file) in files {
            match read(&name, &file) {
                Ok(command) => commands.insert(with_plugin(command, &folder.plugin)),
                Err(error) => errors.push(error),
            }
        }
    }
    (commands, errors)
}

/// `command` with its plugin's variables: in its environment for its inline
/// shell; in `allowed-tools` replaced by their values; in its body replaced
/// only where a shell reads the value as it is ([`shell_inert`]: no space,
/// quote or `$`), so a plugin folder named `x"; touch pwned; "` never
/// becomes shell text — its inline shell expands the variable instead.
fn with_plugin(mut command: CustomCommand, plugin: &Option<HookPlugin>) -> CustomCommand {
    let Some(plugin) = plugin else {
        return command;
    };
    let vars = plugin_variables(plugin);
    let inert: Vec<(String, String)> = vars
        .iter()
        .filter(|(_, value)| shell_inert(value))
        .cloned()
        .collect();
    command.body = substitute_variables(&command.body, &inert);
    command.allowed_tools = command
        .allowed_tools
        .iter()
        .map(|rule| substitute_variables(rule, &vars))
        .collect();
    command.env = vars;
    command
}

/// The name of the command in `file`, found below `folder.path` (or that
/// file itself): `folder.prefix`, then each subfolder on the way, then the
/// file's name without `.md`, joined with `:`.
fn command_name(folder: &CommandFolder, file: &Path) -> Option<String> {
    let relative = match file.strip_prefix(&folder.path) {
        Ok(relative) if !relative.as_os_str().is_empty() => relative,
        _ => Path::new(file.file_name()?),
    };
    let mut parts = folder.prefix.clone();
    for part in relative.with_extension("").components() {
        parts.push(part.as_os_str().to_str()?.to_owned());
    }
    Some(parts.join(":"))
}

/// The command `name` in `file`.
pub(super) fn read(name: &str, file: &Path) -> Result<CustomCommand, CommandError> {
    let text = std::fs::read_to_string(file).map_err(|error| CommandError::Unreadable {
        file: file.to_path_buf(),
        message: error.to_string(),
    })?;
    let split = front_matter::split(file, &text)?;
    Ok(CustomCommand {
        name: name.to_owned(),
        description: split
            .text("description")
            .or_else(|| split.first_body_line()),
        argument_hint: split.text("argument-hint"),
        allowed_tools: split.list("allowed-tools").unwrap_or_default(),
        model: split.text("model"),
        body: split.body,
        file: file.to_path_buf(),
        env: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_command_is_its_front_matter_and_body() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("review.md");
        write(
            &file,
            "---\ndescription: Review a file\nargument-hint: FILE\nallowed-tools: Read, Grep\nmodel: haiku\n---\nReview $1.\n",
        );
        assert_eq!(
            read("review", &file),
            Ok(CustomCommand {
                name: "review".to_owned(),
                description: Some("Review a file".to_owned()),
                argument_hint: Some("FILE".to_owned()),
                allowed_tools: vec!["Read".to_owned(), "Grep".to_owned()],
                model: Some("haiku".to_owned()),
                body: "Review $1.".to_owned(),
                file: file.clone(),
                env: Vec::new(),
            })
        );
    }

    #[test]
    fn a_subfolder_names_a_command_with_a_colon_and_a_later_folder_wins() {
        let dir = tempfile::tempdir().unwrap();
        let user = dir.path().join("user");
        let project = dir.path().join("project");
        write(&user.join("git/commit.md"), "Commit the staged changes.\n");
        write(&user.join("fix.md"), "Fix it (user).\n");
        write(&project.join("fix.md"), "Fix it (project).\n");
        write(&project.join("notes.txt"), "not a command\n");
        let (commands, errors) =
            CustomCommands::load(&[user.clone(), project.clone()], &LinkRule::FollowAll);
        let listed: Vec<(&str, &str)> = commands
            .iter()
            .map(|command| (command.name.as_str(), command.body.as_str()))
            .collect();
        assert_eq!(
            (listed, errors),
            (
                vec![
                    ("fix", "Fix it (project)."),
                    ("git:commit", "Commit the staged changes.")
                ],
                Vec::new()
            )
        );
    }

    #[test]
    fn an_unclosed_front_matter_skips_the_command_naming_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("broken.md");
        write(&file, "---\ndescription: never closed\n");
        assert_eq!(
            read("broken", &file).map_err(|error| error.to_string()),
            Err(format!(
                "command skipped: {}:1: the front matter opened by '---' is never closed by a '---' line",
                file.display()
            ))
        );
    }

    #[test]
    fn a_plugin_folder_a_shell_would_parse_stays_a_variable_for_the_inline_shell_table() {
        let body = "```!\n\"${CLAUDE_PLUGIN_ROOT}/x.sh\"\n```\n";
        for (root, expected_body) in [
            ("/p/guard", "```!\n\"/p/guard/x.sh\"\n```\n"),
            ("/p/a b", body),
            ("/p/x\"; touch pwned; \"", body),
            ("/p/x'; touch pwned; '", body),
        ] {
            let command = CustomCommand {
                name: "x".to_owned(),
                description: None,
                argument_hint: None,
                allowed_tools: vec!["Bash(${CLAUDE_PLUGIN_ROOT}/x.sh:*)".to_owned()],
                model: None,
                body: body.to_owned(),
                file: PathBuf::from("x.md"),
                env: Vec::new(),
            };
            let plugin = Some(HookPlugin {
                name: "../not-a-name".to_owned(),
                root: PathBuf::from(root),
            });
            let command = with_plugin(command, &plugin);
            assert_eq!(
                (command.body, command.allowed_tools, command.env),
                (
                    expected_body.to_owned(),
                    vec![format!("Bash({root}/x.sh:*)")],
                    vec![("CLAUDE_PLUGIN_ROOT".to_owned(), root.to_owned())]
                ),
                "{root}"
            );
        }
    }
}
