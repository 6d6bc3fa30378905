"""Streaming input that sends two user messages at once and ends: the SDK
closes stdin at once, and both are answered before agenthub exits."""

from claude_agent_sdk import query
from common import main, options, summaries, user


async def prompts():
    yield user("first")
    yield user("second")


async def body():
    return {"messages": await summaries(query(prompt=prompts(), options=options()))}


main(body)
