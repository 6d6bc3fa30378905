"""Streaming input through ClaudeSDKClient: the second user message is sent
once the first one's result has arrived; each gets its own result."""

from claude_agent_sdk import ClaudeSDKClient
from common import main, options, summaries


async def body():
    messages = []
    async with ClaudeSDKClient(options()) as client:
        for text in ["first", "second"]:
            await client.query(text)
            messages += await summaries(client.receive_response())
    return {"messages": messages}


main(body)
