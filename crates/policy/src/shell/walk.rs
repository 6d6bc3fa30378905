//! One parse and one walk over the whole tree (with an explicit stack, so deep
//! nesting cannot overflow): every `command` node, every file redirection,
//! and every node outside the small grammar a rule may allow.

use super::words::{word, word_list};
use super::{Analysis, Direction, Redirect, SimpleCommand};
use tree_sitter::{Node, Parser};

/// Node kinds that a rule-allowed command may contain.
const PLAIN_KINDS: [&str; 21] = [
    "program",
    "list",
    "pipeline",
    "command",
    "command_name",
    "word",
    "number",
    "string",
    "string_content",
    "raw_string",
    "concatenation",
    "variable_assignment",
    "variable_name",
    "comment",
    "redirected_statement",
    "file_redirect",
    "file_descriptor",
    "heredoc_redirect",
    "heredoc_start",
    "heredoc_body",
    "heredoc_end",
];

/// Commands that change the directory the rest of the line runs in.
const DIRECTORY_CHANGERS: [&str; 3] = ["cd", "pushd", "popd"];

pub fn walk(command: &str) -> Result<Analysis, String> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .map_err(|error| format!("the shell parser could not be loaded: {error}"))?;
    let tree = parser
        .parse(command, None)
        .ok_or_else(|| "the shell parser gave up on the command".to_owned())?;
    let source = command.as_bytes();
    let mut analysis = Analysis::default();
    let root = tree.root_node();
    if root.has_error() {
        analysis.parse_error = Some(parse_error(root, source));
    }
    control_characters(command, &mut analysis);
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        visit(node, source, &mut analysis);
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    directory_changes(&mut analysis);
    Ok(analysis)
}

fn visit(node: Node, source: &[u8], analysis: &mut Analysis) {
    match node.kind() {
        "command" => command(node, source, analysis),
        "file_redirect" => redirect(node, source, analysis),
        "variable_assignment" if node.parent().is_some_and(|p| p.kind() != "command") => {
            analysis.hazards.push(format!(
                "a variable assignment changes later commands: `{}`",
                excerpt(node, source)
            ))
        }
        "ERROR" => {}
        kind if PLAIN_KINDS.contains(&kind) || node.is_missing() => {}
        "herestring_redirect" | "negated_command" => {}
        kind => analysis
            .hazards
            .push(format!("{} `{}`", describe(kind), excerpt(node, source))),
    }
}

fn describe(kind: &str) -> String {
    match kind {
        "command_substitution" => "command substitution".to_owned(),
        "process_substitution" => "process substitution".to_owned(),
        "subshell" => "a subshell".to_owned(),
        "compound_statement" => "a command group".to_owned(),
        "if_statement"
        | "while_statement"
        | "for_statement"
        | "c_style_for_statement"
        | "case_statement" => "control flow".to_owned(),
        "function_definition" => "a function definition".to_owned(),
        "simple_expansion" | "expansion" => "a variable expansion".to_owned(),
        "arithmetic_expansion" => "an arithmetic expansion".to_owned(),
        "ansi_c_string" => "an ANSI-C quoted string".to_owned(),
        "translated_string" => "a locale-translated string".to_owned(),
        "brace_expression" => "a brace expansion".to_owned(),
        "test_command" => "a test expression".to_owned(),
        "declaration_command" => "a declaration".to_owned(),
        "unset_command" => "unset".to_owned(),
        other => format!("the shell construct {other}"),
    }
}

fn command(node: Node, source: &[u8], analysis: &mut Analysis) {
    let mut assignments = Vec::new();
    let mut words = Vec::new();
    let mut cursor = node.walk();
    for (index, child) in node.named_children(&mut cursor).enumerate() {
        match (child.kind(), node.field_name_for_named_child(index as u32)) {
            ("variable_assignment", _) => assignments.push(assignment_name(child, source)),
            ("command_name", _) => words.extend(word_list(child, source)),
            (_, Some("argument")) => words.push(word(child, source)),
            _ => {}
        }
    }
    if let Some(name) = words.first() {
        if !name.literal {
            analysis.hazards.push(format!(
                "the command name is not a plain word: `{}`",
                name.text
            ));
        } else if name.text.contains(['*', '?', '[']) {
            analysis.hazards.push(format!(
                "the command name is a glob pattern: `{}`",
                name.text
            ));
        }
    }
    analysis.commands.push(SimpleCommand {
        source: excerpt(node, source),
        assignments,
        words,
    });
}

fn assignment_name(node: Node, source: &[u8]) -> String {
    node.child_by_field_name("name")
        .and_then(|name| name.utf8_text(source).ok())
        .unwrap_or_default()
        .to_owned()
}

fn redirect(node: Node, source: &[u8], analysis: &mut Analysis) {
    let operator = operator(node);
    let mut cursor = node.walk();
    let targets: Vec<Node> = node
        .children_by_field_name("destination", &mut cursor)
        .collect();
    let Some(target) = targets.first().map(|target| word(*target, source)) else {
        return;
    };
    let is_descriptor_copy = matches!(operator.as_str(), ">&" | "<&" | ">&-" | "<&-")
        && (target.text == "-" || target.text.chars().all(|c| c.is_ascii_digit()));
    if is_descriptor_copy || target.text == "/dev/null" {
        return;
    }
    let direction = if operator == "<" {
        Direction::Read
    } else {
        Direction::Write
    };
    if direction == Direction::Write {
        analysis.hazards.push(format!(
            "output redirection to a file `{}`",
            excerpt(node, source)
        ));
    }
    analysis.redirects.push(Redirect {
        direction,
        target,
        source: excerpt(node, source),
    });
}

/// The redirection operator: the first anonymous child that is not a descriptor.
fn operator(node: Node) -> String {
    let mut cursor = node.walk();
    let operator = node
        .children(&mut cursor)
        .find(|child| !child.is_named())
        .map(|child| child.kind().to_owned());
    operator.unwrap_or_default()
}

fn control_characters(command: &str, analysis: &mut Analysis) {
    if let Some(character) = command
        .chars()
        .find(|c| c.is_control() && *c != '\n' && *c != '\t')
    {
        analysis.hazards.push(format!(
            "the command contains the control character U+{:04X}",
            u32::from(character)
        ));
    }
}

fn directory_changes(analysis: &mut Analysis) {
    if analysis.commands.len() < 2 {
        return;
    }
    if let Some(change) = analysis.commands.iter().find(|command| {
        command
            .name()
            .is_some_and(|name| DIRECTORY_CHANGERS.contains(&name))
    }) {
        analysis.hazards.push(format!(
            "`{}` changes the directory the other commands run in",
            change.source
        ));
        analysis.changes_directory = true;
    }
}

fn parse_error(root: Node, source: &[u8]) -> String {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            let position = node.start_position();
            let what = if node.is_missing() {
                format!("missing `{}`", node.kind())
            } else {
                format!("unexpected `{}`", excerpt(node, source))
            };
            return format!(
                "the command does not parse as shell: {what} at line {}, column {}",
                position.row + 1,
                position.column + 1
            );
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    "the command does not parse as shell".to_owned()
}

/// The node's text, shortened for messages.
fn excerpt(node: Node, source: &[u8]) -> String {
    let text = node.utf8_text(source).unwrap_or_default().trim();
    if text.chars().count() <= 80 {
        return text.to_owned();
    }
    let short: String = text.chars().take(77).collect();
    format!("{short}...")
}
