"""An SDK PreToolUse hook callback on Bash blocks a call the rules allow (a
read-only command): the model sees the hook's reason."""

from claude_agent_sdk import ClaudeSDKClient, HookMatcher
from common import main, options, summaries

heard = []


async def block(hook_input, tool_use_id, context):
    heard.append([hook_input["hook_event_name"], hook_input["tool_name"], hook_input["tool_input"], tool_use_id])
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "blocked by the SDK hook",
        }
    }


async def body():
    hooks = {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[block])]}
    async with ClaudeSDKClient(options(hooks=hooks)) as client:
        await client.query("say hi")
        messages = await summaries(client.receive_response())
    return {"heard": heard, "messages": messages}


main(body)
