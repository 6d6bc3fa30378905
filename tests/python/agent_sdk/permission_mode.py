"""set_permission_mode("acceptEdits") between two user messages: the first
Write asks (and can_use_tool denies it), the second one is allowed unasked."""

from claude_agent_sdk import ClaudeSDKClient, PermissionResultDeny
from common import main, options, summaries

asks = []


async def can_use_tool(tool_name, tool_input, context):
    asks.append([tool_name, tool_input])
    return PermissionResultDeny(message="not yet")


async def body():
    async with ClaudeSDKClient(options(can_use_tool=can_use_tool)) as client:
        await client.query("write it")
        messages = await summaries(client.receive_response())
        await client.set_permission_mode("acceptEdits")
        await client.query("write it now")
        messages += await summaries(client.receive_response())
    return {"asks": asks, "messages": messages}


main(body)
