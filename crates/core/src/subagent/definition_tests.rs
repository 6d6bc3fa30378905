use super::*;
use serde_json::json;

fn parse(text: &str) -> Result<AgentDefinition, DefinitionError> {
    AgentDefinition::parse(Path::new("a.md"), text)
}

#[test]
fn a_definition_reads_name_description_tools_model_and_body() {
    let text = "---\nname: reviewer\ndescription: \"Reviews: a diff\"\ntools: [Read, Grep]\nmodel: inherit\ncolor: red\n---\n\nYou review code.\nCarefully.\n";
    assert_eq!(
        parse(text),
        Ok(AgentDefinition {
            name: "reviewer".to_owned(),
            description: "Reviews: a diff".to_owned(),
            tools: Some(vec!["Read".to_owned(), "Grep".to_owned()]),
            model: Some("inherit".to_owned()),
            prompt: "You review code.\nCarefully.".to_owned(),
            hooks: None,
            source: Some(PathBuf::from("a.md")),
        })
    );
}

#[test]
fn a_file_without_front_matter_is_named_after_itself_and_described_by_its_first_line() {
    let definition = AgentDefinition::parse(
        Path::new("agents/code-reviewer.md"),
        "Review the diff.\nBe brief.\n",
    )
    .unwrap();
    assert_eq!(
        (
            definition.name,
            definition.description,
            definition.tools,
            definition.prompt
        ),
        (
            "code-reviewer".to_owned(),
            "Review the diff.".to_owned(),
            None,
            "Review the diff.\nBe brief.".to_owned()
        )
    );
}

#[test]
fn tools_may_be_a_yaml_list() {
    let text = "---\nname: lister\ndescription: Lists\ntools:\n  - Read\n  - Grep\n---\nList.\n";
    assert_eq!(
        parse(text).unwrap().tools,
        Some(vec!["Read".to_owned(), "Grep".to_owned()])
    );
}

#[test]
fn a_hooks_key_is_kept_for_the_subagent() {
    let text = "---\nname: h\ndescription: d\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo hi\n---\nBody\n";
    assert_eq!(
        parse(text).unwrap().hooks,
        Some(json!({"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "echo hi"}]}]}))
    );
}

#[test]
fn hooks_that_are_not_a_map_are_an_error_naming_their_line() {
    assert_eq!(
        parse("---\nname: h\ndescription: d\nhooks: 3\n---\n")
            .unwrap_err()
            .to_string(),
        "invalid subagent definition a.md:4: 'hooks' must be a map of events to hook groups, not 3"
    );
}

#[test]
fn a_block_value_is_read_as_yaml() {
    assert_eq!(
        parse("---\nname: x\ndescription: |\n  long\n---\n")
            .unwrap()
            .description,
        "long"
    );
}

#[test]
fn no_description_and_no_body_is_an_error() {
    assert_eq!(
        parse("---\nname: x\n---\n").unwrap_err().to_string(),
        "invalid subagent definition a.md:1: no 'description', and no body to take one from"
    );
}

#[test]
fn a_name_with_other_characters_is_an_error_naming_its_line() {
    assert_eq!(
        parse("---\ndescription: d\nname: a b\n---\n")
            .unwrap_err()
            .to_string(),
        "invalid subagent definition a.md:3: the name \"a b\" may hold only letters, digits, '-' and '_'"
    );
}

#[test]
fn without_tools_every_tool_but_task_is_allowed() {
    let general = AgentDefinition::general_purpose();
    assert_eq!(
        (general.allows_tool("Bash"), general.allows_tool("Task")),
        (true, false)
    );
}

#[test]
fn a_later_folder_replaces_an_earlier_definition_of_the_same_name() {
    let user = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    std::fs::write(
        user.path().join("r.md"),
        "---\nname: r\ndescription: user\n---\n",
    )
    .unwrap();
    std::fs::write(
        project.path().join("r.md"),
        "---\nname: r\ndescription: project\n---\n",
    )
    .unwrap();
    let (loaded, set_aside) = AgentDefinitions::load(&[
        user.path().to_path_buf(),
        project.path().to_path_buf(),
        project.path().join("missing"),
    ]);
    assert_eq!(
        (
            loaded.names(),
            loaded.get("r").map(|d| d.description.as_str()),
            set_aside
        ),
        ("general-purpose, r".to_owned(), Some("project"), Vec::new())
    );
}

#[test]
fn definitions_in_subfolders_load_and_a_bad_one_is_set_aside_without_stopping_the_rest() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("team/review")).unwrap();
    std::fs::write(folder.path().join("team/review/deep.md"), "Deep work.\n").unwrap();
    std::fs::write(folder.path().join("bad.md"), "---\nname: bad\n").unwrap();
    std::fs::write(folder.path().join("ok.md"), "---\ndescription: fine\n---\n").unwrap();
    let (loaded, set_aside) = AgentDefinitions::load(&[folder.path().to_path_buf()]);
    assert_eq!(
        (
            loaded.names(),
            set_aside.iter().map(ToString::to_string).collect::<Vec<_>>()
        ),
        (
            "deep, general-purpose, ok".to_owned(),
            vec![format!(
                "invalid subagent definition {}:1: the front matter opened by '---' is never closed by a '---' line",
                folder.path().join("bad.md").display()
            )]
        )
    );
}
