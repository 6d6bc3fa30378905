"""get_context_usage() sends a control request that only serves Claude
Code's own interface: the SDK raises AgentHub's error (it never waits
forever), and the session goes on to its result."""

from claude_agent_sdk import ClaudeSDKClient
from common import main, options, summaries


async def body():
    async with ClaudeSDKClient(options()) as client:
        try:
            await client.get_context_usage()
            error = None
        except Exception as refused:  # the SDK's error carrying AgentHub's message
            error = str(refused)
        await client.query("hello")
        messages = await summaries(client.receive_response())
    return {"messages": messages, "error": error}


main(body)
