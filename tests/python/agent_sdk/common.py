"""What every program under tests/python/agent_sdk shares: the SDK options
that start agenthub as the SDK's Claude Code with the scripted model, and a
summary of each SDK message that keeps what a test compares and drops what
changes from run to run (uuids, durations, raw session ids). The summaries
are the same JSON values as tests/ts/agent_sdk/common.mjs makes, so both SDKs
are held to one expectation.

The Rust tests (crates/cli/tests/e2e/agent_sdk) start each program with
PYTHONPATH=tests/python/site, AGENTHUB_BIN (the binary), AGENTHUB_SCRIPT (the
script file) and the workspace as the working directory; the program prints
one JSON value.
"""

import json
import os
import sys

import anyio
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeAgentOptions,
    ResultMessage,
    SystemMessage,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
)
from claude_agent_sdk.types import StreamEvent


def options(**extra):
    """The SDK options every program starts from, `extra` set over them."""
    settings = {
        "cli_path": os.environ["AGENTHUB_BIN"],
        "cwd": os.getcwd(),
        "extra_args": {"script": os.environ["AGENTHUB_SCRIPT"]},
        "stderr": lambda text: print(text, file=sys.stderr),
    }
    settings.update(extra)
    return ClaudeAgentOptions(**settings)


_sessions = {}


def session(session_id):
    """"S1" for the first session id seen, "S2" for the next, …"""
    if not isinstance(session_id, str):
        return session_id
    return _sessions.setdefault(session_id, f"S{len(_sessions) + 1}")


def block(part):
    if isinstance(part, TextBlock):
        return {"text": part.text}
    if isinstance(part, ToolUseBlock):
        return {"tool_use": [part.name, part.input]}
    if isinstance(part, ToolResultBlock):
        return {"tool_result": [part.content, bool(part.is_error)]}
    return {type(part).__name__: None}


def summary(message):
    """The summary of one SDK message, or None for the lines a test never
    compares: AgentHub's own records (agenthub_permission, …) and stream events."""
    if isinstance(message, SystemMessage):
        data = message.data
        if message.subtype == "init":
            return {
                "init": {
                    "session": session(data.get("session_id")),
                    "model": data.get("model"),
                    "permissionMode": data.get("permissionMode"),
                    "mcp_servers": data.get("mcp_servers"),
                }
            }
        if message.subtype.startswith("agenthub_"):
            return None
        return {"system": message.subtype}
    if isinstance(message, AssistantMessage):
        return {"assistant": [block(part) for part in message.content]}
    if isinstance(message, UserMessage):
        content = message.content
        return {"user": content if isinstance(content, str) else [block(part) for part in content]}
    if isinstance(message, ResultMessage):
        return {
            "result": {
                "session": session(message.session_id),
                "subtype": message.subtype,
                "is_error": message.is_error,
                "result": message.result,
                "num_turns": message.num_turns,
                "permission_denials": [d["tool_name"] for d in message.permission_denials or []],
            }
        }
    if isinstance(message, StreamEvent):
        return None
    return {type(message).__name__: None}


async def summaries(messages, each=None):
    """Reads `messages` (an SDK query or response) to its end, calling `each`
    on every message; the summaries, in order."""
    seen = []
    async for message in messages:
        if each is not None:
            await each(message)
        summarized = summary(message)
        if summarized is not None:
            seen.append(summarized)
    return seen


def user(text):
    """A user message as the SDK's streaming input carries it."""
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None}


def main(body):
    """Runs the program's body (an async function) and prints the one JSON
    value it returns; an error is named on stderr and the program exits 1."""
    try:
        value = anyio.run(body)
    except Exception as error:  # the SDK's errors, named for the test's failure message
        print(f"the program failed: {error!r}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(value))
