use super::*;

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
            source: Some(PathBuf::from("a.md")),
        })
    );
}

#[test]
fn a_file_without_front_matter_is_an_error_on_line_one() {
    assert_eq!(
        parse("name: x\n").unwrap_err().to_string(),
        "invalid subagent definition a.md:1: expected front matter: a first line '---', then 'key: value' lines, then '---'"
    );
}

#[test]
fn a_missing_description_is_an_error_naming_the_closing_line() {
    assert_eq!(
        parse("---\nname: x\n---\nbody").unwrap_err().to_string(),
        "invalid subagent definition a.md:3: the front matter has no 'description'"
    );
}

#[test]
fn a_line_without_a_colon_is_an_error_naming_it() {
    assert_eq!(
        parse("---\nname: x\njust words\n---\n")
            .unwrap_err()
            .to_string(),
        "invalid subagent definition a.md:3: expected 'key: value', found \"just words\""
    );
}

#[test]
fn a_block_value_is_refused_rather_than_misread() {
    assert_eq!(
        parse("---\nname: x\ndescription: |\n  long\n---\n")
            .unwrap_err()
            .to_string(),
        "invalid subagent definition a.md:3: block values ('description: |') are not supported; write the value on one line"
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
    let loaded = AgentDefinitions::load(&[
        user.path().to_path_buf(),
        project.path().to_path_buf(),
        project.path().join("missing"),
    ])
    .unwrap();
    assert_eq!(
        (
            loaded.names(),
            loaded.get("r").map(|d| d.description.as_str())
        ),
        ("general-purpose, r".to_owned(), Some("project"))
    );
}
