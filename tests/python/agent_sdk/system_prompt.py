"""query() with the SDK's system_prompt option, which the SDK sends on the
command line (--system-prompt)."""

from claude_agent_sdk import query
from common import main, options, summaries


async def body():
    settings = options(system_prompt="You are terse.")
    return {"messages": await summaries(query(prompt="hello", options=settings))}


main(body)
