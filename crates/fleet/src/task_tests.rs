use super::*;
use serde_json::json;

fn parse(text: &str) -> Result<Vec<TaskSpec>, String> {
    parse_task_list(text, Path::new("/lists/tasks.jsonl")).map_err(|error| error.to_string())
}

#[test]
fn a_path_task_with_every_field_is_read_with_its_paths_resolved_against_the_list_folder() {
    let line = r#"{"id":"a","prompt":"go","workspace":{"path":"repo"},"settings":{"model":"m"},"script":"s/one.json"}"#;
    assert_eq!(
        parse(line),
        Ok(vec![TaskSpec {
            id: "a".into(),
            prompt: "go".into(),
            workspace: TaskWorkspace::Path {
                path: PathBuf::from("/lists/repo")
            },
            settings: Some(json!({"model": "m"})),
            script: Some(PathBuf::from("/lists/s/one.json")),
            model: None,
        }])
    );
}

#[test]
fn absolute_paths_are_kept_and_a_git_task_keeps_its_url_and_ref() {
    let text = concat!(
        r#"{"id":"a","prompt":"p","workspace":{"path":"/abs/dir"},"model":"gpt"}"#,
        "\n",
        r#"{"id":"b","prompt":"q","workspace":{"git":"../remote.git","ref":"v1"}}"#,
    );
    let tasks = parse(text).map(|tasks| {
        tasks
            .into_iter()
            .map(|task| (task.id, task.workspace, task.model))
            .collect::<Vec<_>>()
    });
    assert_eq!(
        tasks,
        Ok(vec![
            (
                "a".to_owned(),
                TaskWorkspace::Path {
                    path: PathBuf::from("/abs/dir")
                },
                Some("gpt".to_owned())
            ),
            (
                "b".to_owned(),
                TaskWorkspace::Git {
                    git: "../remote.git".into(),
                    reference: "v1".into()
                },
                None
            ),
        ])
    );
}

#[test]
fn blank_lines_are_skipped_and_errors_count_them_in_the_line_number() {
    let text =
        "\n{\"id\":\"a\",\"prompt\":\"p\",\"workspace\":{\"path\":\"x\"}}\n   \n{\"id\":\"b\"}\n";
    assert_eq!(
        parse(text),
        Err("/lists/tasks.jsonl:4: not a task: missing field `prompt` at line 1 column 10".into())
    );
}

#[test]
fn a_line_that_is_not_json_names_its_line() {
    assert_eq!(
        parse("{\"id\":\"a\",\"prompt\":\"p\",\"workspace\":{\"path\":\"x\"}}\nnot json"),
        Err("/lists/tasks.jsonl:2: not a task: expected ident at line 1 column 2".into())
    );
}

#[test]
fn a_duplicate_id_names_both_lines() {
    let line = r#"{"id":"same","prompt":"p","workspace":{"path":"x"}}"#;
    assert_eq!(
        parse(&format!("{line}\n\n{line}")),
        Err("/lists/tasks.jsonl:3: duplicate task id \"same\" (first on line 1)".into())
    );
}

#[test]
fn an_unknown_field_is_an_error() {
    assert_eq!(
        parse(r#"{"id":"a","prompt":"p","workspace":{"path":"x"},"scrpt":"s.json"}"#),
        Err("/lists/tasks.jsonl:1: not a task: unknown field `scrpt`, expected one of `id`, `prompt`, `workspace`, `settings`, `script`, `model` at line 1 column 55".into())
    );
}

#[test]
fn each_malformed_workspace_is_named() {
    let with = |workspace: &str| {
        parse(&format!(
            r#"{{"id":"t","prompt":"p","workspace":{workspace}}}"#
        ))
    };
    assert_eq!(
        [
            with(r#"{"git":"u"}"#),
            with(r#"{"path":"x","git":"u","ref":"r"}"#),
            with(r#"{"path":"x","ref":"r"}"#),
            with(r#"{}"#),
        ],
        [
            Err(
                "/lists/tasks.jsonl:1: task \"t\": \"workspace\" needs \"ref\" with \"git\"".into()
            ),
            Err(
                "/lists/tasks.jsonl:1: task \"t\": \"workspace\" gives both \"path\" and \"git\""
                    .into()
            ),
            Err(
                "/lists/tasks.jsonl:1: task \"t\": \"workspace\" gives \"ref\" without \"git\""
                    .into()
            ),
            Err("/lists/tasks.jsonl:1: task \"t\": \"workspace\" needs \"path\" or \"git\"".into()),
        ]
    );
}

#[test]
fn settings_that_are_not_an_object_and_script_with_model_are_errors() {
    assert_eq!(
        [
            parse(r#"{"id":"t","prompt":"p","workspace":{"path":"x"},"settings":[1]}"#),
            parse(r#"{"id":"t","prompt":"p","workspace":{"path":"x"},"script":"s","model":"m"}"#),
            parse(r#"{"id":" ","prompt":"p","workspace":{"path":"x"}}"#),
        ],
        [
            Err("/lists/tasks.jsonl:1: task \"t\": \"settings\" must be an object".into()),
            Err("/lists/tasks.jsonl:1: task \"t\": give \"script\" or \"model\", not both".into()),
            Err("/lists/tasks.jsonl:1: \"id\" is empty".into()),
        ]
    );
}

#[test]
fn a_list_without_a_task_is_an_error() {
    assert_eq!(
        parse("\n  \n"),
        Err("/lists/tasks.jsonl: the task list holds no task".into())
    );
}

#[test]
fn a_missing_file_is_named() {
    let error = read_task_list(Path::new("/nonexistent/tasks.jsonl")).map_err(|e| e.to_string());
    assert_eq!(
        error,
        Err("cannot read task list /nonexistent/tasks.jsonl: No such file or directory (os error 2)".into())
    );
}

#[test]
fn a_task_serializes_back_to_the_list_format() {
    let task = TaskSpec {
        id: "g".into(),
        prompt: "p".into(),
        workspace: TaskWorkspace::Git {
            git: "file:///r".into(),
            reference: "main".into(),
        },
        settings: None,
        script: None,
        model: None,
    };
    assert_eq!(
        serde_json::to_value(&task).ok(),
        Some(json!({"id": "g", "prompt": "p", "workspace": {"git": "file:///r", "ref": "main"}}))
    );
}
