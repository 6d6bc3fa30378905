//! Writes AgentHub's history as a ReAct conversation for a model without
//! native tools: the tool list and the protocol in the first system message
//! (after the agent's own system prompt, so there is only one: many local
//! models' chat templates accept a single system message, first), past tool
//! calls as `Thought:` / `Action:` / `Action Input:` text, tool results as
//! `Observation:` user messages (the Go article's shape). Pure.

use agenthub_protocol::{Message, ToolCall, ToolSpec};

/// The history the inner model sees.
pub fn react_history(history: &[Message], tools: &[ToolSpec]) -> Vec<Message> {
    let (first, history) = match history.split_first() {
        Some((Message::System { content }, rest)) => {
            (format!("{content}\n\n{}", instructions(tools)), rest)
        }
        _ => (instructions(tools), history),
    };
    let mut rendered = vec![Message::system(first)];
    for message in history {
        match message {
            Message::Assistant {
                content,
                tool_calls,
            } if !tool_calls.is_empty() => rendered.push(Message::assistant_text(action_text(
                content.as_deref(),
                tool_calls,
            ))),
            Message::Tool { content, .. } => push_observation(&mut rendered, content),
            other => rendered.push(other.clone()),
        }
    }
    rendered
}

/// Consecutive tool results share one user message.
fn push_observation(rendered: &mut Vec<Message>, content: &str) {
    let observation = format!("Observation: {content}");
    if let Some(Message::User { content: previous }) = rendered.last_mut() {
        if previous.starts_with("Observation: ") {
            previous.push_str("\n\n");
            previous.push_str(&observation);
            return;
        }
    }
    rendered.push(Message::user(observation));
}

fn action_text(thought: Option<&str>, calls: &[ToolCall]) -> String {
    let mut text = String::new();
    if let Some(thought) = thought.filter(|thought| !thought.trim().is_empty()) {
        text.push_str(&format!("Thought: {}\n", thought.trim()));
    }
    let actions: Vec<String> = calls
        .iter()
        .map(|call| {
            format!(
                "Action: {}\nAction Input: {}",
                call.function.name, call.function.arguments
            )
        })
        .collect();
    text.push_str(&actions.join("\n"));
    text
}

/// The protocol, with every tool's name, description and input schema.
pub fn instructions(tools: &[ToolSpec]) -> String {
    let listed: Vec<String> = tools
        .iter()
        .map(|tool| {
            format!(
                "- {}: {}\n  Input (JSON Schema): {}",
                tool.name, tool.description, tool.parameters
            )
        })
        .collect();
    let listed = if listed.is_empty() {
        "(no tools are available)".to_owned()
    } else {
        listed.join("\n")
    };
    format!(
        "You can use tools to complete the task. Available tools:\n{listed}\n\n{FORMAT}\n\n\
         Use one Action per reply, then stop: the tool's result comes back to you as \
         \"Observation: <result>\". Never write an Observation yourself."
    )
}

/// The two reply shapes, as shown in the instructions and in corrections.
const FORMAT: &str = "Reply in exactly one of these two formats.\n\n\
To use a tool:\n\
Thought: <your reasoning>\n\
Action: <the tool's name, exactly as listed>\n\
Action Input: <the tool's input as one JSON object>\n\n\
When you know the answer:\n\
Thought: <your reasoning>\n\
Final Answer: <your answer to the user>";

/// What the model is told when its reply could not be read.
pub fn correction(problem: &str) -> String {
    format!("Your last reply could not be used: {problem}.\n\n{FORMAT}")
}
