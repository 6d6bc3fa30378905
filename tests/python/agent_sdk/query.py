"""query() with a string prompt: the messages it streams, ending in a result."""

from claude_agent_sdk import query
from common import main, options, summaries


async def body():
    return {"messages": await summaries(query(prompt="read notes.txt", options=options()))}


main(body)
