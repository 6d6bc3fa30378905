"""set_model() between two user messages: under --script it is acknowledged
and the script keeps answering."""

from claude_agent_sdk import ClaudeSDKClient
from common import main, options, summaries


async def body():
    async with ClaudeSDKClient(options()) as client:
        await client.query("first")
        messages = await summaries(client.receive_response())
        await client.set_model("claude-sonnet-4-5")
        await client.query("second")
        messages += await summaries(client.receive_response())
    return {"messages": messages}


main(body)
