"""A query() with every option the SDK turns into a command-line flag or an
initialize field: it still ends in its result, and what AgentHub does not act
on is named on stderr (the lines starting "agenthub: ", in order)."""

import sys

from claude_agent_sdk import AgentDefinition, query
from common import main, options, summaries

named = []


def stderr(text):
    named.extend(line for line in text.split("\n") if line.startswith("agenthub: "))


async def body():
    settings = options(
        stderr=stderr,
        add_dirs=[sys.argv[1]],
        agents={"reviewer": AgentDefinition(description="Reviews", prompt="Review the change.")},
        allowed_tools=["Read"],
        betas=["context-1m-2025-08-07"],
        disallowed_tools=["WebFetch"],
        effort="low",
        fallback_model="other-model",
        include_partial_messages=True,
        max_turns=5,
        permission_mode="acceptEdits",
        setting_sources=["user", "project"],
        strict_mcp_config=True,
        system_prompt="You are terse.",
        thinking={"type": "enabled", "budget_tokens": 2048},
        tools=["Read", "Bash"],
    )
    messages = await summaries(query(prompt="hello", options=settings))
    return {"messages": messages, "named": named}


main(body)
