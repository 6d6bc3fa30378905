"""An in-process SDK MCP server `calc` with one tool `add`, called by the
model as mcp__calc__add. The first argument is the rule option to pass,
"allowedTools" or "disallowedTools", naming mcp__calc__add."""

import sys

from claude_agent_sdk import ClaudeSDKClient, create_sdk_mcp_server, tool
from common import main, options, summaries

calls = []


@tool("add", "Adds two numbers", {"a": float, "b": float})
async def add(args):
    calls.append(args)
    return {"content": [{"type": "text", "text": str(int(args["a"] + args["b"]))}]}


async def body():
    rule = {"allowedTools": "allowed_tools", "disallowedTools": "disallowed_tools"}[sys.argv[1]]
    calc = create_sdk_mcp_server(name="calc", version="1.0.0", tools=[add])
    settings = {"mcp_servers": {"calc": calc}, rule: ["mcp__calc__add"]}
    async with ClaudeSDKClient(options(**settings)) as client:
        await client.query("add 2 and 3")
        messages = await summaries(client.receive_response())
    return {"calls": calls, "messages": messages}


main(body)
