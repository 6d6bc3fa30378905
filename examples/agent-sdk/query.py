"""The Claude Agent SDK for Python driving AgentHub instead of Claude Code:
one option (cli_path) and, offline, the scripted model. AgentHub runs `ls`
unasked (a read-only command) and asks can_use_tool about `rm -rf build`,
which this program refuses."""

import json
import os
from pathlib import Path

import anyio
from claude_agent_sdk import (AssistantMessage, ClaudeAgentOptions, ClaudeSDKClient,
                              PermissionResultDeny, ResultMessage, TextBlock, ToolUseBlock)


async def can_use_tool(tool_name, tool_input, context):
    return PermissionResultDeny(message=f"{tool_name} `{tool_input['command']}` is not for this example")


async def main():
    options = ClaudeAgentOptions(
        cli_path=os.environ.get("AGENTHUB", "agenthub"),
        extra_args={"script": str(Path(__file__).with_name("script.json"))},
        can_use_tool=can_use_tool,
    )
    async with ClaudeSDKClient(options) as client:
        await client.query("tidy up")
        async for message in client.receive_response():
            if isinstance(message, AssistantMessage):
                for part in message.content:
                    if isinstance(part, TextBlock):
                        print(f"assistant: {part.text}")
                    if isinstance(part, ToolUseBlock):
                        print(f"tool call: {part.name} {json.dumps(part.input, separators=(',', ':'))}")
            elif isinstance(message, ResultMessage):
                print(f"result ({message.subtype}): {message.result}")


anyio.run(main)
