"""The in-process SDK MCP tool mcp__calc__add, allowed by a rule, blocked by
the SDK's own PreToolUse hook callback: hooks apply to SDK MCP tools too."""

from claude_agent_sdk import ClaudeSDKClient, HookMatcher, create_sdk_mcp_server, tool
from common import main, options, summaries

calls = []
heard = []


@tool("add", "Adds two numbers", {"a": float, "b": float})
async def add(args):
    calls.append(args)
    return {"content": [{"type": "text", "text": str(int(args["a"] + args["b"]))}]}


async def block(hook_input, tool_use_id, context):
    heard.append([hook_input["tool_name"], hook_input["tool_input"]])
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no sums today",
        }
    }


async def body():
    settings = options(
        mcp_servers={"calc": create_sdk_mcp_server(name="calc", version="1.0.0", tools=[add])},
        allowed_tools=["mcp__calc__add"],
        hooks={"PreToolUse": [HookMatcher(matcher="mcp__calc__add", hooks=[block])]},
    )
    async with ClaudeSDKClient(settings) as client:
        await client.query("add 2 and 3")
        messages = await summaries(client.receive_response())
    return {"calls": calls, "heard": heard, "messages": messages}


main(body)
