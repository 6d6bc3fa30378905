"""can_use_tool hears the ask for a Bash call and denies it with a message,
which the model sees as the call's result."""

from claude_agent_sdk import ClaudeSDKClient, PermissionResultDeny
from common import main, options, summaries

asks = []


async def can_use_tool(tool_name, tool_input, context):
    asks.append([tool_name, tool_input])
    return PermissionResultDeny(message="no files today")


async def body():
    async with ClaudeSDKClient(options(can_use_tool=can_use_tool)) as client:
        await client.query("make a file")
        messages = await summaries(client.receive_response())
    return {"asks": asks, "messages": messages}


main(body)
