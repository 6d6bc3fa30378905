"""Reads AgentHub's `-p --output-format stream-json` lines (or one
`--output-format json` object) on stdin, parses each with the official Claude
Agent SDK's own message parser, and prints what the SDK understood: one JSON
summary a line, built only from the typed objects the parser returned.

Run by crates/cli/tests/e2e/claude_output.rs with PYTHONPATH=tests/python/site
(installed by scripts/test from tests/python/requirements.txt). A line the SDK
cannot parse makes the script exit 1, naming the line and the SDK's error.
"""

import json
import sys

from claude_agent_sdk import (
    AssistantMessage,
    ResultMessage,
    SystemMessage,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
)
from claude_agent_sdk.types import StreamEvent
from claude_agent_sdk._internal.message_parser import parse_message


def block(parsed):
    if isinstance(parsed, TextBlock):
        return {"TextBlock": parsed.text}
    if isinstance(parsed, ToolUseBlock):
        return {"ToolUseBlock": [parsed.id, parsed.name, parsed.input]}
    if isinstance(parsed, ToolResultBlock):
        return {"ToolResultBlock": [parsed.tool_use_id, parsed.content, parsed.is_error]}
    return {type(parsed).__name__: None}


def summary(message):
    if isinstance(message, SystemMessage):
        data = message.data
        return {"SystemMessage": message.subtype, "session": isinstance(data.get("session_id"), str)}
    if isinstance(message, AssistantMessage):
        return {
            "AssistantMessage": [block(part) for part in message.content],
            "model": message.model,
            "parent_tool_use_id": message.parent_tool_use_id,
            "stop_reason": message.stop_reason,
            "usage": message.usage,
        }
    if isinstance(message, UserMessage):
        content = message.content
        blocks = [block(part) for part in content] if isinstance(content, list) else content
        return {"UserMessage": blocks, "parent_tool_use_id": message.parent_tool_use_id}
    if isinstance(message, ResultMessage):
        return {
            "ResultMessage": message.subtype,
            "is_error": message.is_error,
            "num_turns": message.num_turns,
            "result": message.result,
            "usage": message.usage,
            "total_cost_usd": message.total_cost_usd,
            "permission_denials": message.permission_denials,
            "structured_output": message.structured_output,
            "durations": [type(message.duration_ms).__name__, type(message.duration_api_ms).__name__],
        }
    if isinstance(message, StreamEvent):
        return {"StreamEvent": message.event.get("type")}
    return {type(message).__name__: None}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            parsed = parse_message(json.loads(line))
        except Exception as error:  # the SDK's MessageParseError, or bad JSON
            print(f"the SDK could not parse {line.strip()}: {error!r}", file=sys.stderr)
            sys.exit(1)
        print(json.dumps(summary(parsed), sort_keys=True))


main()
