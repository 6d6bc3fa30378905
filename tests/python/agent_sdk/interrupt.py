"""interrupt() while the turn's Bash call (`sleep 30`, allowed by a rule)
runs: the turn's result arrives promptly and the process ends."""

import time

from claude_agent_sdk import AssistantMessage, ClaudeSDKClient, ResultMessage, ToolUseBlock
from common import main, options, summaries


async def body():
    timing = {}
    async with ClaudeSDKClient(options(allowed_tools=["Bash(sleep:*)"])) as client:

        async def each(message):
            if isinstance(message, AssistantMessage) and any(
                isinstance(part, ToolUseBlock) for part in message.content
            ):
                timing["interrupted"] = time.monotonic()
                await client.interrupt()
            if isinstance(message, ResultMessage):
                timing["result"] = time.monotonic()

        await client.query("sleep")
        messages = await summaries(client.receive_response(), each)
    within = timing["result"] - timing["interrupted"] < 10
    return {"messages": messages, "result_within_10s": within}


main(body)
