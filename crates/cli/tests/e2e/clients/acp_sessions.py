"""An editor's past threads through `agenthub acp`, with the Python ACP SDK
(`agent-client-protocol`, pinned in tests/python; strict pydantic models).
Usage: python3 acp_sessions.py AGENTHUB WORKSPACE -- AGENT_ARGS...
Prints one JSON object.

First connection: initialize, a session whose mode is set before its first
prompt, then that prompt. Second connection: session/list of the workspace
and session/load of the session.
"""

import asyncio
import json
import os
import sys

from acp import PROTOCOL_VERSION, spawn_agent_process, text_block
from acp.schema import RequestPermissionResponse, DeniedOutcome


class Editor:
    """Shows nothing and answers every ask with `cancelled`."""

    async def request_permission(self, session_id, tool_call, options, **kwargs):
        return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))

    async def session_update(self, session_id, update, **kwargs):
        pass


def dumped(model):
    return model.model_dump(by_alias=True, exclude_none=True)


async def first(agenthub, workspace, args):
    async with spawn_agent_process(lambda _agent: Editor(), agenthub, "acp", *args,
                                   env=dict(os.environ), cwd=workspace) as (conn, process):
        init = await conn.initialize(protocol_version=PROTOCOL_VERSION)
        created = await conn.new_session(cwd=workspace, mcp_servers=[])
        await conn.set_session_mode(session_id=created.session_id, mode_id="dontAsk")
        answer = await conn.prompt(session_id=created.session_id,
                                   prompt=[text_block("from python\nsecond line")])
    return {
        "sessionCapabilities": dumped(init.agent_capabilities.session_capabilities),
        "sessionId": created.session_id,
        "stopReason": answer.stop_reason,
        "exit": await process.wait(),
    }


async def second(agenthub, workspace, args, session_id):
    async with spawn_agent_process(lambda _agent: Editor(), agenthub, "acp", *args,
                                   env=dict(os.environ), cwd=workspace) as (conn, process):
        await conn.initialize(protocol_version=PROTOCOL_VERSION)
        listed = await conn.list_sessions(cwd=workspace)
        loaded = await conn.load_session(cwd=workspace, session_id=session_id, mcp_servers=[])
    return {
        "listed": dumped(listed),
        "loadedMode": loaded.modes.current_mode_id,
        "exit": await process.wait(),
    }


async def main():
    agenthub, workspace, separator, *args = sys.argv[1:]
    if separator != "--":
        raise SystemExit("usage: acp_sessions.py AGENTHUB WORKSPACE -- ARGS...")
    opened = await first(agenthub, workspace, args)
    again = await second(agenthub, workspace, args, opened["sessionId"])
    print(json.dumps({"first": opened, "second": again}))


asyncio.run(main())
