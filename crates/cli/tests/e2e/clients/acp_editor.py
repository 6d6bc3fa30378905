"""What an editor is shown through `agenthub acp`, with the Python ACP SDK
(`agent-client-protocol`, pinned in tests/python; strict pydantic models parse
every message, so a shape the schema does not allow fails here).
Usage: python3 acp_editor.py AGENTHUB WORKSPACE -- AGENT_ARGS...
Prints one JSON object: the modes offered, the commands update, the plan,
the permission question for a Write (with its diff) and each tool call's
kind and locations.
"""

import asyncio
import json
import os
import sys

from acp import PROTOCOL_VERSION, spawn_agent_process, text_block
from acp.schema import AllowedOutcome, RequestPermissionResponse


def dumped(model):
    return model.model_dump(by_alias=True, exclude_none=True, mode="json")


class Editor:
    """Allows every ask once and keeps what it was shown."""

    def __init__(self):
        self.asked = []
        self.updates = []

    async def request_permission(self, session_id, tool_call, options, **kwargs):
        self.asked.append({"toolCall": dumped(tool_call),
                           "options": [option.option_id for option in options]})
        allow = next(option for option in options if option.kind == "allow_once")
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=allow.option_id))

    async def session_update(self, session_id, update, **kwargs):
        self.updates.append(dumped(update))


async def main():
    agenthub, workspace, separator, *args = sys.argv[1:]
    if separator != "--":
        raise SystemExit("usage: acp_editor.py AGENTHUB WORKSPACE -- ARGS...")
    editor = Editor()
    async with spawn_agent_process(lambda _agent: editor, agenthub, "acp", *args,
                                   env=dict(os.environ), cwd=workspace) as (conn, process):
        await conn.initialize(protocol_version=PROTOCOL_VERSION)
        created = await conn.new_session(cwd=workspace, mcp_servers=[])
        answer = await conn.prompt(session_id=created.session_id,
                                   prompt=[text_block("plan and write")])
    by_kind = {}
    for update in editor.updates:
        by_kind.setdefault(update["sessionUpdate"], []).append(update)
    calls = [{"title": call.get("title"), "kind": call.get("kind"),
              "locations": call.get("locations", [])}
             for call in by_kind.get("tool_call", [])]
    print(json.dumps({
        "modes": [(mode.id, mode.name) for mode in created.modes.available_modes],
        "commands": [command["name"] for update in by_kind.get("available_commands_update", [])
                     for command in update["availableCommands"]],
        "plan": by_kind.get("plan", []),
        "asked": editor.asked,
        "calls": calls,
        "stopReason": answer.stop_reason,
        "exit": await process.wait(),
    }))


asyncio.run(main())
