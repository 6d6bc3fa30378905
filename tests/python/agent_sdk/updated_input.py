"""can_use_tool allows the asked call with an updated_input: the JSON object
of the first argument, which AgentHub checks as it would any input."""

import json
import sys

from claude_agent_sdk import ClaudeSDKClient, PermissionResultAllow
from common import main, options, summaries

asks = []


async def can_use_tool(tool_name, tool_input, context):
    asks.append([tool_name, tool_input])
    return PermissionResultAllow(updated_input=json.loads(sys.argv[1]))


async def body():
    async with ClaudeSDKClient(options(can_use_tool=can_use_tool)) as client:
        await client.query("write it")
        messages = await summaries(client.receive_response())
    return {"asks": asks, "messages": messages}


main(body)
